"""The default backend: an embedded Oxigraph store, on disk (survives restarts) or in memory."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pyoxigraph as ox
from rdflib.term import Identifier, URIRef

from ..errors import QuerySyntaxError, QueryTimeout, RdfSyntaxError, StoreError
from .base import Deadline, Quad, QueryResult, ResultKind, Store
from .terms import to_ox, to_rdflib

_RDF_MIME = {
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "application/n-quads": ox.RdfFormat.N_QUADS,
    "application/trig": ox.RdfFormat.TRIG,
    "application/rdf+xml": ox.RdfFormat.RDF_XML,
    "text/n3": ox.RdfFormat.N3,
    "application/ld+json": ox.RdfFormat.JSON_LD,
}
_QUAD_MIME = {"application/n-quads", "application/trig"}
"""Formats that can carry their own named graphs."""


def rdf_format(mime: str) -> ox.RdfFormat:
    """The Oxigraph parser/serializer for a media type."""
    try:
        return _RDF_MIME[mime]
    except KeyError:
        raise RdfSyntaxError(f"unsupported RDF media type {mime!r}") from None


class OxigraphStore(Store):
    """pyoxigraph behind the aikg store interface; thread-safe, one writer process per directory."""

    kind = "oxigraph"

    def __init__(self, path: str | Path | None = None) -> None:
        """Open (creating if needed) the store at ``path``, or an in-memory store when None."""
        self.path = None if path is None else Path(path)
        try:
            if self.path is None:
                self._ox = ox.Store()
            else:
                self.path.mkdir(parents=True, exist_ok=True)
                self._ox = ox.Store(str(self.path))
        except OSError as exc:
            raise StoreError(f"cannot open the store at {self.path}: {exc}") from exc
        self._version = 0
        self._lock = threading.Lock()

    @property
    def raw(self) -> ox.Store:
        """The pyoxigraph store, for bulk paths that must bypass term conversion."""
        return self._ox

    @property
    def version(self) -> int:
        return self._version

    def _bump(self) -> None:
        with self._lock:
            self._version += 1

    def query(self, sparql: str, *, bindings: Mapping[str, Identifier] | None = None,
              default_graphs: Sequence[str] | None = None,
              named_graphs: Sequence[str] | None = None,
              max_rows: int | None = None, deadline: Deadline | None = None) -> QueryResult:
        kwargs: dict = {}
        if default_graphs:
            kwargs["default_graph"] = [ox.NamedNode(g) for g in default_graphs]
        else:
            kwargs["use_default_graph_as_union"] = True
        if named_graphs:
            kwargs["named_graphs"] = [ox.NamedNode(g) for g in named_graphs]
        if bindings:
            kwargs["substitutions"] = {ox.Variable(k): to_ox(v) for k, v in bindings.items()}
        try:
            res = self._ox.query(sparql, **kwargs)
        except SyntaxError as exc:
            raise QuerySyntaxError(f"the query does not parse: {exc}") from None
        except OSError as exc:
            raise StoreError(f"the store failed: {exc}") from exc
        if isinstance(res, ox.QueryBoolean):
            return QueryResult(ResultKind.ASK, boolean=bool(res))
        if isinstance(res, ox.QuerySolutions):
            variables = [v.value for v in res.variables]
            rows: list[tuple[Identifier | None, ...]] = []
            truncated = False
            for solution in res:
                if deadline is not None and deadline.expired():
                    raise QueryTimeout("the query ran past its time limit and was stopped")
                if max_rows is not None and len(rows) >= max_rows:
                    truncated = True
                    break
                rows.append(tuple(to_rdflib(solution[i]) for i in range(len(variables))))
            return QueryResult(ResultKind.SELECT, variables=variables, rows=rows,
                               truncated=truncated)
        triples = []
        truncated = False
        for t in res:
            if deadline is not None and deadline.expired():
                raise QueryTimeout("the query ran past its time limit and was stopped")
            if max_rows is not None and len(triples) >= max_rows:
                truncated = True
                break
            triples.append((to_rdflib(t.subject), to_rdflib(t.predicate), to_rdflib(t.object)))
        return QueryResult(ResultKind.GRAPH, triples=triples, truncated=truncated)

    def update(self, sparql: str) -> None:
        try:
            self._ox.update(sparql)
        except SyntaxError as exc:
            raise QuerySyntaxError(f"the update does not parse: {exc}") from None
        except OSError as exc:
            raise StoreError(f"the store failed: {exc}") from exc
        self._bump()

    def load(self, data: bytes, *, mime: str, graph: str | None = None,
             replace: bool = False) -> int:
        fmt = rdf_format(mime)
        target = ox.NamedNode(graph) if graph else None
        try:
            parsed = list(ox.parse(data, format=fmt))
        except SyntaxError as exc:
            raise RdfSyntaxError(f"the RDF document does not parse: {exc}") from None
        if target is None and any(isinstance(q.graph_name, ox.DefaultGraph) for q in parsed):
            raise RdfSyntaxError("every triple must go to a named graph: name the target graph")
        quads = [q if not isinstance(q.graph_name, ox.DefaultGraph)
                 else ox.Quad(q.subject, q.predicate, q.object, target) for q in parsed]
        if replace and target is not None:
            self._replace(target, quads)
        else:
            self._ox.extend(quads)
        self._bump()
        return len(quads)

    def _replace(self, target: ox.NamedNode, quads: list[ox.Quad]) -> None:
        # pyoxigraph exposes no multi-call transaction, so build the new content in a scratch store and
        # swap it in with a single atomic update: DROP then INSERT DATA.
        body = ox.serialize([ox.Triple(q.subject, q.predicate, q.object) for q in quads],
                            format=ox.RdfFormat.N_TRIPLES).decode()
        self._ox.update(f"DROP SILENT GRAPH <{target.value}> ;\n"
                        f"INSERT DATA {{ GRAPH <{target.value}> {{\n{body}\n}} }}")

    def dump(self, *, mime: str, graph: str | None = None) -> bytes:
        fmt = rdf_format(mime)
        if graph is None:
            if mime not in _QUAD_MIME:
                raise RdfSyntaxError("a dump of the whole store needs a quad format (N-Quads, TriG)")
            return self._ox.dump(format=fmt)
        return self._ox.dump(format=fmt, from_graph=ox.NamedNode(graph))

    def graphs(self) -> list[str]:
        return sorted(g.value for g in self._ox.named_graphs() if isinstance(g, ox.NamedNode))

    def drop_graph(self, graph: str) -> None:
        self._ox.update(f"DROP SILENT GRAPH <{ox.NamedNode(graph).value}>")
        self._bump()

    def count(self, graph: str | None = None) -> int:
        g = ox.NamedNode(graph) if graph else None
        res = self._ox.query("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }",
                             substitutions={ox.Variable("g"): g} if g else None)
        return int(next(iter(res))[0].value)

    def quads(self, subject: Identifier | None = None, predicate: Identifier | None = None,
              obj: Identifier | None = None, graph: str | None = None) -> Iterable[Quad]:
        pattern = self._ox.quads_for_pattern(
            to_ox(subject) if subject is not None else None,
            to_ox(predicate) if predicate is not None else None,
            to_ox(obj) if obj is not None else None,
            ox.NamedNode(graph) if graph else None,
        )
        for q in pattern:
            if isinstance(q.graph_name, ox.DefaultGraph):
                continue
            yield (to_rdflib(q.subject), to_rdflib(q.predicate), to_rdflib(q.object),
                   URIRef(q.graph_name.value))

    def apply(self, *, remove: Iterable[Quad] = (), add: Iterable[Quad] = ()) -> None:
        remove, add = list(remove), list(add)
        if not remove and not add:
            return
        parts = []
        if remove:
            parts.append("DELETE DATA {\n" + _quad_block(remove) + "\n}")
        if add:
            parts.append("INSERT DATA {\n" + _quad_block(add) + "\n}")
        self._ox.update(" ;\n".join(parts))
        self._bump()

    def close(self) -> None:
        if self.path is not None:
            self._ox.flush()
        del self._ox


def _quad_block(quads: list[Quad]) -> str:
    return "\n".join(
        f"GRAPH <{g}> {{ {to_ox(s)} {to_ox(p)} {to_ox(o)} }}" for s, p, o, g in quads)
