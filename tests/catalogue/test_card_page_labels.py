"""A card page says each thing once (issue 28, "Labels that read carelessly")."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from cardsite.catalogue.models import Card, Game

pytestmark = pytest.mark.django_db


def test_a_ruling_an_erratum_already_records_is_not_shown_twice(client):
    # The rulebook gives one correction as a numbered ruling; the data keeps it as a ruling
    # and as an erratum of the same passage, and the page showed both.
    card = next(
        c
        for c in Card.objects.filter(errata__isnull=False).distinct()
        if {e.source for e in c.errata.all()} & {r.source for r in c.rulings.all()}
        and c.rulings.count() > 1
    )
    twice = {e.source for e in card.errata.all()}
    page = client.get(card.get_absolute_url()).content.decode()
    for erratum in card.errata.all():
        assert page.count(escape(erratum.text)) == 1
    for ruling in card.rulings.all():
        if ruling.source in twice:
            assert escape(ruling.text) not in page
        else:
            assert escape(ruling.text) in page


def test_a_syntax_example_of_bare_words_says_it_finds_names_containing_them(client):
    # A bare word matches anywhere in a name, so across every game "war" also finds a card
    # whose name merely holds those letters: the example says so, not only what it finds here.
    game = Game.objects.get(slug="fate-foretold")
    example = next(e for e in game.engine.examples if '"horse"' in e.query)
    page = client.get(reverse("catalogue:syntax")).content.decode()
    assert escape(example.query) in page
    assert example.meaning.startswith("names containing")
    assert escape(example.meaning) in page
