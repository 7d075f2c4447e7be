"""What aikg adds to a named query that misses the cache, against pyoxigraph in the same process.

For every named query, the same text and bindings are run three ways on one store (pyoxigraph is given
the text with the values written in, as aikg's store runs it: :func:`engine_text`), interleaved so load
falls on all of them alike: by pyoxigraph in process (the engine floor), by aikg's query runner (worker
process and result transport), and as ``GET /api/queries/<name>`` through the app with its response cache
cleared (the whole read path: JSON rows, labels, encoding). Medians, and the ratio HTTP / pyoxigraph.
Every way answers the same rows: the app is asked with ``limit`` at the row cap (``max_rows``; without
it the app answers a first page of ``query_page`` rows) and pyoxigraph runs the text with that ``LIMIT``,
as aikg's store runs it for that request (:func:`engine_text`).
The same session times entity lookups and named queries bound to a hub and to a small node
(``aikg bench``'s hub-proofness goal), each one missing the cache.

    python -m aikg_bench.rowtax STORE_DIR [REPETITIONS]

STORE_DIR is an embedded store (``aikg serve`` keeps its own under the per-user data directory); it is
opened read-only by pyoxigraph beside aikg's handle. Row counts of the three must agree.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

from flask.testing import FlaskClient

from aikg.errors import AikgError
from aikg.query.named import NamedQuery, bind_parameters, paged
from aikg.rdf.substitute import substitute
from aikg.services import Services
from aikg.store.oxigraph import OxigraphStore
from aikg.web import SERVICES_KEY, create_app
from aikg_bench.baseline import Baseline
from aikg_bench.mix import PARAMS, value_for

WAYS = ("pyoxigraph", "runner", "http")


def engine_text(query: NamedQuery, raw: Mapping[str, str], limit: int | None = None) -> str:
    """The text pyoxigraph is given for ``query`` asked with ``raw`` (and ``limit`` rows, as aikg's
    store runs a page of the row cap: :func:`aikg.query.named.paged`): the values written into it as aikg
    writes them (:func:`aikg.rdf.substitute.substitute`, the store's one way of binding), so the engine
    plans from the same constants as under aikg. Given as ``substitutions=`` instead, they are applied
    after Oxigraph has planned the query as if they were free: sources-of-entity's baseline took 6 s at
    1M where the text aikg runs takes 17 ms, and the row compared two plans, not aikg with its engine."""
    text = paged(query, limit, 0) if limit is not None else query.text
    return substitute(text, bind_parameters(query, dict(raw)))


def app_path(name: str, raw: Mapping[str, str], limit: int) -> str:
    """``GET /api/queries/<name>`` asking ``limit`` rows: without ``limit`` the app answers its first page
    (setting ``query_page``, 1,000 rows since 6129661), which the bench timed against pyoxigraph's whole
    answer; with it, both sides answer the same rows."""
    return f"/api/queries/{name}?" + urlencode({**raw, "limit": str(limit)})


@dataclass
class Session:
    """One store opened by aikg (app, services) and by pyoxigraph read-only, side by side."""

    services: Services
    client: FlaskClient
    engine: Baseline
    union: bool = False
    """Read the union of the named graphs: only for a store that holds no merged default graph."""

    def bindings(self, query: NamedQuery, params: Mapping[str, str]) -> dict[str, str]:
        """The raw parameters a named query is asked with: ``params`` by name, else a value by type."""
        return {
            p.name: params[p.name] if p.name in params else value_for(p)
            for p in query.parameters
            if p.required or p.name in params
        }

    def query(
        self,
        name: str,
        raw: Mapping[str, str],
        reps: int,
        ways: tuple[str, ...] = WAYS,
        *,
        untimed_first: bool = True,
    ) -> dict[str, Any]:
        """Rows and median milliseconds of each way, and the ratio HTTP / pyoxigraph; a way that failed
        says so under ``error`` (a 503 past the query time limit is a result, not a crash).
        ``untimed_first``: one round before the timed ones (see :func:`_timed`)."""
        query = self.services.named.all()[name]
        cap = self.services.runner.max_rows  # the rows every way answers: aikg's row cap
        text = engine_text(query, raw, cap)
        url = app_path(name, raw, cap)

        def in_process() -> tuple[int, float]:
            return self.engine.run(text, {}, self.union)

        def runner() -> int:
            return len(self.services.named.run(name, dict(raw), limit=cap).rows)

        def http() -> int:
            self.services.responses.clear()
            r = self.client.get(url, headers={"Accept": "application/json"})
            if r.status_code != 200:
                raise RuntimeError(f"HTTP {r.status_code}: {r.get_data(as_text=True)[:200]}")
            rows: list[Any] = r.get_json()["rows"]
            return len(rows)

        every: dict[str, Callable[[], int | tuple[int, float]]] = {
            "pyoxigraph": in_process,
            "runner": runner,
            "http": http,
        }
        line: dict[str, Any] = {
            "query": name,
            "params": dict(raw),
            "url": url,
            "max_rows": cap,  # every way is asked for this many rows; aikg's answer says when more follow
        }
        line.update(_timed({k: every[k] for k in ways}, reps, untimed_first))
        if "error" not in line and "http_ms" in line and line.get("pyoxigraph_ms"):
            line["ratio"] = round(line["http_ms"] / line["pyoxigraph_ms"], 2)
        return line

    def lookup(self, slug: str, reps: int) -> dict[str, Any]:
        """Median milliseconds of ``GET /api/entities/<slug>`` with the response cache cleared."""
        url = f"/api/entities/{quote(slug)}"

        def http() -> int:
            self.services.responses.clear()
            r = self.client.get(url, headers={"Accept": "application/json"})
            if r.status_code != 200:
                raise RuntimeError(f"HTTP {r.status_code}: {r.get_data(as_text=True)[:200]}")
            return len(r.data)

        return {"lookup": slug, "url": url, **_timed({"http": http}, reps)}


def _timed(
    ways: Mapping[str, Callable[[], int | tuple[int, float]]], reps: int, untimed_first: bool = True
) -> dict[str, Any]:
    """Run the ways in turn ``reps`` times after one untimed round: median ms and result size of each.
    A way that fails (a 503 past the time limit is a result) is not run again: its error is kept under
    ``errors`` (and the first one under ``error``), and the others go on, so a failure of aikg is seen
    beside what pyoxigraph took for the same query.

    Without the untimed round, the first query of a session opened right after a load was timed at 59 ms
    through the app (accelerators-by-vendor, the median of 3; 12–14 ms on the same store in later
    sessions): what is paid once after a load or a start is the cold start's goal, measured on its own."""
    times: dict[str, list[float]] = {k: [] for k in ways}
    rows: dict[str, int] = {}
    errors: dict[str, str] = {}
    for rep in range(-1 if untimed_first else 0, reps):
        for key, way in ways.items():
            if key in errors:
                continue
            start = time.perf_counter()
            try:
                got = way()
            except (RuntimeError, AikgError) as exc:  # a 503 or a query past its time limit: a result
                errors[key] = f"{key}: {exc}"
                continue
            # A way that times itself where it runs (the baseline's child process) says how long it took.
            rows[key], took = got if isinstance(got, tuple) else (got, time.perf_counter() - start)
            if rep >= 0:
                times[key].append(took)
    out: dict[str, Any] = {"rows": rows}
    if errors:
        out["errors"] = errors
        out["error"] = next(iter(errors.values()))
    for k, v in times.items():
        if v and k not in errors:
            out[f"{k}_ms"] = round(statistics.median(v) * 1000, 2)
    return out


@contextmanager
def session(path: str, baseline_seconds: float | None = None) -> Iterator[Session]:
    """aikg's app over the store at ``path`` (no server, no seeds loaded) and pyoxigraph read-only (a
    query stopped after ``baseline_seconds``, by default the baseline's own bound)."""
    store = OxigraphStore(path)
    app = create_app({"load_seeds": False, "import_epoch": False}, store=store, owner=False)
    services: Services = app.extensions[SERVICES_KEY]
    # opened after aikg's handle, which merges an unmerged store
    engine = Baseline(path) if baseline_seconds is None else Baseline(path, seconds=baseline_seconds)
    services.index()  # the search index is built once per store version, not per query
    # aikg keeps the merge of the named graphs in the default graph and queries it: pyoxigraph reads the
    # same (a store without it falls back on Oxigraph's union, a multiset, as aikg's read-only copies do)
    union = not engine.ask("ASK { ?s ?p ?o }")
    try:
        yield Session(services, app.test_client(), engine, union)
    finally:
        engine.close()
        services.close()


def measure(path: str, reps: int = 5, params: Mapping[str, str] = PARAMS) -> list[dict[str, Any]]:
    """One line per named query: rows and median milliseconds of each way, and the ratio."""
    with session(path) as s:
        return [
            s.query(name, s.bindings(query, params), reps)
            for name, query in sorted(s.services.named.all().items())
        ]


def main(argv: list[str]) -> None:
    lines = measure(argv[0], int(argv[1]) if len(argv) > 1 else 5)
    print(f"{'query':32} {'rows':>5} {'pyoxigraph':>10} {'runner':>8} {'http':>8} {'ratio':>6}")
    for line in lines:
        if "error" in line:
            floor = f"pyoxigraph {line['pyoxigraph_ms']:.1f} ms; " if "pyoxigraph_ms" in line else ""
            print(f"{line['query']:32} {floor}{line['error'][:160]}")
            continue
        agree = len(set(line["rows"].values())) == 1
        print(
            f"{line['query']:32} {line['rows']['http']:5d} {line['pyoxigraph_ms']:10.1f} "
            f"{line['runner_ms']:8.1f} {line['http_ms']:8.1f} {line['ratio']:6.2f}"
            + ("" if agree else f"  ROWS DIFFER {line['rows']}")
        )
    ratios = [line["ratio"] for line in lines if "ratio" in line]
    if ratios:
        print(f"median ratio {statistics.median(ratios):.2f}, max {max(ratios):.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
