"""A file's header against what aikg knows of it: columns read, columns left out on purpose, and the rest.

Epoch renames and adds columns between snapshots, and a hand-edited file may change a header's case
or spacing. A column aikg reads that the file lacks is warned about by name (its values are then
unknown for every row), and so is a column aikg has never seen; a header that differs from a known
one only in case, spacing or punctuation is read as that column, and said so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


def column_key(name: str) -> str:
    """A header compared loosely: lower case, runs of spaces and punctuation as one space."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", name.lower()).split())


@dataclass
class Header:
    """How a file's header lines up with the columns aikg reads and the ones it leaves out."""

    renamed: dict[str, str] = field(default_factory=dict)
    """Column as the file writes it -> the known column it is read as."""
    missing: list[str] = field(default_factory=list)
    """Columns aikg reads that the file does not have."""
    unknown: list[str] = field(default_factory=list)
    """Columns of the file aikg neither reads nor knows to leave out."""

    def warnings(self) -> list[str]:
        """Plain-language warnings, one per column."""
        out = [
            f"column {c!r} is read as {k!r} (same name up to case and punctuation)"
            for c, k in sorted(self.renamed.items())
        ]
        out += [
            f"column {c!r} is missing: its values are unknown for every row of this file"
            for c in self.missing
        ]
        out += [
            f"column {c!r} is not known to aikg and was not imported (renamed? see seeds/epoch/README.md)"
            for c in self.unknown
        ]
        return out


def check_header(columns: Iterable[str], reads: Iterable[str], ignores: Iterable[str]) -> Header:
    """Line up a file's columns with the known ones (see the module docstring)."""
    reads, ignores = list(reads), list(ignores)
    known = {column_key(c): c for c in [*ignores, *reads]}
    header = Header()
    present: set[str] = set()
    for col in columns:
        if col in known.values():
            present.add(col)
            continue
        target = known.get(column_key(col))
        if target is not None and target not in present:
            header.renamed[col] = target
            present.add(target)
        else:
            header.unknown.append(col)
    header.missing = [c for c in reads if c not in present]
    return header


def rename(row: Mapping[str, str], renamed: Mapping[str, str]) -> dict[str, str]:
    """A row with the loosely matched columns under their known names."""
    if not renamed:
        return dict(row)
    return {renamed.get(k, k): v for k, v in row.items()}
