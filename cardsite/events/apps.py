from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "cardsite.events"
    label = "events"
    verbose_name = "Events"
