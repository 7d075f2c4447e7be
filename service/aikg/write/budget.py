"""How long a write will take, estimated before it is validated: one that cannot finish within the time
left of its limit is refused at once, with the limit in the message, instead of holding the writer past
it (validation cannot be stopped midway, and every other write waits behind it).

A 10 MiB PUT (210,000 quads) held the writer for minutes after its client had been told it timed out,
and every write for the next ~6 minutes got 429 or timed out. The estimate is the change's size times
the seconds a quad took in recent writes (validation, following the generated graphs, the commit),
starting from what this 2-core machine measured under load; a write that needs the generated graphs
rebuilt over the whole store is estimated by the store's size instead.
"""

from __future__ import annotations

import threading

from aikg.errors import PayloadTooLarge, WriteTimeout
from aikg.store import Deadline

SECONDS_PER_QUAD = 0.002
"""Before any write was measured: 12,000 quads (4,000 new typed entities) took 19.5 s to validate,
5.6 s to follow into the generated graphs and 1.8 s to commit on the 2-core machine at load 15 (2.2 ms a
quad); 3,000 quads took 10 s (3.3 ms). Learned from writes afterwards (:meth:`Costs.observe`)."""

FASTEST = 0.0002
"""The learned rate never goes under this (seconds a quad): a run of quick writes must not let through one
a hundred times their size."""

REMOVAL_WEIGHT = 0.35
"""What a removed quad costs against an added one. Removing a graph of 5,000 / 15,000 quads (a PUT that
replaces it by one triple) took 0.08 / 0.07 ms a quad against 0.30 / 0.20 ms to add them (seeds store, one
process, load 1): a third. Counted at the added rate, a 15,003-quad replacement was estimated at 16 s on a
busy machine and refused with 413 for five minutes on end (CI rehearsal, test_hostile): a graph that grew
could never be replaced or dropped."""

SAMPLE = 500
"""Writes of fewer quads say little of the rate (their fixed costs dominate) and are not learned from."""

REBUILD_SECONDS_PER_QUAD = 0.001
"""Before a rebuild was measured: rebuilding the generated graphs took 40–76 s on the default store with
the Epoch data (~75,000 quads in named graphs)."""


class Costs:
    """The rates a gate's writes ran at, and the refusals they lead to."""

    def __init__(self) -> None:
        self.per_quad = SECONDS_PER_QUAD
        self.rebuild_per_quad = REBUILD_SECONDS_PER_QUAD
        self._lock = threading.Lock()

    def observe(self, quads: int, seconds: float, *, removed: int = 0) -> None:
        """Learn from a write that added ``quads`` and removed ``removed`` in ``seconds``, from its change
        to its commit (the rate is of an added quad; a removed one counts :data:`REMOVAL_WEIGHT`)."""
        weighted = quads + REMOVAL_WEIGHT * removed
        if weighted >= SAMPLE:
            with self._lock:
                self.per_quad = max(FASTEST, (self.per_quad + seconds / weighted) / 2)

    def observe_rebuild(self, quads: int, seconds: float) -> None:
        """Learn from a rebuild of the generated graphs over a store of ``quads``."""
        if quads >= SAMPLE:
            with self._lock:
                self.rebuild_per_quad = max(FASTEST / 10, (self.rebuild_per_quad + seconds / quads) / 2)

    def check(self, quads: int, deadline: Deadline | None, *, removed: int = 0) -> None:
        """Refuse (413) a change that adds ``quads`` and removes ``removed`` when it would not be done
        within the time left."""
        if deadline is None:
            return
        left = deadline.left()
        seconds = (quads + REMOVAL_WEIGHT * removed) * self.per_quad
        if seconds <= left:
            return
        most = max(1, int(left / self.per_quad))
        quads += removed
        raise PayloadTooLarge(
            f"the write changes {quads:,} quads: validating and committing them would take about "
            f"{seconds:,.0f} s here ({self.per_quad * 1000:.1f} ms a quad, as recent writes ran), more than "
            f"the {left:.0f} s left of its time limit (setting write_timeout); nothing was changed: send it "
            f"in parts of at most {most:,} quads",
            errors=[
                {
                    "limit": "write_timeout",
                    "quads": quads,
                    "estimate_seconds": round(seconds, 1),
                    "most": most,
                }
            ],
        )

    def check_rebuild(self, store_quads: int, deadline: Deadline | None) -> None:
        """Refuse (503) a write whose generated graphs must be rebuilt over a store of ``store_quads``
        when that would not be done within the time left."""
        if deadline is None:
            return
        left = deadline.left()
        seconds = store_quads * self.rebuild_per_quad
        if seconds <= left:
            return
        raise WriteTimeout(
            "the write cannot be followed node by node into the inferred and derived graphs (it changes "
            f"existing blank nodes, or a class or property hierarchy): rebuilding them over the store's "
            f"{store_quads:,} quads would take about {seconds:,.0f} s, more than the {left:.0f} s left of "
            "its time limit (setting write_timeout); nothing was changed: name its nodes with IRIs, or "
            "raise write_timeout",
            errors=[{"limit": "write_timeout", "estimate_seconds": round(seconds, 1)}],
        )
