from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    name = "cardsite.catalogue"
    label = "catalogue"
    verbose_name = "Card catalogue"

    def ready(self) -> None:
        from PIL import Image

        from cardsite.catalogue import signals  # noqa: F401  (connects the receivers)
        from cardsite.catalogue.art import MAX_ART_PIXELS

        # Pillow warns above this many pixels and raises at twice it, before allocating: no
        # image this site opens legitimately comes near it, so a bomb fails fast everywhere.
        Image.MAX_IMAGE_PIXELS = MAX_ART_PIXELS
