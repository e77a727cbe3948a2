"""Tabletop Simulator fetches every sheet of a save the moment it is loaded, shows a failed
image for any answer but the image, and never asks again: so the save is handed out only once
its sheets are drawn. The person who clicked the download waits (a bounded wait, then a page
that says the images are being drawn and asks again by itself); TTS never waits.

These run against a live server with a cold cache (each test has its own media folder and
unspent budgets): the save is downloaded as a person would, then every sheet URL in it is
fetched at once, as TTS does."""

import io
import json
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from PIL import Image

from cardsite.catalogue.faces import ahead
from cardsite.catalogue.faces.ahead import queue_job, settle
from cardsite.catalogue.models import Game
from decks.exports.images import deck_images_folder
from decks.models import Deck
from decks.services import Intake, RequestedCard, deck_create
from decks.tts import MAX_WAIT, tts_file_path
from decks.tts.plan import tts_plan
from tests.browser.conftest import delete_committed
from tests.decks.tts_support import PATIENCE, downloaded, game_deck, still_drawing, zone_cards


# The session's live server (tests/conftest.py); a test commits the decks it needs
# (`committed`) and removes them after.
@pytest.fixture
def live(server):
    return server


def fetch(url):
    """(status, headers, body) of a GET, whatever the status."""
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def download(site, path):
    """The save at `path`, as a person gets it: asking again after each 503's Retry-After,
    as the page saying its images are being drawn does by itself."""
    deadline = time.monotonic() + PATIENCE
    status, headers, body = fetch(site + path)
    while status == 503 and time.monotonic() < deadline:
        assert "being drawn" in body.decode()
        time.sleep(min(int(headers["Retry-After"]), 2))
        status, headers, body = fetch(site + path)
    assert status == 200, (status, body[:300])
    return json.loads(body)


def sheet_urls(save):
    return sorted({c["FaceURL"] for o in save["ObjectStates"] for c in o["CustomDeck"].values()})


