"""The project's documentation as one text, for tests that hold a number the code enforces to
the sentence that states it for people (the Limits table, the API's promises)."""

from pathlib import Path

from mkdocs.config import load_config

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def nav_pages(nav: object) -> list[str]:
    """The Markdown files the site's nav lists, in its order (sections flattened)."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in nav_pages(value)]
    if isinstance(nav, list):
        return [page for item in nav for page in nav_pages(item)]
    return []


def docs_text() -> str:
    """The README, then every page in the site's nav order that is written by hand (the
    generated reference is not on disk)."""
    nav = load_config(str(DOCS / "mkdocs.yml"))["nav"]
    pages = [DOCS / "pages" / page for page in nav_pages(nav)]
    texts = [ROOT / "README.md", *(page for page in pages if page.exists())]
    return "\n".join(path.read_text(encoding="utf-8") for path in texts)
