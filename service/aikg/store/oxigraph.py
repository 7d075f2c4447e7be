"""The default backend: an embedded Oxigraph store, on disk (survives restarts) or in memory."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: skip the early check, opening the store still fails clearly
    fcntl = None

import pyoxigraph as ox
from rdflib import BNode
from rdflib.term import Identifier, URIRef
from tqdm import tqdm

from aikg.errors import BadRequest, QuerySyntaxError, QueryTimeout, RdfSyntaxError, StoreError
from aikg.rdf import formats
from aikg.rdf.formats import DATASET_FORMATS
from aikg.rdf.tokens import has_dataset_clause
from aikg.store.base import Deadline, Quad, QueryResult, ResultKind, Store
from aikg.store.terms import to_ox, to_rdflib

_QUAD_MIME = frozenset(f.mime for f in DATASET_FORMATS)
"""Formats that can carry their own named graphs."""


def rdf_format(mime: str) -> ox.RdfFormat:
    """The Oxigraph parser/serializer for a media type (from the one format table)."""
    fmt = formats.rdf_format(mime)
    if fmt is None:
        raise RdfSyntaxError(f"unsupported RDF media type {mime!r}")
    return fmt


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
            hint = " (another process has it open: stop it, or use a copy)" if "lock" in str(exc) else ""
            raise StoreError(f"cannot open the store at {self.path}{hint}") from exc
        # Start from the clock so versions (ETags, cache keys) never repeat across restarts.
        self._version = time.time_ns() // 1000
        self._lock = threading.Lock()

    @staticmethod
    def in_use(path: str | Path) -> bool:
        """True when another process has the on-disk store at ``path`` open (it holds RocksDB's lock).

        Checked without opening the store, so a process that forks afterwards (gunicorn's master)
        never carries RocksDB state into its children. Call it only from a process that has no store
        open at ``path``: POSIX record locks belong to the process, so the probe would release its own.
        """
        lock = Path(path) / "LOCK"
        if fcntl is None or not lock.is_file():
            return False
        with open(lock, "rb+") as fh:
            try:
                fcntl.lockf(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.lockf(fh, fcntl.LOCK_UN)
        return False

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
              max_rows: int | None = None, deadline: Deadline | None = None,
              base_iri: str | None = None) -> QueryResult:
        kwargs: dict = {"base_iri": base_iri} if base_iri else {}
        if default_graphs is not None and (default_graphs or named_graphs):
            # Named graphs given without default graphs: the default graph is empty (SPARQL protocol).
            kwargs["default_graph"] = ([_named(g, "default graph") for g in default_graphs]
                                       or ox.DefaultGraph())
        elif not has_dataset_clause(sparql):
            kwargs["use_default_graph_as_union"] = True
        if named_graphs:
            kwargs["named_graphs"] = [_named(g, "named graph") for g in named_graphs]
        if bindings:
            kwargs["substitutions"] = {ox.Variable(k): _term(v) for k, v in bindings.items()}
        try:
            res = self._ox.query(sparql, **kwargs)
        except SyntaxError as exc:
            raise QuerySyntaxError(f"the query does not parse: {exc}", errors=_position(exc)) from None
        except OSError as exc:
            raise StoreError("the store failed while running the query") from exc
        except RuntimeError as exc:
            if bindings and "projection" in str(exc):
                # Oxigraph substitutes only variables the query projects (SEP-0007).
                raise BadRequest("every bound variable must be in the query's projection: "
                                 + ", ".join("?" + k for k in bindings)) from None
            raise StoreError("the store could not run the query") from exc
        if isinstance(res, ox.QueryBoolean):
            return QueryResult(ResultKind.ASK, boolean=bool(res))
        try:
            if isinstance(res, ox.QuerySolutions):
                variables = [v.value for v in res.variables]
                width = range(len(variables))
                rows, truncated = _take(
                    (tuple(to_rdflib(s[i]) for i in width) for s in res), max_rows, deadline)
                return QueryResult(ResultKind.SELECT, variables=variables, rows=rows,
                                   truncated=truncated)
            triples, truncated = _take(
                ((to_rdflib(t.subject), to_rdflib(t.predicate), to_rdflib(t.object)) for t in res),
                max_rows, deadline)
        except OSError as exc:
            raise StoreError("the store failed while reading the query results") from exc
        return QueryResult(ResultKind.GRAPH, triples=triples, truncated=truncated)

    def update(self, sparql: str) -> None:
        try:
            self._ox.update(sparql)
        except SyntaxError as exc:
            raise QuerySyntaxError(f"the update does not parse: {exc}", errors=_position(exc)) from None
        except OSError as exc:
            raise StoreError("the store failed while running the update") from exc
        self._bump()

    def load(self, data: bytes, *, mime: str, graph: str | None = None,
             replace: bool = False) -> int:
        fmt = rdf_format(mime)
        target = _named(graph, "graph") if graph else None
        try:
            parsed = list(ox.parse(data, format=fmt))
        except (SyntaxError, ValueError) as exc:
            raise RdfSyntaxError(f"the RDF document does not parse: {exc}") from None
        if target is None and any(isinstance(q.graph_name, ox.DefaultGraph) for q in parsed):
            raise RdfSyntaxError("every triple must go to a named graph: name the target graph")
        quads = [q if not isinstance(q.graph_name, ox.DefaultGraph)
                 else ox.Quad(q.subject, q.predicate, q.object, target) for q in parsed]
        try:
            if replace and target is not None:
                self._replace(target, quads)
            else:
                self._ox.extend(quads)  # transactional: all quads or none
        except OSError as exc:
            raise StoreError("the store failed while loading data") from exc
        self._bump()
        return len(quads)

    def bulk_load(self, path: str | Path, *, mime: str, progress: bool = False) -> None:
        """Load a large quad file with Oxigraph's bulk loader: much faster, but not one transaction."""
        if mime not in _QUAD_MIME:
            raise RdfSyntaxError("a bulk load needs a quad format (N-Quads, TriG): every triple has a graph")
        path = Path(path)
        with open(path, "rb") as raw, tqdm.wrapattr(raw, "read", total=path.stat().st_size, unit="B",
                                                     unit_scale=True, desc=f"loading {path.name}",
                                                     disable=not progress) as fh:
            try:
                self._ox.bulk_load(fh, format=rdf_format(mime))
            except SyntaxError as exc:
                raise RdfSyntaxError(f"{path.name} does not parse: {exc}") from None
            except OSError as exc:
                raise StoreError("the store failed while loading data") from exc
        self._bump()

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
        return self._ox.dump(format=fmt, from_graph=_named(graph, "graph"))

    def graphs(self) -> list[str]:
        # Oxigraph remembers a graph emptied by DELETE; the interface lists graphs that hold data (as a
        # remote engine does), so both backends agree on which graphs exist.
        return sorted(g.value for g in self._ox.named_graphs() if isinstance(g, ox.NamedNode)
                      and next(self._ox.quads_for_pattern(None, None, None, g), None) is not None)

    def drop_graph(self, graph: str) -> None:
        self._ox.update(f"DROP SILENT GRAPH <{_named(graph, 'graph').value}>")
        self._bump()

    def count(self, graph: str | None = None) -> int:
        # A validated IRI in its N-Triples form is safe in query text; substitutions would need ?g
        # in the projection.
        target = _named(graph, "graph") if graph else "?g"
        res = self._ox.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH {target} {{ ?s ?p ?o }} }}")
        return int(next(iter(res))[0].value)

    def quads(self, subject: Identifier | None = None, predicate: Identifier | None = None,
              obj: Identifier | None = None, graph: str | None = None) -> Iterable[Quad]:
        pattern = self._ox.quads_for_pattern(
            _term(subject) if subject is not None else None,
            _term(predicate) if predicate is not None else None,
            _term(obj) if obj is not None else None,
            _named(graph, "graph") if graph else None,
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
        if any(isinstance(t, BNode) for q in remove for t in q):
            raise BadRequest("quads with blank nodes cannot be removed one by one: replace their graph")
        # Every term is converted before anything is written, and both parts go in one update:
        # a bad term or a failing write leaves the store as it was.
        parts = []
        if remove:
            parts.append("DELETE DATA {\n" + _quad_block(remove) + "\n}")
        if add:
            parts.append("INSERT DATA {\n" + _quad_block(add) + "\n}")
        try:
            self._ox.update(" ;\n".join(parts))
        except (SyntaxError, OSError) as exc:
            raise StoreError("the store could not apply the change; nothing was written") from exc
        self._bump()

    def close(self) -> None:
        store = getattr(self, "_ox", None)
        if store is None:
            return
        if self.path is not None:
            store.flush()
        self._ox = None  # dropping the last reference closes the files and releases the lock


def _position(exc: SyntaxError) -> list[dict]:
    """Line and column of a parse error, from Oxigraph's ``error at L:C: ...`` message."""
    m = re.search(r"\b(\d+):(\d+)\b", str(exc))
    return [{"line": int(m.group(1)), "column": int(m.group(2))}] if m else []


def _named(iri: str, what: str) -> ox.NamedNode:
    try:
        return ox.NamedNode(str(iri))
    except ValueError:
        raise BadRequest(f"{what} {iri!r} is not a valid IRI") from None


def _term(term: Identifier) -> ox.NamedNode | ox.BlankNode | ox.Literal:
    try:
        return to_ox(term)
    except (ValueError, TypeError):
        raise BadRequest(f"{term!r} is not a valid RDF term") from None


def _take(items: Iterator, max_rows: int | None, deadline: Deadline | None) -> tuple[list, bool]:
    """Read at most ``max_rows`` items, checking ``deadline`` between them; say if more were left."""
    out: list = []
    for item in items:
        if deadline is not None and deadline.expired():
            raise QueryTimeout("the query ran past its time limit and was stopped")
        if max_rows is not None and len(out) >= max_rows:
            return out, True
        out.append(item)
    return out, False


def _quad_block(quads: list[Quad]) -> str:
    return "\n".join(
        f"GRAPH {_named(g, 'graph')} {{ {_term(s)} {_term(p)} {_term(o)} }}" for s, p, o, g in quads)
