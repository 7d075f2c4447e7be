"""Reading aikg's own curated CSV files beside Epoch's (``seeds/epoch/overrides.csv``, ``names.csv``).

They share one form, so one reader: lines starting with ``#`` and blank lines are comments, the first
other line is the header and must be exactly the file's columns, short rows are padded with empty cells,
and every cell is stripped. A malformed file stops the import with its line number (BadRequest): a
decision file that cannot be read must not be half applied. What each row means is checked by the
file's own module.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import NamedTuple

from aikg.errors import BadRequest

KINDS = ("organization", "model", "accelerator", "datacenter", "training-run")
"""The kinds of entity a curated row can name (a training run is named by its model's name)."""


class Row(NamedTuple):
    """One data row: its line number, how errors name it ("names.csv line 7") and its cells."""

    line: int
    where: str
    cells: list[str]


def curated_rows(path: Path | None, columns: tuple[str, ...]) -> list[Row]:
    """The data rows of ``path``, each with ``len(columns)`` cells; nothing when the file is absent or
    holds only comments; BadRequest when the header is not ``columns``."""
    if path is None or not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as f:
        lines = [
            (n, line) for n, line in enumerate(f, 1) if line.strip() and not line.lstrip().startswith("#")
        ]
    if not lines:
        return []
    reader = csv.reader([line for _, line in lines])
    header = [c.strip() for c in next(reader)]
    if tuple(header) != columns:
        raise BadRequest(
            f"{path.name} line {lines[0][0]}: the header must be {','.join(columns)}, not {','.join(header)}"
        )
    out = []
    for (number, _), cells in zip(lines[1:], reader, strict=True):
        cells = [c.strip() for c in cells] + [""] * (len(columns) - len(cells))
        out.append(Row(number, f"{path.name} line {number}", cells[: len(columns)]))
    return out


def check_kind(kind: str, where: str) -> None:
    """BadRequest naming ``where`` unless ``kind`` is one of :data:`KINDS`."""
    if kind not in KINDS:
        raise BadRequest(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
