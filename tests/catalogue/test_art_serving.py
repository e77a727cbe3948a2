"""Uploaded art is served by the site itself, with DEBUG off as in production, and nothing
else under media/ is: not job results, not cached faces or print copies."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from rest_framework.test import APIClient

from cardsite.catalogue.models import Card
from decks.models import Job

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent.parent
A_YEAR = 365 * 24 * 60 * 60


def png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (30, 20), "teal").save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture
def painted(settings):
    settings.DEBUG = False
    art = settings.MEDIA_ROOT / "art" / "painted.png"
    art.parent.mkdir(parents=True)
    art.write_bytes(png())
    card = Card.objects.filter(card_set__code="ORI-SMP").first()
    card.art.name = "art/painted.png"
    card.save()
    return card


def test_a_cards_art_url_serves_the_file_with_long_cache_headers(client, painted):
    url = APIClient().get(f"/api/v1/cards/{painted.short_id}/").json()["art"]
    assert url == "http://testserver/media/art/painted.png"
    response = client.get("/media/art/painted.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert b"".join(response.streaming_content) == png()
    cache_control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"public", f"max-age={A_YEAR}", "immutable"} <= cache_control


def test_a_file_in_the_art_folder_that_no_card_names_is_not_served(client, painted, settings):
    (settings.MEDIA_ROOT / "art" / "stray.png").write_bytes(png())
    assert client.get("/media/art/stray.png").status_code == 404
    assert client.get("/media/art/missing.png").status_code == 404


def test_a_job_result_is_never_served_as_a_media_file(client, painted, settings):
    response = APIClient().post(
        "/api/v1/proxies.pdf",
        {
            "game": "conquest-of-orion",
            "format": "constructed",
            "cards": [{"id": painted.short_id, "quantity": 1}],
        },
        format="json",
        HTTP_PREFER="respond-async",
    )
    assert response.status_code == 202
    job = Job.objects.get()
    assert (settings.MEDIA_ROOT / job.result.name).exists()
    assert job.result.name.startswith("jobs/")
    assert client.get(f"/media/{job.result.name}").status_code == 404
    assert client.get(f"/media/art/..%2f{job.result.name.replace('/', '%2f')}").status_code == 404
    for folder in ("faces", "print-art"):
        assert client.get(f"/media/{folder}/anything.png").status_code == 404


# Under cardsite.settings.production itself, in a process of its own on a fresh database: the
# URL configuration and middleware are those a deployment runs, with DEBUG off.
PRODUCTION_PROBE = """
import json
import django
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from cardsite.catalogue.models import Card, CardSet
from cardsite.catalogue.services.games import game_sync
from engines import get_engine

call_command("migrate", verbosity=0)
game = game_sync(engine=get_engine("conquest-of-fates"))
card_set = CardSet.objects.create(game=game, code="ART", name="Art")
card = Card(game=game, card_set=card_set, number="1", name="Painted")
card.art.name = "art/painted.png"
card.save()
client = Client()
answers = {}
# No collectstatic in this probe: the 404 page's stylesheet link takes its plain name.
from django.test import override_settings
plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
with override_settings(STORAGES={**settings.STORAGES, "staticfiles": plain}):
    for path in (card.art.url, "/media/jobs/result.pdf", "/media/art/stray.png"):
        response = client.get(path, secure=True)
        answers[path] = [response.status_code, response.get("Cache-Control", "")]
print(json.dumps(answers))
"""


def test_art_is_served_under_the_production_settings_and_job_files_are_not(tmp_path):
    media = tmp_path / "media"
    (media / "art").mkdir(parents=True)
    (media / "jobs").mkdir()
    (media / "art" / "painted.png").write_bytes(png())
    (media / "art" / "stray.png").write_bytes(png())
    (media / "jobs" / "result.pdf").write_bytes(b"%PDF-1.4 private")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardsite.settings.production",
        "SECRET_KEY": "x" * 60 + "-not-a-real-key-only-for-this-check-9a8b7c6d5e",
        "ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'production.sqlite3'}",
        "MEDIA_ROOT": str(media),
    }
    for name in ("REDIS_URL", "CELERY_BROKER_URL", "DEBUG"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-c", PRODUCTION_PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    answers = json.loads(result.stdout.strip().splitlines()[-1])
    status, cache_control = answers["/media/art/painted.png"]
    assert status == 200
    assert f"max-age={A_YEAR}" in cache_control and "immutable" in cache_control
    assert answers["/media/jobs/result.pdf"][0] == 404
    assert answers["/media/art/stray.png"][0] == 404
