"""Requests at the same moment, each on its own thread and database connection.

Only PostgreSQL lets writers overlap (SQLite locks the whole file), so the race tests skip
elsewhere. A race test is an ordinary `django_db` test (so it runs alone too, the database set
up for it), but what the racers must see is written by `committed`, on a connection of its
own, and removed by it afterwards: the test's own transaction sees it, as READ COMMITTED does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

import pytest
from django.db import connection, connections

T = TypeVar("T")

race_test = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL"
    ),
    pytest.mark.django_db,
]


def race(*jobs: Callable[[], object]) -> list[object]:
    """Start every job at once; their results in order, an exception as `error: ...` (which
    no assertion accepts)."""
    start = threading.Barrier(len(jobs))
    results: list[object] = ["never finished"] * len(jobs)

    def run(i: int, job: Callable[[], object]) -> None:
        try:
            start.wait()
            results[i] = job()
        except Exception as exc:  # a failure of any kind must fail the test
            results[i] = f"error: {exc!r}"
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def committed(job: Callable[[], T]) -> T:
    """`job` run and committed on a connection of its own, outside the test's transaction."""
    out: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            out.append(job())
        except BaseException as exc:
            failed.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=120)
    if failed:
        raise failed[0]
    return out[0]
