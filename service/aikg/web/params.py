"""Integer request parameters, bounded before they are converted.

``int()`` of a long enough string is an error of its own (Python refuses more than 4,300 digits) and
its cost grows with the length, so a ``limit`` of 5,000 digits answered 500. Here a value is read only
when it has no more digits than the largest allowed value: anything else is the same 400 as any value
out of range. One parser for every route (issue #46 will declare each route's parameters once).
"""

from __future__ import annotations

import re

from aikg.errors import BadRequest


def bounded_int(
    name: str,
    raw: str | None,
    *,
    default: int,
    low: int,
    high: int,
    unit: str = "",
    blank_is_default: bool = False,
) -> int:
    """The integer parameter ``name`` from its text ``raw`` (absent: ``default``), from ``low`` to ``high``;
    anything else is a 400 that names the parameter and the range. A blank value is a 400 too (``limit=``
    says nothing a client meant), except where a form may send its empty field (``blank_is_default``)."""
    if raw is None or (blank_is_default and not raw.strip()):
        return default
    text = raw.strip()
    digits = max(len(str(abs(low))), len(str(abs(high))))
    match = re.fullmatch(rf"([+-]?)0*([0-9]{{1,{digits}}})", text)
    value = int(match[1] + match[2]) if match is not None else None
    if value is None or not low <= value <= high:
        raise BadRequest(
            f"parameter {name!r} must be an integer from {low} to {high}{f' ({unit})' if unit else ''}",
            errors=[{"parameter": name, "value": raw[:100], "minimum": low, "maximum": high}],
        )
    return value
