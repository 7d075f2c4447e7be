"""What aikg's HTTP worker (aikg.serving.worker) relies on in gunicorn's threaded worker, checked against
the installed gunicorn: one test per behaviour. The worker overrides internals that gunicorn does not
promise to keep; a gunicorn release that changes one fails here, by name, before it fails in service
(pyproject.toml pins gunicorn to the major release these pass on).
"""

from __future__ import annotations

import inspect
import logging
import os
import selectors
import socket
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest
from gunicorn import sock as gunicorn_sock
from gunicorn.config import Config
from gunicorn.http import errors as http_errors
from gunicorn.http import wsgi
from gunicorn.workers import base, gthread

from aikg.serving import worker as adapter


@pytest.fixture()
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A connected (server side, client side) socket pair."""
    server, client = socket.socketpair()
    yield server, client
    server.close()
    client.close()


def _thread_worker(cls: type = gthread.ThreadWorker) -> Any:
    """A gunicorn threaded worker built by its own constructor, with a poller and no loop running."""
    w = cls(0, os.getpid(), [], None, 30, Config(), logging.getLogger("test"))
    w.poller = selectors.DefaultSelector()
    return w


def _conn(cfg: Any, server: socket.socket) -> Any:
    return gthread.TConn(cfg, server, ("127.0.0.1", 1), ("127.0.0.1", 2))


def _request(server: socket.socket, client: socket.socket, raw: bytes) -> tuple[Any, Any]:
    """The config and the request gunicorn's parser reads from ``raw`` sent over a fresh connection."""
    cfg = Config()
    conn = _conn(cfg, server)
    conn.init()
    client.sendall(raw)
    return cfg, next(conn.parser)


def test_each_method_the_worker_overrides_or_calls_exists_with_its_parameters():
    """The typed surface (adapter.ThreadWorkerSurface) is what gunicorn's ThreadWorker has: same names,
    same parameters, in order."""
    surface = adapter.ThreadWorkerSurface
    methods = [n for n, v in vars(surface).items() if inspect.isfunction(v)]
    assert len(methods) == 10
    for name in methods:
        theirs = inspect.signature(getattr(gthread.ThreadWorker, name)).parameters
        ours = inspect.signature(getattr(surface, name)).parameters
        assert list(theirs) == list(ours), name


def test_each_attribute_the_worker_reads_is_set_by_gunicorn():
    """The attributes of the typed surface exist on a worker gunicorn built (PIPE and wait_fds are made
    by base.Worker.init_process, before load_wsgi)."""
    w = _thread_worker()
    made_at_init = {"PIPE", "wait_fds"}
    for name in adapter.ThreadWorkerSurface.__annotations__:
        if name not in made_at_init:
            assert hasattr(w, name), name
    init = inspect.getsource(base.Worker.init_process)
    assert "self.PIPE = os.pipe()" in init
    assert "self.wait_fds = self.sockets + [self.PIPE[0]]" in init
    w.poller.close()


def test_a_deferred_connection_waits_on_the_poller_until_its_socket_is_readable(pair):
    """handle() returning gunicorn's private sentinel (adapter.DEFER) puts the connection on
    pending_conns and the poller, holding no thread; readable again, it goes back to the thread pool."""
    server, client = pair
    w = _thread_worker()
    queued: list[Any] = []
    w.enqueue_req = queued.append
    conn = _conn(w.cfg, server)
    done: Future[object] = Future()
    done.set_result(adapter.DEFER)
    w.finish_request(conn, done)
    assert conn in w.pending_conns and w.poller.get_key(server)
    assert conn.timeout is not None
    client.sendall(b"G")
    (key, _), *_ = w.poller.select(5)
    key.data(key.fileobj)
    assert queued == [conn] and conn not in w.pending_conns
    w.poller.close()


def test_a_readable_kept_alive_connection_is_handed_to_the_pool_by_on_client_socket_readable(pair):
    """The worker's murder_keepalived hands an expired connection whose next request has come to
    on_client_socket_readable, which takes it off keepalived_conns and the poller and enqueues it."""
    server, client = pair
    w = _thread_worker(adapter.Worker)
    queued: list[Any] = []
    w.enqueue_req = queued.append
    conn = _conn(w.cfg, server)
    conn.timeout = 0.0  # expired
    w.keepalived_conns.append(conn)
    w.poller.register(server, selectors.EVENT_READ, None)
    client.sendall(b"GET / HTTP/1.1\r\n")
    w.murder_keepalived()
    assert queued == [conn] and not w.keepalived_conns
    with pytest.raises(KeyError):
        w.poller.get_key(server)
    w.poller.close()


