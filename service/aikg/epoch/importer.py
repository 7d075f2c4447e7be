"""The import pipeline: read, resolve, map, validate against the shapes, commit through the gate.

1. Each file's header is checked against the columns aikg reads and leaves out (warnings by name).
2. Names are resolved (:mod:`aikg.epoch.reconcile`), rows mapped into the graph of their file.
3. Each dataset is updated as the file says: a first import writes its graph; a file holding every row
   the dataset has (the same rows or more) replaces it; a **partial** file (some rows of the dataset
   missing) updates only its own rows, in a graph of its own with its own snapshot date, unless the
   caller asks to replace the dataset.
4. The store as it would be after the import is validated in one SHACL pass (shapes plus ontology, as
   every write); rows whose nodes break a shape are left out with the reason, and the valid rows are
   committed in one transaction through the gate's path for prepared changes (writer lock, write log,
   generated graphs), together with the resolution links and the import's record.

Re-running on the same files changes nothing but the import record.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pyoxigraph as ox
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import XSD

from aikg.epoch.catalog import catalog_triples, graph_of, update_graph
from aikg.epoch.columns import check_header, rename
from aikg.epoch.context import Context, Finding, Row
from aikg.epoch.datasets import DATASETS, Dataset
from aikg.epoch.mapping import Rejected
from aikg.epoch.overrides import Override, read_overrides
from aikg.epoch.reconcile import EPOCH_PREFIX, IMPORTS_GRAPH, KINDS, RESOLUTION_GRAPH, Decision, Reconciler
from aikg.epoch.record import IMPORT_BASE, record_quads, stale_quads
from aikg.epoch.report import FileReport, ImportReport
from aikg.epoch.rows import Quads, RowKey, read_table
from aikg.epoch.snapshot import MANIFEST, read_manifest, snapshot_of
from aikg.epoch.values import normalize, read_date
from aikg.errors import BadRequest, Conflict
from aikg.knowledge.derive import GENERATED_GRAPHS
from aikg.knowledge.figures import FIGURES, compare
from aikg.knowledge.validate import ValidationResult, validate_graph, validate_store
from aikg.namespaces import AIKG, ONTOLOGY_GRAPH, SHAPES_GRAPH
from aikg.resources import seeds_dir
from aikg.store import Store, scratch_store
from aikg.store.terms import graph_iri, rdf11_object, rdf11_subject, rdflib_triple, to_ox_quad
from aikg.write import gate

SMALL_CHANGE = 20_000
"""Quads changed up to which an import is validated around the nodes it touches, like any write."""
if TYPE_CHECKING:
    from aikg.services import Services

MAX_ROUNDS = 5
"""Validation rounds: rejecting a row can expose another (a node it made whole), so repeat a few times."""
ATTEMPTS = 3
"""Times the import is prepared again when a client write came in meanwhile."""
_NOT_DATA = {str(SHAPES_GRAPH), str(ONTOLOGY_GRAPH), *GENERATED_GRAPHS, IMPORTS_GRAPH}
AIKG_FILES = {"overrides.csv", MANIFEST}
"""aikg's own files in an Epoch directory (not Epoch's)."""


class Progress(Protocol):
    """Anything with tqdm's ``reset(total=)`` and ``update(n)``: told the row count, then each row."""

    def reset(self, total: int | None = None) -> None: ...  # noqa: D102

    def update(self, n: float | None = 1) -> bool | None: ...  # noqa: D102


def default_directory() -> Path:
    """The snapshot kept in the project, imported on a fresh install."""
    return seeds_dir() / "epoch"


def default_overrides() -> Path:
    """The reviewed resolution overrides kept with the snapshot."""
    return default_directory() / "overrides.csv"


def present(directory: Path) -> list[Dataset]:
    """The known Epoch files found in ``directory``."""
    return [d for d in DATASETS if (directory / d.path).is_file()]


