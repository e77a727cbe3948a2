"""The load test's hostile mix (`load_test.py --hostile-mix`, `make loadtest-hostile`).

Ordinary traffic is the per-endpoint table's five requests, each a fifth of the requests:
card page, search page, search API, deck read, validation. The hostile run sends the same
mix with a share of the requests (10% by default) replaced by the worst request of each kind
that the site's documented limits still allow, each an equal part of that share
(load_hostile.py says which). Both go from one wrk of as many threads as connections, so
that each thread has one connection and load_mix.lua times every request itself and keeps
latencies and statuses per kind: the ordinary requests' p99 is measured on the ordinary
requests alone.

Ordinary requests must all succeed: a 2xx/3xx within --timeout. A hostile request may be
refused (any 4xx, 429 from a rate limit included) and counts as answered; one that gets a 5xx
or no answer at all fails the run. A hostile answer later than --timeout is reported, not
failed: it is the ordinary requests the limits must protect.

Throttles: the scopes load_test.py raises for its one client (read, search, validate; odds
use validate) are raised for the hostile requests too, which therefore stand for many hostile
clients, each within its limits. Writes (the deck code) and goldfish keep their production
rates, as for one client, and answer 429 beyond them.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LUA = Path(__file__).resolve().parent / "load_mix.lua"
UNIQUE = "ZQNUMZQ"  # load_mix.lua puts a number used once in its place
VALIDATE = "/api/v1/decks/validate/"
JSON = {"Content-Type": "application/json"}


@dataclass
class Request:
    method: str
    path: str
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Kind:
    name: str
    shown: str
    requests: list[Request]
    hostile: bool = False
    in_mix: bool = True  # else only sent once, alone


@dataclass
class Run:
    """One wrk run of a mix: per kind, latencies (µs) and statuses."""

    hostile: bool
    duration: float  # s
    kinds: dict[str, dict[str, Any]]  # by Kind.name: lat, codes, lost, pending
    socket_errors: int = 0  # wrk's connect, read and write errors
    cpu: float = 0.0  # gunicorn + PostgreSQL CPU seconds
    other_cpu: float = 0.0


# --- the requests ------------------------------------------------------------------------------


def ordinary_kinds(targets: list[Any]) -> list[Kind]:
    """load_test.py's per-endpoint targets as kinds of the mix."""
    return [
        Kind(
            t.name,
            t.shown,
            [
                Request("POST" if t.body else "GET", p, t.body, JSON if t.body else {})
                for p in t.paths
            ],
        )
        for t in targets
    ]


# --- running -----------------------------------------------------------------------------------


def schedule(kinds: list[Kind], share: float) -> list[int]:
    """The order load_mix.lua sends the kinds in (1-based indices into `kinds`), round and
    round: the ordinary kinds share 1 - `share` of the requests equally, the hostile ones
    `share`, each kind's turns spread evenly over the cycle."""
    ordinary = [i for i, k in enumerate(kinds, 1) if not k.hostile]
    hostile = [i for i, k in enumerate(kinds, 1) if k.hostile and k.in_mix] if share else []
    length = 20 * len(ordinary) * max(1, len(hostile))  # exact shares for 10%
    counts = {i: (1 - share) * length / len(ordinary) for i in ordinary}
    counts |= {i: share * length / len(hostile) for i in hostile}
    slots = sorted(
        ((j + 0.5) / round(c), i) for i, c in counts.items() for j in range(max(1, round(c)))
    )
    return [i for _, i in slots]


def write_plan(path: Path, kinds: list[Kind], share: float) -> None:
    order = schedule(kinds, share)
    lines = []
    for i, kind in enumerate(kinds, 1):
        if i not in order:
            continue
        lines.append(f"kind\t{i}\t{kind.name}")
        for n, r in enumerate(kind.requests):
            body = "-"
            if r.body is not None:
                body_path = path.parent / f"body-{i}-{n}"
                body_path.write_bytes(r.body)
                body = str(body_path)
            headers = [f"{k}: {v}" for k, v in r.headers.items()]
            lines.append("\t".join(["req", str(i), r.method, r.path, body, *headers]))
    lines.append("schedule\t" + ",".join(map(str, order)))
    path.write_text("\n".join(lines) + "\n")


