"""Kept rows in bands of their order (issue 49: a page of a kept answer is a range read).

A maintained query's rows (:mod:`aikg.knowledge.answers`) are kept as lines of SPARQL TSV in *bands*:
runs of consecutive lines in the query's order (:func:`aikg.query.maintained.ordered`: its ORDER BY,
ties by the line's text), one literal each, with the band's line count, its first line and its *rank*,
a short string whose order is the bands' order. A request reads every band's rank and count (small
values, no line) and then the lines of the bands its page falls in (:func:`aikg.query.maintained.read_page`):
at 10M, speedup-claims' first page read all 23,034 lines and sorted them (2-3 s through the app); it
now reads 4-5 bands. Rows a request's parameters select (``include``, ``accelerator``) are a
*partition* with bands of its own.

Each row stays a node (named by its line's digest, with its root and parameters as columns, as a write
finds the rows it changes) and says which band holds its line. A write takes its rows' lines out of
their bands and puts its new lines in the band of the last first line before each (the first band when
none is before it), rewriting those bands only; a band past :data:`SPLIT_LINES` is split into bands of
:data:`BAND_LINES`, the new ones ranked between it and the next (:func:`rank_between`: ranks never run
out, so no band is renamed), and an emptied band is removed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import pyoxigraph as ox

from aikg.namespaces import ANSWERS_GRAPH
from aikg.query import maintained
from aikg.query.named import NamedQuery
from aikg.rdf.results import StoredTerm
from aikg.store import Store

BAND_LINES = 256
"""Lines of a band as built: a page of 1,000 rows reads 4-5 bands, a write rewrites one of a few hundred
lines (speedup-claims' lines are ~700 bytes: ~180 KB)."""
SPLIT_LINES = 512
"""A band a write leaves with more lines than this is split into bands of :data:`BAND_LINES`."""

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
"""The digits of a rank: a fraction in base 36, written without its trailing zeros, so that ranks
compare as strings as they compare as numbers."""

Partition = tuple[ox.Literal | None, ...]
"""The values of a query's parameter columns (:func:`aikg.query.maintained.parameters`) a row has."""


def rank_between(low: str, high: str | None) -> str:
    """A rank after ``low`` ('' is before every rank) and before ``high`` (None: after every rank)."""
    base, out = len(ALPHABET), []
    for i in range(len(low) + len(high or "") + 1):
        a = ALPHABET.index(low[i]) if i < len(low) else 0
        b = base if high is None else ALPHABET.index(high[i]) if i < len(high) else 0
        if a == b:
            out.append(ALPHABET[a])
        elif b - a > 1:
            return "".join(out) + ALPHABET[(a + b) // 2]
        else:  # adjacent digits: keep low's, then anything after the rest of low
            return "".join(out) + ALPHABET[a] + rank_between(low[i + 1 :], None)
    raise ValueError(f"no rank between {low!r} and {high!r}")


def first_ranks(n: int) -> list[str]:
    """``n`` ranks spread evenly, as a build gives its bands (gaps for the bands writes split off)."""
    width = 1
    while len(ALPHABET) ** width < 2 * (n + 1):
        width += 1
    step = len(ALPHABET) ** width // (n + 1)
    return [_digits((i + 1) * step, width).rstrip("0") for i in range(n)]


def _digits(value: int, width: int) -> str:
    out = []
    for _ in range(width):
        value, d = divmod(value, len(ALPHABET))
        out.append(ALPHABET[d])
    return "".join(reversed(out))


def row_node(q: NamedQuery, line: str) -> ox.NamedNode:
    """A kept row: named by its line, so a row a write leaves as it was is neither removed nor added."""
    return ox.NamedNode(maintained.row_prefix(q.name) + hashlib.sha256(line.encode()).hexdigest()[:32])


def _partition_digest(partition: Partition) -> str:
    text = "\t".join("" if v is None else str(v) for v in partition)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def band_node(q: NamedQuery, partition: Partition, rank: str) -> ox.NamedNode:
    """A band: named by its partition and its rank (unique in the partition while the band is there)."""
    return ox.NamedNode(f"{maintained.band_prefix(q.name)}{_partition_digest(partition)}.{rank}")


class Rows:
    """Rows of one query as computed by its text: each one's line, partition and kept columns."""

    def __init__(
        self, q: NamedQuery, variables: Sequence[str], rows: Iterable[Sequence[StoredTerm | None]]
    ) -> None:
        self.q = q
        kept = maintained.kept_columns(q)
        at = {v: i for i, v in enumerate(variables)}
        self.columns = [(at[v], maintained.column(v)) for v in kept if v in at]
        parts = [at.get(v) for v in maintained.parameters(q)]
        self.lines: dict[ox.NamedNode, str] = {}
        self.partition: dict[ox.NamedNode, Partition] = {}
        self.cells: dict[ox.NamedNode, list[ox.Triple]] = {}
        for row in rows:
            text = maintained.line(row)
            name = row_node(q, text)
            self.lines[name] = text
            self.partition[name] = tuple(
                None if i is None or (t := row[i]) is None else maintained.kept_value(t) for i in parts
            )
            self.cells[name] = [
                ox.Triple(name, c, maintained.kept_value(t))
                for i, c in self.columns
                if (t := row[i]) is not None
            ]

    def triples(self, name: ox.NamedNode, band: ox.NamedNode) -> list[ox.Triple]:
        """A row's statements: its query, its kept columns, its band."""
        return [
            ox.Triple(name, maintained.OF, maintained.query_node(self.q.name)),
            *self.cells[name],
            ox.Triple(name, maintained.BAND, band),
        ]


def band_triples(
    q: NamedQuery, band: ox.NamedNode, rank: str, partition: Partition, lines: Sequence[str]
) -> list[ox.Triple]:
    """A band's statements: its query, rank, line count, first line, lines and partition."""
    out = [
        ox.Triple(band, maintained.OF, maintained.query_node(q.name)),
        ox.Triple(band, maintained.rank_predicate(q.name), ox.Literal(rank)),
        ox.Triple(band, maintained.COUNT, ox.Literal(len(lines))),
        ox.Triple(band, maintained.HEAD, ox.Literal(lines[0])),
        ox.Triple(band, maintained.LINES, ox.Literal("\n".join(lines))),
    ]
    out += [
        ox.Triple(band, maintained.part(v), value)
        for v, value in zip(maintained.parameters(q), partition, strict=True)
        if value is not None
    ]
    return out


def _chunks(lines: Sequence[str], size: int) -> list[Sequence[str]]:
    return [lines[i : i + size] for i in range(0, len(lines), size)]


def built(rows: Rows) -> set[ox.Triple]:
    """The answers graph's triples of a whole answer: its rows and their bands, partition by partition."""
    q, out = rows.q, set()
    by_partition: dict[Partition, list[str]] = {}
    for name, text in rows.lines.items():
        by_partition.setdefault(rows.partition[name], []).append(text)
    for partition, lines in by_partition.items():
        chunks = _chunks(maintained.ordered(q, lines), BAND_LINES)
        for rank, chunk in zip(first_ranks(len(chunks)), chunks, strict=True):
            band = band_node(q, partition, rank)
            out.update(band_triples(q, band, rank, partition, chunk))
            for text in chunk:
                out.update(rows.triples(row_node(q, text), band))
    return out


def followed(store: Store, old: set[ox.NamedNode], fresh: Rows) -> tuple[set[ox.Triple], set[ox.Triple]]:
    """What follows a write that leaves ``fresh`` as the rows of roots whose kept rows were ``old``:
    triples to remove and to add (rows and bands; unchanged rows are neither)."""
    q, graph = fresh.q, str(ANSWERS_GRAPH)
    gone = old - fresh.lines.keys()
    new = fresh.lines.keys() - old
    if not gone and not new:
        return set(), set()
    removed = {t.triple for t in store.outgoing(gone, graph=graph)} if gone else set()
    leaving: dict[ox.NamedNode, set[ox.NamedNode]] = {}
    for t in removed:
        if (
            t.predicate == maintained.BAND
            and isinstance(t.object, ox.NamedNode)
            and isinstance(t.subject, ox.NamedNode)
        ):
            leaving.setdefault(t.object, set()).add(t.subject)
    added: set[ox.Triple] = set()
    ranks = _Ranks(store, q)
    arriving: dict[ox.NamedNode, list[str]] = {}
    by_partition: dict[Partition, list[str]] = {}
    for name in new:
        by_partition.setdefault(fresh.partition[name], []).append(fresh.lines[name])
    for partition, lines in by_partition.items():
        bands = ranks.of(partition)
        if not bands:  # the partition's first rows: bands of their own
            chunks = _chunks(maintained.ordered(q, lines), BAND_LINES)
            for rank, chunk in zip(first_ranks(len(chunks)), chunks, strict=True):
                band = band_node(q, partition, rank)
                added.update(band_triples(q, band, rank, partition, chunk))
                added.update(t for text in chunk for t in fresh.triples(row_node(q, text), band))
            continue
        for band, placed in _placed(store, q, bands, lines).items():
            arriving.setdefault(band, []).extend(placed)
    for band in leaving.keys() | arriving.keys():
        before, after = _rewritten(
            store, ranks, band, leaving.get(band, set()), arriving.get(band, []), fresh, new
        )
        removed |= before
        added |= after
    return removed, added


class _Ranks:
    """A query's bands and their ranks, read once per write, by partition."""

    def __init__(self, store: Store, q: NamedQuery) -> None:
        self.q, self._all = (
            q,
            [
                (b.subject, b.object.value)
                for b in store.quads(None, maintained.rank_predicate(q.name), None, str(ANSWERS_GRAPH))
                if isinstance(b.subject, ox.NamedNode) and isinstance(b.object, ox.Literal)
            ],
        )

    def of(self, partition: Partition) -> list[tuple[ox.NamedNode, str]]:
        """The partition's bands in rank order."""
        prefix = f"{maintained.band_prefix(self.q.name)}{_partition_digest(partition)}."
        return sorted(((b, r) for b, r in self._all if b.value.startswith(prefix)), key=lambda b: b[1])

    def after(self, band: ox.NamedNode) -> str | None:
        """The rank of the band after ``band`` in its partition (None: it is the last)."""
        prefix = band.value.rsplit(".", 1)[0] + "."
        rank = next(r for b, r in self._all if b == band)
        later = [r for b, r in self._all if b.value.startswith(prefix) and r > rank]
        return min(later) if later else None


def _placed(
    store: Store, q: NamedQuery, bands: list[tuple[ox.NamedNode, str]], lines: list[str]
) -> dict[ox.NamedNode, list[str]]:
    """New lines by the band they go in: the band of the last first line before each, else the first."""
    heads = {
        t.object.value: t.subject
        for t in store.outgoing([b for b, _ in bands], predicates=[maintained.HEAD], graph=str(ANSWERS_GRAPH))
        if isinstance(t.object, ox.Literal) and isinstance(t.subject, ox.NamedNode)
    }
    band = bands[0][0]
    out: dict[ox.NamedNode, list[str]] = {}
    fresh = set(lines)
    for text in maintained.ordered(q, [*heads, *lines]):
        if text in fresh:
            out.setdefault(band, []).append(text)
        else:
            band = heads[text]
    return out


def _rewritten(
    store: Store,
    ranks: _Ranks,
    band: ox.NamedNode,
    leaving: set[ox.NamedNode],
    arriving: list[str],
    fresh: Rows,
    new: set[ox.NamedNode],
) -> tuple[set[ox.Triple], set[ox.Triple]]:
    """A band with the lines of ``leaving`` rows out and ``arriving`` lines in: its triples before and
    after (split when it grows past :data:`SPLIT_LINES`, none when it is left empty), the moves of its
    rows to the bands split off, and the new rows' statements."""
    q = fresh.q
    before = {t.triple for t in store.outgoing([band], graph=str(ANSWERS_GRAPH))}
    facts = {t.predicate: t.object for t in before}
    text, rank = facts.get(maintained.LINES), facts.get(maintained.rank_predicate(q.name))
    if not isinstance(rank, ox.Literal):
        raise ValueError(f"a kept band without its rank: {band}")
    partition = tuple(
        v if isinstance(v := facts.get(maintained.part(name)), ox.Literal) else None
        for name in maintained.parameters(q)
    )
    stayed = [
        ln
        for ln in (text.value.split("\n") if isinstance(text, ox.Literal) else [])
        if row_node(q, ln) not in leaving
    ]
    lines = maintained.ordered(q, stayed + arriving)
    after: set[ox.Triple] = set()
    moved: set[ox.Triple] = set()
    chunks = [lines] if len(lines) <= SPLIT_LINES else _chunks(lines, BAND_LINES)
    current, following = rank.value, ranks.after(band) if len(chunks) > 1 else None
    for i, chunk in enumerate(chunks if lines else []):
        if i:
            current = rank_between(current, following)
        target = band if not i else band_node(q, partition, current)
        after.update(band_triples(q, target, current, partition, chunk))
        for ln in chunk:
            name = row_node(q, ln)
            if name in new:
                after.update(fresh.triples(name, target))
            elif i:
                moved.add(ox.Triple(name, maintained.BAND, band))
                after.add(ox.Triple(name, maintained.BAND, target))
    return before | moved, after
