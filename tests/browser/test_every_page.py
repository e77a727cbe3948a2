"""Every page of the site, signed out and signed in: at 390 px nothing scrolls sideways, and
axe-core (WCAG 2.1 AA) finds no violation in the light theme or the dark one. The same pages,
as the server sends them, are valid HTML: the W3C Nu checker finds no error in any of them,
nor does html-validate (.htmlvalidate.mjs).

One browser context per sign-in state serves the whole module; each page gets a fresh tab in
it. A failure names the page, the theme, axe's rule ids with their targets, or the elements
that stick out past 390 px, so that it can be fixed without re-running anything.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import Resolver404, resolve
from django.utils import timezone
from playwright.sync_api import expect

from cardsite.catalogue.models import Card, CardChange, Faction, Game
from cardsite.catalogue.services.edits import card_edit
from cardsite.catalogue.versioning import bump_catalogue_version
from cardsite.collection.models import Pool
from cardsite.collection.services import collection_set_quantity
from cardsite.collection.services.pools import pool_create, pool_invite
from cardsite.collection.services.sharing import collection_share
from cardsite.contributions.models import Curator, Notification
from cardsite.contributions.services.proposals import SourceInput, proposal_create
from cardsite.events.services import (
    StandingIn,
    event_create,
    event_publish,
    registration_submit,
    standings_set,
)
from decks.models import Deck, Job
from decks.services import (
    Intake,
    RequestedCard,
    deck_branch,
    deck_create,
    deck_set_quantity,
    deck_update,
)
from engines import ENGINES
from tests.browser.conftest import DESKTOP, PHONE, delete_committed, sign_in
from tests.browser.markup import html_validate_errors, nu_errors

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
USERNAME = "every-page"
PASSWORD = "a-Long-every-page-pass-7"
# Names long enough, and unbroken enough, to find what does not wrap at 390 px.
LONG_WORD = "Unbreakable-wall-of-cards-that-goes-on-and-on-without-a-single-space"

GAMES = list(ENGINES)
# A 1x1 transparent PNG.
BLANK_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)
SIGNED_OUT, SIGNED_IN = "signed-out", "signed-in"


@dataclass(frozen=True)
class SitePage:
    name: str
    # Who sees it: anyone (checked signed out and in), only visitors, or only members.
    who: str = "anyone"
    status: int = 200
    # Another branch's page, skipped (saying so) while its URL does not resolve here.
    optional: bool = False
    # Third-party markup axe should not judge, as CSS selectors; kept as narrow as it can be.
    axe_exclude: tuple[str, ...] = ()
    axe_rules_off: tuple[str, ...] = ()
    # Has base.html's meta description: every page but one a library draws whole.
    described: bool = True


PAGES = [
    SitePage("home"),
    *(SitePage(f"game-{slug}") for slug in GAMES),
    SitePage("set"),
    SitePage("search-faces"),
    SitePage("search-list"),
    SitePage("search-syntax-error", status=400),
    SitePage("search-no-match"),
    SitePage("syntax"),
    *(SitePage(f"card-{slug}") for slug in GAMES),
    SitePage("card-sample"),
    SitePage("public-decks"),
    *(SitePage(f"deck-{slug}") for slug in GAMES),
    *(SitePage(f"goldfish-{slug}") for slug in GAMES),
    *(SitePage(f"playtest-{slug}") for slug in GAMES),
    SitePage("deck-history"),
    SitePage("card-history"),
    SitePage("card-with-history"),
    SitePage("deck-diff"),
    SitePage("variant"),
    SitePage("variants"),
    SitePage("compare"),
    SitePage("compare-picker"),
    SitePage("compare-different-games", status=400),
    SitePage("builder-with-problems", who="member"),
    SitePage("proxy-form", who="member", optional=True),
    SitePage("job", who="member"),
    SitePage("job-running", who="member"),
    SitePage("my-decks", who="member"),
    SitePage("collection", who="member"),
    SitePage("new-deck", who="member"),
    SitePage("password-change", who="member"),
    SitePage("printing", who="member"),
    SitePage("collection-sharing", who="member"),
    SitePage("propose-edit", who="member"),
    SitePage("propose-card", who="member"),
    SitePage("proposal", who="member"),
    SitePage("review-queue", who="member"),
    SitePage("my-proposals", who="member"),
    SitePage("notifications", who="member"),
    SitePage("login", who="visitor"),
    SitePage("signup", who="visitor"),
    SitePage("password-reset", who="visitor"),
    # Swagger UI draws the whole page from its own scripts and markup; our part of the page
    # is the schema it reads, and the page around it (templates/drf_spectacular/).
    # robots.txt keeps crawlers out of /api/, so it needs no description.
    SitePage("api-docs", who="visitor", axe_exclude=("#swagger-ui",), described=False),
    SitePage("not-found", status=404),
    SitePage("events"),
    SitePage("event-published"),
    SitePage("new-event", who="member"),
    SitePage("event-organise", who="member"),
    # Framed by other sites, not searched: the page it embeds carries the description.
    SitePage("embed-card", described=False),
    *(SitePage(f"embed-deck-{slug}", described=False) for slug in GAMES),
]
CASES = [
    pytest.param(state, site_page, id=f"{state}-{site_page.name}")
    for site_page in PAGES
    for state in (SIGNED_OUT, SIGNED_IN)
    if site_page.who == "anyone" or (site_page.who == "visitor") == (state == SIGNED_OUT)
]


def _deck_cards(game: Game) -> list[Card]:
    """A one-faction pile from the game's sample set, so goldfish has a hand to draw."""
    sample = Card.objects.filter(game=game, card_set__is_official=False).order_by("number_sort")
    for faction in Faction.objects.filter(game=game).order_by("name"):
        cards = list(sample.filter(factions=faction)[:40])
        if len(cards) >= 10:
            return cards
    return list(sample[:40])


