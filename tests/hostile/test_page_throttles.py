"""The search, goldfish and proxy pages, and sign-up, are throttled per client with the rates
(and the counters) the API uses: a refused request is an HTML 429 with Retry-After that names
the limit, and does nothing."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from decks.models import Job
from tests.hostile.conftest import capital_deck
from tests.redis_dbs import redis_url

pytestmark = pytest.mark.django_db


def assert_refused(response, limit):
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert f"the limit is {limit} per client" in html
    assert "Try again in" in html


def test_the_search_page_is_throttled_and_the_empty_form_costs_nothing(client, rates):
    rates(search="2/min")
    for _ in range(3):
        assert client.get("/search/").status_code == 200
    assert client.get("/search/", {"q": "t:unit"}).status_code == 200
    assert client.get("/search/", {"q": "t:unit"}).status_code == 200
    assert_refused(client.get("/search/", {"q": "t:unit"}), "2 searches a minute")
    assert client.get("/search/").status_code == 200


def test_the_search_page_and_the_search_api_share_one_budget(client, api, rates):
    rates(search="2/min")
    assert api.get("/api/v1/cards/", {"q": "t:unit"}).status_code == 200
    assert client.get("/search/", {"q": "t:unit"}).status_code == 200
    assert client.get("/search/", {"q": "t:unit"}).status_code == 429
    assert api.get("/api/v1/cards/", {"q": "t:unit"}).status_code == 429


def test_a_signed_in_user_has_a_budget_of_their_own(client, rates):
    rates(search="1/min")
    assert client.get("/search/", {"q": "elf"}).status_code == 200
    assert client.get("/search/", {"q": "elf"}).status_code == 429
    member = Client()
    member.force_login(User.objects.create_user("member", password="x-Long-pass-9"))
    assert member.get("/search/", {"q": "elf"}).status_code == 200


def test_the_goldfish_pages_simulations_are_throttled_but_not_its_sample_hand(owner, client, rates):
    rates(goldfish="2/min")
    url = f"/decks/{capital_deck(owner).share_key}/goldfish/"
    assert client.get(url, {"seed": 1, "runs": 10}).status_code == 200
    assert client.get(url, {"seed": 2, "runs": 10}).status_code == 200
    assert_refused(client.get(url, {"seed": 3, "runs": 10}), "2 goldfish pages a minute")
    # Playing a hand step by step spends none of the simulation budget.
    assert client.get(url, {"seed": 3, "steps": "next"}).status_code == 200


def test_the_proxy_page_is_throttled_and_a_refused_sheet_starts_no_job(owner, rates, settings):
    rates(proxies="1/min")
    settings.CELERY_BROKER_URL = redis_url(7)
    settings.JOB_PROXY_CARDS = 10
    client = Client()
    url = f"/decks/{capital_deck(owner).share_key}/proxies.pdf"
    assert client.get(url).status_code == 302
    assert Job.objects.count() == 1
    assert_refused(client.get(url), "1 proxy sheet a minute")
    assert Job.objects.count() == 1


def test_drawing_a_proxy_preview_spends_the_proxy_sheets_budget_and_reading_one_is_free(
    owner, rates, settings
):
    rates(proxies="2/min")
    client = Client()
    key = capital_deck(owner).share_key
    assert client.get(f"/decks/{key}/proxies-preview.png").status_code == 200
    assert client.get(f"/decks/{key}/proxies.pdf").status_code == 200
    assert_refused(
        client.get(f"/decks/{key}/proxies-preview.png", {"gap": "1"}), "2 proxy sheets a minute"
    )
    # Only the first preview was drawn, and it is still served: it costs nothing to read.
    assert len(list((settings.MEDIA_ROOT / "deck-images" / key).glob("proxies-*.png"))) == 1
    assert client.get(f"/decks/{key}/proxies-preview.png").status_code == 200
    # The form page itself draws nothing either.
    assert client.get(f"/decks/{key}/proxies/").status_code == 200


def test_drawing_open_graph_images_is_throttled_and_reading_one_is_free(owner, rates, settings):
    rates(images="1/min")
    client = Client()
    first, second = capital_deck(owner), capital_deck(owner)
    assert client.get(f"/decks/{first.share_key}/og.png").status_code == 200
    assert client.get(f"/decks/{first.share_key}/og.png").status_code == 200
    assert_refused(client.get(f"/decks/{second.share_key}/og.png"), "1 picture drawn a minute")
    assert not list((settings.MEDIA_ROOT / "deck-images" / second.share_key).glob("og-*.png"))


def test_sign_up_is_throttled_per_address_and_a_refused_one_makes_no_account(rates):
    rates(signup="2/hour")
    client = Client()
    assert client.get("/accounts/signup/").status_code == 200  # looking is free
    for name in ("first", "second"):
        body = {"username": name, "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"}
        assert Client().post("/accounts/signup/", body).status_code == 302
    body = {"username": "third", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"}
    assert_refused(client.post("/accounts/signup/", body), "2 sign-ups an hour")
    assert not User.objects.filter(username="third").exists()
    # From elsewhere, signing up still works.
    body["username"] = "fourth"
    assert Client(REMOTE_ADDR="198.51.100.7").post("/accounts/signup/", body).status_code == 302


def test_sign_up_counts_by_address_though_each_new_account_is_signed_in(rates):
    rates(signup="2/hour")
    client = Client()  # keeps the session cookie of each account it makes
    for name in ("first", "second"):
        body = {"username": name, "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"}
        assert client.post("/accounts/signup/", body).status_code == 302
        assert client.session["_auth_user_id"]
    body = {"username": "third", "password1": "a-Long-pass-42", "password2": "a-Long-pass-42"}
    assert_refused(client.post("/accounts/signup/", body), "2 sign-ups an hour")
    assert not User.objects.filter(username="third").exists()


def test_password_reset_counts_by_address_whoever_is_signed_in(rates):
    rates(password_reset="1/hour")
    assert Client().post("/accounts/password_reset/", {"email": "a@example.com"}).status_code == 302
    member = Client()
    member.force_login(User.objects.create_user("member", password="x-Long-pass-9"))
    refused = member.post("/accounts/password_reset/", {"email": "b@example.com"})
    assert_refused(refused, "1 password reset request an hour")
