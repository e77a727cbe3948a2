"""Numbers as deck pages write them."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def signed(value: int) -> str:
    """A change in a count: "+1", "0", or a true minus sign (U+2212) as the diffs use."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"\u2212{-value}"
    return "0"
