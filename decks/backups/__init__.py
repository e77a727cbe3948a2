"""Backups of what people made: the whole file written, read, checked and restored
(backup), with the collections (collection) and the decks' histories (history) in it."""
