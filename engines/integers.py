"""The whole numbers a stat may hold, and so the numbers a card filter may compare with.

A 32-bit integer: PostgreSQL's `integer`, which searches cast stats to for ordering. SQLite
would store more, so a wider stat would be kept by one database and refused by the other.
Its own module, importing nothing, so that the rules, the filters and the engine vocabulary
can all read it whichever of them is imported first.
"""

STAT_MIN = -(2**31)
STAT_MAX = 2**31 - 1