def import_epoch(
    services: Services,
    directory: Path,
    *,
    overrides: Path | None = None,
    replace: bool = False,
    snapshot_date: str | None = None,
    progress: Progress | None = None,
) -> ImportReport:
    """Import every known Epoch file of ``directory``, each into the graph of its dataset; return what
    happened (also recorded in ``graph/imports``).

    The change is committed by the services' gate, the one commit path of the store (writer lock,
    write log, generated graphs in the same transaction); a client write that comes in while the import
    is prepared makes it prepare again against the new state, so nothing is lost either way."""
    store, committer = services.store, services.gate
    if not isinstance(committer, gate.Gate):
        raise TypeError("the Epoch import runs in the process that owns the store (the gate commits it)")
    if not directory.is_dir():
        raise BadRequest(f"{directory} is not a directory")
    datasets = present(directory)
    if not datasets:
        raise BadRequest(f"no Epoch AI file found in {directory} (expected e.g. {DATASETS[0].path})")
    chosen = overrides if overrides is not None else default_overrides()
    decided = read_overrides(chosen)
    for _ in range(ATTEMPTS):
        version = store.version
        prepared = _Prepared(store, directory, datasets, decided, replace, snapshot_date, progress)
        try:
            committer.commit(prepared.change(), expect_version=version, rebuild=prepared.large)
        except Conflict:
            continue
        return prepared.report
    raise Conflict("the store kept changing during the import; try again when writes are quieter")


@dataclass
class _Plan:
    """How one dataset changes: its file, rows and target graph, and what it removes."""

    dataset: Dataset
    rows: list[tuple[int, dict[str, str]]]
    report: FileReport
    existing: list[str] = field(default_factory=list)
    """The dataset's graphs in the store now (its graph and partial-update graphs)."""
    old_owned: dict[str, set[int]] = field(default_factory=dict)
    """node IRI -> (graph-qualified) rows that described it in the store."""

    @property
    def target(self) -> str:
        """The graph the file's rows go into."""
        if self.report.mode == "merged":
            return update_graph(self.dataset, self.report.snapshot)
        return graph_of(self.dataset)


