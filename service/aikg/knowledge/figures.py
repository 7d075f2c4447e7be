"""When two sources give the same figure differently: rounding, or a real disagreement.

The tolerance rule (the same in the source-disagreements query): a figure is as precise as its last
significant digit (288 to the unit, 287.5 to the tenth, 5,576,000 to the thousand). Two values agree
up to rounding when they differ by no more than half a unit of the coarser one's last digit: 288 vs
287.5 GB and 175B vs 174.6B parameters are rounding; 192 vs 186 GB and 5,390,000 vs 5,576,000 USD are
disagreements.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

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
