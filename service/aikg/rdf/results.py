"""The terms and query results that cross the store interface, in the layer below every backend.

They are plain data over pyoxigraph's terms, so the serializers (:mod:`aikg.rdf.serialize`), the
substitution of bound variables (:mod:`aikg.rdf.substitute`) and every backend share them without the
RDF layer knowing any store; :mod:`aikg.store` re-exports them as part of its interface.
"""

from __future__ import annotations

from enum import StrEnum

import pyoxigraph as ox

Term = ox.NamedNode | ox.BlankNode | ox.Literal
"""An RDF term as it crosses the store interface (aikg's data holds no RDF 1.2 quoted triples)."""
Node = ox.NamedNode | ox.BlankNode
"""A term that can be a subject."""
StoredTerm = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple
"""A term as a pyoxigraph quad types it (code that handles raw quads: the gate, the upkeep)."""
Quad = ox.Quad
"""(subject, predicate, object, graph): every stored triple lives in a named graph."""


class ResultKind(StrEnum):
    """What a query returns."""

    SELECT = "select"
    ASK = "ask"
    GRAPH = "graph"


class QueryResult:
    """A materialized query result, cut at ``max_rows`` with ``truncated`` set when it was.

    A SELECT result that arrived as SPARQL TSV (from a query worker) keeps those bytes: serializers
    write the client's format from them, and its rows are read from them only when asked for.
    """

    __slots__ = (
        "kind",
        "variables",
        "boolean",
        "triples",
        "truncated",
        "total",
        "tsv",
        "rendered",
        "gzipped",
        "_rows",
    )

    def __init__(
        self,
        kind: ResultKind,
        variables: list[str] | None = None,
        rows: list[tuple[Term | None, ...]] | None = None,
        *,
        boolean: bool | None = None,
        triples: list[ox.Triple] | None = None,
        truncated: bool = False,
        tsv: bytes | None = None,
        rendered: tuple[str, bytes] | None = None,
        gzipped: bool = False,
        total: int | None = None,
    ) -> None:
        self.kind = kind
        self.rendered = rendered
        """The answer already written in a client's format (media type, body), by a query worker."""
        self.gzipped = gzipped
        """The rendered body is gzip-compressed (a large answer, for a client that takes gzip)."""
        self.variables = variables if variables is not None else []
        self.boolean = boolean
        self.triples = triples if triples is not None else []
        self.truncated = truncated
        self.total = total
        """Rows of the whole answer, this page's and the others', when known (None: not known)."""
        self.tsv = tsv
        self._rows = rows if rows is not None or tsv is not None else []

    @property
    def rows(self) -> list[tuple[Term | None, ...]]:
        """The SELECT rows, one value (None: unbound) per variable."""
        if self._rows is None:
            assert self.tsv is not None
            solutions = ox.parse_query_results(self.tsv, format=ox.QueryResultsFormat.TSV)
            assert isinstance(solutions, ox.QuerySolutions)
            self._rows = [tuple(s) for s in solutions]  # a solution iterates in variable order
        return self._rows

    @rows.setter
    def rows(self, rows: list[tuple[Term | None, ...]]) -> None:
        self._rows, self.tsv = rows, None  # the rows given replace the encoded answer

    @property
    def row_count(self) -> int:
        """How many SELECT rows, without parsing an encoded answer (a page's size, for its next link:
        parsing 1,313 rows cost 20 ms of the 45 the app spent on funding-by-company at 1M quads)."""
        if self._rows is None and self.tsv is not None:
            lines = self.tsv.count(b"\n") + (not self.tsv.endswith(b"\n"))  # a last line unended
            return max(lines - 1, 0)  # one is the header; values hold no raw newline (TSV escapes it)
        return len(self.rows)

    def table(self) -> tuple[list[Term | None], list[list[int]]]:
        """The SELECT rows as positions in the list of their distinct values (0 is unbound).

        Big answers repeat their entities, units and vocabulary terms; a caller that turns values into
        something (JSON cells, labels) does it once per distinct value. From TSV, the fields are told
        apart as bytes and only the distinct ones are parsed.
        """
        if self._rows is None and self.tsv is not None:
            lines = self.tsv.split(b"\n")
            body = lines[1:-1] if lines[-1] == b"" else lines[1:]  # the header, the last newline
            seen: dict[bytes, int] = {b"": 0}
            if not self.variables:  # a solution of no variables is an empty line
                return [None], [[] for _ in body]
            coded = [[seen.setdefault(f, len(seen)) for f in line.split(b"\t")] for line in body]
            distinct = list(seen)[1:]
            values: list[Term | None] = [None]
            if distinct:
                parsed = ox.parse_query_results(
                    b"?v\n" + b"\n".join(distinct) + b"\n", format=ox.QueryResultsFormat.TSV
                )
                assert isinstance(parsed, ox.QuerySolutions)
                values += [s[0] for s in parsed]
            return values, coded
        index: dict[Term | None, int] = {None: 0}
        coded = [[index.setdefault(t, len(index)) for t in row] for row in self.rows]
        return list(index), coded

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QueryResult):
            return NotImplemented
        return (self.kind, self.variables, self.boolean, self.triples, self.truncated) == (
            other.kind,
            other.variables,
            other.boolean,
            other.triples,
            other.truncated,
        ) and self.rows == other.rows

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it replaces

    def __repr__(self) -> str:
        return (
            f"QueryResult({self.kind.value}, variables={self.variables!r}, rows={len(self.rows)}, "
            f"boolean={self.boolean!r}, triples={len(self.triples)}, truncated={self.truncated})"
        )

    def dicts(self) -> list[dict[str, Term]]:
        """SELECT rows as dicts of bound variables (unbound ones left out)."""
        return [
            {v: t for v, t in zip(self.variables, row, strict=True) if t is not None} for row in self.rows
        ]

    def values(self) -> list[tuple[str | None, ...]]:
        """SELECT rows as the lexical values of their terms (IRIs without brackets)."""
        return [tuple(None if t is None else t.value for t in row) for row in self.rows]
