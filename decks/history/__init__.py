"""A deck's history: its versions read for the pages and the API (reads), what differs
between two states or two decks, as card lines with their names and links (diff), the
history pages' rows and side-by-side views (pages), and variants and two decks compared
(variants). The writes that keep history are services (decks/services/history.py,
versions.py, variants.py); a backup's history is checked in decks/backups."""
