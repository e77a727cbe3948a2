"""How a history page writes a change of quantity: "+1", or a true minus sign and "2"."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def signed(step: int) -> str:
    return f"+{step}" if step > 0 else f"\u2212{-step}"
