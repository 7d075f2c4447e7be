"""aikg's gunicorn worker in process: how a connection waits for its request (no fixed rest, no spin)."""

from __future__ import annotations

import collections
import selectors
import socket
import threading
from concurrent.futures import Future
from typing import Any

import pytest
from gunicorn.config import Config
from gunicorn.workers import gthread

from aikg.serving.worker import Worker


@pytest.fixture()
def worker() -> Any:
    """A worker with only the bookkeeping of connections waiting for their request (no app, no loop)."""
    w = Worker.__new__(Worker)
    w.cfg = Config()
    w.alive = True
    w.poller = selectors.DefaultSelector()
    w.pending_conns = collections.deque()
    w.keepalived_conns = collections.deque()
    w.nr_conns = 1
    w.read_timeout = 10.0
    w.max_body = 1000
    w._reading = {}
    w._reading_lock = threading.Lock()
    w._running = 0
    w.enqueue_req = lambda conn: None  # the test plays the thread pool itself (see _step)
    yield w
    w.poller.close()


def _step(worker: Any, conn: Any) -> Any:
    """One turn of a thread on ``conn``, and the main loop's handling of its result."""
    fs: Future[Any] = Future()
    fs.set_result(worker.handle(conn))
    worker.finish_request(conn, fs)
    return fs.result()


def _ready(worker: Any, seconds: float) -> bool:
    return bool(worker.poller.select(seconds))


def test_a_connection_is_looked_at_again_as_soon_as_its_bytes_arrive_and_never_before(worker, monkeypatch):
    """Regression (#49): a new connection whose request had not arrived when a thread first looked (the
    usual case right after accept: curl, requests.get) rested 50 ms before the poller looked again, so
    every request on a new connection took ~50 ms. Now it waits on the poller at once and comes back
    when bytes come; what has come is taken off the socket, so a half-sent request does not keep the
    socket readable (which spun the main loop), and the parser still gets every byte in order."""
    served: list[Any] = []
    monkeypatch.setattr(gthread.ThreadWorker, "handle", lambda self, conn: served.append(next(conn.parser)))
    server, client = socket.socketpair()
    conn = gthread.TConn(worker.cfg, server, ("127.0.0.1", 1), ("127.0.0.1", 2))
    try:
        assert _step(worker, conn) is gthread._DEFER  # nothing has arrived yet
        assert worker.poller.get_key(server) and conn in worker.pending_conns  # on the poller now
        assert not _ready(worker, 0)

        client.sendall(b"GET /api/health?x=1 HTTP/1.1\r\nHost: x\r\n")
        assert _ready(worker, 5)  # the first bytes wake it
        worker.on_pending_socket_readable(conn, server)
        assert _step(worker, conn) is gthread._DEFER  # half a request: back to the poller ...
        assert not _ready(worker, 0)  # ... which does not see those bytes again
        assert conn.timeout >= worker._reading[conn]  # a pause past keep-alive gets the 408, not a cut

        client.sendall(b"Accept: application/json\r\n\r\n")
        assert _ready(worker, 5)
        worker.on_pending_socket_readable(conn, server)
        worker.handle(conn)
        assert [(r.method, r.path, r.query) for r in served] == [("GET", "/api/health", "x=1")]
        assert ("ACCEPT", "application/json") in served[0].headers
    finally:
        server.close()
        client.close()


def test_a_new_connection_whose_request_follows_at_once_is_answered_without_the_poller(worker, monkeypatch):
    """A client that connects and sends at once (curl, requests) was often handed to a thread before its
    bytes came, then back to the main loop, the poller and a thread again: two hand-offs the bare gthread
    app does not make (a new-connection request 1.2-1.4x the bare app's). The thread now waits up to
    FIRST_BYTES_S for a new connection's first bytes; one that sends nothing still goes to the poller."""
    served: list[Any] = []

    def handle(self: Any, conn: Any) -> None:
        conn.init()
        served.append(next(conn.parser))

    monkeypatch.setattr(gthread.ThreadWorker, "handle", handle)
    server, client = socket.socketpair()
    conn = gthread.TConn(worker.cfg, server, ("127.0.0.1", 1), ("127.0.0.1", 2))
    sender = threading.Timer(0.002, client.sendall, [b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"])
    try:
        sender.start()
        assert worker.handle(conn) is not gthread._DEFER
        assert [r.path for r in served] == ["/api/health"]
    finally:
        sender.join()
        server.close()
        client.close()
