"""Other work beside the service: busy loops at the normal priority, in the measuring process's session.

A shared host is never quiet, and what a user of a busy host feels is how the service shares the cores
with work that is not its own. ``aikg bench --busy N`` starts N busy loops per core (``python -c
'while True: pass'``, at the bench's own priority) before it measures and stops them after; the servers
it starts, aikg's query workers and the pyoxigraph baseline all run beside them.

The loops stay in the bench's own session, as the service's: as other processes in one container or
cgroup do. In a session of their own, Linux's autogroups (``/proc/sys/kernel/sched_autogroup_enabled``)
would give them one session's share of the cores however many they are, and shield the service from
them.

    python -m aikg_bench.busy [--per-core 4] -- COMMAND ...

runs COMMAND beside the loops (in the same session) and stops them when it ends.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

PER_CORE = 4
"""Busy loops per core by default: four processes of other work for every core."""


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0))


def load_average() -> tuple[float, float, float]:
    """The 1, 5 and 15 minute load averages."""
    one, five, fifteen = Path("/proc/loadavg").read_text().split()[:3]
    return float(one), float(five), float(fifteen)


LOOP = (
    "import ctypes, os, signal, sys\n"
    "prctl = getattr(ctypes.CDLL(None), 'prctl', None)\n"
    "if prctl is not None:\n"
    "    prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG: killed when the bench's thread ends\n"
    "if os.getppid() != int(sys.argv[1]):\n"
    "    sys.exit()  # the bench ended before the line above: no signal will come\n"
    "while True: pass\n"
)
"""A busy loop that dies with the bench however the bench ends: its ``finally`` stops the loops, but
SIGTERM's default action (``timeout``, a CI job's end) or SIGKILL skips it, and loops left behind kept
both cores busy for every later run on the machine. The kernel's parent-death signal (Linux's prctl; a
loop elsewhere has only the ``finally``) is sent when the thread that started the loop ends."""


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Ask the kernel to send ``sig`` to this process when the thread that started it ends (Linux's
    prctl PR_SET_PDEATHSIG; elsewhere nothing): work started beside a measurement must not outlive it
    when the measurement is ended by a signal whose default action skips every ``finally``."""
    prctl = getattr(ctypes.CDLL(None), "prctl", None)
    if prctl is not None:
        prctl(1, int(sig))


@contextlib.contextmanager
def busy_loops(per_core: int = PER_CORE) -> Iterator[list[int]]:
    """``per_core`` busy loops per core for the block (none for 0); their process ids. Start them from
    the main thread: the loops die when the thread that started them ends (see :data:`LOOP`)."""
    loops = [
        subprocess.Popen(
            [sys.executable, "-c", LOOP, str(os.getpid())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(per_core * cores())
    ]
    try:
        yield [p.pid for p in loops]
    finally:
        for p in loops:
            p.kill()
        for p in loops:
            p.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aikg_bench.busy", description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-core", type=int, default=PER_CORE, help="busy loops per core")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run beside them")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give a command to run beside the loops")
    with busy_loops(args.per_core) as pids:
        print(f"{len(pids)} busy loops beside: {' '.join(command)}", file=sys.stderr)
        # The command ends with this runner too (SIGTERM to the runner left a pytest running beside
        # nothing; its loops die by their own parent-death signal).
        return subprocess.run(command, preexec_fn=die_with_parent).returncode


if __name__ == "__main__":
    raise SystemExit(main())
