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
    def items(self) -> QuerySet[Card]:
        return selectors.sitemap_cards()

    def lastmod(self, item: Card) -> datetime:
        return item.updated_at

    def get_latest_lastmod(self) -> datetime | None:
        return selectors.cards_last_changed()
