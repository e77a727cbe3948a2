import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue.models import Card

pytestmark = pytest.mark.django_db


def test_the_home_page_lists_the_five_games(client):
    page = client.get("/").content.decode()
    for name in [
        "Conquest of Fates",
        "Conquest of Orion",
        "Fate Foretold",
        "Conquest for the Capital",
        "Star Trek - Conquest Alpha: Tactics",
    ]:
        assert name in page


def test_a_game_page_shows_its_sets_with_the_sample_set_labelled(client):
    page = client.get("/games/conquest-of-orion/").content.decode()
    assert "ORI-RB" in page and "ORI-SMP" in page
    assert "unofficial sample" in page
    assert "Guardian" in page


def test_an_unknown_game_page_is_a_404(client):
    assert client.get("/games/magic/").status_code == 404


def test_a_card_page_shows_its_stats_rulings_and_errata(client):
    insight = Card.objects.get(card_set__code="FF-RB", name="The Insight")
    page = client.get(insight.get_absolute_url()).content.decode()
    assert "another player" in page
    assert "Use of ESP" in page
    assert "unofficial sample" not in page.split('<main id="main">')[1].split("</main>")[0]


def test_a_sample_card_page_is_labelled_unofficial_sample(client):
    card = Card.objects.filter(card_set__code="ORI-SMP").first()
    page = client.get(card.get_absolute_url()).content.decode()
    assert "unofficial sample" in page.split('<main id="main">')[1]


def test_the_short_link_redirects_to_the_card_page(client):
    card = Card.objects.get(card_set__code="ORI-RB", name="Heliokraken")
    response = client.get(f"/c/{card.short_id}")
    assert response.status_code == 302
    assert response["Location"] == f"/cards/{card.short_id}/heliokraken/"
    assert client.get(response["Location"]).status_code == 200


def test_a_card_url_with_an_old_slug_redirects_to_the_current_one(client):
    card = Card.objects.get(card_set__code="ORI-RB", name="Heliokraken")
    response = client.get(f"/cards/{card.short_id}/old-name/")
    assert response.status_code == 301
    assert response["Location"] == card.get_absolute_url()


def test_an_unknown_short_link_is_a_404(client):
    assert client.get("/c/zzzzzzzz").status_code == 404


def test_the_search_page_shows_card_faces_by_default(client):
    page = client.get("/search/", {"q": "is:apex", "game": "conquest-of-fates"}).content.decode()
    assert "6 cards" in page
    assert page.count('class="face-grid"') == 1
    assert "/face.png" in page


def test_the_search_page_toggles_to_a_text_list_with_key_stats(client):
    page = client.get("/search/", {"q": "cloudglider", "view": "list"}).content.decode()
    assert "results-list" in page
    assert "dmg <strong>4</strong>" in page and "hp <strong>5</strong>" in page


def test_the_search_page_pages_without_overlap(client):
    # Every card, by name: more than a page of 60.
    first = client.get("/search/", {"q": "order:name"}).context["page"]
    second = client.get("/search/", {"q": "order:name", "page": 2}).context["page"]
    assert not {c.id for c in first} & {c.id for c in second}
    assert first.paginator.count > len(first.object_list)


def test_the_search_page_shows_warnings_for_terms_it_ignored(client):
    page = client.get("/search/", {"q": "cloudglider is:nonsense"}).content.decode()
    assert "is not a keyword or attribute" in page
    assert "1 card" in page


