"""Every HTTP worker's response cache warmed before a load run, each worker seen to answer each variant.

aikg answers from several HTTP worker processes, each with its own response cache, and each listening on
a socket of its own (``reuse_port``): the kernel hands a new connection to one of them by a hash of its
ports. A warm-up that sends each variant a fixed number of times reaches every worker only by chance, and
one that ran out of time reached some variants in one worker only: at 1M, changes-since-last-import (16
variants, 0.67 s each to compute) was warmed in one of the two, and under wrk half its requests missed the
cache (8 req/s, p99 502 ms, 2 answers refused while the misses held the heavy-query slots).

Here the worker that answered is read from Linux's ``/proc``: the server end of the client's connection
(``/proc/net/tcp``, by the client's port) is a socket one of the server's processes holds open
(``/proc/PID/fd``); the workers are the processes of the server's tree that listen on its port. A variant
is warmed once every worker has answered it with a 200.
"""

from __future__ import annotations

import http.client
import os
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

LISTEN, ESTABLISHED = "0A", "01"
"""``/proc/net/tcp`` states."""


def _tree(root: int) -> list[int]:
    """``root`` and every process descended from it."""
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def _sockets(pid: int) -> set[int]:
    """The inodes of the sockets ``pid`` holds open."""
    out: set[int] = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return out
    for fd in fds:
        try:
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if link.startswith("socket:["):
            out.add(int(link[8:-1]))
    return out


def _tcp(port: int) -> list[tuple[str, int, int]]:
    """Sockets whose local port is ``port``: (state, remote port, inode)."""
    out: list[tuple[str, int, int]] = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if int(f[1].rsplit(":", 1)[1], 16) == port:
                out.append((f[3], int(f[2].rsplit(":", 1)[1], 16), int(f[9])))
    return out


@dataclass
class Workers:
    """The HTTP workers of the server whose first process is ``root``, listening on ``port``."""

    root: int
    port: int

    def listening(self) -> set[int]:
        """The processes of the server's tree (its first process aside) that listen on its port."""
        inodes = {inode for state, _, inode in _tcp(self.port) if state == LISTEN}
        return {pid for pid in _tree(self.root)[1:] if _sockets(pid) & inodes}

    def answering(self, client_port: int) -> int | None:
        """The process holding the server end of the connection from ``client_port`` (None: not found,
        such as a connection the server has closed)."""
        inodes = {i for state, rport, i in _tcp(self.port) if state == ESTABLISHED and rport == client_port}
        if not inodes:
            return None
        return next((pid for pid in _tree(self.root) if _sockets(pid) & inodes), None)


def ask(
    base: str, path: str, workers: Workers, headers: dict[str, str] | None = None
) -> tuple[int, int | None]:
    """One GET on a new connection: its status, and the worker that answered it, read while the
    connection is still open (None when it was not found)."""
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port, timeout=300)
    try:
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        resp.read()
        assert conn.sock is not None
        return resp.status, workers.answering(conn.sock.getsockname()[1])
    finally:
        conn.close()


def warm(
    base: str,
    paths: list[str],
    workers: Workers,
    *,
    headers: dict[str, str] | None = None,
    budget_s: float = 60.0,
    tries: int = 16,
) -> tuple[int, dict[str, int]]:
    """Ask each of ``paths`` in turn until every worker has answered it with a 200 (at most ``tries``
    times each worker): how many of the paths, from the first, were warmed in every worker, and the
    requests sent by what they were answered with ("200", "429", "unseen" …). It stops at the first path
    not warmed within the tries or ``budget_s``: the load run then leaves that one and the rest out."""
    every = workers.listening()
    sent: dict[str, int] = {}
    end = time.monotonic() + budget_s
    if not every:
        return 0, {"no workers found": 1}
    for i, path in enumerate(paths):
        seen: set[int] = set()
        for _ in range(tries * len(every)):
            if seen >= every or time.monotonic() > end:
                break
            status, who = ask(base, path, workers, headers)
            who = who if status == 200 else None
            key = str(status) if status != 200 or who is not None else "unseen"
            sent[key] = sent.get(key, 0) + 1
            if who is not None:
                seen.add(who)
            elif status == 429:
                time.sleep(0.5)  # the heavy-query slots are held: a retry now is refused again
        if not seen >= every:
            return i, sent
    return len(paths), sent
