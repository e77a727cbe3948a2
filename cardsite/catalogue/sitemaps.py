"""The catalogue's sections of the sitemap (cardsite/seo.py): every game, set and card page, at
their one canonical URL. All of them change only with the catalogue, so they are cached under
its version."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet
from django.urls import reverse

from cardsite.catalogue import selectors
from cardsite.catalogue.models import Card, CardSet, Game
from cardsite.catalogue.versioning import catalogue_version
from cardsite.seo import SiteSitemap

# Stand-ins for a card's short id and slug, which neither can be (short ids are 8 characters).
SHORT_ID, SLUG = "0short-id0", "0slug0"


class _Catalogue(SiteSitemap):
    def version(self) -> int:
        return catalogue_version()


class GameSitemap(_Catalogue):
    def items(self) -> QuerySet[Game]:
        return selectors.sitemap_games()


class SetSitemap(_Catalogue):
    def items(self) -> QuerySet[CardSet]:
        return selectors.sitemap_sets()

    def location(self, item: CardSet) -> str:
        return reverse("catalogue:set", args=[item.game.slug, item.code])


class CardSitemap(_Catalogue):
    # A card's URL with stand-ins, reversed once a page (items() is read first), not once a
    # card: reverse() took a third of a cold page's time. Every request sets the same value.
    pattern = ""

    def items(self) -> QuerySet[Card, tuple[str, str, datetime]]:
        self.pattern = reverse("catalogue:card", args=[SHORT_ID, SLUG])
        return selectors.sitemap_cards()

    def location(self, item: tuple[str, str, datetime]) -> str:
        short_id, slug, _ = item
        return self.pattern.replace(SHORT_ID, short_id, 1).replace(SLUG, slug, 1)

    def lastmod(self, item: tuple[str, str, datetime]) -> datetime:
        return item[2]

    def get_latest_lastmod(self) -> datetime | None:
        return selectors.cards_last_changed()
