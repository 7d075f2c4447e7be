"""Storage: one interface, a backend picked by the ``store`` setting."""

from __future__ import annotations

from aikg.store.base import Deadline, Quad, QueryResult, ResultKind, Store
from aikg.store.oxigraph import OxigraphStore

__all__ = ["Deadline", "OxigraphStore", "Quad", "QueryResult", "ResultKind", "Store", "open_store"]


def open_store(location: str, **options: str) -> Store:
    """Open the store a ``store`` setting names: ``memory``, a directory, or an http(s) URL."""
    if location == "memory":
        return OxigraphStore(None)
    if location.startswith(("http://", "https://")):
        from aikg.store.remote import RemoteStore

        return RemoteStore(location, **options)
    return OxigraphStore(location)
