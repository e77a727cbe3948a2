from django.urls import path

from cardsite.collection.api.sharing import (
    PoolAcceptView,
    PoolDeclineAllView,
    PoolDeclineView,
    PoolInviteView,
    PoolLeaveView,
    PoolView,
    ShareDetailView,
    SharesView,
)
from cardsite.collection.api.views import (
    CollectionCardView,
    CollectionExportView,
    CollectionImportCsvView,
    CollectionImportView,
    CollectionListView,
)

urlpatterns = [
    path("collection/", CollectionListView.as_view(), name="collection"),
    path("collection/cards/<str:card_id>/", CollectionCardView.as_view(), name="collection-card"),
    path("collection/import/", CollectionImportView.as_view(), name="collection-import"),
    path("collection/import/csv/", CollectionImportCsvView.as_view(), name="collection-import-csv"),
    path("collection/export/", CollectionExportView.as_view(), name="collection-export"),
    # Who may read a collection, and the pool that counts several as one.
    path("collection/shares/", SharesView.as_view(), name="collection-shares"),
    path(
        "collection/shares/<str:username>/",
        ShareDetailView.as_view(),
        name="collection-share-detail",
    ),
    path("collection/pool/", PoolView.as_view(), name="collection-pool"),
    path("collection/pool/invite/", PoolInviteView.as_view(), name="collection-pool-invite"),
    path("collection/pool/accept/", PoolAcceptView.as_view(), name="collection-pool-accept"),
    path("collection/pool/decline/", PoolDeclineView.as_view(), name="collection-pool-decline"),
    path(
        "collection/pool/decline-all/",
        PoolDeclineAllView.as_view(),
        name="collection-pool-decline-all",
    ),
    path("collection/pool/leave/", PoolLeaveView.as_view(), name="collection-pool-leave"),
]
