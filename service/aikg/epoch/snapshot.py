"""The snapshot date of each imported file: when its data was taken from Epoch AI.

In order: the date the caller gives (``aikg import epoch --snapshot-date``), the directory's
``snapshot.csv`` (``file,snapshot_date``; the shipped snapshot has one), else the file's modification
time, which for a hand-downloaded file is the day it was downloaded. Where the date came from is
reported, and a file with rows dated after its snapshot date is warned about: its date is too early.
"""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from aikg.errors import BadRequest

MANIFEST = "snapshot.csv"


@dataclass(frozen=True)
class Snapshot:
    """A file's snapshot date and where it came from."""

    date: str
    basis: str


def parse_date(text: str, where: str) -> str:
    """An ISO date (YYYY-MM-DD), or BadRequest saying where the bad one is."""
    try:
        return dt.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise BadRequest(f"{where}: {text!r} is not a date (YYYY-MM-DD)") from None


def read_manifest(directory: Path) -> dict[str, str]:
    """``snapshot.csv`` of a directory as {file: date}; empty when there is none."""
    path = directory / MANIFEST
    if not path.is_file():
        return {}
    out = {}
    with path.open(encoding="utf-8", newline="") as f:
        for n, row in enumerate(csv.DictReader(line for line in f if not line.lstrip().startswith("#")), 2):
            file, date = (row.get("file") or "").strip(), (row.get("snapshot_date") or "").strip()
            if file and date:
                out[file] = parse_date(date, f"{path.name} line {n}")
    return out


def snapshot_of(directory: Path, file: str, given: str | None, manifest: dict[str, str]) -> Snapshot:
    """The snapshot date of one file of ``directory``."""
    if given:
        return Snapshot(parse_date(given, "--snapshot-date"), "given on import")
    if file in manifest:
        return Snapshot(manifest[file], f"{MANIFEST} of the imported directory")
    mtime = (directory / file).stat().st_mtime
    return Snapshot(
        dt.datetime.fromtimestamp(mtime, dt.UTC).date().isoformat(),
        "the file's modification time (pass --snapshot-date to set it)",
    )
