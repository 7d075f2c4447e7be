"""An HTTP worker's interpreter is tuned so one thread's heavy Python work (a hub's deep neighbourhood
or export) stalls the cheap requests beside it as little as it can (aikg.serving.worker)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

VIEW_BESIDE_KEPT_FACTS = textwrap.dedent(
    """
    import gc, sys
    from aikg.serving.worker import tune_interpreter

    if sys.argv[1] == "tuned":
        tune_interpreter()
    kept = [(i, str(i)) for i in range(300_000)]  # long-lived: the whole graph's facts, an index
    gc.collect()
    full = []
    gc.callbacks.append(lambda phase, info: phase == "stop" and info["generation"] == 2 and full.append(1))
    view = [[i] for i in range(600_000)]  # a hub's view being built: alive until it is written
    print(len(full), sys.getswitchinterval())
    """
)


def _full_collections(how: str) -> tuple[int, float]:
    done = subprocess.run(
        [sys.executable, "-c", VIEW_BESIDE_KEPT_FACTS, how], capture_output=True, text=True, check=True
    )
    collections, interval = done.stdout.split()
    return int(collections), float(interval)


def test_a_heavy_view_does_not_set_off_full_collections_of_everything_the_worker_holds():
    """Each full collection walks all 900,000 objects with the GIL held (tens to hundreds of ms under
    load): the default thresholds ran several while the view was built, the worker's none."""
    default, _ = _full_collections("default")
    tuned, interval = _full_collections("tuned")
    assert default >= 3  # the case is one that stalls with Python's defaults
    assert tuned == 0
    assert interval == 0.001  # and a busy thread gives the GIL up after a millisecond
