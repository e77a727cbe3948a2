from django.apps import AppConfig


class CollectionConfig(AppConfig):
    name = "cardsite.collection"
    label = "collection"
    verbose_name = "Collections"

    def ready(self) -> None:
        from cardsite.catalogue.search.owned import Holdings, register_holdings
        from cardsite.collection.models import CollectionCard
        from cardsite.collection.selectors import collection_owner_ids

        # The catalogue's `own` search terms read collections through this, so the catalogue
        # imports nothing from the app above it.
        register_holdings(
            Holdings(
                owner_ids=lambda viewer: collection_owner_ids(user=viewer),
                rows=lambda: CollectionCard.objects.all(),
            )
        )
