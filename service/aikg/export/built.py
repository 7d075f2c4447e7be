"""Whole-graph exports written to a file once per store version, in the background.

Writing the whole default graph as GraphML takes about 4 s of Python on an idle machine, near the
service's time limit: on a busy server the request ran past it and the browser showed a JSON error
instead of a file (GraphML 0 of 8 tries). So the whole graph is never written inside a request: the
first request starts a build on a thread of its own (no time limit: nothing waits on it but the file),
waits for it as long as its own time limit allows and otherwise answers 202 with how far the build
has come; the next request, or the same one retried, gets the file.

Files live in one folder per store lineage (``<tmp>/aikg-exports/<lineage>``), named by store version
and format, so the processes of one service (HTTP workers, views processes) share them: a build takes a
lock file, and whoever does not hold it waits for the file. A finished build removes the files of older
versions. A store only this process reads (in memory) gets a private temporary folder, removed with the
object.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from aikg.export import ExportOptions, export_format, run_export

if TYPE_CHECKING:
    from aikg.services import Services

log = logging.getLogger(__name__)

ROOT = Path(tempfile.gettempdir()) / "aikg-exports"
"""Where built exports are kept, one folder per store lineage."""


@dataclass(frozen=True)
class Ready:
    """The built file of a store version, and the name a download gets."""

    path: Path
    filename: str
    mime: str


@dataclass(frozen=True)
class Building:
    """A build under way: bytes written so far, seconds since it started, the format's name."""

    format: str
    written: int
    seconds: float


@dataclass(frozen=True)
class Failed:
    """The last build of this version and format failed; the message says why."""

    message: str


class BuiltExports:
    """The whole-graph exports of one service: started once per store version and format."""

    def __init__(self, root: Path = ROOT) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._threads: dict[tuple[str, int, str], threading.Thread] = {}
        self._failed: dict[tuple[str, int, str], str] = {}
        self._private: tempfile.TemporaryDirectory[str] | None = None

    def folder(self, services: Services) -> Path:
        """This service's folder: its store lineage's (made safe for a file name), else a private one."""
        lineage = services.store.lineage
        if lineage is not None:
            return self.root / re.sub(r"[^A-Za-z0-9._-]", "_", lineage)[:100]
        with self._lock:
            if self._private is None:
                self._private = tempfile.TemporaryDirectory(prefix="aikg-exports-")
            return Path(self._private.name)

    def ready(self, services: Services, format_name: str) -> Ready | None:
        """The built file of the store's current version, if it is there (nothing is started)."""
        fmt = export_format(format_name)
        target = self.folder(services) / f"v{services.store.version}.{fmt.name}"
        return Ready(target, f"aikg.{fmt.extension}", fmt.mime) if target.is_file() else None

    def building(self, services: Services, format_name: str) -> Building | None:
        """How far the build of the current version has come when a process is writing it now (its lock
        is held), else None; nothing is started."""
        fmt = export_format(format_name)
        target = self.folder(services) / f"v{services.store.version}.{fmt.name}"
        try:
            with open(_lockfile(target), "rb") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    started = _mtime(_lockfile(target))
                    return Building(fmt.name, _size(_part(target)), max(0.0, time.time() - started))
                fcntl.flock(lock, fcntl.LOCK_UN)
        except OSError:
            return None
        return None

    def state(self, services: Services, format_name: str) -> Ready | Building | Failed:
        """The file of the store's current version, or how its build is going (started if need be)."""
        fmt = export_format(format_name)
        version = services.store.version
        folder = self.folder(services)
        target = folder / f"v{version}.{fmt.name}"
        filename = f"aikg.{fmt.extension}"
        if target.is_file():
            return Ready(target, filename, fmt.mime)
        key = (services.token, version, fmt.name)
        with self._lock:
            if key in self._failed:
                return Failed(self._failed[key])
            thread = self._threads.get(key)
            if thread is None or not thread.is_alive():
                if target.is_file():
                    return Ready(target, filename, fmt.mime)
                thread = threading.Thread(
                    target=self._build,
                    args=(services, fmt.name, version, target, key),
                    name=f"aikg-export-{fmt.name}",
                    daemon=True,
                )
                self._threads[key] = thread
                thread.start()
        part = _part(target)
        started = _mtime(_lockfile(target))
        return Building(fmt.name, _size(part), max(0.0, time.time() - started) if started else 0.0)

    def wait(self, services: Services, format_name: str, seconds: float) -> Ready | Building | Failed:
        """:meth:`state`, waiting up to ``seconds`` for the file."""
        end = time.monotonic() + max(0.0, seconds)
        while True:
            now = self.state(services, format_name)
            if not isinstance(now, Building) or time.monotonic() >= end:
                return now
            time.sleep(min(0.2, max(0.0, end - time.monotonic())))

    def _build(
        self, services: Services, format_name: str, version: int, target: Path, key: tuple[str, int, str]
    ) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(_lockfile(target), "a+b") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                # Another process builds it: wait for its lock (then the file is there, or it failed
                # there and this process tries once).
                fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if target.is_file():
                    return
                os.utime(_lockfile(target))
                if services.store.version != version:
                    return  # a write came first: the next request builds the new version
                part = _part(target)
                with open(part, "wb") as out:
                    for chunk in run_export(services, format_name, ExportOptions()).chunks:
                        out.write(chunk)
                if services.store.version != version:
                    part.unlink(missing_ok=True)  # not this version's any more: never served as it
                    return
                part.replace(target)
                self._forget_older(target.parent, version)
            except Exception as exc:  # noqa: BLE001 - a failed build is reported to its requests
                log.exception("building the whole-graph %s export failed", format_name)
                with self._lock:
                    self._failed[key] = f"building the whole-graph {format_name} export failed: {exc}"
                _part(target).unlink(missing_ok=True)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    @staticmethod
    def _forget_older(folder: Path, version: int) -> None:
        """Remove the built files (and their leftovers) of versions before ``version``."""
        for path in folder.iterdir():
            m = re.match(r"^v(\d+)\.", path.name)
            if m and int(m.group(1)) < version:
                with contextlib.suppress(OSError):
                    path.unlink()


def _part(target: Path) -> Path:
    return target.with_name(target.name + ".part")


def _lockfile(target: Path) -> Path:
    return target.with_name(target.name + ".lock")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
