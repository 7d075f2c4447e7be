"""Every setting aikg reads, declared once: :class:`Settings`, a typed, frozen object.

Each field is a setting with its type, default and help; the same declaration feeds the environment
(``AIKG_<NAME>``), the ``aikg serve`` options and the manual (``/docs/settings``) through
:data:`SETTINGS`, and code reads ``settings.query_timeout`` as the float it was declared, converted once
by :func:`load_settings`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar, get_type_hints

import platformdirs

T = TypeVar("T")


def _setting(default: T, help: str) -> T:
    """A field of :class:`Settings`: its default and a line of help (typed as the default, for mypy)."""
    found: T = field(default=default, metadata={"help": help})
    return found


def default_store_dir() -> str:
    """Per-user data directory for the embedded store: never inside the source tree."""
    return os.path.join(platformdirs.user_data_dir("aikg", appauthor=False), "store")


@dataclass(frozen=True)
class Settings:
    """Every setting aikg reads, resolved (:func:`load_settings`): defaults, environment, overrides."""

    host: str = _setting("127.0.0.1", "Interface the server binds to.")
    port: int = _setting(8000, "TCP port the server listens on.")
    workers: int = _setting(
        2,
        "HTTP worker processes; with the embedded on-disk store they read snapshots and one more process "
        "writes (with a memory store: one).",
    )
    threads: int = _setting(
        16, "Threads per HTTP worker; queries release the GIL, so threads run them in parallel."
    )
    read_timeout: float = _setting(
        10.0,
        "Seconds a client may take to send a whole request (headers and body); slower ones get 408 and "
        "are disconnected.",
    )
    store: str = _setting(
        "",
        "Store location: a directory (embedded on-disk Oxigraph), 'memory', or an http(s) URL of a remote"
        " SPARQL 1.1 engine. Empty: a per-user data directory.",
    )
    store_update_url: str = _setting("", "Remote engine: SPARQL Update URL (default: the query URL).")
    store_gsp_url: str = _setting("", "Remote engine: Graph Store Protocol URL (empty: use Update).")
    store_user: str = _setting("", "Remote engine: user name for HTTP basic/digest auth.")
    store_password: str = _setting("", "Remote engine: password for HTTP basic/digest auth.")
    load_seeds: bool = _setting(True, "Load ontology, shapes and seeds into an empty store at start.")
    warm_ask: bool = _setting(
        True,
        "Make the plain-words reader (/api/ask) in the background soon after each HTTP worker starts: "
        "its first question otherwise pays for it (4-6 s on a busy machine, past the 5 s limit).",
    )
    import_epoch: bool = _setting(
        True,
        "With load_seeds, import the Epoch AI snapshot kept in seeds/epoch/ (CC BY 4.0) in the background"
        " when the store has no Epoch graph yet.",
    )
    token: str = _setting("", "Bearer token required for writes; empty switches writes off.")
    query_timeout: float = _setting(5.0, "Seconds a query may run before it is stopped.")
    write_timeout: float = _setting(
        120.0, "Seconds a write (validation and commit) may take before it is refused."
    )
    max_rows: int = _setting(10000, "Most result rows returned; more are cut off and flagged truncated.")
    query_page: int = _setting(
        1000,
        "Rows of a named query's page when the caller gives no limit (an explicit limit goes up to"
        " max_rows): a page a person reads, answered within a second; a whole-graph answer at 10M"
        " quads, 10,000 rows of 18 MB JSON, took 5 s. The answer says its total when known, and next.",
    )
    max_body: int = _setting(10 * 1024 * 1024, "Largest request body accepted, in bytes.")
    max_heavy_queries: int = _setting(4, "Queries allowed to run at once; more get 429 with Retry-After.")
    allow_service: str = _setting("", "Comma-separated endpoint IRIs that SERVICE may call (empty: none).")
    cache_size: int = _setting(512, "Entries kept in the response cache (0 turns it off).")
    cache_bytes: int = _setting(
        64 * 1024 * 1024, "Bytes the response cache may hold; an answer over a tenth of it is not kept."
    )
    malloc_arenas: int = _setting(
        2,
        "glibc malloc arenas per serving process (0: glibc's default, eight per core); fewer keep a "
        "worker's threads from each holding freed memory of its own.",
    )
    writer_memory: int = _setting(
        32,
        "Megabytes of resident memory the writer process may gain over its size at start (or after the "
        "last reopen) before, when idle, it reopens the store to empty the engine's block caches (0: "
        "never). With a snapshot per write, RocksDB fills them with blocks of files it has since deleted.",
    )
    query_memory: int = _setting(2048, "Megabytes of memory a query worker process may use (0: no limit).")
    base_url: str = _setting(
        "", "Public base URL, when served behind a proxy (used in the service description)."
    )

    def but(self, **changes: Any) -> Settings:
        """These settings with ``changes`` (each converted to its declared type)."""
        return replace(self, **{k: _coerce(_BY_NAME[k], v) for k, v in changes.items()})


@dataclass(frozen=True)
class Setting:
    """One setting as the environment, the CLI and the manual see it: name, default, type, help."""

    name: str
    default: Any
    help: str
    type: type = str

    @property
    def env(self) -> str:
        """The environment variable that sets it."""
        return "AIKG_" + self.name.upper()

    @property
    def option(self) -> str:
        """The CLI option that sets it."""
        return "--" + self.name.replace("_", "-")


_TYPES = get_type_hints(Settings)
SETTINGS: tuple[Setting, ...] = tuple(
    Setting(f.name, f.default, f.metadata["help"], _TYPES[f.name]) for f in fields(Settings)
)
"""The settings in their declared order (from :class:`Settings`)."""

_BY_NAME = {s.name: s for s in SETTINGS}


def _coerce(setting: Setting, value: Any) -> Any:
    if setting.type is bool and isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    return setting.type(value)


def load_settings(
    overrides: Mapping[str, Any] | Settings | None = None, environ: Mapping[str, str] | None = None
) -> Settings:
    """Resolve every setting: default, then ``AIKG_*`` environment, then explicit overrides (a mapping
    of names to values; resolved :class:`Settings` are taken as they are)."""
    if isinstance(overrides, Settings):
        return overrides
    environ = os.environ if environ is None else environ
    if overrides:
        unknown = set(overrides) - set(_BY_NAME)
        if unknown:
            raise ValueError(f"unknown setting(s): {', '.join(sorted(unknown))}")
    resolved: dict[str, Any] = {}
    for s in SETTINGS:
        value = s.default
        if s.env in environ:
            value = environ[s.env]
        if overrides and overrides.get(s.name) is not None:
            value = overrides[s.name]
        resolved[s.name] = _coerce(s, value)
    if not resolved["store"]:
        resolved["store"] = default_store_dir()
    return Settings(**resolved)
