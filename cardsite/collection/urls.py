from django.urls import path

from cardsite.collection import views
from cardsite.collection.views_sharing import collection_sharing

app_name = "collection"

urlpatterns = [
    path("collection/", views.collection_home, name="home"),
    # Before a username's page: "sharing" is nobody's collection here.
    path("collection/sharing/", collection_sharing, name="sharing"),
    # Two segments each, so no username (one segment, below) can shadow them.
    path("collection/export/<str:extension>", views.collection_export_file, name="export"),
    path("collection/cards/<str:short_id>/", views.collection_step, name="step"),
    path("collection/<str:username>/", views.collection_of, name="of"),
]
