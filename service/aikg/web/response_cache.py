"""One response cache for every read surface: the lookup API, neighbourhoods, exports and ``/sparql``.

A 200 answer is kept under (store, store version, path, query string, Accept, request body digest) and
carries an ETag made from the same key, so a repeated request costs a dictionary lookup and a
revalidation costs a 304. A write changes the store's version, so nothing stale is ever served; an
answer raced by a write is not kept. Bodies are part of the key so that a query sent by POST (form or
``application/sparql-query``) is cached like one sent by GET. A streamed answer (an export) is read
while it fits the cache's bound for one entry and kept whole; a larger one is streamed on, not kept.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from functools import wraps
from itertools import chain
from typing import Any

from flask import Response, request

from aikg.lookup.cache import etag_for
from aikg.rdf.serialize import TRUNCATED_HEADER
from aikg.store.base import current_deadline
from aikg.web import get_services

KEPT_HEADERS = ("Content-Disposition", TRUNCATED_HEADER, "Link")
"""Headers of an answer that are part of it, so are replayed from the cache."""


def _request_key() -> tuple[str, str, str]:
    """What was asked: path, query string (plus the body's type and digest for a POST), Accept."""
    query = request.query_string.decode("latin-1")
    variant = request.headers.get("Accept", "")
    if request.method == "POST":
        digest = hashlib.blake2b(request.get_data(cache=True), digest_size=12).hexdigest()
        query += f"#{request.mimetype}:{digest}"
    return request.path, query, variant


def cached(view: Callable[..., Response]) -> Callable[..., Response]:
    """Answer from the response cache, or 304 when the client's ETag is current; cache 200s."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Response:
        services = get_services()
        key = (services.token, services.store.version, *_request_key())
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
        body, content_type, headers, etag = hit
        if "If-None-Match" in request.headers and request.if_none_match.contains_weak(etag):
            return Response(status=304, headers=headers[-3:])  # RFC 9110: weak comparison
        return Response(body, status=200, headers=headers, content_type=content_type)

    return wrapper


Kept = tuple[bytes, str, list[tuple[str, str]], str]
"""A cached answer: body, content type, headers to replay, ETag."""


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
        resp.vary.add("Accept")
        return resp, None
    # Everything a repeat needs is computed once, here: a hit only builds the response.
    etag = etag_for(key)
    headers = [(h, resp.headers[h]) for h in KEPT_HEADERS if h in resp.headers]
    headers += [("ETag", f'"{etag}"'), ("Cache-Control", "no-cache"), ("Vary", "Accept")]
    body = resp.get_data()
    hit: Kept = (body, resp.content_type, headers, etag)
    cache.put(key, hit, len(body) + 200, generation=(services.token, version))
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
