"""Rows in, triples out: the quads of one import, each remembering the CSV rows that produced it.

A quad produced by several rows (an organization named by many clusters) stays as long as one of
those rows is accepted, so rejecting a row never removes what other rows also say.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rdflib import Literal, URIRef
from rdflib.term import Identifier

RowKey = tuple[str, int]
"""(file name relative to the import directory, line number where the row starts)."""


def read_rows(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """The rows of a CSV file with the line each starts on (multi-line cells span several lines)."""
    with path.open(encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        start = 2
        for row in reader:
            yield start, {k: (v or "") for k, v in row.items() if k is not None}
            start = reader.line_num + 1


@dataclass
class Quads:
    """Every quad of an import with the rows behind it, and the rows behind each subject."""

    owners: dict[tuple[Identifier, URIRef, Identifier, str], set[RowKey]] = field(
        default_factory=lambda: defaultdict(set))
    subjects: dict[str, set[RowKey]] = field(default_factory=lambda: defaultdict(set))

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

    def accepted(self, rejected: set[RowKey]) -> list[tuple[Identifier, URIRef, Identifier, str]]:
        """The quads some accepted row still supports, in a stable order."""
        kept = [q for q, rows in self.owners.items() if rows - rejected]
        return sorted(kept, key=lambda q: (q[3], str(q[0]), str(q[1]), q[2].n3()))

    def rows_of(self, subject: str) -> set[RowKey]:
        """The rows that produced triples about a node."""
        return self.subjects.get(subject, set())
