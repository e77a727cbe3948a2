"""The builder driven from the keyboard alone: a legal deck for every game, undo and redo, and
the list of shortcuts. After the deck is created, every step is a key press or typed text."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.browser.conftest import delete_committed, sign_in

PASSWORD = "a-Long-keyboard-pass-7"
USERNAME = "keyboard-builder"

# Each game's searches and, for each result taken in order, how many copies to add: the
# legal decks of tests/decks/test_validate_api.py, found by search rather than by id.
DECKS = {
    "conquest-of-fates": ("standard", "Standard", [("f:verdant t:unit -is:apex", [1] * 21)]),
    "conquest-of-orion": ("limited", "Limited", [("f:aliens t:unit", [3] * 10)]),
    "fate-foretold": (
        "nest",
        "Nest",
        [(f't:"nest card" f:{suit}', [1] * 15) for suit in ("body", "heart", "mind", "soul")],
    ),
    "conquest-for-the-capital": ("faction-deck", "Faction deck", [("f:dwarves", [1] * 20)]),
    "conquest-alpha-tactics": ("targets", "Target deck", [("s:tac-smp vp>=0", [1] * 24)]),
}


@pytest.fixture
def player(django_db_blocker):
    # Committed, so the live server's thread sees it; removed afterwards with its decks.
    with django_db_blocker.unblock():
        # A run cut short may have left the user behind: start from none.
        delete_committed(User.objects.filter(username=USERNAME))
        user = User.objects.create_user(USERNAME, password=PASSWORD)
    yield user
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=user.pk))


def new_deck(page, server, game_format, name):
    page.goto(server + "/decks/new/")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Game and format").select_option(game_format)
    page.get_by_role("button", name="Create and start building").click()
    expect(page).to_have_url(re.compile(r"/decks/[\w-]+/edit/$"))
    # The toolbar appears when builder.js has started: from here on, only keys.
    expect(page.locator("#show-shortcuts")).to_be_visible()


def search(page, query):
    page.keyboard.press("/")
    page.keyboard.type(query)
    page.keyboard.press("Enter")
    expect(page.locator("#builder-results")).to_have_attribute("data-q", query)
    page.keyboard.press("ArrowDown")
    expect(page.locator("#builder-results [data-nav=result]").first).to_be_focused()


def take(page, picks):
    """From the first result down: press + as many times as each result's copies."""
    for i, copies in enumerate(picks):
        if i:
            page.keyboard.press("ArrowDown")
        for _ in range(copies):
            page.keyboard.press("+")


def settled(page, cards):
    """Every queued edit has landed: the panel counts the cards sent."""
    expect(page.locator("#deck-panel .counts strong").first).to_have_text(str(cards))


@pytest.mark.parametrize("game", list(DECKS))
def test_a_legal_deck_is_built_with_the_keyboard_alone(server, page, player, shoot, game):
    fmt, format_name, searches = DECKS[game]
    sign_in(page, server, USERNAME, PASSWORD)
    new_deck(page, server, f"{game}/{fmt}", f"Keys {game}")
    expect(page.locator("#legality")).to_have_text(f"not legal in {format_name}")
    total = 0
    for query, picks in searches:
        search(page, query)
        take(page, picks)
        total += sum(picks)
        settled(page, total)
    expect(page.locator("#legality")).to_have_text(f"legal in {format_name}")
    expect(page.locator("#deck-panel .validation")).not_to_contain_text("error")
    shoot("legal")
    # At phone width the pool comes first, the deck (verdict before its list) after it, one
    # tap away behind its tab, and nothing is wider than the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    verdict = page.locator("#legality").bounding_box()
    finder = page.locator("#builder-q").bounding_box()
    first_row = page.locator("#deck-panel li.deck-row").first.bounding_box()
    assert finder["y"] < verdict["y"] < first_row["y"]
    expect(page.locator(".builder-tabs [data-pool-deck-count]")).to_have_text(str(total))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_undo_and_redo_walk_back_and_forth_through_edits(server, page, player, shoot):
    sign_in(page, server, USERNAME, PASSWORD)
    new_deck(page, server, "conquest-of-orion/limited", "Undo")
    undo = page.get_by_role("button", name="Undo the last change to the cards")
    redo = page.get_by_role("button", name="Redo the change undone")
    expect(undo).to_be_disabled()
    expect(redo).to_be_disabled()
    search(page, "f:aliens t:unit")
    page.keyboard.press("+")
    settled(page, 1)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("+")
    settled(page, 2)
    rows = page.locator("#deck-panel li.deck-row")
    expect(rows).to_have_count(2)

    page.keyboard.press("Control+z")
    settled(page, 1)
    expect(rows).to_have_count(1)
    page.keyboard.press("Control+z")
    expect(page.locator("#deck-panel")).to_contain_text("No cards yet")
    expect(undo).to_be_disabled()
    expect(redo).to_be_enabled()
    status = page.locator("#tools-status")
    expect(status).to_have_text("Undone: 0 cards, not legal in Limited.")
    shoot("undone")

    page.keyboard.press("Control+Shift+z")
    settled(page, 1)
    expect(rows).to_have_count(1)
    expect(undo).to_be_enabled()
    # A new edit after an undo starts a new branch: nothing is left to redo.
    page.keyboard.press("Control+z")
    expect(page.locator("#deck-panel")).to_contain_text("No cards yet")
    page.keyboard.press("+")
    settled(page, 1)
    expect(redo).to_be_disabled()
    expect(status).to_have_text("1 card, not legal in Limited.")


