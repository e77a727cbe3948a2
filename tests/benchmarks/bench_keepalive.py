"""Requests on one kept-alive connection against requests each on a new connection, on `make
run`'s server, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_keepalive.py [--requests 20] [--path /api/v1/]

It migrates a SQLite file of its own and serves it with the local settings twice, as `make run`
does but without autoreload: once with Django's stock staticfiles runserver (Nagle's algorithm
on), once with the project's runserver (cardsite/devserver: TCP_NODELAY on each accepted
connection). For each it times N requests on one `http.client.HTTPConnection` and N requests
each on a new connection (after one warm-up request), and prints the medians and their ratio as
a Markdown table. With Nagle on, a kept-alive request waits for the client's delayed ACK (40 ms
on Linux) before the rest of the answer is sent."""

from __future__ import annotations

import argparse
import http.client
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from load_server import say

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.hostile.live_fuzz import free_port, manage, stack_env, stop  # noqa: E402

SERVERS = {
    "Django's runserver (Nagle on)": (
        "import django; django.setup();"
        "from django.core.management import call_command;"
        "from django.contrib.staticfiles.management.commands.runserver import Command;"
        "call_command(Command(), '--noreload', sys.argv[1])"
    ),
    "cardsite's runserver (TCP_NODELAY)": (
        "from django.core.management import execute_from_command_line;"
        "execute_from_command_line(['manage.py', 'runserver', '--noreload', sys.argv[1]])"
    ),
}


def start(code: str, env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys;" + code, f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            get(http.client.HTTPConnection("127.0.0.1", port, timeout=5), "/api/v1/")
            return process
        except OSError:
            time.sleep(0.3)
    stop([process])
    raise SystemExit(f"the server did not answer within 60 s: see {log}")


def get(conn: http.client.HTTPConnection, path: str) -> None:
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    if response.status != 200:
        raise SystemExit(f"GET {path}: {response.status}")


def timed(conn: http.client.HTTPConnection, path: str) -> float:
    started = time.perf_counter()
    get(conn, path)
    return (time.perf_counter() - started) * 1000


def measure(port: int, path: str, requests: int) -> tuple[float, float]:
    """Median ms of a request on one kept-alive connection, and on a new connection each."""
    kept = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    get(kept, path)  # the connection's first request, which Nagle does not delay
    kept_alive = [timed(kept, path) for _ in range(requests)]
    kept.close()
    fresh = []
    for _ in range(requests):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        fresh.append(timed(conn, path))
        conn.close()
    return statistics.median(kept_alive), statistics.median(fresh)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--path", default="/api/v1/")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-keepalive-") as tmp:
        work = Path(tmp)
        env = stack_env("local", work)
        say("migrating a SQLite file of its own")
        manage(env, "migrate", "--noinput", "-v0")
        rows = []
        for name, code in SERVERS.items():
            port = free_port()
            process = start(code, env, port, work / "server.log")
            try:
                kept_alive, fresh = measure(port, args.path, args.requests)
            finally:
                stop([process])
            rows.append((name, kept_alive, fresh))
    print(f"\n`GET {args.path}`, median of {args.requests} requests each:\n")
    print("| server | kept-alive connection | new connection each | kept-alive / new |")
    print("|---|---|---|---|")
    for name, kept_alive, fresh in rows:
        print(f"| {name} | {kept_alive:.1f} ms | {fresh:.1f} ms | x{kept_alive / fresh:.2f} |")


if __name__ == "__main__":
    main()
