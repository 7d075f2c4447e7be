"""The import pipeline: read, resolve, map, merge in snapshot order, validate, commit through the gate.

1. Each file's header is lined up with the columns aikg reads and leaves out, through the table of known
   spellings (:mod:`aikg.epoch.columns`); a header that only resembles a known column is proposed, and
   the import waits for a decision. Each file's snapshot date is found (:mod:`aikg.epoch.snapshot`).
2. Names are resolved (:mod:`aikg.epoch.reconcile`), rows mapped into the graph of their file.
3. Each file updates its dataset value by value in the order of the snapshots
   (:mod:`aikg.epoch.merge`): nothing is erased because a file lacks it, an older snapshot never
   overwrites a newer one, a replaced value is kept as history (:mod:`aikg.epoch.history`).
4. The store as it would be after the import is validated against the shapes (and the ontology, as
   every write); rows whose nodes break a shape are left out with the reason, a few rounds. The change
   is committed whole in one transaction through the gate's path for prepared changes (writer lock,
   write log, generated graphs), with the history records and the import's record and diff — or, for a
   dry run or an import waiting for a decision, not at all: the report is the same either way.

Re-running on the same files changes nothing but the import record.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import re
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pyoxigraph as ox
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import XSD

from aikg.epoch.catalog import PUBLISHER, catalog_triples, document_of, graph_of, update_graph
from aikg.epoch.columns import check_header, read_spellings, rename
from aikg.epoch.context import Context, Finding, Rejected, Row
from aikg.epoch.datasets import DATASETS, Dataset
from aikg.epoch.dates import date_orders
from aikg.epoch.duplicates import is_duplicate_quad, mark_duplicates, rounds_of_import, rounds_of_store
from aikg.epoch.history import HISTORY_GRAPH, StatedValue, not_restated, value_of
from aikg.epoch.links import link_rows
from aikg.epoch.mapping import map_datacenter, map_model
from aikg.epoch.merge import DatasetState, Merged, canonical, merge
from aikg.epoch.names import Name, is_name_quad, name_quads, read_names
from aikg.epoch.overrides import Override, RoundDecision, read_overrides, read_round_decisions
from aikg.epoch.reconcile import EPOCH_PREFIX, IMPORTS_GRAPH, KINDS, RESOLUTION_GRAPH, Decision, Reconciler
from aikg.epoch.record import IMPORT_BASE, folder_sha256, record_quads, stale_quads
from aikg.epoch.report import Disagreement, FileReport, ImportReport
from aikg.epoch.rows import Quads, RowKey, read_table
from aikg.epoch.snapshot import MANIFEST, check_order, newest_modified, read_manifest, snapshot_of
from aikg.epoch.values import normalize, read_date, tagged_list
from aikg.errors import BadRequest, Conflict
from aikg.knowledge import incremental
from aikg.knowledge.derive import GENERATED_GRAPHS
from aikg.knowledge.figures import FIGURES, compare
from aikg.knowledge.validate import ValidationResult, validate_graph, validate_store
from aikg.namespaces import AIKG, DERIVED_GRAPH, ID, ONTOLOGY_GRAPH, RDFS_NODES, SHAPES_GRAPH
from aikg.resources import seeds_dir
from aikg.store import Store, scratch_store
from aikg.store.terms import graph_iri, rdflib_triple, to_ox_quad
from aikg.write import gate

if TYPE_CHECKING:
    from aikg.services import Services

SMALL_CHANGE = 20_000
"""Quads changed up to which an import is validated around the nodes it touches, like any write; a larger
one (a first import) is validated whole, on a copy of the store as it would be."""
MAX_ROUNDS = 5
"""Validation rounds: rejecting a row can expose another (a node it made whole), so repeat a few times."""
ATTEMPTS = 3
"""Times the import is prepared again when a client write came in meanwhile."""
_NOT_DATA = {str(SHAPES_GRAPH), str(ONTOLOGY_GRAPH), *GENERATED_GRAPHS, IMPORTS_GRAPH, HISTORY_GRAPH}
AIKG_FILES = {"overrides.csv", "names.csv", "columns.csv", MANIFEST}
"""aikg's own files in an Epoch directory (not Epoch's)."""
_SOURCE_ROW = ox.NamedNode(str(AIKG.sourceRow))


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


def default_names() -> Path:
    """The names of Epoch's entities in other languages, kept with the snapshot (:mod:`aikg.epoch.names`)."""
    return default_directory() / "names.csv"


def present(directory: Path) -> list[tuple[Dataset, Path]]:
    """The known Epoch files found in ``directory``: at their place in the snapshot's layout, or else
    anywhere below it under their own file name when only one file has it (a folder of Epoch's files
    downloaded side by side)."""
    csvs = [p for p in directory.rglob("*.csv") if p.is_file()]
    by_name: dict[str, list[Path]] = defaultdict(list)
    for p in csvs:
        by_name[p.name].append(p)
    out = []
    for d in DATASETS:
        path = directory / d.path
        if path.is_file():
            out.append((d, path))
        elif len(by_name.get(Path(d.path).name, [])) == 1:
            out.append((d, by_name[Path(d.path).name][0]))
    return out


