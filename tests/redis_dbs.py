"""The Redis databases the suite's own tests use (brokers, the cache backend's tests).

CI runs the SQLite and the PostgreSQL suites side by side on one Redis server; a broker both
used would hand one suite's jobs to the other's worker. TEST_REDIS_ALTERNATE=1 moves every
database to a second set that the first never touches."""

import os

PRIMARY_TO_ALTERNATE = {15: 6, 13: 5, 8: 4, 7: 3}


def redis_url(db: int) -> str:
    if os.environ.get("TEST_REDIS_ALTERNATE") == "1":
        db = PRIMARY_TO_ALTERNATE[db]
    return f"redis://127.0.0.1:6379/{db}"
