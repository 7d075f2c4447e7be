"""CORS for the read surfaces browser clients call from other origins (YASGUI, Comunica, D3 pages).

Hand-written rather than flask-cors: the policy is one fixed rule (any origin, no credentials, read
methods) on two blueprints, which fits in a dozen lines and adds no dependency.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import Blueprint, Response, request

EXPOSED = ("X-AIKG-Truncated", "Link")
"""Response headers a cross-origin script may read besides the safelisted ones."""


def allow_cross_origin(
    bp: Blueprint, *, methods: Sequence[str] = ("GET", "HEAD", "POST", "OPTIONS"), max_age: int = 86400
) -> None:
    """Answer preflights and let any origin read every response of ``bp`` (no cookies involved)."""

    @bp.after_request
    def _cors(resp: Response) -> Response:
        resp.headers["Access-Control-Allow-Origin"] = "*"
        resp.headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED)
        if request.method == "OPTIONS":
            resp.headers["Access-Control-Allow-Methods"] = ", ".join(methods)
            resp.headers["Access-Control-Allow-Headers"] = (
                request.headers.get("Access-Control-Request-Headers") or "Accept, Content-Type"
            )
            resp.headers["Access-Control-Max-Age"] = str(max_age)
        return resp