def import_epoch(
    services: Services,
    directory: Path,
    *,
    overrides: Path | None = None,
    replace: bool = False,
    snapshot_date: str | None = None,
    progress: Progress | None = None,
    dry_run: bool = False,
    force: bool = False,
    mapped: Mapping[str, str] | None = None,
    source: str | None = None,
) -> ImportReport:
    """Import every known Epoch file of ``directory``, each into the graphs of its dataset; return what
    happened (also recorded in ``graph/imports``), or with ``dry_run`` what would happen.

    An import that would leave out values the file gives under a header resembling a known column waits
    for a decision: nothing is written unless ``force`` (or ``mapped``, {header: known column}, maps
    it). The change is committed by the services' gate, the one commit path of the store (writer lock,
    write log, generated graphs in the same transaction); a client write that comes in while the import
    is prepared makes it prepare again against the new state, so nothing is lost either way. ``source``
    names where the files came from in the record (an upload), when not ``directory``."""
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
    round_decisions = read_round_decisions(chosen)
    names = read_names(default_names())
    for _ in range(ATTEMPTS):
        version = store.version
        prepared = _Prepared(
            store,
            directory,
            datasets,
            decided,
            replace,
            snapshot_date,
            progress,
            dict(mapped or {}),
            source,
            names,
            round_decisions,
        )
        report = prepared.report
        report.dry_run = dry_run
        if not force:
            report.waiting = [p.text() for plan in prepared.plans for p in plan.header_proposals]
        if dry_run or report.waiting or report.refused:
            report.written = False
            return report
        try:
            committer.commit(prepared.change(), expect_version=version, rebuild=prepared.large)
        except Conflict:
            continue
        report.written = True
        return report
    raise Conflict("the store kept changing during the import; try again when writes are quieter")


@dataclass
class _Plan:
    """How one file changes its dataset: its rows, snapshot, target graph and the dataset as stored."""

    dataset: Dataset
    rows: list[tuple[int, dict[str, str]]]
    report: FileReport
    state: DatasetState
    header_proposals: list = field(default_factory=list)  # type: ignore[type-arg]
    target: str = ""
    withdrawn: set[str] = field(default_factory=set)
    """Nodes of the dataset this file takes out (their values become history)."""
    old_owned: set[str] = field(default_factory=set)
    """Nodes the dataset's rows describe in the store (they have an aikg:sourceRow)."""
    rows_of: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Stored node -> (graph, row) of the newest row describing it."""

    @property
    def base(self) -> str:
        """The dataset's first graph (the one the mapping writes into)."""
        return graph_of(self.dataset)

    @property
    def doc(self) -> str:
        """The dataset's catalogue entry."""
        return str(document_of(self.dataset))


