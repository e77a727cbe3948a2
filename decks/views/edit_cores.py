"""The builder's +/- keeps the panel core it drew: the next +/- of the same deck and version
finds its before-state here instead of resolving and checking the deck again (issue 28)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from decks.models import Deck
from decks.services.intake import Intake
from decks.views.panel import Choices, Core, panel_core

# The cores a +/- drew last, by (deck, version, grouping): the next +/- of the same deck
# finds its before-state here instead of resolving and checking it again. Per process and
# bounded; an entry is used only if the deck's cards, format, faction and collection counts
# read now are the ones it was drawn from (a collection changes without a new version).
CORES_KEPT = 256
_cores: OrderedDict[tuple[int, int, str], tuple[tuple[Any, ...], Core]] = OrderedDict()
# A served process may answer in threads: the LRU's moves are not atomic.
_lock = threading.Lock()


def _core_inputs(deck: Deck, intake: Intake, owned: Mapping[str, int]) -> tuple[Any, ...]:
    """What a core is drawn from. The cards by what they are, not their order or how they
    were read: a +/-'s deck puts the changed card last, the next read puts it in its place."""
    faction = deck.faction.name if deck.faction else None
    cards = sorted((c.short_id or "", c.zone or "", c.quantity) for c in intake.cards)
    return (deck.game.slug, deck.format, faction, cards, dict(owned))


def edit_core(deck: Deck, choices: Choices, intake: Intake, owned: Mapping[str, int]) -> Core:
    """panel_core for a +/- (no key stats drawn), kept for the next +/- of the same version."""
    key = (deck.pk, deck.version, choices.group)
    inputs = _core_inputs(deck, intake, owned)
    with _lock:
        kept = _cores.get(key)
        if kept is not None and kept[0] == inputs:
            _cores.move_to_end(key)
            return kept[1]
    # A core is not changed once drawn: one kept may be shared by requests.
    core = panel_core(deck, choices, intake, owned, stats=False)
    with _lock:
        _cores[key] = (inputs, core)
        while len(_cores) > CORES_KEPT:
            _cores.popitem(last=False)
    return core
