"""Where heavy work runs: below cheap work but never starved, and on every core but one.

Heavy work is a query job that has used more than a few milliseconds of CPU (:mod:`aikg.query.workers`),
the graph views' process (:mod:`aikg.serving.views`) while it answers, and the compression of a large
body. It yields to cheap work and shares with everyone else (:class:`Share`): it runs at
:data:`YIELDING_NICENESS` while it has had :data:`SHARE` of a core since it became heavy, and at the
normal priority while it has not. At nice 10 a cheap request waking beside it takes the core at once
(a nice-0 thread weighs ~9x a nice-10 one); at the normal priority unrelated load on the host can take
no more than an equal share from it. The lowest priority (nice 19, a weight of 15 against 1,024) used
before starved it instead: with four busy processes of anyone else per core, a heavy query got ~0.4 %
of a core, and queries pyoxigraph answered in 0.25-2.2 s beside the same load answered 503 at 5 s.

Keeping heavy work off one core is for the machine under the service: on the 2-vCPU virtual machine
aikg is measured on, whenever both cores ran flat out — at any priority — the whole machine stopped for
~100 ms every few seconds (every process at once: the host's CPU limit, with a 100 ms period), and each
stop was a cheap lookup's 100 ms; with the heavy work on one core, none did (``python -m
aikg_bench.soak --fair``, docs/performance.md "Fair share"). With one core, there is nothing to keep
free.
"""

from __future__ import annotations

import contextlib
import os
import resource
import threading
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

LONG_NICENESS = 19
"""The lowest priority (a thread that the kernel should run only when nothing else wants the core)."""

YIELDING_NICENESS = 10
"""Heavy work's priority while it has had its share (:class:`Share`)."""

SHARE = 0.25
"""The share of one core heavy work is owed (CPU seconds per second since it became heavy): below it,
it runs at the normal priority. A quarter of a core: what a single-threaded query gets at the normal
priority beside three busy processes on its core; cheap work keeps the rest of that core and all of
the other."""

SHARE_LOOK = 0.05
"""Seconds between two looks at heavy work's CPU time (a look costs ~50 µs per thread)."""


def all_cores() -> set[int]:
    """The cores this process may run on."""
    return set(os.sched_getaffinity(0))


def heavy_cores() -> set[int]:
    """The cores heavy work may run on: all of this process's but the lowest-numbered one, which is
    left to cheap requests (all of them on a one-core machine)."""
    cores = all_cores()
    return cores - {min(cores)} if len(cores) > 1 else cores


def may_raise_to(niceness: int) -> bool:
    """Whether this process may raise a thread's priority back to ``niceness`` once lowered: root
    may, others only down to the bound RLIMIT_NICE sets (``20 - limit``; the default limit 0 allows
    nothing)."""
    if os.geteuid() == 0:
        return True
    soft, _ = resource.getrlimit(resource.RLIMIT_NICE)
    return soft == resource.RLIM_INFINITY or niceness >= 20 - soft


