"""The whole data graph's facts, read once in the background and then followed through the write log.

Every graph view starts from the facts of its nodes: the whole-graph view from all of them (on the
default store ~63k quads turned into Python objects, about 1 s and most of such a request), a hub's
depth-2 neighbourhood from ~24k (~0.8 s). So a process keeps them for the store's current version, read
once outside any request; after a gated write only the subjects it changed are read again (the write
log names them, as it does for the search index), so under a mixed load with writes every second a
view no longer pays a whole read each time. A neighbourhood's facts are then the kept facts of its
nodes: no store read at all.

A change the log cannot name (a bulk load, a change of the class hierarchy, a blank node's statements)
starts a new background read; until it is done, requests read their selection themselves, as they
would without this module. A store too large to keep (:data:`KEEP_MAX`) is always read per request.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING

import pyoxigraph as ox

from aikg.export.budget import check
from aikg.export.model import (
    Facts,
    NodeParts,
    TooManyFacts,
    classify,
    facts_by_subject,
    read_facts,
    term_id,
    titles,
)
from aikg.export.select import Selection, data_graphs
from aikg.store import Term
from aikg.store.base import current_deadline

if TYPE_CHECKING:
    from aikg.services import Services

log = logging.getLogger(__name__)

KEEP_MAX = 250_000
"""Quads of the data graphs kept at most (~100 MB of Python objects per serving process); a larger store
is read per request, as its whole-graph view would be cut by the time limit anyway."""

FOLLOW_MAX = 2_000
"""Changed subjects read again in a request at most; past this the whole graph is read again in the
background (a few batched queries per thousand subjects, against one ~1 s pass)."""

RETRY_TOO_LARGE = 300.0
"""Seconds before a store found too large to keep is measured again (it may have shrunk)."""


class KeptFacts:
    """The facts of the whole data graph at one store version, shared by the requests of a process."""

    def __init__(self) -> None:
        self.keeping = False
        """Set by the web app, whose requests repeat; a one-shot command (``aikg export``) reads what it
        needs and starts no background read."""
        self._kept: tuple[int, Facts] | None = None
        self._lock = threading.Lock()
        self._reading = False
        self._too_large_until = 0.0

    def current(self, services: Services) -> Facts | None:
        """The whole graph's facts at the store's current version, or None while they are being read
        (a background read is started if none runs), the store is too large to keep, or nothing is kept."""
        if not self.keeping:
            return None
        now = services.store.version  # read first: data read after it is at least this new
        kept = self._kept
        if kept is not None and kept[0] == now:
            return kept[1]
        deadline = current_deadline()
        if not self._lock.acquire(timeout=-1 if deadline is None else max(0.0, deadline.left())):
            check("waiting for the graph's facts")
            return None
        try:
            kept = self._kept
            if kept is not None and kept[0] == now:
                return kept[1]
            changed = services.writelog.since(kept[0], now) if kept is not None else None
            if kept is not None and changed is not None and len(changed) <= FOLLOW_MAX:
                facts = _follow(services, kept[1], changed)
                self._kept = (now, facts)
                return facts
            self._start_reading(services)
            return None
        finally:
            self._lock.release()

    def _start_reading(self, services: Services) -> None:
        """Read the whole graph in a thread of its own (no request's deadline); the caller holds the lock."""
        if self._reading or time.monotonic() < self._too_large_until:
            return
        self._reading = True
        threading.Thread(target=self._read, args=(services,), name="aikg-kept-facts", daemon=True).start()

    def _read(self, services: Services) -> None:
        try:
            store = services.store
            version = store.version
            selection = Selection(store, tuple(data_graphs(store)), None)
            try:
                facts = read_facts(services, selection, most=KEEP_MAX)
            except TooManyFacts:
                with self._lock:
                    self._kept = None
                    self._too_large_until = time.monotonic() + RETRY_TOO_LARGE
                log.info("the data graphs hold over %d quads: graph views read them per request", KEEP_MAX)
                return
            facts.parts = NodeParts(facts.drawn)
            with self._lock:
                self._kept = (version, facts)
        except Exception as exc:  # noqa: BLE001 - a closed or failing store: requests read for themselves
            log.warning("the graph's facts could not be read: %s", exc)
        finally:
            with self._lock:
                self._reading = False


def subset(facts: Facts, nodes: frozenset[Term]) -> Facts:
    """The kept ``facts`` of ``nodes``: what reading a selection of those nodes gives."""
    ids = {term_id(n) for n in nodes if isinstance(n, ox.NamedNode | ox.BlankNode)}
    mine = {s: facts.facts[s] for s in ids if s in facts.facts}
    kinds = {s: facts.kinds[s] for s in mine}
    drawn = {s for s in mine if s in facts.drawn}
    return Facts(facts.vocab, facts.titles, mine, kinds, drawn, parts=facts.parts)


def _follow(services: Services, facts: Facts, changed: frozenset[str]) -> Facts:
    """``facts`` with the statements of the ``changed`` subjects read again: a new object, as requests
    may still be reading the old one."""
    store = services.store
    vocab = services.vocabulary()
    again = facts_by_subject(
        Selection(store, tuple(data_graphs(store)), frozenset(ox.NamedNode(s) for s in changed))
    )
    kinds, drawn = classify(vocab, again)
    now_drawn = (facts.drawn - changed) | drawn
    # The nodes' parts start afresh: a node's part depends on which nodes are drawn and on the vocabulary.
    return Facts(
        vocab,
        titles(services),
        {**{s: fs for s, fs in facts.facts.items() if s not in changed}, **again},
        {**{s: k for s, k in facts.kinds.items() if s not in changed}, **kinds},
        now_drawn,
        parts=NodeParts(now_drawn),
    )
