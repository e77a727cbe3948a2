"""The sitemap's section of decks (cardsite/seo.py): public decks only, never a private, unlisted
or deleted one. Cached under the public decks' version, which any deck's save or delete bumps,
so a deck made private or unlisted leaves it at once."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet
from django.urls import reverse

from cardsite.seo import SiteSitemap
from decks.models import Deck
from decks.public.versioning import public_decks_version
from decks.reading.selectors import decks_for_sitemap, public_decks_last_changed

# No share key has a dot (they are URL-safe base64).
SHARE_KEY = "0.share.key.0"


class PublicDeckSitemap(SiteSitemap):
    # Not kept by shared caches: see cardsite/seo.py.
    public_cache = False

    def version(self) -> int:
        return public_decks_version()

    # A deck's URL with a stand-in, reversed once a page, as for cards (catalogue/sitemaps.py).
    pattern = ""

    def items(self) -> QuerySet[Deck, tuple[str, datetime]]:
        self.pattern = reverse("decks:deck", args=[SHARE_KEY])
        return decks_for_sitemap()

    def location(self, item: tuple[str, datetime]) -> str:
        return self.pattern.replace(SHARE_KEY, item[0], 1)

    def lastmod(self, item: tuple[str, datetime]) -> datetime:
        return item[1]

    def get_latest_lastmod(self) -> datetime | None:
        return public_decks_last_changed()
