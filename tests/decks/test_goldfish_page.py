import pytest
from django.contrib.auth.models import User

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from engines.goldfish import MAX_RUNS

pytestmark = pytest.mark.django_db


def deck_of(game, code, faction=None, visibility="public"):
    owner = User.objects.create_user(f"gf-{game}", password="x-Long-pass-9")
    cards = Card.objects.filter(card_set__code=code)
    if faction:
        cards = cards.filter(factions__name=faction)
    fmt = Game.objects.get(slug=game).engine.formats[0].slug
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug=game),
        format_slug=fmt,
        name="GF",
        visibility=visibility,
        intake=Intake(tuple([RequestedCard(1, None, c.short_id) for c in cards])),
    )


def test_the_sample_hand_shows_the_opening_hand_as_card_faces(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    page = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 5}).content.decode()
    assert page.count("/face.png") == 7
    assert "Next battle (draw 7)" in page and "Mulligan (shuffle back, draw 7)" in page


def test_a_page_without_a_seed_redirects_to_a_shareable_shuffle(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    response = client.get(f"/decks/{deck.share_key}/goldfish/")
    assert response.status_code == 302 and "seed=" in response["Location"]


def test_the_same_seed_and_steps_give_the_same_hand(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    url = f"/decks/{deck.share_key}/goldfish/"
    first = client.get(url, {"seed": 5, "steps": "mulligan,draw"}).context["hand"].state
    again = client.get(url, {"seed": 5, "steps": "mulligan,draw"}).context["hand"].state
    assert first.hand == again.hand and len(first.hand) == 8


def test_an_orion_mulligan_puts_only_the_picked_cards_on_the_bottom_and_draws_as_many(client):
    deck = deck_of("conquest-of-orion", "ORI-SMP", "Humans")
    url = f"/decks/{deck.share_key}/goldfish/"
    opening = client.get(url, {"seed": 3}).context["hand"].state.hand
    assert len(opening) == 4
    picked = client.get(url, {"seed": 3, "step": "mulligan", "pick": ["0", "2"]})
    assert picked.status_code == 302 and "steps=mulligan%3A0.2" in picked["Location"]
    after = client.get(picked["Location"]).context["hand"].state
    assert after.hand[:2] == (opening[1], opening[3]) and len(after.hand) == 4
    assert after.library[-2:] == (opening[0], opening[2])
    assert client.get(picked["Location"]).context["hand"].legal == ("draw", "next", "discard")


def test_a_conquest_of_fates_hand_over_ten_must_discard_before_the_next_battle(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    url = f"/decks/{deck.share_key}/goldfish/"
    over = client.get(url, {"seed": 5, "steps": "next"})
    assert len(over.context["hand"].state.hand) == 14 and over.context["due"] == 4
    assert [a["step"] for a in over.context["hand_actions"]] == ["discard"]
    assert "Over the hand limit of 10" in over.content.decode()
    down = client.get(url, {"seed": 5, "steps": "next,discard:0.1.2.3"}).context["hand"]
    assert len(down.state.hand) == 10 and "next" in down.legal
    wrong = client.get(url, {"seed": 5, "steps": "next,discard:0"})
    assert "must discard exactly 4" in wrong.context["hand_error"]


def test_simulating_shows_charts_and_the_exact_odds_beside_the_simulated_ones(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    response = client.get(
        f"/decks/{deck.share_key}/goldfish/",
        {"seed": 1, "runs": 2000, "policy_mulligan_below_units": 6},
    )
    # The mulligan rate, then a Celestial drawn by each of the three battles, each beside its
    # closed form.
    rows = [r for r in response.context["summary"].rows if r.exact]
    assert len(rows) == 4
    for row in rows:
        assert abs(float(row.exact.rstrip("%")) - float(row.value.rstrip("%"))) < 5
    page = response.content.decode()
    assert "CQ tallied over a game" in page and '<th scope="col">Exact</th>' in page


def test_a_bad_policy_value_is_a_form_error_naming_it(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    response = client.get(
        f"/decks/{deck.share_key}/goldfish/",
        {"seed": 1, "runs": 10, "policy_mulligan_below_units": "lots"},
    )
    assert response.status_code == 400 and "must be like 3" in response.context["error"]


def test_runs_past_the_limit_are_a_400_naming_it_with_the_form_to_correct_them(client):
    deck = deck_of("conquest-of-fates", "COF-SMP", "Hollowstar Covenant")
    response = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": "9" * 30})
    assert response.status_code == 400
    assert f"{MAX_RUNS:,}" in response.context["error"]
    assert b'name="runs"' in response.content


def test_the_orion_page_says_its_income_figures_are_assumed(client):
    deck = deck_of("conquest-of-orion", "ORI-SMP", "Humans")
    page = client.get(
        f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": 50}
    ).content.decode()
    assert "resource icons are missing" in page


def test_a_private_deck_has_no_goldfish_page_for_others(client):
    deck = deck_of("fate-foretold", "FF-SMP", visibility="private")
    assert client.get(f"/decks/{deck.share_key}/goldfish/").status_code == 404


def test_the_summary_is_a_table_of_readable_figures_never_a_python_dict(client):
    deck = deck_of("conquest-of-orion", "ORI-SMP", "Humans")
    response = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 1, "runs": 50})
    page = response.content.decode()
    assert 'class="summary-table"' in page and response.context["summary"].rows
    assert "{&#x27;" not in page and "{'" not in page
    assert "Income" in page and "blue 2" in page


def test_the_sigil_knob_offers_the_decks_own_sigils_by_name(client):
    from cardsite.catalogue.selectors import card_search

    owner = User.objects.create_user("gf-sigils", password="x-Long-pass-9")
    wanted = [
        RequestedCard(1, None, c.short_id)
        for suit in ("body", "heart", "mind", "soul")
        for c in card_search(text=f't:"nest card" f:{suit}', game="fate-foretold").cards[:15]
    ]
    sigils = list(card_search(text="t:sigil", game="fate-foretold").cards.order_by("name")[:6])
    wanted += [RequestedCard(1, None, c.short_id, "sigils") for c in sigils]
    deck = deck_create(
        owner=owner,
        game=Game.objects.get(slug="fate-foretold"),
        format_slug="nest",
        name="Sigils",
        visibility="public",
        intake=Intake(tuple(wanted)),
    )
    page = client.get(f"/decks/{deck.share_key}/goldfish/", {"seed": 5}).content.decode()
    assert '<label for="policy_sigil">Your Sigil' in page
    assert '<select id="policy_sigil" name="policy_sigil">' in page
    for n, sigil in enumerate(sigils, 1):
        assert f'<option value="{n}">{sigil.name}</option>' in page
    simulated = client.get(
        f"/decks/{deck.share_key}/goldfish/", {"seed": 5, "runs": 200, "policy_sigil": 2}
    ).content.decode()
    assert f'<option value="2" selected>{sigils[1].name}</option>' in simulated
