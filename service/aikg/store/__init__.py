"""Storage: one closed interface, a backend picked by the ``store`` setting."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aikg.rdf.results import Node, Quad, QueryResult, ResultKind, Term
from aikg.store.base import Deadline, Snapshot, Store
from aikg.store.oxigraph import OxigraphStore

if TYPE_CHECKING:  # settings are read in the serving process; query workers import this package
    from aikg.settings import Settings

__all__ = [
    "Deadline",
    "Node",
    "OxigraphStore",
    "Quad",
    "QueryResult",
    "ResultKind",
    "Snapshot",
    "Store",
    "Term",
    "in_use",
    "open_snapshot",
    "open_store",
    "scratch_store",
    "store_options",
]


def store_options(settings: Settings) -> dict[str, str]:
    """The remote backend's options from resolved settings (the only place they are read)."""
    given = {
        "update_url": settings.store_update_url,
        "gsp_url": settings.store_gsp_url,
        "user": settings.store_user,
        "password": settings.store_password,
    }
    return {k: v for k, v in given.items() if v}


def open_store(location: str, **options: Any) -> Store:
    """Open the store a ``store`` setting names: ``memory``, a directory, or an http(s) URL."""
    if location == "memory":
        return OxigraphStore(None)
    if location.startswith(("http://", "https://")):
        from aikg.store.remote import RemoteStore

        return RemoteStore(location, **options)
    return OxigraphStore(location)


def open_snapshot(snapshot: Snapshot) -> Store:
    """Open a snapshot another process made, read-only (query workers)."""
    return OxigraphStore.open_snapshot(snapshot)


def in_use(location: str) -> bool:
    """True when another process holds the embedded on-disk store at ``location`` open."""
    if location == "memory" or location.startswith(("http://", "https://")):
        return False
    return OxigraphStore.in_use(location)


def scratch_store() -> Store:
    """An empty in-memory store for staging and validation: never the service's own store."""
    return OxigraphStore(None)
