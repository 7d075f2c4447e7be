"""Every setting aikg reads, declared once with its default and help.

The same list feeds the environment (``AIKG_<NAME>``), the ``aikg serve`` options and the manual
(``/docs/settings``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import platformdirs


@dataclass(frozen=True)
class Setting:
    """One setting: its name, default, type and a line of help."""

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


def default_store_dir() -> str:
    """Per-user data directory for the embedded store: never inside the source tree."""
    return os.path.join(platformdirs.user_data_dir("aikg", appauthor=False), "store")


SETTINGS: tuple[Setting, ...] = (
    Setting("host", "127.0.0.1", "Interface the server binds to."),
    Setting("port", 8000, "TCP port the server listens on.", int),
    Setting(
        "workers",
        2,
        "HTTP worker processes; with the embedded on-disk store they read snapshots and "
        "one more process writes (with a memory store: one).",
        int,
    ),
    Setting(
        "threads",
        16,
        "Threads per HTTP worker; queries release the GIL, so threads run them in parallel.",
        int,
    ),
    Setting(
        "read_timeout",
        10.0,
        "Seconds a client may take to send a whole request (headers and body); "
        "slower ones get 408 and are disconnected.",
        float,
    ),
    Setting(
        "store",
        "",
        "Store location: a directory (embedded on-disk Oxigraph), 'memory', or an "
        "http(s) URL of a remote SPARQL 1.1 engine. Empty: a per-user data directory.",
    ),
    Setting("store_update_url", "", "Remote engine: SPARQL Update URL (default: the query URL)."),
    Setting("store_gsp_url", "", "Remote engine: Graph Store Protocol URL (empty: use Update)."),
    Setting("store_user", "", "Remote engine: user name for HTTP basic/digest auth."),
    Setting("store_password", "", "Remote engine: password for HTTP basic/digest auth."),
    Setting("load_seeds", True, "Load ontology, shapes and seeds into an empty store at start.", bool),
    Setting(
        "import_epoch",
        True,
        "With load_seeds, import the Epoch AI snapshot kept in seeds/epoch/ "
        "(CC BY 4.0) in the background when the store has no Epoch graph yet.",
        bool,
    ),
    Setting("token", "", "Bearer token required for writes; empty switches writes off."),
    Setting("query_timeout", 5.0, "Seconds a query may run before it is stopped.", float),
    Setting(
        "write_timeout",
        120.0,
        "Seconds a write (validation and commit) may take before it is refused.",
        float,
    ),
    Setting("max_rows", 10000, "Most result rows returned; more are cut off and flagged truncated.", int),
    Setting("max_body", 10 * 1024 * 1024, "Largest request body accepted, in bytes.", int),
    Setting("max_heavy_queries", 4, "Queries allowed to run at once; more get 429 with Retry-After.", int),
    Setting("allow_service", "", "Comma-separated endpoint IRIs that SERVICE may call (empty: none)."),
    Setting("cache_size", 512, "Entries kept in the response cache (0 turns it off).", int),
    Setting(
        "cache_bytes",
        64 * 1024 * 1024,
        "Bytes the response cache may hold; an answer over a tenth of it is not kept.",
        int,
    ),
    Setting(
        "malloc_arenas",
        2,
        "glibc malloc arenas per serving process (0: glibc's default, eight per core); fewer keep a "
        "worker's threads from each holding freed memory of its own.",
        int,
    ),
    Setting(
        "writer_memory",
        32,
        "Megabytes of resident memory the writer process may gain over its size at start (or after the "
        "last reopen) before, when idle, it reopens the store to empty the engine's block caches "
        "(0: never). With a snapshot per write, RocksDB fills them with blocks of files it has since "
        "deleted.",
        int,
    ),
    Setting("query_memory", 2048, "Megabytes of memory a query worker process may use (0: no limit).", int),
    Setting("base_url", "", "Public base URL, when served behind a proxy (used in the service description)."),
)

_BY_NAME = {s.name: s for s in SETTINGS}


def _coerce(setting: Setting, value: Any) -> Any:
    if setting.type is bool and isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    return setting.type(value)


def load_settings(
    overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Resolve every setting: default, then ``AIKG_*`` environment, then explicit overrides."""
    environ = os.environ if environ is None else environ
    resolved: dict[str, Any] = {}
    for s in SETTINGS:
        value = s.default
        if s.env in environ:
            value = environ[s.env]
        if overrides and overrides.get(s.name) is not None:
            value = overrides[s.name]
        resolved[s.name] = _coerce(s, value)
    if overrides:
        unknown = set(overrides) - set(_BY_NAME)
        if unknown:
            raise ValueError(f"unknown setting(s): {', '.join(sorted(unknown))}")
    if not resolved["store"]:
        resolved["store"] = default_store_dir()
    return resolved
