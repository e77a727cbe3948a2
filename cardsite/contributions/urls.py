from django.urls import path

from cardsite.contributions import history_views, views, views_files, views_review

app_name = "contributions"

urlpatterns = [
    path("proposals/", views.mine, name="mine"),
    path("proposals/new/<slug:game>/", views.propose, name="propose"),
    path("proposals/new/<slug:game>/file/", views_files.propose_file, name="propose-file"),
    path("proposals/<int:pk>/", views_review.detail, name="detail"),
    path("proposals/<int:pk>/photo", views_review.photo, name="photo"),
    path("proposals/<int:pk>/approve/", views_review.approve, name="approve"),
    path("proposals/<int:pk>/reject/", views_review.reject, name="reject"),
    path("review/", views_review.queue, name="queue"),
    path("notifications/", views.notifications, name="notifications"),
    path("cards/<str:short_id>/history/", history_views.card_history, name="card-history"),
    path(
        "cards/<str:short_id>/history/<int:change>/revert/",
        history_views.revert,
        name="revert",
    ),
    path("cards/<str:short_id>/confirm/", history_views.confirm, name="confirm"),
]
