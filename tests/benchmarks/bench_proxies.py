"""Proxy PDF benchmark, run on demand (never part of the test suite):

    .venv/bin/python tests/benchmarks/bench_proxies.py

Renders proxy sheets for a 60-card deck and a 300-card list from the loaded fixtures (no
art), through decks.proxies as the views do, and prints time, size and pages per second.
Targets: a 60-card deck in <= 0.5 s and <= 500 KB.
"""

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings.local")
    import django

    django.setup()
    from django.core.management import call_command

    from cardsite.catalogue.faces.back import back_file
    from cardsite.catalogue.models import Card
    from decks.exports.printing import proxy_card
    from decks.proxies import Sheet, SheetOptions, _qr_matrix, _register_fonts, render_sheet

    call_command("migrate", verbosity=0)
    call_command("load_games", verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115
    cards = list(
        Card.objects.filter(card_set__is_official=False)
        .select_related("card_type", "card_set", "game")
        .prefetch_related("factions", "keywords", "subtypes")
        .order_by("game__name", "number_sort")
    )
    proxies = [proxy_card(c) for c in cards]
    _register_fonts()  # once per process, as in a running server
    print("| sheet | cards | pages | median s | best s | size KB | pages/s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, count, options in [
        ("60-card deck, A4", 60, SheetOptions()),
        (
            "60-card deck, Letter, backs, gap 2, bleed 1",
            60,
            SheetOptions("letter", "63x88", 1, 2, True),
        ),
        ("300-card list, A4", 300, SheetOptions()),
    ]:
        sheet = Sheet(
            "Benchmark",
            "cardsite",
            "http://127.0.0.1:8000/decks/x/",
            proxies[:count],
            options,
            # A sheet with backs prints a game's card back, as decks.exports.printing gives it.
            back_image=back_file(cards[0].game.slug) if options.backs else None,
        )
        timings, pdf = [], b""
        for _ in range(7):
            _qr_matrix.cache_clear()  # every QR code made afresh, as for a new deck
            start = time.perf_counter()
            pdf = render_sheet(sheet)
            timings.append(time.perf_counter() - start)
        pages = pdf.count(b"/Type /Page\n") or pdf.count(b"/Type /Page")
        median = statistics.median(timings)
        print(
            f"| {label} | {count} | {pages} | {median:.3f} | {min(timings):.3f} | "
            f"{len(pdf) / 1024:.0f} | {pages / median:.0f} |"
        )


if __name__ == "__main__":
    main()
