"""Card API records built straight from database rows, for pages of cards.

Instantiating 50 cards and their prefetched relations costs more than fetching them; plain
rows do not. A test holds these records equal to CardSerializer's, field for field.
"""

from collections import defaultdict
from typing import Any

from django.urls import reverse
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.reverse import reverse as api_reverse

from cardsite.catalogue.models import Card, Errata, Ruling

_DATETIME = serializers.DateTimeField()
_CARD_COLUMNS = (
    "id",
    "short_id",
    "slug",
    "name",
    "number",
    "rules_text",
    "flavour_text",
    "artist",
    "community",
    "art",
    "stats",
    "source",
    "notes",
    "inferred",
    "updated_at",
    "game__slug",
    "card_set__code",
    "card_set__name",
    "card_set__is_official",
    "card_type__name",
    "rarity__name",
)


def _grouped(rows: Any) -> dict[int, list[Any]]:
    grouped: dict[int, list[Any]] = defaultdict(list)
    for card_id, *values in rows:
        grouped[card_id].append(values)
    return grouped


def _entries(model: type[Ruling | Errata], ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    rows = (
        model.objects.filter(card_id__in=ids)
        .order_by("position", "id")
        .values_list("card_id", "date", "text", "source")
    )
    return {
        card_id: [
            {"date": d.isoformat() if d else None, "text": t, "source": s} for d, t, s in rows
        ]
        for card_id, rows in _grouped(rows).items()
    }


def card_records_from_rows(ids: list[int], request: Request) -> dict[int, dict[str, Any]]:
    """API records for these card ids, keyed by id."""
    if not ids:
        return {}
    through = Card.subtypes.through, Card.factions.through, Card.keywords.through
    subtypes = _grouped(
        through[0]
        .objects.filter(card_id__in=ids)
        .order_by("subtype__name")
        .values_list("card_id", "subtype__name")
    )
    factions = _grouped(
        through[1]
        .objects.filter(card_id__in=ids)
        .order_by("faction__name")
        .values_list("card_id", "faction__name", "faction__slug", "faction__colour")
    )
    keywords = _grouped(
        through[2]
        .objects.filter(card_id__in=ids)
        .order_by("keyword__name")
        .values_list(
            "card_id", "keyword__name", "keyword__slug", "keyword__kind", "keyword__reminder_text"
        )
    )
    rulings, errata = _entries(Ruling, ids), _entries(Errata, ids)
    api = api_reverse("card-list", request=request)
    site = request.build_absolute_uri("/")
    # Reverse once with placeholders and fill them in, rather than resolving URLs per card.
    page_path = reverse("catalogue:card", args=["SHORTID", "SLUG"]).lstrip("/")
    short_path = reverse("catalogue:short-link", args=["SHORTID"]).lstrip("/")
    media = request.build_absolute_uri(Card._meta.get_field("art").storage.url(""))

    records = {}
    for row in Card.objects.filter(id__in=ids).values_list(*_CARD_COLUMNS):
        values = dict(zip(_CARD_COLUMNS, row, strict=True))
        card_id, short_id = values["id"], values["short_id"]
        records[card_id] = {
            "id": short_id,
            "url": f"{api}{short_id}/",
            "page_url": site
            + page_path.replace("SHORTID", short_id).replace("SLUG", values["slug"]),
            "short_url": site + short_path.replace("SHORTID", short_id),
            "game": values["game__slug"],
            "set": {
                "code": values["card_set__code"],
                "name": values["card_set__name"],
                "official": values["card_set__is_official"],
            },
            "number": values["number"],
            "name": values["name"],
            "slug": values["slug"],
            "type": values["card_type__name"],
            "classifications": [name for (name,) in subtypes.get(card_id, [])],
            "factions": [
                {"name": n, "slug": s, "colour": c} for n, s, c in factions.get(card_id, [])
            ],
            "rarity": values["rarity__name"],
            "keywords": [
                {"name": n, "slug": s, "kind": k, "reminder_text": r}
                for n, s, k, r in keywords.get(card_id, [])
            ],
            "text": values["rules_text"],
            "flavour": values["flavour_text"],
            "artist": values["artist"],
            "art": media + values["art"] if values["art"] else None,
            "stats": values["stats"],
            "sample": not values["card_set__is_official"],
            "community": values["community"],
            "source": values["source"],
            "notes": values["notes"],
            "inferred": values["inferred"] or [],
            "rulings": rulings.get(card_id, []),
            "errata": errata.get(card_id, []),
            "updated_at": _DATETIME.to_representation(values["updated_at"]),
        }
    return records
