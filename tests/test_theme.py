"""The colour theme's cookie and its switch without JavaScript (cardsite/theme.py)."""

import pytest

from cardsite.theme import MAX_NEXT_CHARS

pytestmark = pytest.mark.django_db


def html_tag(response) -> str:
    page = response.content.decode()
    return page[page.index("<html") : page.index(">", page.index("<html")) + 1]


def test_without_a_choice_the_page_follows_the_system_theme(client):
    response = client.get("/")
    assert html_tag(response) == '<html lang="en">'
    assert "Theme: System" in response.content.decode()


@pytest.mark.parametrize("choice", ["light", "dark"])
def test_a_chosen_theme_is_on_the_html_element_at_first_paint(client, choice):
    client.cookies["theme"] = choice
    response = client.get("/syntax/")
    assert html_tag(response) == f'<html lang="en" data-theme="{choice}">'
    assert f"Theme: {choice.title()}" in response.content.decode()


def test_a_cookie_that_is_not_a_theme_is_ignored_not_echoed(client):
    client.cookies["theme"] = '"><script>alert(1)</script>'
    response = client.get("/")
    assert html_tag(response) == '<html lang="en">'
    assert "alert(1)" not in response.content.decode()


def test_the_switch_cycles_system_light_dark_and_back_to_system(client):
    assert 'value="light"' in client.get("/").content.decode()
    client.cookies["theme"] = "light"
    assert 'name="theme" value="dark"' in client.get("/").content.decode()
    client.cookies["theme"] = "dark"
    assert 'name="theme" value="system"' in client.get("/").content.decode()


def test_the_switch_without_javascript_sets_the_cookie_and_goes_back_to_the_page(client):
    response = client.post("/theme/", {"theme": "dark", "next": "/syntax/?x=1"})
    assert response.status_code == 302 and response["Location"] == "/syntax/?x=1"
    cookie = response.cookies["theme"]
    assert cookie.value == "dark" and cookie["samesite"] == "Lax" and cookie["max-age"] > 0
    assert 'data-theme="dark"' in html_tag(client.get("/syntax/"))


def test_choosing_the_system_theme_removes_the_cookie(client):
    client.cookies["theme"] = "dark"
    response = client.post("/theme/", {"theme": "system", "next": "/"})
    assert response.status_code == 302 and response.cookies["theme"].value == ""
    assert html_tag(client.get("/")) == '<html lang="en">'


@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/x", "syntax/", ""])
def test_the_switch_goes_back_only_to_a_page_of_this_site(client, next_url):
    response = client.post("/theme/", {"theme": "light", "next": next_url})
    assert response.status_code == 302 and response["Location"] == "/"


def test_a_theme_that_is_not_one_of_the_three_is_refused_and_nothing_is_set(client):
    response = client.post("/theme/", {"theme": "sepia", "next": "/"})
    assert response.status_code == 400
    assert "theme must be one of system, light or dark" in response.content.decode()
    assert "theme" not in response.cookies


def test_a_next_page_longer_than_the_limit_is_refused_naming_it(client):
    response = client.post("/theme/", {"theme": "dark", "next": "/" + "a" * MAX_NEXT_CHARS})
    assert response.status_code == 400
    assert f"at most {MAX_NEXT_CHARS:,} characters" in response.content.decode()
    assert "theme" not in response.cookies


def test_a_page_whose_address_is_past_the_limit_sends_the_switch_home(client):
    page = client.get("/search/", {"q": "x" * MAX_NEXT_CHARS}).content.decode()
    assert '<input type="hidden" name="next" value="/">' in page


def test_the_switch_is_post_only(client):
    assert client.get("/theme/", {"theme": "dark"}).status_code == 405


def test_the_forced_dark_theme_and_the_systems_dark_theme_set_the_same_values():
    # CSS cannot say "dark by the system unless light is chosen, or dark when chosen" in one
    # rule, so site.css writes the dark values twice; this keeps the copies from drifting.
    import re
    from pathlib import Path

    css = (Path(__file__).resolve().parents[1] / "cardsite/static/css/site.css").read_text()
    system = re.search(r":root:not\(\[data-theme\]\) \{(.*?)\}", css, re.S)
    forced = re.search(r':root\[data-theme="dark"\] \{(.*?)\}', css, re.S)
    assert system and forced

    def values(block: str) -> list[str]:
        return sorted(d.strip() for d in block.split(";") if d.strip())

    assert values(system.group(1)) == values(forced.group(1))
