"""A CONSTRUCT answer handed to the embedded engine's bulk loader through a file, not as Python objects.

Read into Python, each triple of a first build's answers became a Triple and two Quads before the engine
took it back (the closure at 1M statements: ~170k triples, ~350k quads, a few seconds of Python). The
engine writes the answer as N-Triples itself, and its bulk loader reads that file into each graph named.

The bulk loader names the blank nodes of each file afresh, so an answer whose file names a blank node
(or seems to: the test is ``_:`` anywhere in it) is read back as Python terms instead, which keep the
node the answer is about, and written a chunk at a time.
"""

from __future__ import annotations

import itertools
import mmap
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pyoxigraph as ox

Write = Callable[..., object]
"""The store's engine call: ``write("bulk_load", ...)`` or ``write("bulk_extend", quads)``."""


def names_blank_node(path: Path) -> bool:
    """True when the N-Triples file may name a blank node (``_:`` in it; a literal may hold it too)."""
    if not path.stat().st_size:
        return False
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        return mapped.find(b"_:") >= 0  # read in place: no copy of the file in Python


def write_file(
    write: Write, path: Path, graphs: Sequence[ox.NamedNode | ox.DefaultGraph], chunk: int
) -> None:
    """The triples of the N-Triples file ``path`` added to each of ``graphs``, in bulk."""
    if not names_blank_node(path):
        for graph in graphs:
            write("bulk_load", path=str(path), format=ox.RdfFormat.N_TRIPLES, to_graph=graph)
        return
    for triples in _chunks(ox.parse(path=str(path), format=ox.RdfFormat.N_TRIPLES), chunk):
        write("bulk_extend", [ox.Quad(t.subject, t.predicate, t.object, g) for t in triples for g in graphs])


def _chunks(quads: Iterator[ox.Quad], size: int) -> Iterator[list[ox.Quad]]:
    while chunk := list(itertools.islice(quads, size)):
        yield chunk
