"""The hand-written goldfish procedures each game had before its procedure was declared as
data (fixtures/<slug>/goldfish.toml, run by engines/procedure). No engine uses them: they are
kept beside the tests so that the benchmark (tests/benchmarks/bench_goldfish.py) and the
agreement tests (tests/engines/test_goldfish_procedure.py) hold the interpreters to them."""

from types import ModuleType

from tests.handwritten import (
    conquest_alpha_tactics,
    conquest_for_the_capital,
    conquest_of_fates,
    conquest_of_orion,
    fate_foretold,
)

HANDWRITTEN: dict[str, ModuleType] = {
    "conquest-for-the-capital": conquest_for_the_capital,
    "conquest-alpha-tactics": conquest_alpha_tactics,
    "conquest-of-fates": conquest_of_fates,
    "conquest-of-orion": conquest_of_orion,
    "fate-foretold": fate_foretold,
}
