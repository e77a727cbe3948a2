from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    name = "cardsite.catalogue"
    label = "catalogue"
    verbose_name = "Card catalogue"

    def ready(self) -> None:
        from cardsite.catalogue import signals  # noqa: F401  (connects the receivers)
