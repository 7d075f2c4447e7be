"""Who may write: a bearer token compared in constant time; no token configured means writes are off."""

from __future__ import annotations

import hmac

from aikg.errors import Forbidden, Unauthorized

REALM = 'Bearer realm="aikg"'


def require_writer(configured: str, authorization: str | None) -> None:
    """Raise 403 when writes are off, 401 (with WWW-Authenticate) when the token is missing or wrong."""
    if not configured:
        raise Forbidden(
            "writes are switched off on this server: no token is configured "
            "(setting token, environment AIKG_TOKEN)"
        )
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        raise Unauthorized(
            "this write needs a bearer token: send 'Authorization: Bearer <token>'",
            headers={"WWW-Authenticate": REALM},
        )
    if not hmac.compare_digest(given.strip().encode("utf-8", "replace"), configured.encode("utf-8")):
        raise Unauthorized(
            "the bearer token is not valid", headers={"WWW-Authenticate": REALM + ', error="invalid_token"'}
        )
