"""Every image and file the site serves, and every catalogue API read, says how it may be
cached in directives a cache can read (RFC 9111 §5.2): a shared cache such as nginx's stores
nothing whose Cache-Control it cannot parse, and a `private=False` is no directive at all."""

import io
import json
import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client
from PIL import Image

from cardsite.catalogue.models import Card
from tests.decks.tts_support import downloaded, game_deck, local, objects_of

pytestmark = pytest.mark.django_db

# RFC 9110 §5.6.2: a token is one or more of these; §5.6.4: a quoted string.
TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
QUOTED = r'"(?:[^"\\]|\\.)*"'
DIRECTIVE = re.compile(rf"({TOKEN})(?:=({TOKEN}|{QUOTED}))?")
# The response directives of RFC 9111 §5.2.2 and RFC 8246 (immutable), by what they take.
BARE = {"public", "must-revalidate", "proxy-revalidate", "no-transform", "immutable"}
SECONDS = {"max-age", "s-maxage", "stale-while-revalidate", "stale-if-error"}
FIELD_NAMES = {"private", "no-cache"}
GAME = "conquest-of-orion"


def directives(header):
    """The header's directives as {name: value or None}, failing on any a cache cannot read."""
    found = {}
    for part in header.split(","):
        match = DIRECTIVE.fullmatch(part.strip())
        assert match, f"not a cache directive: {part.strip()!r} in {header!r}"
        name, value = match.group(1).lower(), match.group(2)
        assert name not in found, f"{name} twice in {header!r}"
        if name in BARE or name == "no-store":
            assert value is None, f"{name} takes no value: {header!r}"
        elif name in SECONDS:
            assert value is not None and value.isdigit(), f"{name} is seconds: {header!r}"
        elif name in FIELD_NAMES:
            assert value is None or value.startswith('"'), f"{name} names fields: {header!r}"
        else:
            raise AssertionError(f"unknown directive {name!r} in {header!r}")
        found[name] = value
    assert not {"public", "private"} <= set(found), f"public and private: {header!r}"
    return found


def png(size=(30, 20)):
    buffer = io.BytesIO()
    Image.new("RGB", size, "teal").save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture
def owner():
    return User.objects.create_user("cached", password="x-Long-pass-9")


@pytest.fixture
def mine(owner):
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def art(settings):
    art = settings.MEDIA_ROOT / "art" / "cached.png"
    art.parent.mkdir(parents=True)
    art.write_bytes(png())
    card = Card.objects.filter(card_set__code="ORI-SMP").first()
    card.art.name = "art/cached.png"
    card.save()
    return "/media/art/cached.png"


def first_sheet(save):
    return local(next(iter(objects_of(save)[0]["CustomDeck"].values()))["FaceURL"])


def test_every_image_and_files_cache_control_is_well_formed(client, mine, owner, art):
    public = game_deck(owner, GAME, per_zone=2)
    private = game_deck(owner, GAME, visibility="private", per_zone=2, name="Hidden")
    card = Card.objects.filter(card_set__code="ORI-SMP").first()
    public_save = json.loads(downloaded(client, f"/decks/{public.share_key}/tts.json").content)
    private_save = json.loads(downloaded(mine, f"/decks/{private.share_key}/tts.json").content)
    signed_sheet = first_sheet(private_save)
    assert "sig=" in signed_sheet
    # Who asks, and whether the answer may be shared (None: a private deck's, one reader's).
    answers = {
        f"/cards/{card.short_id}/face.png": (client, "public"),
        f"/games/{GAME}/back.png": (client, "public"),
        f"/games/{GAME}/back.png?landscape=1": (client, "public"),
        art: (client, "public"),
        "/proxies/calibration.pdf": (client, "public"),
        f"/decks/{public.share_key}/og.png": (client, "public"),
        f"/decks/{private.share_key}/og.png": (mine, "private"),
        f"/decks/{public.share_key}/tts.json": (client, "private"),
        f"/decks/{private.share_key}/tts.json": (mine, "private"),
        first_sheet(public_save): (client, "public"),
        signed_sheet: (Client(), "private"),
        urlsplit(signed_sheet).path: (mine, "private"),
        f"/decks/{public.share_key}/proxies-preview.png": (client, "public"),
        f"/decks/{private.share_key}/proxies-preview.png": (mine, "private"),
        f"/api/v1/decks/{public.share_key}/proxies.png": (client, "public"),
        f"/api/v1/decks/{private.share_key}/proxies.png": (mine, "private"),
        f"/decks/{public.share_key}/export.txt": (client, "private"),
        f"/decks/{public.share_key}/export.cod": (client, "private"),
        f"/decks/{private.share_key}/export.cod": (mine, "private"),
        f"/api/v1/decks/{public.share_key}/export/?as=cod": (client, "private"),
        f"/api/v1/games/{GAME}/export/?as=cockatrice": (client, "public"),
    }
    for url, (reader, scope) in answers.items():
        response = reader.get(url)
        assert response.status_code == 200, (url, response.status_code)
        found = directives(response["Cache-Control"])
        assert scope in found, (url, response["Cache-Control"])
        if hasattr(response, "streaming_content"):
            response.getvalue()  # drain the stream; close() would end the DB connection


def test_every_catalogue_api_reads_cache_control_is_well_formed(client, mine):
    card = Card.objects.filter(card_set__code="ORI-SMP").first()
    # Who asks, and whether the answer may be shared: a search of the reader's collection is
    # theirs alone, and so is the browsable API's page (it names them).
    answers = [
        (f"/api/v1/cards/{card.short_id}/", client, "public", "application/json"),
        (f"/api/v1/cards/{card.short_id}/", mine, "private", "text/html"),
        ("/api/v1/cards/?q=t:unit", client, "public", "application/json"),
        ("/api/v1/cards/?q=own>=1", mine, "private", "application/json"),
        ("/api/v1/cards/?q=own>=1", client, "private", "application/json"),
        (f"/api/v1/cards/?game={GAME}", mine, "public", "application/json"),
        ("/api/v1/games/", client, "public", "application/json"),
        (f"/api/v1/games/{GAME}/", client, "public", "application/json"),
        ("/api/v1/sets/", client, "public", "application/json"),
    ]
    for url, reader, scope, accept in answers:
        response = reader.get(url, HTTP_ACCEPT=accept)
        assert response.status_code == 200, (url, response.status_code)
        found = directives(response["Cache-Control"])
        assert scope in found, (url, response["Cache-Control"])
        # Kept, but asked about again before each use: an edit is seen at once.
        assert "no-cache" in found, (url, response["Cache-Control"])


@pytest.mark.parametrize(
    "header",
    [
        "private=False, public",
        "private, public=False",
        "public, max-age=soon",
        "public,, max-age=60",
        "public, private",
        "immutable=True",
    ],
)
def test_the_check_itself_refuses_what_a_cache_cannot_read(header):
    with pytest.raises(AssertionError):
        directives(header)
