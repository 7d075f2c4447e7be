"""Links between the rows of one file: a cluster's row names, by their names, the cluster that supersedes
it, the one it builds upon and the ones it may duplicate (Epoch's "Superseded by", "Builds Upon" and
"Possible Duplicate Of"). A name is resolved once every row of the file is mapped: to the one row of
the file with that name, else to the one cluster of the dataset as stored with that label. A name that
names none, or several ("Anonymized Chinese System"), or the row itself is reported and links nothing:
no cluster is made up for it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rdflib import URIRef

from aikg.epoch.values import normalize
from aikg.namespaces import AIKG

if TYPE_CHECKING:  # the context holds a RowNames: imported for the types only
    from aikg.epoch.context import Context, Row

CLUSTER_LINKS = (
    ("Superseded by", AIKG.supersededBy),
    ("Builds Upon", AIKG.buildsUpon),
    ("Possible Duplicate Of", AIKG.possibleDuplicateOf),
)
"""The columns of gpu_clusters.csv naming other clusters, and the property each link is written as."""


@dataclass(frozen=True)
class Pending:
    """A cell naming other rows, read once the whole file is mapped."""

    row: Row
    node: URIRef
    prop: URIRef
    column: str
    cell: str


@dataclass
class RowNames:
    """The names of one import's row nodes, and the cells naming other rows, per file."""

    named: dict[str, dict[str, set[URIRef]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(set))
    )
    """file -> name (compared loosely) -> the row nodes of that name."""
    pending: list[Pending] = field(default_factory=list)

    def name(self, row: Row, name: str, node: URIRef) -> None:
        """Say that ``row`` (mapped whole) describes ``node`` under ``name``."""
        self.named[row.file][normalize(name)].add(node)

    def link_later(self, row: Row, node: URIRef, prop: URIRef, column: str) -> None:
        """Keep the cell of ``column`` (names of other rows) to be linked as ``prop`` once all are named."""
        cell = row.text(column)
        if cell:
            self.pending.append(Pending(row, node, prop, column, cell))


def split_names(cell: str, known: set[str]) -> list[str]:
    """The names in a cell of several separated by commas, a comma inside a known name kept ("OpenAI/
    Microsoft Mt Pleasant, Wisconsin Phase 1" is one name): the longest run of pieces that is a name."""
    pieces = cell.split(",")
    out: list[str] = []
    i = 0
    while i < len(pieces):
        for j in range(len(pieces), i, -1):
            candidate = ",".join(pieces[i:j]).strip()
            if j == i + 1 or normalize(candidate) in known:
                if candidate:
                    out.append(candidate)
                i = j
                break
    return out


def link_rows(ctx: Context, stored: dict[str, dict[str, set[URIRef]]]) -> None:
    """Write every pending link whose names resolve, and report each name that does not.

    ``stored`` is, per file, the labels of the row nodes its dataset holds in the store (a partial or
    newer file names clusters only the store has)."""
    names = ctx.row_names
    for p in names.pending:
        mine = names.named.get(p.row.file, {})
        theirs = stored.get(p.row.file, {})
        for name in split_names(p.cell, set(mine) | set(theirs)):
            key = normalize(name)
            targets = mine.get(key) or theirs.get(key) or set()
            if len(targets) == 1 and p.node not in targets:
                ctx.quads.add(p.row.key, p.row.graph, p.node, p.prop, next(iter(targets)))
                continue
            why = (
                "names no cluster of this file or of the dataset"
                if not targets
                else "is this row's own cluster"
                if p.node in targets
                else f"names {len(targets)} clusters (told apart only by their values)"
            )
            p.row.problem("unreadable-value", p.column, name, f"{p.column}: {name!r} {why}: not linked")
