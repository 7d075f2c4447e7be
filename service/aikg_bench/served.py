"""``aikg serve`` as the soak runs it: a copy of a default store, served the README's default way (HTTP
workers, the writer, query workers), and the resident memory of each of those processes read from /proc.

The soak writes into the store it serves, so it always serves a copy: the store given stays as it was
and every run starts from the same data.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from aikg_bench.busy import die_with_parent
from aikg_bench.peers import free_port

TOKEN = "soak-token"
QUERY_WORKER = "aikg.query.workers"
VIEWS = "aikg.serving.views"
"""What a query worker's command line holds (``python -m aikg.query.workers``)."""


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages: the machine is shared, so every figure carries them."""
    return [round(x, 2) for x in os.getloadavg()]


def pressure() -> dict[str, float]:
    """The share of the last 10 s in which some task waited for CPU or memory (Linux PSI, percent): a
    loaded machine (other jobs) tells itself apart from a slow server this way; empty without PSI."""
    out: dict[str, float] = {}
    for what in ("cpu", "memory"):
        try:
            line = Path(f"/proc/pressure/{what}").read_text().splitlines()[0]
        except (OSError, IndexError):
            continue
        fields = dict(f.split("=") for f in line.split()[1:])
        out[what] = float(fields.get("avg10", "nan"))
    return out


class Served:
    """One ``aikg serve`` on 127.0.0.1 over ``store``, with writes on (``TOKEN``); stopped by :meth:`stop`."""

    def __init__(
        self,
        store: Path,
        log_dir: Path,
        *,
        env: dict[str, str] | None = None,
        args: list[str] | None = None,
        ready_timeout: float = 180.0,
    ) -> None:
        self.store = store
        self._roles: dict[int, str] = {}
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        log_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = log_dir / "serve.log"
        self.access_path = log_dir / "access.log"
        full_env = {**os.environ, "AIKG_TOKEN": TOKEN, **(env or {})}
        cmd = [sys.executable, "-m", "aikg", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        cmd += ["--store", str(store), *(args or [])]
        # Logs go to files: a pipe nobody reads fills up and blocks the server.
        with open(self.log_path, "ab") as log, open(self.access_path, "ab") as access:
            # Ended by the kernel with the thread that started it, as the bench's other servers are
            # (aikg_bench.peers.start): stop_on_sigterm covers SIGTERM only, and only while it is on.
            self.proc = subprocess.Popen(
                cmd, env=full_env, stdout=access, stderr=log, preexec_fn=die_with_parent
            )
        self._wait_ready(ready_timeout)

    def log_tail(self, size: int = 3000) -> str:
        """The end of the server's log, for error messages."""
        return self.log_path.read_text(errors="replace")[-size:]

    def _wait_ready(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("aikg serve exited while starting: " + self.log_tail())
            try:
                health = requests.get(self.base + "/api/health", timeout=2)
                # Writes are on: measuring before the writer takes them measured its start (the soak's
                # writes all answered 503 "writes not ready" on a busy machine).
                if health.status_code == 200 and health.json().get("writes") != "starting":
                    return
            except (requests.RequestException, ValueError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"aikg serve did not answer within {timeout:.0f} s: " + self.log_tail())

    def wait_for_import(self, timeout: float = 600.0) -> float:
        """Wait until the store holds a recorded import (the first start imports the Epoch snapshot in the
        background); the seconds waited."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            try:
                r = requests.get(self.base + "/api/imports", timeout=10)
                if r.status_code == 200 and r.json().get("imports"):
                    return time.monotonic() - start
            except (requests.RequestException, ValueError):
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("aikg serve exited while importing: " + self.log_tail())
            time.sleep(1.0)
        raise RuntimeError(f"no import was recorded within {timeout:.0f} s")

    def processes(self) -> dict[int, str]:
        """Every serving process by pid, with its role: ``master``, ``http-worker``, ``arbiter`` (gunicorn's
        dirty arbiter), ``writer``, ``views`` and ``query-worker``.

        An HTTP worker's children run ``aikg.query.workers`` and ``aikg.serving.views``; the arbiter's
        child, the writer, is a fork of it. A query worker being started is a fork too until it runs its
        program, so a role once given to a process is kept: an HTTP worker starting a worker is not taken
        for the arbiter."""
        roles = {self.proc.pid: "master"}
        for child in _children(self.proc.pid):
            grandchildren = _children(child)
            role = self._roles.get(child)
            if role is None:
                forks = [g for g in grandchildren if not {QUERY_WORKER, VIEWS} & set(_cmdline(g).split())]
                role = "arbiter" if forks and len(forks) == len(grandchildren) else "http-worker"
                if grandchildren:  # a worker with no child yet could still be either
                    self._roles[child] = role
            roles[child] = role
            for g in grandchildren:
                kind = "views" if VIEWS in _cmdline(g) else "query-worker"
                roles[g] = "writer" if role == "arbiter" else kind
        return roles

    def stop(self) -> list[int]:
        """Stop the server (gracefully: the writer flushes the store); the pids of serving processes left
        behind, which are then killed (they are this server's, by pid)."""
        pids = set(self.processes()) if self.proc.poll() is None else set()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        time.sleep(0.5)
        left = sorted(p for p in pids if _alive(p))
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        return left


@contextlib.contextmanager
def stop_on_sigterm(served: Served) -> Iterator[None]:
    """For the block, stop ``served`` when this process gets SIGTERM, then end: a benchmark runner
    stopped by ``timeout`` or at a CI job's end left its ``aikg serve`` running (its clients' threads
    kept the interpreter alive past a ``finally``). The handler before the block is put back after it
    (``aikg bench`` runs the fair share and then other sizes: a SIGTERM then must not stop a server
    long gone and skip the bench's own ``finally``). From the main thread only, where Python runs
    handlers; elsewhere the block runs without one."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        served.stop()
        os._exit(128 + signum)

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        # None: a handler not installed from Python, which cannot be put back; the default is.
        signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        pass
    return out


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def rss_mb(pid: int) -> float | None:
    """A process's resident memory now (VmRSS), in MB; None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def prepare_store(source: Path, work: Path, log: Any = print, *, epoch: bool = True) -> Path:
    """A copy of the default store at ``source``, in ``work``; a missing ``source`` is first made the way
    a first start makes it (seeds, then, with ``epoch``, the Epoch snapshot imported in the background,
    waited for)."""
    if not (source.is_dir() and any(source.iterdir())):
        log(f"making the default store {source} (a first start{', importing Epoch' if epoch else ''})")
        env = {"AIKG_IMPORT_EPOCH": "true" if epoch else "false"}
        first = Served(source, work / "first-start", env=env)
        try:
            if epoch:
                log(f"  Epoch snapshot imported in {first.wait_for_import():.0f} s")
        finally:
            first.stop()
    copy = work / "store"
    if copy.exists():
        shutil.rmtree(copy)
    for sibling in (copy.with_name("store.serving"), copy.with_name("store.snapshots")):
        shutil.rmtree(sibling, ignore_errors=True)
    shutil.copytree(source, copy)
    return copy


@dataclass
class Sample:
    """Resident memory of every serving process at one moment."""

    t: float
    load: list[float]
    pressure: dict[str, float]
    rss: dict[int, tuple[str, float]]

    def by_role(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for role, mb in self.rss.values():
            out[role] = out.get(role, 0.0) + mb
        return out

    def total(self) -> float:
        return sum(mb for _, mb in self.rss.values())


@dataclass
class MemoryWatch:
    """Samples the serving processes' RSS every ``every`` seconds in a thread, from :meth:`start`."""

    served: Served
    every: float = 5.0
    samples: list[Sample] = field(default_factory=list)
    marks: dict[str, int] = field(default_factory=dict)
    """Sample indexes of named moments (``start``: after the warm-up)."""
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _t0: float = field(default_factory=time.monotonic)

    def sample(self) -> Sample:
        rss: dict[int, tuple[str, float]] = {}
        for pid, role in self.served.processes().items():
            mb = rss_mb(pid)
            if mb is not None:
                rss[pid] = (role, mb)
        s = Sample(round(time.monotonic() - self._t0, 1), load_average(), pressure(), rss)
        self.samples.append(s)
        return s

    def mark(self, name: str) -> None:
        """Take a sample now and remember it as ``name``."""
        self.sample()
        self.marks[name] = len(self.samples) - 1

    def start(self) -> None:
        def loop() -> None:
            while not self._stop.wait(self.every):
                self.sample()

        self._thread = threading.Thread(target=loop, name="soak-rss", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def report(self) -> dict[str, Any]:
        """Start (the ``start`` mark, else the first sample), peak, end and growth, for all serving
        processes together, per role, and per long-lived process; the timeline of totals."""
        if not self.samples:
            return {}
        first = self.marks.get("start", 0)
        measured = self.samples[first:]
        start, end = measured[0], measured[-1]

        def figures(values: list[float]) -> dict[str, float | None]:
            s, e = values[0], values[-1]
            return {
                "start_mb": round(s, 1),
                "peak_mb": round(max(values), 1),
                "end_mb": round(e, 1),
                "growth_pct": round(100 * (e - s) / s, 1) if s else None,
            }

        roles = sorted({r for smp in measured for r, _ in smp.rss.values()})
        per_process: dict[str, Any] = {}
        for pid, (role, _) in start.rss.items():
            if role == "query-worker":
                continue  # replaced when a query is stopped: their sum, by role, is what lasts
            values = [smp.rss[pid][1] for smp in measured if pid in smp.rss]
            if pid in end.rss:
                per_process[str(pid)] = {"role": role, **figures(values)}

        def lasting(smp: Sample) -> float:
            return sum(mb for role, mb in smp.rss.values() if role != "query-worker")

        return {
            "every_s": self.every,
            "samples": len(measured),
            "total": figures([smp.total() for smp in measured]),
            "lasting": figures([lasting(smp) for smp in measured]),
            "lasting_is": "every serving process but the query workers, which are replaced when a query is "
            "stopped (their number, so their sum, varies)",
            "by_role": {r: figures([smp.by_role().get(r, 0.0) for smp in measured]) for r in roles},
            "per_process": per_process,
            "processes": {"start": _count_roles(start), "end": _count_roles(end)},
            "timeline": [
                {
                    "t": smp.t,
                    "total_mb": round(smp.total(), 1),
                    "load": smp.load,
                    "pressure_pct": smp.pressure,
                    **_rounded(smp.by_role()),
                }
                for smp in self.samples
            ],
        }


def _count_roles(sample: Sample) -> dict[str, int]:
    out: dict[str, int] = {}
    for role, _ in sample.rss.values():
        out[role] = out.get(role, 0) + 1
    return out


def _rounded(d: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 1) for k, v in d.items()}
