"""Driving the load generator: wrk (Debian package) with a Lua script per operation and server.

The script picks a random variant per request, gives every write fresh identifiers, and prints wrk's
summary (requests, p50, p99, errors) as one JSON line that ``run_wrk`` reads back.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

WRK = shutil.which("wrk")

_SCRIPT = """\
local paths = {%(paths)s}
local method = %(method)s
local headers = {%(headers)s}
local body = %(body)s
local n = 0
local counter = 1
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end
function init(args)
  math.randomseed(tid or 1)
end
function request()
  n = n + 1
  local b = nil
  if body then b = string.gsub(body, "@N@", "w" .. (tid or 0) .. "-" .. n) end
  return wrk.format(method, paths[math.random(#paths)], headers, b)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests": %%d, "duration_us": %%d, "p50_us": %%d, "p99_us": %%d, '
    .. '"non2xx": %%d, "socket_errors": %%d, "timeouts": %%d}\\n', summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), e.status, e.connect + e.read + e.write, e.timeout))
end
"""


def _lua(text: str) -> str:
    """A Lua long-bracket string literal that no content can close early."""
    level = 0
    while f"]{'=' * level}]" in text:
        level += 1
    eq = "=" * level
    return f"[{eq}[{text}]{eq}]"


@dataclass
class Request:
    """What one operation sends to one server: variants of the path, method, headers and body."""

    paths: list[str]
    method: str = "GET"
    headers: dict[str, str] | None = None
    body: str | None = None


def _send(
    base: str, req: Request, path: str, i: int, end: float, retry: tuple[int, ...] = (429,)
) -> tuple[float, requests.Response]:
    """One request (ms, response); a 429 (or another status of ``retry``) is retried after its
    Retry-After while the budget lasts (the queries a load run left running still hold the server's
    heavy-query slots)."""
    body = req.body.replace("@N@", f"p{i}") if req.body else None
    while True:
        start = time.perf_counter()
        r = requests.request(
            req.method, base + path, headers=req.headers, data=body.encode() if body else None, timeout=300
        )
        ms = (time.perf_counter() - start) * 1000
        if r.status_code not in retry or time.perf_counter() > end:
            return ms, r
        time.sleep(min(float(r.headers.get("Retry-After", "1") or 1), 5.0))


def probe(
    base: str,
    req: Request,
    n: int = 3,
    *,
    budget_s: float = 30.0,
    slow_ms: float = float("inf"),
    warm: Callable[[list[str]], int] | None = None,
    retry: tuple[int, ...] = (429,),
) -> tuple[list[float], int, str, int, list[int]]:
    """Send up to ``n`` variants one at a time (the first, cold answers): latencies (ms), last status,
    the start of its text, how many variants were sent and warmed, and the size of each answer's body
    (bytes, decoded: what a client that does not take gzip, such as wrk, receives).

    Sending every variant once before the load run also warms whatever caches the server keeps, so the
    load run measures repeated requests and this pass measures first ones; ``warm`` then reaches the
    caches of the server's other worker processes (:func:`aikg_bench.warm.warm`: how many of the
    variants sent, from the first, are in every worker's cache). The timed pass stops early after
    ``budget_s`` seconds, at an error, or after an answer slower than ``slow_ms``; the variants not
    warmed are left out of the load run: a first answer is not a cached one. A variant answered with a
    status of ``retry`` is asked again within the budget (the busy phase retries a 503 too: a server just
    started beside busy loops answered its first lookup past the limit, and the cached answers the phase
    measures were then never measured).
    """
    times, sizes, status, text = [], [], 0, ""
    end = time.perf_counter() + budget_s
    for i, path in enumerate(req.paths[:n]):
        ms, r = _send(base, req, path, i, end, retry)
        times.append(ms)
        sizes.append(len(r.content))
        status, text = r.status_code, r.text[:300]
        if status >= 400 or times[-1] > slow_ms or time.perf_counter() > end:
            break
    warmed = len(times)
    if warm is not None and status < 400 and times[-1] <= slow_ms:
        warmed = warm(req.paths[:warmed])
    return times, status, text, warmed, sizes[:warmed]


def run_wrk(
    base: str, req: Request, *, seconds: float, connections: int, threads: int = 2, timeout: float = 30
) -> dict[str, Any]:
    """One wrk run: p50/p99 (ms), requests per second and errors."""
    if WRK is None:
        raise RuntimeError("wrk is not installed (apt-get install wrk)")
    headers = ", ".join(f"[ {_lua(k)} ] = {_lua(v)}" for k, v in (req.headers or {}).items())
    script = _SCRIPT % {
        "paths": ", ".join(_lua(p) for p in req.paths),
        "method": _lua(req.method),
        "headers": headers,
        "body": _lua(req.body) if req.body is not None else "nil",
    }
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as fh:
        fh.write(script)
    try:
        out = subprocess.run(
            [
                WRK,
                f"-t{min(threads, connections)}",
                f"-c{connections}",
                f"-d{max(1, round(seconds))}s",
                f"--timeout={timeout:g}s",
                "-s",
                fh.name,
                base,
            ],
            capture_output=True,
            text=True,
            timeout=seconds + timeout + 60,
        )
    finally:
        Path(fh.name).unlink()
    line = next((x for x in reversed(out.stdout.splitlines()) if x.startswith("{")), None)
    if out.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed: {out.stderr.strip()[:300]}")
    r = json.loads(line)
    ok = max(r["requests"] - r["non2xx"], 0)
    return {
        "p50_ms": r["p50_us"] / 1000,
        "p99_ms": r["p99_us"] / 1000,
        "rps": ok / (r["duration_us"] / 1e6) if r["duration_us"] else 0.0,
        "requests": r["requests"],
        "errors": r["non2xx"] + r["socket_errors"] + r["timeouts"],
    }
