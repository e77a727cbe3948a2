"""The shape of the code, held by tests: what may import what, and where game knowledge lives."""

import ast
import re
from pathlib import Path

import pytest

from engines import ENGINES

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(folder: str) -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / folder).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {(str(path.relative_to(ROOT)), a.name) for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add((str(path.relative_to(ROOT)), node.module))
    return found


def test_the_engines_import_nothing_from_django_or_the_site():
    bad = {
        (where, what)
        for where, what in imported_modules("engines")
        if what.split(".")[0] in {"django", "rest_framework", "cardsite", "decks"}
    }
    assert not bad


def test_the_catalogue_app_imports_nothing_from_decks():
    assert not {(w, m) for w, m in imported_modules("cardsite/catalogue") if m.startswith("decks")}


def test_the_catalogue_app_imports_nothing_from_the_contributions_that_write_to_it():
    assert not {
        (w, m)
        for w, m in imported_modules("cardsite/catalogue")
        if m.startswith("cardsite.contributions")
    }


@pytest.mark.parametrize(
    "folder",
    ["decks", "cardsite/templates", "cardsite/contributions", "cardsite/catalogue/services"],
)
def test_no_view_service_or_template_names_a_game(folder):
    slugs = re.compile("|".join(re.escape(slug) for slug in ENGINES))
    named = [
        str(path.relative_to(ROOT))
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".html")
        and "migrations" not in path.parts
        and slugs.search(path.read_text(encoding="utf-8"))
    ]
    assert not named


def test_no_python_file_outside_migrations_and_tests_is_over_500_lines():
    long = [
        str(path.relative_to(ROOT))
        for folder in ("cardsite", "decks", "engines")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
        and len(path.read_text(encoding="utf-8").splitlines()) > 500
    ]
    assert not long
