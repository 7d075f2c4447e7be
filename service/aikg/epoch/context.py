"""What every mapping function shares: the row being read, the quads, the resolver, the findings.

A :class:`Row` reads its cells through the value readers of :mod:`aikg.epoch.values` and reports each
cell it could not read as it stands (per row and column), so no value is dropped silently. The
:class:`Context` turns names into resolved entities with one English label each, writes the links
resolution decides into the resolution graph, and gives every row node its provenance.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from rdflib import Literal, URIRef
from rdflib.namespace import RDF, RDFS, SKOS, XSD

from aikg.epoch.links import RowNames
from aikg.epoch.reconcile import RESOLUTION_GRAPH, Decision, Reconciler
from aikg.epoch.rows import Quads, RowKey
from aikg.epoch.values import (
    Tagged,
    is_unknown,
    number_literal,
    plain,
    read_date,
    read_number,
    slugify,
    tagged_list,
    text,
)
from aikg.knowledge.figures import numeric_range
from aikg.namespaces import AIKG, ID

SCHEMA_URL = URIRef("https://schema.org/url")

CONFIDENCE = {
    "confirmed": AIKG.Confirmed,
    "confident": AIKG.Confident,
    "likely": AIKG.Likely,
    "uncertain": AIKG.Uncertain,
    "speculative": AIKG.Speculative,
    "unlikely": AIKG.Unlikely,
    "unverified": AIKG.Unverified,
    "unknown": AIKG.ConfidenceUnknown,
}
"""Epoch's confidence words, read as dataset confidence (a different axis from document certainty)."""


class Rejected(Exception):
    """The row is left out; the message says why (a cell that identifies it is missing, or a name in it
    cannot be resolved without a person's decision)."""


