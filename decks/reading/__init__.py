"""Reads of decks, always through who is asking (selectors), with the public list's filters
as its URL gives them (finding) and decks against collections (owning)."""