class _Prepared:
    """One import worked out against the store as it is: the change to commit and the report."""

    def __init__(
        self,
        store: Store,
        directory: Path,
        datasets: list[tuple[Dataset, Path]],
        overrides: dict[tuple[str, str], Override],
        replace: bool,
        snapshot_date: str | None,
        progress: Progress | None,
        mapped: dict[str, str],
        source: str | None = None,
        names: list[Name] | None = None,
        round_decisions: list[RoundDecision] | None = None,
    ) -> None:
        self.started = time.perf_counter()
        self.store = store
        self.replace = replace
        now = dt.datetime.now(dt.UTC)
        found = {p for _, p in datasets}
        self.report = ImportReport(
            id=IMPORT_BASE + now.strftime("%Y%m%dT%H%M%S%fZ"),
            started=now.isoformat(timespec="microseconds"),  # two imports in one second stay in order
            directory=source or str(directory),
            sha256=folder_sha256(directory),
            missing=[d.path for d in DATASETS if d.path not in {x.path for x, _ in datasets}],
            unknown_files=sorted(
                p.relative_to(directory).as_posix()
                for p in directory.rglob("*.csv")
                if p not in found and p.relative_to(directory).as_posix() not in AIKG_FILES
            ),
        )
        manifest = read_manifest(directory)
        spellings = read_spellings()
        self.plans: list[_Plan] = []
        orders: dict[tuple[str, str], str] = {}
        for d, path in datasets:
            table = read_table(path)
            header = check_header(
                table.columns, d.reads, d.ignores, path=d.path, spellings=spellings, mapped=mapped
            )
            rows = [(n, rename(r, header.renamed)) for n, r in table.rows]
            modified = newest_modified(r.get("Last modified", "") for _, r in rows)
            snap = snapshot_of(directory, d.path, snapshot_date, manifest, modified=modified, path=path)
            state = self._state(d)
            check_order(d.path, snap, state.latest)
            file_report = FileReport(
                d.path, graph_of(d), snap.date, snap.basis, rows=len(rows) + len(table.misshapen)
            )
            file_report.latest_before = state.latest
            if path != directory / d.path:
                file_report.warnings.append(f"read from {path.relative_to(directory).as_posix()}")
            self.report.findings += [
                Finding("rejected-row", d.path, why, row=line) for line, why in table.misshapen
            ]
            # An empty file has no header: one warning, not one per column it lacks.
            warnings = header.warnings() if table.columns else ["the file is empty: nothing was read from it"]
            file_report.warnings += warnings
            self.report.findings += [Finding("column", d.path, w) for w in warnings]
            found_orders, date_findings = date_orders(d.path, rows)
            orders |= {(d.path, c): o for c, o in found_orders.items()}
            file_report.warnings += [f.message for f in date_findings if f.kind == "column"]
            self.report.findings += date_findings
            plan = _Plan(d, rows, file_report, state, list(header.proposals) if table.columns else [])
            self.plans.append(plan)
            self.report.files[d.path] = file_report
        self.ctx_orders = orders
        self.reconciler = self._reconciler(store, overrides)
        self.ctx = Context(
            Quads(),
            self.reconciler,
            files={graph_of(p.dataset): p.dataset.path for p in self.plans},
            date_orders=orders,
        )
        self._map(progress)
        self._names = self._given_names(names or [])
        self._stored_rows()
        self._match_rows()
        self._mark_duplicate_rounds(round_decisions or [])
        self._plan_updates()
        rejected = self._validate()
        self._finish(rejected)

    # -- the dataset as stored --------------------------------------------------------------------

    def _state(self, d: Dataset) -> DatasetState:
        base = graph_of(d)
        graphs = [g for g in self.store.graphs() if g == base or g.startswith(base + "/")]
        quads = {g: set(self.store.quads(graph=g)) for g in graphs}
        dates: dict[str, str] = {}
        catalog = {str(PUBLISHER)}
        issued = "http://purl.org/dc/terms/issued"
        named = str(AIKG.namedGraph)
        for g, qs in quads.items():
            docs = {q.subject for q in qs if q.predicate.value == named and value_of(q.object) == g}
            catalog |= {value_of(doc) for doc in docs}
            for q in qs:
                if q.subject in docs and q.predicate.value == issued:
                    dates[g] = value_of(q.object)[:10]
            dates.setdefault(g, "0001-01-01")  # a graph without its catalogue entry: older than any
        doc = str(document_of(d))
        return DatasetState(base, dates, quads, frozenset(catalog), not_restated(self.store, doc))

    # -- reading and mapping ----------------------------------------------------------------------

    def _reconciler(self, store: Store, overrides: dict[tuple[str, str], Override]) -> Reconciler:
        names: dict[str, list[tuple[str, str]]] = {k: [] for k in KINDS}
        vendors: set[str] = set()
        stable: dict[tuple[str, str], set[tuple[frozenset[str], str]]] = defaultdict(set)
        for plan in self.plans:
            cells = [r for _, r in plan.rows]
            for kind, found in plan.dataset.names(cells).items():
                names[kind] += [(n.strip(), graph_of(plan.dataset)) for n in found if n and n.strip()]
            if plan.dataset.stem == "ml-hardware":
                vendors |= {normalize(r.get("Manufacturer", "")) for r in cells} - {""}
            if plan.dataset.mapper is map_datacenter:
                for r in cells:
                    address = normalize(r.get("Address", ""))
                    stable[(graph_of(plan.dataset), normalize(r.get("Handle", "")))].add(
                        (frozenset(), address)
                    )
            if plan.dataset.mapper is map_model:
                order = self.ctx_orders.get((plan.dataset.path, "Publication date"))
                for r in cells:
                    orgs = frozenset(normalize(t.name) for t in tagged_list(r.get("Organization")))
                    date = str(read_date(r.get("Publication date"), order).value or "")[:10]
                    stable[(graph_of(plan.dataset), normalize(r.get("Model", "")))].add((orgs, date))
        return Reconciler(store, dict(overrides), names, frozenset(vendors), dict(stable))

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
        link_rows(self.ctx, self._stored_names())
        self._flag_rows_that_disagree()
        self.report.findings += self.ctx.findings
        self.ctx.findings = []
        self.report.problems = list(self.reconciler.problems)

    def _given_names(self, names: list[Name]) -> set[ox.Quad]:
        """The names of names.csv, each given to the node its Epoch name resolves to (in this import or
        an earlier one); a name resolving to several nodes is reported, not guessed."""

        exact = self.reconciler.exact
        quads, problems = name_quads(
            names, lambda kind, name: set(exact.get(kind, {}).get(normalize(name), ()))
        )
        self.report.problems += problems
        return quads

    def _mark_duplicate_rounds(self, decisions: list[RoundDecision]) -> None:
        """The funding rounds overrides.csv says a row lists twice, linked to the round they repeat
        (:mod:`aikg.epoch.duplicates`), once the rows have their stored ids."""
        mine = rounds_of_import(self.ctx.quads)
        self._rounds_imported = bool(mine)
        self.report.problems += mark_duplicates(decisions, mine, rounds_of_store(self.store), self.ctx.quads)

    def _stored_names(self) -> dict[str, dict[str, set[URIRef]]]:
        """Per file, the labels of the row nodes its dataset holds in the store (the clusters a partial
        file's links may name)."""
        out: dict[str, dict[str, set[URIRef]]] = {}
        for plan in self.plans:
            quads = [q for qs in plan.state.quads.values() for q in qs]
            rows = {q.subject for q in quads if q.predicate == _SOURCE_ROW}
            named: dict[str, set[URIRef]] = defaultdict(set)
            for q in quads:
                if q.subject in rows and q.predicate == RDFS_NODES.label:
                    named[normalize(value_of(q.object))].add(URIRef(value_of(q.subject)))
            out[plan.dataset.path] = named
        return out

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

    def _plan_updates(self) -> None:
        """Each file's mode (new, newer, same or older snapshot), target graph, and the nodes it takes
        out of its dataset: rows of a name several rows share that a newer file with all of that name's
        rows no longer has, or every missing row when asked to replace the dataset."""
        malformed = {
            (f.file, f.row) for f in self.report.findings if f.kind == "rejected-row" and f.row is not None
        }
        for plan in self.plans:
            r, state = plan.report, plan.state
            latest = state.latest
            r.mode = (
                "new"
                if latest is None
                else "newer"
                if r.snapshot > latest
                else "same"
                if r.snapshot == latest
                else "older"
            )
            same_date = sorted(g for g, d in state.graphs.items() if d == r.snapshot)
            plan.target = (
                state.base
                if not state.graphs or state.base in same_date
                else same_date[0]
                if same_date
                else update_graph(plan.dataset, r.snapshot)
            )
            rows_of = plan.rows_of
            new_owned = {str(n) for n in self.ctx.quads.owned(plan.dataset.path, malformed)}
            still = {rows_of[n] for n in plan.old_owned & new_owned}
            if self.replace and r.mode != "older":
                plan.withdrawn = plan.old_owned - new_owned
                gone = len({rows_of[n] for n in plan.withdrawn} - still)
                r.warnings.append(
                    f"--replace: the {gone} rows of the dataset this file does not have were taken out "
                    "(their values are kept as history)"
                )
                continue
            self._shared_rows(plan, malformed, new_owned)
            r.kept = len({rows_of[n] for n in plan.old_owned - new_owned - plan.withdrawn} - still)
            if r.kept and r.mode != "new":
                r.warnings.append(
                    f"{r.kept} rows of the dataset are not in this file: kept as they were (not restated)"
                )

    def _stored_rows(self) -> None:
        """Each dataset's nodes that rows describe, with the newest row describing each."""
        for plan in self.plans:
            state = plan.state
            for g, qs in sorted(state.quads.items(), key=lambda gq: state.graphs[gq[0]]):
                for q in qs:
                    if q.predicate == _SOURCE_ROW:
                        plan.rows_of[value_of(q.subject)] = (g, value_of(q.object))
            plan.old_owned = set(plan.rows_of)

    def _match_rows(self) -> None:
        """A row whose own node its dataset does not hold, because the node's id comes from cells an
        export wrote another way (the digest telling apart rows of a shared name, of rounded numbers or
        re-formatted dates; a figure row without its Id), is the stored node with the same stable values
        (class, links, dates, places, counts and H100e to three digits) when exactly one node no other
        row claims has them: it takes that node's id, so the row updates it instead of splitting it."""
        quads = self.ctx.quads
        row_nodes = {str(ID[slug]) for slug in self.ctx.row_ids}
        for plan in self.plans:
            if not plan.old_owned:
                continue
            mine = {
                str(n): row for row, nodes in quads.own.items() if row[0] == plan.dataset.path for n in nodes
            }
            fresh = {n for n in mine if n in row_nodes and n not in plan.old_owned}
            if not fresh:
                continue
            unclaimed = plan.old_owned - set(mine)
            stored: dict[object, list[str]] = defaultdict(list)
            facts: dict[str, list[tuple[str, object]]] = defaultdict(list)
            for qs in plan.state.quads.values():
                for q in qs:
                    if value_of(q.subject) in unclaimed:
                        facts[value_of(q.subject)].append((q.predicate.value, q.object))
            new_facts: dict[str, list[tuple[str, object]]] = defaultdict(list)
            for (s, p, o, g), _rows in quads.owners.items():
                if str(s) in fresh and g == plan.base:
                    new_facts[str(s)].append((str(p), to_ox_quad(s, p, o, ox.NamedNode(g)).object))
            renamed: dict[str, str] = {}
            for strict in (True, False):  # with the row's figures first, then without them
                stored.clear()
                for n, pairs in facts.items():
                    if n not in renamed.values():
                        stored[_signature(pairs, strict)].append(n)
                wanted: dict[str, list[str]] = defaultdict(list)
                for n in sorted(fresh - set(renamed)):
                    found = stored.get(_signature(new_facts.get(n, []), strict), [])
                    if len(found) == 1:
                        wanted[found[0]].append(n)
                renamed |= {nodes[0]: target for target, nodes in wanted.items() if len(nodes) == 1}
            for n, target in sorted(renamed.items()):
                row = mine[n]
                self.report.findings.append(
                    Finding(
                        "merge",
                        plan.dataset.path,
                        f"row {row[1]} is the stored {_short(target)} (same stable values; its id "
                        f"{_short(n)} comes from cells this file writes another way)",
                        row=row[1],
                        node=target,
                        name=f"row {row[1]}",
                        entity_kind="row",
                        rule="same stable values",
                    )
                )
            quads.rename(renamed)

    def _shared_rows(self, plan: _Plan, malformed: set[RowKey], new_owned: set[str]) -> None:
        """Rows of a name several rows share ("Anonymized Chinese System", 257 clusters) are told apart
        by their cells alone. A file holding at least as many rows of such a name as the dataset (and
        not older than it) replaces that name's rows: the stored ones it no longer has are taken out,
        kept as history. Otherwise a row of it whose cells the store does not hold as they are could be
        any of them: it is rejected with the reason (before, such a row took another cluster's id)."""
        digested = {_shared_name(n) for n in plan.old_owned} - {None}
        stored: dict[str, set[str]] = defaultdict(set)
        for n in plan.old_owned:  # the bare id (its first row), digests, and -2, -3 for repeats
            name = n if n in digested else _shared_name(n, numbered=True)
            if name is not None and name in digested:
                stored[name].add(n)
        rows_of: dict[str, list[RowKey]] = defaultdict(list)
        for row, nodes in sorted(self.ctx.quads.own.items()):
            if row[0] != plan.dataset.path or row in malformed:
                continue
            for node in map(str, nodes):
                name = _shared_name(node, numbered=True) or node
                if name in stored:
                    rows_of[name].append(row)
                    break
        for name, rows in rows_of.items():
            if plan.report.mode != "older" and len(rows) >= len(stored[name]):
                plan.withdrawn |= stored[name] - new_owned
                continue
            for row in rows:
                claimed = {str(n) for n in self.ctx.quads.own[row]} & stored[name]
                # A digest id is the row's cells; a bare or numbered id only its place in the file.
                if any(_DIGEST.match(n) or self._same_cells(plan, n) for n in claimed):
                    continue
                why = (
                    f"{_short(name)} names {len(stored[name])} rows of this dataset, told apart only by "
                    f"their values, and this {'older ' if plan.report.mode == 'older' else ''}file has "
                    f"{len(rows)} of them: nothing tells which one this row describes (import the "
                    "complete, newer file, or pass --replace)"
                )
                self.report.findings.append(Finding("rejected-row", row[0], why, row=row[1]))

    def _same_cells(self, plan: _Plan, node: str) -> bool:
        """Whether this file's row of ``node`` has the stable values (figures included) the store has."""
        stored = [
            (q.predicate.value, q.object)
            for qs in plan.state.quads.values()
            for q in qs
            if value_of(q.subject) == node
        ]
        given = [
            (str(p), to_ox_quad(s, p, o, ox.NamedNode(g)).object)
            for (s, p, o, g) in self.ctx.quads.owners
            if str(s) == node and g == plan.base
        ]
        return _signature(stored, strict=True) == _signature(given, strict=True)

    def _merged(self, rejected: set[RowKey]) -> dict[str, Merged]:
        """Every file's merge into its dataset, with the rows in ``rejected`` left out."""
        key = frozenset(rejected)
        cached = self.__dict__.get("_merge_cache")
        if cached is not None and cached[0] == key:
            return cached[1]  # type: ignore[no-any-return]
        by_graph: dict[str, list[ox.Quad]] = defaultdict(list)
        for s, p, o, g in self.ctx.quads.accepted(rejected):
            by_graph[g].append(to_ox_quad(s, p, o, ox.NamedNode(g)))
        out = {}
        for plan in self.plans:
            out[plan.dataset.path] = merge(
                plan.state,
                by_graph.get(plan.base, []),
                file=plan.dataset.path,
                snapshot=plan.report.snapshot,
                target=plan.target,
                dataset_doc=plan.doc,
                withdrawn=plan.withdrawn,
                record_added=plan.report.mode != "new",
            )
        self._resolution_links = set(by_graph.get(RESOLUTION_GRAPH, []))
        self._merge_cache = (key, out)
        return out

    def _parts(self, rejected: set[RowKey]) -> tuple[set[ox.Quad], set[ox.Quad]]:
        """(quads added, quads removed) by the import's data change, the records not included."""
        merged = self._merged(rejected)
        add: set[ox.Quad] = self._resolution_links | self._names
        remove: set[ox.Quad] = {q for q in self._graph(RESOLUTION_GRAPH) if is_name_quad(q)}
        if self._rounds_imported:  # the funding file decides its rows' duplicate marks again
            remove |= {
                q
                for q in self._graph(RESOLUTION_GRAPH)
                if is_duplicate_quad(value_of(q.subject), q.predicate.value)
            }
        for plan in self.plans:
            m = merged[plan.dataset.path]
            add |= m.add
            remove |= m.remove
            imported = plan.report.rows - len({r for r in rejected if r[0] == plan.dataset.path})
            if imported <= 0:
                continue
            partial = plan.target != plan.base
            g = ox.NamedNode(plan.target)
            add |= {
                to_ox_quad(s, p, o, g)
                for s, p, o in catalog_triples(
                    plan.dataset, snapshot=plan.report.snapshot, partial=partial, rows=imported
                )
            }
            doc = ox.NamedNode(str(document_of(plan.dataset, plan.report.snapshot if partial else None)))
            remove |= {q for q in plan.state.quads.get(plan.target, set()) if q.subject == doc}
        decided = {ox.NamedNode(d.iri) for d in self.reconciler.all_decisions() if d.iri}
        remove |= {q for q in self._graph(RESOLUTION_GRAPH) if q.subject in decided or q.object in decided}
        return add, remove

    def _graph(self, graph: str) -> set[ox.Quad]:
        cache: dict[str, set[ox.Quad]] = self.__dict__.setdefault("_graphs", {})
        if graph not in cache:
            cache[graph] = set(self.store.quads(graph=graph))
        return cache[graph]

    # -- validation -------------------------------------------------------------------------------

    def _validate(self) -> set[RowKey]:
        """Validate the would-be data; reject the rows behind every violating node, a few rounds.

        A change touching a small part of the store (a newer or partial file) is validated as every
        write is, on the touched nodes' neighbourhood; a large one (a first import) in one pass over
        everything, which is far faster than thousands of focus nodes.
        """
        rejected = {(f.file, f.row or 0) for f in self.report.findings if f.kind == "rejected-row"}
        reasons: dict[RowKey, list[str]] = {}
        focus: set[URIRef] | None = None
        quads = self.ctx.quads
        for _ in range(MAX_ROUNDS):
            change = self._triples(self._delta(rejected))
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
            before, _ = self._parts(rejected)
            rejected |= fresh
            after, _ = self._parts(rejected)
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
        return rejected

    def _triples(self, change: gate.Change) -> gate.Change:
        """The part of a change the shapes can see: they read the union of the graphs, so a statement
        another graph already makes (a label or a type restated in a snapshot's graph, a value moved to
        the graph of the snapshot that first stated it) changes nothing for them. Validating only the
        rest keeps a newer or older file from validating every hub its rows name (NVIDIA, OpenAI)."""

        def held(q: ox.Quad, remove: set[ox.Quad]) -> bool:
            return any(
                other not in remove and other.graph_name != q.graph_name
                for other in self.store.quads(q.subject, q.predicate, q.object)  # type: ignore[arg-type]
            )

        def triple(q: ox.Quad) -> tuple[object, object, object]:
            return (q.subject, q.predicate, q.object)

        added = {triple(q) for q in change.add}
        remove = {q for q in change.remove if triple(q) not in added and not held(q, change.remove)}
        add = {q for q in change.add if not held(q, set())}
        return gate.Change(change.kind, remove=remove, add=add)

    def _delta(self, rejected: set[RowKey]) -> gate.Change:
        """The import's data change against the store as it is (the records not included)."""
        add, remove = self._parts(rejected)
        delta_add = add - remove
        return gate.Change("import", remove=remove - add, add=delta_add - self._present(delta_add))

    def _scratch(self, rejected: set[RowKey]) -> Store:
        """An in-memory copy of the store's data as it would be after the import."""
        add, remove = self._parts(rejected)
        base = self.__dict__.get("_base")
        if base is None:
            base = self._base = [
                q for g in self.store.graphs() if g not in _NOT_DATA for q in self.store.quads(graph=g)
            ]
        scratch = scratch_store()
        scratch.apply(add=[q for q in base if q not in remove])
        scratch.apply(add=add)
        return scratch

    def _present(self, quads: set[ox.Quad]) -> set[ox.Quad]:
        """Which of ``quads`` the store already holds (so the change adds only what is new)."""
        graphs: dict[str, set[ox.Quad]] = defaultdict(set)
        for q in quads:
            graphs[graph_iri(q)].add(q)
        known = set(self.store.graphs())
        out: set[ox.Quad] = set()
        for g, qs in graphs.items():
            if g in known:
                out |= qs & self._graph(g)
        return out

    # -- the change and the report ----------------------------------------------------------------

    def _finish(self, rejected: set[RowKey]) -> None:
        merged = self._merged(rejected)
        add, remove = self._parts(rejected)
        delta_remove, delta_add = remove - add, add - remove
        delta_add -= self._present(delta_add)
        by_file = {p.dataset.path: p for p in self.plans}
        history: list[StatedValue] = []
        unmark: set[ox.Quad] = set()
        for plan in self.plans:
            r, m = plan.report, merged[plan.dataset.path]
            r.graph = plan.target
            r.rejected = len({row for row in rejected if row[0] == plan.dataset.path})
            r.imported = r.rows - r.rejected
            mine = {q for q in delta_add | delta_remove if graph_iri(q) in {plan.target, *plan.state.graphs}}
            if not mine and not m.history:
                r.mode = "unchanged" if r.mode != "older" or not m.changes else r.mode
            counts: dict[str, int] = defaultdict(int)
            for c in m.changes:
                counts[c.kind] += 1
            r.values_added, r.values_changed = counts["added"], counts["changed"]
            r.values_kept, r.values_older = counts["not-restated"], counts["older-snapshot"]
            r.values_removed, r.values_restated = counts["removed"], m.restated
            owned = {
                row: {str(n) for n in nodes}
                for row, nodes in self.ctx.quads.own.items()
                if row[0] == plan.dataset.path and row not in rejected
            }
            r.rows_matched = sum(1 for nodes in owned.values() if nodes & plan.old_owned)
            r.rows_new = len(owned) - r.rows_matched
            dated = self._dated_after(plan)
            if dated:
                r.warnings.append(
                    f"{dated} rows are dated after the file's snapshot date {r.snapshot}: "
                    "the snapshot date is too early (pass --as-of)"
                )
            self.report.changes += m.changes
            history += m.history
            unmark |= m.unmark
        self._decision_findings(by_file)
        self._disagreements(merged, rejected)
        self.report.labels = self._labels()
        self.report.seconds = time.perf_counter() - self.started
        ended = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        records = {q for h in history for q in h.quads()}
        records -= {q for q in records if self._recorded(q.subject)}
        self.history_quads = records
        record = set(record_quads(self.report, ended))
        stale = stale_quads(self.store)
        self.large = len(delta_add) + len(delta_remove) > SMALL_CHANGE
        self._change = gate.Change(
            "import", remove=delta_remove | stale | (unmark - records), add=delta_add | record | records
        )
        if self.large:
            self._check_large_change(rejected, record | records)
        else:
            visible = self._triples(gate.Change("import", remove=delta_remove, add=delta_add))
            self._check_generated(visible.remove, visible.add)
            if not self.report.refused:
                self._check_whole_change(visible, self._change.remove - delta_remove, record | records)

    def _check_large_change(self, rejected: set[RowKey], records: set[ox.Quad]) -> None:
        """Refuse a large import (a first import: more than :data:`SMALL_CHANGE` quads, too many for the
        gate's neighbourhood check) when the store would not conform after it, checked as a whole: the
        data as committed (a scratch copy of the store with the change applied, validated in one pass
        over every node: the rows' own pass, cached, when no row was left out since) and the history
        records and the import's record over it, on their nodes and the nodes they link to."""
        scratch = self._scratch(rejected)
        result = _validate_all(scratch)
        if result.conforms:
            scratch.apply(add=records)
            focus = {URIRef(q.subject.value) for q in records if isinstance(q.subject, ox.NamedNode)}
            result = _validate_around(scratch, focus)
        if not result.conforms:
            self.report.refused = _refusals(result)

    def _check_whole_change(self, data: gate.Change, remove: set[ox.Quad], add: set[ox.Quad]) -> None:
        """Refuse the import (nothing is written) when the store would not conform after the change as it
        is committed: the data the rows give (validated row by row before), with the history records,
        the import's record and the marks it takes out, validated as the gate validates any client write,
        on the nodes it touches and their neighbours. The rows' own violations left their rows out
        already; what is found here is the import's own fault (a record or history node breaking its
        shape, a value two snapshots both state), and the import stops rather than commit it."""
        whole = gate.Change("import", remove=data.remove | remove, add=data.add | add)
        result, _ = gate.validate_change(self.store, whole)
        if not result.conforms:
            self.report.refused = _refusals(result)

    def _check_generated(self, remove: set[ox.Quad], add: set[ox.Quad]) -> None:
        """Refuse the import (nothing is written) when what follows from it would not conform: the
        derived values the gate computes with the commit are validated here first, so the store conforms
        after the import or the import does not happen (before, a run given two counts got two derived
        GPU-hours, and the store no longer conformed)."""
        try:
            # the derived values only: the kept answers are planned with the commit (their upkeep was a
            # quarter of a small import's CPU, and ran twice)
            generated = incremental.plan(self.store, remove, add, kept_answers=False)
        except incremental.NeedsRebuild:
            return
        derived = {
            q.subject
            for q in generated.add
            if value_of(q.graph_name) == str(DERIVED_GRAPH) and isinstance(q.subject, ox.NamedNode)
        }
        if not derived:
            return
        gone = set(generated.remove)
        added: dict[object, list[ox.Quad]] = defaultdict(list)
        for q in generated.add:
            added[q.subject].append(q)

        def after(node: ox.NamedNode) -> list[ox.Quad]:
            return [q for q in self.store.quads(node) if q not in gone] + added.get(node, [])

        data = Graph()
        linked: set[ox.NamedNode] = set()
        for node in derived:
            for q in after(node):
                data.add(rdflib_triple(q))
                if isinstance(q.object, ox.NamedNode) and q.object not in derived:
                    linked.add(q.object)
        for node in linked:  # what sh:class reads: the rule's own type
            for q in after(node):
                if q.predicate.value == "http://www.w3.org/1999/02/22-rdf-syntax-ns#type":
                    data.add(rdflib_triple(q))
        result = validate_graph(data, focus_nodes=[URIRef(value_of(n)) for n in derived])
        if not result.conforms:
            self.report.refused = _refusals(result)

    def _recorded(self, subject: object) -> bool:
        return isinstance(subject, ox.NamedNode) and (
            next(iter(self.store.quads(subject, None, None, HISTORY_GRAPH)), None) is not None
        )

    def change(self) -> gate.Change:
        """The change to commit (computed against the store version the import started from)."""
        return self._change

    def _dated_after(self, plan: _Plan) -> int:
        column = plan.dataset.published
        if column is None:
            return 0
        order = self.ctx.date_orders.get((plan.dataset.path, column))
        dates = (str(read_date(cells.get(column), order).value or "") for _, cells in plan.rows)
        return sum(1 for d in dates if d[:10] > plan.report.snapshot)

    def _labels(self) -> dict[str, str]:
        """The English label of every node the diff and the disagreements name (by name, not by id)."""
        nodes = {c.entity for c in self.report.changes} | {d.entity for d in self.report.disagreements}
        out: dict[str, str] = {}
        label = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
        for n in nodes:
            for q in self.store.quads(ox.NamedNode(n), label):
                if isinstance(q.object, ox.Literal) and q.object.language == "en":
                    out[n] = min(out.get(n, q.object.value), q.object.value)
        for (s, p, o, _), _rows in self.ctx.quads.owners.items():
            if (
                str(s) in nodes
                and str(s) not in out
                and str(p) == label.value
                and getattr(o, "language", None) == "en"
            ):
                out[str(s)] = str(o)
        return out

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
            elif d.status in ("ambiguous", "unresolved"):
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

    def _disagreements(self, merged: dict[str, Merged], rejected: set[RowKey]) -> None:
        """List by name every figure this import writes or keeps as history that another source, or
        another snapshot of its dataset, gives differently, each pair told rounding or disagreement by
        the figures' stated precision (:func:`aikg.knowledge.figures.compare`)."""
        add, remove = self._parts(rejected)
        figures = frozenset(FIGURES)
        mine: dict[tuple[str, str], list[tuple[ox.Literal, _Plan, bool]]] = defaultdict(list)
        targets = {p.target: p for p in self.plans}
        for q in add - self._present(add):
            plan = targets.get(graph_iri(q))
            if plan is not None and q.predicate.value in figures and isinstance(q.object, ox.Literal):
                mine[(value_of(q.subject), q.predicate.value)].append((q.object, plan, False))
        for plan in self.plans:
            for h in merged[plan.dataset.path].history:
                if h.status == "older-snapshot" and h.prop in figures and isinstance(h.value, ox.Literal):
                    mine[(h.entity, h.prop)].append((h.value, plan, True))
        self._older_differences(merged)
        if not mine:
            return
        others = self._figures_after({n for n, _ in mine}, add, remove)
        names = self._source_names()
        seen: set[tuple[str, str, str, str, str]] = set()
        for key, values in sorted(mine.items()):
            for value, plan, older in values:
                where: dict[object, list[str]] = defaultdict(list)
                terms: dict[object, ox.Literal] = {}
                for other, graph in others.get(key, ()):
                    if graph == plan.target and not older:
                        continue
                    c = canonical(other)
                    where[c].append(names.get(graph, graph))
                    terms[c] = other
                for c, graphs in where.items():
                    if c == canonical(value):
                        continue
                    kind = compare(value.value, terms[c].value)
                    ident = (plan.dataset.path, key[0], key[1], value.value, terms[c].value)
                    if kind == "equal" or ident in seen:
                        continue
                    seen.add(ident)
                    self.report.disagreements.append(
                        Disagreement(
                            plan.dataset.path,
                            key[0],
                            key[1],
                            value.value,
                            plan.report.snapshot,
                            older,
                            terms[c].value,
                            " | ".join(sorted(set(graphs))),
                            kind,
                        )
                    )
                    if kind == "rounding":
                        plan.report.rounding += 1
                    else:
                        plan.report.disagreements += 1

    def _older_differences(self, merged: dict[str, Merged]) -> None:
        """List every number an older snapshot gives otherwise than the newer one kept (any property:
        a TDP, a FLOP/s, not only the figures compared across sources)."""
        figures = frozenset(FIGURES)
        for plan in self.plans:
            for c in merged[plan.dataset.path].changes:
                if c.kind != "older-snapshot" or c.difference is None or c.prop in figures:
                    continue  # the figures are listed against every source below
                self.report.disagreements.append(
                    Disagreement(
                        plan.dataset.path,
                        c.entity,
                        c.prop,
                        c.after[0].value,  # type: ignore[union-attr]
                        plan.report.snapshot,
                        True,
                        c.before[0].value,  # type: ignore[union-attr]
                        f"{plan.dataset.title} ({c.before_snapshot})",
                        c.difference,
                    )
                )
                if c.difference == "rounding":
                    plan.report.rounding += 1
                else:
                    plan.report.disagreements += 1

    def _figures_after(
        self, nodes: set[str], add: set[ox.Quad], remove: set[ox.Quad]
    ) -> dict[tuple[str, str], list[tuple[ox.Literal, str]]]:
        """(node, figure) -> (value, graph) for the figures of ``nodes`` after the change; a system's
        memory per chip counts as a value of its chips' (the document's GB300 NVL72 HBM is the GB300's)."""
        figures = frozenset(FIGURES)
        skip = {*GENERATED_GRAPHS, IMPORTS_GRAPH, HISTORY_GRAPH}
        memory, uses = str(AIKG.memoryPerChip), ox.NamedNode(str(AIKG.usesAccelerator))
        added: dict[str, list[ox.Quad]] = defaultdict(list)
        users: dict[str, set[ox.NamedNode]] = defaultdict(set)
        for q in add:
            added[value_of(q.subject)].append(q)
            if q.predicate == uses and isinstance(q.subject, ox.NamedNode):
                users[value_of(q.object)].add(q.subject)
        out: dict[tuple[str, str], list[tuple[ox.Literal, str]]] = defaultdict(list)
        for n in nodes:
            node = ox.NamedNode(n)
            systems = {
                q.subject
                for q in self.store.quads(None, uses, node)
                if q not in remove and isinstance(q.subject, ox.NamedNode)
            }
            systems |= users.get(n, set())
            for subject, as_of in [(node, n), *((s, n) for s in systems)]:
                stated = [q for q in self.store.quads(subject) if q not in remove] + added.get(
                    subject.value, []
                )
                for q in stated:
                    p = q.predicate.value
                    if p not in figures or (subject != node and p != memory):
                        continue
                    if isinstance(q.object, ox.Literal) and graph_iri(q) not in skip:
                        out[(as_of, p)].append((q.object, graph_iri(q)))
        return out

    def _source_names(self) -> dict[str, str]:
        """Graph -> the title of the source it holds (an Epoch snapshot graph with its date)."""
        rows = self.store.query(
            f"""PREFIX dcterms: <http://purl.org/dc/terms/>
            SELECT ?g ?title ?issued WHERE {{ ?doc <{AIKG.namedGraph}> ?g ; dcterms:title ?title .
              OPTIONAL {{ ?doc dcterms:issued ?issued }} }}"""
        ).rows
        out = {}
        for g, title, issued in rows:
            if g is not None and title is not None:
                out[g.value] = title.value + (
                    f" ({issued.value})" if issued is not None and g.value.startswith(EPOCH_PREFIX) else ""
                )
        for plan in self.plans:
            out.setdefault(plan.target, f"{plan.dataset.title} ({plan.report.snapshot})")
        return out


