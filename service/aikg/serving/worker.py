"""aikg's gunicorn worker: gunicorn's threaded worker, made to answer in the JSON error envelope and to
bound how long a client may take to send a request.

- **One error envelope for everything a client can receive.** Requests gunicorn refuses before the app
  sees them (a request line over the limit, too many or too large headers, a broken chunked body, an
  invalid method or version) get the same ``{"ok": false, "status", "error", "message", "errors"}``
  body as everything else, not gunicorn's HTML page.
- **Slow clients cannot hold the service, and nobody waits for nothing.** A connection gets a thread
  only once its request has arrived: until the headers (and a body of up to 64 KiB) are in, it waits in
  the main loop's poller, holding no thread, and is looked at again as soon as more bytes arrive (what
  has come so far is taken off the socket and kept with the connection, so an unfinished request does
  not keep the socket readable and spin the loop). From its first byte, a request's headers and body
  must arrive within ``read_timeout`` seconds, whatever the pace (a client sending a byte every few
  seconds is cut off too), else it gets 408 and is closed. A larger body is read whole, within the same
  deadline, before the app runs (it is at most ``max_body`` bytes: larger ones are refused with 413
  without being read), so the app never waits for a client.

This is aikg's one adapter to gunicorn's internals: every override of its threaded worker and every
use of what it does not publish (the ``_DEFER`` sentinel, the connection's parser, the response class)
is in this module, typed against :class:`ThreadWorkerSurface`; tests/test_gunicorn_contract.py checks
each behaviour relied on against the installed gunicorn.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import logging
import select
import socket
import sys
import threading
import time
from collections import deque
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from gunicorn.http import errors as http_errors
from gunicorn.http import wsgi
from gunicorn.workers import gthread

from aikg.serving.arenas import give_back
from aikg.settings import load_settings

# -- the part of gunicorn 27 this module relies on, typed -----------------------------------------------
# gunicorn ships no type information: its classes are Any to mypy, so a subclass of them is not checked.
# Below is what of them this module uses, with types; mypy checks the worker against it, and
# tests/test_gunicorn_contract.py checks, against the installed gunicorn, that each method and attribute
# exists with these parameters and that each behaviour the worker relies on still holds (the version pin
# in pyproject.toml says why it is pinned to one major release).

DEFER: object = gthread._DEFER
"""What ``handle`` returns to give a connection back to the main loop's poller instead of answering it
(gunicorn puts it on ``pending_conns`` until its socket is readable). gunicorn's own private sentinel:
there is no public way to defer a connection (checked by the contract tests)."""


class Unreader(Protocol):
    """gunicorn's buffer of bytes read off a socket ahead of the parser."""

    buf: io.BytesIO

    def unread(self, data: bytes) -> None: ...


class Parser(Protocol):
    unreader: Unreader


class Conn(Protocol):
    """gunicorn's connection (``gthread.TConn``), and what aikg keeps with it (``aikg_held``)."""

    sock: socket.socket
    client: Any
    parser: Parser | None
    timeout: float | None

    def init(self) -> None: ...


class Request(Protocol):
    """A parsed request (``gunicorn.http.message.Request``)."""

    headers: list[tuple[str, str]]
    body: BinaryIO


class Config(Protocol):
    """The settings of gunicorn's configuration this module reads."""

    keepalive: float
    reuse_port: bool


class ThreadWorkerSurface:
    """The methods and attributes of gunicorn's ``gthread.ThreadWorker`` the worker overrides or uses.
    Only for the type checker (at run time the worker extends gunicorn's class) and the contract tests."""

    cfg: Config
    log: logging.Logger
    alive: bool
    sockets: list[socket.socket]
    wait_fds: list[Any]
    PIPE: tuple[int, int]
    pending_conns: deque[Conn]
    keepalived_conns: deque[Conn]

    def init_process(self) -> None: ...
    def load_wsgi(self) -> None: ...
    def handle(self, conn: Conn) -> object: ...
    def finish_request(self, conn: Conn, fs: Future[object]) -> None: ...
    def wait_for_and_dispatch_events(self, timeout: float) -> None: ...
    def handle_request(self, req: Request, conn: Conn) -> bool:
        raise NotImplementedError  # gunicorn's, at run time

    def murder_keepalived(self, force: bool = False) -> None: ...
    def murder_pending(self) -> None: ...
    def on_client_socket_readable(self, conn: Conn, client: socket.socket) -> None: ...
    def handle_error(
        self, req: Request | None, client: socket.socket, addr: Any, exc: BaseException
    ) -> None: ...


