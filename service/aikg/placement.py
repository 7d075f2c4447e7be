"""Where heavy work runs: at the lowest CPU priority, and on every core but one.

Heavy work is a query job that has used more than a few milliseconds of CPU (:mod:`aikg.query.workers`)
and the graph views' process (:mod:`aikg.serving.views`). The lowest priority lets a cheap request take
a core from it at once. Keeping it off one core is for the machine under the service: on the 2-vCPU
virtual machine aikg is measured on, whenever both cores ran flat out — at any priority — the whole
machine stopped for ~100 ms every few seconds (every process at once: the host's CPU limit, with a
100 ms period), and each stop was a cheap lookup's 100 ms; with the heavy work on one core, none did
(``python -m aikg_bench.soak --fair``, README "Fair share"). With one core, there is nothing to keep free.
"""

from __future__ import annotations

import os
import resource
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

LONG_NICENESS = 19
"""The priority of heavy work: the lowest."""


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
    for task in tasks:
        try:
            os.setpriority(os.PRIO_PROCESS, int(task), niceness)
            os.sched_setaffinity(int(task), cores)
        except ProcessLookupError:
            continue  # a thread that ended while the list was read
        except OSError:
            return False
    return True


def run_below(fn: Callable[[], T], niceness: int = LONG_NICENESS, cores: set[int] | None = None) -> T:
    """``fn()``, run on a thread of its own at ``niceness`` (on ``cores``, default the heavy ones), and
    waited for. Linux keeps a priority per thread and never raises one again without privileges, so
    the thread ends with ``fn``. For work that releases the GIL (zlib on a large body): a thread that
    holds the GIL at the lowest priority would stall its whole process."""
    out: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            native = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, native, niceness)
            os.sched_setaffinity(native, heavy_cores() if cores is None else cores)
        except OSError:
            pass  # placement is a courtesy to cheap work; fn runs regardless
        try:
            out.append(fn())
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(exc)

    thread = threading.Thread(target=run, name="aikg-heavy", daemon=True)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return out[0]
