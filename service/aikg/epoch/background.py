"""Serving the shipped Epoch snapshot by default, without making the first start wait for it.

The import validates tens of thousands of rows through the SHACL gate, which takes longer than a
service should take to start; it runs in a background thread instead, and the service answers
from the seeds meanwhile. It runs whenever no Epoch graph is present yet, so a start interrupted
mid-import simply imports again.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from aikg.epoch.importer import default_directory, import_epoch
from aikg.namespaces import GRAPH
from aikg.store import Store

if TYPE_CHECKING:
    from aikg.services import Services

log = logging.getLogger(__name__)
EPOCH_GRAPH_PREFIX = str(GRAPH["epoch/"])


def has_epoch_data(store: Store) -> bool:
    """True once any Epoch dataset graph is in the store."""
    return any(g.startswith(EPOCH_GRAPH_PREFIX) for g in store.graphs())


def import_in_background(services: Services) -> threading.Thread | None:
    """Start importing the shipped snapshot in a daemon thread, unless it is already there."""
    directory = default_directory()
    if has_epoch_data(services.store) or not directory.is_dir():
        return None

    def run() -> None:
        try:
            report = import_epoch(services, directory)
            totals = report.totals()
            log.warning(
                "aikg: Epoch AI snapshot imported: %d of %d rows, %d merges, %d links, %d ambiguous "
                "(see /api/imports)",
                totals["imported"],
                totals["rows"],
                totals["merges"],
                totals["links"],
                totals["ambiguities"],
            )
        except Exception:  # a failed background import must not take the service down
            log.exception("aikg: importing the Epoch AI snapshot failed")

    thread = threading.Thread(target=run, name="aikg-epoch-import", daemon=True)
    thread.start()
    return thread
