"""`manage.py runserver` for the local settings: staticfiles' runserver (static files served,
autoreload) on a server whose listen queue holds 128 waiting connections.

Django's development server listens with a queue of 10: a burst of requests beyond it (a page
opened in many tabs, or two tabs saving while a page's images load) is reset by the kernel
before it reaches the site. SQLite's busy timeout already lets the site itself take such a
burst (tests/hostile/test_sqlite_concurrent_writes.py), so the socket should too."""

from __future__ import annotations

from django.contrib.staticfiles.management.commands.runserver import (
    Command as StaticfilesRunserver,
)
from django.core.servers.basehttp import WSGIServer

LISTEN_BACKLOG = 128


class BurstTolerantServer(WSGIServer):
    request_queue_size = LISTEN_BACKLOG


class Command(StaticfilesRunserver):
    server_cls = BurstTolerantServer
