"""The shape of the code, held by tests: what may import what, and where game knowledge lives."""

import ast
import re
from pathlib import Path

import pytest

from engines import ENGINES

ROOT = Path(__file__).resolve().parents[1]
FIRST_PARTY = ("cardsite", "decks", "engines")


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
    [
        "decks",
        "cardsite/templates",
        "cardsite/contributions",
        "cardsite/catalogue/services",
        "cardsite/events",
    ],
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


@pytest.mark.parametrize(
    ("folder", "above"),
    [
        # Decklist parsing and game snapshots sit below both apps that read lists.
        ("cardsite/cardlists", ("decks", "cardsite.collection")),
        ("cardsite/collection", ("decks", "cardsite.events")),
        # Events take decks' locked versions: nothing below them imports them.
        ("decks", ("cardsite.events",)),
        ("cardsite/catalogue", ("cardsite.events",)),
        ("cardsite/catalogue", ("cardsite.collection",)),
    ],
)
def test_an_app_imports_nothing_from_the_apps_above_it(folder, above):
    assert not {(w, m) for w, m in imported_modules(folder) if m.startswith(above)}


def first_party_modules() -> dict[str, tuple[Path, bool]]:
    """Dotted name -> (file, whether it is a package's __init__), migrations left out."""
    found = {}
    for folder in FIRST_PARTY:
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the first-party modules importing it runs: every import, at the top or
    inside a function, resolved to the module it names (`from a.b import c` is a.b.c when c
    is a module, else a.b), and the packages above that module whose __init__ Python runs
    first (all but the importer's own, which are already running)."""
    modules = first_party_modules()

    def module_of(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, (path, package) in modules.items():
        here = name.split(".") if package else name.split(".")[:-1]
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    above = here[: len(here) - node.level + 1]
                    base = ".".join([*above, base] if base else above)
                named |= {f"{base}.{alias.name}" for alias in node.names} | {base}
        targets = {t for t in map(module_of, named) if t is not None}
        for target in list(targets):
            parts = target.split(".")
            for depth in range(1, len(parts)):
                package_name = ".".join(parts[:depth])
                if package_name in modules and not f"{name}.".startswith(f"{package_name}."):
                    targets.add(package_name)
        graph[name] = targets - {name}
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph, as the modules around it back to the first; [] if none."""
    finished: set[str] = set()
    for start in sorted(graph):
        path: list[str] = []
        branches: list[list[str]] = [[start]]
        while branches:
            if not branches[-1]:
                branches.pop()
                if path:
                    finished.add(path.pop())
                continue
            step = branches[-1].pop()
            if step in path:
                return [*path[path.index(step) :], step]
            if step in finished:
                continue
            path.append(step)
            branches.append(sorted(graph.get(step, ()), reverse=True))
    return []


def test_the_import_graph_finds_a_cycle_through_a_package_init():
    graph = {"a": {"b.c"}, "b": {"b.d"}, "b.c": set(), "b.d": {"a"}}
    assert a_cycle(graph) == []
    graph["b.c"] = {"b"}
    assert a_cycle(graph) == ["a", "b.c", "b", "b.d", "a"]


def test_no_first_party_module_imports_itself_through_others():
    cycle = a_cycle(import_graph())
    assert not cycle, "An import cycle: " + " -> ".join(cycle)


def test_no_python_file_outside_migrations_and_tests_is_over_500_lines():
    long = [
        str(path.relative_to(ROOT))
        for folder in ("cardsite", "decks", "engines")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
        and len(path.read_text(encoding="utf-8").splitlines()) > 500
    ]
    assert not long
