"""What search engines read: robots.txt, the sitemap (an index of paginated sections, built with
django.contrib.sitemaps) and the absolute URLs pages name as canonical.

Every URL is absolute under SITE_URL, as short links and QR codes are, never under the Host a
request came with: a crawler that reached the site by another name must still be told the
site's one address. The sections are listed in cardsite/urls.py, so this module knows no app.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from xml.sax.saxutils import escape

from django.conf import settings
from django.contrib.sitemaps import Sitemap

# Django's own row of a sitemap index (5.2); django-stubs does not declare it yet.
from django.contrib.sitemaps.views import SitemapIndexItem  # type: ignore[attr-defined]
from django.core.cache import cache
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.http import http_date
from django.views.decorators.http import require_safe

# URLs on one sitemap page. The protocol allows 50,000 (and 50 MB); 2,000 keeps a page about
# 250 kB and one cold render of it a few tens of milliseconds, so a crawler walking every page
# of a large catalogue never makes one request expensive, and a catalogue of 100,000 cards is
# still only 50 pages in the index.
SITEMAP_LIMIT = 2_000
# `?p=` beyond this many characters is no page number of any section: a 404 at once.
PAGE_PARAM_MAX = 6
# Catalogue sections change only with the catalogue, and their cache entry goes with its
# version; this bounds an idle entry's life, as for the card pages.
CACHE_SECONDS = 60 * 60
# What a shared cache may keep: catalogue sections an hour; the deck section and the index not
# at all (a deck made unlisted must leave the sitemap at once, not an hour later).
CATALOGUE_MAX_AGE = 60 * 60
ROBOTS_MAX_AGE = 24 * 60 * 60
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


# A meta description past this many characters is cut at a word: search results show about
# 155, and link previews a little more.
DESCRIPTION_CHARS = 160


def absolute(path: str) -> str:
    """`path` (from reverse or get_absolute_url) as an absolute URL on the site's address."""
    return settings.SITE_URL.rstrip("/") + path


def trimmed(text: str, chars: int = DESCRIPTION_CHARS) -> str:
    """`text` on one line, cut at a word with an ellipsis if it is longer than `chars`."""
    plain = " ".join(text.split())
    if len(plain) <= chars:
        return plain
    return plain[: chars - 1].rsplit(" ", 1)[0].rstrip(" ,;:—-") + "…"


@dataclass(frozen=True)
class PageMeta:
    """What a page tells search engines and link previews about itself (base.html's <head>):
    its description, its one canonical URL, and for a link preview a title and an image."""

    description: str
    canonical: str
    title: str = ""
    image: str = ""
    image_width: int = 0
    image_height: int = 0
    image_alt: str = ""
    # A page anyone with the link may read but that is not public (an unlisted deck): kept
    # out of search results.
    noindex: bool = False
    # Its oEmbed address (cardsite.embeds.oembed_link) where the page can be embedded, for
    # the discovery <link> consumers look for; "" where it cannot (a private deck).
    oembed: str = ""


class SiteSitemap(Sitemap):
    """A section of the sitemap: absolute under SITE_URL, `SITEMAP_LIMIT` URLs a page, and
    cached (and shared-cacheable) while `version()` stays the same."""

    limit = SITEMAP_LIMIT
    # Whether a shared cache may keep the section's pages for CATALOGUE_MAX_AGE.
    public_cache = True

    def version(self) -> int:
        """A number that changes whenever anything this section lists could."""
        raise NotImplementedError

    def get_protocol(self, protocol: str | None = None) -> str:
        return settings.SITE_URL.split("://", 1)[0]

    def get_domain(self, site: Any = None) -> str:
        # Everything after the scheme, a path prefix included: locations are this plus a path.
        return str(settings.SITE_URL.split("://", 1)[1].rstrip("/"))

    def get_latest_lastmod(self) -> datetime | None:
        # Django's default reads every item to find the newest; a section with dates says so
        # in one query of its own (latest_of), and one without has none.
        return None


class PageSitemap(SiteSitemap):
    """Pages with a fixed address that are no game, set, card or deck (the home page, ...),
    by URL name."""

    def __init__(self, url_names: list[str]) -> None:
        self.url_names = url_names

    def version(self) -> int:
        # Their addresses never change, and they have no date to give.
        return 0

    def items(self) -> list[str]:
        return self.url_names

    def location(self, item: str) -> str:
        return reverse(item)


def _page_number(request: HttpRequest) -> str:
    page = request.GET.get("p", "1")
    if len(page) > PAGE_PARAM_MAX or not page.isascii() or not page.isdigit():
        raise Http404(f"p: a page number of at most {PAGE_PARAM_MAX} digits")
    return page