def _events(owner: User) -> dict[str, str]:
    """Two events the member organises and plays in: one published (its standings and lists),
    one still open (the organiser's page with a registration, a deck check and the forms)."""
    game = Game.objects.get(slug="conquest-for-the-capital")
    cards = Card.objects.filter(card_set__code="CFC-SMP", factions__name="Dwarves")
    deck = deck_create(
        owner=owner,
        game=game,
        format_slug="faction-deck",
        name=f"Event deck {LONG_WORD}",
        visibility="public",
        intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in cards)),
    )
    now = timezone.now()
    found = {"events": "/events/", "new-event": "/events/new/"}
    for name in ("published", "organise"):
        event = event_create(
            organiser=owner,
            game=game,
            format_slug="faction-deck",
            name=f"Event {name} {LONG_WORD}",
            starts_at=now + timedelta(days=2),
            deadline=now + timedelta(days=1),
        )
        registration_submit(event=event, player=owner, deck=deck)
        if name == "published":
            standings_set(
                event=event, organiser=owner, standings=[StandingIn(owner.get_username(), 1)]
            )
            event_publish(event=event, organiser=owner)
            found["event-published"] = event.get_absolute_url()
        else:
            found["event-organise"] = f"{event.get_absolute_url()}organise/"
    return found


@pytest.fixture(scope="module")
def urls(_server: str, django_db_blocker: Any) -> Iterator[dict[str, str]]:
    """Each page's path, from data committed for the live server and removed afterwards."""
    with django_db_blocker.unblock():
        owner = User.objects.create_user(USERNAME, password=PASSWORD)
        # A collection with a few cards of one set: totals, a missing list, the import form.
        for card in Card.objects.filter(card_set__is_official=False).order_by("id")[:3]:
            collection_set_quantity(owner=owner, card=card, quantity=2)
        found: dict[str, str] = {
            "home": "/",
            "search-faces": "/search/?q=is%3Asample",
            "search-list": "/search/?q=is%3Asample&view=list",
            "search-syntax-error": "/search/?q=%28t%3Aunit",
            "search-no-match": "/search/?q=wal+of+dwarvs",
            "syntax": "/syntax/",
            "public-decks": "/decks/",
            "my-decks": "/decks/mine/",
            "collection": "/collection/",
            "new-deck": "/decks/new/",
            "password-change": "/accounts/password_change/",
            "login": "/accounts/login/",
            "signup": "/accounts/signup/",
            "password-reset": "/accounts/password_reset/",
            "api-docs": "/api/v1/docs/",
            "not-found": "/no-such-page/",
        }
        decks: dict[str, Deck] = {}
        for game in Game.objects.filter(slug__in=GAMES):
            found[f"game-{game.slug}"] = game.get_absolute_url()
            first = Card.objects.filter(game=game).order_by("-card_set__is_official", "name")[0]
            found[f"card-{game.slug}"] = first.get_absolute_url()
            decks[game.slug] = deck_create(
                owner=owner,
                game=game,
                format_slug=game.engine.formats[0].slug,
                name=f"{game.name} {LONG_WORD}",
                description=f"A deck to look at. See https://example.com/{LONG_WORD}/{LONG_WORD}",
                visibility="public",
                intake=Intake(tuple(RequestedCard(1, None, c.short_id) for c in _deck_cards(game))),
            )
            # Planned cards beside each deck: the deck page's Maybe section is checked too.
            deck_update(
                deck=decks[game.slug],
                expected_version=None,
                changes={},
                maybe={c.short_id: 2 for c in _deck_cards(game)[-2:]},
            )
            found[f"deck-{game.slug}"] = decks[game.slug].get_absolute_url()
            found[f"embed-deck-{game.slug}"] = f"/embed/decks/{decks[game.slug].share_key}/"
            found[f"goldfish-{game.slug}"] = (
                f"/decks/{decks[game.slug].share_key}/goldfish/?seed=5&runs=50"
            )
            found[f"playtest-{game.slug}"] = f"/decks/{decks[game.slug].share_key}/playtest/?seed=5"
        # A variant of the first game's deck, one card fewer and one more, to compare with it.
        first_game, base = next(iter(decks.items()))
        variant = deck_branch(deck=base, owner=owner, name=f"Variant {LONG_WORD}")
        entries = list(base.entries.select_related("card").order_by("id")[:2])
        variant = deck_set_quantity(
            deck=variant, expected_version=None, card=entries[0].card.short_id, quantity=0
        )
        variant = deck_set_quantity(
            deck=variant, expected_version=None, card=entries[1].card.short_id, step=2
        )
        found["variant"] = variant.get_absolute_url()
        found["variants"] = f"/decks/{base.share_key}/variants/"
        found["compare"] = f"/decks/compare/?a={base.share_key}&b={variant.share_key}"
        found["compare-picker"] = f"/decks/compare/?a={base.share_key}"
        other = next(d for slug, d in decks.items() if slug != first_game)
        found["compare-different-games"] = f"/decks/compare/?a={base.share_key}&b={other.share_key}"
        # A history with a change of each kind: a card more, one out, a planned one, a format.
        storied = decks[GAMES[0]]
        entries = list(storied.entries.select_related("card").order_by("card__name")[:2])
        for card, step, zone in (
            (entries[0].card, 1, None),
            (entries[1].card, -1, None),
            (entries[1].card, 1, "maybe"),
        ):
            storied = deck_set_quantity(
                deck=storied,
                expected_version=None,
                card=card.short_id,
                step=step,
                zone=zone,
                author=owner,
            )
        other_format = storied.game.engine.formats[-1].slug
        deck_update(
            deck=storied, expected_version=None, changes={"format": other_format}, author=owner
        )
        found["deck-history"] = f"/decks/{storied.share_key}/history/"
        found["deck-diff"] = f"/decks/{storied.share_key}/history/diff/?from=1"
        sample = Card.objects.filter(card_set__is_official=False).order_by("name")[0]
        found["card-sample"] = sample.get_absolute_url()
        found["embed-card"] = f"/embed/cards/{sample.short_id}/"
        a_set = sample.card_set
        found["set"] = f"/games/{a_set.game.slug}/sets/{a_set.code}/"
        illegal = deck_create(
            owner=owner,
            game=sample.game,
            format_slug=sample.game.engine.formats[0].slug,
            name=f"Too small {LONG_WORD}",
            visibility="private",
            intake=Intake((RequestedCard(1, None, sample.short_id),)),
        )
        deck_update(
            deck=illegal,
            expected_version=None,
            changes={},
            maybe={c.short_id: 3 for c in _deck_cards(sample.game)[:2]},
        )
        found["builder-with-problems"] = f"/decks/{illegal.share_key}/edit/"
        found["proxy-form"] = f"/decks/{illegal.share_key}/proxies/"
        found["printing"] = "/accounts/printing/"
        # The sharing page with a reader, a collection to read and a pool's invitation on it.
        friend = User.objects.create_user(f"{USERNAME}-friend", password=PASSWORD)
        collection_share(owner=owner, reader_username=friend.username)
        collection_share(owner=friend, reader_username=owner.username)
        pool_invite(
            pool=pool_create(user=friend, name=f"Pool {LONG_WORD}"),
            by=friend,
            username=owner.username,
        )
        found["collection-sharing"] = "/collection/sharing/"
        # A proposal of the friend's with its photo, which the owner curates: the proposal
        # page as its reviewer sees it, the queue; and the owner's own, with a notice.
        User.objects.filter(pk__in=[owner.pk, friend.pk]).update(
            date_joined=timezone.now() - timedelta(days=1)
        )
        owner.refresh_from_db()
        friend.refresh_from_db()
        # Proposals are made to official cards: sample cards take none.
        official = Card.objects.filter(card_set__is_official=True).order_by("id").first()
        Curator.objects.create(user=owner, game=official.game)
        proposed = proposal_create(
            proposer=friend,
            game=official.game,
            kind="edit",
            card=official,
            changes={"name": f"Renamed {LONG_WORD}", "text": f"New text. {LONG_WORD}"},
            source=SourceInput(kind="publisher", url=f"https://example.com/{LONG_WORD}"),
            note=f"Seen on the publisher's page. {LONG_WORD}",
        )
        own = proposal_create(
            proposer=owner,
            game=official.game,
            kind="ruling",
            card=official,
            changes={"rulings": {"text": f"It may be played twice. {LONG_WORD}"}},
            source=SourceInput(kind="rulebook", text="page 9"),
        )
        Notification.objects.create(user=owner, proposal=own, text="Your ruling was approved.")
        propose = f"/proposals/new/{official.game.slug}/"
        found["propose-edit"] = f"{propose}?kind=edit&card={official.short_id}"
        found["propose-card"] = f"{propose}?kind=card&set={official.card_set.code}"
        found["proposal"] = f"/proposals/{proposed.pk}/"
        found["review-queue"] = "/review/"
        found["my-proposals"] = "/proposals/"
        found["notifications"] = "/notifications/"
        job = Job.objects.create(
            kind=Job.Kind.GOLDFISH,
            owner=owner,
            params={"deck": illegal.share_key},
            status=Job.Status.DONE,
            done=50,
            total=50,
            expires_at=timezone.now() + timedelta(days=1),
        )
        found["job"] = job.get_absolute_url()
        # A simulation under way: its progress bar, the page refreshing itself.
        running = Job.objects.create(
            kind=Job.Kind.GOLDFISH,
            owner=owner,
            params={"deck": illegal.share_key},
            status=Job.Status.RUNNING,
            started_at=timezone.now(),
            done=12_000,
            total=50_000,
            expires_at=timezone.now() + timedelta(days=1),
        )
        found["job-running"] = running.get_absolute_url()
        # A card with a community change: its marks, its History section and history page.
        storied_card = (
            Card.objects.filter(card_set__is_official=True).exclude(source="").order_by("id")[0]
        )
        old_flavour = storied_card.flavour_text
        card_edit(
            game=storied_card.game,
            card=storied_card,
            changes={"flavour": f"Words from the hand of a player {LONG_WORD}"},
            author=owner,
            reviewer=friend,
            source={"kind": "publisher", "url": f"https://publisher.example/{LONG_WORD}"},
        )
        found["card-with-history"] = storied_card.get_absolute_url()
        found["card-history"] = f"/cards/{storied_card.short_id}/history/"
        found.update(_events(owner))
    yield found
    with django_db_blocker.unblock():
        CardChange.objects.filter(card=storied_card).delete()
        Card.objects.filter(pk=storied_card.pk).update(flavour_text=old_flavour)
        bump_catalogue_version()
        delete_committed(Pool.objects.filter(created_by=friend))
        delete_committed(User.objects.filter(pk__in=[owner.pk, friend.pk]))


