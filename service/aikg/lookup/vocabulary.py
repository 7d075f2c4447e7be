"""What the API needs to know about the ontology and the source catalogue, read once per store version.

Labels of terms, the class hierarchy (subclass-aware filters and counts), each property's QUDT unit,
which classes are n-ary nodes, and for every named graph the source document that describes it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import pyoxigraph as ox
from rdflib.namespace import RDFS

from aikg.namespaces import AIKG, ONTOLOGY_GRAPH, QUDT, node
from aikg.store import Store

NARY_ROOTS = (
    AIKG.Event,
    AIKG.Position,
    AIKG.PriceList,
    AIKG.Price,
    AIKG.TopologyConfiguration,
    AIKG.ValueQualification,
)
"""Classes whose instances are n-ary nodes (expanded one level by the entity API), with subclasses."""

UNITS: dict[str, tuple[str, str]] = {
    "MIN": ("min", "minutes"),
    "HR": ("h", "hours"),
    "DAY": ("d", "days"),
    "YR": ("yr", "years"),
    "MegaW": ("MW", "megawatts"),
    "GigaW": ("GW", "gigawatts"),
    "GigaBYTE": ("GB", "gigabytes"),
    "NUM": ("", "count"),
    "UNITLESS": ("", "ratio"),
}
"""Display symbol and name of the QUDT units the ontology uses."""

QUALIFIER_SYMBOLS: dict[str, str] = {
    str(AIKG.Approximately): "≈",
    str(AIKG.AtMost): "≤",
    str(AIKG.AtLeast): "≥",
    str(AIKG.UpTo): "≤",
    str(AIKG.Nearly): "≲",
}
"""How each aikg qualifier is shown next to a figure."""


@dataclass
class Vocabulary:
    """Term labels, class and property hierarchy, units and n-ary classes from graph/ontology."""

    labels: dict[str, dict[str, str]] = field(default_factory=dict)
    supers: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    subs: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    units: dict[str, str] = field(default_factory=dict)
    classes: set[str] = field(default_factory=set)
    nary: frozenset[str] = frozenset()
    _specific: dict[frozenset[str], tuple[str, ...]] = field(default_factory=dict)

    def label(self, iri: str) -> str:
        """The English label of a term, else any label, else its local name."""
        by_lang = self.labels.get(iri)
        if by_lang:
            return by_lang.get("en") or by_lang.get("") or next(iter(by_lang.values()))
        return local_name(iri)

    def descendants(self, cls: str) -> set[str]:
        """The class and all its subclasses (transitively)."""
        out, todo = {cls}, [cls]
        while todo:
            for sub in self.subs.get(todo.pop(), ()):
                if sub not in out:
                    out.add(sub)
                    todo.append(sub)
        return out

    def ancestors(self, cls: str) -> set[str]:
        """All superclasses of the class (transitively), without the class itself."""
        out: set[str] = set()
        todo = [cls]
        while todo:
            for sup in self.supers.get(todo.pop(), ()):
                if sup not in out:
                    out.add(sup)
                    todo.append(sup)
        return out

    def most_specific(self, types: frozenset[str]) -> tuple[str, ...]:
        """Drop every type that is a superclass of another one in the set; stable order."""
        known = self._specific.get(types)
        if known is None:
            redundant: set[str] = set()
            for t in types:
                redundant |= self.ancestors(t)
            known = self._specific[types] = tuple(sorted(t for t in types if t not in redundant))
        return known

    def resolve_class(self, name: str) -> str | None:
        """A class given by IRI or by aikg local name (``Organization``), or None when unknown."""
        if name in self.classes:
            return name
        iri = str(AIKG[name])
        return iri if iri in self.classes else None

    def unit(self, prop: str) -> dict[str, str] | None:
        """The QUDT unit of a property's values as JSON, or None for unitless text properties."""
        iri = self.units.get(prop)
        if iri is None:
            return None
        symbol, name = UNITS.get(local_name(iri), (local_name(iri), local_name(iri)))
        return {"iri": iri, "symbol": symbol, "label": name}


