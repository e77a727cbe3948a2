"""The propose form, built from the game's card schema: the importer's field names and
labels (field_labels), the engine's stat specs, and the game's own types, factions, keywords,
rarities and sets as choices or suggestions. Pages post each field as `c-<name>`, so no card
field can collide with the form's own (`source`, `note`, `photo`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardsite.catalogue.models import Card, Game
from cardsite.catalogue.services.edits import FIELDS, MAX_ENTRY, MAX_TEXT, card_values
from cardsite.contributions.models import Proposal
from engines.base import StatKind

PREFIX = "c-"
LIST_SEPARATOR = "; "
# The kinds a page offers (a card file has its own page) and what each form asks.
KINDS = [k for k in Proposal.Kind if k != Proposal.Kind.BULK]
_ABOUT_A_CARD = {"edit", "ruling", "erratum", "image"}
_LISTS = {"subtypes", "factions", "keywords"}
_LONG = {"text", "flavour"}
_SHORT_LIMITS = {"name": 120, "artist": 120, "number": 16, "set": 20}


@dataclass
class FormField:
    name: str
    label: str
    widget: str  # text, textarea, number, select
    value: str = ""
    required: bool = False
    choices: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    minimum: int | None = None
    maximum: int | None = None
    maxlength: int | None = None
    help: str = ""

    @property
    def input_name(self) -> str:
        return PREFIX + self.name


def shown(value: Any) -> str:
    """A card value as a form shows it: lists joined by '; ', nothing as ''."""
    if value is None:
        return ""
    if isinstance(value, Mapping):
        # A ruling or erratum: its text, then when and where it was published.
        extra = " · ".join(str(value[k]) for k in ("date", "source") if value.get(k))
        return f"{value.get('text', '')}" + (f" ({extra})" if extra else "")
    if isinstance(value, list):
        return LIST_SEPARATOR.join(shown(v) for v in value)
    return str(value)


def about_a_card(kind: str) -> bool:
    return kind in _ABOUT_A_CARD


def _card_fields(game: Game, kind: str) -> list[FormField]:
    names = {
        "type": list(game.card_types.order_by("name").values_list("name", flat=True)),
        "subtypes": list(game.subtypes.order_by("name").values_list("name", flat=True)),
        "factions": list(game.factions.order_by("name").values_list("name", flat=True)),
        "keywords": list(game.keywords.order_by("name").values_list("name", flat=True)),
        "rarity": list(game.rarities.order_by("order").values_list("name", flat=True)),
    }
    sets = list(game.sets.order_by("name").values_list("code", flat=True))
    out: list[FormField] = []
    for name, label in FIELDS.items():
        if name == "set":
            out.append(FormField(name, label, "select", choices=sets, required=kind == "card"))
        elif name in _LONG:
            out.append(FormField(name, label, "textarea", maxlength=MAX_TEXT))
        else:
            help_ = "names separated by ';'" if name in _LISTS else ""
            out.append(
                FormField(
                    name,
                    label,
                    "text",
                    suggestions=names.get(name, []),
                    required=kind == "card" and name in ("name", "number"),
                    maxlength=_SHORT_LIMITS.get(name),
                    help=help_,
                )
            )
    for stat in game.engine.stats:
        if stat.kind is StatKind.CHOICE:
            out.append(FormField(stat.key, stat.label, "select", choices=list(stat.choices)))
        else:
            out.append(
                FormField(
                    stat.key,
                    stat.label,
                    "number",
                    minimum=stat.minimum,
                    maximum=stat.maximum,
                    help=stat.help,
                )
            )
    return out


def _entry_fields() -> list[FormField]:
    return [
        FormField("text", "Text", "textarea", required=True, maxlength=MAX_ENTRY),
        FormField("date", "Date", "date"),
        FormField("source", "Published in", "text", maxlength=MAX_ENTRY),
    ]


def _set_fields() -> list[FormField]:
    return [
        FormField("code", "Code", "text", required=True, maxlength=20),
        FormField("name", "Name", "text", required=True, maxlength=120),
        FormField("release_date", "Release date", "date"),
        FormField("description", "Description", "textarea", maxlength=MAX_TEXT),
    ]


def propose_fields(
    *, game: Game, kind: str, card: Card | None, initial: Mapping[str, str] | None = None
) -> list[FormField]:
    """The fields of one kind of proposal, prefilled with the card's values for an edit."""
    if kind == "image":
        return []
    if kind in ("ruling", "erratum"):
        fields = _entry_fields()
    elif kind == "set":
        fields = _set_fields()
    else:
        fields = _card_fields(game, kind)
        if kind == "edit" and card is not None:
            values = card_values(card)
            for f in fields:
                f.value = shown(values.get(f.name))
    for f in fields:
        if initial and f.name in initial:
            f.value = initial[f.name]
    return fields


def posted_changes(
    *, kind: str, fields: list[FormField], data: Mapping[str, Any]
) -> dict[str, Any]:
    """What a propose form's post changes: for an edit, only the fields whose value differs
    from the card's; for a new card or set, every field given; a ruling or erratum is one
    entry under its field."""
    posted = {f.name: str(data.get(f.input_name, "")).replace("\r\n", "\n") for f in fields}
    if kind in ("ruling", "erratum"):
        entry = {k: v.strip() for k, v in posted.items() if v.strip()}
        return {"rulings" if kind == "ruling" else "errata": entry}
    if kind == "edit":
        # A field the post leaves out is left as it is, not emptied.
        return {
            f.name: posted[f.name]
            for f in fields
            if f.input_name in data and posted[f.name].strip() != f.value.strip()
        }
    return {name: value for name, value in posted.items() if value.strip()}
