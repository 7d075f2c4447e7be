"""aikg_bench.misscpu: a named query's miss timed by the CPU each side spends, beside its wall time."""

from __future__ import annotations

from aikg.knowledge.load import load_seeds
from aikg.store import OxigraphStore
from aikg_bench.misscpu import measure
from aikg_bench.rowtax import session


def test_a_miss_is_timed_on_both_sides_of_the_worker_hop(tmp_path) -> None:
    """The HTTP side's CPU and the query worker's are both counted (a worker left out reads 0), each
    within the request's wall time, beside pyoxigraph on the same text."""
    path = tmp_path / "store"
    store = OxigraphStore(path)
    load_seeds(store)
    store.close()
    with session(str(path)) as s:
        # a query that is not kept: a kept one is read in the asking process, with no worker hop (0402746)
        assert s.services.named.all()["holdings-of-organization"].maintained is None
        m = measure(s, "holdings-of-organization", 3)
    assert m["query"] == "holdings-of-organization"
    assert 0 < m["http_cpu_ms"] < m["wall_ms"]
    assert 0 < m["worker_cpu_ms"] < m["wall_ms"]
    assert m["pyoxigraph_ms"] > 0
    assert m["cpu_ratio"] == round((m["http_cpu_ms"] + m["worker_cpu_ms"]) / m["pyoxigraph_ms"], 2)