@require_safe
def sitemap_section(
    request: HttpRequest, section: str, sitemaps: Mapping[str, SiteSitemap]
) -> HttpResponse:
    """One page (`?p=`, from 1) of one section: a count and the page's rows when cold, nothing
    from the database when warm."""
    if section not in sitemaps:
        raise Http404(f"No sitemap section {section!r}.")
    sitemap = sitemaps[section]
    page = _page_number(request)
    key = f"sitemap:{section}:{sitemap.version()}:{int(page)}"
    held = cache.get(key)
    if held is None:
        try:
            # The framework's pagination, locations and dates ...
            urls = sitemap.get_urls(page=page)
        except (EmptyPage, PageNotAnInteger):
            raise Http404(f"No page {page} of the sitemap section {section!r}.") from None
        if not urls:
            # The protocol wants at least one <url>; the index leaves an empty section out.
            raise Http404(f"The sitemap section {section!r} lists nothing now.")
        newest = max((u["lastmod"] for u in urls if u["lastmod"]), default=None)
        held = (_urlset(urls), http_date(newest.timestamp()) if newest else None)
        cache.set(key, held, CACHE_SECONDS)
    return _xml(held[0], last_modified=held[1], public=sitemap.public_cache)


def _urlset(urls: list[dict[str, Any]]) -> bytes:
    """... written out directly: the framework's template took 0.7 of a 2,000-URL page's 1.6 s
    on a busy machine, this a few milliseconds. Only <loc> and <lastmod> (to the second, in
    W3C form): no section sets a priority or a change frequency, which crawlers ignore."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<urlset xmlns="{SITEMAP_NS}">']
    for url in urls:
        lastmod = url["lastmod"]
        when = f"<lastmod>{lastmod.isoformat(timespec='seconds')}</lastmod>" if lastmod else ""
        lines.append(f"<url><loc>{escape(url['location'])}</loc>{when}</url>")
    lines.append("</urlset>\n")
    return "\n".join(lines).encode()


@require_safe
def sitemap_index(request: HttpRequest, sitemaps: Mapping[str, SiteSitemap]) -> HttpResponse:
    """sitemap.xml: every page of every section that lists anything, each with its section's
    newest lastmod. At most two queries a section when cold (its count, its newest date)."""
    versions = ":".join(str(sitemap.version()) for sitemap in sitemaps.values())
    key = f"sitemap-index:{versions}"
    held = cache.get(key)
    if held is None:
        items: list[SitemapIndexItem] = []
        newest: datetime | None = None
        for section, sitemap in sitemaps.items():
            url = absolute(reverse("sitemap-section", kwargs={"section": section}))
            paginator = sitemap.paginator
            if paginator.count == 0:
                continue
            lastmod = sitemap.get_latest_lastmod()
            if lastmod is not None and (newest is None or lastmod > newest):
                newest = lastmod
            items.append(SitemapIndexItem(url, lastmod))
            pages = paginator.num_pages
            items += [SitemapIndexItem(f"{url}?p={n}", lastmod) for n in range(2, pages + 1)]
        content = render_to_string("sitemap_index.xml", {"sitemaps": items}).encode()
        held = (content, http_date(newest.timestamp()) if newest else None)
        cache.set(key, held, CACHE_SECONDS)
    return _xml(held[0], last_modified=held[1], public=False)


def _xml(content: bytes, *, last_modified: str | None, public: bool) -> HttpResponse:
    response = HttpResponse(content, content_type="application/xml")
    # As Django's own sitemap views: the file is for crawlers, not a page to show in results.
    response["X-Robots-Tag"] = "noindex, noodp, noarchive"
    if last_modified:
        response["Last-Modified"] = last_modified
    if public:
        patch_cache_control(response, public=True, max_age=CATALOGUE_MAX_AGE)
    else:
        patch_cache_control(response, no_cache=True)
    return response


# What crawlers may not fetch: pages of one person (accounts, their decks and collection,
# jobs), forms that write, and what costs work to make (search results, proxies and their
# previews, exports, Tabletop Simulator files, goldfish, playtest, comparisons, histories).
# RFC 9309 `*` wildcards, which the major crawlers read. A deck's page, its og.png (link
# previews fetch it, and obey this file) and the cards' pages and faces stay open.
ROBOTS_DISALLOW = (
    "/admin/",
    "/accounts/",
    "/api/",
    "/theme/",
    "/search/",
    "/collection/",
    "/jobs/",
    "/proxies/",
    "/decks/mine/",
    "/decks/new/",
    "/decks/compare/",
    "/decks/*/edit/",
    "/decks/*/build/",
    "/decks/*/fork/",
    "/decks/*/delete/",
    "/decks/*/restore/",
    "/decks/*/history/",
    "/decks/*/variants/",
    "/decks/*/goldfish/",
    "/decks/*/playtest/",
    "/decks/*/proxies",
    "/decks/*/export.",
    "/decks/*/tts",
    "/decks/*/missing.txt",
    "/c/",
)


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in ROBOTS_DISALLOW), "Allow: /"]
    lines += ["", f"Sitemap: {absolute(reverse('sitemap'))}", ""]
    response = HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
    patch_cache_control(response, public=True, max_age=ROBOTS_MAX_AGE)
    return response
