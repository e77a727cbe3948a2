"""The API's OpenAPI schema, as /api/v1/schema/ serves it, once a session for the tests that
hand it to other tools (tests/api/test_schema_fuzz.py holds the generated and served equal),
and a client generated from it."""

import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

# The proposals' people and cards, for the API's proposal tests as for the pages'.
from tests.contributions.conftest import (  # noqa: F401
    card,
    curator,
    game,
    other,
    player,
    proposal,
)

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def served_schema() -> dict[str, Any]:
    """The schema generated as /api/v1/schema/ serves it, once a session: the fuzz needs it
    while its module is imported (before any fixture), the other tools' tests as a fixture."""
    rendered = OpenApiJsonRenderer().render(
        SchemaGenerator(api_version="v1").get_schema(public=True)
    )
    document: dict[str, Any] = json.loads(rendered)
    return document


@pytest.fixture(scope="session")
def schema_document():
    return served_schema()


@pytest.fixture(scope="session")
def schema_file(schema_document, tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "openapi.json"
    path.write_text(json.dumps(schema_document, indent=1))
    return path


@pytest.fixture(scope="session")
def generated_client(schema_file, tmp_path_factory):
    """A Python client generated from the schema by openapi-python-client, as docs/pages/api.md
    tells a user to (with the repository's openapi-python-client.yaml), importable as
    `cardsite_api_client` for the rest of the session."""
    folder = tmp_path_factory.mktemp("client")
    binaries = Path(sys.executable).parent
    done = subprocess.run(
        [
            str(binaries / "openapi-python-client"),
            "generate",
            "--path",
            str(schema_file),
            "--config",
            str(ROOT / "openapi-python-client.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(folder / "cardsite_api_client"),
        ],
        # Its post-hooks run ruff, from this environment.
        env={**os.environ, "PATH": f"{binaries}{os.pathsep}{os.environ['PATH']}"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    yield done.stdout + done.stderr
    sys.path.remove(str(folder))