class _Prepared:
    """One import worked out against the store as it is: the change to commit and the report."""

    def __init__(
        self,
        store: Store,
        directory: Path,
        datasets: list[Dataset],
        overrides: dict[tuple[str, str], Override],
        replace: bool,
        snapshot_date: str | None,
        progress: Progress | None,
    ) -> None:
        self.started = time.perf_counter()
        self.store = store
        now = dt.datetime.now(dt.UTC)
        self.report = ImportReport(
            id=IMPORT_BASE + now.strftime("%Y%m%dT%H%M%S%fZ"),
            started=now.isoformat(timespec="seconds"),
            directory=str(directory),
            missing=[d.path for d in DATASETS if d not in datasets],
            unknown_files=sorted(
                p.relative_to(directory).as_posix()
                for p in directory.rglob("*.csv")
                if p.relative_to(directory).as_posix() not in {d.path for d in DATASETS} | AIKG_FILES
            ),
        )
        manifest = read_manifest(directory)
        self.plans: list[_Plan] = []
        for d in datasets:
            table = read_table(directory / d.path)
            rows = table.rows
            snap = snapshot_of(directory, d.path, snapshot_date, manifest)
            file_report = FileReport(
                d.path, graph_of(d), snap.date, snap.basis, rows=len(rows) + len(table.misshapen)
            )
            self.report.findings += [
                Finding("rejected-row", d.path, why, row=line) for line, why in table.misshapen
            ]
            header = check_header(table.columns, d.reads, d.ignores)
            # An empty file has no header: one warning, not one per column it lacks.
            warnings = header.warnings() if table.columns else ["the file is empty: nothing was read from it"]
            file_report.warnings += warnings
            self.report.findings += [Finding("column", d.path, w) for w in warnings]
            self.plans.append(_Plan(d, [(n, rename(r, header.renamed)) for n, r in rows], file_report))
            self.report.files[d.path] = file_report
        self.reconciler = self._reconciler(store, overrides)
        self.ctx = Context(
            Quads(), self.reconciler, files={graph_of(p.dataset): p.dataset.path for p in self.plans}
        )
        self._map(progress)
        self._plan_updates(store, replace)
        rejected = self._validate()
        self._finish(rejected)

    # -- reading and mapping ----------------------------------------------------------------------

    def _reconciler(self, store: Store, overrides: dict[tuple[str, str], Override]) -> Reconciler:
        names: dict[str, list[tuple[str, str]]] = {k: [] for k in KINDS}
        vendors: set[str] = set()
        for plan in self.plans:
            cells = [r for _, r in plan.rows]
            for kind, found in plan.dataset.names(cells).items():
                names[kind] += [(n.strip(), graph_of(plan.dataset)) for n in found if n and n.strip()]
            if plan.dataset.stem == "ml-hardware":
                vendors |= {normalize(r.get("Manufacturer", "")) for r in cells} - {""}
        return Reconciler(store, dict(overrides), names, frozenset(vendors))

    def _map(self, progress: Progress | None) -> None:
        if progress is not None:
            progress.reset(total=sum(len(p.rows) for p in self.plans))
        for plan in self.plans:
            d = plan.dataset
            for line, cells in plan.rows:
                row = Row(self.ctx, d.path, graph_of(d), line, cells)
                try:
                    d.mapper(self.ctx, row, **dict(d.options))
                except Rejected as exc:
                    self.report.findings.append(Finding("rejected-row", d.path, str(exc), row=line))
                if progress is not None:
                    progress.update(1)
        self._flag_rows_that_disagree()
        self.report.findings += self.ctx.findings
        self.ctx.findings = []
        self.report.problems = list(self.reconciler.problems)

    def _flag_rows_that_disagree(self) -> None:
        """Flag a figure or date two rows of one file give differently for one node (a row repeated
        with another value, two spellings of one chip): both values are kept, as two sources' would
        be, and the node and the report say so (before, nothing did: the disagreement count compares
        sources, and these came from one)."""
        quads = self.ctx.quads
        values: dict[tuple[str, URIRef, URIRef, str], dict[Literal, set[RowKey]]] = defaultdict(dict)
        for (s, p, o, g), rows in quads.owners.items():
            if isinstance(o, Literal) and o.datatype in _COMPARED and p != AIKG.sourceRow:
                for row in rows:
                    values[(row[0], URIRef(s), p, g)].setdefault(o, set()).add(row)
        for (file, node, prop, graph), by_value in sorted(values.items()):
            if len(by_value) < 2:
                continue
            shown = sorted(by_value, key=str)
            if _numeric(shown) and all(
                compare(str(a), str(b)) != "disagreement" for a in shown for b in shown
            ):
                continue
            involved: list[RowKey] = sorted(set().union(*by_value.values()))
            name = str(prop).rsplit("#", 1)[-1]
            note = (
                f"rows {', '.join(str(r[1]) for r in involved)} of {file} give {name} as "
                f"{' and '.join(str(v) for v in shown)}: every value is kept"
            )
            for row in involved:
                quads.add(row, graph, node, AIKG.flag, Literal("rows-disagree"))
                quads.add(row, graph, node, AIKG.note, Literal(note, lang="en"))
            self.ctx.findings.append(
                Finding("flag", file, note, row=involved[0][1], node=str(node), rule="rows-disagree")
            )

    # -- how each dataset changes -----------------------------------------------------------------

    def _plan_updates(self, store: Store, replace: bool) -> None:
        graphs = store.graphs()
        malformed = {
            (f.file, f.row) for f in self.report.findings if f.kind == "rejected-row" and f.row is not None
        }
        for plan in self.plans:
            base = graph_of(plan.dataset)
            plan.existing = sorted(g for g in graphs if g == base or g.startswith(base + "/"))
            for g in plan.existing:
                for q in store.quads(None, ox.NamedNode(str(AIKG.sourceRow)), None, g):
                    row = hash((g, rdf11_object(q).value))
                    plan.old_owned.setdefault(rdf11_subject(q).value, set()).add(row)
            new_owned = {str(n) for n in self.ctx.quads.owned(plan.dataset.path, malformed)}
            # A node of a name several rows share is still there when the file has rows of that name:
            # its id changes with its cells, and one changed value made a complete newer file partial
            # and the old node a duplicate.
            shared = {_shared_name(n) for n in plan.old_owned} - {None}
            names = {_shared_name(n, numbered=True) or n for n in new_owned} & shared
            missing = {
                n for n in set(plan.old_owned) - new_owned if _shared_name(n, numbered=True) not in names
            }
            if not plan.existing:
                plan.report.mode = "new"
            elif replace or not missing:
                plan.report.mode = "replaced"
            else:
                plan.report.mode = "merged"
                rows_kept = {r for n in set(plan.old_owned) - new_owned for r in plan.old_owned[n]}
                plan.report.kept = len(rows_kept)
                plan.report.warnings.append(
                    f"partial file: {len(rows_kept)} rows of the dataset are not in it and were kept as they "
                    f"were; its rows went into a graph of their own ({plan.target}). Pass --replace to "
                    "replace the whole dataset with this file instead"
                )
                self._reject_unmatched(plan, malformed)

    def _reject_unmatched(self, plan: _Plan, malformed: set[RowKey]) -> None:
        """Reject the rows of a partial file that cannot be matched to one node of the dataset: rows of
        a name several rows share ("Anonymized Chinese System", 257 clusters) are told apart by their
        cells alone, so a row whose cells the store does not hold as they are could be any of them
        (before, such a row took the id of another cluster and overwrote it)."""
        digested = {_shared_name(n) for n in plan.old_owned} - {None}
        names = (_shared_name(n, numbered=True) or n for n in plan.old_owned)
        shared = Counter(name for name in names if name in digested)
        for row, nodes in sorted(self.ctx.quads.own.items()):
            if row[0] != plan.dataset.path or row in malformed:
                continue
            for node in map(str, nodes):
                name = _shared_name(node) or node
                if name in shared and not (_shared_name(node) and node in plan.old_owned):
                    why = (
                        f"{_short(name)} names {shared[name]} rows of this dataset, told apart only "
                        "by their values: a partial file cannot tell which one this row updates (import "
                        "the complete file, or pass --replace)"
                    )
                    self.report.findings.append(Finding("rejected-row", row[0], why, row=row[1]))
                    break

    def _removals(self, rejected: set[RowKey]) -> tuple[set[ox.Quad], set[str]]:
        """What the import takes out of the store: replaced datasets' graphs, a partial file's own rows
        in the dataset's other graphs, the old resolution links of the names it decided again."""
        remove: set[ox.Quad] = set()
        touched: set[str] = {RESOLUTION_GRAPH}
        for plan in self.plans:
            if plan.report.mode == "replaced":
                for g in plan.existing:
                    remove |= self._graph(g)
                    touched.add(g)
            elif plan.report.mode == "merged":
                owned = {ox.NamedNode(str(n)) for n in self.ctx.quads.owned(plan.dataset.path, rejected)}
                for g in plan.existing:
                    quads = self._graph(g)
                    remove |= quads if g == plan.target else {q for q in quads if q.subject in owned}
                    touched.add(g)
            touched.add(plan.target)
        decided = {ox.NamedNode(d.iri) for d in self.reconciler.all_decisions()}
        remove |= {q for q in self._graph(RESOLUTION_GRAPH) if q.subject in decided or q.object in decided}
        return remove, touched

    def _graph(self, graph: str) -> set[ox.Quad]:
        cache: dict[str, set[ox.Quad]] = self.__dict__.setdefault("_graphs", {})
        if graph not in cache:
            cache[graph] = set(_quads_of(self.store, graph))
        return cache[graph]

    def _additions(self, rejected: set[RowKey]) -> set[ox.Quad]:
        targets = {graph_of(p.dataset): p.target for p in self.plans}
        out = {
            to_ox_quad(s, p, o, ox.NamedNode(targets.get(g, g)))
            for s, p, o, g in self.ctx.quads.accepted(rejected)
        }
        for plan in self.plans:
            g = ox.NamedNode(plan.target)
            partial = plan.report.mode == "merged"
            imported = plan.report.rows - len({r for r in rejected if r[0] == plan.dataset.path})
            out |= {
                to_ox_quad(s, p, o, g)
                for s, p, o in catalog_triples(
                    plan.dataset, snapshot=plan.report.snapshot, partial=partial, rows=imported
                )
            }
        return out

    # -- validation -------------------------------------------------------------------------------

    def _validate(self) -> set[RowKey]:
        """Validate the would-be data; reject the rows behind every violating node, a few rounds.

        A change touching a small part of the store (a partial file, a newer file) is validated as every
        write is, on the touched nodes' neighbourhood; a large one (a first import) in one pass over
        everything, which is far faster than thousands of focus nodes.
        """
        rejected = {(f.file, f.row or 0) for f in self.report.findings if f.kind == "rejected-row"}
        reasons: dict[RowKey, list[str]] = {}
        focus: set[URIRef] | None = None
        quads = self.ctx.quads
        for _ in range(MAX_ROUNDS):
            change = self._delta(rejected)
            if focus is None and len(change.add) + len(change.remove) <= SMALL_CHANGE:
                result, _ = gate.validate_change(self.store, change)
            elif focus is None:
                result = _validate_all(self._scratch(rejected))
            else:
                result = _validate_around(self._scratch(rejected), focus)
            fresh: set[RowKey] = set()
            for v in result.violations:
                for row in quads.rows_of(v.focus_node) - rejected:
                    where = v.path.rsplit("#", 1)[-1] if v.path else ""
                    reason = f"{_short(v.focus_node)} {where}: {v.message}".replace(" :", ":")
                    reasons.setdefault(row, []).append(reason)
                    fresh.add(row)
            if not fresh:
                break
            before = self._additions(rejected)
            rejected |= fresh
            after = self._additions(rejected)
            gone = {q.subject for q in before - after}
            focus = {
                URIRef(q.subject.value)
                for q in after
                if (q.subject in gone or q.object in gone) and isinstance(q.subject, ox.NamedNode)
            }
            focus |= {URIRef(s.value) for s in gone if isinstance(s, ox.NamedNode)}
            if not focus:
                break
        for (file, line), why in sorted(reasons.items()):
            for reason in sorted(set(why)):
                self.report.findings.append(Finding("rejected-row", file, reason, row=line))
        self.scratch = self._scratch(rejected)
        return rejected

    def _delta(self, rejected: set[RowKey]) -> gate.Change:
        """The import's data change against the store as it is (the record not included)."""
        remove, _ = self._removals(rejected)
        add = self._additions(rejected)
        delta_add = add - remove
        return gate.Change("import", remove=remove - add, add=delta_add - self._present(delta_add))

    def _scratch(self, rejected: set[RowKey]) -> Store:
        """An in-memory copy of the store's data as it would be after the import."""
        remove, _ = self._removals(rejected)
        base = self.__dict__.get("_base")
        if base is None:
            base = self._base = [
                q for g in self.store.graphs() if g not in _NOT_DATA for q in _quads_of(self.store, g)
            ]
        scratch = scratch_store()
        scratch.apply(add=[q for q in base if q not in remove])
        scratch.apply(add=self._additions(rejected))
        return scratch

    # -- the change and the report ------------------------------------------------------------------

    def _finish(self, rejected: set[RowKey]) -> None:
        remove, _ = self._removals(rejected)
        add = self._additions(rejected)
        by_file = {p.dataset.path: p for p in self.plans}
        for plan in self.plans:
            r = plan.report
            r.graph = plan.target
            r.rejected = len({row for row in rejected if row[0] == plan.dataset.path})
            r.imported = r.rows - r.rejected
            dated = self._dated_after(plan)
            if dated:
                r.warnings.append(
                    f"{dated} rows are dated after the file's snapshot date {r.snapshot}: "
                    "the snapshot date is too early (pass --snapshot-date)"
                )
        self._decision_findings(by_file)
        self._disagreements(by_file)
        self.report.seconds = time.perf_counter() - self.started
        ended = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        record = set(record_quads(self.report, ended))
        stale = stale_quads(self.store)
        delta_remove, delta_add = remove - add, add - remove
        delta_add -= self._present(delta_add)
        if not delta_remove and not delta_add:
            for plan in self.plans:
                plan.report.mode = "unchanged"
        delta_remove |= stale
        delta_add |= record
        self.large = len(delta_add) + len(delta_remove) > 20_000
        self._change = gate.Change("import", remove=delta_remove, add=delta_add)

    def _present(self, quads: set[ox.Quad]) -> set[ox.Quad]:
        """Which of ``quads`` the store already holds (so the change adds only what is new)."""
        graphs: dict[str, set[ox.Quad]] = defaultdict(set)
        for q in quads:
            graphs[graph_iri(q)].add(q)
        out: set[ox.Quad] = set()
        for g, qs in graphs.items():
            if g in self.store.graphs():
                out |= qs & self._graph(g)
        return out

    def change(self) -> gate.Change:
        """The change to commit (computed against the store version the import started from)."""
        return self._change

    def _dated_after(self, plan: _Plan) -> int:
        column = plan.dataset.published
        if column is None:
            return 0
        dates = (str(read_date(cells.get(column)).value or "") for _, cells in plan.rows)
        return sum(1 for d in dates if d[:10] > plan.report.snapshot)

    def _decision_findings(self, by_file: dict[str, _Plan]) -> None:
        files = self.ctx.files
        for d in self.reconciler.all_decisions():
            file = files.get(d.file, d.file)
            plan = by_file.get(file)
            if plan is None:
                continue
            if d.status == "created":
                plan.report.created += 1
            elif d.status == "matched":
                plan.report.merges += 1
                self.report.findings.append(_decision_finding("merge", d, file))
            elif d.status == "ambiguous":
                plan.report.ambiguities += 1
                self.report.findings.append(_decision_finding("ambiguity", d, file))
            if d.status in ("created", "kept") and len(d.spellings) > 1:
                plan.report.merges += 1
                finding = _decision_finding("merge", d, file)
                finding.rule = "same name: " + " / ".join(repr(s) for s in sorted(d.spellings))
                self.report.findings.append(finding)
            for s, p, o in d.links:
                plan.report.links += 1
                self.report.findings.append(
                    Finding(
                        "link",
                        file,
                        f"{_short(s)} {_short(p)} {_short(o)}",
                        node=s,
                        name=d.name,
                        entity_kind=d.kind,
                        link=(p, o),
                        rule=d.rule,
                    )
                )
        self.report.decisions = self.reconciler.all_decisions()

    def _disagreements(self, by_file: dict[str, _Plan]) -> None:
        """Count, per file, the figures another source gives differently: rounding or a disagreement."""
        graphs = {p.target: p for p in self.plans}
        values = _figure_values(self.scratch)
        for (_node, _prop), by_value in values.items():
            distinct = sorted(by_value, key=lambda v: (float(v), v))
            for i, a in enumerate(distinct):
                for b in distinct[i + 1 :]:
                    ga, gb = by_value[a], by_value[b]
                    if ga == gb and len(ga) == 1:
                        continue
                    kind = compare(a, b)
                    for g in {*ga, *gb} & set(graphs):
                        if (ga | gb) - {g}:
                            plan = graphs[g]
                            if kind == "rounding":
                                plan.report.rounding += 1
                            else:
                                plan.report.disagreements += 1


