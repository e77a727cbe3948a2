"""The in-memory filter evaluator (engines/filters) finds exactly the cards the site's database
search finds, for every game of the fixtures: the syntax page's examples, a list covering
every key and operator, and a query for every value each game's vocabulary holds.

Where they cannot agree by design:
- the syntax page's COLLECTION examples (`own`, `is:owned`) read a viewer's collection, which
  the evaluator refuses with a FilterError (tested below) rather than answering;
- `order:` and `dir:` sort the search; the evaluator ignores them, so only the set of cards is
  compared, never their order.
"""

import pytest

from cardsite.catalogue.models import Game
from cardsite.catalogue.search.examples import BY_GAME, COLLECTION, GENERAL
from cardsite.catalogue.search.records import card_records, filter_schema
from cardsite.catalogue.selectors import card_search
from engines import ENGINES
from engines.base import StatKind
from engines.filters import FilterError, compile_query
from engines.filters.text import slugify

pytestmark = pytest.mark.django_db

GAMES = sorted(ENGINES)

# At least one query for every key and every operator, with values some games have and
# others lack (a dropped term), so each way a term applies or is dropped is compared.
QUERIES = [
    # Bare words, phrases and exact names: case, accents, apostrophes, short words.
    "deridex",
    "de",
    "horse PALE",
    '"pale horse"',
    '"horse pale"',
    "!Galaxy",
    '!"The Insight"',
    '!"galax"',
    "!!!",
    "café",
    "n:ar",
    'name:"the "',
    "name:zz",
    # Types and classifications.
    "t:planet",
    "type:unit",
    "t:ship",
    "t:a",
    "t=sigil",
    "t!=planet",
    "t:achievment",
    "t>planet",
    # Rules text: word beginnings and phrases.
    "o:draw",
    'o:"draw a card"',
    "oracle:card o:discard",
    "text:a",
    'o:"a"',
    "o:!!!",
    "o!=draw",
    # Factions, races, suits and affiliations.
    "f:humans",
    "f:human",
    "f:dwarf",
    "faction:heart",
    "race:rom",
    "suit:spades",
    "affiliation:federation",
    "f:zzz",
    "f!=humans",
    "f:h",
    # Sets.
    "s:smp",
    "set:sample",
    "e:rulebook",
    "s:zzzz",
    "s!=smp",
    # Rarities, ordered within their game.
    "r:silver",
    "r=gold",
    "r<silver",
    "r<=silver",
    "r>bronze",
    "r>=silver",
    "r!=gold",
    "rarity:b",
    "r:zzz",
    # Keywords, attributes and officialness.
    "is:sample",
    "is:official",
    "is:unofficial",
    "-is:sample",
    "is!=sample",
    "kw:guardian",
    "keyword:removal",
    "has:apex",
    "is:s",
    "kw:zzz",
    "kw<guardian",
    # Games.
    "game:orion",
    "g:conquest",
    "game:zzz",
    # And, or, parentheses and negation.
    "t:unit or t:planet",
    "-(t:unit or t:planet)",
    "t:unit -f:humans",
    "(o:draw or o:card) -is:sample",
    "a or b",
    "-a",
    "--a",
    "t:unit and o:draw",
    "(t:zzz or f:zzz) t:unit",
    "-(t:zzz)",
    # Sorting terms filter nothing.
    "order:name",
    "t:unit order:cq dir:desc",
    "dir:up",
    # Terms that cannot apply anywhere.
    "zz:1",
    "cq>=lots",
    "t<3",
]


def stat_queries(game: str) -> list[str]:
    """Every operator over every stat of the game, under its key and its aliases."""
    found = []
    for spec in ENGINES[game].stats:
        for key in (spec.key, *spec.aliases):
            if spec.kind is StatKind.INTEGER:
                found += [
                    f"{key}{op}{n}" for op in (":", "=", "<", "<=", ">", ">=", "!=") for n in (0, 2)
                ]
                found += [f"-{key}:1", f"{key}:-1", f"{key}:x"]
            else:
                for choice in spec.choices:
                    found += [f"{key}:{choice}", f"{key}={choice[:2]}", f"{key}!={choice}"]
                    found += [f"-{key}:{choice}", f"{key}>{choice}"]
                found += [f"{key}:zzz", f'{key}:""']
    return found


