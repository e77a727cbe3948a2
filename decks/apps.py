from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save, pre_save

        from cardsite.cardlists.snapshot import read_format_settings_with
        from cardsite.catalogue import card_parts
        from cardsite.catalogue.signals import catalogue_changed
        from cardsite.collection import page_parts
        from decks.models import Deck, FormatSetting
        from decks.public.card_decks import CARD_DECKS
        from decks.public.versioning import decks_changed
        from decks.reading.owning import built_conflicts
        from decks.signals import fold_name

        # A format setting changes which decks are legal, as a catalogue change does: the
        # cached deck records that show legality must go with it.
        post_save.connect(catalogue_changed, sender=FormatSetting, dispatch_uid="bump-save-fs")
        post_delete.connect(catalogue_changed, sender=FormatSetting, dispatch_uid="bump-del-fs")

        pre_save.connect(fold_name, sender=Deck, dispatch_uid="deck-fold-name")
        # Deck rows only: a receiver on DeckEntry would make every rewrite of a deck's entries
        # load and signal them one by one. The write services bump the version themselves
        # where they update without saving (decks/services/write.py).
        post_save.connect(decks_changed, sender=Deck, dispatch_uid="decks-changed-save")
        post_delete.connect(decks_changed, sender=Deck, dispatch_uid="decks-changed-del")

        # The apps below this one show what is the decks' without importing this app: a
        # card's page lists the public decks using it, read in the page's one round trip;
        # a game's snapshot carries its formats' settings (rows of this app), read and cached
        # with its cards; your collection page lists the cards your built decks (your pool's)
        # compete for.
        card_parts.register(CARD_DECKS)
        read_format_settings_with(
            lambda game_id: FormatSetting.objects.filter(game_id=game_id).values_list(
                "format", "key", "value"
            )
        )
        page_parts.register("conflicts", lambda owner: built_conflicts(user=owner))
