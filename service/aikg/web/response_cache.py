"""One response cache for every read surface: the lookup API, neighbourhoods, exports and ``/sparql``.

A 200 answer is kept under (store, store version, path, query string, representation, request body
digest) and carries an ETag made from the same key, so a repeated request costs a dictionary lookup and
a revalidation costs a 304. A write changes the store's version, so nothing stale is ever served; an
answer raced by a write is not kept. Bodies are part of the key so that a query sent by POST (form or
``application/sparql-query``) is cached like one sent by GET, and so is the whole ``Content-Type``, its
parameters included: a body declared in another charset is refused (415) by the view, never answered by
an entry a UTF-8 request left (regression: the same ISO-8859-1 request got 200 or 415 depending on the
worker). The representation is what negotiation chose, where the view says how it negotiates
(``@cached(variant=…)``: ``/sparql``, the Graph Store), else the ``Accept`` header read as RFC 9110 does
(order aside, and no header the same as ``*/*``): requests asking for the same answer share an entry.
A streamed answer (an export) is read while it fits the cache's bound for one entry and kept whole; a
larger one is streamed on, not kept.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, replace
from functools import lru_cache, wraps
from itertools import chain
from typing import Any, overload

from flask import Response, request
from werkzeug.http import parse_accept_header

from aikg import compression
from aikg.cache import etag_for
from aikg.rdf.serialize import TOTAL_HEADER, TRUNCATED_HEADER
from aikg.store.base import current_deadline
from aikg.web import get_services
from aikg.web.negotiation import parse_accept

KEPT_HEADERS = ("Content-Disposition", TRUNCATED_HEADER, TOTAL_HEADER, "Link")
"""Headers of an answer that are part of it, so are replayed from the cache."""
GZIP_FROM = 1024
"""Bodies shorter than this are sent as they are: compressing them saves less than its headers cost."""
REPLAYABLE = "aikg.replayable"
"""The WSGI environ key set when a 200 was answered from a kept entry (its cache key): what was sent may
be replayed before Flask for the same request (:mod:`aikg.web.replay`)."""


MEMO_HEADER = 256
"""Longest header value whose reading is remembered (:func:`_memo`); longer ones are read each time."""


def _memo(read: Callable[[str | None], Any]) -> Callable[[str | None], Any]:
    """``read`` of a request header's value, remembered for the few values clients send (a cached answer
    read its ``Accept`` and ``Accept-Encoding`` anew for every request)."""
    remembered = lru_cache(maxsize=512)(read)

    @wraps(read)
    def reading(value: str | None) -> Any:
        return remembered(value) if value is None or len(value) <= MEMO_HEADER else read(value)

    return reading


@_memo
def variant_of(accept: str | None) -> Hashable:
    """An ``Accept`` header as a set of weighted media ranges: ``()`` for "anything" (no header, or
    ``*/*`` alone), so the requests negotiation cannot tell apart share a key."""
    ranges = parse_accept(accept)
    if ranges is None or all((r.type, r.subtype, r.params) == ("*", "*", ()) and r.q > 0 for r in ranges):
        return ()
    return tuple(sorted((r.type, r.subtype, r.params, r.q) for r in ranges))


def accept_variant() -> Hashable:
    """The request's ``Accept`` as :func:`variant_of` reads it."""
    return variant_of(request.headers.get("Accept"))  # type: ignore[no-any-return]


def _request_key(variant: Callable[[], Hashable]) -> tuple[str, str, Hashable]:
    """What was asked: path, query string (plus the body's full Content-Type and digest for a POST), and
    the representation."""
    query = request.query_string.decode("latin-1")
    if request.method == "POST":
        digest = hashlib.blake2b(request.get_data(cache=True), digest_size=12).hexdigest()
        query += f"#{request.headers.get('Content-Type', '')}:{digest}"
    return request.path, query, variant()


View = Callable[..., Response]


@overload
def cached(view: View) -> View: ...


@overload
def cached(*, variant: Callable[[], Hashable]) -> Callable[[View], View]: ...


def cached(view: View | None = None, *, variant: Callable[[], Hashable] = accept_variant) -> Any:
    """Answer from the response cache, or 304 when the client's ETag is current; cache 200s.

    ``variant`` names the representation the request negotiates (by default its ``Accept`` header,
    normalized); used bare (``@cached``) or with it (``@cached(variant=…)``)."""
    if view is None:
        return lambda v: _cached(v, variant)
    return _cached(view, variant)


def _cached(view: Callable[..., Response], variant: Callable[[], Hashable]) -> Callable[..., Response]:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Response:
        services = get_services()
        key = (services.token, services.store.version, *_request_key(variant))
        cache = services.responses
        hit = cache.get(key)
        if hit is None:
            # With the cache off nothing is kept, so there is nothing to share: each request computes.
            flight = services.flights.once(key) if cache.entry_bytes else nullcontext()
            with flight as computing:
                if computing is not None:  # the same request is being answered: its answer will do
                    # An answer that is not kept (an error, too large) lets the waiting go at once:
                    # the computing request leaves the flight as its view returns, before streaming.
                    deadline = current_deadline()
                    computing.wait(None if deadline is None else max(0.0, deadline.left()))
                    hit = cache.get(key)
                if hit is None:
                    resp, hit = _compute(view, args, kwargs, key)
                    if hit is None:
                        return resp
        return _respond(hit, key)

    return wrapper


@dataclass(frozen=True)
class Kept:
    """A cached answer: its body as written (``plain``) and/or gzip-compressed (``gz``), at least one of
    them, with what a repeat replays."""

    plain: bytes | None
    gz: bytes | None
    content_type: str
    headers: list[tuple[str, str]]
    etag: str

    @property
    def nbytes(self) -> int:
        """What the entry costs the cache (bodies, plus a little for the rest)."""
        return len(self.plain or b"") + len(self.gz or b"") + 200


@_memo
def gzip_ok(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header takes a gzip-compressed body."""
    return parse_accept_header(accept_encoding).quality("gzip") > 0


def takes_gzip() -> bool:
    """Whether the client of the current request takes a gzip-compressed body."""
    return gzip_ok(request.headers.get("Accept-Encoding"))  # type: ignore[no-any-return]


def _respond(hit: Kept, key: tuple[Any, ...]) -> Response:
    """The kept answer for this request: compressed when the client takes gzip, 304 when its ETag holds."""
    gzip = takes_gzip() and (hit.gz is not None or (hit.plain is not None and len(hit.plain) >= GZIP_FROM))
    if gzip and hit.gz is None:
        hit = _keep_compressed(hit, key)
    etag = f"{hit.etag}-gzip" if gzip else hit.etag  # another representation, another tag (RFC 9110 §8.8.3)
    headers = [*hit.headers, ("ETag", f'"{etag}"')]
    if "If-None-Match" in request.headers and request.if_none_match.contains_weak(etag):
        return Response(status=304, headers=headers[-3:])  # Cache-Control, Vary, ETag; weak comparison
    if gzip:
        headers.append(("Content-Encoding", "gzip"))
        body = hit.gz
    else:
        body = hit.plain if hit.plain is not None else compression.gunzip(hit.gz or b"")
    request.environ[REPLAYABLE] = key
    return Response(body, status=200, headers=headers, content_type=hit.content_type)


def _keep_compressed(hit: Kept, key: tuple[Any, ...]) -> Kept:
    """``hit`` with its gzip body, kept in the cache beside the plain one (or instead, past the cache's
    bound for one entry) while the store is still at the key's version."""
    services = get_services()
    assert hit.plain is not None
    both = replace(hit, gz=compression.gzip(hit.plain))
    if both.nbytes > services.responses.entry_bytes:
        both = replace(both, plain=None)
    _put(key, both)
    return both


def _put(key: tuple[Any, ...], hit: Kept) -> bool:
    """Keep ``hit`` under ``key`` unless a write has moved the store past the key's version (putting an
    older generation would empty the cache of the newer one)."""
    services = get_services()
    token, version = key[0], key[1]
    if services.store.version != version:
        return False
    generation: Hashable = (token, version)
    return services.responses.put(key, hit, hit.nbytes, generation=generation)


def _compute(
    view: Callable[..., Response], args: Any, kwargs: Any, key: tuple[Any, ...]
) -> tuple[Response, Kept | None]:
    """Run the view; its answer as kept in the cache, or the response itself when it is not kept
    (not a 200, too large, or raced by a write)."""
    services = get_services()
    store, cache, version = services.store, services.responses, key[1]
    resp = view(*args, **kwargs)  # runs even for If-None-Match: a bad request stays an error
    if resp.status_code != 200:
        return resp, None
    if resp.is_streamed:
        rest = _read_up_to(resp, cache.entry_bytes)
        if rest is not None:  # too large to keep: what was read, then the rest, unchanged
            resp.response = rest
            return resp, None
    if store.version != version:  # raced by a write: answered, but neither kept nor tagged
        resp.headers["Cache-Control"] = "no-cache"
        resp.vary.update(("Accept", "Accept-Encoding"))
        return resp, None
    # Everything a repeat needs is computed once, here: a hit only builds the response.
    headers = [(h, resp.headers[h]) for h in KEPT_HEADERS if h in resp.headers]
    headers += [("Cache-Control", "no-cache"), ("Vary", "Accept, Accept-Encoding")]
    body = resp.get_data()
    if resp.headers.get("Content-Encoding") == compression.ENCODING:
        # Compressed where it was written (a query worker, the views process): kept as it came.
        hit = Kept(None, body, resp.content_type, headers, etag_for(key))
        _put(key, hit)
        return resp, hit
    hit = Kept(body, None, resp.content_type, headers, etag_for(key))
    if cache.entry_bytes and hit.nbytes > cache.entry_bytes:  # too large as it is: kept compressed
        hit = replace(hit, gz=compression.gzip(body))
        if _put(key, replace(hit, plain=None)):
            return resp, replace(hit, plain=None)
        return resp, hit  # not kept even so: this one answer has both bodies at hand
    _put(key, hit)
    return resp, hit


def _read_up_to(resp: Response, limit: int) -> Iterator[bytes] | None:
    """Read a streamed body into ``resp`` when it has at most ``limit`` bytes (None); else the chunks
    read so far followed by the rest, for streaming on."""
    chunks: Iterable[bytes] = resp.iter_encoded()
    source = iter(chunks)
    read: list[bytes] = []
    size = 0
    for chunk in source:
        read.append(chunk)
        size += len(chunk)
        if size > limit:
            return chain(read, source)
    resp.set_data(b"".join(read))
    return None
