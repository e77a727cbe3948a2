"""Planned cards stay apart: validation, exports and proxies never see them."""

import json

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from cardsite.cardlists.decklist import MAX_QUANTITY
from cardsite.catalogue.documents import DocumentError
from cardsite.catalogue.models import Card, Game
from decks.backups.backup import read_backup, restore_backup
from decks.exports.printing import deck_order, order_cards
from decks.exports.text import deck_export
from decks.models import Deck
from decks.proxies import SheetOptions
from decks.services import (
    Intake,
    check,
    deck_create,
    deck_delete,
    deck_fork,
    deck_restore,
    deck_revert,
    deck_update,
    intake_deck,
    intake_text,
    resolve,
)
from decks.services.history import deck_state
from decks.services.write import MAX_MAYBE
from engines.errors import InputError
from tests.decks.backup_support import backup_by_command, read_backup_file
from tests.decks.test_maybe_pages import human, in_deck, legal_limited_deck, planned, sample

pytestmark = pytest.mark.django_db
ORION = "conquest-of-orion"
TACTICS = "conquest-alpha-tactics"


@pytest.fixture
def owner():
    return User.objects.create_user("planner", password="x-Long-pass-9")


@pytest.fixture
def builder(client, owner):
    client.force_login(owner)
    return client


# --- nothing that checks, counts, exports or prints sees the plan --------------------------


def test_validation_reads_only_the_decks_entries_so_a_plan_never_changes_a_verdict(owner):
    deck = legal_limited_deck(owner)
    card = human()
    before = check(resolve(game=ORION, intake=intake_deck(deck)), "limited")
    deck_update(deck=deck, expected_version=None, changes={}, maybe={card.short_id: 40})
    deck.refresh_from_db()
    assert card.short_id not in {c.short_id for c in intake_deck(deck).cards}
    after = check(resolve(game=ORION, intake=intake_deck(deck)), "limited")
    assert after.legal and before.legal
    assert after.counts == before.counts and after.problems == before.problems
    body = APIClient().get(f"/api/v1/decks/{deck.share_key}/")
    assert body.status_code == 404  # private: the API is the owner's alone too


def test_exports_leave_planned_cards_out(client, owner):
    deck = legal_limited_deck(owner, "public")
    card = human()
    deck_update(deck=deck, expected_version=None, changes={}, maybe={card.short_id: 3})
    deck.refresh_from_db()
    text = deck_export(deck, "text")["text"]
    listed = deck_export(deck, "json")["cards"]
    assert card.name not in text and card.short_id not in {c["id"] for c in listed}
    assert sum(c["quantity"] for c in listed) == 30
    assert card.name not in client.get(f"/decks/{deck.share_key}/export.txt").content.decode()
    downloaded = json.loads(client.get(f"/decks/{deck.share_key}/export.json").content)
    assert card.short_id not in {c["id"] for c in downloaded["cards"]}
    api = APIClient().get(f"/api/v1/decks/{deck.share_key}/export/", {"as": "text"}).json()
    assert card.name not in api["text"]
    code = deck_export(deck, "code")["code"]
    other = deck_create(
        owner=owner, game=deck.game, format_slug="limited", name="From code", intake=Intake()
    )
    builder = client
    builder.force_login(owner)
    builder.post(f"/decks/{other.share_key}/edit/import/", {"decklist": code, "version": 1})
    assert sum(in_deck(other).values()) == 30 and card.short_id not in {
        s for s, _ in in_deck(other)
    }


def test_proxies_print_the_deck_without_its_planned_cards(client, owner):
    deck = legal_limited_deck(owner, "public")
    card = human()
    deck_update(deck=deck, expected_version=None, changes={}, maybe={card.short_id: 3})
    deck.refresh_from_db()
    order = deck_order(deck, SheetOptions())
    assert order_cards(order) == 30 and card.pk not in {pk for pk, _ in order["entries"]}


# --- a pasted list's sideboard or maybe-board becomes the plan, never the deck -------------

DECKS = "/api/v1/decks/"


def thirty_aliens():
    cards = list(sample(factions__name="Aliens"))[:24]
    return cards + list(sample(factions__isnull=True).exclude(card_type__name="Planet"))[:6]


def arena_export(cards, sideboard):
    """A list as MTG Arena exports one: `Deck`, a line per card with its set and number, a
    blank line, `Sideboard`."""
    rows = [f"1 {c.name} ({c.card_set.code}) {c.number}" for c in cards]
    side = [f"{q} {c.name} ({c.card_set.code}) {c.number}" for c, q in sideboard]
    return "\n".join(["Deck", *rows, "", "Sideboard", *side]) + "\n"


