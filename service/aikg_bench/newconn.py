"""A request on a new connection: connect, ask, read the whole answer, close; one after another.

A client that keeps no connection (a script, a health check, ``curl``) pays the TCP connect and the
server's accept on every request, which wrk's keep-alive connections never measure. ``aikg bench`` times
a cached answer this way on aikg and on the bare Flask app answering a body of the same size (issue 49's
goal: ≤ 1.2× bare Flask). One client, so the figure is the request's own path, not a queue.
"""

from __future__ import annotations

import http.client
import statistics
import time
from typing import Any
from urllib.parse import urlsplit

REQUESTS = 200
"""Requests timed per server: enough for a steady median in a few seconds."""
WARM = 10
"""Untimed requests first: the answer reaches every HTTP worker's response cache."""


def _one(host: str, port: int, path: str, headers: dict[str, str]) -> tuple[int, int]:
    """One request on a connection of its own: its status and the size of its body."""
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        conn.request("GET", path, headers={**headers, "Connection": "close"})
        response = conn.getresponse()
        return response.status, len(response.read())
    finally:
        conn.close()


def measure(base: str, path: str, headers: dict[str, str] | None = None, n: int = REQUESTS) -> dict[str, Any]:
    """Median and p99 milliseconds of ``n`` requests for ``path``, each on a new connection; raises
    ``RuntimeError`` at an answer that is not a 200."""
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    sent = headers or {}
    size = 0
    for _ in range(WARM):
        _one(host, port, path, sent)
    times: list[float] = []
    for _ in range(n):
        start = time.perf_counter()
        status, size = _one(host, port, path, sent)
        times.append((time.perf_counter() - start) * 1000)
        if status != 200:
            raise RuntimeError(f"GET {path} on a new connection answered {status}")
    ordered = sorted(times)
    return {
        "path": path,
        "requests": n,
        "p50_ms": round(statistics.median(ordered), 3),
        "p99_ms": round(ordered[min(n - 1, int(0.99 * n))], 3),
        "body_bytes": size,
    }
