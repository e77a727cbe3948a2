"""How much one search or typed name may ask for: every bound in one place, so the code that
enforces them, the API schema and the docs' Limits table all quote the same numbers.

A query within these bounds costs a few milliseconds whatever it holds; beyond them a request
is refused with a 400 naming the limit. Pure Python: the in-memory evaluator keeps to them too.
"""

from engines.integers import STAT_MAX, STAT_MIN

# The whole query, in characters, and how deep parentheses and "-" may nest: the compiler
# walks the tree, and every term becomes SQL.
MAX_QUERY_LENGTH = 1000
MAX_QUERY_DEPTH = 32
# Terms of every kind (`t:unit`, `cq>=3`, a bare word, `order:cq`): each costs a lookup or a
# condition, so fifty is generous for a person and cheap for the database.
MAX_QUERY_TERMS = 50
# Characters of name words (bare words, phrases, `!exact` and `name:` values, as folded for
# matching): each is a substring match over every name, costing more the longer it is.
MAX_NAME_CHARS = 200

# A number in a query compares with stats, which are stored as 32-bit integers (PostgreSQL's
# `integer`, the type `order:` casts them to); SQLite would refuse a number beyond 64 bits
# outright, so both answer alike only if neither is ever asked about one out of this range.
QUERY_NUMBER_MIN = STAT_MIN
QUERY_NUMBER_MAX = STAT_MAX

# A name typed by a person (`/api/v1/cards/named/?fuzzy=`, "did you mean"): fuzzy scoring costs
# grow with the length of the text times the number of names, and no card name is longer than
# Card.name's 120 characters; the longest in the rulebooks has six words.
MAX_FUZZY_WORDS = 10
MAX_FUZZY_CHARS = 120
