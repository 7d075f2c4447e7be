"""Graph views (neighbourhoods, the whole-graph view, exports) answered by a process of their own.

A hub's deep neighbourhood or export is up to seconds of Python: walking, drawing, writing. Run on an
HTTP worker's thread it held that process's GIL, so the cheap requests beside it (a cached lookup, the
thread handing an ``ASK`` to its query worker) waited for it, and at the serving process's CPU priority
it took the cores from the query workers. Lowering the priority of such a thread made it worse: a
low-priority thread that holds the GIL stalls every other thread of its process.

So an HTTP worker of ``aikg serve`` hands these requests to its views process: a fresh interpreter (never
a fork of the multi-threaded server) running the same app over the same published snapshots as heavy
work (:mod:`aikg.placement`: every core but one, below cheap work while it has had its share of a core,
never starved), with the whole graph's facts kept there (:mod:`aikg.export.kept`). The HTTP worker
checks the parameters first (a bad one is answered there), sends the request's path, query string and
the headers a view reads, and relays the answer (the response cache keeps it there, as before).

The process answers requests on threads of its own, each within the service's time limit, in two
lanes: a neighbourhood of depth 0 or 1 (what the explorer asks as a user clicks) by the cheap lane,
everything else by the heavy lane. A cheap request never waits for a heavy one's thread, and while one
runs the heavy ones pause at their next check of the time limit (:func:`aikg.export.budget.pause_with`,
about every millisecond of their work), so it has the interpreter to itself: with four clients loading
a hub's deep neighbourhoods, a depth-1 neighbourhood shared the GIL with four busy threads. A process
that does not answer within :data:`GRACE` seconds past the limit is killed and started again, and its
requests end in 503.

The limit is the request's own, counted from its arrival in the HTTP worker: the job carries that
deadline (``time.monotonic``, one clock for every process of the machine), the view in the views process
stops at it, and the HTTP worker waits for the answer until it plus the grace, whatever the request did
before (waited for the same view's answer in the response cache, for a views process to start, or was
asked again after its process was killed). Each of those waits used to begin a fresh limit: under four
clients loading NVIDIA's GraphML exports, two clients asking the same export waited 5 s for one answer
(a 503) and then ran the view afresh, answered 8.5-22 s after the request.

The cheap lane runs in a second views process of the HTTP worker, at the serving priority: killing the
heavy views' process for an overrun no longer takes the cheap views in it along (they were asked again
of a new process, which had to start and read the graph first: 13-15 s).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import logging
import multiprocessing.connection
import os
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from flask import Request, Response
from werkzeug.test import EnvironBuilder

from aikg import interpreters
from aikg.errors import QueryTimeout, StoreError
from aikg.export import budget
from aikg.placement import SHARE_LOOK, Share, heavy_cores, process_tasks
from aikg.serving.arenas import give_back
from aikg.store.base import Deadline, current_deadline
from aikg.web import VIEWS_DEADLINE
from aikg.web.errors import error_body

log = logging.getLogger(__name__)

GRACE = 2.0
"""Seconds past the time limit an answer may take before the process is taken for stuck."""

THREADS = 4
"""Heavy requests a views process answers at once (they share its GIL)."""

CHEAP_THREADS = 2
"""Cheap requests it answers at once, on threads of their own (see the module docstring)."""

PAUSE_MOST = 1.0
"""Seconds a heavy request pauses for cheap ones at most, at one check (then it goes on beside them)."""

FORWARDED_HEADERS = ("Accept", "Accept-Language", "Accept-Encoding")
"""The request headers a view reads (content negotiation); the rest stay with the HTTP worker. With
Accept-Encoding the views process compresses the answer (its own response cache does), and the HTTP
worker relays and keeps it compressed: a hub's 5-6 MB neighbourhood no longer crosses into the HTTP
worker, where copying it held up the cheap requests on their core."""

DROPPED_HEADERS = frozenset({"content-length", "etag", "cache-control", "vary"})
"""Answer headers the HTTP worker sets itself (its response cache tags them); Content-Encoding stays."""

READY = "ready"


class _Starting(Exception):
    """The views process had not started when the request's time ran out (it goes on starting)."""