def _decision_finding(kind: str, d: Decision, file: str) -> Finding:
    message = f"{d.kind} {d.name!r} -> {_short(d.iri)} ({d.rule})"
    return Finding(
        kind,
        file,
        message,
        node=d.iri,
        name=d.name,
        entity_kind=d.kind,
        candidates=list(d.candidates),
        rule=d.rule,
    )


def _figure_values(store: Store) -> dict[tuple[str, str], dict[str, set[str]]]:
    """(node, property) -> value -> graphs stating it, for the compared figures; a system's memory per
    chip counts as a value of its chips' (the document's GB300 NVL72 HBM is the GB300's)."""
    props = " ".join(f"<{p}>" for p in FIGURES)
    text = f"""
        SELECT ?node ?p ?value ?g WHERE {{
          VALUES ?p {{ {props} }}
          {{ GRAPH ?g {{ ?node ?p ?value }} }}
          UNION
          {{ GRAPH ?g {{ ?system <{AIKG.memoryPerChip}> ?value }} ?system <{AIKG.usesAccelerator}> ?node
             BIND (<{AIKG.memoryPerChip}> AS ?p) }}
        }}"""
    out: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for node, p, value, g in store.query(text).rows:
        if node is None or p is None or value is None or g is None:
            continue
        try:
            number = Decimal(value.value)
        except InvalidOperation:
            continue
        if g.value in GENERATED_GRAPHS:
            continue
        out[(node.value, p.value)][_canonical(number)].add(g.value)
    return {k: v for k, v in out.items() if len(v) > 1}


