"""The site's card filter language (`t:planet`, `planet_type:federation -!Earth`): its parser
(syntax.py), bounds (limits.py, bounds.py), text folding (text.py) and an in-memory evaluator
(evaluate.py, over records.py's card records), so search, deck rules and simulations share one
language.

Nothing here imports engines.base, so the rules may import the evaluator at module level.
"""

from engines.filters.declared import DeclaredFilter
from engines.filters.evaluate import (
    CardFilter,
    DroppedTerm,
    FilterError,
    compile_filter,
    compile_query,
    matches,
    select,
)
from engines.filters.records import (
    CardRecord,
    FilterCard,
    Named,
    RarityInfo,
    Schema,
    SetInfo,
    StatSpec,
)
from engines.filters.syntax import QuerySyntaxError

__all__ = [
    "CardFilter",
    "CardRecord",
    "DeclaredFilter",
    "DroppedTerm",
    "FilterCard",
    "FilterError",
    "Named",
    "QuerySyntaxError",
    "RarityInfo",
    "Schema",
    "SetInfo",
    "StatSpec",
    "compile_filter",
    "compile_query",
    "matches",
    "select",
]
