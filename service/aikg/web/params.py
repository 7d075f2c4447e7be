"""Request parameters declared once, read and described from the same declaration; integers bounded
before they are converted.

``int()`` of a long enough string is an error of its own (Python refuses more than 4,300 digits) and
its cost grows with the length, so a ``limit`` of 5,000 digits answered 500. Here a value is read only
when it has no more digits than the largest allowed value: anything else is the same 400 as any value
out of range. One parser for every route (issue #46 will declare each route's parameters once).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from aikg.errors import BadRequest

F = TypeVar("F", bound=Callable[..., Any])


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


BLANK = "".join(f"\\u{c:04x}" for c in range(0x10000) if chr(c).isspace())
"""Every character the server strips from a parameter (Python's ``str.strip``), spelled out for JSON
Schema: its ``\\s`` is not the same set (schemathesis reads it as ASCII white space, ECMA-262 adds U+FEFF),
so a value of U+001D alone would be documented as a question and refused as an empty one."""
NOT_BLANK = f"[^{BLANK}]"
"""Holds one character that is not white space: what a required text parameter must have."""
NOT_GIVEN = {"type": "string", "pattern": f"^[{BLANK}]*$"}
"""A blank value, which a parameter that takes one reads as not given (its default)."""


@dataclass(frozen=True)
class IntParam:
    """An integer query parameter of a route, declared once: the route reads it with :meth:`read` and
    the OpenAPI document describes it with :meth:`describe`, from the same bounds and default."""

    name: str
    description: str
    default: int
    low: int
    high: int
    unit: str = ""
    blank_is_default: bool = False
    """A blank value reads as the default (a form's empty field), and is documented so."""

    def read(self, raw: str | None) -> int:
        """The value of ``raw`` (the parameter's text, None when absent); out of bounds: 400."""
        return bounded_int(
            self.name,
            raw,
            default=self.default,
            low=self.low,
            high=self.high,
            unit=self.unit,
            blank_is_default=self.blank_is_default,
        )

    def describe(self) -> dict[str, Any]:
        """The OpenAPI parameter object."""
        schema: dict[str, Any] = {"type": "integer", "minimum": self.low, "maximum": self.high}
        schema["default"] = self.default
        if self.blank_is_default:
            schema = {"anyOf": [schema, NOT_GIVEN]}
        return query_param(self.name, schema, self.description)


def query_param(
    name: str, schema: dict[str, Any], description: str, *, required: bool = False
) -> dict[str, Any]:
    """An OpenAPI query parameter object."""
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


Describe = Callable[[Any], dict[str, Any]]
"""What a route says of itself in the OpenAPI document: from the running services (the class names,
the named queries), its path item (``{"get": {...}}``)."""


def documented(describe: Describe, *, names: dict[str, str] | None = None) -> Callable[[F], F]:
    """Declares a route's OpenAPI description beside the route: the document (aikg.web.openapi) is
    collected from the app's routes, so a route is declared once and described where it is. ``names``:
    the document's names of the rule's variables where they differ (``<name>`` documented as
    ``{format}``)."""

    def mark(view: F) -> F:
        view.openapi = describe  # type: ignore[attr-defined]
        view.openapi_names = names or {}  # type: ignore[attr-defined]
        return view

    return mark


def description_of(view: Callable[..., Any]) -> Describe | None:
    """The description a route declared with :func:`documented`, if any."""
    return getattr(view, "openapi", None)


def path_names_of(view: Callable[..., Any]) -> dict[str, str]:
    """The document's names of a route's variables, as declared with :func:`documented`."""
    return getattr(view, "openapi_names", {})
