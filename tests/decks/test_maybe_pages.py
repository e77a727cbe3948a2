"""Planned ("maybe") cards on the pages: the builder plans, unplans and moves cards between the
deck and its plan (decks:edit-maybe), the deck page shows them apart, and nothing that checks,
counts, exports or prints a deck sees them."""

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card, Game
from decks.models import Deck, DeckVersion
from decks.services import (
    Intake,
    RequestedCard,
    deck_create,
    deck_update,
)
from decks.services.write import MAX_MAYBE

pytestmark = pytest.mark.django_db
ORION = "conquest-of-orion"
TACTICS = "conquest-alpha-tactics"


def sample(game=ORION, **filters):
    return Card.objects.filter(game__slug=game, card_set__is_official=False, **filters).order_by(
        "number_sort"
    )


@pytest.fixture
def owner():
    return User.objects.create_user("planner", password="x-Long-pass-9")


@pytest.fixture
def builder(client, owner):
    client.force_login(owner)
    return client


def legal_limited_deck(owner, visibility="private"):
    """Orion's limited format: thirty cards of one race (and raceless ones), legal."""
    cards = list(sample(factions__name="Aliens"))[:24]
    cards += list(sample(factions__isnull=True).exclude(card_type__name="Planet"))[:6]
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=ORION),
        format_slug="limited",
        name="Thirty aliens",
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def human():
    """A card of another race: in the deck it would break the limited format's rules."""
    return sample(factions__name="Humans", card_type__name="Unit")[0]


def plan(client, deck, action, card, htmx=True, **extra):
    deck.refresh_from_db()
    data = {"action": action, "card": getattr(card, "short_id", card), "version": deck.version}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/decks/{deck.share_key}/edit/maybe/", {**data, **extra}, **headers)


def planned(deck):
    return dict(deck.maybe.values_list("card__short_id", "quantity"))


def in_deck(deck):
    return {(s, z): q for s, z, q in deck.entries.values_list("card__short_id", "zone", "quantity")}


def total_shown(page):
    return int(re.search(r"<strong>(\d+)</strong> cards", page).group(1))


# --- planning from the builder -----------------------------------------------------------


def test_maybe_on_a_result_plans_one_copy_beside_the_deck_and_not_in_it(builder, owner):
    deck = legal_limited_deck(owner)
    card = human()
    before = in_deck(deck)
    plan(builder, deck, "add", card)
    response = plan(builder, deck, "add", card)
    assert response.status_code == 200
    deck.refresh_from_db()
    assert planned(deck) == {card.short_id: 2} and in_deck(deck) == before
    assert deck.version == 3  # each copy planned is a version of the deck
    panel = response.content.decode()
    assert "Maybe <small>(planned, not in the deck)</small>" in panel
    row = panel[panel.index(f'id="maybe-{card.short_id}"') :]
    row = row[: row.index("</li>")]
    assert '<span class="qty">2</span>' in row and f">{card.name}</a>" in row
    assert f'aria-label="Into deck: every planned {card.name}"' in row
    assert total_shown(panel) == 30  # the deck's total leaves the plan out
    assert "legal in Limited" in panel and "not legal" not in panel


def test_minus_on_a_planned_card_takes_one_away_and_the_last_one_off_the_plan(builder, owner):
    deck = legal_limited_deck(owner)
    card = human()
    plan(builder, deck, "add", card)
    plan(builder, deck, "add", card)
    plan(builder, deck, "remove", card)
    assert planned(deck) == {card.short_id: 1}
    response = plan(builder, deck, "remove", card)
    assert planned(deck) == {}
    assert f'id="maybe-{card.short_id}"' not in response.content.decode()
    assert "Nothing planned" in response.content.decode()


def test_a_deck_row_moves_to_the_plan_with_every_copy_as_one_version(builder, owner):
    deck = legal_limited_deck(owner)
    card = deck.entries.order_by("id")[0].card
    deck_update(
        deck=deck,
        expected_version=None,
        changes={},
        intake=Intake(
            tuple(
                RequestedCard(2 if e.card == card else e.quantity, None, e.card.short_id)
                for e in deck.entries.all()
            )
        ),
    )
    version = Deck.objects.get(pk=deck.pk).version
    response = plan(builder, deck, "to-maybe", card)
    deck.refresh_from_db()
    assert deck.version == version + 1
    assert planned(deck) == {card.short_id: 2}
    assert not [k for k in in_deck(deck) if k[0] == card.short_id]
    assert total_shown(response.content.decode()) == 29
    changes = DeckVersion.objects.get(deck=deck, number=deck.version).changes
    assert sorted(c[1] for c in changes) == [card.card_type.zone, "maybe"]


