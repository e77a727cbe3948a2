import io

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from cardsite.catalogue.documents import read_document, write_csv
from cardsite.catalogue.models import Card, CardChange
from cardsite.catalogue.selectors import card_queryset, card_record
from cardsite.catalogue.services.write import catalogue_import
from cardsite.catalogue.short_ids import short_id_candidates
from cardsite.contributions.limits import MAX_BULK_BYTES
from cardsite.contributions.models import Proposal
from cardsite.contributions.services import files
from cardsite.contributions.services.files import file_propose
from cardsite.contributions.services.proposals import (
    SourceInput,
    proposal_approve,
    proposal_create,
)
from engines.errors import InputError

from .conftest import _user

SOURCE = SourceInput(kind="rulebook", text="Card list, page 30")


def _records(game):
    """The game's official card, and five more like it."""
    numbers = [str(800 + i) for i in range(5)]
    cards = card_queryset().filter(game=game, card_set__code="CFC-RB").exclude(number__in=numbers)
    [first] = [card_record(c) for c in cards]
    extra = [{**first, "number": n, "name": f"Extra {n}", "short_id": ""} for n in numbers]
    return [first, *extra]


@pytest.fixture(autouse=True)
def _extras_exist(game, curator):
    """The file's cards in the catalogue already, imported from their own CSV lines, so a
    file of them is unchanged."""
    raw = _file(game, _records(game)).read()
    catalogue_import(game_slug=game.slug, document=read_document(raw, "csv", game.engine.stats))


def _file(game, records, name="cards.csv") -> SimpleUploadedFile:
    text = write_csv(records, [s.key for s in game.engine.stats])
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def _with_changes(game):
    """The rulebook set's cards as a file, one renamed and two new ones added."""
    records = _records(game)
    records[0] = {**records[0], "name": records[0]["name"] + " Prime"}
    for number in ("900", "901"):
        records.append({**records[1], "number": number, "name": f"Card {number}", "short_id": ""})
    return records


@pytest.fixture
def second_curator(game):
    from cardsite.contributions.models import Curator

    user = _user("second")
    Curator.objects.create(user=user, game=game)
    return user


def test_only_a_curator_of_the_game_may_propose_a_card_file(game, player, foreign_curator):
    for user in (player, foreign_curator):
        with pytest.raises(PermissionDenied):
            file_propose(curator=user, game=game, upload=_file(game, _records(game)), source=SOURCE)
    assert not Proposal.objects.exists()


def test_a_file_with_problems_is_refused_naming_every_line_and_field(game, curator):
    records = _records(game)
    records[0] = {**records[0], "type": "no-such-type"}
    records[2] = {**records[2], "set": "NOPE"}
    with pytest.raises(InputError) as caught:
        file_propose(curator=curator, game=game, upload=_file(game, records), source=SOURCE)
    assert caught.value.field == "file"
    assert "line 2, type" in str(caught.value)
    assert "line 4, set" in str(caught.value)


def test_a_file_may_not_write_to_a_sample_set(game, curator):
    records = _records(game)
    records[1] = {**records[1], "set": "CFC-SMP", "number": "999"}
    with pytest.raises(InputError, match="line 3"):
        file_propose(curator=curator, game=game, upload=_file(game, records), source=SOURCE)
    assert not Proposal.objects.exists()


def test_a_file_with_many_problems_lists_twenty_and_counts_the_rest(game, curator):
    records = [{**r, "type": "no-such-type"} for r in _records(game)] * 5
    with pytest.raises(InputError) as caught:
        file_propose(curator=curator, game=game, upload=_file(game, records), source=SOURCE)
    assert len(caught.value.message.split("; line ")) == files.SHOWN_PROBLEMS
    assert "more problems" in str(caught.value)


def test_a_file_over_the_limit_is_refused_naming_it(game, curator):
    big = SimpleUploadedFile("cards.csv", b"x" * (MAX_BULK_BYTES + 1), content_type="text/csv")
    with pytest.raises(InputError, match="MAX_BULK_BYTES"):
        file_propose(curator=curator, game=game, upload=big, source=SOURCE)
    assert not Proposal.objects.exists()


def test_a_card_file_without_a_source_is_refused(game, curator):
    with pytest.raises(InputError) as caught:
        file_propose(
            curator=curator, game=game, upload=_file(game, _records(game)), source=SourceInput("")
        )
    assert caught.value.field == "source"


def test_a_proposed_file_counts_new_changed_and_unchanged_cards_with_a_sample(game, curator):
    records = _with_changes(game)
    proposal = file_propose(curator=curator, game=game, upload=_file(game, records), source=SOURCE)
    summary = proposal.summary
    assert (summary["new"], summary["changed"]) == (2, 1)
    assert summary["unchanged"] == len(records) - 3
    assert [c["name"] for c in summary["sample_new"]] == ["Card 900", "Card 901"]
    [changed] = summary["sample_changed"]
    assert changed["diff"] == [
        {"field": "name", "from": records[0]["name"][: -len(" Prime")], "to": records[0]["name"]}
    ]
    assert proposal.kind == "bulk" and proposal.bulk_file.name.startswith("proposals/files/")


def test_approving_a_file_writes_every_card_and_its_history(game, curator, second_curator):
    records = _with_changes(game)
    proposal = file_propose(curator=curator, game=game, upload=_file(game, records), source=SOURCE)
    proposal_approve(proposal=proposal, reviewer=second_curator)
    proposal.refresh_from_db()
    assert proposal.status == "approved"
    new = Card.objects.get(game=game, name="Card 900")
    assert new.community == "sourced"
    added = CardChange.objects.get(card=new, field="card")
    assert (added.author, added.reviewer) == (curator, second_curator)
    assert added.source["proposal"] == proposal.pk
    renamed = CardChange.objects.get(field="name", proposal=proposal.pk)
    assert renamed.after == records[0]["name"]
    assert CardChange.objects.filter(proposal=proposal.pk).count() == 3


