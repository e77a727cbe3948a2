"""The schema passes the tools that read OpenAPI: openapi-spec-validator (the specification's
own rules) and Redocly CLI's lint (its recommended rules, which hold every spec rule; the style
rules turned off are in redocly.yaml, each with its reason)."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

ROOT = Path(__file__).resolve().parents[2]


def test_the_schema_passes_openapi_spec_validator(schema_file):
    document, _ = read_from_filename(str(schema_file))
    validate(document)


def test_the_schema_passes_redocly_lint_with_its_recommended_rules(schema_file):
    npx = shutil.which("npx")
    if npx is None or not (ROOT / "node_modules/@redocly/cli").is_dir():
        pytest.fail("Redocly CLI is not installed: `make install` runs npm ci (package.json).")
    # From the checkout, where redocly.yaml is; no telemetry: nothing leaves the machine.
    done = subprocess.run(
        [npx, "--no-install", "redocly", "lint", str(schema_file), "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": os.environ["PATH"], "REDOCLY_TELEMETRY": "off", "CI": "true"},
    )
    report = json.loads(done.stdout)
    problems = [
        f"{p['severity']} {p['ruleId']}: {p['message']} at {p['location'][0]['pointer']}"
        for p in report["problems"]
    ]
    assert problems == [], "\n".join(problems)
    assert done.returncode == 0, done.stderr


def test_no_schema_in_the_document_is_nullable_without_a_type(schema_document):
    # OpenAPI 3.0.3 ignores `nullable` beside no `type`, and validators then refuse the null
    # the API sends (Deck.parent, PoolState.pool, SettingChange's from and to did).
    found = []

    def walk(node, where):
        if isinstance(node, dict):
            if node.get("nullable") and "type" not in node:
                found.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}/{index}")

    walk(schema_document, "#")
    assert found == []
