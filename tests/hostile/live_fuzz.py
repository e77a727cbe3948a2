"""Schema fuzzing against a running stack, on demand (not part of the suite).

The suite's fuzz (tests/api/test_schema_fuzz.py) runs in-process on the test database. This
runs schemathesis' own command line, every check (`--checks all`), over real HTTP against
one of the two stacks a person runs, anonymous and then with a real token:

- `--stack local`: `make run`'s, runserver with the local settings on a SQLite file (WAL);
- `--stack production`: `make serve-prod`'s, gunicorn (3 workers) with the production
  settings on PostgreSQL, Redis as the cache and a Celery worker on a Redis broker.

Each stack gets a database of its own (a temporary SQLite file; PostgreSQL `cardsite_fuzz`)
and Redis databases 11 and 12, migrated and loaded as `make run` does. Rate limits are raised,
as in the load test, so that the fuzz reaches the operations instead of their 429.

    .venv/bin/python tests/hostile/live_fuzz.py --stack local
    .venv/bin/python tests/hostile/live_fuzz.py --stack production --max-examples 30

It prints each run's failures by check and exits non-zero if any answer was a 5xx
(`not_a_server_error`). What else it reports is read by a person: the remaining refusals of
generated "valid" requests are facts the schema cannot state (which cards exist, a deck's
game), each written into its operation's description.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DATABASE = "cardsite_fuzz"
REDIS_CACHE, REDIS_BROKER = 11, 12
SEED = 20_261_126
THROTTLES = {
    f"THROTTLE_{scope}": "1000000/s"
    for scope in ("READ", "SEARCH", "WRITE", "VALIDATE", "GOLDFISH", "PROXIES", "IMAGES")
}
USERNAME = "livefuzz"
REVOKE = "DELETE /api/v1/auth/token/"


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stack_env(stack: str, work: Path) -> dict[str, str]:
    common = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "MEDIA_ROOT": str(work / "media"),
        **THROTTLES,
    }
    if stack == "local":
        return {
            **common,
            "DJANGO_SETTINGS_MODULE": "cardsite.settings.local",
            "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}",
        }
    return {
        **common,
        "DJANGO_SETTINGS_MODULE": "cardsite.settings.production",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_CACHE}",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{REDIS_BROKER}",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "STATIC_ROOT": str(work / "static"),
    }


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def prepare(stack: str, env: dict[str, str]) -> str:
    """A fresh database, migrated and loaded as `make run` does; the fuzz user's token."""
    if stack == "production":
        import psycopg
        import redis

        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
            c.execute(f"CREATE DATABASE {DATABASE}")
        for db in (REDIS_CACHE, REDIS_BROKER):
            redis.Redis.from_url(f"redis://127.0.0.1:6379/{db}").flushdb()
    say("migrating and loading the games")
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "load_games", "-v0")
    if stack == "production":
        manage(env, "collectstatic", "--noinput", "-v0")
    code = (
        "from django.contrib.auth.models import User;"
        "from rest_framework.authtoken.models import Token;"
        f"u = User.objects.create_user({USERNAME!r}, password=None);"
        "print(Token.objects.create(user=u).key)"
    )
    return manage(env, "shell", "-c", code).strip().splitlines()[-1]


def start(stack: str, env: dict[str, str], port: int, work: Path) -> list[subprocess.Popen[bytes]]:
    log = (work / "server.log").open("wb")
    if stack == "local":
        command = [str(BIN / "python"), "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
        processes = [subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)]
    else:
        gunicorn = [str(BIN / "gunicorn"), "cardsite.wsgi", "--workers", "3"]
        worker = [str(BIN / "celery"), "-A", "cardsite", "worker", "--concurrency", "1"]
        processes = [
            subprocess.Popen(
                [*gunicorn, "--bind", f"127.0.0.1:{port}"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            ),
            subprocess.Popen(
                [*worker, "--loglevel", "WARNING"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            ),
        ]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/", timeout=5):
                return processes
        except OSError:
            time.sleep(0.3)
    stop(processes)
    raise SystemExit("the server did not answer within 60 s: see " + str(work / "server.log"))


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def fuzz(base: str, token: str | None, max_examples: int, work: Path) -> tuple[int, str]:
    """One schemathesis run; its exit code and output."""
    command = [
        str(BIN / "schemathesis"),
        "run",
        f"{base}/api/v1/schema/",
        "--checks",
        "all",
        "--max-examples",
        str(max_examples),
        "--seed",
        str(SEED),
        "--max-response-time",
        "10",
        "--workers",
        "1",
        "--continue-on-failure",
        "--generation-database",
        "none",
        # With a token, not the operation that revokes it: every later request would be a 401.
        *(["--header", f"Authorization: Token {token}", "--exclude-name", REVOKE] if token else []),
    ]
    # In the run's folder: schemathesis keeps a cache of what it found in its working directory.
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=work)
    name = "token" if token else "anonymous"
    (work / f"schemathesis-{name}.txt").write_text(done.stdout + done.stderr)
    return done.returncode, done.stdout + done.stderr


def failures_by_check(output: str) -> Counter[str]:
    """The failures schemathesis' summary counts by check (`❌ ST202 <title>: 8`)."""
    counted: Counter[str] = Counter()
    for found in re.finditer(r"^\s*❌ (?P<check>ST\d+ [^:]+): (?P<n>\d+)\s*$", output, re.M):
        counted[found["check"]] += int(found["n"])
    return counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", choices=["local", "production"], required=True)
    parser.add_argument("--max-examples", type=int, default=25)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix=f"live-fuzz-{args.stack}-"))
    env = stack_env(args.stack, work)
    token = prepare(args.stack, env)
    port = free_port()
    processes = start(args.stack, env, port, work)
    base = f"http://127.0.0.1:{port}"
    server_errors = 0
    try:
        for who, key in (("anonymous", None), ("token", token)):
            say(f"fuzzing as {who}")
            _, output = fuzz(base, key, args.max_examples, work)
            counted = failures_by_check(output)
            summary = [
                line for line in output.splitlines() if re.search(r"\d+ (passed|failed)", line)
            ]
            print(f"## {args.stack}, {who}")
            print("\n".join(summary[-3:]) or "(no summary line)")
            for title, n in sorted(counted.items()):
                print(f"- {title}: {n}")
            server_errors += sum(n for check, n in counted.items() if "Server error" in check)
    finally:
        stop(processes)
    log = (work / "server.log").read_text(errors="replace")
    tracebacks = log.count("Traceback (most recent call last)")
    print(f"server log: {tracebacks} tracebacks ({work / 'server.log'})")
    print(f"outputs: {work}")
    if args.stack == "local":
        shutil.rmtree(work / "media", ignore_errors=True)
    return 1 if server_errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
