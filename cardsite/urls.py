from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from cardsite import seo
from cardsite.api.errors import json_or_html_404
from cardsite.catalogue.art_views import ART_FOLDER, card_art
from cardsite.catalogue.embed_views import card_embed
from cardsite.catalogue.sitemaps import CardSitemap, GameSitemap, SetSitemap
from cardsite.lockout import LockoutAttemptAdmin
from cardsite.media import media_file
from cardsite.theme import set_theme
from decks.public.sitemaps import PublicDeckSitemap
from decks.views import password_reset
from decks.views.embeds import deck_embed, oembed

admin.site.site_header = "cardsite curation"
admin.site.site_title = "cardsite admin"
# Axes registered its own in the admin's autodiscovery, before this module is read.
admin.site.unregister(AccessAttempt)
admin.site.register(AccessAttempt, LockoutAttemptAdmin)

# The sitemap's sections, in the order its index lists them (docs/pages/searching.md).
SITEMAPS = {
    "pages": seo.PageSitemap(["catalogue:home", "decks:public", "catalogue:syntax"]),
    "games": GameSitemap(),
    "sets": SetSitemap(),
    "cards": CardSitemap(),
    "decks": PublicDeckSitemap(),
}

urlpatterns = [
    path("robots.txt", seo.robots_txt, name="robots"),
    path("sitemap.xml", seo.sitemap_index, {"sitemaps": SITEMAPS}, name="sitemap"),
    path(
        "sitemap-<slug:section>.xml",
        seo.sitemap_section,
        {"sitemaps": SITEMAPS},
        name="sitemap-section",
    ),
    path("admin/", admin.site.urls),
    path("api/v1/", include(("cardsite.api.urls", "api"), namespace="v1")),
    # Anything else under /api/ (another version, an unknown endpoint, a path holding a line
    # break) is the API's JSON 404, even with DEBUG on, when Django would answer its HTML
    # debug page instead of handler404. A prefix, not "^api/.*$": "." stops at a line break.
    re_path(r"^api/", json_or_html_404, name="api-not-found"),
    # Before Django's own: a reset mail that cannot be sent is reported, not passed over.
    path("accounts/password_reset/", password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("theme/", set_theme, name="theme"),
    # Embedding in other sites (cardsite/embeds.py): the only pages another site may frame.
    path("oembed/", oembed, name="oembed"),
    path("embed/cards/<str:short_id>/", card_embed, name="card-embed"),
    path("embed/decks/<str:deck_id>/", deck_embed, name="deck-embed"),
    path("", include("cardsite.collection.urls")),
    # Before the catalogue's: its cards/<id>/<slug>/ would take cards/<id>/history/.
    path("", include("cardsite.contributions.urls")),
    path("", include("cardsite.events.urls")),
    path("", include("decks.urls")),
    path("", include("cardsite.catalogue.urls")),
    # Card art only, under DEBUG or not; the rest of media/ is never served as files (job
    # results go through their owner-checked API, faces through their own view).
    path(f"{settings.MEDIA_URL.strip('/')}/{ART_FOLDER}<str:name>", card_art, name="card-art"),
    # With DEBUG only, and never a job's result (see cardsite/media.py).
    path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", media_file, name="media"),
]

handler404 = "cardsite.api.errors.json_or_html_404"
handler500 = "cardsite.api.errors.json_or_html_500"
