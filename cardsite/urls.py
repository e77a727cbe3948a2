from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from cardsite.catalogue.art_views import ART_FOLDER, card_art

admin.site.site_header = "cardsite curation"
admin.site.site_title = "cardsite admin"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(("cardsite.api.urls", "api"), namespace="v1")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("decks.urls")),
    path("", include("cardsite.catalogue.urls")),
    # Card art only, under DEBUG or not; the rest of media/ is never served as files (job
    # results go through their owner-checked API, faces through their own view).
    path(f"{settings.MEDIA_URL.strip('/')}/{ART_FOLDER}<str:name>", card_art, name="card-art"),
]

handler404 = "cardsite.api.errors.json_or_html_404"
handler500 = "cardsite.api.errors.json_or_html_500"
