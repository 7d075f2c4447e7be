"""Reading Epoch's cells: numbers, dates, lists and the confidence tags written inside values.

Epoch's exports are hand-kept tables. An empty cell, ``inf`` or ``nan`` means unknown and is not a
problem. Anything else that is not in the column's form is either read leniently and said so ("284B"
in a count column is 284 billion, "April 2026" is 2026-04) or cannot be read; the caller reports both,
per row and column, so no value is ever dropped silently.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from dataclasses import dataclass
from decimal import Context, Decimal, InvalidOperation

from rdflib import Literal
from rdflib.namespace import XSD

UNKNOWN = frozenset(
    {"", "inf", "-inf", "+inf", "nan", "none", "null", "n/a", "na", "unknown", "?", "-", "tbd", "unclear"}
)
"""Cell texts that mean "not known" (compared in lower case)."""

_TAG = re.compile(r"#\s*([A-Za-z]+)")
_ISO_DATE = re.compile(
    r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$"
)
_GROUPED = re.compile(r"^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_SCALED = re.compile(r"^(\d+(?:\.\d+)?)\s*(k|thousand|m|mn|million|b|bn|billion|t|trillion)$", re.I)
_MONTHS = {
    m: i
    for i, m in enumerate(
        (
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ),
        1,
    )
}
_MONTH_YEAR = re.compile(r"^([A-Za-z]+)\.?,?\s+(\d{4})$")
_DAY_MONTH_YEAR = re.compile(r"^(?:(\d{1,2})\s+([A-Za-z]+)|([A-Za-z]+)\s+(\d{1,2}),?)\s+(\d{4})$")
_SCALE = {
    "k": Decimal(10) ** 3,
    "thousand": Decimal(10) ** 3,
    "m": Decimal(10) ** 6,
    "mn": Decimal(10) ** 6,
    "million": Decimal(10) ** 6,
    "b": Decimal(10) ** 9,
    "bn": Decimal(10) ** 9,
    "billion": Decimal(10) ** 9,
    "t": Decimal(10) ** 12,
    "trillion": Decimal(10) ** 12,
}


@dataclass(frozen=True)
class Reading:
    """What a cell gave: a value (or None when unknown or unreadable) and, when it was not read as it
    stands, why: ``lenient`` readings are kept and reported, others are reported and left out."""

    value: object | None
    problem: str | None = None
    lenient: bool = False


def is_unknown(cell: str | None) -> bool:
    """True for an empty cell or a text that means "not known"."""
    return (cell or "").strip().lower() in UNKNOWN


def read_number(cell: str | None) -> Reading:
    """A finite decimal number; ``1,234``, ``$5``, ``284B`` / ``1.5 trillion`` are read leniently."""
    raw = (cell or "").strip()
    if raw.lower() in UNKNOWN:
        return Reading(None)
    text = raw.removeprefix("$").strip()
    if _GROUPED.match(text):
        text = text.replace(",", "")  # thousands separators: the number as written, nothing to report
    lenient = text != raw.removeprefix("$").strip() and not _GROUPED.match(raw.removeprefix("$").strip())
    value = _decimal(text)
    if value is None:
        m = _SCALED.match(text)
        if m is None:
            return Reading(None, f"{raw!r} is not a number")
        value, lenient = Decimal(m.group(1)) * _SCALE[m.group(2).lower()], True
    if not value.is_finite():
        return Reading(None)  # "Infinity", "NaN": Decimal's own words for unknown, like "inf"
    if math.isinf(float(value)):
        return Reading(None, f"{raw!r} is too large to be a figure here (left unknown)")
    value = _SIGNIFICANT.plus(value)
    if lenient:
        return Reading(value, f"{raw!r} read as {plain(value)}", lenient=True)
    return Reading(value)


_SIGNIFICANT = Context(prec=15)
"""A figure keeps at most 15 significant digits, the digits a double holds exactly: Epoch's files are
written from doubles, and the digits past the 15th are the binary float's noise (3.4294999999999995 is
3.4295, 100000.00000147166 is 100000.000001472). Fewer digits stay as the file writes them, and every
engine then holds the same number (Virtuoso rounds a decimal's 16th decimal place)."""


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def number(cell: str | None) -> Decimal | None:
    """The number a cell gives (leniently read forms included), or None."""
    value = read_number(cell).value
    return value if isinstance(value, Decimal) else None


EARLIEST_YEAR = 1800
"""A date before this year in Epoch's data is a typo ("0202-07-30" for a 2025 report), not a date."""


_SLASHED = re.compile(
    r"^(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?:[ T]+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?)?$"
)
"""A date with slashes, as a spreadsheet saves it (7/22/2025, 22/07/2025, 7/22/25 0:00)."""
_MONTH_SLASH_YEAR = re.compile(r"^(\d{1,2})/(\d{4})$")
ORDERS = {"mdy": "month/day/year", "dmy": "day/month/year"}


def slashed_parts(cell: str | None) -> tuple[int, int] | None:
    """The first two numbers of a date written with slashes (which is the month is unknown), or None."""
    m = _SLASHED.match((cell or "").strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def read_date(cell: str | None, order: str | None = None) -> Reading:
    """An xsd:date / gYearMonth / gYear literal from an ISO date (time of day dropped); month names
    (``April 2026``, ``3 April 2026``, ``April 3, 2026``) are read leniently. A date with slashes
    (``7/22/2025``) is read in ``order`` ("mdy" or "dmy", what the other dates of its column show);
    without one, only when it tells its own order (a part over 12, or both parts equal); otherwise it is
    ambiguous, reported and left unknown, never guessed."""
    raw = (cell or "").strip()
    if raw.lower() in UNKNOWN:
        return Reading(None)
    m = _ISO_DATE.match(raw)
    if m:
        year, month, day = m.groups()[:3]
        if not _real_date(year, month, day, m.groups()[3:]):
            return Reading(None, f"{raw!r} is not a date")
        if int(year) < EARLIEST_YEAR:
            return Reading(None, f"{raw!r} has the year {year}, before any computing: a typo (left unknown)")
        if day:
            return Reading(Literal(f"{year}-{month}-{day}", datatype=XSD.date))
        if month:
            return Reading(Literal(f"{year}-{month}", datatype=XSD.gYearMonth))
        return Reading(Literal(year, datatype=XSD.gYear))
    m = _SLASHED.match(raw)
    if m:
        return _slashed(raw, int(m.group(1)), int(m.group(2)), m.group(3), order)
    m = _MONTH_SLASH_YEAR.match(raw)
    if m and 1 <= int(m.group(1)) <= 12 and int(m.group(2)) >= EARLIEST_YEAR:
        value = Literal(f"{m.group(2)}-{int(m.group(1)):02d}", datatype=XSD.gYearMonth)
        return Reading(value, f"{raw!r} read as {value} (month/year)", lenient=True)
    m = _MONTH_YEAR.match(raw)
    if m and _month(m.group(1)):
        value = Literal(f"{m.group(2)}-{_month(m.group(1)):02d}", datatype=XSD.gYearMonth)
        return Reading(value, f"{raw!r} read as {value}", lenient=True)
    m = _DAY_MONTH_YEAR.match(raw)
    if m:
        day, month_name = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        month = _month(month_name)
        if month and _real_date(m.group(5), str(month), day):
            value = Literal(f"{m.group(5)}-{month:02d}-{int(day):02d}", datatype=XSD.date)
            return Reading(value, f"{raw!r} read as {value}", lenient=True)
    return Reading(None, f"{raw!r} is not a date")


def _slashed(raw: str, a: int, b: int, year_text: str, order: str | None) -> Reading:
    year = int(year_text) if len(year_text) == 4 else 2000 + int(year_text)
    notes = [] if len(year_text) == 4 else [f"the year {year_text} read as {year}"]
    if order is None:
        if a > 12 or b > 12 or a == b:
            order = "dmy" if a > 12 else "mdy"
            notes.append(f"{ORDERS[order]}, as the date itself shows")
        else:
            return Reading(
                None,
                f"{raw!r} is ambiguous: {year}-{a:02d}-{b:02d} (month/day) or {year}-{b:02d}-{a:02d} "
                "(day/month), and no other date of its column tells which: left unknown",
            )
    month, day = (a, b) if order == "mdy" else (b, a)
    if not _real_date(str(year), str(month), str(day)) or year < EARLIEST_YEAR:
        return Reading(None, f"{raw!r} is not a date ({ORDERS[order]})")
    value = Literal(f"{year:04d}-{month:02d}-{day:02d}", datatype=XSD.date)
    if notes:
        return Reading(value, f"{raw!r} read as {value} ({'; '.join(notes)})", lenient=True)
    return Reading(value)


def _real_date(year: str, month: str | None, day: str | None, time: tuple[str | None, ...] = ()) -> bool:
    """Whether an ISO date's parts name a day of the calendar (no 31 June, no 29 February 2025) and
    its time of day, if any, a time (no 25:99): rdflib stores ``"2024-02-31"^^xsd:date`` as written,
    which the shapes then refuse and date comparisons skip."""
    try:
        dt.date(int(year), int(month or 1), int(day or 1))
    except ValueError:
        return False
    hour, minute, second, off_hours, off_minutes = ([int(t) if t else 0 for t in time] + [0] * 5)[:5]
    return hour <= 23 and minute <= 59 and second <= 59 and off_hours <= 14 and off_minutes <= 59


def _month(name: str) -> int | None:
    name = name.lower()
    for full, n in _MONTHS.items():
        if len(name) >= 3 and full.startswith(name):
            return n
    return None


def plain(value: Decimal) -> str:
    """A number in plain notation (no exponent), trailing zeros removed: 6.71E+11 -> 671000000000."""
    text = format(value.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def number_literal(value: Decimal, datatype: str = str(XSD.decimal)) -> Literal:
    """A figure as a literal of its property's datatype: an xsd:decimal in plain notation, an xsd:double
    as the shortest digits that read back as the same double, in plain notation (6.49439910290227e+20
    is 649439910290227000000, the form Oxigraph keeps, so a re-import finds the same term), an
    xsd:integer when the value is whole (else a decimal, which the shapes then name)."""
    if datatype == str(XSD.double):
        return Literal(plain(Decimal(repr(float(value)))), datatype=XSD.double, normalize=False)
    if datatype == str(XSD.integer) and value == value.to_integral_value():
        return Literal(str(int(value)), datatype=XSD.integer)
    return Literal(plain(value), datatype=XSD.decimal)


@dataclass(frozen=True)
class Tagged:
    """One name from a list cell and the confidence tag written after it, if any."""

    name: str
    tag: str | None


_LEGAL_TAIL = re.compile(r"^\s*(inc|ltd|llc|corp|co|plc|gmbh|s\.?a|l\.?p)\b\.?", re.I)


def tagged_list(cell: str | None) -> list[Tagged]:
    """Split a comma-separated cell into names, taking ``#tag`` markers out of each name.

    A comma before a legal suffix does not separate names: "Beijing Foo Co., Ltd. (APUS)" is one name.
    """
    parts: list[str] = []
    for part in (cell or "").split(","):
        if parts and _LEGAL_TAIL.match(part):
            parts[-1] += "," + part
        else:
            parts.append(part)
    out: list[Tagged] = []
    for part in parts:
        tags = _TAG.findall(part)
        name = " ".join(_TAG.sub(" ", part).split())
        if name and name.lower() not in UNKNOWN:
            out.append(Tagged(name, tags[-1].lower() if tags else None))
    return out


def text(cell: str | None) -> str | None:
    """A stripped text cell, or None when empty; inner line breaks are kept (multi-line notes)."""
    value = (cell or "").strip()
    return value or None


def normalize(name: str) -> str:
    """The comparison key of a name: ASCII-folded, lower case, punctuation turned into spaces ("+" is a
    word of its own: PointNet++ is not PointNet)."""
    ascii_bytes = unicodedata.normalize("NFKD", name.replace("+", " plus ")).encode("ascii", "ignore")
    folded = ascii_bytes.decode("ascii").lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", folded).split())


def slugify(name: str) -> str:
    """A readable slug for a new entity IRI: lower-case ASCII letters, digits and single hyphens."""
    return "-".join(normalize(name).split()) or "unnamed"


_COUNT_IN_NOTES = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s*(trillion|billion|million|thousand|[TBMK])\b", re.I
)


def unit_slip(value: Decimal, stated: list[Decimal]) -> Decimal | None:
    """A number the notes state that is ``value`` with the same digits a thousand, a million or a
    billion times larger or smaller (284B in the notes, 284M in the column), unless the notes also
    state ``value`` itself."""
    if value <= 0 or any(abs(s / value - 1) < Decimal("0.01") for s in stated if s > 0):
        return None
    for s in stated:
        if s <= 0:
            continue
        for k in (3, 6, 9, -3, -6, -9):
            if abs(s / value / Decimal(10) ** k - 1) < Decimal("0.01"):
                return s
    return None


def parameters_in_notes(notes: str | None) -> list[Decimal]:
    """Parameter counts a free-text parameters note states (``671B``, ``1.5 billion``, ``284B-A13B``).

    The note is the column's own comment on the parameter count, so every scaled number in it is a
    candidate; the caller compares the closest one with the column's value.
    """
    found = []
    for value, scale in _COUNT_IN_NOTES.findall(notes or ""):
        found.append(Decimal(value) * _SCALE[scale.lower()])
    return found
