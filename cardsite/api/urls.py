from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import APIRootView, DefaultRouter

from cardsite.api.auth import TokenView
from cardsite.api.odds import OddsView
from cardsite.catalogue.api.views import CardViewSet, GameViewSet, SetViewSet
from cardsite.collection.api.urls import urlpatterns as collection_urls
from cardsite.contributions.api.urls import urlpatterns as contribution_urls
from cardsite.events.api import EventsView, PublishView, RegistrationsView, StandingsView
from decks.api.building import CollectionConflictsView, DeckBuildView, DeckMissingView
from decks.api.decks import DeckViewSet
from decks.api.goldfish import GoldfishListView
from decks.api.jobs import JobResultView, JobView
from decks.api.playtest import PlaytestView
from decks.api.proxies import DeckProxiesView, ListProxiesView
from decks.api.proxy_pages import DeckProxyPageView
from decks.api.validate import FormatsView, ValidateDeckView


class ApiRoot(APIRootView):
    """Read every game's cards, sets and rules data, and search them in the query language
    of /syntax/. Check any decklist without an account (decks/validate/), and with a token
    (auth/token/) save, change, delete, export and fork your own decks; public decks can be
    read, goldfished and printed as proxies by anyone. The schema is at schema/ and the
    interactive docs at docs/."""

    def get_view_name(self) -> str:
        return "cardsite API"


router = DefaultRouter()
router.APIRootView = ApiRoot
router.register("games", GameViewSet, basename="game")
router.register("sets", SetViewSet, basename="set")
router.register("cards", CardViewSet, basename="card")
router.register("decks", DeckViewSet, basename="deck")

urlpatterns = [
    path("games/<slug:slug>/formats/", FormatsView.as_view(), name="game-formats"),
    path("decks/validate/", ValidateDeckView.as_view(), name="deck-validate"),
    path("decks/<str:id>/proxies.pdf", DeckProxiesView.as_view(), name="deck-proxies"),
    path("decks/<str:id>/proxies.png", DeckProxyPageView.as_view(), name="deck-proxy-page"),
    path("decks/<str:id>/missing/", DeckMissingView.as_view(), name="deck-missing"),
    path("decks/<str:id>/build/", DeckBuildView.as_view(), name="deck-build"),
    path("collection/conflicts/", CollectionConflictsView.as_view(), name="collection-conflicts"),
    path("proxies.pdf", ListProxiesView.as_view(), name="list-proxies"),
    path("goldfish/", GoldfishListView.as_view(), name="goldfish"),
    path("playtest/", PlaytestView.as_view(), name="playtest"),
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("jobs/<str:key>/", JobView.as_view(), name="job-detail"),
    path("jobs/<str:key>/result", JobResultView.as_view(), name="job-result"),
    path("odds/", OddsView.as_view(), name="odds"),
    path("events/", EventsView.as_view(), name="events"),
    path(
        "events/<str:id>/registrations/",
        RegistrationsView.as_view(),
        name="event-registrations",
    ),
    path("events/<str:id>/standings/", StandingsView.as_view(), name="event-standings"),
    path("events/<str:id>/publish/", PublishView.as_view(), name="event-publish"),
    *collection_urls,
    *contribution_urls,
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="v1:schema"), name="docs"),
    *router.urls,
]
