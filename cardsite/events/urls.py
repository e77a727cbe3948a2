from django.urls import path

from cardsite.events import views

app_name = "events"

urlpatterns = [
    path("events/", views.event_list, name="list"),
    # Before an event's key: "new" is no event's key.
    path("events/new/", views.event_new, name="new"),
    path("events/<str:key>/", views.event_detail, name="event"),
    path("events/<str:key>/register/", views.event_register, name="register"),
    path("events/<str:key>/organise/", views.event_organise, name="organise"),
    path("events/<str:key>/sheets.pdf", views.event_sheets, name="sheets"),
    path("events/<str:key>/sheets/<str:player>.pdf", views.event_sheet, name="sheet"),
    path("events/<str:key>/check/", views.event_check, name="check"),
    path("events/<str:key>/standings/", views.event_standings, name="standings"),
    path("events/<str:key>/publish/", views.event_publish_view, name="publish"),
]
