"""Reading a SPARQL Protocol request as the protocol defines it: parameters and bodies are UTF-8.

Werkzeug decodes query strings and form bodies leniently (a bad byte becomes U+FFFD), and a direct POST
may declare any charset. The protocol's texts are UTF-8 only (SPARQL 1.1 Protocol §2.1.3; the media
types ``application/sparql-query`` and ``application/sparql-update`` have no other encoding), so a byte
sequence that is not UTF-8 is a 400 and another declared charset a 415, never a silently changed query.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from flask import request
from werkzeug.datastructures import MultiDict

from aikg.errors import BadRequest, UnsupportedMediaType

FORM = "application/x-www-form-urlencoded"


def _parse(raw: bytes, where: str) -> MultiDict[str, str]:
    try:
        text = raw.decode("utf-8")
        pairs = parse_qsl(text, keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        raise BadRequest(f"the {where} is not valid UTF-8 (percent-encoded UTF-8 is required)") from None
    return MultiDict(pairs)


def url_params() -> MultiDict[str, str]:
    """The parameters of the request URL's query string."""
    return _parse(request.query_string, "query string")


def form_params() -> MultiDict[str, str]:
    """The parameters of an ``application/x-www-form-urlencoded`` body."""
    return _parse(request.get_data(cache=True), "form body")


def utf8_body(what: str) -> str:
    """The request body as text: UTF-8, whatever it declares (another declared charset is a 415)."""
    charset = request.mimetype_params.get("charset")
    if charset is not None and charset.strip().lower() not in ("utf-8", "utf8"):
        raise UnsupportedMediaType(
            f"{request.mimetype} bodies are UTF-8; charset={charset} is not accepted",
            errors=[{"charset": charset}],
        )
    try:
        return request.get_data(cache=True).decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(f"the {what} is not valid UTF-8") from None


def single(params: MultiDict[str, str], name: str) -> str | None:
    """The one value of ``name`` (None when absent); a request carrying it twice is a 400."""
    values = params.getlist(name)
    if len(values) > 1:
        raise BadRequest(
            f"give exactly one {name!r} parameter (the request has {len(values)})",
            errors=[{"parameter": name, "count": len(values)}],
        )
    return values[0] if values else None