_SIGNATURE = frozenset(
    str(AIKG[p])
    for p in (
        "date",
        "agent",
        "investee",
        "operator",
        "accelerator",
        "locationName",
        "phaseOf",
        "capacityUser",
        "userCategory",
        "acceleratorCount",
        "h100Equivalents",
    )
) | {"http://www.w3.org/1999/02/22-rdf-syntax-ns#type"}
"""What a row node is matched on when its id does not match (see ``_Prepared._match_rows``)."""


_FIGURES = frozenset(
    str(AIKG[p])
    for p in (
        "amount",
        "annualRevenue",
        "computeSpend",
        "staffCount",
        "activeUsers",
        "postMoneyValuation",
        "powerCapacity",
    )
)
"""What a row node is also matched on first (to three digits), to tell apart rows equal in the rest."""
_ROUGH = frozenset({str(AIKG.acceleratorCount), str(AIKG.h100Equivalents)}) | _FIGURES


def _signature(pairs: Iterable[tuple[str, object]], strict: bool = False) -> frozenset[tuple[str, object]]:
    out = set()
    for p, o in pairs:
        if p not in _SIGNATURE and not (strict and p in _FIGURES):
            continue
        if isinstance(o, ox.Literal) and p in _ROUGH:
            with contextlib.suppress(InvalidOperation):
                o = format(Decimal(o.value), ".3g")
        out.add((p, o))
    return frozenset(out)


def _decision_finding(kind: str, d: Decision, file: str) -> Finding:
    message = f"{d.kind} {d.name!r} -> {_short(d.iri) if d.iri else 'left out'} ({d.rule})"
    return Finding(
        kind,
        file,
        message,
        node=d.iri or None,
        name=d.name,
        entity_kind=d.kind,
        candidates=list(d.candidates),
        rule=d.rule,
    )


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


def _refusals(result: ValidationResult) -> list[str]:
    """Each violation as a line of the report: the node, the property, the shape's message."""
    return sorted(
        {
            f"{_short(v.focus_node)} {(v.path or '').rsplit('#', 1)[-1]}: {v.message}".replace(" :", ":")
            for v in result.violations
        }
    )


def _short(iri: str) -> str:
    return iri.replace("https://w3id.org/aikg/id/", "id:").replace("https://w3id.org/aikg/ontology#", "aikg:")
