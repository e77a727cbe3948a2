from django.urls import path

from cardsite.contributions import history_views

app_name = "contributions"

urlpatterns = [
    path("cards/<str:short_id>/history/", history_views.card_history, name="card-history"),
    path(
        "cards/<str:short_id>/history/<int:change>/revert/",
        history_views.revert,
        name="revert",
    ),
    path("cards/<str:short_id>/confirm/", history_views.confirm, name="confirm"),
]
