from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from cardsite.media import media_file

admin.site.site_header = "cardsite curation"
admin.site.site_title = "cardsite admin"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(("cardsite.api.urls", "api"), namespace="v1")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("decks.urls")),
    path("", include("cardsite.catalogue.urls")),
    # With DEBUG only, and never a job's result (see cardsite/media.py).
    path(f"{settings.MEDIA_URL.strip('/')}/<path:path>", media_file, name="media"),
]

handler404 = "cardsite.api.errors.json_or_html_404"
handler500 = "cardsite.api.errors.json_or_html_500"
