"""Rows in, triples out: the quads of one import, each remembering the CSV rows that produced it.

A quad produced by several rows (an organization named by many clusters) stays as long as one of
those rows is accepted, so rejecting a row never removes what other rows also say. Each row also
names the node(s) it describes (its *own* nodes: the cluster, the training run and its model, the
chip): a partial file updates exactly those nodes of the dataset.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rdflib import Literal, URIRef
from rdflib.term import Identifier

from aikg.errors import BadRequest

RowKey = tuple[str, int]
"""(file name relative to the import directory, line number where the row starts)."""

Quad = tuple[Identifier, URIRef, Identifier, str]


CELL_LIMIT = 16 * 1024 * 1024
"""Characters one cell may hold. Python's csv module stops at 131,072 by default, and then the whole file
was refused as "not a readable CSV file", though a long hand-written note is still a cell."""


@dataclass
class Table:
    """A CSV file read: its header, its rows (each with the line it starts on; multi-line cells span
    several lines) and the rows whose number of cells is not the header's, which are not read (their
    cells would land in the wrong columns)."""

    columns: list[str]
    rows: list[tuple[int, dict[str, str]]]
    misshapen: list[tuple[int, str]] = field(default_factory=list)
    """(line, why) of each row left out."""


def read_table(path: Path) -> Table:
    """The header and the rows of a CSV file. A file that is not UTF-8 CSV is a BadRequest naming the
    file and the line."""
    if csv.field_size_limit() < CELL_LIMIT:
        csv.field_size_limit(CELL_LIMIT)  # the csv module's own setting, for the whole process
    line = 1
    try:
        with path.open(encoding="utf-8-sig", newline="") as f:
            reader = csv.DictReader(f)
            columns = [c.strip() for c in (reader.fieldnames or [])]
            reader.fieldnames = columns
            table = Table(columns, [])
            start = 2
            for row in reader:
                line = reader.line_num
                why = _misshapen(row, len(columns))
                if why:
                    table.misshapen.append((start, why))
                else:
                    # A line break inside a cell is "\n" whatever the file's line endings (a file
                    # saved with CRLF rewrote every multi-line note).
                    cells = {
                        k: (v or "").replace("\r\n", "\n")
                        for k, v in row.items()
                        if k is not None and k != ""
                    }
                    table.rows.append((start, cells))
                start = reader.line_num + 1
    except (UnicodeDecodeError, csv.Error) as exc:
        raise BadRequest(
            f"{path.name} is not a readable UTF-8 CSV file (near line {line + 1}): {exc}"
        ) from None
    return table


def _misshapen(row: dict[str | None, Any], width: int) -> str | None:
    """Why a row's cells do not match the header, or None. Extra empty cells (a trailing comma) are
    harmless; extra values or missing cells shift or lose what the row says."""
    extra = row.get(None) or []
    missing = sum(1 for k, v in row.items() if k is not None and v is None)
    if not missing and not any(c.strip() for c in extra):
        return None
    cells = width + len(extra) - missing
    return f"the row has {cells} cells and the header {width}: left out, as its cells would shift"


@dataclass
class Quads:
    """Every quad of an import with the rows behind it, the rows behind each subject, and each row's
    own nodes."""

    owners: dict[Quad, set[RowKey]] = field(default_factory=lambda: defaultdict(set))
    subjects: dict[str, set[RowKey]] = field(default_factory=lambda: defaultdict(set))
    own: dict[RowKey, set[URIRef]] = field(default_factory=lambda: defaultdict(set))

    def add(self, row: RowKey, graph: str, s: URIRef, p: URIRef, o: Identifier | None) -> None:
        """Record one triple of ``row`` in ``graph`` (a None object means: unknown, nothing to say)."""
        if o is None:
            return
        self.owners[(s, p, o, graph)].add(row)
        self.subjects[str(s)].add(row)

    def text(self, row: RowKey, graph: str, s: URIRef, p: URIRef, value: str | None) -> None:
        """Record a plain-string triple when the value is not empty."""
        if value:
            self.add(row, graph, s, p, Literal(value))

    def owns(self, row: RowKey, node: URIRef) -> None:
        """Say that ``row`` describes ``node`` (its figures come from this row of this file)."""
        self.own[row].add(node)

    def accepted(self, rejected: set[RowKey]) -> list[Quad]:
        """The quads some accepted row still supports, in a stable order."""
        kept = [q for q, rows in self.owners.items() if rows - rejected]
        return sorted(kept, key=lambda q: (q[3], str(q[0]), str(q[1]), q[2].n3()))

    def rows_of(self, subject: str) -> set[RowKey]:
        """The rows that produced triples about a node."""
        return self.subjects.get(subject, set())

    def owned(self, file: str, rejected: set[RowKey]) -> set[URIRef]:
        """The nodes the accepted rows of one file describe."""
        return {n for row, nodes in self.own.items() if row[0] == file and row not in rejected for n in nodes}

    def rename(self, renamed: dict[str, str]) -> None:
        """Give nodes other ids (a row matched to a stored node), wherever they are subject or object."""
        if not renamed:
            return
        to: dict[Identifier, URIRef] = {URIRef(a): URIRef(b) for a, b in renamed.items()}
        owners: dict[Quad, set[RowKey]] = defaultdict(set)
        for (s, p, o, g), rows in self.owners.items():
            owners[(to.get(s, s), p, to.get(o, o), g)] |= rows
        self.owners = owners
        subjects: dict[str, set[RowKey]] = defaultdict(set)
        for subject, rows in self.subjects.items():
            subjects[renamed.get(subject, subject)] |= rows
        self.subjects = subjects
        for row, nodes in self.own.items():
            self.own[row] = {to.get(n, n) for n in nodes}
