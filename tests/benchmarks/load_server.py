"""The load test's machinery (tests/benchmarks/load_test.py): the gunicorn it starts and stops,
the CPU each process spends, and wrk driving one endpoint at a time. No Django here."""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# LOADTEST_DATABASE and LOADTEST_REDIS_DB let two runs share a machine without sharing (and
# flushing) each other's data.
DATABASE = os.environ.get("LOADTEST_DATABASE", "cardsite_load")


@dataclass
class Server:
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    notes: list[str] = field(default_factory=list)


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() != 0:
        raise SystemExit("wrk is not installed: sudo apt-get install -y wrk (Debian package wrk)")
    say("installing wrk (apt-get install -y wrk)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", "wrk"]
    if subprocess.run(install, env=env).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True)
        subprocess.run(install, env=env, check=True)
    return shutil.which("wrk") or "wrk"


# --- the server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(
    server: Server, env: dict[str, str], port: int, args: argparse.Namespace, log_dir: Path
) -> None:
    command = [
        str(BIN / "gunicorn"),
        "cardsite.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(args.workers),
        "--worker-class",
        args.worker_class,
        # Only for gthread: gunicorn turns sync workers with --threads > 1 into gthread ones.
        *(["--threads", str(args.threads)] if args.worker_class == "gthread" else []),
        # As serve-prod: every request logged (here to a file rather than the terminal).
        "--access-logfile",
        str(log_dir / "access.log"),
    ]
    server.log = log_dir / "gunicorn.log"
    say("starting: " + " ".join(command[1:]))
    with server.log.open("wb") as log:
        server.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, stopped as a whole
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise SystemExit(f"gunicorn exited ({server.process.returncode}):\n{log_tail(server)}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                if response.status == 200:
                    server.notes += [
                        line.split("] ", 1)[-1]
                        for line in server.log.read_text(errors="replace").splitlines()
                        if "Using worker:" in line
                    ]
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer within 30 s:\n{log_tail(server)}")


def stop_gunicorn(server: Server) -> None:
    process = server.process
    if process is None or process.poll() is not None:
        return
    say("stopping gunicorn")
    process.terminate()  # the master: a graceful shutdown of its workers
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the group started above, and only it
        process.wait(timeout=5)


def cpu_times(server: Server) -> dict[int, tuple[str, float]]:
    """CPU seconds used so far by each gunicorn process (its process group: "app") and each
    PostgreSQL backend of the load-test database ("db"): with these, a run on a busy machine
    still says what a request costs."""
    tick = os.sysconf("SC_CLK_TCK")
    group = server.process.pid if server.process else -1
    times = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            used = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
            if int(fields[2]) == group:  # process group
                times[int(proc.name)] = ("app", used)
            elif f" {DATABASE} ".encode() in (proc / "cmdline").read_bytes():
                times[int(proc.name)] = ("db", used)
        except (OSError, IndexError, ValueError):
            continue  # gone, or not ours to read
    return times


def cpu_used(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]
) -> tuple[float, float]:
    """(app, db) CPU seconds between two cpu_times(), per process: one that ended in between
    (a database connection closed) is left out rather than subtracted."""
    used = {"app": 0.0, "db": 0.0}
    for pid, (kind, seconds) in after.items():
        used[kind] += max(0.0, seconds - before.get(pid, (kind, 0.0))[1])
    return used["app"], used["db"]


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (all CPUs), from /proc/stat."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(server: Server, fn: Any) -> tuple[Any, tuple[float, float, float]]:
    """fn()'s result, and the CPU seconds spent meanwhile by gunicorn, by PostgreSQL for the
    load-test database, and by every other process on the machine but wrk's."""
    cpu_before = cpu_times(server)
    busy_before, wrk_before = machine_busy(), children_cpu()
    result = fn()
    app, db = cpu_used(cpu_before, cpu_times(server))
    busy, wrk_cpu = machine_busy() - busy_before, children_cpu() - wrk_before
    return result, (app, db, busy - app - db - wrk_cpu)


def log_tail(server: Server, lines: int = 40) -> str:
    if server.log is None or not server.log.exists():
        return ""
    return "\n".join(server.log.read_text(errors="replace").splitlines()[-lines:])


def wrk_timeout(timeout: float) -> float:
    return max(10.0, 5 * timeout)