def example_queries(game: str) -> list[str]:
    return [e.query for e in (*GENERAL, *BY_GAME.get(game, ()))]


def disagreements(game_slug: str, queries: list[str]) -> list[str]:
    """Each query whose cards differ between the database and memory, with the difference."""
    game = Game.objects.get(slug=game_slug)
    schema, records = filter_schema(game), card_records(game)
    wrong = []
    finding = 0
    for query in queries:
        in_database = set(
            card_search(text=query, game=game_slug).cards.values_list("short_id", flat=True)
        )
        card_filter = compile_query(query, schema=schema)
        in_memory = {r.key for r in records if card_filter(r)}
        finding += bool(in_database)
        if in_database != in_memory:
            wrong.append(
                f"{query!r}: database only {sorted(in_database - in_memory)}, "
                f"memory only {sorted(in_memory - in_database)}"
            )
    # Agreeing on nothing proves nothing: most queries must find some of the game's cards.
    assert finding >= len(queries) / 3, f"only {finding} of {len(queries)} queries find cards"
    return wrong


@pytest.mark.parametrize("game", GAMES)
def test_the_syntax_pages_examples_find_the_same_cards_in_memory(game):
    assert disagreements(game, example_queries(game)) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_key_and_operator_finds_the_same_cards_in_memory(game):
    assert disagreements(game, QUERIES + stat_queries(game)) == []


def vocabulary_queries(game: Game) -> list[str]:
    """A query for every type, classification, faction, keyword, set and rarity of the game,
    whole and by its beginning, and for words and names of its cards."""
    found = []
    for name in (
        *game.card_types.values_list("name", flat=True),
        *game.subtypes.values_list("name", flat=True),
    ):
        found += [f't:"{name}"', f"t:{slugify(name)[:3]}"]
    for name, abbreviation in (
        *game.factions.values_list("name", "abbreviation"),
        *game.keywords.values_list("name", "abbreviation"),
    ):
        slug = slugify(name)
        found += [f'f:"{name}"', f"f:{slug[:4]}", f'kw:"{name}"', f"kw:{slug.split('-')[0]}"]
        found += [f"f:{slug.removesuffix('s')}", f"is:{slug}"]
        if abbreviation:
            found += [f"f:{abbreviation}", f"kw:{abbreviation}"]
    for code, name in game.sets.values_list("code", "name"):
        found += [f"s:{code.lower()}", f's:"{name}"', f'e:"{name.split()[-1]}"']
    for name in game.rarities.values_list("name", flat=True):
        found += [f"r{op}{name.lower()}" for op in (":", "<", "<=", ">", ">=", "!=")]
    for name, text in game.cards.values_list("name", "rules_text")[:60]:
        if '"' in name:
            continue  # a quote inside a name cannot be written in a query
        first = name.split()[0]
        found += [f'"{first}"', f'!"{first}"', f'!"{name}"', f'"{name}"', f'n:"{name[1:-1]}"']
        text_words = [w for w in text.split() if '"' not in w]
        if len(text_words) >= 3:
            found += [f'o:"{text_words[1]}"', f'o:"{" ".join(text_words[:3])}"']
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_value_of_a_games_vocabulary_finds_the_same_cards_in_memory(game):
    queries = vocabulary_queries(Game.objects.get(slug=game))
    assert len(queries) > 100
    assert disagreements(game, queries) == []


@pytest.mark.parametrize("example", COLLECTION, ids=lambda e: e.query)
def test_a_collection_example_is_refused_in_memory_rather_than_answered(example):
    schema = filter_schema(Game.objects.get(slug="conquest-of-orion"))
    with pytest.raises(FilterError, match="collection"):
        compile_query(example.query, schema=schema)


def test_the_lists_cover_at_least_forty_queries_besides_the_examples():
    assert len(QUERIES) >= 40
