"""Typed errors. Each carries its HTTP status, so the web layer turns them into responses in one place."""

from __future__ import annotations

from typing import Any


class AikgError(Exception):
    """Base of every error aikg reports to a user; ``status`` is its HTTP status code."""

    status = 500
    title = "internal error"

    def __init__(
        self, message: str, *, errors: list[Any] | None = None, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors or []
        self.headers = headers or {}


class BadRequest(AikgError):
    """The request is malformed: a missing or invalid parameter, an unparsable body."""

    status = 400
    title = "bad request"


class QuerySyntaxError(BadRequest):
    """A SPARQL query or update does not parse; the message says where."""

    title = "query syntax error"


class RdfSyntaxError(BadRequest):
    """An RDF document does not parse in the format it claims."""

    title = "rdf syntax error"


class Unauthorized(AikgError):
    """A write came without a valid bearer token."""

    status = 401
    title = "unauthorized"


class Forbidden(AikgError):
    """The request is understood but not allowed (writes switched off, a fetch outside the store)."""

    status = 403
    title = "forbidden"


class NotFound(AikgError):
    """No such entity, named query, graph or route."""

    status = 404
    title = "not found"


class MethodNotAllowed(AikgError):
    """The route exists but not for this HTTP method."""

    status = 405
    title = "method not allowed"


class NotAcceptable(AikgError):
    """None of the media types in ``Accept`` can be produced; the message names the ones offered."""

    status = 406
    title = "not acceptable"


class Conflict(AikgError):
    """The request conflicts with the store's state: CREATE GRAPH of a graph that already holds data, or
    a change prepared on a version of the store that another write has since replaced."""

    status = 409
    title = "conflict"


class PayloadTooLarge(AikgError):
    """The request body is over the configured limit."""

    status = 413
    title = "payload too large"


class UnsupportedMediaType(AikgError):
    """The request body's Content-Type is not one aikg reads."""

    status = 415
    title = "unsupported media type"


class ValidationFailed(AikgError):
    """A write was refused because the data would not conform to the shapes; ``report`` holds why."""

    status = 422
    title = "validation failed"

    def __init__(self, message: str, *, report: Any = None, errors: list[Any] | None = None) -> None:
        super().__init__(message, errors=errors)
        self.report = report


class TooManyRequests(AikgError):
    """Too many heavy queries are running; the client should retry later."""

    status = 429
    title = "too many requests"


class QueryTimeout(AikgError):
    """A query ran past its time limit and was stopped."""

    status = 503
    title = "query timeout"


class WriteTimeout(AikgError):
    """A write could not be validated and committed within its time limit; it was not committed."""

    status = 503
    title = "write timeout"


class StoreError(AikgError):
    """The storage backend failed (a remote engine down, a disk error)."""

    status = 503
    title = "store unavailable"


class NotReady(AikgError):
    """Writes are not taken yet: the writer process is starting (opening the store, loading the seeds,
    warming up). Nothing was changed; ``Retry-After`` says when to try again."""

    status = 503
    title = "writes not ready"


class DamagedStore(StoreError):
    """The on-disk store cannot be opened as it is: aikg leaves every file of it as found and says what to
    do (:mod:`aikg.store.integrity`). Never retried: opening it again would fail again."""

    title = "store damaged"


class InsufficientStorage(AikgError):
    """The file system holding the store is full: the write was not committed; reads go on, and writes
    work again once space is free (RFC 4918 §11.5)."""

    status = 507
    title = "insufficient storage"
