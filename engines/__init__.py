"""Game engines: the interpreter of games declared as data, pure Python, no Django.

Each game is a folder fixtures/<slug>/ whose engine.toml declares it (engines.gamefile reads
it); ENGINES holds every game found there when the package is imported, and any the site
stored since (EngineRegistry.use). The folder is the repository's fixtures/, or the one the
CARDSITE_GAMES_DIR environment variable names.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from pathlib import Path
from typing import Any, TypeVar

from engines.base import GameEngine
from engines.gamefile import ENGINE_FILE, engine_from_definition, read_game_folder
from engines.simulation import with_simulation

_T = TypeVar("_T", list[Any], dict[str, Any])

GAMES_DIR = Path(
    os.environ.get("CARDSITE_GAMES_DIR") or Path(__file__).resolve().parents[1] / "fixtures"
)


class EngineRegistry(MutableMapping[str, GameEngine]):
    """Every game the site serves, by slug: those declared under the games folder, and over
    them the definitions a site stored (a game loaded into its database after this process
    started), so that a new or changed game is served without a restart.

    Values derived from the games (the API's lists of game slugs) register with `derived`
    and are kept up to date in place, so whoever holds them sees the change."""

    def __init__(self, files: dict[str, GameEngine]) -> None:
        self._files = files
        self._definitions: dict[str, tuple[str, Mapping[str, Any]]] = {}
        self._all = dict(files)
        # Built engines by the hash of their definition: a definition seen again (by another
        # request, or unchanged on a reload) is not checked and built again.
        self._built: dict[str, GameEngine] = {}
        self._refreshers: list[Callable[[], None]] = []
        self._on_miss: Callable[[str], None] | None = None

    def __getitem__(self, slug: str) -> GameEngine:
        if slug not in self._all and self._on_miss is not None:
            # A game stored since this process last looked: it is served at once, not only
            # when the next timed check comes due.
            self._on_miss(slug)
        return self._all[slug]

    def __contains__(self, slug: object) -> bool:
        # Without a lookup: asking whether a game exists must not load anything.
        return slug in self._all

    def when_missing(self, handler: Callable[[str], None]) -> None:
        """Call `handler(slug)` when a game this process does not serve is asked for; it may
        `use` the site's stored definitions before the lookup is tried again."""
        self._on_miss = handler

    def __setitem__(self, slug: str, engine: GameEngine) -> None:
        # Serve `engine` for `slug` in this process until the games change (tests' overrides).
        self._all[slug] = engine

    def __delitem__(self, slug: str) -> None:
        del self._all[slug]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all)

    def __len__(self) -> int:
        return len(self._all)

    def stored(
        self, digest: str, definition: Mapping[str, Any] | Callable[[], Mapping[str, Any]]
    ) -> GameEngine:
        """The engine of a stored definition (or of what a callable reads, called only when
        the hash is new here), checked and built once per hash."""
        if digest not in self._built:
            read = definition() if callable(definition) else definition
            self._built[digest] = game_engine(read, file=f"stored definition {digest[:12]}")
        return self._built[digest]

    def use(self, definitions: Mapping[str, tuple[str, Mapping[str, Any]]]) -> None:
        """Serve these stored definitions (slug -> (hash, definition)) over the files'."""
        stored = {slug: self.stored(*pair) for slug, pair in definitions.items()}
        self._definitions = dict(definitions)
        self._all = dict(sorted({**self._files, **stored}.items()))
        for refresh in self._refreshers:
            refresh()

    def definitions(self) -> dict[str, tuple[str, Mapping[str, Any]]]:
        """The stored definitions served now, as `use` takes them."""
        return dict(self._definitions)

    def derived(self, compute: Callable[[], _T]) -> _T:
        """compute()'s value (a list or a dict), refilled in place whenever the games change."""
        value = compute()

        def refresh() -> None:
            fresh: Any = compute()
            if isinstance(value, list):
                value[:] = fresh
            elif isinstance(value, dict):
                value.clear()
                value.update(fresh)

        self._refreshers.append(refresh)
        return value


def game_engine(definition: Mapping[str, Any], *, file: str = "<definition>") -> GameEngine:
    """The whole engine a checked game definition declares, its simulation included."""
    return with_simulation(engine_from_definition(definition, file=file), definition, file=file)


def load_engines(folder: Path = GAMES_DIR) -> dict[str, GameEngine]:
    """Every game declared under `folder` (one <slug>/engine.toml each), by slug."""
    found: dict[str, GameEngine] = {}
    for path in sorted(folder.glob(f"*/{ENGINE_FILE}")):
        engine = game_engine(read_game_folder(path.parent), file=str(path))
        found[engine.slug] = engine
    return found


ENGINES = EngineRegistry(load_engines())


def get_engine(slug: str) -> GameEngine:
    try:
        return ENGINES[slug]
    except KeyError:
        raise KeyError(f"no engine for game {slug!r}; known games: {', '.join(ENGINES)}") from None