def test_the_search_page_marks_where_an_unreadable_query_went_wrong(client):
    response = client.get("/search/", {"q": "t:unit or"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "needs a term after it" in page
    assert "<mark>or</mark>" in page


def test_the_search_page_suggests_names_when_nothing_matches(client):
    page = client.get("/search/", {"q": "plated voyagr"}).content.decode()
    assert "Did you mean" in page and "Plated Voyager" in page


def test_an_unknown_game_on_the_search_page_is_a_400(client):
    assert client.get("/search/", {"q": "x", "game": "magic"}).status_code == 400


def test_a_set_page_lists_its_cards_in_collector_order(client):
    page = client.get("/games/conquest-of-orion/sets/ORI-RB/", {"view": "list"}).content.decode()
    assert page.index("Ice Planet") < page.index("Forerunner") < page.index("Heliokraken")


def test_the_syntax_page_documents_every_games_stats_with_examples(client):
    page = client.get("/syntax/").content.decode()
    for key in ["cq", "cost_blue", "tier", "attack", "stars", "combat_power", "victory_points"]:
        assert f"<code>{key}</code>" in page
    assert "is:apex" in page and "f:humans tier&lt;=2" in page


def test_a_card_page_links_its_neighbours_in_the_set(client):
    forerunner = Card.objects.get(card_set__code="ORI-RB", name="Forerunner")
    page = client.get(forerunner.get_absolute_url()).content.decode()
    assert "Archive card" in page and "Expedition Escort" in page


def test_a_card_page_shows_its_qr_short_link(client):
    card = Card.objects.get(card_set__code="ORI-RB", name="Forerunner")
    page = client.get(card.get_absolute_url()).content.decode()
    assert f"/cards/{card.short_id}/qr.svg" in page
    svg = client.get(f"/cards/{card.short_id}/qr.svg")
    assert svg["Content-Type"] == "image/svg+xml"


def test_a_card_page_is_rendered_once_and_again_after_the_card_changes(client):
    card = Card.objects.filter(card_set__code="ORI-SMP").order_by("number_sort").first()
    url = card.get_absolute_url()
    assert card.name in client.get(url).content.decode()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
    assert again.status_code == 200 and card.name in again.content.decode()
    assert sum("SELECT" in q["sql"] for q in queries) == 0

    card.rules_text = "A freshly errata'd text."
    card.save()
    assert "A freshly errata&#x27;d text." in client.get(url).content.decode()
    # The cached page keeps its redirect from a stale slug, too.
    assert client.get(f"/cards/{card.short_id}/old-name/")["Location"] == url


def _main(page: str) -> str:
    return page.split('<main id="main">')[1].split("</main>")[0]


def test_a_card_page_says_type_not_given_where_the_rulebook_does_not_state_it(client):
    galaxy = Card.objects.get(card_set__code="TAC-RB", name="Galaxy")
    page = _main(client.get(galaxy.get_absolute_url()).content.decode())
    assert "type not given" in page
    earth = Card.objects.get(card_set__code="TAC-RB", name="Earth")
    page = _main(client.get(earth.get_absolute_url()).content.decode())
    assert "type not given" not in page
    assert '<p class="type">Planet' in page


def test_a_card_page_shows_which_values_are_inferred_and_from_what(client):
    surak = Card.objects.get(card_set__code="TAC-RB", name="Surak")
    page = _main(client.get(surak.get_absolute_url()).content.decode())
    assert "Inferred values (*):</strong> Combat Power, Keywords." in page
    assert (
        "Not stated for this card, but inferred: from the rulebook's statement that the "
        "factions' decks are functionally identical, or from what a worked example implies. "
        "The notes say which." in page
    )
    assert '<dd>7<small class="inferred-mark"' in page


def test_an_orion_rulebook_card_page_says_its_race_is_not_given_not_that_it_has_none(client):
    # §1.1, 5. Race Icon: "Cards without a race icon can be played in any deck." The
    # rulebook never gives the Osiris's race icon, so it is not known to have none.
    osiris = Card.objects.get(card_set__code="ORI-RB", name="Osiris")
    page = _main(client.get(osiris.get_absolute_url()).content.decode())
    assert '<span class="meta not-given">race not given</span>' in page
    assert "No race" not in page


def test_an_orion_sample_card_of_no_race_says_no_race(client):
    raceless = Card.objects.filter(
        card_set__code="ORI-SMP", factions=None, card_type__name="Unit"
    ).first()
    page = _main(client.get(raceless.get_absolute_url()).content.decode())
    assert "No race" in page and "race not given" not in page


def test_an_implied_value_is_shown_inferred_on_its_card_page(client):
    # 6.3 Example B, 3rd row: "The Deflector tries to steal the Admiral's combat power".
    deflector = Card.objects.get(card_set__code="TAC-RB", name="Deflector Shield")
    page = _main(client.get(deflector.get_absolute_url()).content.decode())
    assert "Inferred values:</strong> Factions." in page
    assert "or from what a worked example implies" in page


def test_a_card_page_with_only_stated_values_mentions_no_inference(client):
    galaxy = Card.objects.get(card_set__code="TAC-RB", name="Galaxy")
    page = _main(client.get(galaxy.get_absolute_url()).content.decode())
    assert "Inferred values" not in page
    assert "inferred-mark" not in page


def test_the_search_list_says_type_not_given_for_a_card_with_no_type(client):
    page = client.get(
        "/search/", {"q": "galaxy", "game": "conquest-alpha-tactics", "view": "list"}
    ).content.decode()
    assert "Galaxy" in page
    assert "type not given" in page


def test_a_search_page_asked_again_reads_nothing_from_the_database(
    client, django_assert_max_num_queries
):
    query = {"q": "f:humans t:unit", "game": "conquest-of-orion"}
    # Cold, inside the request's savepoint: the games (for the form and for the search), the
    # faction, type and classification lookups and their cards, the matching ids, then one
    # page of cards with their classifications and factions.
    with django_assert_max_num_queries(13):
        first = client.get("/search/", query).content.decode()
    with CaptureQueriesContext(connection) as warm:
        again = client.get("/search/", query).content.decode()
    # The same page, but for the CSRF token, which is masked afresh every time.
    assert again.split('<main id="main">')[1] == first.split('<main id="main">')[1]
    # Only the request's own savepoint and its release.
    assert [q["sql"] for q in warm if "SELECT" in q["sql"]] == []


def test_a_cached_search_page_shows_a_catalogue_change_at_once(client):
    client.get("/search/", {"q": "cloudglider"})
    card = Card.objects.get(card_set__code="ORI-RB", name="Cloudglider")
    card.name = "Cloudglider Mark II"
    card.save()
    assert "Cloudglider Mark II" in client.get("/search/", {"q": "cloudglider"}).content.decode()


def test_a_parameter_the_search_does_not_know_never_reaches_the_cached_page(client):
    tagged = client.get("/search/", {"q": "t:unit", "utm": "evil"}).content.decode()
    assert "utm=evil" in tagged  # its own links keep what it was given
    plain = client.get("/search/", {"q": "t:unit"}).content.decode()
    assert "utm=evil" not in plain


def test_each_page_of_a_search_is_cached_under_its_own_number(client):
    query = {"q": "t:unit"}
    pages = client.get("/search/", query).context["page"].paginator.num_pages
    assert pages > 2
    beyond = client.get("/search/", {**query, "page": "999"}).content.decode()
    second = client.get("/search/", {**query, "page": "2"}).content.decode()
    # Past the end is the last page, cached as that page, not as page 999 or page 2.
    assert f"Page {pages} of {pages}" in beyond
    assert f"Page 2 of {pages}" in second
