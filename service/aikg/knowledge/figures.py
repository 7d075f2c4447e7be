"""When two sources give the same figure differently: rounding, or a real disagreement.

The rule goes by the figures' stated precision, not by whether a number looks round: a figure states as
many significant digits as it writes (288: three, 287.5: four, 5,576,000: four, 80,000: one; a float's
noise past fifteen digits is not a statement). Two values agree up to rounding when the one stating
fewer digits is the other rounded to that many: 288 vs 287.5 GB, 175B vs 174.6B parameters and 2.1e25
vs 2.0999999999999998e25 FLOP are rounding; 192 vs 186 GB, 5,390,000 vs 5,576,000 USD, and 80,000 vs
100,000 GPUs (neither is the other rounded: before, a round number was taken to be precise only to its
first digit, so 100,000 "covered" anything from 50,000 to 150,000) are disagreements.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
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


NOISE_DIGITS = 15
"""Significant digits past which a float's digits are noise (a binary double carries fifteen for sure)."""


def significant(value: Decimal) -> int:
    """How many significant digits a number states: 288 -> 3, 287.5 -> 4, 80000 -> 1, 0.0305 -> 3."""
    if value == 0:
        return 1
    return min(len(value.normalize().as_tuple().digits), NOISE_DIGITS)


def rounded(value: Decimal, digits: int) -> Decimal:
    """``value`` rounded to ``digits`` significant digits, halves up (as SPARQL's ROUND)."""
    if value == 0:
        return value
    return value.quantize(Decimal(1).scaleb(value.adjusted() - digits + 1), rounding=ROUND_HALF_UP)


def compare(a: str | Decimal, b: str | Decimal) -> str:
    """``equal``, ``rounding`` or ``disagreement`` for two values of one figure (see the module)."""
    try:
        x, y = Decimal(str(a)), Decimal(str(b))
    except InvalidOperation:
        return EQUAL if str(a) == str(b) else DISAGREEMENT
    if not (x.is_finite() and y.is_finite()):
        return EQUAL if x == y else DISAGREEMENT
    if x == y:
        return EQUAL
    x, y = rounded(x, NOISE_DIGITS), rounded(y, NOISE_DIGITS)
    if x == y:
        return ROUNDING
    for less, other in ((x, y), (y, x)):
        digits = significant(less)
        if digits <= significant(other) and rounded(other, digits) == less:
            return ROUNDING
    return DISAGREEMENT


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
