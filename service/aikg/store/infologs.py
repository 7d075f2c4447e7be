"""RocksDB's old info logs in a store's folder, bounded (issue 49: a store that keeps house).

Every read-write open of a store (each start, and each reopen that empties the engine's caches) starts a
new info log ``LOG`` and renames the previous one ``LOG.old.<microseconds>``. RocksDB deletes old ones
only past its ``keep_log_file_num``, which Oxigraph leaves at RocksDB's default of 1,000 (its
``db_options`` sets ``max_log_file_size`` and ``recycle_log_file_num``, the latter about write-ahead
logs; the store's ``OPTIONS-*`` file says ``keep_log_file_num=1000``), and pyoxigraph's ``Store`` takes
no options (0.5.13; not filed upstream). Each is ~137 KB, mostly the options RocksDB opened with: 9.7 MB
of a 51 MB default store after a day of restarts. RocksDB never reads them back: they are not data, so
all but the newest few are removed at each open, and nothing else in the folder is touched.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

log = logging.getLogger(__name__)

KEEP = 4
"""Old info logs kept (the newest): enough to read what the last few opens said."""

_OLD = re.compile(r"LOG\.old\.(\d+)")
"""An old info log's name: RocksDB's rotation stamps it with the microseconds it was rotated at."""


def old_logs(folder: Path) -> list[Path]:
    """The old info logs in ``folder``, oldest first (regular files named ``LOG.old.<digits>`` only)."""
    found = []
    for path in folder.iterdir():
        m = _OLD.fullmatch(path.name)
        if m is not None and path.is_file() and not path.is_symlink():
            found.append((int(m.group(1)), path))
    return [p for _, p in sorted(found)]


def prune(folder: Path, keep: int = KEEP) -> int:
    """Remove the old info logs of the store at ``folder`` but the newest ``keep``; how many went.

    Never fails the open it follows: a file that cannot be removed is left, and said in the log."""
    try:
        stale = old_logs(folder)
    except OSError:
        return 0
    removed = 0
    for path in stale[: max(0, len(stale) - keep)]:
        try:
            path.unlink()
            removed += 1
        except OSError as exc:
            log.debug("old info log %s left: %s", path, exc)
    return removed
