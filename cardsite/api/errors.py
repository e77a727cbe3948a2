"""Every API error is JSON: {"code": ..., "detail": ...}, plus "errors" for field problems."""

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from cardsite.limits import LimitReached
from engines.errors import InputError


def _first_code(codes: Any) -> str:
    if isinstance(codes, str):
        return codes
    if isinstance(codes, dict):
        return _first_code(next(iter(codes.values()), "invalid"))
    if isinstance(codes, list) and codes:
        return _first_code(codes[0])
    return "error"


def as_api_error(exc: InputError) -> exceptions.ValidationError:
    """An input the services or engines refused, as the API's 400 naming the field."""
    return exceptions.ValidationError({exc.field: [exc.message]})


def as_form_error(exc: InputError) -> str:
    """The same refusal as a page shows it, beside the form."""
    return exc.message


class TooMany(exceptions.Throttled):
    """A LimitReached, as the API's 429: its own code and message, and Retry-After when known."""

    def __init__(self, exc: LimitReached) -> None:
        super().__init__(wait=exc.retry_after, detail=exc.message, code=exc.code)
        self.detail = exceptions.ErrorDetail(exc.message, exc.code)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, InputError):
        exc = as_api_error(exc)
    elif isinstance(exc, LimitReached):
        exc = TooMany(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a real bug: Django's 500 handling (handler500 below for /api/) takes it
    if isinstance(exc, exceptions.ValidationError):
        body: dict[str, Any] = {
            "code": "invalid",
            "detail": "The request has invalid fields.",
            "errors": response.data,
        }
        if isinstance(response.data, list):
            body = {"code": "invalid", "detail": " ".join(str(m) for m in response.data)}
    elif isinstance(exc, exceptions.APIException):
        body = {"code": _first_code(exc.get_codes()), "detail": str(exc.detail)}
    else:  # Http404 and PermissionDenied from Django, converted by DRF
        data = response.data if isinstance(response.data, dict) else {}
        body = {
            "code": "not_found" if response.status_code == 404 else "error",
            "detail": str(data.get("detail", "Error.")),
        }
    response.data = body
    return response


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


# Exempt, or a POST/PUT/DELETE to an unknown /api/ URL is refused by the CSRF middleware with
# an HTML 403 before this can answer with a JSON 404. It only ever says "not found".
@csrf_exempt
def json_or_html_404(request: HttpRequest, exception: Exception | None = None) -> Any:
    if _wants_json(request):
        return JsonResponse(
            {"code": "not_found", "detail": f"No API endpoint at {request.path}."},
            status=status.HTTP_404_NOT_FOUND,
        )
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def json_or_html_500(request: HttpRequest) -> Any:
    if _wants_json(request):
        return JsonResponse(
            {"code": "server_error", "detail": "Something went wrong on our side."},
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    from django.views.defaults import server_error

    return server_error(request)
