"""Reading Epoch's cells: numbers, dates, lists and the confidence tags written inside values.

Epoch's exports are hand-kept tables. An empty cell, ``inf`` or ``nan`` means unknown; owners are
comma-separated lists where each name may carry a tag (``Oracle #confident``); dates are ISO dates.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from rdflib import Literal
from rdflib.namespace import XSD

_UNKNOWN = frozenset({"", "inf", "-inf", "+inf", "nan", "none", "null", "n/a", "na", "unknown", "?"})
_TAG = re.compile(r"#\s*([A-Za-z]+)")
_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")


def number(cell: str | None) -> Decimal | None:
    """A finite number, or None when the cell is empty, ``inf``, ``nan`` or not a number."""
    text = (cell or "").strip().replace(",", "").replace("$", "")
    if text.lower() in _UNKNOWN:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    if not value.is_finite() or math.isinf(float(value)):
        return None
    return value


def plain(value: Decimal) -> str:
    """A number in plain notation (no exponent), trailing zeros removed: 6.71E+11 -> 671000000000."""
    text = format(value.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def decimal_literal(value: Decimal) -> Literal:
    """An xsd:decimal literal in plain notation."""
    return Literal(plain(value), datatype=XSD.decimal)


def integer_literal(value: Decimal) -> Literal:
    """An xsd:integer literal (the caller checked the value is whole)."""
    return Literal(str(int(value)), datatype=XSD.integer)


def date_literal(cell: str | None) -> Literal | None:
    """An xsd:date / gYearMonth / gYear literal from an ISO date (time of day dropped), or None."""
    m = _DATE.match((cell or "").strip())
    if not m:
        return None
    year, month, day = m.groups()
    if day:
        return Literal(f"{year}-{month}-{day}", datatype=XSD.date)
    if month:
        return Literal(f"{year}-{month}", datatype=XSD.gYearMonth)
    return Literal(year, datatype=XSD.gYear)


@dataclass(frozen=True)
class Tagged:
    """One name from a list cell and the confidence tag written after it, if any."""

    name: str
    tag: str | None


def tagged_list(cell: str | None) -> list[Tagged]:
    """Split a comma-separated cell into names, taking ``#tag`` markers out of each name."""
    out: list[Tagged] = []
    for part in (cell or "").split(","):
        tags = _TAG.findall(part)
        name = " ".join(_TAG.sub(" ", part).split())
        if name and name.lower() not in _UNKNOWN:
            out.append(Tagged(name, tags[-1].lower() if tags else None))
    return out


def text(cell: str | None) -> str | None:
    """A stripped text cell, or None when empty; inner line breaks are kept (multi-line notes)."""
    value = (cell or "").strip()
    return value or None


def normalize(name: str) -> str:
    """The comparison key of a name: ASCII-folded, lower case, punctuation turned into spaces."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", folded).split())


def slugify(name: str) -> str:
    """A readable slug for a new entity IRI: lower-case ASCII letters, digits and single hyphens."""
    return "-".join(normalize(name).split()) or "unnamed"


_SCALE = {"k": Decimal(10) ** 3, "thousand": Decimal(10) ** 3, "m": Decimal(10) ** 6,
          "million": Decimal(10) ** 6, "b": Decimal(10) ** 9, "billion": Decimal(10) ** 9,
          "t": Decimal(10) ** 12, "trillion": Decimal(10) ** 12}
_PARAMS_IN_NOTES = re.compile(
    r"(\d+(?:\.\d+)?)\s*(trillion|billion|million|thousand|[TBMK])\b(?:\s*\(?[A-Za-z ]{0,20})?\s*param", re.I)


def parameters_in_notes(notes: str | None) -> list[Decimal]:
    """Parameter counts a free-text note states (``671B parameters``, ``1.5 billion params``)."""
    found = []
    for value, scale in _PARAMS_IN_NOTES.findall(notes or ""):
        found.append(Decimal(value) * _SCALE[scale.lower()])
    return found