def test_undo_and_redo_still_work_after_a_reload(server, page, player):
    sign_in(page, server, USERNAME, PASSWORD)
    new_deck(page, server, "conquest-of-orion/limited", "Reload")
    search(page, "f:aliens t:unit")
    page.keyboard.press("+")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("+")
    page.keyboard.press("+")
    settled(page, 3)
    page.reload()
    undo = page.get_by_role("button", name="Undo the last change to the cards")
    redo = page.get_by_role("button", name="Redo the change undone")
    expect(undo).to_be_enabled()
    expect(redo).to_be_disabled()
    page.locator("#deck-panel li.deck-row a").first.focus()
    page.keyboard.press("Control+z")
    settled(page, 2)
    page.reload()
    expect(redo).to_be_enabled()
    redo.click()
    settled(page, 3)
    expect(redo).to_be_disabled()


def test_plus_and_minus_act_on_the_focused_deck_row_and_keep_focus_there(server, page, player):
    sign_in(page, server, USERNAME, PASSWORD)
    new_deck(page, server, "conquest-of-orion/limited", "Rows")
    search(page, "f:aliens t:unit")
    page.keyboard.press("+")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("+")
    settled(page, 2)
    # Tab from the last result to the panel's first row, then move down with the arrows.
    first = page.locator("#deck-panel [data-nav=row]").first
    first.focus()  # Tab order passes the settings forms first; the arrows are what is tested
    page.keyboard.press("ArrowDown")
    second = page.locator("#deck-panel [data-nav=row]").nth(1)
    expect(second).to_be_focused()
    page.keyboard.press("+")
    page.keyboard.press("+")
    settled(page, 4)
    expect(page.locator("#deck-panel li.deck-row").nth(1).locator(".qty")).to_have_text("3")
    expect(second).to_be_focused()
    for _ in range(3):
        page.keyboard.press("-")
    settled(page, 1)
    # The row is gone; focus moved to its neighbour rather than being lost.
    expect(page.locator("#deck-panel [data-nav=row]").first).to_be_focused()


def test_keys_typed_in_a_field_stay_text(server, page, player):
    sign_in(page, server, USERNAME, PASSWORD)
    new_deck(page, server, "conquest-of-orion/limited", "Typing")
    page.keyboard.press("/")
    page.keyboard.type("a/b +-?")
    expect(page.locator("#builder-q")).to_have_value("a/b +-?")
    expect(page.locator("#shortcuts")).not_to_be_visible()
    expect(page.locator("#deck-panel")).to_have_attribute("data-version", "1")


def test_question_mark_lists_the_shortcuts_and_escape_closes_them(server, page, player, shoot):
    sign_in(page, server, USERNAME, PASSWORD)
    new_deck(page, server, "conquest-for-the-capital/faction-deck", "Help")
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Undo the last change")
    shoot("shortcuts")
    page.keyboard.press("Escape")
    expect(dialog).not_to_be_visible()
    # The same list from its button, reached with Tab like every other control.
    page.get_by_role("button", name="Keyboard shortcuts").focus()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    page.keyboard.press("Enter")  # its Close button has the focus
    expect(dialog).not_to_be_visible()


def test_results_turn_to_faces_and_the_deck_to_cost_groups_and_both_choices_are_kept(
    server, page, player, shoot
):
    sign_in(page, server, USERNAME, PASSWORD)
    new_deck(page, server, "conquest-of-fates/standard", "Faces")
    search(page, "f:verdant t:unit -is:apex")
    for _ in range(3):
        page.keyboard.press("+")
        page.keyboard.press("ArrowDown")
    settled(page, 3)
    page.get_by_role("link", name="Images").focus()
    page.keyboard.press("Enter")
    faces = page.locator("#builder-results[data-view=images] img")
    expect(faces.first).to_be_visible()
    expect(page).to_have_url(re.compile(r"view=images"))
    page.get_by_role("link", name="By Conquest Value").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#deck-panel .group-head").first).to_contain_text("Conquest Value")
    # Faces load lazily; wait for the ones in view before the screenshot.
    page.wait_for_function(
        "[...document.querySelectorAll('#builder-results img')].slice(0, 4)"
        ".every(img => img.complete && img.naturalWidth > 0)"
    )
    # Arrow keys run across the grid of faces too, and + adds the face in focus.
    page.locator("#builder-results [data-nav=result]").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("+")
    settled(page, 4)
    shoot("faces-by-cost")
    # A later visit without the choices in its address gets them back from this browser.
    deck_url = page.url.split("?")[0]
    page.goto(deck_url + "?q=t%3Aunit")
    expect(page.locator("#builder-results[data-view=images] img").first).to_be_visible()
    expect(page.locator("#deck-panel")).to_have_attribute("data-group", "cost")


def test_an_undo_after_the_deck_changed_elsewhere_is_refused_and_says_so(
    server, page, player, shoot, django_db_blocker
):
    from decks.models import Deck
    from decks.services import deck_set_quantity

    sign_in(page, server, USERNAME, PASSWORD)
    new_deck(page, server, "conquest-of-orion/limited", "Elsewhere")
    search(page, "f:aliens t:unit")
    page.keyboard.press("+")
    settled(page, 1)
    # Another tab (here, the service itself) adds a card meanwhile, once this page is idle:
    # the live server shares the test's database connection.
    page.wait_for_load_state("networkidle")
    with django_db_blocker.unblock():
        deck = Deck.objects.get(owner=player, name="Elsewhere")
        other = page.locator("#builder-results li.result").nth(1).get_attribute("data-card")
        deck_set_quantity(deck=deck, expected_version=None, card=other, step=1)
    # Undo works from the deck's history, where someone else's change now comes last: it is
    # refused, saying why, and the deck is shown as it is now, the other card included.
    page.keyboard.press("Control+z")
    expect(page.locator("#deck-panel .alert")).to_contain_text(
        "Someone changed this deck after your last change"
    )
    settled(page, 2)
    shoot("conflict")
