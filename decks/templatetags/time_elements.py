"""`{% time_element moment %}`: a <time> whose datetime attribute the HTML standard accepts;
`{% relative_time moment %}`: the same, reading "3 hours ago", the moment itself in its title.

Django's `date:'c'` writes microseconds (2026-11-26T16:00:13.359836+00:00), and a valid
datetime string allows at most three digits of a second's fraction; nobody needs less than a
second here, so the attribute is to the second, with the zone's offset."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timesince import timesince

register = template.Library()

# What a reader sees: the day and the minute, as the pages wrote it before.
SHOWN = "j M Y H:i"


def _local(moment: datetime) -> datetime:
    # A naive moment is in the site's zone (USE_TZ keeps the database's aware anyway).
    aware = moment if timezone.is_aware(moment) else timezone.make_aware(moment)
    return timezone.localtime(aware)


@register.simple_tag
def time_element(moment: datetime) -> SafeString:
    local = _local(moment)
    machine = local.replace(microsecond=0).isoformat()
    return format_html('<time datetime="{}">{}</time>', machine, date_format(local, SHOWN))


@register.simple_tag
def relative_time(moment: datetime) -> SafeString:
    # One unit is enough to tell decks apart at a glance ("2 days ago"); the title and the
    # datetime attribute carry the exact moment.
    local = _local(moment)
    machine = local.replace(microsecond=0).isoformat()
    since = timesince(local, depth=1)
    shown = "just now" if since.startswith("0\xa0") else f"{since} ago"
    return format_html(
        '<time datetime="{}" title="{}">{}</time>', machine, date_format(local, SHOWN), shown
    )
