"""Whole-store validation when a writer process owns the store: one job there, read by every HTTP worker.

The writer runs the :class:`~aikg.knowledge.validation_job.ValidationJob` and writes its board (the last
report, what runs) to ``validation.json`` in the publication folder after every change, atomically. An
HTTP worker reads that file (re-read only when it changed) and answers from it for the snapshot it
reads; only when the board says nothing of that snapshot does it ask the writer to start, in the
background: gunicorn's dirty arbiter hands the writer one call at a time, so a call made on the request
thread would wait behind a running write. Reports are matched on the snapshot, not on the version
number alone, which starts again at each writer start.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
import time
from pathlib import Path

from aikg.knowledge.validation_job import Answer, Board, answer, queued
from aikg.store import Store

log = logging.getLogger(__name__)

BOARD = "validation.json"


def publish_board(folder: Path, board: Board) -> None:
    """Write ``board`` where HTTP workers read it (atomically: they see the old file or the new one)."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".validation-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(board.to_json(), fh)
    os.replace(tmp, folder / BOARD)


def withdraw_board(folder: Path) -> None:
    """Remove the board (the writer stops or starts again: its reports name snapshots of its own)."""
    (folder / BOARD).unlink(missing_ok=True)


class PublishedValidation:
    """An HTTP worker's view of the writer's validation job."""

    def __init__(self, folder: Path, store: Store, *, ask_timeout: float) -> None:
        self.folder, self.store, self.ask_timeout = folder, store, ask_timeout
        self._lock = threading.Lock()
        self._read: tuple[tuple[int, int], Board] | None = None
        self._asking = False

    def board(self) -> Board:
        """The writer's last published board (an empty one before the first)."""
        try:
            st = os.stat(self.folder / BOARD)
        except FileNotFoundError:
            return Board()
        stamp = (st.st_ino, st.st_mtime_ns)
        with self._lock:
            if self._read is not None and self._read[0] == stamp:
                return self._read[1]
        try:
            board = Board.from_json(json.loads((self.folder / BOARD).read_text(encoding="utf-8")))
        except (FileNotFoundError, ValueError, TypeError, KeyError):
            return Board()  # replaced or removed while read: the next request reads it again
        with self._lock:
            self._read = (stamp, board)
        return board

    def state(self) -> Answer:
        """The answer for the snapshot this worker reads; the writer is asked to compute it if need be."""
        snapshot = self.store.snapshot()
        assert snapshot is not None  # a reader's store is a snapshot
        board, now = self.board(), time.time()
        found = answer(board, snapshot.version, str(snapshot.path), now)
        if found is not None:
            return found
        self._ask()
        return queued(board, snapshot.version, now)

    def _ask(self) -> None:
        """Ask the writer, in the background, to compute the current version's report (one call at a time
        from this worker; the writer starts at most one computation whoever asks)."""
        with self._lock:
            if self._asking:
                return
            self._asking = True
        threading.Thread(target=self._call, name="aikg-validate-ask", daemon=True).start()

    def _call(self) -> None:
        from gunicorn.dirty.errors import DirtyError

        from aikg.serving.forward import _execute

        try:
            _execute("validate", timeout=self.ask_timeout)
        except (DirtyError, OSError) as exc:
            log.warning("the writer did not take the validation request: %s", type(exc).__name__)
        finally:
            with self._lock:
                self._asking = False

    def close(self) -> None:
        """Nothing runs here."""
