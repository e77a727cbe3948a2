"""Who may load a deck into Tabletop Simulator: anyone for a public or unlisted deck (holding
its link), and for a private one its owner, or whoever holds a signed link that has not
expired; the sheets' ETags, caching, budget and the digests a deck answers."""

import json
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from decks.exports.images import deck_images_folder
from decks.services import (
    Intake,
    RequestedCard,
    deck_delete,
    deck_restore,
    deck_revert,
    deck_update,
)
from decks.tts.links import link_expiry, link_is_valid, signed, signed_query
from decks.tts.plan import tts_plan
from decks.tts.save import sheet_url
from tests.decks.tts_support import decoded, downloaded, game_deck, local, objects_of, save_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return User.objects.create_user("tabletop-owner", password="x-Long-pass-9")


@pytest.fixture
def stranger():
    user = User.objects.create_user("tabletop-stranger", password="x-Long-pass-9")
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def mine(owner):
    client = Client()
    client.force_login(owner)
    return client


def first_sheet(save):
    return next(iter(objects_of(save)[0]["CustomDeck"].values()))["FaceURL"]


def with_query(url, **changes):
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    query.update(changes)
    return parts.path + "?" + "&".join(f"{k}={v}" for k, v in query.items())


@pytest.mark.parametrize("visibility", ["public", "unlisted"])
def test_a_public_or_unlisted_decks_save_and_sheets_are_anyones_with_the_link(
    client, owner, visibility
):
    deck = game_deck(owner, "conquest-of-orion", visibility=visibility)
    save = save_of(client, deck)
    url = first_sheet(save)
    assert "sig=" not in url and "expires=" not in url
    response = client.get(local(url))
    decoded(response)
    assert response["Content-Type"] == "image/png"
    assert "public" in response["Cache-Control"] and "immutable" in response["Cache-Control"]


def test_a_private_decks_save_and_sheets_are_a_404_to_everyone_else(client, stranger, owner):
    deck = game_deck(owner, "conquest-of-orion", visibility="private")
    sheet = tts_plan(deck).sheets[0]
    for reader in (client, stranger):
        assert reader.get(f"/decks/{deck.share_key}/tts.json").status_code == 404
        assert reader.get(f"/decks/{deck.share_key}/tts/{sheet.digest}.png").status_code == 404
        api = reader.get(f"/api/v1/decks/{deck.share_key}/export/", {"as": "tts"})
        assert api.status_code == 404


def test_the_owners_save_of_a_private_deck_holds_signed_links_that_work_for_anyone(
    client, mine, owner
):
    deck = game_deck(owner, "conquest-of-orion", visibility="private")
    save = json.loads(downloaded(mine, f"/api/v1/decks/{deck.share_key}/export/?as=tts").content)
    url = first_sheet(save)
    query = parse_qs(urlsplit(url).query)
    assert set(query) == {"expires", "sig"}
    expires = int(query["expires"][0])
    assert expires % 3600 == 0
    assert timedelta(hours=24) <= timedelta(seconds=expires - timezone.now().timestamp())
    assert timedelta(seconds=expires - timezone.now().timestamp()) <= timedelta(hours=25)
    response = client.get(local(url))
    decoded(response)
    assert "private" in response["Cache-Control"] and "public" not in response["Cache-Control"]
    # The back is the game's, the same for every deck: public, unsigned.
    back = next(iter(objects_of(save)[0]["CustomDeck"].values()))["BackURL"]
    assert "sig=" not in back and client.get(local(back)).status_code == 200
    # The owner needs no signature.
    assert mine.get(urlsplit(url).path).status_code == 200


def test_an_expired_link_is_a_404(client, owner):
    deck = game_deck(owner, "conquest-of-orion", visibility="private")
    sheet = tts_plan(deck).sheets[0]
    yesterday = timezone.now() - timedelta(hours=25)
    stale = sheet_url(deck, sheet, yesterday)
    assert int(parse_qs(urlsplit(stale).query)["expires"][0]) <= timezone.now().timestamp()
    assert client.get(local(stale)).status_code == 404
    stale_file = signed(f"/decks/{deck.share_key}/tts.json", deck.share_key, yesterday)
    assert client.get(stale_file).status_code == 404
    fresh = sheet_url(deck, sheet, timezone.now())
    assert downloaded(client, local(fresh)).status_code == 200


