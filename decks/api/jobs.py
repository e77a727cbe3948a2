"""The API side of background jobs: 202 Accepted with a status URL, the status, the result."""

from typing import Any

from django.http import FileResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException, NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse as api_reverse
from rest_framework.views import APIView

from cardsite.catalogue.api.serializers import _DATETIME
from decks.api.serializers import JobSerializer
from decks.jobs import job_read
from decks.models import Job


class JobGone(APIException):
    status_code = status.HTTP_410_GONE
    default_detail = "The job has expired and its result was deleted; ask for it again."
    default_code = "expired"


class JobNotReady(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The job has not finished; follow its status URL."
    default_code = "not_ready"


def prefers_async(request: Request) -> bool:
    """RFC 7240's `Prefer: respond-async`: the client would rather poll than wait."""
    prefer = request.headers.get("Prefer", "")
    return any(p.strip().lower() == "respond-async" for p in prefer.split(","))


def _time(value: Any) -> str | None:
    return _DATETIME.to_representation(value) if value else None


def job_record(job: Job, request: Request) -> dict[str, Any]:
    return {
        "id": job.key,
        "kind": job.kind,
        "status": job.status,
        "done": job.done,
        "total": job.total,
        "progress": round(job.fraction, 4),
        "error": job.error or None,
        "url": api_reverse("job-detail", args=[job.key], request=request),
        "page_url": request.build_absolute_uri(job.get_absolute_url()),
        "result_url": api_reverse("job-result", args=[job.key], request=request)
        if job.status == Job.Status.DONE
        else None,
        "created_at": _time(job.created_at),
        "started_at": _time(job.started_at),
        "finished_at": _time(job.finished_at),
        "expires_at": _time(job.expires_at),
    }


def job_accepted(job: Job, request: Request) -> Response:
    record = job_record(job, request)
    return Response(record, status=status.HTTP_202_ACCEPTED, headers={"Location": record["url"]})


def _readable(request: Request, key: str) -> Job:
    job = job_read(key=key, user=request.user)
    if job is None:
        raise NotFound("No job with that id, or it is not yours.")
    if job.expired:
        raise JobGone()
    return job


class JobView(APIView):
    """GET /api/v1/jobs/{id}/: a job's status and progress."""

    throttle_scope = "jobs"
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A background job's status and progress",
        responses={200: JobSerializer, 404: OpenApiResponse(description="No such job")},
    )
    def get(self, request: Request, key: str) -> Response:
        return Response(job_record(_readable(request, key), request))


class JobResultView(APIView):
    """GET /api/v1/jobs/{id}/result: the finished job's PDF or JSON."""

    throttle_scope = "jobs"
    permission_classes = [AllowAny]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # The result bypasses renderers; errors must still be JSON whatever Accept says.
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        summary="A finished job's result: a proxy PDF, or goldfish JSON",
        responses={
            (200, "application/pdf"): OpenApiTypes.BINARY,
            (200, "application/json"): OpenApiTypes.OBJECT,
            409: OpenApiResponse(description="Not finished yet"),
            410: OpenApiResponse(description="Expired"),
        },
    )
    def get(self, request: Request, key: str) -> FileResponse:
        job = _readable(request, key)
        if job.status == Job.Status.FAILED:
            raise NotFound(f"The job failed: {job.error}")
        if job.status != Job.Status.DONE or not job.result:
            raise JobNotReady()
        return FileResponse(
            job.result.open("rb"), content_type=job.result_type, filename=job.result_filename
        )