def _canonical(value: Decimal) -> str:
    from .values import plain

    return plain(value)


_LAST: dict[str, ValidationResult] = {}
"""The last full validation, by content hash: validation is a pure function of the data (shapes and
ontology fixed in a process), so an unchanged re-import in the same process reuses it."""


_COMPARED = frozenset({XSD.decimal, XSD.integer, XSD.double, XSD.date, XSD.gYearMonth, XSD.gYear})
"""Datatypes of the values two rows of one file are compared on (figures, counts and dates)."""


def _numeric(values: list[Literal]) -> bool:
    """Whether every value is a number (numbers are compared with the rounding tolerance)."""
    return all(v.datatype in (XSD.decimal, XSD.integer, XSD.double) for v in values)


_DIGEST = re.compile(r"^(.*)-[0-9a-f]{6}$")
_NUMBERED = re.compile(r"^(.*)-(?:[0-9a-f]{6}|\d+)$")


def _shared_name(iri: str, *, numbered: bool = False) -> str | None:
    """For the node of a row whose name other rows share (``Context.row_node`` tells them apart by a
    digest of their cells, ``…/cluster-anonymized-chinese-system-e75b18``, and rows equal in those
    cells by a number, ``…-2``), the id of that name; otherwise None. A number may also end a name of
    its own ("xAI Colossus 2"): a caller counting numbers checks that the name has digests too."""
    m = (_NUMBERED if numbered else _DIGEST).match(iri)
    return m.group(1) if m else None


