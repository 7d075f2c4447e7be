"""gzip for answers: one level, one container, and large bodies compressed as heavy work.

The response cache compresses what an HTTP worker answers; a query worker or the views process compresses
a large answer itself when the client takes gzip (:data:`FROM_PRODUCER`), so that the megabytes of a
whole-store CONSTRUCT or a hub's deep neighbourhood never cross into the HTTP worker, where cheap
requests wait on the same core (copying them there was what lifted the cheap lookups' p99 under load).
"""

from __future__ import annotations

import zlib

from aikg.placement import run_below

LEVEL = 1
"""zlib's fastest level: ~370 MB/s on SPARQL JSON for a ~12× smaller body (level 6: ~160 MB/s, ~15×)."""

HEAVY_FROM = 128 * 1024
"""Bodies this large are compressed as heavy work (:func:`aikg.placement.run_below`): a whole-store
CONSTRUCT (11 MB of N-Triples, ~45 ms of zlib) several times a second took the cheap requests' core, and
so did its row-limited answers (0.4-0.9 MB of Turtle or RDF/XML, 1-3 ms each, 20 a second)."""

FROM_PRODUCER = HEAVY_FROM
"""Answers this large are compressed where they are written (a query worker, the views process) when the
client takes gzip, and reach the HTTP worker compressed."""

ENCODING = "gzip"
"""The Content-Encoding of a compressed body."""


def gzip(body: bytes) -> bytes:
    """``body`` in the gzip container (RFC 1952), at :data:`LEVEL`."""

    def pack() -> bytes:
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)  # wbits 31: the gzip container
        return packer.compress(body) + packer.flush()

    return run_below(pack) if len(body) >= HEAVY_FROM else pack()


def gunzip(body: bytes) -> bytes:
    """The plain body of a gzip (or zlib) compressed one."""
    return zlib.decompress(body, 47)  # wbits 47: either container, detected from the header