def fetch_at_once(site, urls):
    """Every URL fetched at the same moment, each by its own thread: TTS's first load."""
    start = threading.Barrier(len(urls))
    answers = {}

    def one(url):
        parts = urlsplit(url)
        start.wait()
        answers[url] = fetch(f"{site}{parts.path}?{parts.query}")

    threads = [threading.Thread(target=one, args=(url,)) for url in urls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def assert_every_answer_is_the_image(answers):
    for url, (status, headers, body) in answers.items():
        assert status == 200, (url, status, body[:300])
        assert headers["Content-Type"] in ("image/png", "image/jpeg"), url
        with Image.open(io.BytesIO(body)) as image:
            image.load()


@pytest.fixture
def committed(django_db_setup, django_db_blocker):
    """Decks committed for the live server's own connections, removed afterwards."""
    with django_db_blocker.unblock():
        owner = User.objects.create_user("first-load", password="x-Long-pass-9")

    def make(slug, format_slug, zones, *, skip=0, visibility="public"):
        with django_db_blocker.unblock():
            cards = [
                (card, copies)
                for zone, count, copies in zones
                for card in zone_cards(slug, zone, skip + count)[skip:]
            ]
            return deck_create(
                owner=owner,
                game=Game.objects.get(slug=slug),
                format_slug=format_slug,
                name=f"First load {slug} {skip}",
                visibility=visibility,
                intake=Intake(tuple(RequestedCard(n, None, c.short_id) for c, n in cards)),
            )

    yield make
    settle()  # nothing left drawing into the media folder the test is about to lose
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


def test_a_fresh_decks_sheets_are_all_images_at_ttss_first_request(live, committed):
    # The deck: a 33-card faction deck, and its targets, on two sheets; nothing drawn.
    deck = committed("conquest-alpha-tactics", "faction-deck", [("main", 33, 1), ("targets", 3, 1)])
    save = download(live, f"/decks/{deck.share_key}/tts.json")
    urls = sheet_urls(save)
    assert len(urls) == len(tts_plan(deck).sheets) == 2
    assert_every_answer_is_the_image(fetch_at_once(live, urls))


def test_three_decks_downloaded_together_have_every_sheet_ready_for_tts(live, committed):
    decks = [
        committed("conquest-alpha-tactics", "faction-deck", [("main", 20, 2)], skip=33),
        committed("conquest-of-orion", "constructed", [("main", 25, 2)]),
        # A private deck, through its signed links, as its owner's deck page gives them.
        committed(
            "fate-foretold", "nest", [("nest", 30, 1), ("sigils", 1, 1)], visibility="private"
        ),
    ]
    saves = {}

    def one(deck):
        saves[deck.pk] = download(live, tts_file_path(deck, timezone.now()))

    threads = [threading.Thread(target=one, args=(deck,)) for deck in decks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(saves) == 3
    urls = [url for save in saves.values() for url in sheet_urls(save)]
    assert len(urls) == 4
    answers = fetch_at_once(live, urls)
    assert_every_answer_is_the_image(answers)
    private = [url for url in urls if "sig=" in url]
    assert len(private) == 2
    assert all("private" in answers[url][1]["Cache-Control"] for url in private)


@pytest.fixture
def busy_drawer(tmp_path):
    """The faces drawer kept busy (as by other visitors' decks) until the test lets it go."""
    release = threading.Event()
    queue_job(tmp_path / "someone-elses-drawing", lambda: release.wait(PATIENCE))
    yield release
    release.set()


@pytest.fixture
def owner(db):
    return User.objects.create_user("tabletop", password="x-Long-pass-9")


def small_deck(owner, visibility="public"):
    cards = zone_cards("conquest-of-orion", "main", 4)
    return deck_create(
        owner=owner,
        game=Game.objects.get(slug="conquest-of-orion"),
        format_slug="constructed",
        name="Small <table>",
        visibility=visibility,
        intake=Intake(tuple(RequestedCard(2, None, c.short_id) for c in cards)),
    )


@pytest.mark.django_db
def test_a_save_whose_sheets_are_not_drawn_in_time_is_a_503_page_that_asks_again(
    client, owner, busy_drawer
):
    deck = small_deck(owner)
    url = f"/decks/{deck.share_key}/tts.json"
    page = client.get(url)
    assert page.status_code == 503
    retry = int(page["Retry-After"])
    assert retry >= 1 and "no-store" in page["Cache-Control"]
    html = page.content.decode()
    assert f'<meta http-equiv="refresh" content="{retry}">' in html
    assert "still being drawn" in html and f"at most {MAX_WAIT:g} s" in html
    assert "Small &lt;table&gt;" in html and f'href="{deck.get_absolute_url()}"' in html
    assert "Content-Disposition" not in page
    # Nothing is half-drawn, and the drawing goes on: once free, the page's next ask is the file.
    assert not list(deck_images_folder(deck.share_key).glob("tts-*"))
    busy_drawer.set()
    response = downloaded(client, url)
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment")


@pytest.mark.django_db
def test_the_apis_export_of_a_save_not_drawn_in_time_is_a_429_naming_the_wait(
    api, owner, busy_drawer
):
    deck = small_deck(owner)
    url = f"/api/v1/decks/{deck.share_key}/export/?as=tts"
    refused = api.get(url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert refused.json()["code"] == "drawing"
    assert f"at most {MAX_WAIT:g} s" in refused.json()["detail"]
    busy_drawer.set()
    assert downloaded(api, url).status_code == 200


@pytest.mark.django_db
def test_a_sheet_asked_for_without_its_save_is_drawn_as_the_save_would(client, owner):
    deck = small_deck(owner)
    (sheet,) = tts_plan(deck).sheets
    response = downloaded(client, f"/decks/{deck.share_key}/tts/{sheet.digest}.png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert (deck_images_folder(deck.share_key) / f"tts-{sheet.digest}.png").exists()


@pytest.mark.django_db
def test_a_sheet_asked_for_without_its_save_and_not_drawn_in_time_is_a_429_never_half_drawn(
    client, owner, busy_drawer
):
    deck = small_deck(owner)
    (sheet,) = tts_plan(deck).sheets
    url = f"/decks/{deck.share_key}/tts/{sheet.digest}.png"
    refused = client.get(url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "still being drawn" in refused.content.decode()
    assert not list(deck_images_folder(deck.share_key).glob("tts-*"))
    busy_drawer.set()
    assert downloaded(client, url).status_code == 200


@pytest.mark.django_db
def test_a_private_decks_save_not_drawn_in_time_is_still_a_404_to_a_stranger(owner, busy_drawer):
    deck = small_deck(owner, visibility="private")
    assert Client().get(f"/decks/{deck.share_key}/tts.json").status_code == 404
    assert Deck.objects.filter(pk=deck.pk).exists()


def test_ten_saves_asked_at_once_draw_each_face_once_and_leave_every_sheet_whole(live, committed):
    # Ten downloads at the same moment over three decks (one private, through its signed
    # link), one process: each face and sheet is queued once however many ask, every sheet a
    # save names is kept and whole when the save is handed out, and nothing half-written lies
    # beside them.
    decks = [
        committed("conquest-of-orion", "constructed", [("main", 9, 2)], skip=40),
        committed("conquest-alpha-tactics", "faction-deck", [("main", 12, 1)], skip=60),
        committed("fate-foretold", "nest", [("nest", 10, 1)], skip=40, visibility="private"),
    ]
    paths = [tts_file_path(deck, timezone.now()) for deck in decks]
    wanted = {
        (card.short_id, sheet.cell)
        for deck in decks
        for sheet in tts_plan(deck).sheets
        for card in sheet.cards
    }
    sheets = sum(len(tts_plan(deck).sheets) for deck in decks)
    most_waiting = []
    done = threading.Event()

    def sample():
        while not done.is_set():
            with ahead._LOCK:
                most_waiting.append(len(ahead._PENDING))
            time.sleep(0.005)

    sampler = threading.Thread(target=sample)
    sampler.start()
    saves = [None] * 10
    start = threading.Barrier(10)

    def one(index):
        start.wait()
        saves[index] = download(live, paths[index % len(paths)])

    threads = [threading.Thread(target=one, args=(i,)) for i in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    sampler.join()
    assert all(save is not None for save in saves)
    assert max(most_waiting) <= len(wanted) + sheets
    for deck in decks:
        folder = deck_images_folder(deck.share_key)
        names = {sheet.digest for sheet in tts_plan(deck).sheets}
        assert {p.name for p in folder.iterdir()} == {f"tts-{d}.png" for d in names}
        for digest in names:
            with Image.open(folder / f"tts-{digest}.png") as image:
                image.load()
    urls = sorted({url for save in saves for url in sheet_urls(save)})
    assert len(urls) == sheets
    assert_every_answer_is_the_image(fetch_at_once(live, urls))


@pytest.mark.django_db
def test_a_sheet_the_full_queue_refuses_spends_nothing_of_the_proxy_budget(
    client, owner, busy_drawer, tmp_path, settings
):
    # Drawing a sheet costs one use of the `proxies` rate; a sheet that could not be queued
    # (the drawer's queue full of other visitors' work) was not drawn, and must cost nothing.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "proxies": "2/min",
        },
    }
    deck = small_deck(owner)
    url = f"/decks/{deck.share_key}/tts.json"
    busy_drawer.set()
    assert downloaded(client, url).status_code == 200  # faces and sheet drawn: one use spent
    settle()
    for sheet in deck_images_folder(deck.share_key).glob("tts-*.png"):
        sheet.unlink()
    release = threading.Event()
    queue_job(tmp_path / "blocking", lambda: release.wait(PATIENCE))
    for index in range(ahead.MAX_PENDING - 1):
        queue_job(tmp_path / f"queued-{index}", lambda: None)
    try:
        for _ in range(2):
            refused = client.get(url)
            assert refused.status_code == 503, refused.status_code
    finally:
        release.set()
    settle()
    assert downloaded(client, url).status_code == 200


@pytest.mark.django_db
def test_a_face_budget_spent_on_the_first_sheet_is_a_drawing_answer_not_a_refusal(
    client, owner, busy_drawer, settings
):
    # per_request refuses (as the budget does, by raising) only while nothing is granted: a
    # save whose first sheet's faces took the last of the `tts` budget has work under way.
    deck = game_deck(owner, "conquest-for-the-capital")
    first, second = tts_plan(deck).sheets
    assert not {c.pk for c in first.cards} & {c.pk for c in second.cards}
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "tts": f"{len({c.pk for c in first.cards})}/min",
        },
    }
    response = client.get(f"/decks/{deck.share_key}/tts.json")
    assert still_drawing(response), response.status_code
