from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "cardsite curation"
admin.site.site_title = "cardsite admin"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(("cardsite.api.urls", "api"), namespace="v1")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("decks.urls")),
    path("", include("cardsite.catalogue.urls")),
    *static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT),
]

handler404 = "cardsite.api.errors.json_or_html_404"
handler500 = "cardsite.api.errors.json_or_html_500"
