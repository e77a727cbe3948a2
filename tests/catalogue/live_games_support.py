"""A game loaded by `load_games` into a running site, and the tour of its pages that shows it
works end to end: shared by the copied-game test and the example game's."""

import io
import shutil
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from cardsite.catalogue import live_games
from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from engines import ENGINES

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture
def games_folder(tmp_path, settings, monkeypatch):
    """An empty fixtures folder for load_games; the games served are put back afterwards."""
    settings.FIXTURES_DIR = tmp_path / "fixtures"
    settings.FIXTURES_DIR.mkdir()
    before = ENGINES.definitions()
    for name in ("_announced", "_served", "_checked_at"):
        monkeypatch.setattr(live_games, name, getattr(live_games, name))
    yield settings.FIXTURES_DIR
    ENGINES.use(before)


def copy_game(source: Path, folder: Path, slug: str) -> Path:
    """`source`'s game folder under `folder`, renamed to `slug` (its engine.toml and game.json)."""
    old = source.name
    target = folder / slug
    shutil.copytree(source, target)
    for name in ("engine.toml", "game.json"):
        path = target / name
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(f'"{old}"', f'"{slug}"', 1), encoding="utf-8")
    return target


def load(*games: str) -> str:
    out = io.StringIO()
    call_command("load_games", *games, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def as_another_process() -> None:
    """Serve only the games this process started with, as a process running before the load
    would; it must catch up from the database by itself."""
    live_games.forget()


def tour(client, slug: str, *, format_slug: str, query: str, goldfish: bool) -> None:
    """Every kind of page, for a game this process did not start with."""
    game_page = client.get(f"/games/{slug}/")
    assert game_page.status_code == 200
    assert slug in ENGINES
    game = Game.objects.get(slug=slug)
    assert client.get(f"/games/{slug}/back.png").status_code == 200

    found = client.get("/search/", {"game": slug, "q": query})
    assert found.status_code == 200 and "/cards/" in found.content.decode()

    listed = APIClient().get("/api/v1/cards/", {"game": slug, "page_size": 100}).json()
    cards = Card.objects.filter(game=game).order_by("number_sort")
    assert listed["count"] == cards.count() > 0

    face = client.get(f"/cards/{cards[0].short_id}/face.png")
    assert face.status_code == 200 and face["Content-Type"] == "image/png"

    playable = [c for c in cards if game.engine.card_type(c.card_type.name).zone]
    body = {"game": slug, "format": format_slug, "cards": [{"id": c.short_id} for c in playable]}
    checked = APIClient().post("/api/v1/decks/validate/", body, format="json")
    assert checked.status_code == 200, checked.content
    assert "problems" in checked.json()

    owner = User.objects.create_user(f"tour-{slug}", password="x-Long-pass-9")
    deck = deck_create(
        owner=owner,
        game=game,
        format_slug=format_slug,
        name="Tour",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in playable)),
    )
    client.force_login(owner)
    assert client.get(f"/decks/{deck.share_key}/").status_code == 200
    assert client.get(f"/decks/{deck.share_key}/edit/").status_code == 200
    assert client.get(f"/decks/{deck.share_key}/playtest/", follow=True).status_code == 200
    proxies = client.get(f"/decks/{deck.share_key}/proxies.pdf")
    assert proxies.status_code == 200 and proxies["Content-Type"] == "application/pdf"

    page = client.get(f"/decks/{deck.share_key}/goldfish/", follow=True)
    assert page.status_code == 200
    run = APIClient().post(
        f"/api/v1/decks/{deck.share_key}/goldfish/", {"runs": 20, "seed": 1}, format="json"
    )
    if goldfish:
        assert run.status_code == 200, run.content
        assert run.json()["summary"]
    else:
        assert run.status_code == 400, run.content
