"""CORS for the surfaces browser clients call from other origins (YASGUI, Comunica, D3 pages): every
protocol endpoint — ``/sparql``, ``/update``, ``/data``, ``/graph/…`` — and ``/id``, their refusals (a 401
without a token included, so a page can tell why) and their preflights.

Hand-written rather than flask-cors: the policy is one fixed rule (any origin, no cookies: a write
carries its bearer token in ``Authorization``, which a preflight allows by name) on a few blueprints,
which fits in a dozen lines and adds no dependency.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import Blueprint, Response, request

EXPOSED = ("X-AIKG-Truncated", "Link", "Location", "ETag", "WWW-Authenticate", "Retry-After")
"""Response headers a cross-origin script may read besides the safelisted ones: a new graph's
``Location``, a graph's ``ETag`` (for ``If-None-Match``), why a write was refused, when to retry."""
READ = ("GET", "HEAD", "POST", "OPTIONS")
"""The methods of the SPARQL protocol's query operation (and of linked data)."""
WRITE = ("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS")
"""The methods of the update operation and of the Graph Store Protocol."""


def allow_cross_origin(bp: Blueprint, *, methods: Sequence[str] = READ, max_age: int = 86400) -> None:
    """Answer preflights and let any origin read every response of ``bp`` (no cookies involved)."""

    @bp.after_request
    def _cors(resp: Response) -> Response:
        resp.headers["Access-Control-Allow-Origin"] = "*"
        resp.headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED)
        if request.method == "OPTIONS":
            resp.headers["Access-Control-Allow-Methods"] = ", ".join(methods)
            resp.headers["Access-Control-Allow-Headers"] = (
                request.headers.get("Access-Control-Request-Headers")
                or "Accept, Content-Type, Authorization, If-None-Match"
            )
            resp.headers["Access-Control-Max-Age"] = str(max_age)
        return resp
