"""The sitemap's section of decks (cardsite/seo.py): public decks only, never a private, unlisted
or deleted one. Cached under the public decks' version, which any deck's save or delete bumps,
so a deck made private or unlisted leaves it at once."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet

from cardsite.seo import SiteSitemap
from decks.models import Deck
from decks.selectors import decks_for_sitemap, public_decks_last_changed
from decks.versioning import public_decks_version


class PublicDeckSitemap(SiteSitemap):
    # Not kept by shared caches: see cardsite/seo.py.
    public_cache = False

    def version(self) -> int:
        return public_decks_version()

    def items(self) -> QuerySet[Deck]:
        return decks_for_sitemap()

    def lastmod(self, item: Deck) -> datetime:
        return item.updated_at

    def get_latest_lastmod(self) -> datetime | None:
        return public_decks_last_changed()
