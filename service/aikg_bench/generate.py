"""A synthetic graph in aikg's own ontology, at any size, that conforms to the shapes.

The seeds are the template: every entity they describe is copied once per replica under a numbered slug
(``id:coreweave`` -> ``id:coreweave-17``, label "CoreWeave 17", alt label "英伟达 17"), so the copies keep
the seeds' realistic shape (organizations of each kind, models, accelerators, systems, deployments, deals
with role properties, benchmark results, training runs, phases, CJK names) and conform to the same
shapes. Shared vocabulary-like entities (vendors, architectures, precisions, places, suites) stay single
hubs that every replica links to. Replicas are grouped into batches; each batch has its own copy of
every source graph and a catalogue entry per copied document, so the data is spread over many graphs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pyoxigraph as ox

from aikg.namespaces import AIKG, CATALOG_GRAPH, GRAPH, ID, ONTOLOGY_GRAPH, SHAPES_GRAPH
from aikg.resources import data_files
from aikg.store.terms import graph_iri, rdf11_object, rdf11_subject

_Position = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple | ox.DefaultGraph
"""Any term of a quad (subject, predicate, object or graph name)."""
_T = TypeVar("_T", bound=ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple)

_K, _B = "@@K@@", "@@B@@"
"""Markers in the templates: replica number, batch number."""

HUB_TYPES = frozenset(
    str(AIKG[t])
    for t in (
        "HardwareVendor",
        "ChipArchitecture",
        "NumericPrecision",
        "InterconnectTechnology",
        "Factor",
        "NetworkTopology",
        "BenchmarkSuite",
        "Place",
        "MediaOutlet",
        "ArchitectureFeature",
    )
)
"""Classes whose members stay shared hubs instead of being copied per replica."""

_FIXED = frozenset(
    str(ID[s])
    for s in (
        "catalog",
        "aikg-derived-facts",
        "aikg-inferred-facts",
        "aikg-entity-resolution",
        "aikg-import-records",
    )
)
"""Documents of graphs aikg maintains itself (one each, never copied per batch)."""
_SOURCE_DOC = str(AIKG.SourceDocument)
_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
_NAMES = frozenset(
    ("http://www.w3.org/2000/01/rdf-schema#label", "http://www.w3.org/2004/02/skos/core#altLabel")
)
_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
_GENERATED = frozenset(str(GRAPH[g]) for g in ("derived", "inferred"))

PER_BATCH = 25
"""Replicas sharing one copy of the source graphs (one copy per batch)."""


def parse_size(text: str) -> int:
    """``10k`` -> 10000, ``1M`` -> 1000000, ``2500`` -> 2500."""
    t = text.strip().lower()
    mult = {"k": 1_000, "m": 1_000_000}.get(t[-1:], 1)
    return int(float(t[:-1] if mult > 1 else t) * mult)


@dataclass
class Template:
    """The seeds as N-Quads lines with markers: per replica, per batch, and once."""

    replica: str
    batch: str
    once: str
    per_replica: int
    per_batch: int
    per_once: int
    entities: list[tuple[str, str]]
    """(slug, English label) of every labelled entity that is copied per replica."""
    names: list[str]
    """Every label and alternative name of those entities."""

    @property
    def copied_slugs(self) -> list[str]:
        return [slug for slug, _ in self.entities]


def _seed_quads() -> list[ox.Quad]:
    quads: list[ox.Quad] = []
    for f in data_files():
        if f.graph in (str(ONTOLOGY_GRAPH), str(SHAPES_GRAPH)):
            continue
        g = ox.NamedNode(f.graph)
        quads += [
            ox.Quad(q.subject, q.predicate, q.object, g)
            for q in ox.parse(path=str(f.path), format=ox.RdfFormat.TURTLE)
        ]
    return quads


def build_template() -> Template:
    """Turn the seeds into templates: which terms are copied per replica, which per batch."""
    quads = _seed_quads()
    id_base = str(ID)
    docs = {
        rdf11_subject(q).value
        for q in quads
        if q.predicate.value == _RDF_TYPE and rdf11_object(q).value == _SOURCE_DOC
    } - _FIXED
    hubs = {
        rdf11_subject(q).value
        for q in quads
        if q.predicate.value == _RDF_TYPE and rdf11_object(q).value in HUB_TYPES
    }
    per_batch_graphs = {graph_iri(q) for q in quads} - {str(CATALOG_GRAPH)} - _GENERATED

    def kind(term: _Position) -> str:
        """'k' copied per replica, 'b' per batch, '' shared."""
        if isinstance(term, ox.NamedNode):
            v = term.value
            if v in docs or v in per_batch_graphs:
                return "b"
            if v.startswith(id_base) and v not in hubs and v not in _FIXED:
                return "k"
        return ""

    def text(term: _Position, k: str) -> str:
        if not isinstance(term, ox.NamedNode):  # only IRIs are copied (kind is '' for other terms)
            return str(term)
        if k == "k":
            return f"<{term.value}-{_K}>"
        if k == "b":
            return f"<{term.value}-b{_B}>"
        return str(term)

    replica: list[str] = []
    batch: list[str] = []
    once: list[str] = []
    entities: dict[str, str] = {}
    names: set[str] = set()
    for q in quads:
        if kind(q.subject) == "k" and isinstance(q.object, ox.Literal) and q.predicate.value in _NAMES:
            names.add(q.object.value)
            if q.object.language == "en" and q.predicate.value != _ALT:
                entities.setdefault(rdf11_subject(q).value[len(id_base) :], q.object.value)
        ks, kp, ko, kg = (kind(t) for t in (q.subject, q.predicate, q.object, q.graph_name))
        o = text(q.object, ko)
        if isinstance(q.object, ox.Literal) and q.predicate.value in _NAMES and ks in ("k", "b"):
            lit = ox.Literal(
                q.object.value + (f" {_K}" if ks == "k" else f" (batch {_B})"), language=q.object.language
            )
            o = str(lit)
        line = f"{text(q.subject, ks)} {text(q.predicate, kp)} {o} {text(q.graph_name, kg)} .\n"
        kinds = {ks, kp, ko, kg}
        (replica if "k" in kinds else batch if "b" in kinds else once).append(line)
    return Template(
        "".join(replica),
        "".join(batch),
        "".join(once),
        len(replica),
        len(batch),
        len(once),
        sorted(entities.items()),
        sorted(names),
    )


def ontology_nquads() -> str:
    """The ontology and shapes as N-Quads in their graphs, so every peer gets the same vocabulary."""
    out = []
    blanks: dict[str, ox.BlankNode] = {}

    def stable(term: _T) -> _T | ox.BlankNode:
        # The parser names blank nodes at random: number them in order, so the file is reproducible.
        if isinstance(term, ox.BlankNode):
            return blanks.setdefault(term.value, ox.BlankNode(f"b{len(blanks)}"))
        return term

    for f in data_files():
        if f.graph in (str(ONTOLOGY_GRAPH), str(SHAPES_GRAPH)):
            g = ox.NamedNode(f.graph)
            out += [
                str(ox.Quad(stable(q.subject), q.predicate, stable(q.object), g)) + " .\n"
                for q in ox.parse(path=str(f.path), format=ox.RdfFormat.TURTLE)
            ]
    return "".join(out)


@dataclass
class Generated:
    """What was written: the file, the replica and batch counts and the number of lines (quads)."""

    path: Path
    replicas: int
    batches: int
    quads: int


def generate(
    path: Path, size: int, *, seed: int = 42, with_ontology: bool = True, per_batch: int = PER_BATCH
) -> Generated:
    """Write about ``size`` quads (ontology and shapes included) as N-Quads; same seed, same bytes."""
    t = build_template()
    onto = ontology_nquads() if with_ontology else ""
    fixed = onto.count("\n") + t.per_once
    per = t.per_replica + t.per_batch / per_batch
    replicas = max(1, round((size - fixed) / per))
    batches = -(-replicas // per_batch)
    # The seed decides which batch (which copy of the sources) each replica is reported in.
    order = list(range(1, replicas + 1))
    random.Random(seed).shuffle(order)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = 0
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as out:
        out.write(onto)
        lines += onto.count("\n")
        out.write(t.once)
        lines += t.per_once
        for b in range(1, batches + 1):
            out.write(t.batch.replace(_B, str(b)))
            lines += t.per_batch
            block = t.replica.replace(_B, str(b))
            for k in order[(b - 1) * per_batch : b * per_batch]:
                out.write(block.replace(_K, str(k)))
                lines += t.per_replica
    return Generated(path, replicas, batches, lines)