def local_name(iri: str) -> str:
    """The part of an IRI after its last ``#`` or ``/``."""
    cut = max(iri.rfind("#"), iri.rfind("/"))
    return iri[cut + 1 :] if cut >= 0 else iri


_ONTOLOGY_QUERY = """
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX owl: <http://www.w3.org/2002/07/owl#>
PREFIX qudt: <http://qudt.org/schema/qudt/>
SELECT ?s ?p ?o ?g WHERE {
  VALUES ?p { rdfs:label rdfs:subClassOf qudt:unit }
  GRAPH ?g { ?s ?p ?o }
}"""

_CLASSES_QUERY = """
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX owl: <http://www.w3.org/2002/07/owl#>
SELECT DISTINCT ?c ?g WHERE {
  GRAPH ?g { { ?c a owl:Class } UNION { ?c rdfs:subClassOf ?x } UNION { ?x rdfs:subClassOf ?c } }
}"""


_LABEL, _SUBCLASS, _UNIT = str(RDFS.label), str(RDFS.subClassOf), str(QUDT.unit)


def build_vocabulary(store: Store) -> Vocabulary:
    """The ontology lookups for the store's current data (cached per version by the services)."""
    vocab = Vocabulary()
    in_ontology = {"g": node(ONTOLOGY_GRAPH)}
    for s, p, o, _ in store.query(_ONTOLOGY_QUERY, bindings=in_ontology).rows:
        if not isinstance(s, ox.NamedNode) or p is None:
            continue
        pred = p.value
        if pred == _LABEL and isinstance(o, ox.Literal):
            vocab.labels.setdefault(s.value, {}).setdefault(o.language or "", o.value)
        elif pred == _SUBCLASS and isinstance(o, ox.NamedNode):
            vocab.supers[s.value].add(o.value)
            vocab.subs[o.value].add(s.value)
        elif pred == _UNIT and isinstance(o, ox.NamedNode):
            vocab.units[s.value] = o.value
    vocab.classes = {
        r[0].value
        for r in store.query(_CLASSES_QUERY, bindings=in_ontology).rows
        if isinstance(r[0], ox.NamedNode)
    }
    nary: set[str] = set()
    for root in NARY_ROOTS:
        nary |= vocab.descendants(str(root))
    vocab.nary = frozenset(nary)
    return vocab


@dataclass(frozen=True)
class SourceDocument:
    """A catalogue entry: the document whose facts live in one named graph."""

    iri: str
    graph: str
    title: str | None
    publisher: str | None
    issued: str | None
    url: str | None
    language: str | None
    default_certainty: str | None


_CATALOG_QUERY = """
PREFIX aikg: <https://w3id.org/aikg/ontology#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX schema: <https://schema.org/>
SELECT ?doc ?g ?title ?publisher ?issued ?url ?lang ?cert WHERE {
  ?doc aikg:namedGraph ?g .
  OPTIONAL { ?doc dcterms:title ?title }
  OPTIONAL { ?doc dcterms:publisher ?publisher }
  OPTIONAL { ?doc dcterms:issued ?issued }
  OPTIONAL { ?doc schema:url ?url }
  OPTIONAL { ?doc dcterms:language ?lang }
  OPTIONAL { ?doc aikg:defaultCertainty ?cert }
}"""


def _text(term: ox.NamedNode | ox.BlankNode | ox.Literal | None) -> str | None:
    return None if term is None else term.value


def build_catalog(store: Store) -> dict[str, SourceDocument]:
    """Named graph IRI -> the source document describing it (cached per version by the services)."""
    docs: dict[str, SourceDocument] = {}
    for doc, g, title, publisher, issued, url, lang, cert in store.query(_CATALOG_QUERY).rows:
        if doc is None or g is None:
            continue
        key = g.value
        if key in docs and not (isinstance(title, ox.Literal) and title.language == "en"):
            continue  # one entry per graph; prefer an English title when the document has several
        docs[key] = SourceDocument(
            doc.value,
            key,
            _text(title),
            _text(publisher),
            _text(issued),
            _text(url),
            _text(lang),
            _text(cert),
        )
    return docs
