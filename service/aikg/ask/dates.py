"""Dates in a question ("in 2024", "August 2026", "2026 年 8 月", "2024-05-01"), at the precision given.

The values are what ``events-between`` takes: ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``; the query compares
each event's date at the coarser of the two precisions, so "in 2024" is ``from=2024&to=2024``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_YEAR = r"((?:19|20)\d{2})"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(rf"(?<![\d-]){_YEAR}-(\d{{2}})-(\d{{2}})(?![\d-])"), "ymd"),
    (re.compile(rf"(?<![\d-]){_YEAR}-(\d{{2}})(?![\d-])"), "ym"),
    (re.compile(rf"{_YEAR}\s*年\s*(\d{{1,2}})\s*月(?:\s*(\d{{1,2}})\s*[日号])?"), "ymd"),
    (re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+{_YEAR}\b"), "mdy"),
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH},?\s+{_YEAR}\b"), "dmy"),
    (re.compile(rf"\b{_MONTH},?\s+{_YEAR}\b"), "my"),
    (re.compile(rf"{_YEAR}\s*年"), "y"),
    (re.compile(rf"(?<![\w.,-]){_YEAR}(?![\w.,-]|\.\d)"), "y"),
)


@dataclass(frozen=True, slots=True)
class DateMention:
    """A date found in the folded question: where, and its value (YYYY, YYYY-MM or YYYY-MM-DD)."""

    start: int
    end: int
    value: str


def _value(kind: str, groups: tuple[str | None, ...]) -> str | None:
    if kind == "y":
        return groups[0]
    month: str | int | None
    if kind in {"ym", "ymd"}:
        year, month, day = (groups + (None,))[:3]
    elif kind == "mdy":
        month, day, year = _MONTHS[str(groups[0])[:3]], groups[1], groups[2]
    elif kind == "dmy":
        day, month, year = groups[0], _MONTHS[str(groups[1])[:3]], groups[2]
    else:  # "my"
        month, day, year = _MONTHS[str(groups[0])[:3]], None, groups[1]
    try:
        dt.date(int(str(year)), int(str(month)), int(day) if day else 1)
    except ValueError:
        return None
    text = f"{int(str(year)):04d}-{int(str(month)):02d}"
    return f"{text}-{int(day):02d}" if day else text


def find_dates(folded: str) -> list[DateMention]:
    """Every date in the text, most specific reading first, none overlapping, in text order."""
    found: list[DateMention] = []
    for pattern, kind in _PATTERNS:
        for m in pattern.finditer(folded):
            if any(m.start() < d.end and d.start < m.end() for d in found):
                continue
            value = _value(kind, m.groups())
            if value is not None:
                found.append(DateMention(m.start(), m.end(), value))
    return sorted(found, key=lambda d: d.start)


def date_range(dates: list[DateMention]) -> tuple[str, str] | None:
    """(from, to) for the dates of a question: one date is a range of itself; two or more, first to last."""
    if not dates:
        return None
    values = [d.value for d in dates]
    first, last = values[0], values[-1]
    return (first, last) if first <= last else (last, first)
