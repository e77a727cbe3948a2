"""What each database does differently: full-text rules-text search and name similarity.

Everything else in search is plain ORM and runs the same on SQLite and PostgreSQL.
`o:` words match whole words or their beginnings (`o:draw` finds "draws", not "withdraw"),
through PostgreSQL's GIN-indexed tsvector or SQLite's FTS5 table (see migration 0004).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection
from django.db.models import BooleanField, Q
from django.db.models.expressions import RawSQL

from engines.filters.text import words as folded_words


def rules_text_q(text: str, *, phrase: bool) -> Q | None:
    """Cards whose rules text holds these words (as a phrase when `phrase`), or None if no words."""
    tokens = folded_words(text)
    if not tokens:
        return None
    if connection.vendor == "postgresql":
        # Folded tokens are [a-z0-9]+, so they are safe inside a raw tsquery.
        if phrase:
            # Only the last word of a phrase is a prefix; "a:*" alone would match half the text.
            tsquery = " <-> ".join([*tokens[:-1], f"{tokens[-1]}:*"])
        else:
            tsquery = " & ".join(f"{t}:*" for t in tokens)
        # A condition on the row itself, not a self-join, so a count reads the GIN bitmap.
        sql = "catalogue_card.search_vector @@ to_tsquery('simple', %s)"
        q = Q(RawSQL(sql, [tsquery], output_field=BooleanField()))
        if phrase and len(tokens) > 1:
            # Implied by the phrase match; lets the trigram index find the few candidate rows.
            q &= Q(search_text__contains=" ".join(tokens))
        return q
    # FTS5: a quoted phrase with a trailing * makes its last word a prefix.
    match = f'"{" ".join(tokens)}"*' if phrase else " AND ".join(f"{t}*" for t in tokens)
    sql = "SELECT rowid FROM catalogue_card_fts WHERE catalogue_card_fts MATCH %s"
    return Q(id__in=RawSQL(sql, [match]))


def name_contains_q(folded: str) -> Q:
    """Cards whose folded name contains `folded` (already folded by the caller)."""
    if connection.vendor == "sqlite" and len(folded) >= 3:
        # The trigram FTS5 table answers LIKE from its index; shorter strings have no trigram.
        sql = "SELECT rowid FROM catalogue_card_name_fts WHERE search_name LIKE %s"
        return Q(id__in=RawSQL(sql, [f"%{folded}%"]))
    return Q(search_name__contains=folded)


def ensure_stat_indexes(stat_keys: Iterable[str]) -> None:
    """PostgreSQL: one expression index per stat key, so `cq>=3` is a range scan, not a scan of
    every card's JSON. Called whenever games are synchronised, so a new game's stats get theirs.
    SQLite compiles JSON comparisons to expressions an index cannot match, so it goes without."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        # Ask first: even CREATE INDEX IF NOT EXISTS is refused inside a transaction that has
        # pending constraint checks (an import that replaced cards), and nearly always every
        # index is already there.
        cursor.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'catalogue_card' "
            "AND indexname LIKE 'catalogue_card_stat_%%'"
        )
        existing = {row[0] for row in cursor.fetchall()}
        for key in sorted(set(stat_keys)):
            if not key.isidentifier():
                raise ValueError(f"stat key {key!r} is not a plain identifier")
            if f"catalogue_card_stat_{key}" in existing:
                continue
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS catalogue_card_stat_{key} "
                f"ON catalogue_card ((stats -> '{key}'))"
            )
