"""The production settings, for the load test (tests/benchmarks/load_test.py) only: the same in
everything but where collectstatic writes, which the load test points at a temporary directory
(LOADTEST_STATIC_ROOT) so that it never touches the project's staticfiles/."""

from cardsite.settings.production import *  # noqa: F403
from cardsite.settings.production import env

STATIC_ROOT = env.path("LOADTEST_STATIC_ROOT")
