"""What Epoch said before: the values a newer snapshot replaced, an older snapshot gave differently, or the
latest file did not restate, and what each import changed.

Two kinds of record, both written by the import in the same transaction as the data:

- an ``aikg:StatedValue`` in ``graph/history`` (kept for good): one value of one property of one node, the
  snapshot that stated it and its dataset, and its status: ``replaced`` (a newer snapshot gave another
  value: ``aikg:replacedOn`` its date), ``withdrawn`` (its row left the dataset), ``older-snapshot`` (an
  older snapshot imported after a newer one gave it; the newer value stays) or ``not-restated`` (still
  the value, but the newest file of its dataset does not restate it: ``aikg:notRestatedOn``);
- an ``aikg:ValueChange`` in the import's record (``graph/imports``): one line of the import's diff,
  per node and property: ``added``, ``changed``, ``not-restated`` (kept), ``older-snapshot`` or
  ``removed``, with the values before and after and their snapshots.

So "what did Epoch say about GB200 on 2026-03-06" is the data graphs' values first stated on or before that
day together with the records stated then and not replaced by then, the newest per property and dataset
(the ``epoch-as-of`` named query); "what changed for xAI since the last import" is the last import's
changes about xAI and the nodes it takes part in (``changes-since-last-import``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import pyoxigraph as ox

from aikg.namespaces import AIKG, GRAPH
from aikg.namespaces import HISTORY_GRAPH as _HISTORY

HISTORY_GRAPH = str(_HISTORY)
"""aikg's record of what each dataset said before (written by the import only)."""
HISTORY_BASE = "https://w3id.org/aikg/history/"
"""History records' IRIs: outside the entity namespace, like import records."""

Term = ox.NamedNode | ox.Literal | ox.BlankNode | ox.Triple
"""A value (an object of a quad)."""

_A = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
_DATE = ox.NamedNode("http://www.w3.org/2001/XMLSchema#date")
_H = ox.NamedNode(HISTORY_GRAPH)


def _p(local: str) -> ox.NamedNode:
    return ox.NamedNode(str(AIKG[local]))


def _date(value: str) -> ox.Literal:
    return ox.Literal(value, datatype=_DATE)


def shown(term: Term) -> str:
    """A value as the report prints it: a literal's text, an IRI shortened."""
    if isinstance(term, ox.Literal):
        return term.value
    return value_of(term).replace("https://w3id.org/aikg/id/", "id:").replace(str(AIKG), "aikg:")


def value_of(term: object) -> str:
    """A term's text: an IRI, a literal's lexical form, a blank node's label (a quoted triple as written)."""
    value = getattr(term, "value", None)
    return value if isinstance(value, str) else str(term)


def term_json(term: Term) -> dict[str, Any]:
    """A value as plain data: ``{"value", "datatype"}``, ``{"value", "language"}`` or ``{"iri"}``."""
    if isinstance(term, ox.Literal):
        out: dict[str, Any] = {"value": term.value}
        if term.language:
            out["language"] = term.language
        else:
            out["datatype"] = term.datatype.value
        return out
    return {"iri": value_of(term)}


@dataclass(frozen=True)
class StatedValue:
    """One value a dataset stated that is not (or no longer plainly) a current value."""

    entity: str
    prop: str
    value: Term
    stated_on: str
    """The snapshot that first stated it."""
    dataset: str
    """The dataset's catalogue entry (id:epoch-<stem>)."""
    status: str
    """replaced, withdrawn, older-snapshot or not-restated."""
    since: str | None = None
    """The snapshot that replaced or withdrew it, or did not restate it."""

    @property
    def iri(self) -> str:
        """A stable IRI made of what is recorded (importing the same file again makes the same record)."""
        parts = (self.dataset, self.entity, self.prop, str(self.value), self.stated_on, self.status)
        return HISTORY_BASE + hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:20]

    def quads(self) -> list[ox.Quad]:
        """The record in ``graph/history``."""
        r = ox.NamedNode(self.iri)
        out = [
            ox.Quad(r, _A, _p("StatedValue"), _H),
            ox.Quad(r, _p("aboutEntity"), ox.NamedNode(self.entity), _H),
            ox.Quad(r, _p("statedProperty"), ox.NamedNode(self.prop), _H),
            ox.Quad(r, _p("statedValue"), self.value, _H),
            ox.Quad(r, _p("statedOn"), _date(self.stated_on), _H),
            ox.Quad(r, _p("inDataset"), ox.NamedNode(self.dataset), _H),
            ox.Quad(r, _p("historyStatus"), ox.Literal(self.status), _H),
        ]
        if self.since is not None:
            prop = "notRestatedOn" if self.status == "not-restated" else "replacedOn"
            out.append(ox.Quad(r, _p(prop), _date(self.since), _H))
        return out


