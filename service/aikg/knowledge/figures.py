"""When two sources give the same figure differently: rounding, or a real disagreement.

The tolerance rule (the same in the source-disagreements query): a figure is as precise as its last
significant digit (288 to the unit, 287.5 to the tenth, 5,576,000 to the thousand). Two values agree
up to rounding when they differ by no more than half a unit of the coarser one's last digit: 288 vs
287.5 GB and 175B vs 174.6B parameters are rounding; 192 vs 186 GB and 5,390,000 vs 5,576,000 USD are
disagreements.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from functools import lru_cache

from rdflib import URIRef
from rdflib.namespace import RDF, RDFS, XSD

from aikg.namespaces import AIKG

FIGURES = tuple(
    str(AIKG[p])
    for p in (
        "totalParameters",
        "activeParameters",
        "trainingTokens",
        "cost",
        "acceleratorCount",
        "gpuHours",
        "durationDays",
        "trainingCompute",
        "memoryPerChip",
        "powerCapacity",
        "h100Equivalents",
        "amount",
        "postMoneyValuation",
    )
)
"""The figures compared across sources (the source-disagreements query compares the same ones)."""

ROUNDING, DISAGREEMENT, EQUAL = "rounding", "disagreement", "equal"


def last_digit(value: Decimal) -> Decimal:
    """The place of a number's last significant digit: 288 -> 1, 287.5 -> 0.1, 5576000 -> 1000."""
    if value == 0:
        return Decimal(1)
    sign, digits, exponent = value.normalize().as_tuple()
    return Decimal(1).scaleb(int(exponent))


def compare(a: str | Decimal, b: str | Decimal) -> str:
    """``equal``, ``rounding`` or ``disagreement`` for two values of one figure (see the module)."""
    try:
        x, y = Decimal(str(a)), Decimal(str(b))
    except InvalidOperation:
        return EQUAL if str(a) == str(b) else DISAGREEMENT
    if x == y:
        return EQUAL
    coarse = max(last_digit(x), last_digit(y))
    return ROUNDING if abs(x - y) * 2 <= coarse else DISAGREEMENT


NUMERIC_DATATYPES = frozenset({str(XSD.decimal), str(XSD.integer), str(XSD.double)})


@lru_cache(maxsize=1)
def numeric_ranges() -> dict[str, str]:
    """Every property of the ontology whose range is a number -> that datatype's IRI; a sub-property
    without a range of its own has its parent's (the FLOP/s of each precision are aikg:peakPerformance's).

    The ontology is where a figure's datatype is declared once: the Epoch import writes each figure in
    it, and the shapes and tests check the store against it."""
    from aikg.knowledge.validate import load_ontology

    graph = load_ontology()

    def range_of(prop: URIRef, seen: frozenset[URIRef] = frozenset()) -> str | None:
        declared = graph.value(prop, RDFS.range)
        if declared is not None:
            return str(declared)
        for parent in graph.objects(prop, RDFS.subPropertyOf):
            if isinstance(parent, URIRef) and parent not in seen:
                found = range_of(parent, seen | {prop})
                if found is not None:
                    return found
        return None

    out = {}
    for prop in set(graph.subjects(RDF.type, None)):
        if isinstance(prop, URIRef) and str(prop).startswith(str(AIKG)):
            found = range_of(prop)
            if found in NUMERIC_DATATYPES:
                out[str(prop)] = found
    return out


def numeric_range(prop: str) -> str:
    """The datatype a figure of ``prop`` is written in: its numeric range, else xsd:decimal."""
    return numeric_ranges().get(prop, str(XSD.decimal))
