from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from cardsite.catalogue.signals import catalogue_changed
        from decks.models import FormatSetting

        # A format setting changes which decks are legal, as a catalogue change does: the
        # cached deck records that show legality must go with it.
        post_save.connect(catalogue_changed, sender=FormatSetting, dispatch_uid="bump-save-fs")
        post_delete.connect(catalogue_changed, sender=FormatSetting, dispatch_uid="bump-del-fs")
