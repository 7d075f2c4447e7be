"""How one file's rows update their dataset, value by value, in the order of the snapshots.

A dataset lives in one graph per snapshot: ``graph/epoch/<stem>`` for the first snapshot imported and
``graph/epoch/<stem>/<YYYY-MM-DD>`` for each other one, each described in the catalogue with its date
(``dcterms:issued``). A value stays in the graph of the snapshot that first stated it, as long as later
snapshots restate it, so the graphs together say what Epoch said on each date. For every (node,
property) the file's rows describe:

- **the file states nothing** (its column was dropped, renamed, left empty, or the cell is empty): the
  stored values stay, and when the file is newer they are marked *not restated* by it (a history
  record; the diff lists them as kept-not-restated);
- **a newer (or the same) snapshot states other values**: they replace the stored ones, which leave the
  data graphs and are kept as history records with the snapshot they came from (nothing is erased);
- **an older snapshot states other values**: the stored (newer) values stay; the older ones are kept as
  history records, and each difference is listed, rounding told from disagreement by the figures'
  stated precision;
- **the same values**: nothing changes (an older snapshot stating them moves them to its own graph:
  they were first stated then).

Rows of the dataset the file does not have are kept as they are (a partial file updates its rows).
What a row says about where its facts come from (type, label, names, row number, links, Epoch's
confidence) is restated in the snapshot's graph and kept in an older graph while facts of the node
remain there, so every value keeps its citation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

import pyoxigraph as ox

from aikg.epoch.history import StatedValue, Term, ValueChange, value_of
from aikg.knowledge.figures import compare
from aikg.namespaces import AIKG, SCHEMA

_RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
_SKOS = "http://www.w3.org/2004/02/skos/core#"

STRUCTURAL = frozenset(
    {
        _RDF + "type",
        _SKOS + "altLabel",
        str(AIKG.sourceRow),
        str(AIKG.sourceConfidence),
        str(AIKG.datasetConfidence),
        str(SCHEMA.url),
    }
)
"""What a row says about the node it describes and where its facts come from, rather than a fact: restated
in every snapshot graph holding facts of the node (so each keeps its citation), never a change. (The
English label is a fact: one per node, so a renamed row's old label becomes history.)"""
RATED = frozenset({str(AIKG.sourceConfidence), str(AIKG.datasetConfidence)})
"""What a row says of its own facts (structural) but a link's rating (aikg:LinkRating) says as its fact: a
newer file rating a site's tenant "#likely" where the stored rating said "#speculative" replaces the
rating's confidence, the old one kept as history (restated beside it, the rating had two confidences and
the newer file's row was left out)."""
BAG = frozenset({str(AIKG.locationName)})
"""Properties several columns feed (a cluster's Location and Country): a newer file's values are added and
the ones it lacks stay, not restated, instead of replacing them."""
NOTED = frozenset({str(AIKG.note)})
"""Properties several columns feed, each value starting with its column's name ("Notes: …", "Source: …"):
a newer file replaces the values of the columns it gives; those of a column it drops or leaves empty stay,
not restated (a chiller file without "Notes" replaced each chiller's note, kept only as history)."""
PARTS = frozenset({str(AIKG.linkRating), str(AIKG.acceleratorGroup)})
"""Links to a node that is part of its subject's row (a link's rating, one kind of a cluster's chips), not
a thing of its own: when a newer file replaces every such link to it, the part goes with the link, its
values kept as history (left behind, it was a rating of nothing and the store no longer conformed)."""
_LINK_RATING = ox.NamedNode(str(AIKG.LinkRating))
NUMERIC = frozenset(
    "http://www.w3.org/2001/XMLSchema#" + t for t in ("decimal", "integer", "double", "float", "long", "int")
)

Key = tuple[str, str]
"""(node IRI, property IRI)."""


DIGITS = 15
"""Significant digits a number is compared to: what a binary double carries for sure. Epoch's exports write
floats with up to 17 (20000.000000294494 in one export, 20000.000000294498 in the next, the same value)."""


def canonical(term: Term) -> object:
    """What two values are compared on: a number by its value to :data:`DIGITS` significant digits
    (``80000`` = ``80000.0`` = ``8E4``, so a change of datatype between aikg versions or a float's last
    digits is no change of value), anything else as it is."""
    if isinstance(term, ox.Literal) and term.datatype.value in NUMERIC:
        try:
            number = Decimal(term.value)
        except InvalidOperation:
            return term
        if number.is_finite() and number != 0:
            number = round(number, DIGITS - 1 - number.adjusted())
        return ("n", number.normalize())
    return term


@dataclass
class DatasetState:
    """What the store holds of one dataset: its graphs with their snapshot dates and their quads."""

    base: str
    graphs: dict[str, str]
    """Graph IRI -> snapshot date (YYYY-MM-DD), from each graph's catalogue entry."""
    quads: dict[str, set[ox.Quad]]
    """Graph IRI -> every quad of it."""
    catalog: frozenset[str]
    """Subjects that are catalogue entries (the documents and their publisher), not data."""
    markers: dict[Key, set[ox.Quad]] = field(default_factory=dict)
    """(node, property) -> the quads of its not-restated history records."""

    @property
    def latest(self) -> str | None:
        """The newest snapshot the dataset has."""
        return max(self.graphs.values(), default=None)


@dataclass
class Merged:
    """The change one file makes to its dataset."""

    add: set[ox.Quad] = field(default_factory=set)
    remove: set[ox.Quad] = field(default_factory=set)
    history: list[StatedValue] = field(default_factory=list)
    changes: list[ValueChange] = field(default_factory=list)
    unmark: set[ox.Quad] = field(default_factory=set)
    """History-graph quads to take out (not-restated marks of values now restated or replaced)."""
    drop: set[str] = field(default_factory=set)
    """Snapshot graphs left without a fact (taken out whole, catalogue entry included)."""
    restated: int = 0
    """Values the file states as the store has them."""


def _by_key(quads: Iterable[ox.Quad], skip: frozenset[str]) -> dict[Key, set[ox.Quad]]:
    out: dict[Key, set[ox.Quad]] = defaultdict(set)
    for q in quads:
        if isinstance(q.subject, ox.NamedNode) and q.subject.value not in skip:
            out[(q.subject.value, q.predicate.value)].add(q)
    return out


def merge(
    state: DatasetState,
    file_quads: Iterable[ox.Quad],
    *,
    file: str,
    snapshot: str,
    target: str,
    dataset_doc: str,
    withdrawn: Iterable[str] = (),
    record_added: bool = True,
) -> Merged:
    """The change ``file`` (its quads, in any graph: they go into ``target``) makes to its dataset.

    ``withdrawn``: nodes the import takes out of the dataset (rows a complete file no longer has under a
    name several rows share, or every row missing when asked to replace the dataset): their values
    become history. ``record_added``: list each added value in the diff (not for a dataset's first
    import, where everything is new)."""
    file_quads = list(file_quads)
    dates = dict(state.graphs)
    dates.setdefault(target, snapshot)
    structural = _Structural(_ratings(state, file_quads))
    stored, structural_old, described = _read_stored(state, structural, dates)
    stated, structural_new = _read_file(file_quads, structural)
    nodes = {s for s, _ in stated} | set(structural_new)
    gone = set(withdrawn) - nodes
    step = _Merge(state, Merged(), file, snapshot, ox.NamedNode(target), dataset_doc, dates, described)
    step.record_added = record_added
    for key in sorted(set(stated) | {k for k in stored if k[0] in nodes or k[0] in gone}):
        step.key(key, stored.get(key, {}), stated.get(key, {}), gone=key[0] in gone)
    step.let_go_parts(stored, structural_old, nodes | gone)
    _structure(state, step.out, structural_old, structural_new, step.target, gone)
    return step.out


Stored = dict[Key, dict[object, set[ox.Quad]]]
"""(node, property) -> a value (:func:`canonical`) -> the stored quads stating it."""
Described = dict[str, dict[str, set[ox.Quad]]]
"""Graph IRI -> node -> the structural quads (:data:`STRUCTURAL`) describing the node in that graph."""


def _ratings(state: DatasetState, file_quads: list[ox.Quad]) -> set[str]:
    """The link ratings (aikg:LinkRating) the store or the file holds."""
    return {
        q.subject.value
        for q in (*file_quads, *(q for quads in state.quads.values() for q in quads))
        if q.predicate.value == _RDF + "type"
        and q.object == _LINK_RATING
        and isinstance(q.subject, ox.NamedNode)
    }


@dataclass(frozen=True)
class _Structural:
    """Whether a quad is structural (:data:`STRUCTURAL`): a link rating's confidence is its fact."""

    ratings: set[str]

    def __call__(self, q: ox.Quad) -> bool:
        return q.predicate.value in STRUCTURAL and not (
            q.predicate.value in RATED
            and isinstance(q.subject, ox.NamedNode)
            and q.subject.value in self.ratings
        )


def _read_stored(
    state: DatasetState, structural: _Structural, dates: dict[str, str]
) -> tuple[Stored, Described, dict[str, str]]:
    """The dataset's stored facts by (node, property) and value, its structural quads by graph and node,
    and for each node the newest snapshot whose rows describe it (its row was in that file)."""
    stored: Stored = defaultdict(lambda: defaultdict(set))
    structural_old: Described = defaultdict(lambda: defaultdict(set))
    described: dict[str, str] = {}
    for g, quads in state.quads.items():
        for q in quads:
            s = q.subject
            if not isinstance(s, ox.NamedNode) or s.value in state.catalog:
                continue
            if structural(q):
                structural_old[g][s.value].add(q)
                described[s.value] = max(described.get(s.value, ""), dates[g])
            else:
                stored[(s.value, q.predicate.value)][canonical(q.object)].add(q)
    return stored, structural_old, described


def _read_file(
    file_quads: list[ox.Quad], structural: _Structural
) -> tuple[dict[Key, dict[object, Term]], dict[str, set[tuple[ox.NamedNode, Term]]]]:
    """The file's facts by (node, property) and value, and its structural (predicate, object) by node."""
    stated: dict[Key, dict[object, Term]] = defaultdict(dict)
    structural_new: dict[str, set[tuple[ox.NamedNode, Term]]] = defaultdict(set)
    for q in file_quads:
        s = q.subject
        if not isinstance(s, ox.NamedNode):
            continue
        if structural(q):
            structural_new[s.value].add((q.predicate, q.object))
        else:
            stated[(s.value, q.predicate.value)][canonical(q.object)] = q.object
    return stated, structural_new


@dataclass
class _Merge:
    """One file's merge into its dataset, (node, property) by (node, property): each case of the module's
    docstring is one method, adding to :attr:`out`."""

    state: DatasetState
    out: Merged
    file: str
    snapshot: str
    target: ox.NamedNode
    dataset_doc: str
    dates: dict[str, str]
    """Graph IRI -> its snapshot date (the target graph's included)."""
    described: dict[str, str]
    """Node -> the newest snapshot whose rows describe it."""
    record_added: bool = True

    def first(self, quads: set[ox.Quad]) -> str:
        """The snapshot that first stated a value (the oldest graph holding it)."""
        return min(self.dates[_graph(q)] for q in quads)

    def keep(self, key: Key, quads: set[ox.Quad], status: str, replaced_on: str | None = None) -> None:
        """Keep a stored value as history."""
        q = min(quads, key=lambda q: self.dates[_graph(q)])
        self.out.history.append(
            StatedValue(key[0], key[1], q.object, self.first(quads), self.dataset_doc, status, replaced_on)
        )

    def keep_older(self, key: Key, o: Term) -> None:
        """Keep a value only this older snapshot states as history."""
        self.out.history.append(
            StatedValue(key[0], key[1], o, self.snapshot, self.dataset_doc, "older-snapshot")
        )

    def quad(self, key: Key, o: Term, graph: ox.NamedNode | None = None) -> ox.Quad:
        return ox.Quad(ox.NamedNode(key[0]), ox.NamedNode(key[1]), o, self.target if graph is None else graph)

    def change(
        self,
        kind: str,
        key: Key,
        before: dict[object, set[ox.Quad]],
        before_snapshot: str | None,
        after: dict[object, Term],
    ) -> None:
        self.out.changes.append(_change(kind, key, self.file, before, before_snapshot, after, self.snapshot))

    def key(self, key: Key, now: dict[object, set[ox.Quad]], new: dict[object, Term], *, gone: bool) -> None:
        """Merge what the file states of (node, property), ``new``, with what the store holds, ``now``."""
        value_date = max((self.first(qs) for qs in now.values()), default=None)
        current = max(self.described.get(key[0], ""), value_date or "") or None
        marks = self.state.markers.get(key, set())
        if gone:
            self.withdraw(key, now, value_date, marks)
        elif not new:
            self.not_stated(key, now, value_date, current, marks)
        elif not now and current is not None and self.snapshot < current:
            # A newer snapshot had the row and does not state this: the older value is history.
            for o in new.values():
                self.keep_older(key, o)
            self.change("older-snapshot", key, {}, current, new)
        elif not now:
            self.out.add |= {self.quad(key, o) for o in new.values()}
            self.out.unmark |= marks
            if self.record_added:
                self.change("added", key, {}, None, new)
        else:
            self.both(key, now, new, value_date, current, marks)

    def withdraw(
        self, key: Key, now: dict[object, set[ox.Quad]], value_date: str | None, marks: set[ox.Quad]
    ) -> None:
        """A node the import takes out of the dataset: its values become history."""
        for quads in now.values():
            self.out.remove |= quads
            self.keep(key, quads, "withdrawn", self.snapshot)
        self.out.unmark |= marks
        self.change("removed", key, now, value_date, {})

    def not_stated(
        self,
        key: Key,
        now: dict[object, set[ox.Quad]],
        value_date: str | None,
        current: str | None,
        marks: set[ox.Quad],
    ) -> None:
        """The file states nothing of a stored value: it stays, marked not restated by a newer file."""
        if now and value_date is not None and self.snapshot > value_date and self.snapshot >= (current or ""):
            self.change("not-restated", key, now, value_date, {})
            if not marks:
                for quads in now.values():
                    self.keep(key, quads, "not-restated", self.snapshot)

    def both(
        self,
        key: Key,
        now: dict[object, set[ox.Quad]],
        new: dict[object, Term],
        value_date: str | None,
        current: str | None,
        marks: set[ox.Quad],
    ) -> None:
        """The store and the file both state values of (node, property)."""
        same = set(new) & set(now)
        for value in same:
            for q in now[value]:
                if q.object != new[value]:  # the same number written another way: the new form, same graph
                    self.out.remove.add(q)
                    self.out.add.add(self.quad(key, new[value], q.graph_name))  # type: ignore[arg-type]
        self.out.restated += len(same)
        if current is not None and self.snapshot < current:
            self.older(key, now, new, same, value_date)
            return
        unstated = _unstated_columns(key[1], now, new)
        if unstated:
            # Notes of a column the file states nothing of (a dropped or empty "Notes"): kept, not restated.
            if not marks:
                for quads in unstated.values():
                    self.keep(key, quads, "not-restated", self.snapshot)
            self.change("not-restated", key, unstated, value_date, {})
            now = {v: qs for v, qs in now.items() if v not in unstated}
        else:
            self.out.unmark |= marks
        if set(new) == set(now):
            return
        if key[1] in BAG:
            added = {v: o for v, o in new.items() if v not in now}
            self.out.add |= {self.quad(key, o) for o in added.values()}
            if added:
                self.change("added", key, {}, None, added)
            return
        self.replace(key, now, new, value_date)

    def older(
        self,
        key: Key,
        now: dict[object, set[ox.Quad]],
        new: dict[object, Term],
        same: set[object],
        value_date: str | None,
    ) -> None:
        """An older snapshot: the values it shares move to its graph (it stated them first); the others it
        gives are kept as history and listed."""
        for value in same:
            for q in now[value]:
                if self.dates[_graph(q)] > self.snapshot:
                    self.out.remove.add(q)
                    self.out.add.add(self.quad(key, new[value]))
        extra = {v: o for v, o in new.items() if v not in now}
        for o in extra.values():
            self.keep_older(key, o)
        if extra:
            self.change("older-snapshot", key, now, value_date, extra)

    def replace(
        self, key: Key, now: dict[object, set[ox.Quad]], new: dict[object, Term], value_date: str | None
    ) -> None:
        """A newer (or the same) snapshot states other values: they replace the stored ones (history)."""
        for value, quads in now.items():
            if value not in new:
                self.out.remove |= quads
                self.keep(key, quads, "replaced", self.snapshot)
        self.out.add |= {self.quad(key, o) for v, o in new.items() if v not in now}
        self.change("changed", key, now, value_date, new)

    def let_go_parts(self, stored: Stored, structural_old: Described, described: set[str]) -> None:
        """Parts (:data:`PARTS`) whose every link the change takes out go with their link (history)."""
        for part in _parts_let_go(self.state, self.out, described):
            for key in sorted(k for k in stored if k[0] == part):
                quads = set().union(*stored[key].values())
                self.out.remove |= quads
                self.keep(key, quads, "replaced", self.snapshot)
                self.out.unmark |= self.state.markers.get(key, set())
                self.change("removed", key, stored[key], self.first(quads), {})
            for by_node in structural_old.values():
                self.out.remove |= by_node.get(part, set())


def _unstated_columns(
    prop: str, now: dict[object, set[ox.Quad]], new: dict[object, Term]
) -> dict[object, set[ox.Quad]]:
    """The stored values of a property several columns feed, each value named by its column ("Notes:
    …", "Source: …"), of the columns the file gives none of."""
    if prop not in NOTED:
        return {}
    stated = {_column(o) for o in new.values()}
    return {v: qs for v, qs in now.items() if _column(v) not in stated}


def _column(value: object) -> str:
    """The column a note names at its start ("Notes: Number of fans inferred" -> "Notes"), or ""."""
    if not isinstance(value, ox.Literal):
        return ""
    head, sep, _ = value.value.partition(": ")
    return head if sep and len(head) <= 60 and "\n" not in head else ""


def _parts_let_go(state: DatasetState, out: Merged, described: set[str]) -> set[str]:
    """Parts (:data:`PARTS`) the file does not describe whose every link from their row the change takes
    out and none adds again."""
    links: dict[str, set[ox.Quad]] = defaultdict(set)
    for quads in state.quads.values():
        for q in quads:
            if q.predicate.value in PARTS and isinstance(q.object, ox.NamedNode):
                links[q.object.value].add(q)
    kept = {
        q.object.value for q in out.add if q.predicate.value in PARTS and isinstance(q.object, ox.NamedNode)
    }
    return {node for node, into in links.items() if node not in described | kept and into <= out.remove}


def _structure(
    state: DatasetState,
    out: Merged,
    old: dict[str, dict[str, set[ox.Quad]]],
    new: dict[str, set[tuple[ox.NamedNode, Term]]],
    target: ox.NamedNode,
    gone: set[str],
) -> None:
    """Restate the file's rows' descriptions in the target graph (so it says which rows that snapshot had,
    and keeps their citations); take out those of the rows withdrawn, and a snapshot graph left with
    nothing but its catalogue entry."""
    for s, pairs in new.items():
        node = ox.NamedNode(s)
        for p, o in pairs:
            out.add.add(ox.Quad(node, p, o, target))
    for g, quads in state.quads.items():
        for s in gone:
            out.remove |= old.get(g, {}).get(s, set())
        left = [
            q
            for q in quads - out.remove
            if not (isinstance(q.subject, ox.NamedNode) and q.subject.value in state.catalog)
        ]
        if not left and g != state.base and g != target.value:
            out.drop.add(g)
            out.remove |= quads


def _graph(q: ox.Quad) -> str:
    return value_of(q.graph_name)


def _change(
    kind: str,
    key: Key,
    file: str,
    before: dict[object, set[ox.Quad]],
    before_snapshot: str | None,
    after: dict[object, Term],
    after_snapshot: str,
) -> ValueChange:
    old = tuple(sorted({min(qs, key=str).object for qs in before.values()}, key=str))
    new = tuple(sorted(after.values(), key=str))
    difference = None
    if len(old) == 1 and len(new) == 1 and is_number(old[0]) and is_number(new[0]):
        difference = compare(old[0].value, new[0].value)  # type: ignore[union-attr]
    return ValueChange(kind, key[0], key[1], file, old, before_snapshot, new, after_snapshot, difference)


def is_number(term: Term) -> bool:
    """Whether a value is a numeric literal."""
    return isinstance(term, ox.Literal) and term.datatype.value in NUMERIC
