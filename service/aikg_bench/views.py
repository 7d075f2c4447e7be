"""The explorer's graph views in process: with the whole graph's facts kept, against reading per request.

Two apps over one store: one as ``aikg serve`` runs it (the whole data graph's facts kept and followed
through writes, :mod:`aikg.export.kept`), one reading each view's facts from the store per request (as
every view did before). Each view is asked with a fresh query string, so the response cache misses;
best of ``reps``. Then one gated write, and each view again: the kept facts follow it.

    python -m aikg_bench.views STORE_DIR [--reps 3]

STORE_DIR is copied first (the write goes to the copy). Times in ms; the ratio is kept / per request.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from aikg.store.oxigraph import OxigraphStore
from aikg.web import SERVICES_KEY, create_app

VIEWS = (
    "/api/graph?limit=600",
    "/api/graph?limit=600&fold=true",
    "/api/entities/nvidia/neighbors?depth=2",
    "/api/entities/nvidia/neighbors?depth=2&fold=true",
    "/api/entities/nvidia/neighbors?depth=4&fold=true",
    "/api/entities/openai/neighbors?depth=2&fold=true",
    "/api/entities/coreweave/neighbors?depth=1",
    "/export/graphml?focus=nvidia&depth=2&fold=true",
)
TOKEN = "bench-token"
WRITE = """PREFIX aikg: <https://w3id.org/aikg/ontology#> PREFIX id: <https://w3id.org/aikg/id/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
INSERT DATA { GRAPH <https://w3id.org/aikg/graph/sources/bench-views> {
  id:bench-views-cloud a aikg:Neocloud ; rdfs:label "Bench Views Cloud"@en ;
    aikg:competesWith id:coreweave } }"""
_FRESH = itertools.count()


def _time(client: Any, url: str, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        response = client.get(f"{url}{'&' if '?' in url else '?'}bench={next(_FRESH)}")
        best = min(best, time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
    return 1000 * best


def main(path: str, reps: int) -> None:
    """Print one line per view, before and after a write."""
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / "store"
        shutil.copytree(path, copy)
        store = OxigraphStore(str(copy))
        settings = {"store": str(copy), "load_seeds": False, "query_timeout": 60, "token": TOKEN}
        kept_app = create_app(settings, store=store)
        per_request = create_app(settings, store=store)
        per_request.extensions[SERVICES_KEY].whole.keeping = False
        services = kept_app.extensions[SERVICES_KEY]
        start = time.perf_counter()
        while services.whole.current(services) is None:
            time.sleep(0.01)
        print(f"whole graph's facts read in the background: {1000 * (time.perf_counter() - start):.0f} ms")
        kept, plain = kept_app.test_client(), per_request.test_client()
        for stage in ("before a write", "after a write"):
            if stage == "after a write":
                written = kept.post(
                    "/update", data={"update": WRITE}, headers={"Authorization": f"Bearer {TOKEN}"}
                )
                assert written.status_code == 200, written.get_json()
                first = _time(kept, VIEWS[0], 1), _time(plain, VIEWS[0], 1)
                print(
                    f"\nthe first whole-graph view after it (the kept facts follow the write): "
                    f"{first[0]:.0f} ms kept, {first[1]:.0f} ms per request"
                )
            print(f"\n{stage}: view | kept ms | per request ms | ratio")
            for url in VIEWS:
                a, b = _time(kept, url, reps), _time(plain, url, reps)
                print(f"{url} | {a:.0f} | {b:.0f} | {a / b:.2f}")
        store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("store")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    main(args.store, args.reps)
