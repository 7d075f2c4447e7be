"""The snapshot date of each imported file: when its data was taken from Epoch AI.

Snapshots are ordered by it (an older one never overwrites a newer one's values), so where it comes from
matters. In order: the date the caller gives (``aikg import epoch --as-of``); the directory's
``snapshot.csv`` (``file,snapshot_date``; the shipped snapshot has one); a ``README.md`` beside the file or
at the top of the directory naming the snapshot's date ("a public snapshot dated 2026-03-06"); the
newest of the file's own ``Last modified`` dates (the file was taken on that day or later); else the
file's modification time, which for a copied or checked-out file is the day it was copied.

The last two are not a snapshot date, only a guess at one: a file dated by them may be the first of its
dataset, but it is never ordered against a dataset's stored snapshots unless its own ``Last modified``
dates are newer than all of them (then it is certainly newer). Otherwise the import stops and asks for
``--as-of``: an old file copied today would otherwise overwrite newer values.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from aikg.errors import BadRequest

MANIFEST = "snapshot.csv"
_README_DATE = re.compile(r"snapshot[^\n]*?(\d{4}-\d{2}-\d{2})", re.I)


@dataclass(frozen=True)
class Snapshot:
    """A file's snapshot date, where it came from, and whether it is a stated date or only a guess."""

    date: str
    basis: str
    stated: bool = True
    """False for the newest 'Last modified' date or the modification time (a lower bound or a guess)."""
    lower_bound: bool = False
    """True for the newest 'Last modified' date: the file was taken on that day or later."""


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


def readme_date(directory: Path, file: str) -> tuple[str, str] | None:
    """(date, README path) from the README beside ``file`` or at the top of ``directory``, when one names
    the snapshot's date."""
    for readme in (directory / Path(file).parent / "README.md", directory / "README.md"):
        if readme.is_file():
            m = _README_DATE.search(readme.read_text(encoding="utf-8", errors="replace"))
            if m:
                try:
                    return dt.date.fromisoformat(m.group(1)).isoformat(), readme.relative_to(
                        directory
                    ).as_posix()
                except ValueError:
                    continue
    return None


def newest_modified(cells: Iterable[str]) -> str | None:
    """The newest date of a file's ``Last modified`` column (``2025-12-16 02:09:49+00:00``), or None."""
    dates = [c.strip()[:10] for c in cells if re.match(r"^\d{4}-\d{2}-\d{2}", (c or "").strip())]
    return max(dates, default=None)


def snapshot_of(
    directory: Path,
    file: str,
    given: str | None,
    manifest: dict[str, str],
    *,
    modified: str | None = None,
    path: Path | None = None,
) -> Snapshot:
    """The snapshot date of one file of ``directory`` (``modified``: its newest 'Last modified' date;
    ``path``: where the file is, when not at ``file`` under ``directory``)."""
    if given:
        return Snapshot(parse_date(given, "--as-of"), "given on import (--as-of)")
    if file in manifest:
        return Snapshot(manifest[file], f"{MANIFEST} of the imported directory")
    found = readme_date(directory, file)
    if found is not None:
        return Snapshot(found[0], f"the snapshot date in {found[1]}")
    if modified:
        return Snapshot(
            modified,
            "the newest 'Last modified' date of the file (taken on that day or later; "
            "pass --as-of to set it)",
            stated=False,
            lower_bound=True,
        )
    mtime = (path or directory / file).stat().st_mtime
    return Snapshot(
        dt.datetime.fromtimestamp(mtime, dt.UTC).date().isoformat(),
        "the file's modification time (pass --as-of to set it)",
        stated=False,
    )


def check_order(file: str, snap: Snapshot, latest: str | None) -> None:
    """Refuse a file whose date is only a guess when it would be ordered against the dataset's stored
    snapshots (see the module docstring)."""
    if snap.stated or latest is None:
        return
    if snap.lower_bound and snap.date > latest:
        return
    raise BadRequest(
        f"{file}: its snapshot date is not known ({snap.basis.split(' (')[0]}: {snap.date}), and its dataset "
        f"already holds snapshots up to {latest}: an older file would overwrite newer values. Pass "
        "--as-of YYYY-MM-DD (the day the file was taken from Epoch AI); nothing was imported",
        errors=[{"file": file, "guessed": snap.date, "latest": latest}],
    )
