"""The application object: everything one running aikg owns, built once and passed down.

:func:`build_services` is the one factory, used by the web app (``create_app``) and by every CLI
command: it opens the store the settings name (with all of the remote backend's settings) and creates
around it the query runner and its worker processes, the gate (the one commit path, with its writer
lock), the write log, the search index, the caches keyed on the store's version and the response
cache. Nothing of this lives in module-level state, so two services in one process (tests) never share
anything.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from aikg.cache import Flights, LruCache, VersionedCache
from aikg.errors import DamagedStore
from aikg.export.built import BuiltExports
from aikg.export.kept import KeptFacts
from aikg.knowledge.validation_job import Answer, ValidationJob
from aikg.lookup.search import LiveIndex, SearchIndexes
from aikg.lookup.vocabulary import SourceDocument, Vocabulary, build_catalog, build_vocabulary
from aikg.query.named import NamedQueries
from aikg.query.runner import QueryRunner
from aikg.settings import Settings
from aikg.store import Store, open_store, store_options
from aikg.write.gate import Gate, Writes
from aikg.write.writelog import WriteLog

T = TypeVar("T")


class Validation(Protocol):
    """Whole-store validation as a job (:mod:`aikg.knowledge.validation_job`)."""

    def state(self) -> Answer:
        """The current version's report, or that it is being computed (started if need be)."""

    def close(self) -> None:
        """Stop what runs."""


class Views(Protocol):
    """Graph views and exports answered elsewhere (:mod:`aikg.serving.views`)."""

    def forward(self, request: Any, *, query_string: str | None = None, cheap: bool = False) -> Any:
        """The answer to ``request`` (a Flask request), as a Flask response; ``query_string`` in place
        of the request's own (a POSTed form's fields); a ``cheap`` one is never queued behind heavy
        ones."""

    def close(self) -> None:
        """Stop what runs."""


@dataclass
class Services:
    """One store and everything built around it."""

    settings: Settings
    store: Store
    runner: QueryRunner
    gate: Writes
    writelog: WriteLog
    versioned: VersionedCache
    search: SearchIndexes
    named: NamedQueries
    responses: LruCache
    validation: Validation
    """The whole-store report, once per store version (a serving reader's is the writer's)."""
    whole: KeptFacts = field(default_factory=KeptFacts)
    """The whole data graph's facts, followed through writes (the whole-graph view and exports)."""
    built: BuiltExports = field(default_factory=BuiltExports)
    """The whole-graph exports, written to files in the background once per store version."""
    flights: Flights = field(default_factory=Flights)
    """Concurrent requests for one missing response, computed once (``web.response_cache``)."""
    made_up: str = field(default_factory=lambda: uuid.uuid4().hex)
    """The token of a store read by this process alone: random, so ETags never survive a restart that
    resets ``version``."""
    background: dict[str, threading.Thread] = field(default_factory=dict)
    """Long-running jobs of this service (the Epoch import), by name."""
    views: Views | None = None
    """Where graph views and exports are answered when not here: an HTTP worker's views process."""
    damage: DamagedStore | None = None
    """The refusal of the first read of this process that met a damaged block of the store: /health
    reports it from then on (the engine opened the store, but a block of its data cannot be read)."""

    @property
    def token(self) -> str:
        """With the store's version, names a state of its data in cache keys and ETags: the store's
        lineage where processes share the data (so all of them tag alike), else ``made_up``."""
        return self.store.lineage or self.made_up

    def vocabulary(self) -> Vocabulary:
        """The ontology lookups for the store's current data."""
        return self.versioned.get("vocabulary", lambda: build_vocabulary(self.store))

    def catalog(self) -> dict[str, SourceDocument]:
        """Named graph IRI -> the source document describing it, for the store's current data."""
        return self.versioned.get("catalog", lambda: build_catalog(self.store))

    def index(self) -> LiveIndex:
        """The search index (and entity directory) for the store's current data."""
        return self.search.current()

    def cached(self, name: str, build: Any) -> Any:
        """``build(self)`` computed once per store version."""
        return self.versioned.get(name, lambda: build(self))

    def close(self) -> None:
        """Keep the search index for the next start, stop the workers and release the store."""
        self.search.keep_current()
        self.validation.close()
        if self.views is not None:
            self.views.close()
        self.runner.close()
        self.store.close()


def build_services(
    settings: Settings,
    *,
    store: Store | None = None,
    writelog: WriteLog | None = None,
    gate: Writes | None = None,
    keep: Path | None = None,
    validation: Validation | None = None,
    jobs: tuple[str, ...] = (),
) -> Services:
    """The services for resolved ``settings`` (:func:`aikg.settings.load_settings`), around ``store``
    when given, else around the store the settings name. A serving reader passes its own write log
    (the writer's journal), its gate (which forwards writes to the writer), the folder where built
    search indexes are kept for the next start, and its validation (the writer's report). ``jobs``:
    modules of the jobs besides queries its query workers run, imported as each starts (the writer's:
    the staging of updates, see :func:`aikg.query.workers._prepared`)."""
    if store is None:
        store = open_store(settings.store, **store_options(settings))
    runner = QueryRunner(store, settings, jobs=jobs)
    writelog = writelog if writelog is not None else WriteLog(store)
    versioned = VersionedCache(store)

    def vocabulary() -> Vocabulary:
        return versioned.get("vocabulary", lambda: build_vocabulary(store))

    gate = gate if gate is not None else Gate(store, runner, writelog)
    if validation is None:
        job = ValidationJob(store, timeout=settings.write_timeout, memory_mb=settings.query_memory)
        if isinstance(gate, Gate):
            gate.committed.append(job.changed)
        validation = job
    return Services(
        settings=settings,
        store=store,
        runner=runner,
        gate=gate,
        writelog=writelog,
        versioned=versioned,
        search=SearchIndexes(store, writelog, vocabulary, keep=keep),
        named=NamedQueries(store, runner),
        responses=LruCache(settings.cache_size, max_bytes=settings.cache_bytes),
        validation=validation,
    )
