import http.client
import shutil
import socket
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.core.management import load_command_class
from django.core.servers.basehttp import WSGIRequestHandler

from cardsite.devserver.management.commands.runserver import LISTEN_BACKLOG, DevServer

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def local_runserver(tmp_path):
    """`manage.py runserver` as `make run` starts it, on a database file of its own."""
    port = _free_port()
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "cardsite.settings.local",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "MEDIA_ROOT": str(tmp_path / "media"),
    }
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    yield port
    server.terminate()
    server.wait(timeout=30)


def _listen_backlog(port: int) -> int:
    # For a listening socket, `ss` reports the backlog it was given in the Send-Q column.
    out = subprocess.run(
        ["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[2])


@pytest.mark.skipif(shutil.which("ss") is None, reason="needs iproute2's ss")
def test_make_runs_server_listens_with_a_queue_for_a_burst_of_connections(local_runserver):
    assert _listen_backlog(local_runserver) == LISTEN_BACKLOG > 10


def test_make_runs_server_answers_a_burst_of_connections_opened_at_once(local_runserver):
    burst = []
    try:
        for _ in range(LISTEN_BACKLOG // 2):
            burst.append(socket.create_connection(("127.0.0.1", local_runserver), timeout=10))
        for conn in burst:
            conn.sendall(b"GET /static/css/site.css HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        answers = [conn.recv(12) for conn in burst]
    finally:
        for conn in burst:
            conn.close()
    assert all(answer.startswith(b"HTTP/1.") for answer in answers), answers


class _NoDelayRecorder(WSGIRequestHandler):
    """Django's handler, noting on the server side whether each accepted socket has Nagle off."""

    def setup(self) -> None:
        self.server.nodelay.append(  # type: ignore[attr-defined]
            self.request.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        )
        super().setup()


def _hello(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "5")])
    return [b"hello"]


@pytest.fixture
def threaded_dev_server():
    # Threaded, as runserver builds it (django.core.servers.basehttp.run).
    server_cls = type("WSGIServer", (socketserver.ThreadingMixIn, DevServer), {})
    server = server_cls(("127.0.0.1", 0), _NoDelayRecorder)
    server.daemon_threads = True
    server.nodelay = []
    server.set_app(_hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


def test_make_runs_runserver_serves_on_the_dev_server():
    command = load_command_class("cardsite.devserver", "runserver")
    assert command.server_cls is DevServer


def test_the_dev_servers_connections_send_without_nagles_delay(threaded_dev_server):
    conn = http.client.HTTPConnection("127.0.0.1", threaded_dev_server.server_port, timeout=10)
    try:
        # Two requests on one kept-alive connection, then one on a new connection.
        for _ in range(2):
            conn.request("GET", "/")
            assert conn.getresponse().read() == b"hello"
    finally:
        conn.close()
    second = http.client.HTTPConnection("127.0.0.1", threaded_dev_server.server_port, timeout=10)
    try:
        second.request("GET", "/")
        assert second.getresponse().read() == b"hello"
    finally:
        second.close()
    assert len(threaded_dev_server.nodelay) == 2
    assert all(threaded_dev_server.nodelay), threaded_dev_server.nodelay