def test_the_proposer_of_a_file_cannot_approve_it(game, curator):
    proposal = file_propose(
        curator=curator, game=game, upload=_file(game, _with_changes(game)), source=SOURCE
    )
    with pytest.raises(PermissionDenied):
        proposal_approve(proposal=proposal, reviewer=curator)


def test_a_file_is_not_approved_with_edits(game, curator, second_curator):
    proposal = file_propose(
        curator=curator, game=game, upload=_file(game, _with_changes(game)), source=SOURCE
    )
    with pytest.raises(InputError):
        proposal_approve(proposal=proposal, reviewer=second_curator, edits={"name": "x"})
    assert not Card.objects.filter(name="Card 900").exists()


def test_a_file_that_became_invalid_is_refused_at_approval_writing_nothing(
    game, curator, second_curator, player
):
    records = _with_changes(game)
    # The file gives its new card 900 the short id a single new card 950 will be given; that
    # card is approved first, so at approval the file's id belongs to another card.
    wanted = next(short_id_candidates(game.slug, "CFC-RB", "950"))
    records[-2] = {**records[-2], "short_id": wanted}
    proposal = file_propose(curator=curator, game=game, upload=_file(game, records), source=SOURCE)
    single = proposal_create(
        proposer=player,
        game=game,
        kind="card",
        changes={"set": "CFC-RB", "number": "950", "name": "Taken", "type": records[1]["type"]},
        source=SOURCE,
    )
    proposal_approve(proposal=single, reviewer=second_curator)
    assert Card.objects.get(name="Taken").short_id == wanted
    before = (Card.objects.count(), CardChange.objects.count())
    with pytest.raises(InputError, match=wanted):
        proposal_approve(proposal=proposal, reviewer=second_curator)
    assert (Card.objects.count(), CardChange.objects.count()) == before
    assert not Card.objects.filter(name__in=["Card 900", "Card 901"]).exists()
    proposal.refresh_from_db()
    assert proposal.status == "open"


def test_the_importer_and_a_file_proposal_refuse_a_bad_file_with_the_same_messages(
    game, curator, tmp_path
):
    records = _records(game)
    records[0] = {**records[0], "type": "no-such-type"}
    upload = _file(game, records)
    path = tmp_path / "cards.csv"
    path.write_bytes(upload.read())
    upload.seek(0)
    with pytest.raises(InputError) as proposed:
        file_propose(curator=curator, game=game, upload=upload, source=SOURCE)
    err = io.StringIO()
    with pytest.raises(CommandError) as imported:
        call_command("import_cards", str(path), "--game", game.slug, stderr=err)
    imported_problems = [
        line.split(": ", 1)[1] for line in err.getvalue().splitlines() if line.strip()
    ]
    assert imported_problems
    assert proposed.value.message == "; ".join(imported_problems)
    assert "Nothing was imported" in str(imported.value)


def test_the_file_page_is_for_curators_only(client, game, player):
    client.force_login(player)
    response = client.get(reverse("contributions:propose-file", args=[game.slug]))
    assert response.status_code == 403


def test_a_curator_proposes_a_file_from_its_page_and_its_diff_is_shown(
    client, game, curator, second_curator
):
    client.force_login(curator)
    url = reverse("contributions:propose-file", args=[game.slug])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "file": _file(game, _with_changes(game)),
            "source_kind": "rulebook",
            "source_text": "Card list, page 30",
        },
    )
    proposal = Proposal.objects.get(kind="bulk")
    assert response.status_code == 302
    client.force_login(second_curator)
    page = client.get(reverse("contributions:detail", args=[proposal.pk])).content.decode()
    assert "2 new, 1 changed" in page
    assert "Card 900" in page


def test_a_bad_file_on_the_page_is_refused_naming_its_line(client, game, curator):
    client.force_login(curator)
    records = _records(game)
    records[0] = {**records[0], "type": "no-such-type"}
    response = client.post(
        reverse("contributions:propose-file", args=[game.slug]),
        {"file": _file(game, records), "source_kind": "rulebook", "source_text": "p. 30"},
    )
    assert response.status_code == 400
    assert "line 2, type" in response.content.decode()
    assert not Proposal.objects.exists()


def test_the_stored_file_is_never_served(client, game, curator, second_curator, player):
    proposal = file_propose(
        curator=curator, game=game, upload=_file(game, _with_changes(game)), source=SOURCE
    )
    name = proposal.bulk_file.name
    for user in (player, second_curator, curator):
        client.force_login(user)
        assert client.get(settings.MEDIA_URL + name).status_code == 404
        page = client.get(reverse("contributions:detail", args=[proposal.pk]))
        assert name.rsplit("/", 1)[-1] not in page.content.decode()


def test_a_files_diff_names_a_changed_stat(game, curator):
    records = _records(game)
    stat = game.engine.stats[0]
    records[1] = {**records[1], "stats": {**records[1]["stats"], stat.key: 2}}
    proposal = file_propose(curator=curator, game=game, upload=_file(game, records), source=SOURCE)
    [changed] = proposal.summary["sample_changed"]
    assert [(d["field"], str(d["to"])) for d in changed["diff"]] == [(stat.key, "2")]
