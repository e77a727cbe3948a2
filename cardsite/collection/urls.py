from django.urls import path

from cardsite.collection import views

app_name = "collection"

urlpatterns = [
    path("collection/", views.collection_home, name="home"),
    # Two segments each, so no username (one segment, below) can shadow them.
    path("collection/export/<str:extension>", views.collection_export_file, name="export"),
    path("collection/cards/<str:short_id>/", views.collection_step, name="step"),
    path("collection/<str:username>/", views.collection_of, name="of"),
]