def test_a_tampered_link_is_a_404(client, owner):
    deck = game_deck(owner, "conquest-of-orion", visibility="private")
    other = game_deck(owner, "conquest-of-fates", visibility="private")
    url = local(sheet_url(deck, tts_plan(deck).sheets[0], timezone.now()))
    query = parse_qs(urlsplit(url).query)
    later = str(int(query["expires"][0]) + 3600)
    signature = query["sig"][0]
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    theirs = signed_query(other.share_key, timezone.now())
    for bad in (
        with_query(url, sig=flipped),
        with_query(url, expires=later),
        with_query(url, sig=theirs["sig"]),
        with_query(url, sig=""),
        urlsplit(url).path,
    ):
        assert client.get(bad).status_code == 404, bad


FULLWIDTH_TIME = "\uff11\uff17" + "\uff10" * 8  # 1700000000 in full-width digits


@pytest.mark.parametrize(
    "expires", ["²³", "-1", "1e12", "NaN", "inf", "9" * 13, "", FULLWIDTH_TIME, "0x10"]
)
def test_an_expiry_that_is_not_a_plain_time_is_a_404_never_an_error(client, owner, expires):
    deck = game_deck(owner, "conquest-of-orion", visibility="private")
    url = local(sheet_url(deck, tts_plan(deck).sheets[0], timezone.now()))
    assert client.get(with_query(url, expires=expires)).status_code == 404


def spelled(expires):
    """Other ways of writing the same time that int() would read alike."""
    arabic_indic = expires.translate({ord(d): 0x0660 + int(d) for d in "0123456789"})
    return [
        "0" + expires,
        "00" + expires,
        "+" + expires,
        " " + expires,
        expires + " ",
        expires + "\n",
        f"{expires[:4]}_{expires[4:]}",
        arabic_indic,
        expires[:-1] + "\uff10",  # the last digit (0: a whole hour) in full width
    ]


def test_an_expiry_is_valid_only_as_the_link_writes_it(client, owner):
    deck = game_deck(owner, "conquest-of-orion", visibility="private")
    path = local(sheet_url(deck, tts_plan(deck).sheets[0], timezone.now())).split("?")[0]
    query = signed_query(deck.share_key, timezone.now())
    assert downloaded(client, f"{path}?{urlencode(query)}").status_code == 200
    for expires in spelled(query["expires"]):
        other = urlencode({**query, "expires": expires})
        assert client.get(f"{path}?{other}").status_code == 404, expires
        assert client.get(f"/decks/{deck.share_key}/tts.json?{other}").status_code == 404


def test_links_made_within_one_hour_are_the_same_and_good_for_a_day():
    start = datetime(2026, 3, 1, 10, 0, 1, tzinfo=UTC)
    assert link_expiry(start) == link_expiry(start + timedelta(minutes=59, seconds=58))
    assert link_expiry(start) == datetime(2026, 3, 2, 11, tzinfo=UTC).timestamp()
    query = signed_query("deck-key", start)
    assert link_is_valid("deck-key", query, start + timedelta(hours=24, minutes=59))
    assert not link_is_valid("deck-key", query, datetime(2026, 3, 2, 11, tzinfo=UTC))
    assert not link_is_valid("other-key", query, start)


def test_the_deck_pages_download_of_a_private_deck_is_signed(client, mine, owner):
    deck = game_deck(owner, "conquest-of-orion", visibility="private")
    page = mine.get(deck.get_absolute_url()).content.decode()
    start = page.index(f'href="/decks/{deck.share_key}/tts.json?')
    link = page[start + 6 : page.index('"', start + 6)].replace("&amp;", "&")
    assert "expires=" in link and "sig=" in link
    assert "load for 24 hours" in page
    response = downloaded(client, link)
    assert response.status_code == 200 and "private" in response["Cache-Control"]


def test_a_sheet_has_its_digest_as_etag_and_answers_if_none_match_with_304(client, owner):
    deck = game_deck(owner, "conquest-of-orion")
    digest = tts_plan(deck).sheets[0].digest
    url = f"/decks/{deck.share_key}/tts/{digest}.png"
    first = downloaded(client, url)
    assert first["ETag"] == f'"{digest}"'
    again = client.get(url, headers={"If-None-Match": f'"{digest}"'})
    assert again.status_code == 304 and again["ETag"] == f'"{digest}"' and not again.content
    other = client.get(url, headers={"If-None-Match": '"00000000000000000000"'})
    assert other.status_code == 200 and other.content == first.content


@pytest.mark.parametrize(
    "name", ["0" * 20, "ABCDEF0123456789ABCD", "abc", "0" * 21, "../../faces/x", "²" * 20]
)
def test_a_digest_the_deck_never_had_is_a_404(client, owner, name):
    deck = game_deck(owner, "conquest-of-orion")
    assert client.get(f"/decks/{deck.share_key}/tts/{name}.png").status_code == 404