def test_a_planned_card_moves_into_the_deck_in_the_zone_its_type_takes(builder, owner):
    deck = legal_limited_deck(owner)
    card = human()
    plan(builder, deck, "add", card)
    plan(builder, deck, "add", card)
    response = plan(builder, deck, "to-deck", card)
    deck.refresh_from_db()
    assert planned(deck) == {}
    assert in_deck(deck)[(card.short_id, card.card_type.zone)] == 2
    panel = response.content.decode()
    assert total_shown(panel) == 32 and "not legal in Limited" in panel


def test_each_deck_row_and_each_result_has_a_maybe_control_and_the_key_is_listed(builder, owner):
    deck = legal_limited_deck(owner)
    card = human()
    page = builder.get(f"/decks/{deck.share_key}/edit/", {"q": f'!"{card.name}"'}).content.decode()
    url = f"/decks/{deck.share_key}/edit/maybe/"
    rows = re.findall(r'<li id="row-[^"]+" class="deck-row[^"]*".*?</li>', page, re.S)
    assert len(rows) == 30
    assert all(f'value="to-maybe" formaction="{url}"' in row for row in rows)
    result = page[page.index(f'id="result-{card.short_id}"') :]
    result = result[: result.index("</li>")]
    assert f'formaction="{url}"' in result and f'aria-label="Maybe: {card.name}"' in result
    assert "<dt><kbd>m</kbd></dt><dd>Maybe:" in page
    assert 'data-maybe-url="' + url + '"' in page


def test_results_say_how_many_copies_are_planned(builder, owner):
    deck = legal_limited_deck(owner)
    card = human()
    plan(builder, deck, "add", card)
    page = builder.get(
        f"/decks/{deck.share_key}/edit/", {"q": f'!"{card.name}"'}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "1 maybe" in page


# --- without JavaScript ------------------------------------------------------------------


def test_without_javascript_each_maybe_form_comes_back_to_the_same_search_and_row(builder, owner):
    deck = legal_limited_deck(owner)
    card = human()
    extra = {"q": "t:unit", "group": "cost", "anchor": f"maybe-{card.short_id}"}
    response = plan(builder, deck, "add", card, htmx=False, **extra)
    assert response.status_code == 302
    assert response["Location"] == (
        f"/decks/{deck.share_key}/edit/?q=t%3Aunit&group=cost&view=list#maybe-{card.short_id}"
    )
    page = builder.get(response["Location"]).content.decode()
    assert f'<li id="maybe-{card.short_id}"' in page
    plan(builder, deck, "to-deck", card, htmx=False)
    assert planned(deck) == {} and (card.short_id, card.card_type.zone) in in_deck(deck)


def test_without_javascript_a_refused_maybe_says_why_on_the_builder(builder, owner):
    deck = legal_limited_deck(owner)
    response = plan(builder, deck, "to-deck", human(), htmx=False)
    assert response.status_code == 302
    page = builder.get(response["Location"]).content.decode()
    assert "That card is not there to move." in page


# --- limits and other people's decks ------------------------------------------------------


def tactics_deck(owner, cards):
    """Conquest: Alpha Tactics has the most cards of the five games: enough to fill a plan."""
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=TACTICS),
        format_slug="targets",
        name="Many plans",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )


def test_planning_past_the_most_different_cards_is_a_400_naming_the_limit(builder, owner):
    cards = list(Card.objects.filter(game__slug=TACTICS).order_by("short_id")[: MAX_MAYBE + 2])
    assert len(cards) == MAX_MAYBE + 2
    *plan_cards, extra, row = cards
    deck = tactics_deck(owner, [row])
    deck_update(
        deck=deck,
        expected_version=None,
        changes={},
        maybe={c.short_id: 1 for c in plan_cards},
    )
    deck.refresh_from_db()
    version = deck.version
    response = plan(builder, deck, "add", extra)
    assert response.status_code == 400
    assert f"A deck plans at most {MAX_MAYBE} different cards." in response.content.decode()
    # Nor can a deck row move out to the plan; it stays in the deck.
    assert plan(builder, deck, "to-maybe", row).status_code == 400
    deck.refresh_from_db()
    assert deck.version == version and len(planned(deck)) == MAX_MAYBE
    assert (row.short_id, row.card_type.zone) in in_deck(deck)
    # A card already planned still takes another copy.
    assert plan(builder, deck, "add", plan_cards[0]).status_code == 200