def place(pid: int, niceness: int, cores: set[int]) -> bool:
    """Set the priority and the cores of every thread of process ``pid`` (Linux keeps both per
    thread); whether the kernel allowed it (raising a priority again needs CAP_SYS_NICE)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False  # the process has ended
    return place_tasks((int(t) for t in tasks), niceness, cores)


def place_tasks(tasks: Iterable[int], niceness: int, cores: set[int]) -> bool:
    """Set the priority and the cores of each of ``tasks`` (thread ids); whether the kernel allowed it."""
    for task in tasks:
        try:
            os.setpriority(os.PRIO_PROCESS, task, niceness)
            os.sched_setaffinity(task, cores)
        except ProcessLookupError:
            continue  # a thread that ended while the list was read
        except OSError:
            return False
    return True


def process_tasks(pid: int) -> list[int]:
    """The thread ids of process ``pid`` (none once it has ended)."""
    try:
        return [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def cpu_seconds(tasks: Iterable[int], pid: int | None = None) -> float:
    """CPU seconds ``tasks`` (threads of process ``pid``, default this one) have run: the kernel's
    scheduler statistics, in nanoseconds, read without waking the process."""
    owner = os.getpid() if pid is None else pid
    total = 0
    for task in tasks:
        with (
            contextlib.suppress(OSError, ValueError, IndexError),
            open(f"/proc/{owner}/task/{task}/schedstat", "rb") as f,
        ):
            total += int(f.read().split()[0])
    return total / 1e9


_CPUCLOCK_SCHED = 2
"""The kernel's per-process CPU clock of another process: ``(~pid << 3) | 2`` is what glibc's
``clock_getcpuclockid`` returns (Linux's MAKE_PROCESS_CPUCLOCK with CPUCLOCK_SCHED)."""


def process_cpu_seconds(pid: int) -> float:
    """CPU seconds process ``pid`` has run, all its threads (ended ones too; 0.0 once it has ended): one
    system call, where :func:`cpu_seconds` over its threads lists ``/proc`` and reads a file per thread
    (~80 µs, paid by every query job as it was sent: a tenth of what a sub-millisecond named query's
    answer costs beside the engine)."""
    try:
        return time.clock_gettime_ns((~pid << 3) | _CPUCLOCK_SCHED) / 1e9
    except OSError:
        return 0.0


class Share:
    """Heavy work placed on the heavy cores, yielding to cheap work without being starved.

    It runs at :data:`YIELDING_NICENESS` while it has had at least :data:`SHARE` of a core since it
    became heavy (its CPU time against the time since), at ``normal`` while it has not: what cheap work
    of the service takes from it is bounded by its share, and unrelated load on the host competes with
    it as equals. :meth:`look` every :data:`SHARE_LOOK` seconds keeps it there.

    Lowering a priority is always allowed, raising it back only with CAP_SYS_NICE or RLIMIT_NICE
    (:func:`may_raise_to`): without that right heavy work stays at ``normal`` on the heavy cores.
    """

    def __init__(self, tasks: Callable[[], list[int]], normal: int, *, pid: int | None = None) -> None:
        self.tasks = tasks
        """The thread ids of the work (a process's threads, or one thread)."""
        self.pid = pid
        """The process they belong to (None: this one)."""
        self.normal = normal
        self.yielding = max(normal, YIELDING_NICENESS) if may_raise_to(normal) else normal
        self.began = time.monotonic()
        self.had = cpu_seconds(tasks(), pid)
        self.niceness: int | None = None
        """Where it was last placed (None: not yet)."""

    def behind(self) -> bool:
        """Whether the work has had less than its share since it became heavy."""
        owed = SHARE * (time.monotonic() - self.began)
        return cpu_seconds(self.tasks(), self.pid) - self.had < owed

    def look(self) -> bool:
        """Place the work where its share says (at once on the first look); whether the kernel
        allowed it."""
        niceness = self.normal if self.niceness is not None and self.behind() else self.yielding
        if niceness == self.niceness:
            return True
        if not place_tasks(self.tasks(), niceness, heavy_cores()):
            return False
        self.niceness = niceness
        return True


def run_below(fn: Callable[[], T], niceness: int | None = None, cores: set[int] | None = None) -> T:
    """``fn()``, run on a thread of its own on ``cores`` (default the heavy ones), and waited for: at
    ``niceness``, or by default as heavy work sharing the cores (:class:`Share`). For work that releases
    the GIL (zlib on a large body): a thread that holds the GIL at a low priority would stall its
    whole process. Linux keeps a priority per thread, so the thread ends with ``fn``."""
    out: list[T] = []
    failed: list[BaseException] = []
    native: list[int] = []
    started, placed = threading.Event(), threading.Event()

    def run() -> None:
        native.append(threading.get_native_id())
        started.set()
        try:
            if niceness is not None:
                os.setpriority(os.PRIO_PROCESS, native[0], niceness)
            os.sched_setaffinity(native[0], heavy_cores() if cores is None else cores)
        except OSError:
            pass  # placement is a courtesy to cheap work; fn runs regardless
        placed.wait()
        try:
            out.append(fn())
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(exc)

    thread = threading.Thread(target=run, name="aikg-heavy", daemon=True)
    thread.start()
    share: Share | None = None
    started.wait()
    if niceness is None:
        share = Share(lambda: native, os.getpriority(os.PRIO_PROCESS, 0))
        share.look()
    placed.set()
    while thread.is_alive():
        thread.join(SHARE_LOOK)
        if share is not None and thread.is_alive():
            share.look()
    if failed:
        raise failed[0]
    return out[0]
