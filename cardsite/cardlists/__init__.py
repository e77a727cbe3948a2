"""Lists of a game's cards as people write them (decklist text, deck codes), and the game's
cards as plain values (snapshots) those lists are read against.

Below both the decks and the collection apps, which read lists alike: this package imports
neither, only the catalogue and the engines."""