if TYPE_CHECKING:

    class _ThreadWorker(ThreadWorkerSurface):
        pass

    class _Response:
        cfg: Config
        upgrade: bool

        def default_headers(self) -> list[str]:
            raise NotImplementedError

        def should_close(self) -> bool:
            raise NotImplementedError

else:
    _ThreadWorker = gthread.ThreadWorker
    _Response = wsgi.Response

_CLIENT_ERRORS: tuple[tuple[type[BaseException], int, str], ...] = (
    (http_errors.InvalidResponseHeader, 500, "internal error"),
    (http_errors.InvalidResponseHeaderName, 500, "internal error"),
    (http_errors.ConfigurationProblem, 500, "internal error"),
    (http_errors.LimitRequestLine, 414, "uri too long"),
    (http_errors.LimitRequestHeaders, 431, "request header fields too large"),
    # RFC 9112 suggests 501 for a transfer coding the server does not know; it is the client's
    # request that is wrong, so it gets a 4xx like every other malformed request.
    (http_errors.UnsupportedTransferCoding, 400, "bad request"),
    (http_errors.ExpectationFailed, 417, "expectation failed"),
    (http_errors.ForbiddenProxyRequest, 403, "forbidden"),
    (http_errors.ParseException, 400, "bad request"),
    (http_errors.InvalidProxyLine, 400, "bad request"),
    (http_errors.InvalidSchemeHeaders, 400, "bad request"),
)
"""gunicorn's refusals of malformed requests (and its own faults), with the envelope's status and title."""


def envelope(status: int, error: str, message: str) -> bytes:
    """A complete HTTP response carrying the error envelope; the connection is closed after it."""
    body = json.dumps({"ok": False, "status": status, "error": error, "message": message, "errors": []})
    data = body.encode("utf-8")
    head = (
        f"HTTP/1.1 {status} {error.title()}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    )
    return head.encode("latin-1") + data


class _TooLarge(Exception):
    """The request body is over ``max_body``."""


PEEK = 65536
"""Bytes of a request looked at (without reading them) to tell whether it has fully arrived."""


WAIT, READY, TOO_LARGE = "wait", "ready", "too large"
"""What a peek at a request says: wait for more of it, let the parser read it, or refuse it (413)."""


def arrival(data: bytes, max_body: int) -> str:
    """Whether ``data`` (the start of what a socket holds) is a whole request, or all a peek can tell:
    headers too large for the peek are left to the parser, which refuses them (414/431); a body
    declared over ``max_body`` — by its length or by a chunk's size — is refused without waiting for
    it; framing the parser refuses at once (another transfer coding, a length beside it, a chunk size
    that is not a number) is not waited for either."""
    if len(data) >= PEEK:
        return READY
    ends = [i for i in (data.find(b"\r\n\r\n"), data.find(b"\n\n")) if i >= 0]
    if not ends:
        return WAIT
    end = min(ends)
    head = data[:end].lower()
    body = data[end + (2 if data[end : end + 2] == b"\n\n" else 4) :]
    lines = [line.strip() for line in head.split(b"\n")]
    codings = [
        v.strip() for line in lines if line.startswith(b"transfer-encoding:") for v in line[18:].split(b",")
    ]
    if codings:
        if codings[-1] != b"chunked" or any(line.startswith(b"content-length:") for line in lines):
            return READY
        return _chunks(body, max_body)
    for line in lines:
        if line.startswith(b"content-length:"):
            value = line[15:].strip()
            if not value.isdigit():
                return READY
            if (
                len(value) > len(str(max_body)) or int(value) > max_body
            ):  # digits first: int() of 5,000 raises
                return TOO_LARGE
            return READY if len(body) >= int(value) else WAIT
    return READY


def _chunks(body: bytes, max_body: int) -> str:
    """Walk a chunked body as far as it has arrived (see :func:`arrival`)."""
    pos, total = 0, 0
    while True:
        eol = body.find(b"\n", pos)
        if eol < 0:
            return WAIT
        try:
            size = int(body[pos:eol].split(b";")[0].strip(), 16)
        except ValueError:
            return READY  # not a chunk size: the parser refuses it (400)
        if size < 0:
            return READY
        total += size
        if total > max_body:
            return TOO_LARGE  # else the parser would wait for all of it, holding a thread
        if size == 0:
            rest = body[eol + 1 :]
            return READY if rest.startswith((b"\r\n", b"\n")) or b"\r\n\r\n" in rest else WAIT
        pos = eol + 1 + size + 2
        if pos > len(body):
            return WAIT


def _has_bytes(sock: socket.socket) -> bool:
    """True when ``sock`` holds bytes not read yet (False at its end, on an error, or when empty)."""
    try:
        return bool(sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT))
    except OSError:  # BlockingIOError included: nothing has arrived
        return False


