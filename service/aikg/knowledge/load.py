"""Loading the ontology, shapes and seeds into their named graphs, idempotently.

Each graph loaded from files gets a record in ``graph/imports``: the SHA-256 of the bytes it was loaded
from (``aikg:contentSha256`` on the graph's IRI), which a service starting on the store compares with
the files it ships (:mod:`aikg.write.shipped`)."""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

import pyoxigraph as ox

from aikg.errors import RdfSyntaxError
from aikg.knowledge.derive import GENERATED_GRAPHS, rebuild_derived
from aikg.namespaces import AIKG, GRAPH, IMPORTS_GRAPH
from aikg.resources import DataFile, data_files
from aikg.store import Store

CONTENT_SHA256 = ox.NamedNode(str(AIKG.contentSha256))
_RECORDS = ox.NamedNode(str(IMPORTS_GRAPH))


def _check_parses(path: Path) -> None:
    try:
        for _ in ox.parse(path=str(path), format=ox.RdfFormat.TURTLE):
            pass
    except SyntaxError as exc:
        raise RdfSyntaxError(f"{path.name} does not parse: {exc}") from None


def grouped(files: Iterable[DataFile]) -> dict[str, list[Path]]:
    """Each graph with the files loaded into it, in order."""
    out: dict[str, list[Path]] = defaultdict(list)
    for f in files:
        out[f.graph].append(f.path)
    return dict(out)


def content(paths: Iterable[Path]) -> bytes:
    """The bytes a graph is loaded from: its files one after the other (checked to parse first)."""
    paths = list(paths)
    for p in paths:
        _check_parses(p)
    return b"\n".join(p.read_bytes() for p in paths)


def digest(data: bytes) -> str:
    """What a graph's record says it was loaded from."""
    return hashlib.sha256(data).hexdigest()


def records(store: Store) -> dict[str, str]:
    """Each graph loaded from files, with the digest of the files it was last loaded from."""
    return {
        q.subject.value: q.object.value
        for q in store.quads(predicate=CONTENT_SHA256, graph=_RECORDS.value)
        if isinstance(q.subject, ox.NamedNode)
        and isinstance(q.object, ox.Literal)
        and q.subject.value.startswith(str(GRAPH))
    }


def record_quads(digests: Mapping[str, str]) -> list[ox.Quad]:
    """The records of graphs loaded from files with these digests."""
    return [ox.Quad(ox.NamedNode(g), CONTENT_SHA256, ox.Literal(d), _RECORDS) for g, d in digests.items()]


def load_files(store: Store, files: list[DataFile]) -> dict[str, int]:
    """Replace each named graph with the content of its files and record what it was loaded from;
    loading twice changes nothing."""
    counts: dict[str, int] = {}
    digests: dict[str, str] = {}
    for graph, paths in grouped(files).items():
        data = content(paths)
        counts[graph] = store.load(data, mime="text/turtle", graph=graph, replace=True)
        digests[graph] = digest(data)
    before = records(store)
    old = record_quads({g: d for g, d in before.items() if g in digests})
    store.apply(remove=old, add=record_quads(digests))
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