@dataclass
class Finding:
    """One thing the import reports about a row, a value, a column or a name."""

    kind: str
    """merge, link, ambiguity, rejected-row, unreadable-value, read-value, flag or column."""
    file: str
    message: str
    row: int | None = None
    column: str | None = None
    value: str | None = None
    node: str | None = None
    name: str | None = None
    entity_kind: str | None = None
    candidates: list[str] = field(default_factory=list)
    link: tuple[str, str] | None = None
    """(property, target) of a link."""
    rule: str | None = None

    def to_json(self) -> dict[str, object]:
        """Plain data, empty fields left out."""
        out: dict[str, object] = {"kind": self.kind, "file": self.file, "message": self.message}
        for key in ("row", "column", "value", "node", "name", "entity_kind", "rule"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.candidates:
            out["candidates"] = self.candidates
        if self.link is not None:
            out["link"] = {"property": self.link[0], "target": self.link[1]}
        return out


@dataclass
class Context:
    """The state one import's mapping functions share."""

    quads: Quads
    reconciler: Reconciler
    findings: list[Finding] = field(default_factory=list)
    row_ids: set[str] = field(default_factory=set)
    files: dict[str, str] = field(default_factory=dict)
    """Dataset graph -> its file, for findings."""
    date_orders: dict[tuple[str, str], str] = field(default_factory=dict)
    """(file, column) -> how the column writes dates with slashes ("mdy" or "dmy"), when known."""
    row_names: RowNames = field(default_factory=RowNames)
    """The names of the row nodes mapped, and the cells naming other rows (linked once all are mapped)."""

    # -- nodes -------------------------------------------------------------------------------------

    def row_node(self, base: str, distinct: Iterable[str] = ()) -> URIRef:
        """A deterministic IRI for a row node: the slug; a second row with the same slug gets a short
        digest of its identifying cells (stable from one snapshot to the next), then -2, -3 …"""
        slug = base
        if slug in self.row_ids or slug in self.reconciler.outside:
            digest = hashlib.sha1("\x1f".join(distinct).encode("utf-8")).hexdigest()[:6]
            slug = f"{base}-{digest}"
        n = 2
        while slug in self.row_ids or slug in self.reconciler.outside:
            slug = f"{base}-{n}"
            n += 1
        self.row_ids.add(slug)
        return URIRef(ID[slug])

    def entity(self, row: Row, kind: str, name: str, cls: URIRef) -> URIRef:
        """The resolved node for a name, typed as the file says; one English label per entity."""
        decision = self.reconciler.resolve(kind, name, row.graph)
        if decision.status == "unresolved":
            shown = ", ".join(c.replace(str(ID), "id:") for c in decision.candidates)
            raise Rejected(f"{kind} {name.strip()!r} may be {shown}: {decision.rule}")
        node = URIRef(decision.iri)
        self._describe(row, decision, node, name, cls)
        return node

    def _describe(
        self, row: Row, decision: Decision, node: URIRef, name: str | None, cls: URIRef | None
    ) -> None:
        q, key, graph = self.quads, row.key, row.graph
        if cls is not None:
            q.add(key, graph, node, RDF.type, cls)
        if decision.epoch_born and decision.label:
            # Every Epoch graph naming an entity no document holds restates its one label, so the
            # label survives whichever file is re-imported.
            q.add(key, graph, node, RDFS.label, Literal(decision.label, lang="en"))
        if name and name.strip() != (decision.label or "").strip():
            # Every other spelling is kept as a name ("GLM-4.6" beside the label "GLM 4.6").
            q.add(key, graph, node, SKOS.altLabel, Literal(name.strip()))
        for s, p, o in decision.links:
            q.add(key, RESOLUTION_GRAPH, URIRef(s), URIRef(p), URIRef(o))

    def run(self, row: Row, model: Decision, name: str) -> URIRef:
        """The training run of a model: one per real training, each file's row a source of it."""
        decision = self.reconciler.run_for(model, name, row.graph)
        node = URIRef(decision.iri)
        self._describe(row, decision, node, None, AIKG.TrainingRun)
        self.quads.owns(row.key, node)
        return node

    # -- facts -------------------------------------------------------------------------------------

    def provenance(
        self, row: Row, node: URIRef, confidence: str | None = None, links: Iterable[str] = ()
    ) -> None:
        """The row's line number, its confidence (verbatim and as dataset confidence) and its links."""
        q = self.quads
        q.owns(row.key, node)
        q.add(row.key, row.graph, node, AIKG.sourceRow, Literal(row.key[1], datatype=XSD.integer))
        word = (confidence or "").strip()
        if word:
            q.add(row.key, row.graph, node, AIKG.sourceConfidence, Literal(word))
            level = _confidence_level(row, word, "confidence", "kept as written only")
            q.add(row.key, row.graph, node, AIKG.datasetConfidence, level)
        for link in links:
            found = [iri for iri in (_url(u) for u in _URLS.findall(link)) if iri is not None]
            text = link.strip()
            if not found and _BARE_URL.match(text):
                iri = _url("https://" + text)
                if iri is not None:
                    found = [iri]
                    row.problem("read-value", None, text, f"source link {text[:120]!r} read as {iri}")
            for iri in found:
                q.add(row.key, row.graph, node, SCHEMA_URL, iri)
            if not found and text and not is_unknown(text):
                q.add(row.key, row.graph, node, AIKG.note, Literal(f"Source: {text}", lang="en"))
                row.problem("read-value", None, text, f"source {text[:120]!r} is not a link: kept as a note")

    def rate(self, row: Row, node: URIRef, prop: URIRef, value: URIRef | Literal, tag: str | None) -> None:
        """A source's rating of one link of a node (Epoch's "Oracle #confident" in an owner list), as a
        rating node of its own: each link keeps its own, never the node's."""
        word = (tag or "").strip()
        if not word:
            return
        level = _confidence_level(row, word, "confidence tag", "the link is kept without a rating")
        if level is None:
            return
        name = value.rsplit("/", 1)[-1] if isinstance(value, URIRef) else slugify(str(value))
        rating = self.row_node(f"rating-{node.rsplit('/', 1)[-1]}-{prop.rsplit('#', 1)[-1].lower()}-{name}")
        q, key, g = self.quads, row.key, row.graph
        q.owns(key, rating)
        q.add(key, g, rating, RDF.type, AIKG.LinkRating)
        q.add(key, g, node, AIKG.linkRating, rating)
        q.add(key, g, rating, AIKG.onProperty, prop)
        q.add(key, g, rating, AIKG.onValue, value)
        q.add(key, g, rating, AIKG.sourceConfidence, Literal(word))
        q.add(key, g, rating, AIKG.datasetConfidence, level)

    def figure(
        self,
        row: Row,
        node: URIRef,
        prop: URIRef,
        value: Decimal | None,
        scale: Decimal = Decimal(1),
        places: int | None = None,
    ) -> None:
        """A figure (scaled into the property's unit, rounded to ``places`` decimals), when known, in the
        datatype the ontology gives the property (training compute is an xsd:double)."""
        if value is None:
            return
        scaled = value * scale
        if places is not None:
            scaled = round(scaled, places)
        self.quads.add(row.key, row.graph, node, prop, number_literal(scaled, numeric_range(str(prop))))

    def figure_cell(
        self,
        row: Row,
        node: URIRef,
        prop: URIRef,
        column: str,
        scale: Decimal = Decimal(1),
        places: int | None = None,
    ) -> None:
        """A figure from a column; a cell that is not one number (a range such as "1358.8 - 2637.5") is
        kept as a note on the node in the file's words, and reported."""
        reading = read_number(row.cells.get(column))
        if reading.value is None and reading.problem is not None:
            self.quads.add(
                row.key,
                row.graph,
                node,
                AIKG.note,
                Literal(f"{column}: {row.raw(column).strip()}", lang="en"),
            )
            row.problem(
                "unreadable-value",
                column,
                row.raw(column),
                f"{column}: {reading.problem}: kept as a note, not as a figure",
            )
            return
        row._report(column, reading.problem, reading.lenient)
        self.figure(
            row, node, prop, reading.value if isinstance(reading.value, Decimal) else None, scale, places
        )

    def flag(self, row: Row, node: URIRef, flag: str, note: str) -> None:
        """Flag a suspicious value as data (aikg:flag, aikg:note) and for the report."""
        self.quads.add(row.key, row.graph, node, AIKG.flag, Literal(flag))
        self.quads.add(row.key, row.graph, node, AIKG.note, Literal(note, lang="en"))
        self.findings.append(Finding("flag", row.file, note, row=row.key[1], node=str(node), rule=flag))


_YES = frozenset({"yes", "true"})
_NO = frozenset({"no", "false"})


@dataclass
class Row:
    """One CSV row being mapped: where it is, its cells, and what went wrong reading them."""

    ctx: Context
    file: str
    graph: str
    line: int
    cells: dict[str, str]

    @property
    def key(self) -> RowKey:
        """(file, line): what the quads remember."""
        return (self.file, self.line)

    def raw(self, column: str) -> str:
        """A cell as the file writes it ('' when the column is absent)."""
        return self.cells.get(column) or ""

    def text(self, column: str) -> str | None:
        """A text cell, stripped; None when empty or "unknown"."""
        value = text(self.cells.get(column))
        return None if value is None or is_unknown(value) else value

    def number(self, column: str) -> Decimal | None:
        """A number; a cell read leniently or not at all is reported."""
        reading = read_number(self.cells.get(column))
        self._report(column, reading.problem, reading.lenient)
        return reading.value if isinstance(reading.value, Decimal) else None

    def whole(self, column: str) -> Literal | None:
        """A whole number as xsd:integer; a fraction is reported and left out."""
        value = self.number(column)
        if value is None:
            return None
        whole = value.to_integral_value()
        if value != whole and whole != 0 and abs(value - whole) / abs(whole) < Decimal("1e-9"):
            # 30000.000000000004: floating-point noise of the export, not a fraction of a chip
            self.problem(
                "read-value", column, self.raw(column), f"{column}: {self.raw(column)!r} read as {whole}"
            )
            value = whole
        if value != whole:
            self.problem(
                "unreadable-value",
                column,
                self.raw(column),
                f"{column} {plain(value)} is not a whole number: left out",
            )
            return None
        return Literal(str(int(value)), datatype=XSD.integer)

    def flag(self, column: str) -> Literal | None:
        """A yes/no cell as xsd:boolean ("Yes"/"True", "No"/"False"); None when the cell is empty or says
        it is not known ("Unclear"); anything else is reported and left out."""
        value = (self.cells.get(column) or "").strip().lower()
        if value in _YES or value in _NO:
            return Literal(value in _YES)
        if not is_unknown(value):
            self.problem("unreadable-value", column, self.raw(column), f"{column}: not yes or no: left out")
        return None

    def date(self, column: str) -> Literal | None:
        """A date literal; a cell read leniently or not at all is reported."""
        reading = read_date(self.cells.get(column), self.ctx.date_orders.get((self.file, column)))
        self._report(column, reading.problem, reading.lenient)
        return reading.value if isinstance(reading.value, Literal) else None

    def names(self, column: str) -> list[Tagged]:
        """The names of a list cell, with their #tags."""
        return tagged_list(self.cells.get(column))

    def _report(self, column: str, problem: str | None, lenient: bool) -> None:
        if problem is None:
            return
        if lenient:
            self.problem("read-value", column, self.raw(column), f"{column}: {problem}")
        else:
            self.problem("unreadable-value", column, self.raw(column), f"{column}: {problem}: left out")

    def problem(self, kind: str, column: str | None, value: str | None, message: str) -> None:
        """Report a value of this row."""
        self.ctx.findings.append(
            Finding(kind, self.file, message, row=self.line, column=column, value=(value or "")[:300] or None)
        )


_URLS = re.compile(r"https?://[^\s<>\"]+")
"""A URL in a cell that may hold several (on separate lines, or after a comma or a semicolon)."""
_BARE_URL = re.compile(r"^(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)+/\S*$", re.I)
"""A link written without its scheme (arxiv.org/abs/…)."""


def _confidence_level(row: Row, word: str, what: str, kept: str) -> URIRef | None:
    """The dataset confidence of one of Epoch's words (any case); another word is a problem of the row,
    ``what`` naming the cell and ``kept`` saying what becomes of the value."""
    level = CONFIDENCE.get(word.lower())
    if level is None:
        row.problem(
            "unreadable-value",
            None,
            word,
            f"{what} {word!r} is not one of Epoch's words (Confident, Likely, Speculative …): {kept}",
        )
    return level


def _url(link: str) -> URIRef | None:
    link = link.strip().rstrip(",;.)")
    if not link.startswith(("http://", "https://")) or any(c in link for c in ' <>"{}|\\^`\n'):
        return None
    return URIRef(link)
