"""What is made from a deck to take away: its text, JSON and deck code (text), proxy sheet
orders for decks.proxies (printing), their PNG pages (sheet_pages) and preview (preview),
and the files every picture made from a deck is kept in (images)."""
