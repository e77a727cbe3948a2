"""Lighthouse's SEO category (npm's `lighthouse`, pinned in package.json) scores the home page,
a card's page and a public deck's page at least 0.95, in Debian's Chromium against the live
server: titles, meta descriptions, canonical links, robots.txt, crawlable links, alt texts.

The three pages run in one Chromium (tests/browser/lighthouse_seo.mjs), about 20 s in all on a
busy machine; a failure names each audit that did not pass."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import CHROMIUM, delete_committed

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("lighthouse_seo.mjs")
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse"
MIN_SCORE = 0.95


@pytest.fixture
def pages(server: str, django_db_blocker: Any) -> Iterator[dict[str, str]]:
    with django_db_blocker.unblock():
        owner = User.objects.create_user("lighthouse", password="a-Long-lighthouse-pass-7")
        game = Game.objects.get(slug="conquest-of-orion")
        cards = Card.objects.filter(game=game, card_set__is_official=False).order_by("id")[:12]
        deck = deck_create(
            owner=owner,
            game=game,
            format_slug=game.engine.formats[0].slug,
            name="Audited Fleet",
            description="A public deck for the search-engine audit.",
            visibility="public",
            intake=Intake(tuple(RequestedCard(2, None, c.short_id) for c in cards)),
        )
        card = Card.objects.filter(card_set__is_official=True).order_by("id").first()
        yield {
            "home": server + "/",
            "card": server + card.get_absolute_url(),
            "deck": server + deck.get_absolute_url(),
        }
        delete_committed(User.objects.filter(pk=owner.pk))


def test_lighthouse_seo_scores_the_home_card_and_deck_pages_at_least_095(
    pages: dict[str, str], server: str, settings: Any
) -> None:
    # Canonical links must name the host Lighthouse visits, or it reads them as another site's.
    settings.SITE_URL = server
    node = shutil.which("node")
    if node is None or not LIGHTHOUSE.is_dir():
        pytest.fail("Lighthouse needs node and node_modules/lighthouse: run `make install`.")
    run = subprocess.run(
        [node, str(SCRIPT), *pages.values()],
        cwd=ROOT,
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        capture_output=True,
        text=True,
        # A bound for a hung browser only, not a timing assertion.
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    problems = [
        f"{name} ({url}): {report[url]['score']}, failing {report[url]['failed']}"
        f"{' ' + report[url]['runtimeError'] if report[url]['runtimeError'] else ''}"
        for name, url in pages.items()
        if report[url]["score"] is None or report[url]["score"] < MIN_SCORE
    ]
    assert not problems, "\n".join(problems)
    print({name: (report[url]["score"], report[url]["seconds"]) for name, url in pages.items()})
