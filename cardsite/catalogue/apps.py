from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    name = "cardsite.catalogue"
    label = "catalogue"
    verbose_name = "Card catalogue"