GIVE_BACK_EVERY = 2.0
"""Seconds between two returns of free heap pages to the system by an idle worker (measured: 7 ms on a
300 MB heap with nothing to return, 62 ms returning 270 MB; at most a few tenths of a percent of a core)."""

SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the GIL while others wait (Python's default: 0.005). A cheap request
releases the GIL at every store read and must win it back each time; behind a thread busy in Python
(a hub's deep neighbourhood, a large answer being serialized), each of those waits costs up to the
interval, so a lookup of a few dozen reads paid ~100 ms. A shorter interval keeps cheap requests
cheap under heavy ones, at a small cost in switching."""


COLLECT_AFTER = 10_000
"""Objects allocated (net) between two young collections of the cyclic garbage collector (Python's
default: 700). A full collection walks every object the process holds, with the GIL held: while a
thread built a hub's deep neighbourhood or GraphML export (hundreds of thousands of objects alive
until it is written), the default thresholds made one every ~70,000 allocations. Traced under the fair
share's hostile clients (``python -m aikg_bench.soak --fair``), an HTTP worker spent 70-350 ms in each
of 3-5 full collections a second, and every cheap request beside it waited. Ten thousand makes full
collections rare (one per million allocations at most) and young ones a few milliseconds each."""


def tune_interpreter() -> None:
    """Make a busy thread's Python work stall the cheap requests beside it as little as it can: a short
    GIL switch interval (:data:`SWITCH_INTERVAL`) and rare full collections (:data:`COLLECT_AFTER`)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    _, middle, old = gc.get_threshold()
    gc.set_threshold(COLLECT_AFTER, middle, old)


class KeepAliveResponse(_Response):
    """gunicorn's response, saying how long an idle connection stays open: ``Keep-Alive: timeout=N``
    (gunicorn's ``keepalive``, 2 s by default). gunicorn closed idle connections without saying when,
    and Node's fetch (undici, Comunica's transport) then sent a POST on one the server had just closed:
    2 of 3 Comunica updates failed. Told the timeout, undici stops reusing a connection before it."""

    line: str | None = None
    """The ``Keep-Alive`` header line of this process's configuration ("" without keep-alive), made
    once by the worker as it starts (read from gunicorn's configuration per response, it was a tenth
    of a cached answer's header work); unset, it is made from ``cfg`` each time."""

    def default_headers(self) -> list[str]:
        headers = super().default_headers()
        line = KeepAliveResponse.line
        if line is None:
            line = keep_alive_line(self.cfg.keepalive)
        if line and not self.upgrade and not self.should_close():
            headers.append(line)
        return headers


def keep_alive_line(keepalive: float) -> str:
    """The ``Keep-Alive: timeout=N`` header line for gunicorn's ``keepalive`` seconds ("" for none)."""
    return f"Keep-Alive: timeout={int(keepalive)}\r\n" if keepalive else ""


FIRST_BYTES_S = 0.01
"""Seconds a thread waits for the first bytes of a new connection's request before handing the
connection to the poller. A client that connects and sends at once (curl, requests, a health check) had
its connection handed to a thread before its request arrived, back to the main loop, onto the poller
and to a thread again: two more hand-offs than the bare gthread app (which waits in the thread up to
5 s), on every request on a new connection. A client that sends nothing holds a thread this long at
most, then waits on the poller as before."""


class Worker(_ThreadWorker):
    """gunicorn's ``gthread`` worker with the envelope and the read deadline (see the module docstring)."""

    def init_process(self) -> None:
        # gunicorn's threaded worker builds each response as wsgi.Response, with no hook to give it
        # another class: this process's responses declare their keep-alive timeout.
        wsgi.Response = KeepAliveResponse
        KeepAliveResponse.line = keep_alive_line(self.cfg.keepalive)
        tune_interpreter()
        settings = load_settings()
        self.read_timeout = settings.read_timeout
        self.max_body = settings.max_body
        self._reading: dict[Conn, float] = {}
        self._reading_lock = threading.Lock()
        self._running = 0
        """Requests being answered by the thread pool now."""
        self._give_back_at = 0.0
        if self._own_socket():
            # gunicorn opened this worker's listening socket as it forked, before the app is loaded
            # (imports, the store, the services: 1-3 s on a busy machine): the kernel would hand it a
            # share of new connections, which waited for the whole boot while the other worker was
            # ready (after a restart, a request could wait behind a boot that health never showed). The
            # socket is opened again once the app is loaded (load_wsgi), so only a worker that can
            # answer gets connections; until the first one is, a client is refused, not kept waiting.
            for listener in self.sockets:
                listener.close()
            self.sockets = []
        super().init_process()

    def _own_socket(self) -> bool:
        """True when each worker listens on a socket of its own (``reuse_port``)."""
        return bool(self.cfg.reuse_port and hasattr(socket, "SO_REUSEPORT"))

    def load_wsgi(self) -> None:
        super().load_wsgi()
        if self._own_socket() and not self.sockets:
            from gunicorn import sock, util

            listeners: list[socket.socket] = sock.create_sockets(self.cfg, self.log)
            for listener in listeners:
                util.close_on_exec(listener)
            self.sockets = listeners
            self.wait_fds = [*listeners, self.PIPE[0]]

    # -- the read deadline ----------------------------------------------------------------------------

    def _watch(self, conn: Conn) -> None:
        """Start the connection's read deadline, unless its request is already being waited for."""
        with self._reading_lock:
            self._reading.setdefault(conn, time.monotonic() + self.read_timeout)

    def _unwatch(self, conn: Conn) -> None:
        with self._reading_lock:
            self._reading.pop(conn, None)

    def handle(self, conn: Conn) -> object:
        """Answer one request on ``conn`` once it has arrived; until then, hand it back to the poller."""
        self._watch(conn)
        state = self._arrival(conn)
        if state == WAIT and self._first_bytes(conn):
            state = self._arrival(conn)
        if state == WAIT:
            return DEFER
        if state == TOO_LARGE:
            self._unwatch(conn)
            self._send(conn.sock, self._too_large())
            return False
        held: bytes = getattr(conn, "aikg_held", b"")
        if held:
            # What was taken off the socket while the request arrived goes first to the parser.
            conn.aikg_held = b""  # type: ignore[attr-defined]  # kept with gunicorn's connection
            conn.sock.setblocking(True)
            conn.init()
            assert conn.parser is not None  # init() made it
            conn.parser.unreader.unread(held)
        with self._reading_lock:
            self._running += 1
        try:
            return super().handle(conn)
        finally:
            with self._reading_lock:
                self._running -= 1
            self._unwatch(conn)

    def finish_request(self, conn: Conn, fs: Future[object]) -> None:
        """As gunicorn's; a connection whose request has begun to arrive may wait on the poller until
        its read deadline (gunicorn's own limit, the keep-alive time, would cut a client pausing
        mid-request without the 408 it is owed)."""
        super().finish_request(conn, fs)
        if getattr(conn, "aikg_held", b"") and conn in self.pending_conns:
            with self._reading_lock:
                deadline = self._reading.get(conn)
            if deadline is not None:
                conn.timeout = max(conn.timeout or 0.0, deadline + 1.0)

    def wait_for_and_dispatch_events(self, timeout: float) -> None:
        """As gunicorn's, then give heap pages back when idle."""
        super().wait_for_and_dispatch_events(timeout)
        self._give_back_when_idle()

    def _give_back_when_idle(self) -> None:
        """At most every :data:`GIVE_BACK_EVERY` seconds, when no request runs, return the heap's free
        pages to the system (:func:`aikg.serving.arenas.give_back`)."""
        now = time.monotonic()
        if now < self._give_back_at or self._running:
            return
        self._give_back_at = now + GIVE_BACK_EVERY
        give_back()

    @staticmethod
    def _first_bytes(conn: Conn) -> bool:
        """For a new connection with nothing of its request yet: whether bytes arrive within
        :data:`FIRST_BYTES_S` (looked for once per connection)."""
        if getattr(conn, "parser", None) is not None or getattr(conn, "aikg_looked", False):
            return False
        conn.aikg_looked = True  # type: ignore[attr-defined]  # kept with gunicorn's connection
        poll = select.poll()
        try:
            poll.register(conn.sock.fileno(), select.POLLIN)
            return bool(poll.poll(FIRST_BYTES_S * 1000))
        except (OSError, ValueError):  # closed meanwhile: the normal path sees it
            return True

    def _arrival(self, conn: Conn) -> str:
        """Whether the request on ``conn`` has arrived (:func:`arrival`). Bytes of a request that has
        not are taken off the socket and kept with the connection (``aikg_held``): its socket is then
        readable again only when more bytes come, so the poller hands it back exactly then — no fixed
        rest, no spinning."""
        parser = getattr(conn, "parser", None)
        if parser is not None and parser.unreader.buf.getvalue():
            return READY  # bytes already read off the socket: let the parser go on
        held: bytes = getattr(conn, "aikg_held", b"")
        try:
            data = conn.sock.recv(PEEK - len(held), socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            data = None  # nothing new has arrived
        except OSError:
            return READY  # the normal path sees the error and closes the connection
        if data == b"":
            return READY  # the client has closed: the parser sees the end
        state = arrival(held + (data or b""), self.max_body)
        if state == WAIT and data:
            try:
                conn.aikg_held = held + conn.sock.recv(len(data), socket.MSG_DONTWAIT)  # type: ignore[attr-defined]
            except OSError:
                return READY
        return state

    def _too_large(self) -> bytes:
        return envelope(
            413,
            "payload too large",
            f"the request body is over the limit of {self.max_body} bytes (setting max_body)",
        )

    def handle_request(self, req: Request, conn: Conn) -> bool:
        """Read the whole body (within the deadline and ``max_body``), then let the app answer."""
        try:
            req.body = io.BytesIO(self._read_body(req))
        except _TooLarge:
            self._send(conn.sock, self._too_large())
            return False
        finally:
            self._unwatch(conn)
        return super().handle_request(req, conn)

    def _read_body(self, req: Request) -> bytes:
        length = next((v for k, v in req.headers if k == "CONTENT-LENGTH"), None)
        if (
            length is not None
            and length.isdigit()
            and (len(length) > len(str(self.max_body)) or int(length) > self.max_body)
        ):
            raise _TooLarge
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = req.body.read(65536)
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > self.max_body:
                raise _TooLarge
            chunks.append(chunk)

    def murder_keepalived(self, force: bool = False) -> None:
        """Close expired keep-alive connections, but answer one whose next request has come meanwhile.

        gunicorn closes an expired connection without looking at it. A request the client sent after the
        poller last looked (the main loop between its poll and this check runs callbacks, gives heap
        back, waits for the GIL) sat unread in the socket, and closing a socket with unread bytes sends a
        reset: the client's request failed (the soak's 2 connection resets in 7,783 requests). Such a
        connection goes to a thread as if the poller had seen it."""
        if not force:
            now = time.monotonic()
            arrived = []
            for conn in self.keepalived_conns:
                if conn.timeout is not None and conn.timeout > now:
                    break  # the deque is in timeout order
                if _has_bytes(conn.sock):
                    arrived.append(conn)
            for conn in arrived:
                self.on_client_socket_readable(conn, conn.sock)
        super().murder_keepalived(force)

    def murder_pending(self) -> None:
        """Also close connections whose request has not fully arrived within ``read_timeout``."""
        super().murder_pending()
        now = time.monotonic()
        with self._reading_lock:
            late = [conn for conn, deadline in self._reading.items() if deadline < now]
            for conn in late:
                del self._reading[conn]
        for conn in late:
            self._send(
                conn.sock,
                envelope(
                    408,
                    "request timeout",
                    f"the request did not arrive within {self.read_timeout:g} s (setting read_timeout)",
                ),
            )
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)  # whoever reads it next sees the end

    # -- the envelope ---------------------------------------------------------------------------------

    def handle_error(self, req: Request | None, client: socket.socket, addr: Any, exc: BaseException) -> None:
        """gunicorn's refusal of a malformed request (or a failure outside the app), as the envelope."""
        for cls, status, title in _CLIENT_ERRORS:
            if isinstance(exc, cls):
                if status >= 500:
                    self.log.error("error answering a request: %s", exc)
                    self._send(client, envelope(status, title, "the response could not be written"))
                    return
                self.log.warning("invalid request from %s: %s", (addr or ("",))[0], exc)
                message = str(exc)[:300] or title
                if status == 414:
                    # the line was not read, so its path is unknown: the advice names where it applies
                    message += (
                        "; a long SPARQL query goes to /sparql by POST (a form with query=, or the query "
                        "itself as application/sparql-query), which takes up to max_body bytes"
                    )
                self._send(client, envelope(status, title, message))
                return
        self.log.exception("error handling a request")
        self._send(client, envelope(500, "internal error", "an unexpected error occurred; it was logged"))

    @staticmethod
    def _send(sock: socket.socket, data: bytes) -> None:
        try:
            sock.setblocking(False)
            sock.send(data)
        except OSError:
            pass
