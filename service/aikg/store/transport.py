"""A query answer as it travels between processes: the bytes Oxigraph writes, decoded by Oxigraph.

Pickling pyoxigraph terms costs ~7 µs each (a 20,000-row answer took 0.4 s); Oxigraph's own SPARQL TSV
(solutions) and N-Triples (graphs) are written and parsed in Rust at well under 1 µs per term, and hold
one row per line, so a result can be cut at ``max_rows`` while it is being written.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from aikg.rdf.order import Ordered, RowSorter, TooManyRows
from aikg.rdf.results import QueryResult, ResultKind, Term

if TYPE_CHECKING:
    from aikg.store.base import Store


@dataclass(frozen=True)
class QueryJob:
    """A query as sent to a worker: text, bindings, dataset, row cap."""

    sparql: str
    bindings: dict[str, Term] | None = None
    default_graphs: list[str] | None = None
    named_graphs: list[str] | None = None
    max_rows: int | None = None
    base_iri: str | None = None
    render: tuple[str, str] | None = None
    """The media types the client takes for solutions and for graphs: the worker writes the answer in
    the one that applies, so that work (a graph sorted and written as Turtle, a large result as JSON)
    is done in its own process, not under the HTTP worker's GIL where cheap requests wait."""
    gzip: bool = False
    """The client takes gzip: an answer written in its format and at least
    :data:`aikg.compression.FROM_PRODUCER` bytes long comes back compressed."""


class _Enough(Exception):
    """Raised inside a result writer once it holds one row more than the cap."""


class _CappedWriter:
    """A file-like sink for Oxigraph's serializers that stops them after ``limit`` lines past the header.

    Both transport formats hold one row per line (SPARQL TSV escapes line breaks in literals; N-Triples
    writes one triple per line), so the cap is a count of newlines.
    """

    def __init__(self, limit: int | None, header: int) -> None:
        self.buffer = io.BytesIO()
        self.limit = None if limit is None else limit + header
        self.lines = 0

    def write(self, data: bytes) -> int:
        self.buffer.write(data)
        self.lines += data.count(b"\n")
        if self.limit is not None and self.lines > self.limit:
            raise _Enough
        return len(data)

    def flush(self) -> None:
        """Nothing to flush: the buffer is read at the end."""

    def result(self) -> tuple[bytes, bool]:
        """The bytes up to the cap, and whether rows were cut off."""
        data = self.buffer.getvalue()
        if self.limit is None or self.lines <= self.limit:
            return data, False
        cut = 0
        for _ in range(self.limit):
            cut = data.index(b"\n", cut) + 1
        return data[:cut], True


@dataclass(frozen=True)
class Encoded:
    """A query result as it travels between processes: Oxigraph's own bytes, decoded on arrival."""

    kind: ResultKind
    data: bytes = b""
    boolean: bool | None = None
    truncated: bool = False
    rendered: tuple[str, bytes] | None = None
    """The answer written in the client's format (media type, body), when the job asked for it: then
    ``data`` is empty, and so are the decoded result's rows or triples."""
    gzipped: bool = False
    """The rendered body is gzip-compressed."""

    def decode(self) -> QueryResult:
        """The result (its rows are parsed from the bytes when first asked for)."""
        if self.rendered is not None:
            written = self.rendered
            return QueryResult(
                self.kind,
                boolean=self.boolean,
                truncated=self.truncated,
                rendered=written,
                gzipped=self.gzipped,
            )
        if self.kind is ResultKind.ASK:
            return QueryResult(ResultKind.ASK, boolean=self.boolean)
        if self.kind is ResultKind.GRAPH:
            triples = [q.triple for q in ox.parse(self.data, format=ox.RdfFormat.N_TRIPLES)]
            return QueryResult(ResultKind.GRAPH, triples=triples, truncated=self.truncated)
        header = self.data[: self.data.find(b"\n")].decode()
        variables = [v[1:] for v in header.split("\t")] if header else []
        return QueryResult(ResultKind.SELECT, variables=variables, truncated=self.truncated, tsv=self.data)


def run_query_job(store: Store, *, job: QueryJob) -> Encoded:
    """What a query worker runs for a query: the answer in transport form, or written in the client's
    format when the job names it, and then compressed when the client takes gzip and it is large
    (module level, so it can be sent; here, so a worker imports only the store's layer for it)."""
    written = rendered(store.answer(job), job.render)
    return compressed(written) if job.gzip else written


