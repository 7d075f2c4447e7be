"""pyoxigraph in process, the row tax's floor, run in a child process bounded in time and memory.

pyoxigraph has no query time limit, and at 10M quads one named query (unconfirmed-claims) grew past
24 GB before its first row: run in the benchmark's own process, it had the run killed by the kernel
(2026-12-05, 10M, after 373 s of load). In a child the query is still pyoxigraph in process — the
child times it around the call and the reading of every row, as before — but a query past the time or
memory bound is stopped and reported as that query's result, and the next one gets a fresh child.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

import pyoxigraph as ox

from aikg.namespaces import BASE
from aikg.rdf.results import StoredTerm as Term
from aikg_bench.served import rss_mb


class Bounded(RuntimeError):
    """The baseline query ran past its time or memory bound, or its process ended without an answer."""


def available_mb() -> int:
    """The machine's available memory (MemAvailable), in MB."""
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    return 0


def _serve(path: str, conn: Connection) -> None:
    """The child: open the store read-only, then answer (text, substitutions, union) with (rows, seconds)."""
    engine = ox.Store.read_only(path)
    conn.send("ready")
    while True:
        try:
            text, subs, union = conn.recv()
        except EOFError:
            return
        start = time.perf_counter()
        try:
            found = engine.query(text, substitutions=subs, use_default_graph_as_union=union, base_iri=BASE)
            # Every solution read, as a caller of pyoxigraph would; an ASK answers with a boolean.
            rows = int(bool(found)) if isinstance(found, ox.QueryBoolean) else len(list(found))
        except (SyntaxError, ValueError, RuntimeError, OSError) as exc:  # the engine refused or failed
            conn.send((None, f"{type(exc).__name__}: {exc}"))
            continue
        conn.send((rows, time.perf_counter() - start))


class Baseline:
    """pyoxigraph read-only over ``path`` in a child process; :meth:`run` times one query there."""

    def __init__(self, path: str, seconds: float = 120.0, memory_mb: int | None = None) -> None:
        self.path = path
        self.seconds = seconds
        self.memory_mb = memory_mb if memory_mb is not None else max(1024, available_mb() // 2)
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None

    def _start(self) -> tuple[BaseProcess, Connection]:
        if self._process is None or self._conn is None or not self._process.is_alive():
            mine, theirs = self._context.Pipe()
            process = self._context.Process(target=_serve, args=(self.path, theirs), daemon=True)
            process.start()
            theirs.close()
            try:
                ready = mine.poll(300) and mine.recv() == "ready"
            except EOFError:  # the child ended: the store could not be opened
                ready = False
            if not ready:
                process.kill()
                raise Bounded(f"the store at {self.path} did not open")
            self._process, self._conn = process, mine
        return self._process, self._conn

    def run(self, text: str, subs: Mapping[ox.Variable, Term], union: bool) -> tuple[int, float]:
        """Rows and seconds of ``text`` in pyoxigraph; :class:`Bounded` past the bounds."""
        process, conn = self._start()
        conn.send((text, dict(subs), union))
        end = time.monotonic() + self.seconds
        while not conn.poll(0.2):
            if not process.is_alive():
                self.close()
                raise Bounded("its process ended without an answer")
            used = rss_mb(process.pid or 0) or 0.0
            if used > self.memory_mb:
                self.close()
                raise Bounded(f"past {self.memory_mb} MB of memory ({used:.0f} MB), stopped")
            if time.monotonic() > end:
                self.close()
                raise Bounded(f"past {self.seconds:.0f} s, stopped")
        rows, answer = conn.recv()
        if rows is None:
            raise RuntimeError(answer)
        return int(rows), float(answer)

    def ask(self, text: str) -> bool:
        """A boolean query's answer (the session asks whether the store keeps a merged default graph)."""
        rows, _ = self.run(text, {}, False)
        return bool(rows)

    def close(self) -> None:
        """Stop the child (a query in it is abandoned); the next :meth:`run` starts another."""
        if self._process is not None:
            self._process.kill()
            self._process.join(10)
        if self._conn is not None:
            self._conn.close()
        self._process, self._conn = None, None

    def __enter__(self) -> Baseline:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
