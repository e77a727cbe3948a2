"""SQLite under concurrent requests (the default set-up, `make run`): see DATABASES in
cardsite/settings/base.py for WAL mode, the busy timeout and IMMEDIATE write transactions."""

from collections.abc import Callable
from typing import Any

from django.db import OperationalError, connections
from django.db.backends.signals import connection_created
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Seconds a client is asked to wait before trying a refused write again: writes hold the lock
# for milliseconds, so the queue that outlasted the busy timeout is gone by then.
RETRY_AFTER = 2


def database_busy(exception: BaseException) -> bool:
    """SQLite's answer when the write lock could not be had within the busy timeout."""
    return isinstance(exception, OperationalError) and "database is locked" in str(exception)


def busy_response(request: HttpRequest) -> HttpResponse:
    waited = connections["default"].settings_dict["OPTIONS"].get("timeout", 5)
    message = (
        f"The site is busy saving other changes: yours waited {waited:g} seconds for its turn,"
        f" the most a save waits, and nothing was saved. Try again in {RETRY_AFTER} seconds."
    )
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"code": "busy", "detail": message}, status=503)
    else:
        response = render(request, "busy.html", {"message": message}, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class SqliteTransactions:
    """On SQLite, a request's transaction (ATOMIC_REQUESTS) takes the write lock as it begins
    only when the request may write: with every request IMMEDIATE, each page view would queue
    behind every save and hold up the next one for as long as it renders. A read-only request
    begins DEFERRED and, in WAL mode, reads beside a writer. A write that still cannot get the
    lock within the busy timeout is a 503 with Retry-After, its transaction rolled back.
    Inert on PostgreSQL."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        connection = connections["default"]
        if connection.vendor != "sqlite" or request.method not in SAFE_METHODS:
            return self.get_response(request)
        # Not connecting here: a page that reads nothing opens no connection.
        connection.read_only_request = True  # type: ignore[attr-defined]
        _choose_mode(connection)
        try:
            return self.get_response(request)
        finally:
            connection.read_only_request = False  # type: ignore[attr-defined]
            _choose_mode(connection)

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        # Under ATOMIC_REQUESTS the commit happens outside DRF's view, so this is the one
        # place that sees a lock lost at commit as well as one not had at BEGIN.
        if database_busy(exception):
            return busy_response(request)
        return None


def _choose_mode(connection: Any, **kwargs: Any) -> None:
    """DEFERRED during a read-only request, else the mode OPTIONS set. Also run as each
    connection opens, since opening sets the mode from OPTIONS afresh."""
    if connection.vendor != "sqlite":
        return
    if getattr(connection, "read_only_request", False):
        connection.transaction_mode = None
    else:
        configured = connection.settings_dict["OPTIONS"].get("transaction_mode")
        connection.transaction_mode = configured.upper() if configured else None


connection_created.connect(_choose_mode)
