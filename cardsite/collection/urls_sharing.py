"""The sharing page's routes (the collection page's own are in its urls module)."""

from django.urls import path

from cardsite.collection.views_sharing import collection_sharing

app_name = "collection-sharing"

urlpatterns = [
    path("collection/sharing/", collection_sharing, name="sharing"),
]
