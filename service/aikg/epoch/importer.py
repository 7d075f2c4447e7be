"""The import pipeline: read, reconcile, map, validate against the shapes, commit, rebuild derived.

Validation is the same SHACL validation every write passes (``aikg.knowledge.validate``, shapes plus
ontology), run on a scratch copy of the store's data as it would be after the import. Unlike a
client write, which is refused whole, rows whose nodes break a shape are reported (file, line, reason)
and left out, and the valid rows are committed in one transaction through the gate's commit. The whole
data set is validated in one pass rather than node by node, which is what keeps a full import fast.
Re-running replaces the datasets' graphs: the same files give the same quads (idempotent).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pyoxigraph as ox
from rdflib import URIRef

from aikg.epoch.catalog import catalog_triples, graph_of
from aikg.epoch.mapping import DATASETS, Context, Dataset
from aikg.epoch.reconcile import KINDS, Reconciler, read_overrides
from aikg.epoch.report import ImportReport, Rejection
from aikg.epoch.rows import Quads, RowKey, read_rows
from aikg.epoch.values import normalize
from aikg.errors import BadRequest
from aikg.knowledge.derive import GENERATED_GRAPHS
from aikg.knowledge.validate import ValidationResult, validate_store
from aikg.namespaces import GRAPH, ONTOLOGY_GRAPH, SHAPES_GRAPH
from aikg.resources import seeds_dir
from aikg.store import Store, scratch_store
from aikg.store.terms import to_ox
from aikg.write import gate

if TYPE_CHECKING:
    from aikg.services import Services

EPOCH_GRAPHS = str(GRAPH["epoch/"])
"""Prefix of every graph the Epoch import writes."""

MAX_ROUNDS = 5
"""Validation rounds: rejecting a row can expose another (a node it made whole), so repeat a few times."""

class Progress(Protocol):
    """Anything with tqdm's ``reset(total=)`` and ``update(n)``: told the row count, then each row."""

    def reset(self, total: int | None = None) -> None: ...  # noqa: D102

    def update(self, n: float | None = 1) -> bool | None: ...  # noqa: D102


def default_directory() -> Path:
    """The snapshot kept in the project, imported on a fresh install."""
    return seeds_dir() / "epoch"


def default_overrides() -> Path:
    """The reconciliation overrides kept with the snapshot."""
    return default_directory() / "overrides.csv"


def present(directory: Path) -> list[Dataset]:
    """The known Epoch files found in ``directory``."""
    return [d for d in DATASETS if (directory / d.path).is_file()]


def import_epoch(services: Services, directory: Path, *, overrides: Path | None = None,
                 progress: Progress | None = None) -> ImportReport:
    """Import every known Epoch file of ``directory`` into its own graph; return what happened."""
    store = services.store
    if not directory.is_dir():
        raise BadRequest(f"{directory} is not a directory")
    datasets = present(directory)
    if not datasets:
        raise BadRequest(f"no Epoch AI file found in {directory} (expected e.g. {DATASETS[0].path})")
    report = ImportReport(missing=[d.path for d in DATASETS if d not in datasets])
    tables = {d.path: list(read_rows(directory / d.path)) for d in datasets}
    names: dict[str, set[str]] = {k: set() for k in KINDS}
    for d in datasets:
        for kind, found in d.names([r for _, r in tables[d.path]]).items():
            names[kind] |= found
    vendors = frozenset(normalize(n) for n in names["organization"])
    chosen = overrides if overrides is not None else default_overrides()
    reconciler = Reconciler(store, read_overrides(chosen), names, vendors)
    ctx = Context(Quads(), reconciler)
    if progress is not None:
        progress.reset(total=sum(len(t) for t in tables.values()))
    for d in datasets:
        graph = graph_of(d)
        for line, row in tables[d.path]:
            d.mapper(ctx, graph, (d.path, line), row, **dict(d.options))
            if progress is not None:
                progress.update(1)
        report.rows[d.path] = len(tables[d.path])
    rejected = _gate_rows(store, ctx.quads, datasets, report)
    quads = _final_quads(ctx.quads, rejected, datasets)
    _commit(services, datasets, quads)
    for d in datasets:
        report.imported[d.path] = report.rows[d.path] - len({r for r in rejected if r[0] == d.path})
        report.graphs[graph_of(d)] = sum(1 for q in quads if q.graph_name.value == graph_of(d))
    report.matches = sorted(reconciler.decisions.values(), key=lambda m: (m.kind, m.name))
    report.flags = [f for f in ctx.flags if (f.file, f.row) not in rejected]
    return report


