"""Bringing a store up to the data this version of aikg ships, without making the start wait for it.

At every start of the process that owns the store, a daemon thread first loads the ontology, shapes and
seeds again where the files shipped differ from those the store was loaded from (aikg.write.shipped),
then imports the shipped Epoch snapshot when the store has no Epoch data yet or has no record of
importing these very files (their folder digest, :func:`aikg.epoch.record.folder_sha256`): a newer
snapshot shipped with an upgrade is imported at the next start, as the first one was. The import
validates tens of thousands of rows through the SHACL gate, which takes longer than a service should
take to start; the service answers from what the store holds meanwhile, and a start interrupted
mid-import imports again.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from aikg.epoch.importer import default_directory, import_epoch
from aikg.epoch.record import folder_sha256, imported_sha256, list_imports
from aikg.epoch.snapshot import read_manifest
from aikg.namespaces import GRAPH
from aikg.store import Store
from aikg.write.gate import Gate
from aikg.write.shipped import refresh

if TYPE_CHECKING:
    from aikg.services import Services

log = logging.getLogger(__name__)
EPOCH_GRAPH_PREFIX = str(GRAPH["epoch/"])


def has_epoch_data(store: Store) -> bool:
    """True once any Epoch dataset graph is in the store."""
    return any(g.startswith(EPOCH_GRAPH_PREFIX) for g in store.graphs())


def epoch_is_current(store: Store, directory: Path) -> bool:
    """True when the store holds Epoch data imported from these very files.

    A store whose imports recorded no digest (imported before they did, or loaded otherwise) is current
    unless the folder's manifest dates a file later than every import of it the store records: such a
    store is not imported into again for the same snapshot (at 10M statements, minutes of work)."""
    if not has_epoch_data(store):
        return False
    digests = imported_sha256(store)
    if digests:
        return folder_sha256(directory) in digests
    newest: dict[str, str] = {}
    for record in list_imports(store):
        for f in record["files"]:
            if f.get("file") and f.get("snapshot"):
                newest[f["file"]] = max(newest.get(f["file"], ""), str(f["snapshot"]))
    if not newest:
        return True  # no import of aikg's put the Epoch data there: it is left as it is
    return all(newest.get(file, "") >= date for file, date in read_manifest(directory).items())


def bring_up_to_date(services: Services, *, epoch: bool = True) -> threading.Thread:
    """Start the thread that loads what this version ships and the store lacks (see the module)."""

    def run() -> None:
        try:
            gate = services.gate
            if isinstance(gate, Gate):
                found = refresh(gate)
                if found:
                    log.warning(
                        "aikg: the ontology, shapes and seeds shipped were loaded: %s", found.describe()
                    )
        except Exception:  # a failed refresh must not take the service down; the store is as it was
            log.exception("aikg: loading the ontology, shapes and seeds shipped failed")
        directory = default_directory()
        if not epoch or not directory.is_dir() or epoch_is_current(services.store, directory):
            return
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

    thread = threading.Thread(target=run, name="aikg-shipped-data", daemon=True)
    thread.start()
    return thread
