"""Content negotiation: pick a format from the tables in :mod:`aikg.formats` by ``Accept`` or ``format=``.

A request that names only formats we cannot produce gets a 406 whose message lists the offered types.
A missing ``Accept`` header means "anything": the first offered format wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import Response, request
from werkzeug.datastructures import MIMEAccept

from ..errors import NotAcceptable
from ..formats import MIME_ALIASES, Format, by_name

HTML = Format("html", "text/html", "html")
"""The page a browser gets for a linked-data IRI (not in the RDF tables: it is not RDF)."""

_GRAPH_ALIASES = {"application/json": "application/ld+json"}
"""Where a graph is offered, plain JSON means JSON-LD (the shared table maps it to SPARQL JSON)."""


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


def choose(offers: Sequence[Format], accept: MIMEAccept, format_param: str | None = None) -> Format:
    """The format to answer with: an explicit ``format`` wins, else the best match for ``Accept``."""
    chosen = _find(offers, accept, format_param)
    if chosen is None:
        raise NotAcceptable(_refusal(offers, format_param))
    return chosen


def require_any(offers: Sequence[Format], accept: MIMEAccept, format_param: str | None = None) -> None:
    """Refuse now a request none of ``offers`` can answer (before work whose result kind is unknown)."""
    if _find(offers, accept, format_param) is None:
        raise NotAcceptable(_refusal(offers, format_param))


def _find(offers: Sequence[Format], accept: MIMEAccept, format_param: str | None) -> Format | None:
    if format_param:
        return by_name(format_param, tuple(offers))
    if not accept:
        return offers[0]
    candidates = _candidates(offers)
    best = accept.best_match(list(candidates))
    return None if best is None else candidates[best]


def _refusal(offers: Sequence[Format], format_param: str | None) -> str:
    if format_param:
        return (f"format {format_param!r} is not offered here; offered: {offered(offers)} "
                f"(or their short names: {', '.join(f.name for f in offers)})")
    return f"none of the accepted media types can be produced; offered: {offered(offers)}"


def negotiate(offers: Sequence[Format]) -> Format:
    """The format for the current request, from its ``format`` parameter or ``Accept`` header."""
    return choose(offers, request.accept_mimetypes, request_format())


def request_format() -> str | None:
    """The ``format`` parameter of the current request (query string or form), if any."""
    value = request.args.get("format")
    if value is None and request.mimetype == "application/x-www-form-urlencoded":
        value = request.form.get("format")
    return value or None


def rdf_response(body: bytes, fmt: Format) -> Response:
    """A negotiated response: the format's media type (UTF-8 for text types), varying on Accept."""
    mime = fmt.mime + ("; charset=utf-8" if fmt.mime.startswith("text/") else "")
    resp = Response(body, content_type=mime)
    resp.vary.add("Accept")
    return resp