def _final_quads(quads: Quads, rejected: set[RowKey], datasets: list[Dataset]) -> list[ox.Quad]:
    """The accepted rows' quads plus each dataset's catalogue entry, as Oxigraph quads."""
    out = [ox.Quad(to_ox(s), to_ox(p), to_ox(o), ox.NamedNode(g)) for s, p, o, g in quads.accepted(rejected)]  # type: ignore[arg-type]
    for d in datasets:
        g = ox.NamedNode(graph_of(d))
        out += [ox.Quad(to_ox(s), to_ox(p), to_ox(o), g) for s, p, o in catalog_triples(d)]
    return out


def _old_quads(store: Store, datasets: list[Dataset]) -> set[ox.Quad]:
    """What the datasets' graphs hold now (empty on a first import)."""
    old: set[ox.Quad] = set()
    for d in datasets:
        old |= set(store.quads(graph=graph_of(d)))
    return old


def _commit(services: Services, datasets: list[Dataset], quads: list[ox.Quad]) -> None:
    """Replace the datasets' graphs in ONE transaction through the gate's commit path (writer lock,
    write log, generated graphs kept consistent)."""
    new = set(quads)
    old = _old_quads(services.store, datasets)
    services.gate.commit(gate.Change("import", remove=old - new, add=new - old))


def _scratch(store: Store, quads: list[ox.Quad]) -> Store:
    """An in-memory copy of the store's data graphs, with the datasets' graphs as they would become."""
    scratch = scratch_store()
    skip = {str(SHAPES_GRAPH), str(ONTOLOGY_GRAPH), *GENERATED_GRAPHS}
    for g in store.graphs():
        if g not in skip and not g.startswith(EPOCH_GRAPHS):
            data = store.dump(mime="application/n-triples", graph=g)
            scratch.load(data, mime="application/n-triples", graph=g)
    scratch.apply(add=quads)
    return scratch


_LAST: dict[str, ValidationResult] = {}
"""The last full validation, by content hash: validation is a pure function of the data (shapes and
ontology fixed in a process), so an unchanged re-import in the same process reuses it."""


def _validate_all(store: Store, quads: list[ox.Quad]) -> ValidationResult:
    """Validate the store's data with the datasets' graphs as they would become, in one pass.

    One pySHACL pass over everything is far faster than validating thousands of focus nodes.
    """
    scratch = _scratch(store, quads)
    lines = sorted(scratch.dump(mime="application/n-quads").splitlines())
    key = hashlib.sha256(b"\n".join(lines)).hexdigest()
    if key not in _LAST:
        _LAST.clear()
        _LAST[key] = validate_store(scratch)
    return _LAST[key]


def _gate_rows(store: Store, quads: Quads, datasets: list[Dataset], report: ImportReport) -> set[RowKey]:
    """Validate the would-be data against the shapes; reject the rows behind every violating node.

    Later passes validate only the nodes that lost triples or links when rows were rejected, until
    nothing new breaks.
    """
    rejected: set[RowKey] = set()
    reasons: dict[RowKey, list[str]] = {}
    focus: set[URIRef] | None = None
    for _ in range(MAX_ROUNDS):
        final = _final_quads(quads, rejected, datasets)
        if focus is None:
            result = _validate_all(store, final)
        else:
            result = validate_store(_scratch(store, final), focus_nodes=focus)
        fresh: set[RowKey] = set()
        for v in result.violations:
            for row in quads.rows_of(v.focus_node) - rejected:
                where = v.path.rsplit("#", 1)[-1] if v.path else ""
                reason = f"{_short(v.focus_node)} {where}: {v.message}".replace(" :", ":")
                reasons.setdefault(row, []).append(reason)
                fresh.add(row)
        if not fresh:
            break
        before = {(q.subject, q.object) for q in final}
        rejected |= fresh
        after = {(q.subject, q.object) for q in _final_quads(quads, rejected, datasets)}
        gone = {s for s, _ in before - after}
        focus = {URIRef(s.value) for s, o in after
                 if (o in gone or s in gone) and isinstance(s, ox.NamedNode)}
        if not focus:
            break
    report.rejected = [Rejection(f, line, sorted(set(reasons[(f, line)]))) for f, line in sorted(reasons)]
    return rejected


def _short(iri: str) -> str:
    return iri.replace("https://w3id.org/aikg/id/", "id:")
