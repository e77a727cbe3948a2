from django.urls import path

from decks import views

app_name = "decks"

urlpatterns = [
    path("decks/<str:deck_id>/", views.deck_detail, name="deck"),
    path("accounts/signup/", views.signup, name="signup"),
]
