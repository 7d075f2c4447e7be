"""The import pipeline: read, reconcile, map, validate through the SHACL gate, commit, rebuild derived.

Rows whose nodes break a shape are reported and left out; the valid rows are committed. Re-running
replaces the datasets' graphs: the same files give the same quads (idempotent).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyoxigraph as ox

from .. import gate
from ..errors import BadRequest
from ..knowledge.layout import seeds_dir
from ..store import Store
from ..store.terms import to_ox
from .catalog import catalog_triples, graph_of
from .mapping import DATASETS, Context, Dataset
from .reconcile import KINDS, Reconciler, read_overrides
from .report import ImportReport, Rejection
from .rows import Quads, RowKey, read_rows

MAX_ROUNDS = 5
"""Validation rounds: rejecting a row can expose another (a node it made whole), so repeat a few times."""

Progress = Callable[[int], None]


def default_directory() -> Path:
    """The snapshot kept in the project, imported on a fresh install."""
    return seeds_dir() / "epoch"


def default_overrides() -> Path:
    """The reconciliation overrides kept with the snapshot."""
    return default_directory() / "overrides.csv"


def present(directory: Path) -> list[Dataset]:
    """The known Epoch files found in ``directory``."""
    return [d for d in DATASETS if (directory / d.path).is_file()]


def import_epoch(store: Store, directory: Path, *, overrides: Path | None = None,
                 progress: Progress | None = None) -> ImportReport:
    """Import every known Epoch file of ``directory`` into its own graph; return what happened."""
    if not directory.is_dir():
        raise BadRequest(f"{directory} is not a directory")
    datasets = present(directory)
    if not datasets:
        raise BadRequest(f"no Epoch AI file found in {directory} (expected e.g. "
                         f"{DATASETS[0].path})")
    report = ImportReport(missing=[d.path for d in DATASETS if d not in datasets])
    tables = {d.path: list(read_rows(directory / d.path)) for d in datasets}
    names: dict[str, set[str]] = {k: set() for k in KINDS}
    for d in datasets:
        for kind, found in d.names([r for _, r in tables[d.path]]).items():
            names[kind] |= found
    vendors = frozenset(n.lower() for n in names["organization"])
    reconciler = Reconciler(store, read_overrides(overrides if overrides is not None else default_overrides()),
                            names, vendors)
    ctx = Context(Quads(), reconciler)
    for d in datasets:
        graph = graph_of(d)
        for line, row in tables[d.path]:
            d.mapper(ctx, graph, (d.path, line), row, **dict(d.options))
            if progress is not None:
                progress(1)
        report.rows[d.path] = len(tables[d.path])
    rejected = _gate_rows(store, ctx.quads, datasets, report)
    quads = _final_quads(ctx.quads, rejected, datasets)
    outcome = gate.write(store, lambda: _change(store, datasets, quads))
    del outcome
    for d in datasets:
        report.imported[d.path] = report.rows[d.path] - len({r for r in rejected if r[0] == d.path})
        report.graphs[graph_of(d)] = sum(1 for q in quads if q.graph_name.value == graph_of(d))
    report.matches = sorted(reconciler.decisions.values(), key=lambda m: (m.kind, m.name))
    report.flags = [f for f in ctx.flags if (f.file, f.row) not in rejected]
    return report


def _final_quads(quads: Quads, rejected: set[RowKey], datasets: list[Dataset]) -> list[ox.Quad]:
    out = [ox.Quad(to_ox(s), to_ox(p), to_ox(o), ox.NamedNode(g)) for s, p, o, g in quads.accepted(rejected)]
    for d in datasets:
        g = ox.NamedNode(graph_of(d))
        out += [ox.Quad(to_ox(s), to_ox(p), to_ox(o), g) for s, p, o in catalog_triples(d)]
    return out


def _change(store: Store, datasets: list[Dataset], quads: list[ox.Quad]) -> gate.Change:
    """Replace every imported dataset's graph with its new content, as one change."""
    new = set(quads)
    old: set[ox.Quad] = set()
    for d in datasets:
        old |= set(gate._pattern(store, graph=graph_of(d)))
    return gate.Change("import", remove=old - new, add=new - old)


def _gate_rows(store: Store, quads: Quads, datasets: list[Dataset], report: ImportReport) -> set[RowKey]:
    """Validate the would-be graphs with the gate; reject the rows behind every violating node."""
    rejected: set[RowKey] = set()
    reasons: dict[RowKey, list[str]] = {}
    for _ in range(MAX_ROUNDS):
        change = _change(store, datasets, _final_quads(quads, rejected, datasets))
        result, _validated = gate.validate_change(store, change)
        if result.conforms:
            break
        new_rows = False
        for v in result.violations:
            for row in quads.rows_of(v.focus_node) - rejected:
                where = v.path.rsplit("#", 1)[-1] if v.path else ""
                reasons.setdefault(row, []).append(f"{_short(v.focus_node)} {where}: {v.message}".replace(" :", ":"))
                new_rows = True
        rejected |= set(reasons)
        if not new_rows:
            break
    report.rejected = [Rejection(f, line, sorted(set(reasons[(f, line)]))) for f, line in sorted(reasons)]
    return rejected


def _short(iri: str) -> str:
    return iri.replace("https://w3id.org/aikg/id/", "id:")