def api_for(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def create(user, text):
    body = {"game": ORION, "format": "limited", "name": "Pasted", "text": text}
    return api_for(user).post(DECKS, body, format="json")


def test_an_arena_lists_sideboard_posted_to_the_api_is_planned_and_never_counted(owner):
    card = human()
    response = create(owner, arena_export(thirty_aliens(), [(card, 2)]))
    assert response.status_code == 201, response.content
    record = response.json()
    assert sum(e["quantity"] for e in record["entries"]) == 30 and record["legal"]
    assert card.short_id not in {e["card"]["id"] for e in record["entries"]}
    assert [(m["quantity"], m["card"]["id"]) for m in record["maybe"]] == [(2, card.short_id)]
    deck = Deck.objects.get(share_key=record["id"])
    assert planned(deck) == {card.short_id: 2}
    # The first version holds the plan too, so history and revert see it.
    assert deck_state(deck).maybe_cards() == {card.short_id: 2}


def test_an_mtgo_list_checked_by_the_api_counts_only_its_deck_and_says_how_it_was_read():
    card = human()
    text = "\n".join(f"1 {c.name}" for c in thirty_aliens()) + f"\n\n3 {card.name}\n"
    body = {"game": ORION, "format": "limited", "text": text}
    answer = APIClient().post("/api/v1/decks/validate/", body, format="json").json()
    assert answer["legal"] and answer["counts"]["total"] == 30
    [notice] = [p for p in answer["problems"] if p["code"] == "read_as_sideboard"]
    assert notice["severity"] == "warning" and notice["line"] == 32


def test_an_unknown_section_is_refused_by_its_line_and_nothing_is_saved(owner):
    text = arena_export(thirty_aliens(), []) + "Tokens:\n1 Osiris\n"
    response = create(owner, text)
    assert response.status_code == 400
    [problem] = response.json()["problems"]
    assert problem["code"] == "unreadable_line" and problem["line"] == 34
    assert "unknown section 'Tokens' (left out of the deck: line 35)" in problem["message"]
    assert not Deck.objects.exists()


def test_an_unknown_card_in_a_sideboard_is_refused_on_its_line(owner):
    response = create(owner, arena_export(thirty_aliens(), []) + "SB: 1 Nowhere Card\n")
    assert response.status_code == 400
    [problem] = response.json()["problems"]
    assert problem["code"] == "unknown_card" and problem["line"] == 34
    assert not Deck.objects.exists()


def test_a_planned_card_past_its_quantity_limit_is_a_400_naming_the_text(owner):
    card = human()
    text = arena_export(thirty_aliens(), [(card, 60), (card, 60)])
    response = create(owner, text)
    assert response.status_code == 400
    assert response.json()["errors"] == {"text": ["A planned card's quantity is 1 to 99."]}
    assert not Deck.objects.exists()


def test_a_list_with_a_sideboard_and_a_maybe_field_together_are_refused(owner):
    deck = legal_limited_deck(owner)
    card = human()
    body = {"text": arena_export(thirty_aliens(), [(card, 1)]), "maybe": [{"id": card.short_id}]}
    response = api_for(owner).patch(f"{DECKS}{deck.share_key}/", body, format="json")
    assert response.status_code == 400 and "maybe" in response.json()["errors"]
    assert planned(deck) == {}


def test_the_builders_import_replaces_the_plan_with_a_pasted_sideboard_only(builder, owner):
    deck = legal_limited_deck(owner)
    card, other = human(), sample(factions__name="Humans", card_type__name="Unit")[1]
    deck_update(deck=deck, expected_version=None, changes={}, maybe={card.short_id: 1})
    deck.refresh_from_db()
    aliens = thirty_aliens()
    plain = "\n".join(f"1 {c.name}" for c in aliens) + "\n"
    url = f"/decks/{deck.share_key}/edit/import/"
    builder.post(url, {"decklist": plain, "version": deck.version}, HTTP_HX_REQUEST="true")
    assert planned(deck) == {card.short_id: 1}  # a list without a sideboard leaves the plan
    deck.refresh_from_db()
    mtgo = plain + f"\n2 {other.name}\n"
    page = builder.post(url, {"decklist": mtgo, "version": deck.version}, HTTP_HX_REQUEST="true")
    assert page.status_code == 200
    assert "read as a sideboard" in page.content.decode()
    assert planned(deck) == {other.short_id: 2}
    assert sum(in_deck(deck).values()) == 30


def test_a_split_cards_name_is_read_whole_and_a_note_after_a_name_is_dropped():
    card, renamed = sample()[0], sample()[1]
    renamed.name = "Front // Back"
    renamed.save()
    engine = Game.objects.get(slug=ORION).engine
    text = f"1 Front // Back\n2 {card.name} // my finisher\n3 {card.name} # and a note\n"
    resolved = resolve(game=ORION, intake=intake_text(text, engine))
    assert resolved.problems == ()
    assert sorted((e.card.short_id, e.quantity) for e in resolved.entries) == sorted(
        [(renamed.short_id, 1), (card.short_id, 5)]
    )


# --- a pasted plan at its limit, by every path that writes one ------------------------------


def tactics_plan_text(cards):
    """A Tactics list: one target card in the deck, then every card of `cards` in its
    sideboard, each by its set and number."""
    rows = [f"1 {c.name} ({c.card_set.code}) {c.number}" for c in cards]
    return "Targets:\n1 {0.name} ({0.card_set.code}) {0.number}\nSideboard\n{1}\n".format(
        Card.objects.get(game__slug=TACTICS, name="Earth"), "\n".join(rows)
    )


@pytest.fixture
def plans():
    """MAX_MAYBE + 1 Tactics cards, none of them Earth: a full plan, and one card past it."""
    cards = list(
        Card.objects.filter(game__slug=TACTICS)
        .exclude(name="Earth")
        .select_related("card_set")
        .order_by("short_id")[: MAX_MAYBE + 1]
    )
    assert len(cards) == MAX_MAYBE + 1
    return cards


def paste(owner, cards):
    engine = Game.objects.get(slug=TACTICS).engine
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=TACTICS),
        format_slug="targets",
        name="Pasted plan",
        intake=intake_text(tactics_plan_text(cards), engine),
    )


