"""Whether the machine itself stops: a thread that sleeps 5 ms in a loop, timed beside busy loops.

On the 2-vCPU virtual machine aikg is measured on, the whole machine stopped for ~100 ms every few
seconds while both cores ran flat out — at any priority, in every process at once — and never while one
core was left free. A cheap request caught in such a stop takes 100 ms whatever the server does, which
is why heavy work keeps off one core (:mod:`aikg.placement`). This measures it without aikg:

    python -m aikg_bench.stalls [--seconds 20]

Each case reports the wake-ups more than 30 ms late, at busy loops of the lowest priority: none, as
many as cores, and as many as cores pinned to every core but one.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import time
from typing import Any

from aikg.placement import LONG_NICENESS, all_cores, heavy_cores
from aikg_bench.busy import die_with_parent

LATE = 0.03
"""A wake-up this many seconds past its time counts as a stop."""


def _busy(cores: set[int] | None) -> None:
    die_with_parent(signal.SIGKILL)  # daemon processes are stopped at a normal exit only
    os.nice(LONG_NICENESS)
    if cores is not None:
        os.sched_setaffinity(0, cores)
    while True:
        pass


def late_wakeups(busy: int, cores: set[int] | None, seconds: float) -> dict[str, Any]:
    """Wake-ups of a 5 ms sleep later than :data:`LATE`, beside ``busy`` busy loops (on ``cores``)."""
    spawn = multiprocessing.get_context("spawn")
    loops = [spawn.Process(target=_busy, args=(cores,), daemon=True) for _ in range(busy)]
    for p in loops:
        p.start()
    try:
        time.sleep(1.0)
        late: list[float] = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t = time.perf_counter()
            time.sleep(0.005)
            over = time.perf_counter() - t - 0.005
            if over > LATE:
                late.append(round(over * 1000, 1))
    finally:
        for p in loops:
            p.kill()
            p.join()
    where = sorted(cores) if cores else "any"
    return {"busy_loops": busy, "cores": where, "late": len(late), "late_ms": late}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aikg_bench.stalls", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds timed per case")
    args = parser.parse_args(argv)
    n = len(all_cores())
    cases = [(0, None), (n, None), (n, heavy_cores())]
    print(json.dumps([late_wakeups(b, c, args.seconds) for b, c in cases], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
