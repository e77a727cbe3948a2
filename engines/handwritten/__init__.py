"""The hand-written goldfish procedures each game had before its procedure was declared as
data (engines/procedure). Not wired into any engine: kept so that the benchmark
(tests/benchmarks/bench_goldfish.py) and the agreement tests (tests/engines/
test_goldfish_procedure.py) measure the interpreters against them side by side, until the
lead removes them."""

from types import ModuleType

from engines.handwritten import (
    conquest_alpha_tactics,
    conquest_for_the_capital,
    conquest_of_fates,
)

HANDWRITTEN: dict[str, ModuleType] = {
    "conquest-for-the-capital": conquest_for_the_capital,
    "conquest-alpha-tactics": conquest_alpha_tactics,
    "conquest-of-fates": conquest_of_fates,
}
