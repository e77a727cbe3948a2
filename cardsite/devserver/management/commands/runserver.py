"""`manage.py runserver` for the local settings: staticfiles' runserver (static files served,
autoreload) on a server whose listen queue holds 128 waiting connections and whose connections
send without Nagle's delay.

Django's development server listens with a queue of 10: a burst of requests beyond it (a page
opened in many tabs, or two tabs saving while a page's images load) is reset by the kernel
before it reaches the site. SQLite's busy timeout already lets the site itself take such a
burst (tests/hostile/test_sqlite_concurrent_writes.py), so the socket should too.

It also writes each answer in several small unbuffered writes (status line, headers, body). On
a kept-alive connection Nagle's algorithm holds the later writes until the client ACKs the
first, and the client delays that ACK (40 ms on Linux) waiting for more: every request after a
connection's first (every htmx request of a browser) took ~44 ms instead of ~3 ms
(tests/benchmarks/bench_keepalive.py). TCP_NODELAY sends each write at once."""

from __future__ import annotations

import socket
from typing import Any

from django.contrib.staticfiles.management.commands.runserver import (
    Command as StaticfilesRunserver,
)
from django.core.servers.basehttp import WSGIServer

LISTEN_BACKLOG = 128


class DevServer(WSGIServer):
    request_queue_size = LISTEN_BACKLOG

    def get_request(self) -> tuple[socket.socket, Any]:
        connection, client_address = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, client_address


class Command(StaticfilesRunserver):
    server_cls = DevServer
