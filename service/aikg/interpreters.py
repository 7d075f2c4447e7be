"""Fresh interpreters talking over one socket: how aikg starts a process that must inherit nothing.

Query workers (:mod:`aikg.query.workers`) and views processes (:mod:`aikg.serving.views`) are never
forked from the multi-threaded server: each is ``python -m MODULE FD ...``, given only its end of a
socket pair — no client socket, lock or half-written store state.
"""

from __future__ import annotations

import contextlib
import multiprocessing.connection
import socket
import subprocess
import sys
import threading

from aikg.placement import all_cores, place, run_below


def start(
    module: str, *args: str, niceness: int | None = None, cores: set[int] | None = None
) -> tuple[subprocess.Popen[bytes], multiprocessing.connection.Connection]:
    """Start ``python -m module FD *args``; the process and our end of its socket.

    With ``niceness`` and ``cores``, the process runs there from its first instruction: it is started
    from a thread placed there (:func:`aikg.placement.run_below`; a child inherits the priority and the
    cores of the thread that forks it), and placed again once it exists (:func:`aikg.placement.place`).
    An interpreter's start is ~0.25 s of CPU, and a query worker replacing a killed one every few
    seconds under hostile load ran it at the server's own priority on every core, beside the cheap
    requests; placed only after it had started, its first milliseconds still did.
    """
    ours, theirs = socket.socketpair()

    def spawn() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", module, str(theirs.fileno()), *args],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            close_fds=True,
        )

    try:
        if niceness is None:
            process = spawn()
        else:
            where = cores if cores is not None else all_cores()
            process = run_below(spawn, niceness, where)
            place(process.pid, niceness, where)
    finally:
        theirs.close()
    return process, multiprocessing.connection.Connection(ours.detach())


def stop(process: subprocess.Popen[bytes], conn: multiprocessing.connection.Connection) -> None:
    """Kill the process and close its socket; it is reaped on a thread of its own, not waited for.

    A killed process on a busy machine may take seconds to be scheduled and exit (a large query's
    memory to tear down), and even a short wait for it here is paid by the request that stopped it:
    waiting up to 0.2 s (a poll loop that must win the GIL back each turn) made runaway queries answer
    up to 1 s past their deadline under the hostile suite's load.
    """
    with contextlib.suppress(Exception):
        process.kill()
    with contextlib.suppress(Exception):
        conn.close()

    def reap() -> None:
        with contextlib.suppress(Exception):
            process.wait(60)

    threading.Thread(target=reap, name="aikg-reaper", daemon=True).start()