def test_a_pasted_plan_past_the_limit_is_refused_by_create_and_update_writing_nothing(owner, plans):
    engine = Game.objects.get(slug=TACTICS).engine
    with pytest.raises(InputError, match=f"at most {MAX_MAYBE} different cards") as refused:
        paste(owner, plans)
    assert refused.value.field == "text" and not Deck.objects.exists()
    deck = paste(owner, plans[:MAX_MAYBE])
    assert len(planned(deck)) == MAX_MAYBE
    with pytest.raises(InputError, match=f"at most {MAX_MAYBE} different cards"):
        deck_update(
            deck=deck,
            expected_version=deck.version,
            changes={},
            intake=intake_text(tactics_plan_text(plans), engine),
        )
    deck.refresh_from_db()
    assert deck.version == 1 and set(planned(deck)) == {c.short_id for c in plans[:MAX_MAYBE]}


def test_revert_restore_and_fork_never_take_a_plan_past_the_limit(owner, plans):
    engine = Game.objects.get(slug=TACTICS).engine
    deck = paste(owner, plans[:MAX_MAYBE])
    # Version 2 plans the last card and one other: a revert replaces the plan, never adds.
    deck = deck_update(
        deck=deck,
        expected_version=1,
        changes={},
        intake=intake_text(tactics_plan_text([plans[0], plans[-1]]), engine),
    )
    assert set(planned(deck)) == {plans[0].short_id, plans[-1].short_id}
    deck = deck_revert(deck=deck, expected_version=2, version=1, author=owner)
    assert set(planned(deck)) == {c.short_id for c in plans[:MAX_MAYBE]}
    deck_delete(deck=deck)
    deck = deck_restore(deck=Deck.objects.get(pk=deck.pk), owner=owner)
    assert len(planned(deck)) == MAX_MAYBE
    # A fork copies the deck's cards, not its plan.
    other = User.objects.create_user("forker", password="x-Long-pass-9")
    assert planned(deck_fork(deck=deck, owner=other)) == {}


def test_a_backup_restore_is_refused_a_plan_past_the_limits_the_site_holds_it_to(
    owner, plans, tmp_path
):
    deck = paste(owner, plans[:MAX_MAYBE])
    path = tmp_path / "decks.json"
    backup_by_command(path)
    objects = read_backup_file(path)
    maybe = [o for o in objects if o["model"] == "decks.maybeentry"]
    assert len(maybe) == MAX_MAYBE
    # One card past the plan's limit, and a planned card of more copies than a plan holds.
    extra = {"deck": [deck.share_key], "card": [plans[-1].short_id], "quantity": 1}
    objects.append({"model": "decks.maybeentry", "fields": extra})
    maybe[0]["fields"]["quantity"] = MAX_QUANTITY + 1
    path.write_text(json.dumps(objects))
    Deck.objects.all().delete()

    with pytest.raises(DocumentError) as refused:
        restore_backup(read_backup(path.read_bytes()))
    messages = " | ".join(str(p) for p in refused.value.problems)
    assert f"plans at most {MAX_MAYBE} different cards" in messages
    assert f"planned card's quantity is 1 to {MAX_QUANTITY}" in messages
    assert not Deck.objects.exists()