def test_a_planned_card_stops_at_ninety_nine_copies_writing_nothing_more(builder, owner):
    deck = legal_limited_deck(owner)
    card = human()
    deck_update(deck=deck, expected_version=None, changes={}, maybe={card.short_id: 99})
    deck.refresh_from_db()
    version = deck.version
    plan(builder, deck, "add", card)
    deck.refresh_from_db()
    assert planned(deck) == {card.short_id: 99} and deck.version == version


@pytest.mark.parametrize(
    ("action", "card", "words"),
    [
        ("steal", None, "The action is one of add, remove, to-deck, to-maybe."),
        ("", None, "The action is one of"),
        ("add", "x" * 13, "A card id is at most 12 characters."),
        ("add", "x" * 100_000, "A card id is at most 12 characters."),
        ("add", "zzzzzzzz", "is not a Conquest of Orion card"),
        ("add", "", "is not a Conquest of Orion card"),
        ("to-maybe", "human", "That card is not there to move."),
        ("to-deck", "human", "That card is not there to move."),
    ],
)
def test_a_maybe_edit_out_of_shape_is_a_400_naming_it_and_writes_nothing(
    builder, owner, action, card, words
):
    deck = legal_limited_deck(owner)
    card = human() if card in (None, "human") else card
    response = plan(builder, deck, action, card)
    assert response.status_code == 400
    assert words in response.content.decode()
    deck.refresh_from_db()
    assert deck.version == 1 and planned(deck) == {}


def test_a_maybe_edit_from_a_stale_page_is_refused_and_says_so(builder, owner):
    deck = legal_limited_deck(owner)
    url = f"/decks/{deck.share_key}/edit/maybe/"
    for version in (0, "abc", "9" * 50):
        response = builder.post(
            url,
            {"action": "add", "card": human().short_id, "version": version},
            HTTP_HX_REQUEST="true",
        )
        assert "changed elsewhere" in response.content.decode()
    assert planned(deck) == {}


def test_another_users_deck_is_a_404_for_every_maybe_action(client, owner):
    for visibility in ("private", "unlisted", "public"):
        deck = legal_limited_deck(owner, visibility)
        client.force_login(User.objects.get_or_create(username="eve")[0])
        for action in ("add", "remove", "to-deck", "to-maybe"):
            assert plan(client, deck, action, human()).status_code == 404
        assert planned(deck) == {}


def test_planning_needs_an_account_and_a_post(client, owner):
    deck = legal_limited_deck(owner, "public")
    response = plan(client, deck, "add", human())
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(owner)
    assert client.get(f"/decks/{deck.share_key}/edit/maybe/").status_code == 405


# --- the deck page ------------------------------------------------------------------------


def test_the_deck_page_shows_the_plan_apart_to_whoever_reads_the_deck(client, owner):
    deck = legal_limited_deck(owner, "unlisted")
    card = human()
    page = client.get(f"/decks/{deck.share_key}/").content.decode()
    assert "deck-maybe" not in page  # no plan, no section
    deck_update(deck=deck, expected_version=None, changes={}, maybe={card.short_id: 2})
    page = client.get(f"/decks/{deck.share_key}/").content.decode()
    section = page[page.index('<section class="deck-maybe"') :]
    section = section[: section.index("</section>")]
    assert "planned, not part of the deck" in section
    assert f'<span class="qty">2</span> <a href="{card.get_absolute_url()}">{card.name}</a>' in (
        section
    )
    assert "unofficial sample" in section  # a sample card says so here too
    assert "30 cards" in page and "32 cards" not in page
    assert page.index("deck-columns") < page.index("deck-maybe") < page.index("deck-share")


def test_a_private_decks_plan_is_seen_by_nobody_but_its_owner(client, owner):
    deck = legal_limited_deck(owner, "private")
    deck_update(deck=deck, expected_version=None, changes={}, maybe={human().short_id: 2})
    assert client.get(f"/decks/{deck.share_key}/").status_code == 404
    client.force_login(owner)
    assert "deck-maybe" in client.get(f"/decks/{deck.share_key}/").content.decode()


