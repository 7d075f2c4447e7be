"""What aikg adds to a named query that misses the cache, against pyoxigraph in the same process.

For every named query, the same text and bindings are run three ways on one store, interleaved so load
falls on all of them alike: by pyoxigraph in process (the engine floor), by aikg's query runner (worker
process and result transport), and as ``GET /api/queries/<name>`` through the app with its response cache
cleared (the whole read path: JSON rows, labels, encoding). Medians, and the ratio HTTP / pyoxigraph.

    python -m aikg_bench.rowtax STORE_DIR [REPETITIONS]

STORE_DIR is an embedded store (``aikg serve`` keeps its own under the per-user data directory); it is
opened read-only by pyoxigraph beside aikg's handle. Row counts of the three must agree.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pyoxigraph as ox

from aikg.namespaces import BASE
from aikg.query.named import bind_parameters
from aikg.store.oxigraph import OxigraphStore
from aikg.web import create_app
from aikg_bench.mix import BY_TYPE, PARAMS


def measure(path: str, reps: int = 5) -> list[dict[str, Any]]:
    """One line per named query: rows and median milliseconds of each way, and the ratio."""
    store = OxigraphStore(path)
    app = create_app({"load_seeds": False, "import_epoch": False}, store=store, owner=False)
    services = next(v for k, v in app.extensions.items() if "services" in k)
    client = app.test_client()
    engine = ox.Store.read_only(path)
    services.index()  # the search index is built once per store version, not per query
    out = []
    try:
        for name, query in sorted(services.named.all().items()):
            raw = {
                p.name: PARAMS.get(p.name, BY_TYPE.get(p.type, ""))
                for p in query.parameters
                if p.required or p.name in PARAMS
            }
            subs = {ox.Variable(k): v for k, v in bind_parameters(query, raw).items()}
            url = f"/api/queries/{name}" + ("?" + urlencode(raw) if raw else "")

            def in_process(text: str = query.text, subs: dict[ox.Variable, Any] = subs) -> int:
                found = engine.query(text, substitutions=subs, use_default_graph_as_union=True, base_iri=BASE)
                return len(list(found))  # type: ignore[arg-type]

            def runner(name: str = name, raw: dict[str, str] = raw) -> int:
                return len(services.named.run(name, raw).rows)

            def http(url: str = url) -> int:
                services.responses.clear()
                r = client.get(url, headers={"Accept": "application/json"})
                assert r.status_code == 200, (url, r.status_code, r.data[:300])
                return len(r.get_json()["rows"])

            ways: dict[str, Callable[[], int]] = {"pyoxigraph": in_process, "runner": runner, "http": http}
            times: dict[str, list[float]] = {k: [] for k in ways}
            rows: dict[str, int] = {}
            for _ in range(reps):
                for key, way in ways.items():
                    start = time.perf_counter()
                    rows[key] = way()
                    times[key].append(time.perf_counter() - start)
            ms = {k: statistics.median(v) * 1000 for k, v in times.items()}
            out.append(
                {
                    "query": name,
                    "rows": rows,
                    **{f"{k}_ms": round(v, 1) for k, v in ms.items()},
                    "ratio": round(ms["http"] / ms["pyoxigraph"], 2),
                }
            )
    finally:
        services.runner.close()
    return out


def main(argv: list[str]) -> None:
    lines = measure(argv[0], int(argv[1]) if len(argv) > 1 else 5)
    print(f"{'query':32} {'rows':>5} {'pyoxigraph':>10} {'runner':>8} {'http':>8} {'ratio':>6}")
    for line in lines:
        agree = len(set(line["rows"].values())) == 1
        print(
            f"{line['query']:32} {line['rows']['http']:5d} {line['pyoxigraph_ms']:10.1f} "
            f"{line['runner_ms']:8.1f} {line['http_ms']:8.1f} {line['ratio']:6.2f}"
            + ("" if agree else f"  ROWS DIFFER {line['rows']}")
        )
    ratios = [line["ratio"] for line in lines]
    print(f"median ratio {statistics.median(ratios):.2f}, max {max(ratios):.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
