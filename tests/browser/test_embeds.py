"""Embedding in a real browser: another site reads a deck's oEmbed and frames its html (the
deck's list shows inside, with face previews), and autocard.js turns [[Card Name]] on another
site's page into card links with a preview. The other sites are
static pages served by a tiny http.server on another port (a loopback origin: Chromium lets
only a loopback page read a loopback server), so every request to this site is cross-origin
as it would be."""

import json
import re
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, Game
from decks.services import Intake, RequestedCard, deck_create
from tests.browser.conftest import delete_committed


@pytest.fixture
def site(server, settings):
    # The site's absolute links (the oEmbed html's iframe) name the live server.
    settings.SITE_URL = server
    return server


@pytest.fixture
def embedded(django_db_blocker):
    with django_db_blocker.unblock():
        owner = User.objects.create_user("browser-embedder", password="a-Long-browser-pass-7")
        cards = list(
            Card.objects.filter(card_set__code="ORI-SMP", factions__name="Humans").order_by(
                "number_sort"
            )[:6]
        )
        deck = deck_create(
            owner=owner,
            game=Game.objects.get(slug="conquest-of-orion"),
            format_slug="constructed",
            name="Framed Fleet",
            visibility="public",
            intake=Intake(tuple(RequestedCard(2, None, c.short_id) for c in cards)),
        )
    yield deck, cards
    with django_db_blocker.unblock():
        delete_committed(User.objects.filter(pk=owner.pk))


@pytest.fixture
def other_site(tmp_path):
    """Writes a page into a folder served at another origin; returns its URL."""
    handler = partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()

    def serve(name: str, body: str) -> str:
        (tmp_path / name).write_text(body, encoding="utf-8")
        return f"http://127.0.0.1:{httpd.server_address[1]}/{name}"

    yield serve
    httpd.shutdown()
    httpd.server_close()


def test_a_deck_link_pasted_into_an_oembed_consumer_shows_the_deck_framed(
    site, page, shoot, embedded, other_site
):
    deck, cards = embedded
    deck_url = site + deck.get_absolute_url()
    consumer = other_site(
        "consumer.html",
        f"""<!doctype html><html lang="en"><title>Consumer</title><body><main id="out"></main>
<script>
const url = {json.dumps(deck_url)};
fetch({json.dumps(site + "/oembed/")} + "?format=json&url=" + encodeURIComponent(url))
  .then((r) => r.json())
  .then((data) => {{
    document.getElementById("out").innerHTML = data.html;
    document.title = data.title;
  }});
</script></body></html>""",
    )
    page.goto(consumer)
    expect(page).to_have_title("Framed Fleet · Conquest of Orion")
    frame = page.frame_locator("iframe")
    expect(frame.get_by_role("heading", level=1)).to_have_text("Framed Fleet")
    for card in cards:
        expect(frame.get_by_role("link", name=card.name, exact=True)).to_be_visible()
    full = frame.get_by_role("link", name="The whole deck on cardsite")
    expect(full).to_have_attribute("target", "_blank")
    # The site's own hover preview works inside the frame.
    frame.get_by_role("link", name=cards[0].name, exact=True).hover()
    expect(frame.locator(".card-preview")).to_have_attribute("data-card", cards[0].short_id)
    shoot("consumer")


def test_the_embed_pages_in_light_and_dark(site, page, shoot, embedded):
    deck, cards = embedded
    page.goto(f"{site}/embed/decks/{deck.share_key}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Framed Fleet")
    shoot("deck-embed")
    page.goto(f"{site}/embed/cards/{cards[0].short_id}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(cards[0].name)
    expect(page.get_by_role("img", name=f"Card face of {cards[0].name}")).to_be_visible()
    shoot("card-embed")


def test_autocard_links_names_on_another_site_and_previews_their_faces(
    site, page, embedded, other_site
):
    _, cards = embedded
    blog = other_site(
        "post.html",
        f"""<!doctype html><html lang="en"><title>Blog</title><body>
<p id="post">Open with [[{cards[0].name}]] and then [[{cards[1].name.upper()}]];
never [[No Such Card Anywhere]].</p>
<pre id="code">[[{cards[2].name}]]</pre>
<script src="{site}/static/js/autocard.js" data-game="conquest-of-orion" defer></script>
</body></html>""",
    )
    page.goto(blog)
    post = page.locator("#post")
    first = post.get_by_role("link", name=cards[0].name, exact=True)
    expect(first).to_have_attribute("href", site + cards[0].get_absolute_url())
    expect(post.get_by_role("link", name=cards[1].name.upper())).to_be_visible()
    expect(post).to_contain_text("[[No Such Card Anywhere]]")
    expect(page.locator("#code")).to_have_text(f"[[{cards[2].name}]]")
    first.hover()
    preview = page.locator("img[data-autocard-preview]")
    expect(preview).to_be_visible()
    expect(preview).to_have_attribute("src", f"{site}/cards/{cards[0].short_id}/face.png")


def test_the_embed_box_on_a_deck_page_gives_the_iframe_and_autocard_snippets(site, page, embedded):
    deck, _ = embedded
    page.goto(site + deck.get_absolute_url())
    page.get_by_text("Embed", exact=True).click()
    iframe = page.get_by_label("Embed this deck in a web page")
    expect(iframe).to_be_visible()
    expect(iframe).to_have_value(re.compile(rf'^<iframe src="{re.escape(site)}/embed/decks/'))
    autocard = page.locator("#embed-autocard")
    expect(autocard).to_have_value(re.compile(r'autocard\.js" data-game="conquest-of-orion"'))
    expect(page.get_by_role("button", name="Copy the embed code")).to_be_visible()