def drain(base: str) -> None:
    """Wait until the server has caught up. When wrk stops, requests it sent are still queued
    in gunicorn (a sync worker answers even a client that has gone): one more request, served
    after them, tells when they are done, so that no run starts behind the last one's queue."""
    try:
        with urllib.request.urlopen(base + "/", timeout=60) as response:
            response.read()
    except (urllib.error.URLError, OSError) as exc:
        say(f"the server did not catch up within 60 s: {exc}")


# --- wrk, one endpoint at a time ---------------------------------------------------------------

LUA = Path(__file__).resolve().parent / "load_test.lua"
# What counts as a failed request, as wrk and load_test.lua report them: socket errors, answers
# later than --timeout ("late"), none within wrk's own, longer, timeout, and HTTP statuses of
# 400 and over.
ERROR_KINDS = ("connect", "read", "write", "late", "timeout", "status")


@dataclass
class Result:
    target: Any  # load_test.Target
    warmup: dict[str, Any]
    run: dict[str, Any]
    app_cpu: float  # CPU seconds the gunicorn processes spent in the measured run
    db_cpu: float  # and the PostgreSQL backends of the load-test database
    other_cpu: float  # and everything else on the machine but wrk (other people's work)

    @staticmethod
    def errors(stats: dict[str, Any]) -> int:
        return sum(stats[k] for k in ERROR_KINDS)


def run_wrk(
    wrk: str, base: str, target: Any, seconds: float, args: argparse.Namespace, work: Path
) -> dict[str, Any]:
    body_file = "-"
    if target.body is not None:
        body_path = work / "body.json"
        body_path.write_bytes(target.body)
        body_file = str(body_path)
    command = [
        wrk,
        "--threads",
        str(args.wrk_threads),
        "--connections",
        str(args.connections),
        "--duration",
        f"{seconds:g}s",
        # Long enough for wrk's histogram to hold every answer (a microsecond a bucket, so 8 MB a
        # second); load_test.lua counts those later than --timeout itself.
        "--timeout",
        f"{wrk_timeout(args.timeout):g}s",
        "--script",
        str(LUA),
        base,
        "--",
        body_file,
        *target.paths,
    ]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=seconds + 30,
        env={**os.environ, "LOADTEST_LATE_US": str(round(args.timeout * 1e6))},
    )
    for line in done.stdout.splitlines():
        if line.startswith("LOADTEST "):
            return json.loads(line.removeprefix("LOADTEST "))
    raise SystemExit(f"wrk failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def percentile(stats: dict[str, Any], key: str, share: float, timeout: float) -> str:
    """A latency percentile in ms. Requests with no answer within wrk's own timeout are left
    out of its histogram: with any, the percentile is marked *, or shown as at least that
    timeout when they alone reach past it."""
    if stats["timeout"] >= (1 - share) * max(1, stats["requests"]):
        return f"≥ {wrk_timeout(timeout) * 1000:.0f}"
    return f"{stats[key] / 1000:.1f}" + ("*" if stats["timeout"] else "")


def table(results: list[Result], connections: int, timeout: float) -> str:
    rows = [
        f"| endpoint | request | req/s | p50 ms | p99 ms | errors at {connections} connections "
        "| requests | CPU ms/request: gunicorn + PostgreSQL |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    names = {
        "late": f"slower than {timeout:g} s",
        "timeout": f"none in {wrk_timeout(timeout):g} s",
        "status": "non-2xx/3xx",
    }
    for r in results:
        s = r.run
        rate = s["requests"] / (s["duration_us"] / 1e6)
        errors = Result.errors(s)
        detail = ", ".join(f"{names.get(k, k)} {s[k]:,}" for k in ERROR_KINDS if s[k])
        n = max(1, s["requests"])
        rows.append(
            f"| {r.target.name} | {r.target.shown} | {rate:,.0f} | "
            f"{percentile(s, 'p50', 0.5, timeout)} | {percentile(s, 'p99', 0.99, timeout)} | "
            f"{errors:,}{f' ({detail})' if detail else ''} | {s['requests']:,} | "
            f"{r.app_cpu * 1000 / n:.1f} + {r.db_cpu * 1000 / n:.1f} |"
        )
    if any(r.run["timeout"] for r in results):
        rows.append(
            f"\n\\* among the requests answered within {wrk_timeout(timeout):g} s only (wrk "
            "counts a request still unanswered as a timeout once every 2 s it waits)."
        )
    return "\n".join(rows)
