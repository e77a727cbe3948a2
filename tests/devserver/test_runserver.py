import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardsite.devserver.management.commands.runserver import LISTEN_BACKLOG

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
