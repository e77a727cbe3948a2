"""A keyword's glossary entry: its reminder text printed once, and a long explanation that
opens in place instead of being cut short.

Fixtures often repeat the reminder text inside the description (or give the same text for
both), so printing one after the other showed it twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Past this many words an entry shows its opening and opens for the rest.
LONG_WORDS = 45
# The most words the opening shows when the first sentence is longer.
SUMMARY_WORDS = 40
# A sentence ends at . ! or ? before a capital, a digit, an opening quote or a bracket.
_SENTENCE_END = re.compile("(?<=[.!?])\\s+(?=[A-Z0-9\u201c\u2018\"'(])")


@dataclass(frozen=True)
class GlossaryEntry:
    """`reminder` in italics (only where the description does not already hold it), then
    `summary`; `more` is the rest of the text, shown when the entry is opened ('' if none)."""

    reminder: str
    summary: str
    more: str = ""


def _opening(text: str) -> tuple[str, str]:
    """The first sentence (at most SUMMARY_WORDS words) and the rest, losing nothing."""
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    rest = text[len(first) :].strip()
    words = first.split()
    if len(words) > SUMMARY_WORDS:
        cut = " ".join(words[:SUMMARY_WORDS])
        return cut, (" ".join(words[SUMMARY_WORDS:]) + " " + rest).strip()
    return first, rest


def _spaced(text: str) -> str:
    return " ".join(text.split())


def glossary_entry(reminder_text: str, description: str) -> GlossaryEntry:
    reminder, text = _spaced(reminder_text), _spaced(description)
    if reminder and reminder in text:
        # The description already says it, in context: printed there, once.
        reminder = ""
    total = len(reminder.split()) + len(text.split())
    if total <= LONG_WORDS:
        return GlossaryEntry(reminder, text)
    if reminder:
        return GlossaryEntry(reminder, "", text)
    summary, more = _opening(text)
    return GlossaryEntry("", summary, more)
