"""A file's header against what aikg knows of it: columns read, columns left out on purpose, the other
spellings Epoch used for them, and the rest.

Epoch renames and adds columns between releases, and a hand-edited file may change a header's case or
spacing. A header is read as a known column when it is one of that column's spellings in the table of
known spellings (``seeds/epoch/columns.csv``: only spellings seen in real releases) or when it differs
from it only in case, spacing or punctuation; the report says which. A column aikg reads that the file
lacks keeps, for every row, the values the store has (marked as not restated by this file). An unknown
header that *resembles* a known column the file lacks is not read on a guess: it is proposed as a
mapping in the report, and the import waits for a decision (``--map`` to accept, ``--force`` to go on
without it), since the file's values in it would otherwise be left out.
"""

from __future__ import annotations

import csv
import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from aikg.errors import BadRequest
from aikg.resources import seeds_dir

SPELLINGS_FILE = "columns.csv"
RESEMBLANCE = 0.75
"""How alike (0-1) an unknown header and a known column must be for the header to be proposed as that
column: difflib's ratio of the loose keys ("Organisation" / "Organization" 0.92, "Training compute cost
(2024 USD)" / "... (2023 USD)" 0.97, "Release price (USD)" / "Release date" 0.62), or 0.8 when every word
of one (two words at least, plurals folded) is a word of the other ("Memory size (bytes)" / "Memory size
per board (Byte)")."""


def column_key(name: str) -> str:
    """A header compared loosely: lower case, runs of spaces and punctuation as one space."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", name.lower()).split())


@dataclass(frozen=True)
class Spelling:
    """One line of the table of known spellings."""

    file: str
    """A dataset file, or a folder (ending in /) meaning every file in it."""
    column: str
    spelling: str
    seen_in: str
    line: int

    def applies_to(self, path: str) -> bool:
        """Whether this spelling is one of ``path``'s."""
        return path == self.file or (self.file.endswith("/") and path.startswith(self.file))


def default_spellings() -> Path:
    """The table shipped with the snapshot."""
    return seeds_dir() / "epoch" / SPELLINGS_FILE


@lru_cache(maxsize=4)
def read_spellings(path: Path | None = None) -> tuple[Spelling, ...]:
    """The table of known spellings (``file,column,spelling,seen_in``; ``#`` lines are comments)."""
    path = path or default_spellings()
    if not path.is_file():
        return ()
    with path.open(encoding="utf-8", newline="") as f:
        lines = [
            (n, text) for n, text in enumerate(f, 1) if text.strip() and not text.lstrip().startswith("#")
        ]
    rows = list(csv.reader(text for _, text in lines))
    if not rows or [c.strip() for c in rows[0]] != ["file", "column", "spelling", "seen_in"]:
        raise BadRequest(f"{path.name}: the header must be file,column,spelling,seen_in")
    out = []
    for (number, _), cells in zip(lines[1:], rows[1:], strict=True):
        cells = [c.strip() for c in cells] + [""] * 4
        if not all(cells[:4]):
            raise BadRequest(
                f"{path.name} line {number}: file, column, spelling and seen_in are all required"
            )
        out.append(Spelling(cells[0], cells[1], cells[2], cells[3], number))
    return tuple(out)


@dataclass(frozen=True)
class Proposal:
    """An unknown header that resembles a known column the file lacks: a mapping for a person to accept."""

    header: str
    column: str
    similarity: float
    named_alike: bool = True
    """False when the names are not alike: the file lacks one column aikg reads and has one header aikg
    does not know, the shape of a rename whatever the new name ("TDP (W)" written "TDP (Watts)" is 0.71
    alike, under :data:`RESEMBLANCE`), so its values are not left out unless a person says so."""

    def text(self) -> str:
        """The proposal in words, with how to accept it."""
        if not self.named_alike:
            return (
                f"column {self.header!r} is not known to aikg, and {self.column!r}, which aikg reads, is "
                f"missing from this file: if it is that column renamed, accept with --map "
                f"'{self.header}={self.column}'; else pass --force to import without it (its values are "
                "not read; the stored values of the missing column stay, marked as not restated)"
            )
        return (
            f"column {self.header!r} looks like {self.column!r} (similarity {self.similarity:.2f}), which "
            f"this file lacks: its values were not read. Accept with --map '{self.header}={self.column}', "
            "or pass --force to import without them (the stored values stay, marked as not restated)"
        )


