"""Rows in, triples out: the quads of one import, each remembering the CSV rows that produced it.

A quad produced by several rows (an organization named by many clusters) stays as long as one of
those rows is accepted, so rejecting a row never removes what other rows also say. Each row also
names the node(s) it describes (its *own* nodes: the cluster, the training run and its model, the
chip): a partial file updates exactly those nodes of the dataset.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import Literal, URIRef
from rdflib.term import Identifier

from aikg.errors import BadRequest

RowKey = tuple[str, int]
"""(file name relative to the import directory, line number where the row starts)."""

Quad = tuple[Identifier, URIRef, Identifier, str]


def read_table(path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """The header and the rows of a CSV file, each row with the line it starts on (multi-line cells
    span several lines). A file that is not UTF-8 CSV is a BadRequest naming the file."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as f:
            reader = csv.DictReader(f)
            columns = [c.strip() for c in (reader.fieldnames or [])]
            reader.fieldnames = columns
            rows: list[tuple[int, dict[str, str]]] = []
            start = 2
            for row in reader:
                rows.append((start, {k: (v or "") for k, v in row.items() if k is not None and k != ""}))
                start = reader.line_num + 1
    except (UnicodeDecodeError, csv.Error) as exc:
        raise BadRequest(f"{path.name} is not a readable UTF-8 CSV file: {exc}") from None
    return columns, rows


def read_rows(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """The rows of a CSV file with the line each starts on."""
    yield from read_table(path)[1]


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
