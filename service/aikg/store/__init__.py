"""Storage: one interface, a backend picked by the ``store`` setting."""

from __future__ import annotations

from .base import Deadline, Quad, QueryResult, ResultKind, Store
from .oxigraph import OxigraphStore

__all__ = ["Deadline", "OxigraphStore", "Quad", "QueryResult", "ResultKind", "Store", "open_store"]


def open_store(location: str, **options: str) -> Store:
    """Open the store a ``store`` setting names: ``memory``, a directory, or an http(s) URL."""
    if location == "memory":
        return OxigraphStore(None)
    if location.startswith(("http://", "https://")):
        from .remote import RemoteStore  # imported lazily: only remote deployments need it

        return RemoteStore(location, **options)
    return OxigraphStore(location)
