"""A threaded live server in this process, as `make run` serves the site: each request thread
has its own database connection, so it sees what a test or benchmark has committed.

pytest-django's own live_server makes each test transactional and flushes the database
afterwards; the browser tests, the SQLite write races and the TTS benchmark start this one
instead, around a database they fill and empty themselves."""

from __future__ import annotations

from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.test.testcases import LiveServerThread


def start_live_server(
    thread_class: type[LiveServerThread] = LiveServerThread,
) -> tuple[LiveServerThread, str]:
    """The started server thread (stop it with `terminate()`) and its address."""
    thread = thread_class("127.0.0.1", StaticFilesHandler, port=0)
    thread.daemon = True
    thread.start()
    thread.is_ready.wait()
    if thread.error:
        raise thread.error
    return thread, f"http://127.0.0.1:{thread.port}"
