"""Content negotiation: pick a format from the tables in :mod:`aikg.formats` by ``format=`` or ``Accept``.

``format`` overrides ``Accept``; it may be repeated (SPARQLWrapper sends ``format=rdf+xml&format=
application/rdf+xml``) and the first value naming an offered format wins. A request that names only
formats we cannot produce gets a 406 whose message lists the offered types.
A missing ``Accept`` header means "anything": the first offered format wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import Response, request
from werkzeug.datastructures import MIMEAccept

from aikg.errors import NotAcceptable
from aikg.rdf.formats import MIME_ALIASES, Format

HTML = Format("html", "text/html", "html")
"""The page a browser gets for a linked-data IRI (not in the RDF tables: it is not RDF)."""

_GRAPH_ALIASES = {"application/json": "application/ld+json", "application/xml": "application/rdf+xml",
                  "text/xml": "application/rdf+xml"}
"""Where a graph is offered, plain JSON means JSON-LD and plain XML means RDF/XML (the shared table maps
them to the SPARQL results formats, which a graph cannot be written in)."""


def _candidates(offers: Sequence[Format]) -> dict[str, Format]:
    """Every media type a client may ask for, mapped to the offered format it selects."""
    by_mime = {f.mime: f for f in offers}
    out: dict[str, Format] = dict(by_mime)
    for alias, target in (*MIME_ALIASES.items(), *_GRAPH_ALIASES.items()):
        if target in by_mime and alias not in out:
            out[alias] = by_mime[target]
    return out


def offered(offers: Sequence[Format]) -> str:
    """The offered media types as a readable list, for 406 messages and docs."""
    return ", ".join(f.mime for f in offers)


def choose(offers: Sequence[Format], accept: MIMEAccept,
           format_param: str | Sequence[str] | None = None) -> Format:
    """The format to answer with: an explicit ``format`` wins, else the best match for ``Accept``."""
    chosen = _find(offers, accept, format_param)
    if chosen is None:
        raise NotAcceptable(_refusal(offers, format_param))
    return chosen


def require_any(offers: Sequence[Format], accept: MIMEAccept,
                format_param: str | Sequence[str] | None = None) -> None:
    """Refuse now a request none of ``offers`` can answer (before work whose result kind is unknown)."""
    if _find(offers, accept, format_param) is None:
        raise NotAcceptable(_refusal(offers, format_param))


def by_param(value: str, offers: Sequence[Format]) -> Format | None:
    """The offered format a ``format`` value names: short name, extension, rdflib name or media type."""
    key = value.strip().lower()
    candidates = _candidates(offers)
    for guess in (key, "application/" + key, "text/" + key):
        if guess in candidates:
            return candidates[guess]
    return next((f for f in offers if key in {f.name, f.extension, f.rdflib}), None)


def _values(format_param: str | Sequence[str] | None) -> list[str]:
    """``format`` as a list of non-empty values (callers pass one value, several, or None)."""
    values = [format_param] if isinstance(format_param, str) else list(format_param or ())
    return [v for v in values if v and v.strip()]


def _find(offers: Sequence[Format], accept: MIMEAccept,
          format_param: str | Sequence[str] | None) -> Format | None:
    values = _values(format_param)
    if values:
        return next((f for f in (by_param(v, offers) for v in values) if f is not None), None)
    if not accept:
        return offers[0]
    candidates = _candidates(offers)
    best = accept.best_match(list(candidates))
    return None if best is None else candidates[best]


def _refusal(offers: Sequence[Format], format_param: str | Sequence[str] | None) -> str:
    values = _values(format_param)
    asked = (f"format {', '.join(map(repr, values))} is not offered here" if values
             else "none of the accepted media types can be produced")
    return (f"{asked}; offered: {offered(offers)} "
            f"(format= also takes their short names: {', '.join(f.name for f in offers)})")


def negotiate(offers: Sequence[Format]) -> Format:
    """The format for the current request, from its ``format`` parameter or ``Accept`` header."""
    return choose(offers, request.accept_mimetypes, request_format())


def request_format() -> list[str]:
    """The ``format`` values of the current request (query string, then form), in order."""
    values = request.args.getlist("format")
    if request.mimetype == "application/x-www-form-urlencoded":
        values += request.form.getlist("format")
    return [v for v in values if v.strip()]


def rdf_response(body: bytes, fmt: Format) -> Response:
    """A negotiated response: the format's media type (UTF-8 for text types), varying on Accept."""
    mime = fmt.mime + ("; charset=utf-8" if fmt.mime.startswith("text/") else "")
    resp = Response(body, content_type=mime)
    resp.vary.add("Accept")
    return resp
