"""Process tuning shared by every way the site is served (WSGI, and the benchmarks that
stand in for it)."""

import gc


def tune_garbage_collector() -> None:
    """Move everything loaded at start-up out of the collector's sight and collect less often.

    A full collection walks every tracked object; with Django, DRF and a warm catalogue loaded
    that is tens of milliseconds, landing at random on some request. Freezing the start-up heap
    (as large Python web services do) keeps those pauses out of request latency.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
