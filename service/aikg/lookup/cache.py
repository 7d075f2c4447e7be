"""Caches keyed on the store's version: derived structures (search index, vocabulary) and responses.

A store's ``version`` changes whenever its data changes, so anything computed from the data can be kept
until the version moves on; nothing here ever needs explicit invalidation.
"""

from __future__ import annotations

import hashlib
import threading
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from aikg.store import Store

T = TypeVar("T")

_per_store: weakref.WeakKeyDictionary[Store, dict[str, tuple[int, Any]]] = weakref.WeakKeyDictionary()
_tokens: weakref.WeakKeyDictionary[Store, str] = weakref.WeakKeyDictionary()
_locks: weakref.WeakKeyDictionary[Store, dict[str, threading.Lock]] = weakref.WeakKeyDictionary()
_guard = threading.Lock()


def _lock_for(store: Store, name: str) -> threading.Lock:
    with _guard:
        return _locks.setdefault(store, {}).setdefault(name, threading.Lock())


def per_version(store: Store, name: str, build: Callable[[Store], T], *,
                stale_while: Callable[[T], bool] | None = None) -> T:
    """``build(store)``, computed once per store version and shared by every thread.

    When ``stale_while(previous)`` is true for the previous version's value, the new one is built in a
    background thread and the previous value answers meanwhile: requests never wait for a slow rebuild.
    """
    version = store.version
    entry = _per_store.get(store, {}).get(name)
    if entry is not None and entry[0] == version:
        return entry[1]
    if entry is not None and stale_while is not None and stale_while(entry[1]):
        lock = _lock_for(store, name)
        if lock.acquire(blocking=False):
            threading.Thread(target=_rebuild, args=(store, name, build, lock), daemon=True).start()
        return entry[1]
    with _lock_for(store, name):
        entry = _per_store.get(store, {}).get(name)  # another thread may have built it meanwhile
        if entry is not None and entry[0] == version:
            return entry[1]
        value = build(store)
        with _guard:
            _per_store.setdefault(store, {})[name] = (version, value)
        return value


def _rebuild(store: Store, name: str, build: Callable[[Store], T], lock: threading.Lock) -> None:
    try:
        version = store.version
        value = build(store)
        with _guard:
            _per_store.setdefault(store, {})[name] = (version, value)
    finally:
        lock.release()


def store_token(store: Store) -> str:
    """A random token per opened store, so ETags never survive a restart that resets ``version``."""
    with _guard:
        token = _tokens.get(store)
        if token is None:
            token = _tokens[store] = uuid.uuid4().hex
        return token


def etag_for(key: tuple) -> str:
    """An opaque entity tag for a cache key (store token, store version, what was asked)."""
    h = hashlib.blake2b(digest_size=12)
    for p in map(str, key):
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


class LruCache:
    """A small thread-safe least-recently-used map; ``size`` 0 keeps nothing."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        """The cached value, or None; a hit makes the entry the most recent."""
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value``, dropping the least recently used entry when full."""
        if self.size <= 0:
            return
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)
