"""aikg's ORDER BY (aikg.rdf.order) against Oxigraph's own, on one store, query by query.

For every named query: Oxigraph's answer with the query's ORDER BY, written as SPARQL TSV in process,
beside ``OxigraphStore.answer`` (what a query worker runs), on the same text and bindings; milliseconds
of each, rows, and whether both give the same rows in the same order of their keys.

    python -m aikg_bench.ordering STORE_DIR [HUB]

HUB (a slug, such as nvidia) binds every entity parameter; without it the benchmark's values are used.
"""

from __future__ import annotations

import io
import sys
import time

import pyoxigraph as ox

from aikg.namespaces import BASE
from aikg.query.named import bind_parameters, load_queries
from aikg.rdf.order import split_order, term_key
from aikg.store.oxigraph import OxigraphStore
from aikg.store.transport import QueryJob
from aikg_bench.mix import BY_TYPE, PARAMS


def _rows(data: bytes) -> tuple[list[str], list[list[str]]]:
    lines = data.decode().split("\n")
    return [c[1:] for c in lines[0].split("\t")], [line.split("\t") for line in lines[1:] if line]


def main(path: str, hub: str | None = None) -> None:
    """Print one line per named query."""
    store = OxigraphStore(path, read_only=True)
    engine = store._ox
    for name, q in sorted(load_queries().items()):
        raw = {
            p.name: hub if hub and p.type == "entity" else PARAMS.get(p.name, BY_TYPE.get(p.type, ""))
            for p in q.parameters
            if p.required or p.name in PARAMS
        }
        bound = bind_parameters(q, raw)
        start = time.perf_counter()
        buf = io.BytesIO()
        subs: dict[ox.Variable, ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple] = {
            ox.Variable(k): v for k, v in bound.items()
        }
        found = engine.query(q.text, substitutions=subs, base_iri=BASE)
        assert isinstance(found, ox.QuerySolutions)
        found.serialize(buf, format=ox.QueryResultsFormat.TSV)
        middle = time.perf_counter()
        ours = store.answer(QueryJob(q.text, bound or None, base_iri=BASE)).data
        end = time.perf_counter()
        columns, theirs_rows = _rows(buf.getvalue())
        _, our_rows = _rows(ours)
        ordered = split_order(q.text)
        agree = sorted(map(tuple, our_rows)) == sorted(map(tuple, theirs_rows))
        if ordered is not None:
            at = [columns.index(v) for v, _ in ordered.keys]
            agree = agree and [[term_key(r[i]) for i in at] for r in our_rows] == [
                [term_key(r[i]) for i in at] for r in theirs_rows
            ]
        print(
            f"{name:28s} rows {len(our_rows):7d}  sorted by {'aikg  ' if ordered else 'engine'}  "
            f"Oxigraph {1000 * (middle - start):9.1f} ms  aikg {1000 * (end - middle):9.1f} ms  "
            f"agree {agree}",
            flush=True,
        )
    store.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