def rendered(encoded: Encoded, render: tuple[str, str] | None) -> Encoded:
    """``encoded`` written in the format ``render`` names for its kind (see ``QueryJob.render``)."""
    from aikg.rdf.formats import GRAPH_FORMATS, RESULT_FORMATS, by_media_type
    from aikg.rdf.serialize import serialize_result

    if render is None:
        return encoded
    graph = encoded.kind is ResultKind.GRAPH
    mime = render[1] if graph else render[0]
    fmt = by_media_type(mime, GRAPH_FORMATS if graph else RESULT_FORMATS) if mime else None
    if fmt is None:
        return encoded  # the client takes no format of this kind: the HTTP worker refuses it
    body = serialize_result(encoded.decode(), fmt)
    kind, boolean, truncated = encoded.kind, encoded.boolean, encoded.truncated
    return Encoded(kind, boolean=boolean, truncated=truncated, rendered=(fmt.mime, body))


def compressed(encoded: Encoded) -> Encoded:
    """``encoded`` with its rendered body gzip-compressed, when it is large enough to be worth doing
    where it was written (:data:`aikg.compression.FROM_PRODUCER`)."""
    from aikg import compression

    written = encoded.rendered
    if written is None or encoded.gzipped or len(written[1]) < compression.FROM_PRODUCER:
        return encoded
    return replace(encoded, rendered=(written[0], compression.gzip(written[1])), gzipped=True)


def encode_result(result: QueryResult) -> Encoded:
    """A materialized result in transport form (for backends without their own serializer)."""
    if result.kind is ResultKind.ASK:
        return Encoded(ResultKind.ASK, boolean=result.boolean)
    if result.kind is ResultKind.GRAPH:
        data = ox.serialize(result.triples, format=ox.RdfFormat.N_TRIPLES) or b""
        return Encoded(ResultKind.GRAPH, data, truncated=result.truncated)
    lines = ["\t".join("?" + v for v in result.variables)]
    lines += ["\t".join("" if t is None else str(t) for t in row) for row in result.rows]
    return Encoded(ResultKind.SELECT, ("\n".join(lines) + "\n").encode(), truncated=result.truncated)


SORT_ROWS = 2_000_000
"""The most rows aikg sorts itself (:mod:`aikg.rdf.order`); a larger answer is sorted by the engine.
High on purpose: Oxigraph's sort aborts the worker on mixed datatypes, and a whole-store
``SELECT ?s ?o WHERE { ?s ?p ?o } ORDER BY ?o`` on the default store (80k rows) reached it at 25,000."""


def encode_ordered(raw: Any, ordered: Ordered, max_rows: int | None) -> Encoded | None:
    """An unordered pyoxigraph SELECT answer sorted and paged as ``ordered`` says, cut at ``max_rows``;
    None when it has more than :data:`SORT_ROWS` rows and no page or cap bounds what must be kept (the
    caller runs the query as written)."""
    sorter = RowSorter(ordered, ordered.keep(max_rows), most=SORT_ROWS)
    try:
        raw.serialize(sorter, format=ox.QueryResultsFormat.TSV)
    except TooManyRows:
        return None
    data, truncated = sorter.result(max_rows)
    return Encoded(ResultKind.SELECT, data, truncated=truncated)


def encode(raw: Any, max_rows: int | None) -> Encoded:
    """A pyoxigraph query answer written as transport bytes, cut at ``max_rows``."""
    if isinstance(raw, ox.QueryBoolean):
        return Encoded(ResultKind.ASK, boolean=bool(raw))
    if isinstance(raw, ox.QuerySolutions):
        writer = _CappedWriter(max_rows, header=1)
        with contextlib.suppress(_Enough):
            raw.serialize(writer, format=ox.QueryResultsFormat.TSV)  # type: ignore[arg-type]  # any writable
        data, truncated = writer.result()
        return Encoded(ResultKind.SELECT, data, truncated=truncated)
    writer = _CappedWriter(max_rows, header=0)
    with contextlib.suppress(_Enough):
        raw.serialize(writer, format=ox.RdfFormat.N_TRIPLES)
    data, truncated = writer.result()
    return Encoded(ResultKind.GRAPH, data, truncated=truncated)