def test_the_main_loop_calls_the_hooks_the_worker_overrides():
    """Every turn of ThreadWorker.run waits for events, then closes expired kept-alive and pending
    connections: the worker gives heap back and enforces its read deadline there."""
    run = inspect.getsource(gthread.ThreadWorker.run)
    wait, keepalived, pending = (
        run.index("self.wait_for_and_dispatch_events("),
        run.index("self.murder_keepalived()"),
        run.index("self.murder_pending()"),
    )
    assert wait < keepalived < pending
    init = inspect.getsource(base.Worker.init_process)
    assert init.index("self.load_wsgi()") < init.index("self.run()")


def test_bytes_given_back_to_the_parser_are_read_before_the_socket(pair):
    """What the worker took off the socket while a request arrived is given back with
    parser.unreader.unread() and parsed first; unreader.buf holds it meanwhile."""
    server, client = pair
    conn = _conn(Config(), server)
    conn.init()
    conn.parser.unreader.unread(b"GET /held HTTP/1.1\r\nHo")
    assert conn.parser.unreader.buf.getvalue()
    client.sendall(b"st: example.org\r\n\r\n")
    req = next(conn.parser)
    assert req.path == "/held" and ("HOST", "example.org") in req.headers


def test_a_response_is_made_from_the_wsgi_module_class_and_reads_the_body_the_worker_set(pair):
    """wsgi.create builds the response from wsgi.Response at call time (the worker swaps in its
    KeepAliveResponse), and the app's wsgi.input is the request's body (which the worker reads whole
    first); headers are (UPPER-NAME, value) pairs."""
    server, client = pair
    cfg, req = _request(server, client, b"POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi")
    assert ("CONTENT-LENGTH", "2") in req.headers
    original = wsgi.Response
    try:
        wsgi.Response = adapter.KeepAliveResponse
        resp, environ = wsgi.create(req, server, ("127.0.0.1", 1), ("127.0.0.1", 2), cfg)
    finally:
        wsgi.Response = original
    assert isinstance(resp, adapter.KeepAliveResponse)
    assert environ["wsgi.input"] is req.body


def test_default_headers_are_header_lines_that_the_keep_alive_timeout_joins(pair):
    """Response.default_headers() is a list of 'Name: value\\r\\n' lines, and cfg.keepalive, upgrade and
    should_close() say whether the connection is kept: the worker adds Keep-Alive: timeout=N."""
    server, client = pair
    cfg, req = _request(server, client, b"GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    resp = adapter.KeepAliveResponse(req, server, cfg)
    resp.start_response("200 OK", [("Content-Type", "text/plain")])
    headers = resp.default_headers()
    assert all(isinstance(h, str) and h.endswith("\r\n") for h in headers)
    assert f"Keep-Alive: timeout={int(cfg.keepalive)}\r\n" in headers


@pytest.mark.parametrize(
    ("sent", "error", "status"),
    [
        (b"GARBAGE\r\n\r\n", http_errors.ParseException, 400),
        (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n", http_errors.LimitRequestLine, 414),
    ],
)
def test_a_malformed_request_reaches_handle_error_as_gunicorn_s_error(pair, sent, error, status):
    """ThreadWorker.handle passes a request it cannot parse to handle_error(req, client, addr, exc) with
    one of gunicorn.http.errors' classes, which the worker maps to the envelope's status."""
    server, client = pair

    class Recording(gthread.ThreadWorker):  # type: ignore[misc]
        def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
            seen.append(exc)

    seen: list[BaseException] = []
    w = _thread_worker(Recording)
    conn = _conn(w.cfg, server)
    conn.data_ready = True
    client.sendall(sent)
    assert w.handle(conn) is False
    assert len(seen) == 1 and isinstance(seen[0], error)
    assert next(s for cls, s, _ in adapter._CLIENT_ERRORS if isinstance(seen[0], cls)) == status
    w.poller.close()


def test_listening_sockets_are_made_by_create_sockets_from_the_config():
    """With reuse_port the worker opens its own listening sockets once its app is loaded, with
    gunicorn.sock.create_sockets(cfg, log)."""
    assert list(inspect.signature(gunicorn_sock.create_sockets).parameters)[:2] == ["conf", "log"]
    assert "reuse_port" in Config().settings
