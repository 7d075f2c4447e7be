"""Caches keyed on the store's version: derived structures (vocabulary, catalogue, counts) and responses.

A store's ``version`` changes whenever its data changes, so anything computed from the data can be kept
until the version moves on; nothing here ever needs explicit invalidation. Each cache belongs to one
:class:`~aikg.services.Services` (one store), never to the process.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from aikg.store import Store
from aikg.store.base import unbounded

T = TypeVar("T")


class VersionedCache:
    """Values computed from a store's data, each built once per store version and shared by threads."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # One name is always built by the same build: its value has that build's type (the casts in get).
        self._values: dict[str, tuple[int, Any]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock_for(self, name: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(name, threading.Lock())

    def get(self, name: str, build: Callable[[], T], *, stale_while: Callable[[T], bool] | None = None) -> T:
        """``build()``, computed once per store version.

        When ``stale_while(previous)`` is true for the previous version's value, the new one is built in a
        background thread and the previous value answers meanwhile: requests never wait for a slow rebuild.
        """
        version = self.store.version
        entry = self._values.get(name)
        if entry is not None and entry[0] == version:
            return cast(T, entry[1])
        if entry is not None and stale_while is not None and stale_while(entry[1]):
            lock = self._lock_for(name)
            if lock.acquire(blocking=False):
                threading.Thread(target=self._rebuild, args=(name, build, lock), daemon=True).start()
            return cast(T, entry[1])
        with self._lock_for(name):
            entry = self._values.get(name)  # another thread may have built it meanwhile
            if entry is not None and entry[0] == version:
                return cast(T, entry[1])
            with unbounded():  # shared by every later request: no one request's deadline cuts it short
                value = build()
            with self._guard:
                self._values[name] = (version, value)
            return value

    def _rebuild(self, name: str, build: Callable[[], Any], lock: threading.Lock) -> None:
        try:
            version = self.store.version
            value = build()
            with self._guard:
                self._values[name] = (version, value)
        finally:
            lock.release()


def etag_for(key: tuple[Any, ...]) -> str:
    """An opaque entity tag for a cache key (store token, store version, what was asked)."""
    h = hashlib.blake2b(digest_size=12)
    for p in map(str, key):
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


class LruCache:
    """A thread-safe least-recently-used map bounded in entries and in bytes (``size`` 0 keeps nothing).

    Each value is kept with its size in bytes, given by the caller; the least recently used entries go
    first when either bound is passed, and a value larger than a tenth of the byte budget is never kept,
    so one huge answer cannot flush everything else.

    A value may be put with a ``generation`` (the store version its key holds): one of a new generation
    forgets every older entry, which no key can reach again, so writes do not fill the cache with dead
    answers up to its bound.
    """

    def __init__(self, size: int, *, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0
        self._data: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._generation: Hashable | None = None
        self._lock = threading.Lock()

    @property
    def entry_bytes(self) -> int:
        """The largest value kept, in bytes (0 when the cache keeps nothing)."""
        return self.max_bytes // 10 if self.size > 0 else 0

    def get(self, key: Hashable) -> Any | None:
        """The cached value, or None; a hit makes the entry the most recent."""
        with self._lock:
            entry = self._data.get(key)
            if entry is None:
                return None
            self._data.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value: Any, nbytes: int = 0, *, generation: Hashable | None = None) -> bool:
        """Keep ``value`` (``nbytes`` large); say whether it was kept."""
        if nbytes > self.entry_bytes or self.size <= 0:
            return False
        with self._lock:
            if generation is not None and generation != self._generation:
                self._data.clear()
                self.bytes = 0
                self._generation = generation
            old = self._data.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._data[key] = (value, nbytes)
            self.bytes += nbytes
            while self._data and (len(self._data) > self.size or self.bytes > self.max_bytes):
                _, (_, gone) = self._data.popitem(last=False)
                self.bytes -= gone
        return True

    def clear(self) -> None:
        """Forget every entry (the benchmark measures answers that miss the cache)."""
        with self._lock:
            self._data.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._data)


class Flights:
    """Concurrent requests for one missing answer computed once: the first computes it, the others
    wait for it (within their deadline) and then read it from the cache.

    Without this, a hub's page opened by several clients at once (or one client's retries) computed
    the same cold answer once per request, each holding a query slot and a core.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flying: dict[Hashable, threading.Event] = {}

    @contextmanager
    def once(self, key: Hashable) -> Iterator[threading.Event | None]:
        """None for the request that computes ``key`` (others wait until it leaves the block); for any
        other, the event that is set when that computation ends."""
        with self._lock:
            flying = self._flying.get(key)
            if flying is None:
                flying = self._flying[key] = threading.Event()
                leads = True
            else:
                leads = False
        if not leads:
            yield flying
            return
        try:
            yield None
        finally:
            with self._lock:
                self._flying.pop(key, None)
            flying.set()