def test_a_sheet_drawn_before_the_deck_changed_is_still_served_while_it_is_kept(client, owner):
    deck = game_deck(owner, "conquest-of-orion")
    old = tts_plan(deck).sheets[0].digest
    drawn = downloaded(client, f"/decks/{deck.share_key}/tts/{old}.png").content
    cards = [RequestedCard(e.quantity, None, e.card.short_id) for e in deck.entries.all()]
    deck_update(deck=deck, expected_version=None, changes={}, intake=Intake(cards[:2]))
    assert tts_plan(deck).sheet(old) is None
    assert client.get(f"/decks/{deck.share_key}/tts/{old}.png").content == drawn
    for path in deck_images_folder(deck.share_key).glob(f"tts-{old}.png"):
        path.unlink()
    assert client.get(f"/decks/{deck.share_key}/tts/{old}.png").status_code == 404


def test_drawing_a_sheet_spends_the_proxy_budget_and_reading_a_drawn_one_is_free(
    client, owner, settings
):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "proxies": "1/min",
        },
    }
    deck = game_deck(owner, "conquest-for-the-capital")
    first, second = (s.digest for s in tts_plan(deck).sheets)
    assert downloaded(client, f"/decks/{deck.share_key}/tts/{first}.png").status_code == 200
    refused = client.get(f"/decks/{deck.share_key}/tts/{second}.png")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "1 proxy sheet a minute" in refused.content.decode()
    assert not list(deck_images_folder(deck.share_key).glob(f"tts-{second}.png"))
    assert client.get(f"/decks/{deck.share_key}/tts/{first}.png").status_code == 200
    # The save would have to draw the second sheet: it is refused whole, naming the limit to
    # the person who clicked, never handed out with a sheet that then fails in TTS.
    save = client.get(f"/decks/{deck.share_key}/tts.json")
    assert save.status_code == 429 and "1 proxy sheet a minute" in save.content.decode()


def test_unknown_parameters_are_ignored_as_by_the_apis_other_exports(client, api, owner):
    deck = game_deck(owner, "conquest-of-orion")
    page = downloaded(client, f"/decks/{deck.share_key}/tts.json?sheets=-1&size=nan")
    exported = downloaded(api, f"/api/v1/decks/{deck.share_key}/export/?as=tts&x=%C2%B2")
    assert page.status_code == exported.status_code == 200
    assert json.loads(page.content) == exported.json()


def test_a_deck_made_private_later_answers_its_old_unsigned_links_with_404(client, owner):
    deck = game_deck(owner, "conquest-of-orion")
    save = save_of(client, deck)
    sheet = local(first_sheet(save))
    assert "sig=" not in sheet and client.get(sheet).status_code == 200
    deck = deck_update(deck=deck, expected_version=None, changes={"visibility": "private"})
    assert client.get(sheet).status_code == 404
    assert client.get(f"/decks/{deck.share_key}/tts.json").status_code == 404


def test_a_deleted_decks_signed_links_are_a_404_until_its_owner_restores_it(client, mine, owner):
    deck = game_deck(owner, "conquest-of-orion", visibility="private")
    save = json.loads(downloaded(mine, f"/decks/{deck.share_key}/tts.json").content)
    sheet = local(first_sheet(save))
    save_link = signed(f"/decks/{deck.share_key}/tts.json", deck.share_key, timezone.now())
    assert client.get(sheet).status_code == 200
    deck_delete(deck=deck)
    for url in (sheet, save_link, urlsplit(sheet).path):
        assert client.get(url).status_code == 404, url
        assert mine.get(url).status_code == 404, url
    deck_restore(deck=deck, owner=owner)
    assert client.get(sheet).status_code == 200


def test_a_revert_of_a_deck_made_private_leaves_its_old_sheets_to_signed_links(client, owner):
    deck = game_deck(owner, "conquest-of-orion")
    first = tts_plan(deck).sheets[0].digest
    assert downloaded(client, f"/decks/{deck.share_key}/tts/{first}.png").status_code == 200
    version = deck.version
    deck = deck_update(deck=deck, expected_version=None, changes={"visibility": "private"})
    cards = [RequestedCard(e.quantity, None, e.card.short_id) for e in deck.entries.all()]
    deck = deck_update(deck=deck, expected_version=None, changes={}, intake=Intake(cards[:2]))
    second = tts_plan(deck).sheets[0].digest
    deck = deck_revert(deck=deck, expected_version=None, version=version, author=owner)
    assert deck.visibility == "private" and tts_plan(deck).sheets[0].digest == first
    for digest in (first, second):
        path = f"/decks/{deck.share_key}/tts/{digest}.png"
        assert client.get(path).status_code == 404, digest
    path = f"/decks/{deck.share_key}/tts/{first}.png"
    assert downloaded(client, signed(path, deck.share_key, timezone.now())).status_code == 200
