"""Loading the ontology, shapes and seeds into their named graphs, idempotently."""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path

import pyoxigraph as ox

from aikg.errors import RdfSyntaxError
from aikg.knowledge.derive import GENERATED_GRAPHS, rebuild_derived
from aikg.resources import DataFile, data_files
from aikg.store import Store


def _check_parses(path: Path) -> None:
    try:
        for _ in ox.parse(path=str(path), format=ox.RdfFormat.TURTLE):
            pass
    except SyntaxError as exc:
        raise RdfSyntaxError(f"{path.name} does not parse: {exc}") from None


def load_files(store: Store, files: list[DataFile]) -> dict[str, int]:
    """Replace each named graph with the content of its files; loading twice changes nothing."""
    grouped: dict[str, list[Path]] = defaultdict(list)
    for f in files:
        grouped[f.graph].append(f.path)
    counts: dict[str, int] = {}
    for graph, paths in grouped.items():
        for p in paths:
            _check_parses(p)
        data = b"\n".join(p.read_bytes() for p in paths)
        counts[graph] = store.load(data, mime="text/turtle", graph=graph, replace=True)
    return counts


def load_seeds(store: Store, *, derive: bool = True) -> dict[str, int]:
    """Load every data file (ontology, shapes, seeds) and rebuild the derived graph."""
    counts = load_files(store, data_files())
    if derive:
        counts.update(rebuild_derived(store))
    return counts


def is_empty(store: Store) -> bool:
    """True when the store holds no named graph yet (a first start)."""
    return not store.graphs()


def bulk_load(store: Store, path: Path, *, progress: bool = False) -> dict[str, float]:
    """Load a large N-Quads file fast (each quad into its own graph), then rebuild the derived graphs.

    On the embedded store this is Oxigraph's bulk loader (not one transaction: for an initial load,
    not for live writes); a backend without one loads the file whole. Returns the seconds spent.
    """
    start = time.perf_counter()
    fresh = is_empty(store)
    store.bulk_load(path, mime="application/n-quads", progress=progress)
    loaded = time.perf_counter()
    if fresh:
        # The generated graphs a file brings (a store's dump has them) are computed again from the
        # rest. Dropped first, they are built as on any first load (over the merge, streamed into the
        # store) instead of rule by rule over a list of every other graph: the default store's
        # derived graphs took 4.9-7.0 s that way, 2.9-3.1 s so (alternated, load average 17).
        store.apply(drop=[g for g in GENERATED_GRAPHS if store.has_graph(g)])
    rebuild_derived(store)
    return {"load_seconds": loaded - start, "derive_seconds": time.perf_counter() - loaded}