# --- undo carries the plan -----------------------------------------------------------------


def test_undo_puts_back_the_deck_and_its_plan_in_one_write(builder, owner):
    deck = legal_limited_deck(owner)
    card = human()
    page = builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    # Undo is the server's now (deck_undo); pasting a code with its plan still works as undo
    # once sent it, and the export panel shows the code.
    code = re.search(r'id="export-code" class="copy-field" readonly value="([^"]+)"', page).group(1)
    moved = deck.entries.order_by("id")[0].card
    plan(builder, deck, "add", card)
    plan(builder, deck, "to-maybe", moved)
    deck.refresh_from_db()
    response = builder.post(
        f"/decks/{deck.share_key}/edit/import/",
        {"decklist": code, "maybe": "", "version": deck.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert planned(deck) == {} and sum(in_deck(deck).values()) == 30
    deck.refresh_from_db()
    builder.post(
        f"/decks/{deck.share_key}/edit/import/",
        {"decklist": code, "maybe": f"{card.short_id}*2", "version": deck.version},
    )
    assert planned(deck) == {card.short_id: 2}


@pytest.mark.parametrize(
    ("maybe", "words"),
    [
        ("nonsense", "Planned cards are written card*quantity"),
        ("abc*100", "Planned cards are written card*quantity"),
        (";".join(f"a{i}*1" for i in range(MAX_MAYBE + 1)), "at most 100 different cards"),
        ("zzzzzzzz*1", "is not a Conquest of Orion card"),
        ("x" * 1_000_000, "Planned cards are written card*quantity"),
    ],
)
def test_a_plan_posted_with_a_deck_code_out_of_shape_is_a_400_naming_it(
    builder, owner, maybe, words
):
    deck = legal_limited_deck(owner)
    page = builder.get(f"/decks/{deck.share_key}/edit/").content.decode()
    code = re.search(r'id="export-code" class="copy-field" readonly value="([^"]+)"', page).group(1)
    response = builder.post(
        f"/decks/{deck.share_key}/edit/import/",
        {"decklist": code, "maybe": maybe, "version": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400 and words in response.content.decode()
    deck.refresh_from_db()
    assert deck.version == 1 and planned(deck) == {}


# --- the panel reads the plan in one query -------------------------------------------------


def test_the_panel_reads_the_planned_cards_in_one_query_however_many(builder, owner):
    deck = tactics_deck(owner, [])
    url = f"/decks/{deck.share_key}/edit/"
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "deck-panel"}
    counts = []
    for n in (1, MAX_MAYBE):
        cards = Card.objects.filter(game__slug=TACTICS).order_by("short_id")[:n]
        deck_update(
            deck=deck, expected_version=None, changes={}, maybe={c.short_id: 1 for c in cards}
        )
        builder.get(url, **headers)  # warm
        with CaptureQueriesContext(connection) as queries:
            response = builder.get(url, **headers)
        assert response.content.decode().count('class="deck-row maybe-row"') == n
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_moving_a_plan_into_a_deck_past_its_most_cards_is_a_400_naming_the_limit(builder, owner):
    units = list(sample(card_type__name="Unit")[:2])
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug=ORION),
        format_slug="constructed",
        name="Full",
        intake=Intake((RequestedCard(99, None, units[0].short_id),)),
    )
    deck_update(deck=deck, expected_version=None, changes={}, maybe={units[1].short_id: 5})
    response = plan(builder, deck, "to-deck", units[1])
    assert response.status_code == 400
    assert "A Conquest of Orion deck has at most 100 cards; this one has 104." in (
        response.content.decode()
    )
    assert planned(deck) == {units[1].short_id: 5}


def test_moving_a_plan_into_a_deck_past_ninety_nine_copies_is_a_400(builder, owner):
    unit = sample(card_type__name="Unit")[0]
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug=ORION),
        format_slug="constructed",
        name="Many",
        intake=Intake((RequestedCard(60, None, unit.short_id),)),
    )
    deck_update(deck=deck, expected_version=None, changes={}, maybe={unit.short_id: 40})
    response = plan(builder, deck, "to-deck", unit)
    assert response.status_code == 400
    assert in_deck(deck) == {(unit.short_id, unit.card_type.zone): 60}
    back = plan(builder, deck, "to-maybe", unit)  # and the other way: 100 planned copies
    assert back.status_code == 400 and "quantity is 1 to 99" in back.content.decode()
