"""The <time> element the deck pages write: its datetime attribute is to the second, with the
zone's offset (the Nu checker refuses Django's six-digit fractions), its text as before."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.template import Context, Template
from django.utils import timezone

MOMENT = datetime(2026, 11, 26, 16, 0, 13, 359_836, tzinfo=UTC)


def render(moment: datetime) -> str:
    template = Template("{% load time_elements %}{% time_element moment %}")
    return template.render(Context({"moment": moment}))


def test_the_datetime_is_to_the_second_with_the_offset_and_the_text_to_the_minute():
    assert render(MOMENT) == '<time datetime="2026-11-26T16:00:13+00:00">26 Nov 2026 16:00</time>'


def test_in_another_zone_the_time_and_its_offset_are_that_zones():
    with timezone.override(ZoneInfo("Europe/Paris")):
        html = render(MOMENT)
    assert html == '<time datetime="2026-11-26T17:00:13+01:00">26 Nov 2026 17:00</time>'


def test_a_naive_moment_is_taken_in_the_sites_zone_and_still_gets_an_offset():
    html = render(MOMENT.replace(tzinfo=None))
    assert 'datetime="2026-11-26T16:00:13+00:00"' in html
