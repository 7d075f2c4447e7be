"""The IRIs aikg mints and the vocabularies it reuses, declared once."""

from collections.abc import Mapping
from typing import Literal

import pyoxigraph as ox
from rdflib import Namespace, URIRef
from rdflib.namespace import DCAT, DCTERMS, OWL, PROV, SH, XSD

# The reused vocabularies the rest of the package imports from here: re-exported by name (``X as X``).
from rdflib.namespace import RDF as RDF
from rdflib.namespace import RDFS as RDFS
from rdflib.namespace import SKOS as SKOS

BASE = "https://w3id.org/aikg/"
AIKG = Namespace(BASE + "ontology#")
"""Vocabulary terms: classes, properties and controlled values."""
ID = Namespace(BASE + "id/")
"""Entities: one readable slug per thing (``id/nvidia``, ``id/deepseek-v3``)."""
GRAPH = Namespace(BASE + "graph/")
"""Named graphs: ``graph/ontology``, ``graph/shapes``, ``graph/catalog``, one per source, derived."""

SCHEMA = Namespace("https://schema.org/")
ORG = Namespace("http://www.w3.org/ns/org#")
QUDT = Namespace("http://qudt.org/schema/qudt/")
UNIT = Namespace("http://qudt.org/vocab/unit/")

ONTOLOGY_GRAPH = GRAPH["ontology"]
SHAPES_GRAPH = GRAPH["shapes"]
CATALOG_GRAPH = GRAPH["catalog"]
BACKGROUND_GRAPH = GRAPH["background"]
DERIVED_GRAPH = GRAPH["derived"]
INFERRED_GRAPH = GRAPH["inferred"]
DEFAULT_GRAPH = GRAPH["default"]
"""Where writes to "the default graph" go (SPARQL Update, the Graph Store Protocol's ``?default``); the
default graph that queries read is the union of all named graphs, this one included."""
SYSTEM_GRAPH = GRAPH["system"]
RESOLUTION_GRAPH = GRAPH["resolution"]
"""The Epoch import's entity-resolution links."""
IMPORTS_GRAPH = GRAPH["imports"]
"""The Epoch import's records (what each import read, found and changed)."""
HISTORY_GRAPH = GRAPH["history"]
"""What Epoch's datasets said before (values a newer snapshot replaced)."""
ANSWERS_GRAPH = GRAPH["answers"]
"""Maintained answers: the rows of the named queries declared ``# maintained:``, kept with each write
(aikg.knowledge.answers)."""
ANSWER = Namespace(BASE + "answer/")
"""The maintained answers' own terms: ``answer/of``, ``answer/column/<variable>``, rows and queries."""

GraphRole = Literal["maintained", "protected", "generated", "not facts", "not exported"]
"""What aikg does with a graph of its own:

- ``maintained``: aikg writes it itself; a client may not name it as a graph of its own (write.namespace);
- ``protected``: no write through the gate may change it (write.gate): from files, computed, or
  written by the Epoch import's own commit;
- ``generated``: computed from the others after every write (knowledge.derive);
- ``not facts``: its triples are not facts about entities, so an entity's page leaves them out
  (lookup.entities);
- ``not exported``: vocabulary, constraints and recomputable entailments, which an export leaves out
  (export.select)."""

_ROLES: tuple[tuple[URIRef, tuple[GraphRole, ...]], ...] = (
    (ONTOLOGY_GRAPH, ("maintained", "protected", "not facts", "not exported")),
    (SHAPES_GRAPH, ("maintained", "protected", "not facts", "not exported")),
    (INFERRED_GRAPH, ("maintained", "protected", "generated", "not facts", "not exported")),
    (DERIVED_GRAPH, ("maintained", "protected", "generated")),
    (CATALOG_GRAPH, ("maintained",)),
    (BACKGROUND_GRAPH, ("maintained",)),
    (SYSTEM_GRAPH, ("maintained",)),
    (RESOLUTION_GRAPH, ("maintained", "protected")),
    (IMPORTS_GRAPH, ("maintained", "protected", "not facts")),
    (HISTORY_GRAPH, ("maintained", "protected")),
    (ANSWERS_GRAPH, ("maintained", "protected", "generated", "not facts", "not exported")),
)
GRAPH_ROLES: dict[str, frozenset[GraphRole]] = {str(g): frozenset(roles) for g, roles in _ROLES}
"""Each of aikg's own graphs with its roles, side by side: the one place that says which graphs are data."""


def graphs_with(role: GraphRole) -> frozenset[str]:
    """aikg's graphs that have ``role`` (see :data:`GRAPH_ROLES`)."""
    return frozenset(g for g, roles in GRAPH_ROLES.items() if role in roles)


PREFIXES: dict[str, str] = {
    "aikg": str(AIKG),
    "id": str(ID),
    "graph": str(GRAPH),
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "owl": str(OWL),
    "xsd": str(XSD),
    "skos": str(SKOS),
    "sh": str(SH),
    "schema": str(SCHEMA),
    "org": str(ORG),
    "prov": str(PROV),
    "dcat": str(DCAT),
    "dcterms": str(DCTERMS),
    "qudt": str(QUDT),
    "unit": str(UNIT),
}
"""Prefixes offered to every query, export and editor, in one place."""


def sparql_prologue() -> str:
    """Return PREFIX declarations for all known namespaces, for queries written in code."""
    return "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())


class Nodes:
    """A namespace's terms as the store's own (pyoxigraph ``NamedNode``): ``AIKG_NODES.rule`` is the engine
    twin of ``AIKG.rule``, for code that talks to the store (``ox.NamedNode(str(AIKG.rule))`` otherwise)."""

    def __init__(self, namespace: object) -> None:  # an rdflib Namespace or DefinedNamespace
        self._base = str(namespace)

    def __getattr__(self, name: str) -> ox.NamedNode:
        if name.startswith("__"):
            raise AttributeError(name)
        return ox.NamedNode(self._base + name)

    def __getitem__(self, name: str) -> ox.NamedNode:
        return ox.NamedNode(self._base + name)


AIKG_NODES = Nodes(AIKG)
ID_NODES = Nodes(ID)
RDF_NODES = Nodes(RDF)
RDFS_NODES = Nodes(RDFS)


def node(iri: str) -> ox.NamedNode:
    """The store's term for ``iri`` (an rdflib ``URIRef`` such as a graph constant, or a string)."""
    return ox.NamedNode(str(iri))


def curie(iri: str, prefixes: Mapping[str, str] = PREFIXES) -> str:
    """``aikg:Neocloud`` for an IRI one of ``prefixes`` (aikg's) covers, else the IRI itself: the one IRI
    shortener of the code base (term names, exports' keys, validation reports)."""
    for prefix, ns in prefixes.items():
        if iri.startswith(ns) and len(iri) > len(ns):
            return f"{prefix}:{iri[len(ns) :]}"
    return iri


def slug_of(iri: str) -> str | None:
    """Return the slug of an aikg entity IRI, or None if the IRI is not an aikg entity."""
    return iri[len(str(ID)) :] if iri.startswith(str(ID)) else None
