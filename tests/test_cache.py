"""The Redis cache backend production uses (cardsite/cache.py), against the real Redis."""

import secrets

import pytest
import redis

from cardsite.cache import RedisCache
from tests.redis_dbs import redis_url

URL = redis_url(13)


@pytest.fixture
def shared():
    prefix = f"test-cache-{secrets.token_hex(4)}"
    cache = RedisCache(URL, {"KEY_PREFIX": prefix})
    yield cache
    store = redis.Redis.from_url(URL)
    for key in store.scan_iter(f"{prefix}:*"):
        store.delete(key)


def test_it_reads_and_writes_as_django_s_redis_cache_does(shared):
    shared.set("page", {"body": "<p>x</p>"}, 60)
    assert shared.get("page") == {"body": "<p>x</p>"}
    assert shared.get_many(["page", "missing"]) == {"page": {"body": "<p>x</p>"}}
    shared.add("version", 7, timeout=None)
    assert shared.incr("version") == 8
    shared.delete("page")
    assert shared.get("page") is None


def test_it_makes_one_client_and_keeps_it_rather_than_one_per_call(shared):
    client = shared._cache.get_client()
    shared.get("anything")
    assert shared._cache.get_client() is client
    assert shared._cache.get_client(write=True) is client  # one server: one pool, one client