@dataclass(frozen=True)
class ValueChange:
    """One line of an import's diff: what happened to one property of one node."""

    kind: str
    """added, changed, not-restated (kept), older-snapshot or removed."""
    entity: str
    prop: str
    file: str
    before: tuple[Term, ...]
    before_snapshot: str | None
    after: tuple[Term, ...]
    after_snapshot: str
    difference: str | None = None
    """For one number against one number: rounding or disagreement (by the figures' stated precision)."""

    def key(self) -> tuple[str, str, str, str]:
        """What identifies the line (a dry run's diff is compared with the import's by these)."""
        return (self.file, self.entity, self.prop, self.kind)

    def to_json(self, labels: dict[str, str] | None = None) -> dict[str, Any]:
        """Plain data, the entity's label included when known."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "file": self.file,
            "entity": self.entity,
            "property": self.prop,
            "before": [term_json(t) for t in self.before],
            "after": [term_json(t) for t in self.after],
            "after_snapshot": self.after_snapshot,
        }
        if labels and self.entity in labels:
            out["label"] = labels[self.entity]
        if self.before_snapshot:
            out["before_snapshot"] = self.before_snapshot
        if self.difference:
            out["difference"] = self.difference
        return out

    def quads(self, node: ox.NamedNode, file_node: ox.NamedNode | None, graph: ox.NamedNode) -> list[ox.Quad]:
        """The line as part of its import's record."""
        out = [
            ox.Quad(node, _A, _p("ValueChange"), graph),
            ox.Quad(node, _p("changeKind"), ox.Literal(self.kind), graph),
            ox.Quad(node, _p("aboutEntity"), ox.NamedNode(self.entity), graph),
            ox.Quad(node, _p("statedProperty"), ox.NamedNode(self.prop), graph),
            ox.Quad(node, _p("snapshotAfter"), _date(self.after_snapshot), graph),
        ]
        out += [ox.Quad(node, _p("valueBefore"), t, graph) for t in self.before]
        out += [ox.Quad(node, _p("valueAfter"), t, graph) for t in self.after]
        if self.before_snapshot:
            out.append(ox.Quad(node, _p("snapshotBefore"), _date(self.before_snapshot), graph))
        if self.difference:
            out.append(ox.Quad(node, _p("difference"), ox.Literal(self.difference), graph))
        if file_node is not None:
            out.append(ox.Quad(node, _p("inFile"), file_node, graph))
        return out


_MARKERS = f"""
PREFIX aikg: <{AIKG}>
SELECT ?r ?entity ?property ?dataset WHERE {{
  GRAPH <{HISTORY_GRAPH}> {{
    ?r aikg:inDataset ?dataset ; aikg:historyStatus "not-restated" ;
       aikg:aboutEntity ?entity ; aikg:statedProperty ?property .
  }}
}}"""


def not_restated(store: Any, dataset: str) -> dict[tuple[str, str], set[ox.Quad]]:
    """(node, property) -> the quads of the dataset's not-restated records about it."""
    out: dict[tuple[str, str], set[ox.Quad]] = {}
    rows = store.query(_MARKERS, bindings={"dataset": ox.NamedNode(dataset)}).rows
    for r, entity, prop, _ in rows:
        if r is None or entity is None or prop is None:
            continue
        quads = set(store.quads(ox.NamedNode(r.value), None, None, HISTORY_GRAPH))
        out.setdefault((entity.value, prop.value), set()).update(quads)
    return out


_RECORDS = f"""
PREFIX aikg: <{AIKG}>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?entity ?r ?property ?value ?stated ?status ?replaced ?notRestated ?title WHERE {{
  GRAPH <{HISTORY_GRAPH}> {{
    ?r aikg:aboutEntity ?entity ; aikg:statedProperty ?property ; aikg:statedValue ?value ;
       aikg:statedOn ?stated ; aikg:historyStatus ?status ; aikg:inDataset ?dataset .
    OPTIONAL {{ ?r aikg:replacedOn ?replaced }}
    OPTIONAL {{ ?r aikg:notRestatedOn ?notRestated }}
  }}
  OPTIONAL {{ ?dataset dcterms:title ?title }}
}}
ORDER BY ?property ?stated"""


def records_about(store: Any, entity: str) -> list[dict[str, Any]]:
    """Every history record about one node: what its datasets said before, with the snapshots."""
    out = []
    for _, _r, prop, value, stated, status, replaced, later, title in store.query(
        _RECORDS, bindings={"entity": ox.NamedNode(entity)}
    ).rows:
        if prop is None or value is None or stated is None or status is None:
            continue
        record: dict[str, Any] = {
            "property": prop.value,
            "value": term_json(value),
            "stated_on": stated.value,
            "status": status.value,
            "dataset": title.value if title is not None else None,
        }
        if replaced is not None:
            record["replaced_on"] = replaced.value
        if later is not None:
            record["not_restated_on"] = later.value
        out.append(record)
    return out


_CHANGES = f"""
PREFIX aikg: <{AIKG}>
PREFIX prov: <http://www.w3.org/ns/prov#>
SELECT ?entity ?import ?started ?change ?p ?o ?path WHERE {{
  GRAPH <{GRAPH["imports"]}> {{
    ?import aikg:change ?change ; prov:startedAtTime ?started .
    ?change aikg:aboutEntity ?entity ; ?p ?o .
    OPTIONAL {{ ?change aikg:inFile/aikg:filePath ?path }}
  }}
}}"""
_FIELDS = {
    "changeKind": "kind",
    "statedProperty": "property",
    "snapshotBefore": "before_snapshot",
    "snapshotAfter": "after_snapshot",
    "difference": "difference",
}


def changes_about(store: Any, entity: str) -> list[dict[str, Any]]:
    """What each recorded import changed for one node, newest import first."""
    found: dict[str, dict[str, Any]] = {}
    for _, imp, started, change, p, o, path in store.query(
        _CHANGES, bindings={"entity": ox.NamedNode(entity)}
    ).rows:
        if imp is None or change is None or p is None or o is None:
            continue
        record = found.setdefault(
            change.value,
            {"import": imp.value, "started": started.value if started else "", "before": [], "after": []},
        )
        if path is not None:
            record["file"] = path.value
        local = p.value.rsplit("#", 1)[-1]
        if local in _FIELDS:
            record[_FIELDS[local]] = o.value
        elif local in ("valueBefore", "valueAfter"):
            side = "before" if local == "valueBefore" else "after"
            if term_json(o) not in record[side]:
                record[side].append(term_json(o))
    return sorted(found.values(), key=lambda r: (r["started"], r.get("property", "")), reverse=True)