@dataclass
class Header:
    """How a file's header lines up with the columns aikg reads and the ones it leaves out."""

    renamed: dict[str, str] = field(default_factory=dict)
    """Column as the file writes it -> the known column it is read as."""
    why: dict[str, str] = field(default_factory=dict)
    """Column as the file writes it -> why it is read as its known column."""
    missing: list[str] = field(default_factory=list)
    """Columns aikg reads that the file does not have."""
    unknown: list[str] = field(default_factory=list)
    """Columns of the file aikg neither reads nor knows to leave out."""
    proposals: list[Proposal] = field(default_factory=list)
    """Unknown columns that resemble a missing known one (not read until a person decides)."""

    def warnings(self) -> list[str]:
        """Plain-language warnings, one per column."""
        out = [f"column {c!r} is read as {k!r} ({self.why[c]})" for c, k in sorted(self.renamed.items())]
        proposed = {p.header: p for p in self.proposals}
        out += [
            f"column {c!r} is missing: the values the store has for it are kept, marked as not restated "
            "by this file"
            for c in self.missing
        ]
        out += [proposed[c].text() for c in self.unknown if c in proposed]
        out += [
            f"column {c!r} is not known to aikg and was not imported (see seeds/epoch/columns.csv)"
            for c in self.unknown
            if c not in proposed
        ]
        return out


def check_header(
    columns: Iterable[str],
    reads: Iterable[str],
    ignores: Iterable[str],
    *,
    path: str = "",
    spellings: Iterable[Spelling] = (),
    mapped: Mapping[str, str] | None = None,
) -> Header:
    """Line up a file's columns with the known ones (see the module docstring). ``mapped``: header ->
    known column, mappings a person accepted for this import (``--map``)."""
    reads, ignores = list(reads), list(ignores)
    known_names = [*ignores, *reads]
    known = {column_key(c): c for c in known_names}
    aliases = {s.spelling: s for s in spellings if s.applies_to(path) and s.column in known_names}
    loose_aliases = {column_key(s): a for s, a in aliases.items()}
    accepted = dict(mapped or {})
    header = Header()
    present: set[str] = set()
    columns = list(columns)
    for col in columns:
        if col in known_names:
            present.add(col)
    for col in columns:
        if col in present:
            continue
        target, why = None, ""
        if col in accepted and accepted[col] in known_names:
            target, why = accepted[col], "mapping given with --map"
        elif col in aliases or column_key(col) in loose_aliases:
            spelling = aliases.get(col) or loose_aliases[column_key(col)]
            target = spelling.column
            why = f"a known spelling of it: {SPELLINGS_FILE} line {spelling.line}, seen in {spelling.seen_in}"
        elif column_key(col) in known:
            target, why = known[column_key(col)], "same name up to case and punctuation"
        if target is not None and target not in present:
            header.renamed[col] = target
            header.why[col] = why
            present.add(target)
        else:
            header.unknown.append(col)
    header.missing = [c for c in reads if c not in present]
    absent = [c for c in known_names if c not in present]
    for col in header.unknown:
        best = _resembling(col, absent)
        if best is not None:
            header.proposals.append(Proposal(col, *best))
    # One read column gone and one named header come, however unlike their names: a rename, or a new
    # column beside a dropped one; a person says which (--map or --force). With more on either side no
    # pairing stands out (Epoch's data-center release of 2026-07 dropped "Title" and added eight).
    gone = [c for c in header.missing if c not in {p.column for p in header.proposals}]
    come = [c for c in header.unknown if c.strip() and c not in {p.header for p in header.proposals}]
    if len(gone) == 1 and len(come) == 1:
        score = _similarity(column_key(come[0]), column_key(gone[0]))
        header.proposals.append(Proposal(come[0], gone[0], round(score, 2), named_alike=False))
    return header


def _resembling(header: str, absent: list[str]) -> tuple[str, float] | None:
    """The known column ``header`` resembles most, when alike enough, or None."""
    key = column_key(header)
    scored = [(_similarity(key, column_key(c)), c) for c in absent]
    scored = [(s, c) for s, c in scored if s >= RESEMBLANCE]
    if not scored:
        return None
    score, column = max(scored, key=lambda sc: (sc[0], sc[1]))
    return column, round(score, 2)


def _similarity(a: str, b: str) -> float:
    ratio = difflib.SequenceMatcher(None, a, b).ratio()
    words = [{w.removesuffix("s") if len(w) > 3 else w for w in k.split()} for k in (a, b)]
    small, large = sorted(words, key=len)
    return max(ratio, 0.8) if len(small) >= 2 and small <= large else ratio


def parse_mappings(given: Iterable[str]) -> dict[str, str]:
    """``--map 'HEADER=COLUMN'`` values as {header: column}; BadRequest on a value without '='."""
    out = {}
    for text in given:
        header, sep, column = text.partition("=")
        if not sep or not header.strip() or not column.strip():
            raise BadRequest(f"--map {text!r}: write it as 'HEADER=KNOWN COLUMN'")
        out[header.strip()] = column.strip()
    return out


def rename(row: Mapping[str, str], renamed: Mapping[str, str]) -> dict[str, str]:
    """A row with the matched columns under their known names."""
    if not renamed:
        return dict(row)
    return {renamed.get(k, k): v for k, v in row.items()}
