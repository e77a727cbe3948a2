"""A deck as the world sees it: its page's head for search engines and link previews
(presenters) with its Open Graph image (og), its description as safe HTML (description), the
sitemap of public decks (sitemaps), a card page's list of the public decks using it
(card_decks), and the version number their caches follow (versioning)."""
