"""The load test's machinery (tests/benchmarks/load_test.py): wrk, the gunicorn it starts and
stops, and the CPU each process spends. No Django here."""

from __future__ import annotations

import argparse
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

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DATABASE = "cardsite_load"


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
