from django.urls import path

from cardsite.catalogue import views

app_name = "catalogue"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/<slug:slug>/", views.game_detail, name="game"),
    path("cards/<str:short_id>/", views.card_detail, name="card-bare"),
    path("cards/<str:short_id>/<slug:slug>/", views.card_detail, name="card"),
    path("c/<str:short_id>", views.short_link, name="short-link"),
]
