"""Every refusal of a well-formed request that the schema fuzz accepts is written into its
operation's description in the served schema, so clients know it too."""

import json
import re

import pytest

from cardsite.api.refusals import HEADING, REFUSALS
from tests.api.fuzz_refusals import REFUSED_FOR_A_FACT


@pytest.fixture(scope="module")
def served(django_db_setup, django_db_blocker):
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get(
            "/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
        )
    return json.loads(response.content)


def _description(served, label):
    method, path = label.split(" ", 1)
    return served["paths"][path][method.lower()].get("description", "")


def _fields(pattern):
    # The fuzz names fields by regular expression: "text|csv", "policy(\.\w+)?".
    return [re.sub(r"\(.*\)\??", "", part) for part in pattern.split("|")]


@pytest.mark.parametrize(
    ("operations", "field"),
    [(sorted(ops), field) for ops, field, _ in REFUSED_FOR_A_FACT if ops is not None],
)
def test_each_refusal_the_fuzz_accepts_is_described_on_its_operation(served, operations, field):
    for label in operations:
        description = _description(served, label)
        assert HEADING in description, label
        assert any(f"`{name}`" in description for name in _fields(field)), (label, field)


def test_every_described_operation_is_one_the_api_serves(served):
    for label in REFUSALS:
        assert HEADING in _description(served, label), label


def test_the_cross_field_rule_of_named_cards_is_in_the_schema(served):
    description = _description(served, "GET /api/v1/cards/named/")
    assert "Exactly one of `fuzzy` and `exact`" in description
