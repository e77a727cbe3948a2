"""JSON bodies read within bounds: nesting depth, and text that every database can store."""

from __future__ import annotations

import re
from typing import Any

from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

# No body this API takes nests deeper than a few levels (a deck's cards, a policy).
MAX_JSON_DEPTH = 20
# NUL cannot be stored by PostgreSQL; an unpaired surrogate cannot be encoded as UTF-8 at all.
BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.") from None
        check_json(data)
        return data


def check_json(data: Any) -> None:
    """ParseError for a body nested deeper than MAX_JSON_DEPTH; ValidationError naming the
    field (as a dotted path) whose text holds a NUL or an unpaired surrogate. Walked without
    recursion."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_JSON_DEPTH:
                raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                here = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and BAD_TEXT.search(key):
                    raise ValidationError({path or "body": [bad_text_message()]})
                stack.append((item, depth + 1, here))
        elif isinstance(value, str) and BAD_TEXT.search(value):
            raise ValidationError({path or "body": [bad_text_message()]})


def bad_text_message() -> str:
    return "Text may not hold a NUL character or an unpaired surrogate (\\u0000, \\ud800-\\udfff)."