class ViewsProcess:
    """One HTTP worker's views process: started in the background, restarted when it ends."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._lock = threading.Lock()
        self._child: _Child | None = None
        self._cheap_child: _Child | None = None
        """The cheap lane's own process (see :meth:`forward`)."""
        self._closed = False
        self._requests = 0
        """Requests being answered by the process now."""

    def start(self, after: float = 0.0) -> None:
        """Start the process in the background, ``after`` seconds from now (a view asked before starts
        it at once), so the first view does not wait for it."""
        timer = threading.Timer(after, self._start_quietly)
        timer.name, timer.daemon = "aikg-views-start", True
        timer.start()

    def _start_quietly(self) -> None:
        with contextlib.suppress(StoreError):  # closed meanwhile
            self._current()
            self._current(cheap=True)

    def _current(self, cheap: bool = False) -> _Child:
        with self._lock:
            if self._closed:
                raise StoreError("the service is stopping")
            child = self._cheap_child if cheap else self._child
            if child is None or not child.alive():
                if child is not None:
                    child.close()
                child = _Child()
                if cheap:
                    self._cheap_child = child
                else:
                    self._child = child
            return child

    def forward(self, request: Request, *, query_string: str | None = None, cheap: bool = False) -> Response:
        """The views process's answer to ``request`` (a GET of a graph view or an export; a POSTed
        export's form comes as ``query_string``, as the process answers GETs); a ``cheap`` one by the
        cheap lane.

        A view is only read, so one the process ended without answering (killed, or found dead as it
        was sent) is asked once more of a new process.

        The cheap lane has a process of its own, beside the heavy views' one: a heavy view past its
        limit and grace gets its process killed, and the cheap views in it were asked again of a new
        process, which had to start and read the graph's facts first (13-15 s under four clients
        loading a hub's deep neighbourhoods, most of them past the limit).

        Every wait keeps the request's deadline (see the module docstring): one already past is
        answered 503 here, and the answer is waited for until the deadline plus :data:`GRACE`."""
        headers = [(h, request.headers[h]) for h in FORWARDED_HEADERS if h in request.headers]
        deadline = current_deadline() or Deadline.after(self.timeout)
        for attempt in range(2):
            if deadline.expired():
                raise self._late()
            child = self._current(cheap)
            try:
                with self._answering(child) if not cheap else contextlib.nullcontext():
                    status, answer_headers, body = child.ask(
                        request.environ.get("PATH_INFO", ""),
                        request.environ.get("QUERY_STRING", "") if query_string is None else query_string,
                        headers,
                        deadline,
                        cheap=cheap,
                    )
            except TimeoutError:
                self._replace(child)  # no answer by the deadline plus the grace: the process is stuck
                raise self._late() from None
            except _Starting:
                raise self._late() from None
            except EOFError:
                self._replace(child)
                if attempt:
                    raise StoreError("the views process ended without an answer") from None
                continue
            kept = [(name, value) for name, value in answer_headers if name.lower() not in DROPPED_HEADERS]
            return Response(body, status=status, headers=kept)
        raise AssertionError("unreachable")

    def _late(self) -> QueryTimeout:
        return QueryTimeout(
            f"the view ran past the time limit of {self.timeout:g} s (setting query_timeout) "
            "and was stopped; ask for a smaller depth, a lower limit or some types (type=...)",
            errors=[{"limit": "query_timeout", "seconds": self.timeout}],
        )

    @contextlib.contextmanager
    def _answering(self, child: _Child) -> Iterator[None]:
        """Count a request the process answers; while it answers any, it is kept at its share
        (:class:`aikg.placement.Share`) by a thread that ends with the last one."""
        with self._lock:
            self._requests += 1
            first = self._requests == 1
        if first:
            threading.Thread(
                target=self._keep_share, args=(child,), name="aikg-views-share", daemon=True
            ).start()
        try:
            yield
        finally:
            with self._lock:
                self._requests -= 1

    def _keep_share(self, child: _Child) -> None:
        pid = child.process.pid
        share = Share(functools.partial(process_tasks, pid), os.getpriority(os.PRIO_PROCESS, 0), pid=pid)
        while child.alive():
            share.look()
            time.sleep(SHARE_LOOK)
            with self._lock:
                if not self._requests:
                    return

    def _replace(self, child: _Child) -> None:
        with self._lock:
            if self._child is child:
                self._child = None
            if self._cheap_child is child:
                self._cheap_child = None
        child.close()

    def pid(self) -> int | None:
        """The process id of the running views process (None before it starts)."""
        with self._lock:
            return self._child.process.pid if self._child is not None and self._child.alive() else None

    def close(self) -> None:
        """Stop the process; later requests get 503."""
        with self._lock:
            self._closed = True
            children = (self._child, self._cheap_child)
            self._child = self._cheap_child = None
        for child in children:
            if child is not None:
                child.close()


