"""Another game's cards pasted into a deck are one problem, not one per card: a deck code says
which game it is for, and names that are all one other game's cards are listed together."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.cardlists.decklist import encode_code
from cardsite.catalogue.models import Card
from decks.models import Deck
from decks.services import intake_text, resolve
from decks.services.intake import MAX_LINES
from engines import ENGINES

pytestmark = pytest.mark.django_db
VALIDATE = "/api/v1/decks/validate/"


def names_of(game: str, count: int) -> list[str]:
    cards = Card.objects.filter(game__slug=game).order_by("name")
    return list(cards.values_list("name", flat=True).distinct()[:count])


def validate(api, game: str, fmt: str, text: str):
    response = api.post(VALIDATE, {"game": game, "format": fmt, "text": text}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["problems"]


def test_thirty_six_orion_cards_in_a_fates_deck_are_one_problem_listing_their_lines(api):
    text = "\n".join(f"1 {name}" for name in names_of("conquest-of-orion", 36))
    problems = [
        p for p in validate(api, "conquest-of-fates", "standard", text) if p["severity"] == "error"
    ]
    wrong = [p for p in problems if p["code"] == "wrong_game"]
    assert len(wrong) == 1
    [problem] = wrong
    assert problem["message"] == (
        "These 36 cards (lines 1-36) are Conquest of Orion cards, not Conquest of Fates: "
        "is this deck for the right game?"
    )
    assert problem["lines"] == list(range(1, 37))
    assert len(problem["cards"]) == 36
    assert not [p for p in problems if p["code"] == "unknown_card"]


def test_copies_count_as_cards_and_the_lines_are_given_as_runs():
    engine = ENGINES["fate-foretold"]
    orion = names_of("conquest-of-orion", 3)
    text = f"3 {orion[0]}\n2 {orion[1]}\n# a comment\n4 {orion[2]}\n1 The Angel"
    resolved = resolve(game="fate-foretold", intake=intake_text(text, engine))
    [problem] = resolved.problems
    assert problem.message.startswith("These 9 cards (lines 1-2, 4) are Conquest of Orion")
    assert problem.lines == (1, 2, 4)


def test_cards_of_two_other_games_are_one_problem_for_each_game():
    engine = ENGINES["fate-foretold"]
    text = "\n".join(
        f"1 {name}"
        for name in names_of("conquest-of-orion", 2) + names_of("conquest-for-the-capital", 3)
    )
    resolved = resolve(game="fate-foretold", intake=intake_text(text, engine))
    messages = [p.message.split(", not")[0] for p in resolved.problems]
    assert sorted(messages) == [
        "These 2 cards (lines 1-2) are Conquest of Orion cards",
        "These 3 cards (lines 3-5) are Conquest for the Capital cards",
    ]


def test_one_card_of_another_game_is_still_named_on_its_own():
    engine = ENGINES["fate-foretold"]
    resolved = resolve(game="fate-foretold", intake=intake_text("1 Cloudglider", engine))
    [problem] = resolved.problems
    assert (
        problem.message == "'Cloudglider' (line 1) is a Conquest of Orion card, not Fate Foretold."
    )


def test_another_games_cards_posted_by_id_are_one_problem_too(api):
    orion = Card.objects.filter(game__slug="conquest-of-orion").order_by("id")[:5]
    cards = [{"id": c.short_id, "quantity": 1} for c in orion]
    response = api.post(
        VALIDATE,
        {"game": "conquest-of-fates", "format": "standard", "cards": cards},
        format="json",
    )
    [problem] = [p for p in response.json()["problems"] if p["code"] == "wrong_game"]
    assert problem["message"].startswith("These 5 cards are Conquest of Orion cards")
    assert sorted(problem["cards"]) == sorted(c.short_id for c in orion)


def test_another_games_deck_code_is_one_problem_in_the_games_own_names(api):
    api.force_authenticate(User.objects.create_user("kit", password="x-Long-pass-9"))
    orion = Card.objects.filter(game__slug="conquest-of-orion").order_by("id")[:3]
    code = encode_code(
        "conquest-of-orion", "constructed", None, [(c.short_id, 1, "deck") for c in orion]
    )
    body = {"game": "conquest-of-fates", "format": "standard", "name": "Mine", "code": code}
    response = api.post("/api/v1/decks/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"]["code"] == [
        "This is a Conquest of Orion deck code; this deck is Conquest of Fates."
    ]
    assert not Deck.objects.exists()


def test_a_paste_of_a_thousand_lines_of_another_games_names_is_one_problem_before_any_lookup(api):
    orion = names_of("conquest-of-orion", 93)
    text = "\n".join(f"1 {orion[i % len(orion)]}" for i in range(MAX_LINES))
    with CaptureQueriesContext(connection) as queries:
        response = api.post(
            VALIDATE, {"game": "fate-foretold", "format": "nest", "text": text}, format="json"
        )
    assert response.status_code == 400
    assert response.json()["errors"]["text"] == [
        "A deck has at most 500 entries; this one has 1,000."
    ]
    assert not [q for q in queries.captured_queries if "catalogue_card" in q["sql"]]


def test_a_paste_at_the_deck_limit_of_another_games_names_is_one_problem_in_bounded_queries(api):
    engine = ENGINES["fate-foretold"]
    orion = names_of("conquest-of-orion", 93)
    lines = [f"1 {orion[i % len(orion)]}" for i in range(engine.max_deck_cards)]
    with CaptureQueriesContext(connection) as queries:
        problems = validate(api, "fate-foretold", "nest", "\n".join(lines))
    wrong = [p for p in problems if p["code"] == "wrong_game"]
    assert len(wrong) == 1
    assert wrong[0]["message"].startswith(f"These {engine.max_deck_cards} cards (lines 1-")
    # The snapshot, one query for the names found elsewhere, and no name suggestions at all.
    card_reads = [q for q in queries.captured_queries if 'FROM "catalogue_card"' in q["sql"]]
    assert len(card_reads) <= 3


def test_the_builder_shows_each_refusing_problem_as_its_own_list_item(client):
    user = User.objects.create_user("olu", password="x-Long-pass-9")
    client.force_login(user)
    client.post("/decks/new/", {"name": "Nest", "game_format": "fate-foretold/nest"})
    deck = Deck.objects.get(name="Nest")
    text = "\n".join(f"1 {name}" for name in names_of("conquest-of-orion", 4)) + "\n1 Zzyzx"
    response = client.post(
        f"/decks/{deck.share_key}/edit/import/",
        {"decklist": text, "version": deck.version},
        HTTP_HX_REQUEST="true",
    )
    page = response.content.decode()
    refused = page.split('<ul class="alert warning refused"')[1].split("</ul>")[0]
    assert refused.count("<li>") == 2
    assert "These 4 cards (lines 1-4) are Conquest of Orion cards" in refused
    assert "No Fate Foretold card is named &#x27;Zzyzx&#x27; (line 5)" in refused