@pytest.fixture(scope="module")
def _media(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("every-page-media")


@pytest.fixture(autouse=True)
def _media_root_is_private_to_the_test(_media: Path, settings: Any) -> None:
    # One media folder for the module: each card face is drawn once, not once per page.
    settings.MEDIA_ROOT = _media


@pytest.fixture(scope="module")
def contexts(browser: Any, _server: str, urls: dict[str, str]) -> Iterator[dict[str, Any]]:
    out = browser.new_context(viewport=DESKTOP)
    member = browser.new_context(viewport=DESKTOP)
    # Signed in, nothing is photographed: a blank face spares the server drawing each card.
    member.route(
        "**/face.png", lambda route: route.fulfill(body=BLANK_PNG, content_type="image/png")
    )
    for context in (out, member):
        # Generous: a busy machine draws card faces slowly, and a wait ends when it can.
        context.set_default_navigation_timeout(90_000)
    tab = member.new_page()
    sign_in(tab, _server, USERNAME, PASSWORD)
    tab.close()
    yield {SIGNED_OUT: out, SIGNED_IN: member}
    out.close()
    member.close()


@pytest.fixture
def page(contexts: dict[str, Any], request: pytest.FixtureRequest) -> Iterator[Any]:
    # Signed in unless the test is parametrized by state.
    call = getattr(request.node, "callspec", None)
    tab = contexts[call.params["state"] if call else SIGNED_IN].new_page()
    yield tab
    tab.close()


OVERFLOW = """() => {
  const limit = window.innerWidth;
  if (document.documentElement.scrollWidth <= limit) return [];
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== "visible") return true;
    }
    return false;
  };
  const label = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + [...el.classList].map((c) => "." + c).join("");
  const path = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) parts.unshift(label(e));
    return parts.slice(-4).join(" > ");
  };
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const right = el.getBoundingClientRect().right;
    const parent = el.parentElement.getBoundingClientRect().right;
    // Where the overflow starts: an element past the edge inside a parent that is not.
    if (right > limit + 0.5 && parent <= limit + 0.5 && !clipped(el)) {
      const text = (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 60);
      out.push({right: Math.round(right), path: path(el), text});
    }
  }
  out.sort((a, b) => b.right - a.right);
  return out.slice(0, 5).concat(out.length ? [] : [{
    right: document.documentElement.scrollWidth, path: "(no single element found)", text: ""}]);
}"""

AXE_RUN = """async ([context, tags, rulesOff]) => {
  const rules = Object.fromEntries(rulesOff.map((id) => [id, {enabled: false}]));
  const only = {type: tags[0] === "color-contrast" ? "rule" : "tag", values: tags};
  const result = await axe.run(context, {runOnly: only, rules, resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " " + n.html.slice(0, 80) + ": "
      + (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 240)),
    more: Math.max(0, v.nodes.length - 5)}));
}"""


def overflow_at_390(page: Any) -> list[str]:
    page.set_viewport_size(PHONE)
    offenders = page.evaluate(OVERFLOW)
    return [
        f"at 390 px the page is {page.evaluate('document.documentElement.scrollWidth')} px wide; "
        f"sticking out: {o['path']} (right edge {o['right']} px) {o['text']!r}"
        for o in offenders
    ]


def axe_violations(page: Any, site_page: SitePage, themes: tuple[str, ...]) -> list[str]:
    page.set_viewport_size(DESKTOP)
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    context: Any = (
        {"exclude": [[s] for s in site_page.axe_exclude]} if site_page.axe_exclude else "html"
    )
    found = []
    # The themes differ only in colour: every rule in the light one, contrast in the dark.
    runs = {"light": AXE_TAGS, "dark": ["color-contrast"]}
    for theme, tags in ((t, runs[t]) for t in themes):
        page.emulate_media(color_scheme=theme)
        for v in page.evaluate(AXE_RUN, [context, tags, list(site_page.axe_rules_off)]):
            more = f" (and {v['more']} more)" if v["more"] else ""
            nodes = "\n      ".join(v["nodes"])
            found.append(f"axe {v['id']} in the {theme} theme: {v['help']}{more}\n      {nodes}")
    page.emulate_media(color_scheme="light")
    return found


@pytest.mark.parametrize(("state", "site_page"), CASES)
def test_every_page_fits_390_px_and_axe_finds_no_violation_in_either_theme(
    server: str, urls: dict[str, str], page: Any, shoot: Any, state: str, site_page: SitePage
) -> None:
    path = urls[site_page.name]
    if site_page.optional:
        try:
            resolve(path.split("?")[0])
        except Resolver404:
            pytest.skip(f"{path} does not resolve in this tree: that page is another branch's")
    # Images need not have arrived: every one has its size in the markup.
    response = page.goto(server + path, wait_until="domcontentloaded")
    assert response is not None and response.status == site_page.status, (
        f"{path} answered {response and response.status}, not {site_page.status}"
    )
    # A page anyone sees differs for a member only in its header, which the member pages show
    # in both themes; so signed in it is checked in the light theme, and not photographed.
    once = state == SIGNED_OUT or site_page.who == "member"
    themes = ("light", "dark") if once else ("light",)
    problems = overflow_at_390(page) + axe_violations(page, site_page, themes)
    # Every page describes itself to search engines (base.html's description block).
    described = page.locator('meta[name="description"]')
    if site_page.described and not (described.get_attribute("content") or "").strip():
        problems.append("no meta description")
    if once:
        settle_images(page)
        shoot(site_page.name)
    assert not problems, f"{site_page.name} ({path}, {state}):\n  " + "\n  ".join(problems)


def settle_images(page: Any) -> None:
    """Loads every image, lazy ones too, so that the full-page shots show them, and so that
    no request is left for the one-at-a-time server to answer during the next test."""
    page.evaluate("""() => document.querySelectorAll("img[loading=lazy]")
      .forEach((img) => { img.loading = "eager"; })""")
    page.wait_for_function(
        "() => [...document.images].every((img) => img.complete)", timeout=120_000
    )


def test_the_narrow_menu_opens_inside_the_page_and_passes_axe(
    server: str, urls: dict[str, str], page: Any, shoot: Any
) -> None:
    page.set_viewport_size(PHONE)
    page.goto(server + urls["home"])
    page.get_by_text("Menu", exact=True).click()
    expect(page.get_by_role("link", name="My decks")).to_be_visible()
    problems = overflow_at_390(page)
    page.add_script_tag(path=str(AXE))
    for theme, tags in (("light", AXE_TAGS), ("dark", ["color-contrast"])):
        page.emulate_media(color_scheme=theme)
        found = page.evaluate(AXE_RUN, [".site-header", tags, []])
        problems += [f"axe {v['id']} in the {theme} theme: " + "; ".join(v["nodes"]) for v in found]
    shoot("menu-open")
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def saved_pages(
    _server: str,
    urls: dict[str, str],
    contexts: dict[str, Any],
    django_db_blocker: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    """Every page of CASES as the server sent it (before any script ran), one file each:
    what a validator at the site's address would be given."""
    folder = tmp_path_factory.mktemp("every-page-html")
    with django_db_blocker.unblock():
        for case in CASES:
            state, site_page = case.values
            path = urls[site_page.name]
            if site_page.optional:
                try:
                    resolve(path.split("?")[0])
                except Resolver404:
                    continue
            # As generous as the walk: a busy machine simulates goldfish slowly.
            response = contexts[state].request.get(_server + path, timeout=90_000)
            assert response.status == site_page.status, f"{path} answered {response.status}"
            # Only HTML is theirs to check (a sitemap or a feed in the list is not).
            if response.headers.get("content-type", "").startswith("text/html"):
                (folder / f"{case.id}.html").write_bytes(response.body())
    return folder


def test_the_nu_checker_finds_no_error_on_any_page(saved_pages: Path) -> None:
    errors = nu_errors(saved_pages)
    assert not errors, f"The Nu checker finds {len(errors)} errors:\n  " + "\n  ".join(errors)


def test_html_validate_finds_no_error_on_any_page(saved_pages: Path) -> None:
    errors = html_validate_errors(saved_pages)
    assert not errors, f"html-validate finds {len(errors)} errors:\n  " + "\n  ".join(errors)
