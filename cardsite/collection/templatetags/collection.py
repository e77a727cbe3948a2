"""The viewer's + and - buttons, put into HTML that is cached for everyone.

Card pages and search results are rendered once and shared, so they carry a marker,
`<!--own:SHORTID-->`, where a signed-in viewer's buttons go; these tags put them there with one
query for the whole page. For anyone else the marker stays an HTML comment.
"""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from cardsite.collection.models import CollectionCard

register = template.Library()
MARKER = re.compile(r"<!--own:([A-Za-z0-9_-]{1,12})-->")


@register.simple_tag(takes_context=True)
def owned_buttons(context: dict[str, Any], html: str, compact: bool = True) -> SafeString:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return mark_safe(html)  # our own templates' output, escaped when rendered
    ids = set(MARKER.findall(html))
    if not ids:
        return mark_safe(html)
    held = dict(
        CollectionCard.objects.filter(owner=user, card__short_id__in=ids).values_list(
            "card__short_id", "quantity"
        )
    )
    name = "collection/_owned_compact.html" if compact else "collection/_owned.html"
    here = request.get_full_path() if request is not None else "/"

    def buttons(match: re.Match[str]) -> str:
        short_id = match[1]
        return render_to_string(
            name,
            {"card": {"short_id": short_id}, "quantity": held.get(short_id, 0), "next": here},
            request=request,
        )

    return mark_safe(MARKER.sub(buttons, html))