class _Child:
    """The process and the socket to it; answers come back by request number, in any order."""

    STARTUP = 60.0
    """Seconds the process may take to start (its imports and the app: about a second, more on a busy
    machine)."""

    def __init__(self) -> None:
        # Its start (imports, the app) is work nobody waits for but the first views: at the serving
        # process's priority (at the lowest, busy hosts took ~12 s) on the heavy cores.
        self.process, self.conn = interpreters.start(
            "aikg.serving.views", niceness=os.getpriority(os.PRIO_PROCESS, 0), cores=heavy_cores()
        )
        self._send = threading.Lock()
        self._waiting: dict[int, Future[tuple[int, list[tuple[str, str]], bytes]]] = {}
        self._numbers = itertools.count()
        self._ready = threading.Event()
        self._started = time.monotonic()
        self._ended = False
        threading.Thread(target=self._read, name="aikg-views-answers", daemon=True).start()

    def alive(self) -> bool:
        return not self._ended and self.process.poll() is None

    def ask(
        self,
        path: str,
        query_string: str,
        headers: list[tuple[str, str]],
        deadline: Deadline,
        *,
        cheap: bool = False,
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        """Send one request (its path and query string as WSGI gives them, by the cheap lane or not,
        with its ``deadline``); its answer by the deadline plus :data:`GRACE` (else
        :class:`TimeoutError`), or :class:`EOFError` if the process ends first (or never starts:
        :data:`STARTUP`). :class:`_Starting` if it is still starting at the deadline."""
        starting = self._started + self.STARTUP - time.monotonic()
        if not self._ready.wait(max(0.0, min(deadline.left(), starting))):
            if starting <= deadline.left():
                raise EOFError
            raise _Starting
        if self._ended:
            raise EOFError
        number = next(self._numbers)
        future: Future[tuple[int, list[tuple[str, str]], bytes]] = Future()
        with self._send:
            self._waiting[number] = future
            try:
                self.conn.send((number, path, query_string, headers, cheap, deadline.at))
            except (OSError, ValueError):
                self._waiting.pop(number, None)
                raise EOFError from None
        try:
            return future.result(max(0.0, deadline.left() + GRACE))
        except TimeoutError:
            with self._send:
                self._waiting.pop(number, None)
            raise

    def _read(self) -> None:
        try:
            if self.conn.recv() != READY:
                return
            self._ready.set()
            while True:
                number, status, headers, body = self.conn.recv()
                with self._send:
                    future = self._waiting.pop(number, None)
                if future is not None:
                    future.set_result((status, headers, body))
        except (EOFError, OSError, ValueError):
            pass
        finally:
            self._ended = True
            self._ready.set()
            with self._send:
                waiting, self._waiting = self._waiting, {}
            for future in waiting.values():
                future.set_exception(EOFError())

    def close(self) -> None:
        interpreters.stop(self.process, self.conn)


# -- the views process --------------------------------------------------------------------------------


class _Running:
    """The views process's requests in progress. When the last one ends, the heap's free pages go back
    to the system (:func:`aikg.serving.arenas.give_back`), as the HTTP workers' do: a hub's views take
    tens of megabytes for a moment, and without it the two views processes grew from 277 to 332 MB
    (+20 %) in the 10-minute soak, step by step."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0

    def start(self) -> None:
        with self._lock:
            self._count += 1

    def end(self) -> None:
        with self._lock:
            self._count -= 1
            if self._count == 0:
                give_back()


class _Lanes:
    """The cheap lane's requests in progress: heavy requests pause at their checks while any runs."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._cheap = 0
        self._mine = threading.local()

    @contextlib.contextmanager
    def cheap(self) -> Iterator[None]:
        """Run a cheap request: the heavy ones wait at their next check until it ends."""
        self._mine.cheap = True
        with self._cond:
            self._cheap += 1
        try:
            yield
        finally:
            with self._cond:
                self._cheap -= 1
                if not self._cheap:
                    self._cond.notify_all()

    def pause(self) -> None:
        """What a heavy request does at each check: wait while a cheap one runs (at most
        :data:`PAUSE_MOST`); nothing on a cheap request's own thread."""
        if not self._cheap or getattr(self._mine, "cheap", False):
            return
        with self._cond:
            self._cond.wait_for(lambda: not self._cheap, timeout=PAUSE_MOST)


def _answer(
    app: Any, conn: multiprocessing.connection.Connection, send: threading.Lock, job: Any, lanes: _Lanes
) -> None:
    number, path, query_string, headers, cheap, deadline = job
    try:
        environ = EnvironBuilder(method="GET", headers=headers).get_environ()
        environ["PATH_INFO"], environ["QUERY_STRING"] = path, query_string  # as the HTTP worker got them
        environ[VIEWS_DEADLINE] = deadline  # the request's, from its arrival in the HTTP worker
        with app.request_context(environ), lanes.cheap() if cheap else contextlib.nullcontext():
            response = app.full_dispatch_request()
            body = response.get_data()
            answer = (number, response.status_code, list(response.headers.items()), body)
    except Exception:  # noqa: BLE001 - the app's handlers answer its errors; this is a failure of ours
        log.exception("a view failed in the views process")
        body = error_body(500, "internal error", "the graph view failed in the views process")
        answer = (number, 500, [("Content-Type", "application/json")], json.dumps(body).encode())
    with send, contextlib.suppress(OSError, ValueError):
        conn.send(answer)


def main(argv: list[str]) -> None:  # pragma: no cover - runs in the views process
    """The views process: ``python -m aikg.serving.views FD``, with the settings in the environment."""
    conn = multiprocessing.connection.Connection(int(argv[0]))
    # Its priority and cores were set as it started (interpreters.start); threads inherit both.
    from aikg.serving.app import reader_app
    from aikg.serving.worker import tune_interpreter
    from aikg.settings import load_settings

    tune_interpreter()
    app = reader_app(load_settings(), views=False)
    send = threading.Lock()
    running = _Running()
    lanes = _Lanes()
    budget.pause_with(lanes.pause)
    conn.send(READY)
    with (
        ThreadPoolExecutor(THREADS, thread_name_prefix="aikg-view") as heavy,
        ThreadPoolExecutor(CHEAP_THREADS, thread_name_prefix="aikg-view-cheap") as cheap,
    ):
        while True:
            try:
                job = conn.recv()
            except (EOFError, OSError):
                os._exit(0)  # the HTTP worker is gone: nothing waits for the requests still running
            running.start()
            lane = cheap if job[4] else heavy
            lane.submit(_answer, app, conn, send, job, lanes).add_done_callback(lambda _: running.end())


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
