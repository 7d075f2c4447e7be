"""What a write may say before the shapes read it: terms the ontology defines, literals their datatype
can read.

Two kinds of statement passed the SHACL gate and were stored, silently useless:

- a term in aikg's ontology namespace that the ontology does not define (``aikg:tdp`` for
  ``aikg:thermalDesignPower``, a class ``aikg:GPUU``): no shape targets it, no query or page reads it, and
  the client is told 201;
- a literal whose lexical form its datatype cannot read (``"2025-02-30"^^xsd:date``,
  ``"8O"^^xsd:decimal``): stored as written, it is no value to the engine, so a FILTER, ORDER BY or
  comparison skips it without an error. pyshacl checks ``sh:datatype`` against ill-typed literals
  (rdflib's ``Literal.ill_typed``), but the gate hands it Oxigraph's terms, which carry no such flag,
  so only shapes with a pattern of their own caught some.

Both are refused as violations (422, the gate's error shape), each with what to write instead when the
ontology has a near term.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable

import pyoxigraph as ox
from rapidfuzz import fuzz, process
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import OWL, RDF, RDFS

from aikg.knowledge.validate import ValidationResult, Violation, load_ontology
from aikg.namespaces import AIKG

_ONTOLOGY = str(AIKG)
_XSD = "http://www.w3.org/2001/XMLSchema#"
_TYPE = ox.NamedNode(str(RDF.type))
_TEXT = frozenset({_XSD + "string", _XSD + "normalizedString", _XSD + "token", _XSD + "anyURI"})
"""XSD datatypes whose every lexical form is a value (nothing to read)."""
logging.getLogger("rdflib.term").setLevel(logging.ERROR)
"""rdflib logs a WARNING with a whole traceback for every literal its converter cannot read
(``rdflib.term._castLexicalToPython``), whoever parses it: ``aikg validate FILE`` printed eight for one bad
date. aikg reports such a literal itself (below), so the traceback says nothing more."""
CHECK = "aikg.write.terms"
"""What a violation of this module names as its shape (no SHACL shape says it)."""
SUGGEST_CUTOFF = 80
"""Least rapidfuzz WRatio (0–100) of an unknown term's local name to a term's name or label for the
term to be offered instead."""


@functools.cache
def defined_terms() -> frozenset[str]:
    """Every IRI of aikg's ontology namespace the ontology states something about."""
    onto = load_ontology()
    return frozenset(
        str(s) for s in onto.subjects() if isinstance(s, URIRef) and str(s).startswith(_ONTOLOGY)
    )


_KINDS = {
    "property": ("ObjectProperty", "DatatypeProperty", "AnnotationProperty"),
    "class": ("Class",),
}
"""What an unknown term stands for, by where it stands (a predicate, an object of rdf:type), and the OWL
types of the terms that can stand there."""


@functools.cache
def _names(kind: str | None) -> dict[str, str]:
    """Each defined term's local name and English labels, lower-cased, to the term; with ``kind``,
    only the properties or the classes."""
    onto = load_ontology()
    wanted = {OWL[t] for t in _KINDS[kind]} if kind else None
    names: dict[str, str] = {}
    for term in sorted(defined_terms()):
        if wanted is not None and wanted.isdisjoint(onto.objects(URIRef(term), RDF.type)):
            continue
        names.setdefault(term[len(_ONTOLOGY) :].lower(), term)
        for label in onto.objects(URIRef(term), RDFS.label):
            if isinstance(label, Literal) and label.language in (None, "en"):
                names.setdefault(str(label).lower(), term)
    return names


def nearest_term(iri: str, kind: str | None = None) -> str | None:
    """The defined term an unknown one most likely meant ("tdp" → TDP (W), aikg:thermalDesignPower),
    among the properties or the classes when ``kind`` says which the unknown one stands for."""
    names = _names(kind)
    found = process.extractOne(
        iri[len(_ONTOLOGY) :].lower(), list(names), scorer=fuzz.WRatio, score_cutoff=SUGGEST_CUTOFF
    )
    return names[found[0]] if found else None


def unknown_terms(quads: Iterable[ox.Quad]) -> list[tuple[ox.Quad, str]]:
    """(quad, term) for each use of an ontology-namespace IRI the ontology does not define."""
    defined = defined_terms()
    out = []
    for q in quads:
        for term in (q.subject, q.predicate, q.object):
            if (
                isinstance(term, ox.NamedNode)
                and term.value.startswith(_ONTOLOGY)
                and term.value not in defined
            ):
                out.append((q, term.value))
    return out


def ill_typed(literal: ox.Literal) -> bool:
    """Whether an XSD-typed literal's lexical form is no value of its datatype (rdflib's reading)."""
    datatype = literal.datatype.value
    if not datatype.startswith(_XSD) or datatype in _TEXT:
        return False
    return bool(Literal(literal.value, datatype=URIRef(datatype)).ill_typed)


def as_result(found: list[dict[str, str | None]], result: ValidationResult | None = None) -> ValidationResult:
    """``found`` as violations of a validation result (before ``result``'s own, when given): what ``aikg
    validate FILE`` reports, as the gate would refuse it."""
    before = [Violation(**{**v, "shape": CHECK}) for v in found]  # type: ignore[arg-type]
    if result is None:
        return ValidationResult(not before, before, Graph())
    return ValidationResult(result.conforms and not before, before + result.violations, result.report)


def violations(quads: Iterable[ox.Quad]) -> list[dict[str, str | None]]:
    """The statements of a write that name no term of the ontology or hold an unreadable literal, as
    the gate's violations (focus node, path, value, message)."""
    quads = list(quads)
    found: list[dict[str, str | None]] = []
    for q, term in unknown_terms(quads):
        kind = "property" if q.predicate.value == term else "class" if q.predicate == _TYPE else None
        near = nearest_term(term, kind)
        hint = f"; did you mean {near}?" if near else ""
        found.append(
            _violation(q, f"{term} is not a term of aikg's ontology: no query or page would read it{hint}")
        )
    for q in quads:
        if isinstance(q.object, ox.Literal) and ill_typed(q.object):
            datatype = q.object.datatype.value.replace(_XSD, "xsd:")
            found.append(
                _violation(
                    q,
                    f'"{q.object.value}" is not a value of {datatype}: stored as written, the engine would '
                    "skip it in every filter, order and sum",
                )
            )
    return found


def _violation(q: ox.Quad, message: str) -> dict[str, str | None]:
    return {
        "focus_node": q.subject.value if isinstance(q.subject, ox.NamedNode) else str(q.subject),
        "path": q.predicate.value,
        "message": message,
        "severity": "Violation",
        "shape": CHECK,
        "value": str(q.object),
    }
