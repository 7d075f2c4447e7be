"""One JSON error envelope for every route, built in one place.

``{"ok": false, "status": 404, "error": "not found", "message": "...", "errors": [...]}``
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, current_app, jsonify
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from aikg.errors import AikgError, DamagedStore

log = logging.getLogger(__name__)


def error_body(status: int, error: str, message: str, errors: list[Any] | None = None) -> dict[str, Any]:
    """The error envelope every route returns."""
    return {"ok": False, "status": status, "error": error, "message": message, "errors": errors or []}


def error_response(
    status: int,
    error: str,
    message: str,
    errors: list[Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """A JSON response carrying the error envelope."""
    resp = jsonify(error_body(status, error, message, errors))
    resp.status_code = status
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def note_damage(exc: DamagedStore) -> None:
    """Keep the first damaged block a read of this process met, for /health to report."""
    from aikg.web import SERVICES_KEY  # the package imports this module as it builds the app

    services = current_app.extensions.get(SERVICES_KEY)
    if services is not None and services.damage is None:
        services.damage = exc


def register(app: Flask) -> None:
    """Install the handlers that turn typed exceptions and HTTP errors into the envelope."""

    @app.errorhandler(AikgError)
    def _aikg(exc: AikgError) -> Response:
        if isinstance(exc, DamagedStore):
            note_damage(exc)
        return error_response(exc.status, exc.title, exc.message, exc.errors, exc.headers)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        status = exc.code or 500
        name = (exc.name or "error").lower()
        headers = {}
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            headers["Allow"] = ", ".join(exc.valid_methods)
        return error_response(status, name, exc.description or name, headers=headers)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unexpected error")
        return error_response(500, "internal error", "an unexpected error occurred; it was logged")
