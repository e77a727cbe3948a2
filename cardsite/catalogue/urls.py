from django.urls import path

from cardsite.catalogue import face_views, views

app_name = "catalogue"

urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.search, name="search"),
    path("syntax/", views.syntax, name="syntax"),
    path("games/<slug:slug>/", views.game_detail, name="game"),
    path("games/<slug:slug>/back.png", face_views.game_back, name="game-back"),
    path("games/<slug:slug>/cards.json", views.bulk_data, {"fmt": "json"}, name="bulk-json"),
    path("games/<slug:slug>/cards.csv", views.bulk_data, {"fmt": "csv"}, name="bulk-csv"),
    path("games/<slug:slug>/rulebook.txt", views.game_rulebook, name="rulebook"),
    path("games/<slug:game>/sets/<str:code>/", views.set_detail, name="set"),
    path("cards/<str:short_id>/qr.svg", views.card_qr, name="card-qr"),
    path("cards/<str:short_id>/face.png", face_views.card_face, name="card-face"),
    path("cards/<str:short_id>/", views.card_detail, name="card-bare"),
    path("cards/<str:short_id>/<slug:slug>/", views.card_detail, name="card"),
    path("c/<str:short_id>", views.short_link, name="short-link"),
]
