from django.urls import path

from cardsite.collection.api.views import (
    CollectionCardView,
    CollectionExportView,
    CollectionImportView,
    CollectionListView,
)

urlpatterns = [
    path("collection/", CollectionListView.as_view(), name="collection"),
    path("collection/cards/<str:card_id>/", CollectionCardView.as_view(), name="collection-card"),
    path("collection/import/", CollectionImportView.as_view(), name="collection-import"),
    path("collection/export/", CollectionExportView.as_view(), name="collection-export"),
]