def _validate_all(scratch: Store) -> ValidationResult:
    """Validate the would-be data in one pass (far faster than thousands of focus nodes)."""
    lines = sorted(scratch.dump(mime="application/n-quads").splitlines())
    key = hashlib.sha256(b"\n".join(lines)).hexdigest()
    if key not in _LAST:
        _LAST.clear()
        _LAST[key] = validate_store(scratch)
    return _LAST[key]


def _quads_of(store: Store, graph: str) -> Iterable[ox.Quad]:
    """The quads of one graph as Oxigraph quads (read straight from the embedded store)."""
    return store.quads(graph=graph)


def _validate_around(scratch: Store, focus: set[URIRef]) -> ValidationResult:
    """Validate ``focus`` over its neighbourhood in ``scratch``: the nodes' statements and those of the
    nodes they link to (what sh:class needs), as the gate does for a write."""
    nodes = {ox.NamedNode(str(n)) for n in focus}
    data = [q for n in nodes for q in scratch.quads(n)]
    linked = {q.object for q in data if isinstance(q.object, ox.NamedNode)} - nodes
    data += [q for n in linked for q in scratch.quads(n)]
    graph = Graph()
    for q in data:
        graph.add(rdflib_triple(q))
    return validate_graph(graph, focus_nodes=focus)


def _short(iri: str) -> str:
    return iri.replace("https://w3id.org/aikg/id/", "id:").replace("https://w3id.org/aikg/ontology#", "aikg:")


def iter_graphs(store: Store) -> Iterable[str]:
    """The Epoch graphs of the store."""
    return (g for g in store.graphs() if g.startswith(EPOCH_PREFIX))
