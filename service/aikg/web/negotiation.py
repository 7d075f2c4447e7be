"""Content negotiation for every surface, in one place: ``format=`` or ``Accept`` (RFC 9110 §12.5.1).

- ``format`` (not part of the SPARQL protocols, which negotiate by ``Accept``; the usual extension, and
  what a link or a browser can set) wins over ``Accept`` when it names a format offered here. It may be
  repeated (SPARQLWrapper sends ``format=rdf+xml&format=application/rdf+xml``): the first value naming an
  offered format wins. It takes a format's short name, extension, media type or subtype (``turtle``,
  ``ttl``, ``text/turtle``, ``rdf+xml``, ``json-ld``).
- A ``format`` naming nothing offered here never overrides an ``Accept`` header that names media types
  the service can answer with (SPARQLWrapper adds ``format=n3`` to a Turtle ``Accept``): ``Accept``
  decides. Only when ``Accept`` states no preference (none, or only ``*/*``) is such a ``format`` a 406:
  then it is the one thing the client asked for.
- ``Accept`` is read as RFC 9110 defines it: media ranges with wildcards (``text/*``, ``*/*``),
  parameters (``text/turtle; charset=utf-8``) and weights (``q=0.9``; ``q=0`` excludes). An offer takes
  the weight of the most specific range that matches it; the highest weight wins, and among equal
  weights the server's order (the first offer is the default). A wildcard matches an offer's registered
  media type, not its aliases (``text/*`` is CSV for results, not XML as ``text/xml``). A ``charset``
  parameter matches only UTF-8, the one charset aikg writes; other parameters (a JSON-LD ``profile``) do
  not narrow the match.
- No ``Accept`` (or one that does not parse) means anything: the first offer.
- Nothing acceptable is a 406 whose message lists the offered types (and format names).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from flask import Response, request

from aikg.errors import NotAcceptable
from aikg.rdf.formats import Format

_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_RANGE = re.compile(
    rf"^\s*({_TOKEN}|\*)/({_TOKEN}|\*)\s*((?:;\s*{_TOKEN}\s*=\s*(?:{_TOKEN}|\"(?:[^\"\\]|\\.)*\")\s*)*)$"
)
_PARAM = re.compile(rf";\s*({_TOKEN})\s*=\s*({_TOKEN}|\"(?:[^\"\\]|\\.)*\")")
_QVALUE = re.compile(r"^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$")
_UTF8 = {"utf-8", "utf8"}


@dataclass(frozen=True)
class MediaRange:
    """One element of an Accept header."""

    type: str
    subtype: str
    params: tuple[tuple[str, str], ...]
    q: float

    def matches(self, mime: str) -> bool:
        """Whether this range covers the media type ``mime`` (as aikg writes it: UTF-8)."""
        kind, _, sub = mime.partition("/")
        if self.type != "*" and self.type != kind:
            return False
        if self.subtype != "*" and self.subtype != sub:
            return False
        return all(value.lower() in _UTF8 for name, value in self.params if name == "charset")

    @property
    def specificity(self) -> int:
        """RFC 9110: ``type/subtype;params`` > ``type/subtype`` > ``type/*`` > ``*/*``."""
        if self.type == "*":
            return 0
        if self.subtype == "*":
            return 1
        return 3 if self.params else 2


def parse_accept(header: str | None) -> list[MediaRange] | None:
    """The media ranges of an Accept header; None when there is none (or nothing in it parses)."""
    if not header or not header.strip():
        return None
    ranges = []
    for part in _split(header):
        m = _RANGE.match(part)
        if not m:
            continue
        params, q = [], 1.0
        for name, value in _PARAM.findall(m.group(3)):
            name = name.lower()
            value = value[1:-1] if value.startswith('"') else value
            if name == "q":
                if not _QVALUE.match(value):
                    break
                q = float(value)
            else:
                params.append((name, value))
        else:
            ranges.append(MediaRange(m.group(1).lower(), m.group(2).lower(), tuple(params), q))
    return ranges or None


def _split(header: str) -> list[str]:
    """Split on commas outside quoted strings."""
    parts: list[str] = []
    current: list[str] = []
    quoted = escaped = False
    for c in header:
        if escaped:
            escaped = False
        elif c == "\\" and quoted:
            escaped = True
        elif c == '"':
            quoted = not quoted
        elif c == "," and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(c)
    parts.append("".join(current))
    return parts


def weight(fmt: Format, ranges: list[MediaRange] | None) -> float:
    """How much the client wants ``fmt`` (its media type or an alias), 0 to 1."""
    if ranges is None:
        return 1.0
    best = 0.0
    for mime in (fmt.mime, *fmt.aliases):
        matching = [r for r in ranges if r.matches(mime) and (mime == fmt.mime or r.specificity >= 2)]
        if matching:
            top = max(r.specificity for r in matching)
            best = max(best, max(r.q for r in matching if r.specificity == top))
    return best


def offered(offers: Sequence[Format]) -> str:
    """The offered media types as a readable list, for 406 messages and docs."""
    return ", ".join(f.mime for f in offers)


def by_param(value: str, offers: Sequence[Format]) -> Format | None:
    """The offered format a ``format`` value names."""
    key = value.strip().lower()
    key = key.split(";", 1)[0].strip() if "/" in key else key
    return next((f for f in offers if key in f.names), None)


def find(offers: Sequence[Format], accept: str | None, format_values: Sequence[str] = ()) -> Format | None:
    """The format to answer with, or None when nothing offered is acceptable."""
    values = [v for v in format_values if v and v.strip()]
    ranges = parse_accept(accept)
    if values:
        named = next((f for f in (by_param(v, offers) for v in values) if f is not None), None)
        if named is not None or not _states_preference(ranges):
            return named
    best, best_q = None, 0.0
    for f in offers:
        q = weight(f, ranges)
        if q > best_q:
            best, best_q = f, q
    return best


def _states_preference(ranges: list[MediaRange] | None) -> bool:
    """Whether an Accept header names some media type (or type/*), beyond an "anything" ``*/*``."""
    return ranges is not None and any(r.type != "*" and r.q > 0 for r in ranges)


def choose(offers: Sequence[Format], accept: str | None, format_values: Sequence[str] = ()) -> Format:
    """The format to answer with; 406 naming the offers when none is acceptable."""
    chosen = find(offers, accept, format_values)
    if chosen is None:
        raise NotAcceptable(_refusal(offers, format_values))
    return chosen


def _refusal(offers: Sequence[Format], format_values: Sequence[str]) -> str:
    values = [v for v in format_values if v and v.strip()]
    asked = (
        f"format {', '.join(map(repr, values))} is not offered here"
        if values
        else "none of the accepted media types can be produced"
    )
    return (
        f"{asked}; offered: {offered(offers)} "
        f"(format= also takes their short names: {', '.join(f.name for f in offers)})"
    )


def request_format() -> list[str]:
    """The ``format`` values of the current request (query string, then form), in order."""
    values = request.args.getlist("format")
    if request.mimetype == "application/x-www-form-urlencoded":
        values += request.form.getlist("format")
    return [v for v in values if v.strip()]


def negotiate(offers: Sequence[Format]) -> Format:
    """The format for the current request, from its ``format`` parameter or its ``Accept`` header."""
    return choose(offers, request.headers.get("Accept"), request_format())


def acceptable(offers: Sequence[Format]) -> Format | None:
    """The format ``negotiate`` would choose, or None where it would refuse (406)."""
    try:
        return negotiate(offers)
    except NotAcceptable:
        return None


def require_any(offers: Sequence[Format]) -> None:
    """Refuse now (406) a request none of ``offers`` can answer, before work whose result kind is unknown."""
    negotiate(offers)


def preferred(offers: Sequence[Format]) -> Format:
    """The client's preference among ``offers``, or the first one (for answers that are sent anyway,
    such as a refusal's report)."""
    return find(offers, request.headers.get("Accept")) or offers[0]


def negotiated_response(body: bytes, fmt: Format, *, status: int = 200) -> Response:
    """A negotiated response: the format's media type (UTF-8 for text types), varying on Accept."""
    resp = Response(body, status=status, content_type=fmt.content_type)
    resp.vary.add("Accept")
    return resp
