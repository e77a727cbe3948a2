from django.apps import AppConfig


class CollectionConfig(AppConfig):
    name = "cardsite.collection"
    label = "collection"
    verbose_name = "Collections"
