"""Natural keys that name rows of other models.

Django's serializers dump and load the models a natural key names before the model itself,
when the key says which ones (its `dependencies`): a backup then loads into another database
in an order that works (decks/backups). Written as a decorator so the models stay typed:
django-stubs does not know that attribute on a method."""

from collections.abc import Callable
from typing import Any, TypeVar

NaturalKey = TypeVar("NaturalKey", bound=Callable[..., Any])


def depends_on(*labels: str) -> Callable[[NaturalKey], NaturalKey]:
    """Mark a model's natural_key as naming rows of the models `labels` ("app_label.model")."""

    def mark(natural_key: NaturalKey) -> NaturalKey:
        natural_key.dependencies = list(labels)  # type: ignore[attr-defined]
        return natural_key

    return mark
