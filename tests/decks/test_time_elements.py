"""The <time> elements the deck pages write (exact, and relative: "2 days ago"): the datetime
attribute is to the second, with the zone's offset (the Nu checker refuses Django's six-digit
fractions), its text as before."""

import re
from datetime import UTC, datetime, timedelta
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


def render_relative(moment: datetime) -> str:
    template = Template("{% load time_elements %}{% relative_time moment %}")
    return template.render(Context({"moment": moment}))


def test_a_relative_time_reads_in_one_unit_with_the_moment_in_its_title():
    html = render_relative(timezone.now() - timedelta(days=2, hours=5))
    assert re.fullmatch(
        r'<time datetime="[^"]+\+00:00" title="\d+ \w{3} \d{4} \d\d:\d\d">2\xa0days ago</time>',
        html,
    )


def test_a_moment_less_than_a_minute_ago_is_just_now():
    assert ">just now</time>" in render_relative(timezone.now() - timedelta(seconds=20))