def run_wrk(
    wrk: str, base: str, kinds: list[Kind], share: float, seconds: float, args: Any, work: Path
) -> Run:
    plan = work / "mix" / "plan.tsv"
    plan.parent.mkdir(exist_ok=True)
    write_plan(plan, kinds, share)
    command = [
        wrk,
        *("--threads", str(args.connections), "--connections", str(args.connections)),
        *("--duration", f"{seconds:g}s", "--timeout", f"{max(10.0, 5 * args.timeout):g}s"),
        *(
            "--script",
            str(LUA),
            base,
            "--",
            str(plan),
            str(time.time_ns() // 1000 % 1_000_000),
            str(args.connections),
        ),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    for line in done.stdout.splitlines():
        if line.startswith("LOADMIX "):
            stats = json.loads(line.removeprefix("LOADMIX "))
            by_name = {kinds[int(i) - 1].name: v for i, v in stats["kinds"].items()}
            errors = stats["connect"] + stats["read"] + stats["write"]
            return Run(bool(share), stats["duration_us"] / 1e6, by_name, errors)
    raise SystemExit(f"wrk failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def probe(base: str, kind: Kind, timeout: float) -> tuple[str, float]:
    """One request of the kind, alone: its status (or what went wrong) and wall time in ms."""
    r = kind.requests[0]
    request = urllib.request.Request(
        base + r.path.replace(UNIQUE, f"probe{time.time_ns()}"),
        data=r.body,
        headers=r.headers,
        method=r.method,
    )
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            status = str(response.status)
    except urllib.error.HTTPError as exc:
        exc.read()
        status = str(exc.code)
    except (urllib.error.URLError, OSError) as exc:
        status = f"no answer ({getattr(exc, 'reason', exc)})"
    return status, (time.perf_counter() - start) * 1000


# --- figures -----------------------------------------------------------------------------------


def pct(values: list[int], q: float) -> float:
    """The q-quantile (nearest rank) of latencies in µs, in ms; NaN for none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] / 1000


@dataclass
class Side:
    """The ordinary or the hostile requests of one run."""

    lat: list[int]
    codes: dict[str, int]
    lost: int
    late: int  # answered later than --timeout, or still unanswered after it when wrk stopped
    requests: int


def side(run: Run, kinds: list[Kind], hostile: bool, timeout_us: float) -> Side:
    names = {k.name for k in kinds if k.hostile == hostile}
    out = Side([], {}, 0, 0, 0)
    for name, k in run.kinds.items():
        if name not in names:
            continue
        out.lat += k["lat"]
        for status, n in k["codes"].items():
            out.codes[status] = out.codes.get(status, 0) + n
        out.lost += k["lost"]
        out.late += sum(1 for v in k["lat"] if v > timeout_us)
        out.late += sum(1 for v in k["pending"] if v > timeout_us)
        out.requests += len(k["lat"]) + k["lost"]
    return out


def failures(s: Side, hostile: bool) -> int:
    """Ordinary: anything but a 2xx/3xx in time. Hostile: a 5xx or no answer."""
    if hostile:
        return s.lost + sum(n for c, n in s.codes.items() if int(c) >= 500)
    return s.lost + s.late + sum(n for c, n in s.codes.items() if int(c) >= 400)


def merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One kind's figures (lat, codes, lost, pending) over several runs."""
    out: dict[str, Any] = {"lat": [], "codes": {}, "lost": 0, "pending": []}
    for part in parts:
        out["lat"] += part["lat"]
        out["pending"] += part["pending"]
        out["lost"] += part["lost"]
        for c, n in part["codes"].items():
            out["codes"][c] = out["codes"].get(c, 0) + n
    return out


def answers(codes: dict[str, int], lost: int = 0) -> str:
    shown = [f"{c}: {n:,}" for c, n in sorted(codes.items())]
    return ", ".join(shown + ([f"no answer: {lost:,}"] if lost else [])) or "none"


def ms(values: list[int], q: float) -> str:
    value = pct(values, q)
    return "-" if math.isnan(value) else f"{value:.1f}"


def med(values: list[float], fmt: str = "{:.1f}") -> str:
    values = [v for v in values if not math.isnan(v)]
    return fmt.format(statistics.median(values)) if values else "-"


def summary_row(runs: list[Run], kinds: list[Kind], label: str, timeout_us: float) -> str:
    """Medians over the runs of one traffic."""
    o = [side(r, kinds, False, timeout_us) for r in runs]
    h = [side(r, kinds, True, timeout_us) for r in runs]
    seconds = [r.duration for r in runs]
    total = [a.requests + b.requests for a, b in zip(o, h, strict=True)]
    rate = [n / s for n, s in zip(total, seconds, strict=True)]
    cells = [
        label,
        med(rate, "{:,.0f}"),
        med([a.requests / s for a, s in zip(o, seconds, strict=True)], "{:,.0f}"),
        med([pct(a.lat, 0.5) for a in o]),
        med([pct(a.lat, 0.99) for a in o]),
        f"{sum(failures(a, False) for a in o):,}",
    ]
    if any(b.requests for b in h):
        codes = merged([{"lat": [], "codes": b.codes, "lost": b.lost, "pending": []} for b in h])
        cells += [
            med([b.requests / s for b, s in zip(h, seconds, strict=True)], "{:,.1f}"),
            med([pct(b.lat, 0.5) for b in h]),
            med([pct(b.lat, 0.99) for b in h]),
            answers(codes["codes"], codes["lost"]),
        ]
    else:
        cells += ["-", "-", "-", "-"]
    cells.append(med([r.cpu * 1000 / max(1, n) for r, n in zip(runs, total, strict=True)]))
    return "| " + " | ".join(cells) + " |"


def report(
    runs: list[Run], kinds: list[Kind], alone: dict[str, tuple[str, float]], args: Any
) -> str:
    timeout_us = args.timeout * 1e6
    calm = [r for r in runs if not r.hostile]
    hostile = [r for r in runs if r.hostile]
    out = [
        f"| {args.connections} connections | req/s, all | ordinary req/s | ordinary p50 ms "
        "| ordinary p99 ms | ordinary failed | hostile req/s | hostile p50 ms | hostile p99 ms "
        "| hostile answers | CPU ms/request |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
        summary_row(calm, kinds, "ordinary only", timeout_us),
        summary_row(hostile, kinds, f"with {args.hostile_share:.0%} hostile", timeout_us),
    ]

    def rounds(these: list[Run]) -> str:
        """Per round: ordinary p99 ms, ordinary req/s, and CPUs other processes took."""
        parts = []
        for r in these:
            o = side(r, kinds, False, timeout_us)
            parts.append(
                f"{pct(o.lat, 0.99):.0f} ({o.requests / r.duration:.0f}/s, "
                f"{max(0.0, r.other_cpu) / r.duration:.2f})"
            )
        return ", ".join(parts)

    sent = [side(r, kinds, True, timeout_us).requests for r in hostile]
    total = sum(sent) + sum(side(r, kinds, False, timeout_us).requests for r in hostile)
    out.append(
        f"\nMedians of {len(calm)} rounds of {args.duration:g} s (failed: their sum). By round, "
        "ordinary p99 ms (ordinary req/s, CPUs other processes took): ordinary only "
        f"{rounds(calm)}; with hostile {rounds(hostile)}. Hostile share of the answers: "
        f"{sum(sent) / max(1, total):.1%} (each connection sends exactly its share; a slow "
        "hostile request is likelier to be unanswered when a run stops). CPU: gunicorn + "
        "PostgreSQL. wrk socket errors "
        f"(connect, read, write): {sum(r.socket_errors for r in runs)}."
    )
    out += [
        "",
        "| ordinary request | | ordinary only: p50 / p99 ms | with hostile: p50 / p99 ms "
        "| answers |",
        "|---|---|---:|---:|---|",
    ]
    for kind in (k for k in kinds if not k.hostile):
        cells = []
        for these in (calm, hostile):
            lat = merged([r.kinds[kind.name] for r in these])["lat"]
            cells.append(f"{ms(lat, 0.5)} / {ms(lat, 0.99)}")
        m = merged([r.kinds[kind.name] for r in runs])
        out.append(
            f"| {kind.name} | {kind.shown} | {cells[0]} | {cells[1]} "
            f"| {answers(m['codes'], m['lost'])} |"
        )
    out += [
        "",
        "| hostile request | | alone: status, ms | in the mix: requests | p50 ms | p99 ms "
        f"| over {args.timeout:g} s | answers |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for kind in (k for k in kinds if k.hostile):
        status, alone_ms = alone[kind.name]
        cells = "not in the mix | - | - | - | -"
        if kind.in_mix:
            m = merged([r.kinds[kind.name] for r in hostile if kind.name in r.kinds])
            late = sum(1 for v in m["lat"] + m["pending"] if v > timeout_us)
            cells = (
                f"{len(m['lat']) + m['lost']:,} | {ms(m['lat'], 0.5)} | {ms(m['lat'], 0.99)} "
                f"| {late:,} | {answers(m['codes'], m['lost'])}"
            )
        out.append(f"| {kind.name} | {kind.shown} | {status}, {alone_ms:,.0f} | {cells} |")
    return "\n".join(out)


def run(
    wrk: str,
    base: str,
    kinds: list[Kind],
    args: argparse.Namespace,
    work: Path,
    measure: Any,
    drain: Any,
) -> tuple[str, int, tuple[float, float]]:
    """Each hostile request alone, a warm-up, then --rounds pairs of runs, ordinary only and
    with hostile requests, in alternating order. `measure(fn)` runs fn and returns its result
    with the CPU seconds gunicorn, PostgreSQL and other processes spent meanwhile. Returns the
    report, how many requests failed, and other processes' CPU seconds over the seconds
    measured."""
    from load_server import say

    alone = {}
    for kind in kinds:
        if kind.hostile:
            alone[kind.name] = probe(base, kind, timeout=max(60.0, 5 * args.timeout))
            say(f"alone: {kind.name}: {alone[kind.name][0]} in {alone[kind.name][1]:,.0f} ms")
            drain(base)
    failed = sum(1 for s, _ in alone.values() if not s.isdigit() or int(s) >= 500)
    say(f"hostile mix: warming up {args.warmup:g} s")
    warm = run_wrk(wrk, base, kinds, args.hostile_share, args.warmup, args, work)
    timeout_us = args.timeout * 1e6
    warm_failed = sum(failures(side(warm, kinds, h, timeout_us), h) for h in (False, True))
    drain(base)
    runs = []
    for n in range(args.rounds):
        for hostile in (False, True) if n % 2 == 0 else (True, False):
            share = args.hostile_share if hostile else 0.0
            traffic = "with hostile" if hostile else "ordinary only"
            say(f"round {n + 1}: {traffic}, {args.duration:g} s")
            result, (app, db, other) = measure(
                lambda share=share: run_wrk(wrk, base, kinds, share, args.duration, args, work)
            )
            result.cpu, result.other_cpu = app + db, other
            runs.append(result)
            drain(base)
    for r in runs:
        failed += failures(side(r, kinds, False, timeout_us), False)
        failed += failures(side(r, kinds, True, timeout_us), True)
    text = report(runs, kinds, alone, args)
    if warm_failed:
        text += f"\n\nFailed during the warm-up: {warm_failed}."
    other = (sum(r.other_cpu for r in runs), sum(r.duration for r in runs))
    return text, failed + warm_failed, other
