"""Deck pages and accounts. Thin: selectors and services do the work."""

import json
import random
from collections import Counter, defaultdict
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from cardsite.catalogue.models import Card, Game
from cardsite.catalogue.search.query import QuerySyntaxError
from cardsite.catalogue.selectors import card_search, cards_in_order
from decks.decklist import CODE_PREFIX, DeckCodeError, decode_code, encode_code, parse_text
from decks.jobs import broker_configured, goldfish_job, proxies_job
from decks.models import Deck, Job
from decks.printing import deck_order, print_order
from decks.proxies import ProxyOptionError, parse_options
from decks.selectors import deck_for_reader, decks_listed, job_for_reader
from decks.services import (
    DeckConflict,
    DeckContentError,
    DeckInputError,
    Entry,
    RequestedCard,
    deck_check,
    deck_create,
    deck_delete,
    deck_entries,
    deck_fork,
    deck_update,
    goldfish_run,
)
from engines.goldfish import MAX_RUNS


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.save())
        return redirect("catalogue:home")
    return render(request, "registration/signup.html", {"form": form})


def deck_detail(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None:
        raise Http404("No deck with that id, or it is private.")
    entries = list(
        deck.entries.select_related("card__card_type", "card__card_set").order_by(
            "card__card_type__name", "card__name"
        )
    )
    result = deck_check(
        game=deck.game,
        format_slug=deck.format,
        faction=deck.faction.name if deck.faction else None,
        requested=[RequestedCard.from_entry(e) for e in entries],
    )
    by_type: dict[str, list[Any]] = defaultdict(list)
    for entry in entries:
        by_type[entry.card.card_type.name].append(entry)
    code = encode_code(
        deck.game.slug,
        deck.format,
        deck.faction.name if deck.faction else None,
        [(e.card.short_id, e.quantity, e.zone) for e in entries],
    )
    requested = [RequestedCard.from_entry(e) for e in entries]
    legality = [
        (f, deck_check(game=deck.game, format_slug=f.slug, requested=requested).legal)
        for f in deck.game.engine.formats
    ]
    return render(
        request,
        "decks/deck.html",
        {
            "deck": deck,
            "groups": sorted(by_type.items()),
            "result": result,
            "code": code,
            "share_url": request.build_absolute_uri(deck.get_absolute_url()),
            "format": deck.game.engine.format(deck.format),
            "legality": legality,
            "chart": _curve(deck, entries),
        },
    )


# --- the deck builder -----------------------------------------------------------------------

BUILDER_RESULTS = 30


def _owned_or_404(request: HttpRequest, deck_id: str) -> Deck:
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None or deck.owner_id != request.user.id:
        raise Http404("No deck of yours with that id.")
    return deck


def _current(deck: Deck) -> list[RequestedCard]:
    return [RequestedCard.from_entry(e) for e in deck.entries.select_related("card")]


def panel_context(deck: Deck) -> dict[str, Any]:
    """What the deck panel shows: entries by zone, live problems, counts and the curve."""
    entries = list(
        deck.entries.select_related("card__card_type", "card__card_set")
        .prefetch_related("card__factions")
        .order_by("zone", "card__name")
    )
    result = deck_check(
        game=deck.game,
        format_slug=deck.format,
        faction=deck.faction.name if deck.faction else None,
        requested=[RequestedCard.from_entry(e) for e in entries],
    )
    zones = {z.slug: z.name for z in deck.game.engine.zones}
    by_zone: dict[str, list[Any]] = defaultdict(list)
    for entry in entries:
        by_zone[entry.zone].append(entry)
    return {
        "deck": deck,
        "result": result,
        "format": deck.game.engine.format(deck.format),
        "zones": [(zones.get(z, z), z, es) for z, es in sorted(by_zone.items())],
        "chart": _curve(deck, entries),
    }


def _curve(deck: Deck, entries: list[Any]) -> dict[str, Any] | None:
    """Cards per value of the game's main number, as bars scaled to the tallest."""
    key = deck.game.engine.chart_stat
    if key is None:
        return None
    counts: Counter[int] = Counter()
    for entry in entries:
        value = entry.card.stats.get(key)
        if isinstance(value, int):
            counts[value] += entry.quantity
    if not counts:
        return None
    tallest = max(counts.values())
    bars = [
        {"value": v, "count": counts.get(v, 0), "percent": round(100 * counts.get(v, 0) / tallest)}
        for v in range(min(counts), max(counts) + 1)
    ]
    return {"label": deck.game.engine.stat(key).label, "bars": bars}


def _panel_or_back(request: HttpRequest, deck: Deck, message: str = "") -> HttpResponse:
    if request.headers.get("HX-Request"):
        return render(request, "decks/_panel.html", {**panel_context(deck), "message": message})
    if message:
        messages.warning(request, message)
    return redirect(reverse("decks:edit", args=[deck.share_key]) + _query_suffix(request))


def _query_suffix(request: HttpRequest) -> str:
    q = request.POST.get("q") or request.GET.get("q")
    return f"?{urlencode({'q': q})}" if q else ""


def _apply(request: HttpRequest, deck: Deck, **kwargs: Any) -> HttpResponse:
    version = request.POST.get("version")
    try:
        deck = deck_update(deck=deck, expected_version=int(version) if version else None, **kwargs)
    except DeckConflict as exc:
        deck.refresh_from_db()
        return _panel_or_back(
            request,
            deck,
            f"The deck changed elsewhere (now version {exc.current}); showing it as it is now.",
        )
    except DeckContentError as exc:
        return _panel_or_back(request, deck, " ".join(p["message"] for p in exc.problems))
    except DeckInputError as exc:
        return _panel_or_back(request, deck, str(exc))
    return _panel_or_back(request, deck)


@login_required
def deck_new(request: HttpRequest) -> HttpResponse:
    choices = [
        (f"{g.slug}/{f.slug}", f"{g.name}: {f.name}")
        for g in Game.objects.order_by("name")
        for f in g.engine.formats
    ]
    if request.method == "POST":
        game_slug, _, fmt = request.POST.get("game_format", "").partition("/")
        game = Game.objects.filter(slug=game_slug).first()
        name = request.POST.get("name", "").strip()
        if game is None or game.engine.format(fmt) is None or not name:
            return render(
                request,
                "decks/new.html",
                {"choices": choices, "error": "Choose a game and format, and name the deck."},
                status=400,
            )
        deck = deck_create(
            owner=request.user,
            game=game,
            format_slug=fmt,
            name=name[:120],
            visibility=request.POST.get("visibility", "private"),
            requested=[],
        )
        return redirect("decks:edit", deck.share_key)
    return render(request, "decks/new.html", {"choices": choices})


@login_required
def deck_edit(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = _owned_or_404(request, deck_id)
    q = request.GET.get("q", "").strip()
    context = {**panel_context(deck), "q": q, "results": None, "search_error": ""}
    if q:
        try:
            found = card_search(text=q, game=deck.game.slug)
            context["results"] = cards_in_order(list(found.ids[:BUILDER_RESULTS]))
            context["warnings"] = found.warnings
        except QuerySyntaxError as exc:
            context["search_error"] = str(exc)
    template = "decks/_results.html" if request.headers.get("HX-Request") else "decks/edit.html"
    return render(request, template, context)


@login_required
@require_POST
def deck_edit_card(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Add (+1), remove (-1) or set the quantity of one card."""
    deck = _owned_or_404(request, deck_id)
    card = (
        Card.objects.select_related("card_type")
        .filter(short_id=request.POST.get("card", ""), game=deck.game)
        .first()
    )
    if card is None:
        return _panel_or_back(request, deck, "That card is not in this deck's game.")
    zone = request.POST.get("zone") or card.card_type.zone or deck.game.engine.zones[0].slug
    current = {(r.short_id, r.zone): r.quantity for r in _current(deck)}
    step = {"add": 1, "remove": -1}.get(request.POST.get("action", ""), 0)
    quantity = current.get((card.short_id, zone), 0) + step
    current[(card.short_id, zone)] = max(0, min(quantity, 99))
    requested = [RequestedCard(q, None, s, z) for (s, z), q in current.items() if q > 0]
    return _apply(request, deck, changes={}, requested=requested)


@login_required
@require_POST
def deck_edit_settings(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = _owned_or_404(request, deck_id)
    changes = {
        k: request.POST[k].strip()
        for k in ("name", "description", "visibility", "format")
        if k in request.POST
    }
    if "format" in changes and deck.game.engine.format(changes["format"]) is None:
        return _panel_or_back(request, deck, "That format does not exist for this game.")
    if changes.get("visibility") not in (None, *Deck.Visibility.values):
        return _panel_or_back(request, deck, "Unknown visibility.")
    return _apply(request, deck, changes=changes)


@login_required
@require_POST
def deck_import(request: HttpRequest, deck_id: str) -> HttpResponse:
    """Replace the deck's cards with a pasted text decklist or deck code."""
    deck = _owned_or_404(request, deck_id)
    pasted = request.POST.get("decklist", "").strip()
    if pasted.startswith(CODE_PREFIX + "."):
        try:
            decoded = decode_code(pasted)
        except DeckCodeError as exc:
            return _panel_or_back(request, deck, f"That deck code cannot be used: {exc}.")
        requested = [RequestedCard(q, None, s, z) for s, q, z in decoded["entries"]]
        return _apply(request, deck, changes={}, requested=requested)
    lines, problems = parse_text(pasted, deck.game.engine)
    return _apply(
        request,
        deck,
        changes={},
        requested=[RequestedCard.from_line(x) for x in lines],
        list_problems=problems,
    )


@login_required
@require_POST
def deck_fork_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None:
        raise Http404("No deck with that id, or it is private.")
    return redirect("decks:edit", deck_fork(deck=deck, owner=request.user).share_key)


@login_required
@require_POST
def deck_delete_view(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck_delete(deck=_owned_or_404(request, deck_id))
    return redirect("decks:mine")


@login_required
def my_decks(request: HttpRequest) -> HttpResponse:
    return render(request, "decks/mine.html", {"decks": decks_listed(user=request.user, mine=True)})


def public_decks(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "decks/public.html",
        {"decks": decks_listed(game=request.GET.get("game") or None)[:100]},
    )


def deck_proxies(request: HttpRequest, deck_id: str) -> HttpResponse:
    """The deck as a printable PDF of proxies; a bad option is a 400 naming it."""
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None:
        raise Http404("No deck with that id, or it is private.")
    try:
        options = parse_options(request.GET)
    except ProxyOptionError as exc:
        return HttpResponse(f"Bad option {exc}\n", status=400, content_type="text/plain")
    order = deck_order(deck, options)
    if job := proxies_job(order=order, owner=request.user):
        return redirect(job)
    response = HttpResponse(print_order(order), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{deck.share_key}-proxies.pdf"'
    return response


# --- background jobs -----------------------------------------------------------------------


def _job(request: HttpRequest, key: str) -> Job:
    job = job_for_reader(key=key, user=request.user)
    if job is None:
        raise Http404("No job with that id, or it is not yours.")
    if job.expired:
        raise Http404("This job has expired and its result was deleted; ask for it again.")
    return job


def job_detail(request: HttpRequest, key: str) -> HttpResponse:
    """A job's progress, refreshing itself until it ends; then its result's link."""
    job = _job(request, key)
    deck_key = job.params.get("deck") if job.kind == Job.Kind.GOLDFISH else None
    deck = deck_for_reader(deck_id=deck_key, user=request.user) if deck_key else None
    if job.kind == Job.Kind.PROXIES:
        title = f"Proxy sheet: {job.params['order']['title']}"
    else:
        title = f"Goldfish simulation: {deck.name}" if deck else "Goldfish simulation"
    context = {"job": job, "deck": deck, "title": title, "percent": round(job.fraction * 100)}
    return render(request, "decks/job.html", context)


def job_result(request: HttpRequest, key: str) -> HttpResponse:
    job = _job(request, key)
    if job.status != Job.Status.DONE or not job.result:
        return redirect(job)
    return FileResponse(
        job.result.open("rb"), content_type=job.result_type, filename=job.result_filename
    )


# --- goldfish ------------------------------------------------------------------------------

# Without a broker the page simulates inline, so it stays small; with one, long runs become
# background jobs and the page goes as far as the API.
PAGE_MAX_RUNS = 50_000


def _int(value: str | None, default: int, low: int, high: int) -> int:
    try:
        return max(low, min(high, int(value))) if value is not None else default
    except ValueError:
        return default


def _sample_hand(deck: Deck, seed: int, extra: int, mulliganed: bool) -> list[Card]:
    """The shuffled deck's top cards: the opening hand, plus `extra` drawn since. A mulligan
    reshuffles (a second shuffle from the same seed) and draws the hand again."""
    engine = deck.game.engine
    cards = [
        e.card
        for e in deck.entries.select_related("card__card_type").order_by("id")
        if engine.hand_zone is None or e.zone == engine.hand_zone
        for _ in range(e.quantity)
    ]
    rng = random.Random(seed)
    rng.shuffle(cards)
    if mulliganed:
        rng.shuffle(cards)
    return cards[: engine.hand_size + extra]


def _bars(histogram: dict[str, int]) -> list[dict[str, Any]]:
    tallest = max(histogram.values(), default=0) or 1
    # Label every n-th bar only, so a long axis stays legible.
    step = max(1, len(histogram) // 10)
    return [
        {"label": k, "count": v, "percent": round(100 * v / tallest), "show": i % step == 0}
        for i, (k, v) in enumerate(histogram.items())
    ]


def _charts(charts: dict[str, Any]) -> list[dict[str, Any]]:
    """Every chart of a goldfish answer as labelled bars: histograms (value -> games) and
    per-turn probabilities (a list of shares)."""
    out = []
    for name, chart in charts.items():
        title = name.replace("_", " ").capitalize()
        if isinstance(chart, dict) and all(isinstance(v, int) for v in chart.values()):
            out.append({"title": title, "bars": _bars(chart)})
        elif isinstance(chart, dict):
            out += [{"title": f"{title}: {k}", "bars": _bars(v)} for k, v in chart.items()]
        elif chart and isinstance(chart[0], dict):
            out += [{"title": f"{title}, {i + 1}", "bars": _bars(h)} for i, h in enumerate(chart)]
        else:
            out.append(
                {
                    "title": f"{title} (share of games, by turn)",
                    "bars": [
                        {"label": str(i + 1), "count": v, "percent": round(100 * v), "show": True}
                        for i, v in enumerate(chart)
                    ],
                }
            )
    return out


def deck_goldfish(request: HttpRequest, deck_id: str) -> HttpResponse:
    deck = deck_for_reader(deck_id=deck_id, user=request.user)
    if deck is None:
        raise Http404("No deck with that id, or it is private.")
    engine = deck.game.engine
    max_runs = MAX_RUNS if broker_configured() else PAGE_MAX_RUNS
    seed = _int(request.GET.get("seed"), random.randrange(1_000_000), 0, 10**9)
    extra = _int(request.GET.get("extra"), 0, 0, 200)
    mulliganed = request.GET.get("mulligan") == "1" and engine.mulligan
    context: dict[str, Any] = {
        "deck": deck,
        "engine": engine,
        "seed": seed,
        "extra": extra,
        "mulliganed": mulliganed,
        "hand": _sample_hand(deck, seed, extra, mulliganed),
        # Each knob with the value to show: the one just submitted, else its default.
        "policy": [
            (
                p,
                (request.GET.get(f"policy_{p.key}") == "on" if "runs" in request.GET else p.default)
                if isinstance(p.default, bool)
                else request.GET.get(f"policy_{p.key}", p.default),
            )
            for p in engine.goldfish_policy
        ],
        "max_runs": max_runs,
    }
    if "job" in request.GET:
        job = job_for_reader(key=request.GET["job"], user=request.user)
        if job is None or job.status != Job.Status.DONE or job.params.get("deck") != deck_id:
            raise Http404("No finished simulation of this deck with that id.")
        with job.result.open("rb") as stored:
            result = json.load(stored)
        context.update(
            result=result,
            charts=_charts(result["charts"]),
            runs=result["runs"],
            odds=_odds_beside(deck, result, job.params["policy"]),
        )
    elif "runs" in request.GET:
        runs = _int(request.GET.get("runs"), 1000, 1, max_runs)
        policy = {}
        for param in engine.goldfish_policy:
            raw = request.GET.get(f"policy_{param.key}")
            if raw not in (None, ""):
                policy[param.key] = (
                    raw == "on"
                    if isinstance(param.default, bool)
                    else _int(raw, param.default, 0, 10**6)
                )
        entries = deck_entries(deck)
        try:
            job = goldfish_job(
                game=deck.game,
                entries=entries,
                runs=runs,
                seed=seed,
                policy=policy,
                owner=request.user,
                deck_key=deck.share_key,
            )
            if job is not None:
                return redirect(job)
            result = goldfish_run(
                game=deck.game, entries=entries, runs=runs, seed=seed, policy=policy
            )
        except DeckInputError as exc:
            context["error"] = str(exc)
        else:
            context.update(
                result=result,
                charts=_charts(result["charts"]),
                runs=runs,
                odds=_odds_beside(deck, result, policy, entries),
            )
    return render(request, "decks/goldfish.html", context)


def _odds_beside(
    deck: Deck,
    result: dict[str, Any],
    policy: dict[str, Any],
    entries: list[Entry] | None = None,
) -> dict[str, Any] | None:
    """For Conquest of Fates, the exact chance of a mulligan beside the simulated rate."""
    if deck.game.slug != "conquest-of-fates":
        return None
    from engines.odds import at_least

    entries = entries if entries is not None else deck_entries(deck)
    size = sum(e.quantity for e in entries)
    units = sum(e.quantity for e in entries if e.card.card_type.name == "Unit")
    need = policy.get("mulligan_below_units", 3)
    if size < 7:
        return None
    exact = 1 - float(at_least(size, units, 7, need))
    return {
        "label": f"a first supply drop with fewer than {need} units",
        "exact": exact,
        "simulated": result["summary"]["mulligan_rate"],
    }
