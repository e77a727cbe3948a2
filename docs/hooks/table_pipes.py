"""A pipe in a code span in a table cell is written `\\|` in the pages, as GitHub needs to
read the row; Python-Markdown already keeps a code span's pipes in its cell and would show the
backslash, so the site drops it there."""

from __future__ import annotations

import re
from typing import Any

CODE_SPAN = re.compile(r"`[^`\n]*`")


def unescaped(line: str) -> str:
    if not line.startswith("|"):
        return line
    return CODE_SPAN.sub(lambda span: span.group(0).replace("\\|", "|"), line)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return "\n".join(unescaped(line) for line in markdown.split("\n"))
