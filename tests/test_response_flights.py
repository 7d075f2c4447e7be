"""Concurrent requests for one answer that is not cached yet are computed once (``Flights``).

A hub's page opened by several clients at once, or one impatient client's retries, used to compute the
same cold answer once per request, each holding a core and a query slot.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from aikg.web import api, create_app


@pytest.fixture()
def counted(store, monkeypatch):
    """An app whose entity lookups take 0.3 s and are counted, and the list of the entities looked up."""
    looked_up: list[str] = []
    lock = threading.Lock()
    real = api.entity_json

    def slow(services, entity_id, **kwargs):
        with lock:
            looked_up.append(entity_id)
        time.sleep(0.3)
        return real(services, entity_id, **kwargs)

    monkeypatch.setattr(api, "entity_json", slow)
    app = create_app({"store": "memory", "load_seeds": False}, store=store)
    return app, looked_up


def _get(app, path):
    with app.test_client() as c:
        r = c.get(path)
        return r.status_code, r.get_data()


def test_concurrent_requests_for_one_cold_answer_compute_it_once(counted):
    app, looked_up = counted
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: _get(app, "/api/entities/coreweave"), range(6)))
    assert [status for status, _ in answers] == [200] * 6
    assert len({body for _, body in answers}) == 1  # the same answer for every client
    assert looked_up == ["coreweave"]


def test_different_answers_are_not_held_up_by_each_other(counted):
    app, looked_up = counted
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda slug: _get(app, f"/api/entities/{slug}"), ["coreweave", "nvidia"]))
    assert [status for status, _ in answers] == [200, 200]
    assert sorted(looked_up) == ["coreweave", "nvidia"]


def test_a_failed_answer_is_not_shared_each_request_gets_its_own(counted):
    app, looked_up = counted
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda _: _get(app, "/api/entities/no-such-entity"), range(3)))
    assert [status for status, _ in answers] == [404] * 3
    assert looked_up == ["no-such-entity"] * 3
