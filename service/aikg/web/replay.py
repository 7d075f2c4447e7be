"""A cached answer replayed before Flask: the same status, headers and body, for less work.

A repeated read is answered from the response cache (:mod:`aikg.web.response_cache`), but it still went
through Flask: the request context, URL routing over every rule of the app, the before and after hooks,
a Response object built and turned back into WSGI. Profiled under wrk (py-spy, a cached entity lookup),
that was most of what an HTTP worker did beyond a bare Flask app's few routes. So when the app answers a
GET from the cache, what it sent is kept (for the same store version, and used only while the cache
still keeps that answer), keyed on the raw request: path, query string and the headers that could change
the answer (``Accept``, ``Accept-Language``, ``Host`` and whether it takes gzip). The same request at the
same store version is then answered with it before Flask runs.

Only requests that carry nothing else that could change the answer are replayed or kept: a GET with no
body, no credentials or cookies, and no conditional or range header (an ``If-None-Match`` still gets its
304 from the app).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from aikg.cache import LruCache
from aikg.services import Services
from aikg.web.response_cache import REPLAYABLE, gzip_ok

_REFUSED = (
    "HTTP_AUTHORIZATION",
    "HTTP_COOKIE",
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_MATCH",
    "HTTP_IF_UNMODIFIED_SINCE",
    "HTTP_IF_RANGE",
    "HTTP_RANGE",
    "HTTP_TRANSFER_ENCODING",
)
"""Request headers that make a request neither replayed nor kept."""

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


@dataclass(frozen=True)
class Sent:
    """What the app sent for one request, with the state of the data it holds."""

    generation: tuple[Hashable, int]
    cache_key: Hashable
    """The response cache's key of the answer it replays: replayed only while the cache keeps it."""
    status: str
    headers: tuple[tuple[str, str], ...]
    body: bytes


def request_key(environ: dict[str, Any]) -> tuple[Hashable, ...] | None:
    """The raw request a replay is kept under, or None when it is not to be replayed or kept."""
    if environ.get("REQUEST_METHOD") != "GET" or environ.get("CONTENT_LENGTH") not in (None, "", "0"):
        return None
    if any(h in environ for h in _REFUSED):
        return None
    return (
        environ.get("wsgi.url_scheme"),
        environ.get("HTTP_HOST"),
        environ.get("SCRIPT_NAME", ""),
        environ.get("PATH_INFO", ""),
        environ.get("QUERY_STRING", ""),
        environ.get("HTTP_ACCEPT"),
        environ.get("HTTP_ACCEPT_LANGUAGE"),
        gzip_ok(environ.get("HTTP_ACCEPT_ENCODING")),
    )


class Replay:
    """WSGI middleware over the Flask app: replays kept answers, keeps the ones the cache gave."""

    def __init__(self, app: WsgiApp, services: Services) -> None:
        self.app = app
        self.services = services
        settings = services.settings
        # Bodies are mostly the cache's own bytes objects, shared, not copied.
        self.sent = LruCache(settings.cache_size, max_bytes=settings.cache_bytes // 4)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        key = request_key(environ)
        if key is None:
            return self.app(environ, start_response)
        sent = self.sent.get(key)
        if (
            sent is not None
            and sent.generation == (self.services.token, self.services.store.version)
            and self.services.responses.get(sent.cache_key) is not None
        ):
            start_response(sent.status, list(sent.headers))
            return [sent.body]
        return self._keeping(key, environ, start_response)

    def _keeping(
        self, key: tuple[Hashable, ...], environ: dict[str, Any], start_response: StartResponse
    ) -> Iterable[bytes]:
        """Run the app; when it answered from the response cache, keep what it sent under ``key``."""
        said: list[Any] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            said[:] = [status, headers]
            return start_response(status, headers, exc_info)

        answer = self.app(environ, start)
        kept = environ.get(REPLAYABLE)
        if kept is None or not said:
            return answer
        try:
            chunks = list(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        generation: tuple[Hashable, int] = (kept[0], kept[1])  # the cache key's token and version
        # as the response cache's own entries: not once a write has moved the store past that version
        # (an older generation put would forget the newer one's entries)
        if self.services.store.version == generation[1]:
            sent = Sent(generation, kept, said[0], tuple(said[1]), body)
            self.sent.put(key, sent, len(body) + 200, generation=generation)
        return [body]
