"""A remote SPARQL 1.1 engine (Virtuoso, Fuseki, GraphDB, Neptune, QLever) behind the store interface.

aikg then runs stateless in front of an engine that can scale beyond one machine, and several aikg
instances can share it. The engine is reached only through the standard protocols: SPARQL 1.1 Query,
Update, and optionally the Graph Store HTTP Protocol for bulk loads.

What the interface promises and how this backend keeps it:

- *The default graph is the union of aikg's named graphs.* Engines differ (Virtuoso unions every graph,
  including its own system graphs; Fuseki needs ``unionDefaultGraph``), so each query names aikg's
  graphs explicitly as ``default-graph-uri`` and ``named-graph-uri``.
- *Bindings are values, never raw text.* Each bound variable is replaced by its value, token by token,
  with the meaning of SPARQL SEP-0007's substitution (:mod:`aikg.rdf.substitute`, as on Oxigraph).
- *A version that changes on every write*, shared by every aikg instance: a stamp triple in the
  ``graph/system`` graph, replaced in the same update request as the write. Each instance reads it at
  most every :data:`VERSION_TTL` seconds, so another instance's write is seen within that time.
- *A malformed query is a 400 that says where.* Queries are parsed locally by Oxigraph (parse only:
  an unread result runs nothing), so the position does not depend on the engine's error messages.
- *Blank nodes are kept apart.* Engines refuse blank nodes in ``INSERT DATA`` (Virtuoso) or rename
  them, so blank nodes written through this backend are skolemized (RDF 1.1 §3.5) into genid IRIs.

Where Virtuoso 7.2 departs from the standards, and what this module does about it (each departure is run
on the engine by tests/test_upstream.py as a strict expected failure, which passes once it is fixed):

- virtuoso-opensource#126: ``INSERT DATA`` refuses blank nodes -> :func:`skolemize_text`, :func:`_skolemize`.
- virtuoso-opensource#1055: a ``DELETE DATA`` of several ``GRAPH`` blocks leaves their language-tagged
  and custom-typed literals -> :func:`split_delete_data` (one operation per block).
- virtuoso-opensource#1016: an ``ASK`` asked for JSON is answered as a one-row SELECT of
  ``__ASK_RETVAL`` -> read as the boolean in :meth:`RemoteStore.query`.
- Not filed: the protocol's ``default-graph-uri`` is merged with the query's ``FROM`` instead of
  replacing it (SPARQL 1.1 Protocol §2.1.4) -> the dataset clause is removed when the protocol names one.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import pyoxigraph as ox
import requests

from aikg.errors import BadRequest, QuerySyntaxError, QueryTimeout, RdfSyntaxError, StoreError
from aikg.namespaces import AIKG, BASE, GRAPH
from aikg.rdf.formats import DATASET_FORMATS, rdf_format_of
from aikg.rdf.results import Node, Quad, QueryResult, ResultKind, StoredTerm, Term
from aikg.rdf.substitute import substitute
from aikg.rdf.tokens import (
    Token,
    apply_edits,
    has_dataset_clause,
    query_form,
    resolve_relative,
    significant,
    tokenize,
    without_dataset_clause,
)
from aikg.store.base import Deadline, Store, current_deadline
from aikg.store.terms import quad_of_row

SYSTEM_GRAPH = str(GRAPH["system"])
"""Holds the shared version counter; hidden from :meth:`RemoteStore.graphs`."""
_VERSION = str(AIKG["storeVersion"])
_ENGINE_GRAPH_PREFIXES = (
    "http://www.openlinksw.com/",
    "http://www.w3.org/ns/ldp#",
    "http://localuriqaserver/",
    "http://localhost:8890/",
)
"""Graphs an engine keeps for itself (Virtuoso's system graphs): never aikg data."""
_CHUNK = 5000
"""Triples per INSERT DATA operation when loading without the Graph Store Protocol."""
EMPTY_GRAPH = "urn:aikg:no-graph"
"""Named as the only default graph when the caller asks for an empty one; never holds data."""
VERSION_TTL = 0.5
"""Seconds an instance trusts the version it last read (another instance's write shows after that)."""

log = logging.getLogger(__name__)


class RemoteStore(Store):
    """The store interface over SPARQL 1.1 Query / Update / Graph Store protocols."""

    kind = "remote"
    follows_own_writes = False  # other aikg instances may write to the same engine

    @property
    def lineage(self) -> str:
        # Every write stamps a fresh random version in the engine, so the engine and its stamp name one
        # state of the data for every instance using it.
        return self.query_url

    def __init__(
        self,
        query_url: str,
        *,
        update_url: str = "",
        gsp_url: str = "",
        user: str = "",
        password: str = "",
        timeout: float = 60.0,
    ) -> None:
        """Talk to the engine at ``query_url``; updates go to ``update_url`` (default: the same)."""
        self.query_url = query_url
        self.update_url = update_url or query_url
        self.gsp_url = gsp_url
        self.timeout = timeout
        self._auth = requests.auth.HTTPDigestAuth(user, password) if user else None
        # Each process opens its own store (nothing forks a process that has one), so each has its
        # own connections.
        self._http = requests.Session()
        self._http.auth = self._auth
        self._graphs: tuple[int, list[str]] | None = None
        self._version_cache: tuple[float, int] = (0.0, -1)
        self._lock = threading.Lock()

    # -- protocol plumbing -------------------------------------------------------------------------

    def _send(
        self,
        method: str,
        url: str,
        *,
        deadline: Deadline | None = None,
        accept: str | None = None,
        data: Mapping[str, object] | bytes | None = None,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> requests.Response:
        timeout = self.timeout
        if deadline is not None:
            timeout = max(0.05, min(timeout, deadline.at - time.monotonic()))
        sent = {**(headers or {}), **({"Accept": accept} if accept else {})}
        try:
            resp = self._http.request(method, url, headers=sent, timeout=timeout, data=data, params=params)
        except requests.Timeout:
            raise QueryTimeout(
                f"the query ran past its time limit ({timeout:.1f} s) and was stopped",
                errors=[{"limit_seconds": round(timeout, 1)}],
            ) from None
        except requests.RequestException as exc:
            raise StoreError(f"the remote SPARQL engine is unreachable ({type(exc).__name__})") from None
        if resp.headers.get("X-SQL-State", "").startswith("S1T"):
            # Virtuoso's "anytime" answer: its own time limit cut the result short. A partial result
            # is never passed off as a complete one.
            raise QueryTimeout("the remote engine stopped the query at its own time limit")
        if resp.status_code == 400:
            # The text parsed locally, so the engine refuses something it does not support; its own
            # message goes to the log, not to the client.
            log.warning("remote engine refused a request: %s", _engine_message(resp))
            raise BadRequest(
                "the remote SPARQL engine refused the request"
                + _engine_position(resp)
                + " (it parses as SPARQL 1.1: the engine does not support it)",
                errors=_engine_errors(resp),
            )
        if resp.status_code in (401, 403):
            raise StoreError("the remote SPARQL engine refused aikg's credentials")
        if resp.status_code >= 300:
            log.warning("remote engine answered %s: %s", resp.status_code, _engine_message(resp))
            raise StoreError(f"the remote SPARQL engine failed (HTTP {resp.status_code})")
        return resp

    def _select(
        self, text: str, params: Mapping[str, object] | None = None, deadline: Deadline | None = None
    ) -> dict[str, Any]:
        resp = self._send(
            "POST",
            self.query_url,
            data={"query": text, **(params or {})},
            accept="application/sparql-results+json",
            deadline=deadline,
        )
        try:
            body: dict[str, Any] = resp.json()
            return body
        except ValueError:
            raise StoreError("the remote engine sent results that are not SPARQL JSON") from None

    def _graph_params(
        self, sparql: str, default_graphs: Sequence[str] | None, named_graphs: Sequence[str] | None
    ) -> dict[str, list[str]]:
        """The dataset as protocol parameters, with the meaning the store interface gives it."""
        if default_graphs is None and named_graphs is None and has_dataset_clause(sparql):
            return {}  # the query's own FROM / FROM NAMED
        ours = self.graphs() or [EMPTY_GRAPH]
        if default_graphs is not None and not default_graphs and named_graphs:
            default = [EMPTY_GRAPH]  # named graphs with no default graph: an empty default graph
        else:
            default = list(default_graphs or ours)
        return {"default-graph-uri": default, "named-graph-uri": list(named_graphs or ours)}

    # -- the interface -----------------------------------------------------------------------------

    @property
    def shared(self) -> bool:
        return True

    def query(
        self,
        sparql: str,
        *,
        bindings: Mapping[str, Term] | None = None,
        default_graphs: Sequence[str] | None = None,
        named_graphs: Sequence[str] | None = None,
        max_rows: int | None = None,
        deadline: Deadline | None = None,
        base_iri: str | None = None,
    ) -> QueryResult:
        deadline = current_deadline(deadline)
        if deadline is not None and deadline.expired():
            raise QueryTimeout("the request ran past its time limit before this read")
        text = substitute(sparql, bindings) if bindings else sparql
        form = query_form(text)
        _check_parses(text, form, base_iri)
        if base_iri:
            text = resolve_relative(text, base_iri)  # the engine has no base of ours: send absolute IRIs
        if (default_graphs is not None or named_graphs is not None) and has_dataset_clause(text):
            text = without_dataset_clause(
                text
            )  # the protocol's dataset wins (Protocol §2.1.4; Virtuoso merges)
        params: dict[str, object] = {"query": text, **self._graph_params(text, default_graphs, named_graphs)}
        if deadline is not None:
            # Virtuoso's own limit for this query, in milliseconds: without it a query aikg stopped
            # waiting for ran on in the engine (its MaxQueryExecutionTime did not end a cross product
            # in 50 s). It answers "incomplete" (X-SQL-State S1TAT) at the limit, refused in _send.
            params["timeout"] = str(max(1, int((deadline.at - time.monotonic()) * 1000)))
        if form in ("CONSTRUCT", "DESCRIBE"):
            resp = self._send(
                "POST", self.query_url, data=params, accept="application/n-triples", deadline=deadline
            )
            triples: list[ox.Triple] = []
            truncated = False
            try:
                for t in ox.parse(resp.content, format=ox.RdfFormat.N_TRIPLES):
                    if max_rows is not None and len(triples) >= max_rows:
                        truncated = True
                        break
                    triples.append(t.triple)
            except SyntaxError:
                raise StoreError("the remote engine sent triples that do not parse") from None
            return QueryResult(ResultKind.GRAPH, triples=triples, truncated=truncated)
        body = self._select(text, {k: v for k, v in params.items() if k != "query"}, deadline)
        if "boolean" in body:
            return QueryResult(ResultKind.ASK, boolean=bool(body["boolean"]))
        variables = body["head"].get("vars", [])
        bound = body["results"]["bindings"]
        if form == "ASK":  # a one-row SELECT of __ASK_RETVAL (virtuoso-opensource#1016)
            value = bound[0][variables[0]]["value"] if bound and variables else "0"
            return QueryResult(ResultKind.ASK, boolean=value in ("1", "true"))
        truncated = max_rows is not None and len(bound) > max_rows
        if truncated:
            bound = bound[:max_rows]
        rows = [tuple(_term(b.get(v)) for v in variables) for b in bound]
        return QueryResult(ResultKind.SELECT, variables=variables, rows=rows, truncated=truncated)

    def update(self, sparql: str, *, base_iri: str | None = None) -> None:
        text = resolve_relative(sparql, base_iri) if base_iri else sparql  # the engine has no base of ours
        self._update(split_delete_data(skolemize_text(text)))

    def _update(self, sparql: str, *, bump: bool = True) -> None:
        text = f"{sparql} ;\n{_bump_version()}" if bump else sparql
        try:
            self._send("POST", self.update_url, data={"update": text})
        finally:
            self._forget()

    def _forget(self) -> None:
        """Drop what this instance remembers of the engine's state (after a write, or a failed one)."""
        with self._lock:
            self._graphs = None
            self._version_cache = (0.0, -1)

    def load(self, data: bytes, *, mime: str, graph: str | None = None, replace: bool = False) -> int:
        fmt = rdf_format_of(mime)
        try:
            parsed = list(ox.parse(data, format=fmt))
        except (SyntaxError, ValueError) as exc:
            raise RdfSyntaxError(f"the RDF document does not parse: {exc}") from None
        target = _named(graph) if graph else None
        if target is None and any(isinstance(q.graph_name, ox.DefaultGraph) for q in parsed):
            raise RdfSyntaxError("every triple must go to a named graph: name the target graph")
        quads = [
            q
            if not isinstance(q.graph_name, ox.DefaultGraph)
            else ox.Quad(q.subject, q.predicate, q.object, target)
            for q in parsed
        ]
        # Engines limit blank nodes in updates (Virtuoso refuses them in INSERT DATA and caps the size
        # of INSERT templates), so blank nodes are skolemized (RDF 1.1 §3.5) into genid IRIs.
        quads = _skolemize(quads)
        if self.gsp_url:
            self._load_gsp(quads, graph if replace else None)
            return len(quads)
        ops = [f"DROP SILENT GRAPH {target}"] if replace and target is not None else []
        for start in range(0, len(quads), _CHUNK):
            ops.append("INSERT DATA {\n" + _ox_quad_block(quads[start : start + _CHUNK]) + "\n}")
        if ops:
            self._update(" ;\n".join(ops))
        return len(quads)

    def _load_gsp(self, quads: list[ox.Quad], replace: str | None) -> None:
        """Bulk load through the Graph Store Protocol: one request per graph (PUT replaces it whole).

        Each graph is replaced atomically; a dataset spanning several graphs is not one transaction
        over this protocol. The version is bumped afterwards, also when a request failed half-way.
        """
        by_graph: dict[str, list[ox.Triple]] = {}
        if replace:
            by_graph[replace] = []
        for q in quads:
            by_graph.setdefault(str(q.graph_name)[1:-1], []).append(q.triple)
        try:
            for g, triples in by_graph.items():
                body = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""
                self._send(
                    "PUT" if g == replace else "POST",
                    self.gsp_url,
                    params={"graph-uri": g},
                    data=body,
                    headers={"Content-Type": "application/n-triples"},
                )
        finally:
            self._update(_bump_version(), bump=False)

    def dump(self, *, mime: str, graph: str | None = None) -> bytes:
        fmt = rdf_format_of(mime)
        if graph is None:
            if mime not in {f.mime for f in DATASET_FORMATS}:
                raise RdfSyntaxError("a dump of the whole store needs a quad format (N-Quads, TriG)")
            return ox.serialize(_unskolemized(self.quads()), format=fmt) or b""
        return ox.serialize([q.triple for q in _unskolemized(self.quads(graph=graph))], format=fmt) or b""

    def graphs(self) -> list[str]:
        version = self.version
        with self._lock:
            if self._graphs is not None and self._graphs[0] == version:
                return list(self._graphs[1])
        # GROUP BY, not DISTINCT: Virtuoso answers it from an index (ms instead of seconds).
        body = self._select("SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g")
        found = sorted(
            b["g"]["value"]
            for b in body["results"]["bindings"]
            if b["g"]["value"] not in (SYSTEM_GRAPH, EMPTY_GRAPH)
            and not b["g"]["value"].startswith(_ENGINE_GRAPH_PREFIXES)
        )
        with self._lock:
            self._graphs = (version, found)
        return list(found)

    def drop_graph(self, graph: str) -> None:
        self._update(f"DROP SILENT GRAPH {_named(graph)}")

    def count(self, graph: str | None = None) -> int:
        graphs = [str(_named(graph).value)] if graph else self.graphs()
        if not graphs:
            return 0
        res = self.query(
            "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }",
            named_graphs=graphs,
            default_graphs=graphs,
        )
        cell = res.rows[0][0] if res.rows else None
        return int(cell.value) if isinstance(cell, ox.Literal) else 0

    def quads(
        self,
        subject: Node | None = None,
        predicate: ox.NamedNode | None = None,
        obj: Term | None = None,
        graph: str | None = None,
    ) -> Iterator[Quad]:
        graphs = [str(_named(graph).value)] if graph else self.graphs()
        if not graphs or any(isinstance(t, ox.BlankNode) for t in (subject, predicate, obj)):
            return iter(())  # blank nodes are stored skolemized: a blank node matches nothing here
        pattern = [
            (str(t) if t is not None else f"?{v}") for t, v in ((subject, "s"), (predicate, "p"), (obj, "o"))
        ]
        binds = " ".join(
            f"BIND({t} AS ?{v})" for t, v in ((subject, "s"), (predicate, "p"), (obj, "o")) if t is not None
        )
        res = self.query(
            f"SELECT ?s ?p ?o ?g WHERE {{ GRAPH ?g {{ {' '.join(pattern)} }} {binds} }}",
            named_graphs=graphs,
            default_graphs=graphs,
        )
        return iter([quad_of_row(r) for r in res.rows])

    def apply(
        self, *, remove: Iterable[Quad] = (), add: Iterable[Quad] = (), drop: Iterable[str] = ()
    ) -> None:
        remove, add = list(remove), list(add)
        if any(isinstance(t, ox.BlankNode) for q in remove for t in (q.subject, q.object)):
            raise BadRequest("quads with blank nodes cannot be removed one by one: replace their graph")
        by_graph: dict[str, list[Quad]] = {}
        for q in remove:
            by_graph.setdefault(str(q.graph_name), []).append(q)
        # One DELETE DATA per graph (virtuoso-opensource#1055, see the module).
        ops = [f"DROP SILENT GRAPH {_named(g)}" for g in sorted(set(drop))]
        ops += ["DELETE DATA {\n" + _ox_quad_block(quads) + "\n}" for quads in by_graph.values()]
        if add:
            ops.append("INSERT DATA {\n" + _ox_quad_block(_skolemize(add)) + "\n}")
        if ops:
            self._update(split_delete_data(" ;\n".join(ops)))

    # -- capabilities: neighbourhood reads as a few queries, not one HTTP round trip per node --------

    CHUNK = 400
    """Nodes per VALUES block of a neighbourhood read."""

    def _select_quads(self, pattern: str, first: str, values: dict[str, Iterable[StoredTerm]]) -> list[Quad]:
        """``SELECT ?s ?p ?o ?g`` over ``pattern``, with the ``first`` variable's values sent in chunks."""
        items = sorted(_sparql_terms(values[first]))
        blocks = " ".join(
            _values_block(name, _sparql_terms(terms)) for name, terms in values.items() if name != first
        )
        out: list[Quad] = []
        for i in range(0, len(items), self.CHUNK):
            text = (
                f"SELECT ?s ?p ?o ?g WHERE {{ {_values_block(first, items[i : i + self.CHUNK])} "
                f"{blocks} {pattern} }}"
            )
            out += [quad_of_row(row) for row in self.query(text).rows]
        return out

    def _around(
        self,
        end: str,
        nodes: Iterable[StoredTerm],
        predicates: Iterable[ox.NamedNode] | None,
        graph: str | None,
    ) -> list[Quad]:
        values: dict[str, Iterable[StoredTerm]] = {end: nodes}
        if predicates is not None:
            values["p"] = list(predicates)
        if graph is not None:
            values["g"] = [_named(graph)]
        return self._select_quads("GRAPH ?g { ?s ?p ?o }", end, values)

    def outgoing(
        self,
        nodes: Iterable[StoredTerm],
        *,
        predicates: Iterable[ox.NamedNode] | None = None,
        graph: str | None = None,
    ) -> list[Quad]:
        return self._around("s", [n for n in nodes if not isinstance(n, ox.Literal)], predicates, graph)

    def incoming(
        self,
        nodes: Iterable[StoredTerm],
        *,
        predicates: Iterable[ox.NamedNode] | None = None,
        graph: str | None = None,
    ) -> list[Quad]:
        return self._around("o", nodes, predicates, graph)

    def with_predicates(self, predicates: Iterable[ox.NamedNode]) -> list[Quad]:
        return self._select_quads("GRAPH ?g { ?s ?p ?o }", "p", {"p": predicates})

    @property
    def version(self) -> int:
        # Several aikg instances may share the engine, so the version lives there; a short memo keeps
        # a burst of reads from asking for it on every request.
        with self._lock:
            stamp, value = self._version_cache
            if time.monotonic() - stamp < VERSION_TTL and value >= 0:
                return value
        body = self._select(
            f"SELECT ?v WHERE {{ GRAPH <{SYSTEM_GRAPH}> {{ <{SYSTEM_GRAPH}> <{_VERSION}> ?v }} }}"
        )
        rows = body["results"]["bindings"]
        value = int(rows[0]["v"]["value"]) if rows else 0
        with self._lock:
            self._version_cache = (time.monotonic(), value)
        return value

    def close(self) -> None:
        self._http.close()


# -- helpers -----------------------------------------------------------------------------------------


def _bump_version() -> str:
    # A fresh random stamp rather than a counter: a version only needs to change, and a blind write
    # needs no read-modify-write update (whose aggregates engines have evaluated differently).
    g, v = f"<{SYSTEM_GRAPH}>", f"<{_VERSION}>"
    stamp = secrets.randbits(62)
    return (
        f"DELETE WHERE {{ GRAPH {g} {{ {g} {v} ?old }} }} ;\n"
        f"INSERT DATA {{ GRAPH {g} {{ {g} {v} {stamp} }} }}"
    )


_PARSER = ox.Store()
"""Always empty: used only to parse queries (a result that is never read runs nothing)."""


def _check_parses(text: str, form: str, base_iri: str | None = None) -> None:
    """Parse locally, so a malformed query is a 400 that says where, whatever the engine's messages."""
    probe = text
    if form == "ASK":  # ASK is answered eagerly; as SELECT * it parses the same and stays lazy
        ask = next(t for t, _ in significant(text) if t.is_keyword("ASK"))
        probe = text[: ask.start] + "SELECT *" + text[ask.end :]
    try:
        _PARSER.query(probe, base_iri=base_iri)
    except SyntaxError as exc:
        errors = _position(exc)
        where = (
            f" at {errors[0]['line']}:{errors[0]['column']} (line {errors[0]['line']}, column "
            f"{errors[0]['column']})"
            if errors
            else ""
        )
        raise QuerySyntaxError(f"the query does not parse{where}", errors=errors) from None


def _position(exc: SyntaxError) -> list[dict[str, int]]:
    m = re.search(r"\b(\d+):(\d+)\b", str(exc))
    return [{"line": int(m.group(1)), "column": int(m.group(2))}] if m else []


def _engine_position(resp: requests.Response) -> str:
    m = re.search(r"\bline (\d+)", resp.text[:2000])
    return f" at line {m.group(1)}" if m else ""


def _engine_errors(resp: requests.Response) -> list[dict[str, int]]:
    m = re.search(r"\bline (\d+)", resp.text[:2000])
    return [{"line": int(m.group(1))}] if m else []


def _named(iri: str) -> ox.NamedNode:
    try:
        return ox.NamedNode(str(iri))
    except ValueError:
        raise BadRequest(f"graph {str(iri)[:200]!r} is not a valid IRI") from None


def _term(binding: Mapping[str, str] | None) -> Term | None:
    """A term of a SPARQL JSON result, as the interface's term type."""
    if binding is None:
        return None
    kind, value = binding["type"], binding["value"]
    try:
        if kind == "uri":
            return ox.NamedNode(value)
        if kind == "bnode":
            return ox.BlankNode(re.sub(r"[^A-Za-z0-9_]", "_", value) or "b")
        if "xml:lang" in binding:
            return ox.Literal(value, language=binding["xml:lang"])
        if binding.get("datatype"):
            datatype = binding["datatype"]
            if datatype == _BOOLEAN:
                # Virtuoso 7.2 writes false as "0" (a lexical form of the same value): the canonical
                # form is the one every client and the embedded store print.
                value = _CANONICAL_BOOLEAN.get(value.strip(), value)
            return ox.Literal(value, datatype=ox.NamedNode(datatype))
        return ox.Literal(value)
    except ValueError:
        raise StoreError("the remote engine sent a term that is not valid RDF") from None


_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"
_CANONICAL_BOOLEAN = {"0": "false", "1": "true"}


def _sparql_terms(terms: Iterable[StoredTerm]) -> set[str]:
    # A blank node cannot be named in a query (its label would be a fresh variable): the engine has
    # nothing it could match for one, so it is left out.
    return {str(t) for t in terms if not isinstance(t, ox.BlankNode | ox.Triple)}


def _values_block(name: str, terms: Iterable[str]) -> str:
    return f"VALUES ?{name} {{ {' '.join(sorted(terms))} }}"


GENID = BASE + ".well-known/genid/"
"""Prefix of skolem IRIs standing for blank nodes sent to a remote engine."""


def _skolemize(quads: list[ox.Quad]) -> list[ox.Quad]:
    run = secrets.token_hex(6)

    def sk(t: Any) -> Any:
        return ox.NamedNode(f"{GENID}{run}-{t.value}") if isinstance(t, ox.BlankNode) else t

    return [ox.Quad(sk(q.subject), q.predicate, sk(q.object), q.graph_name) for q in quads]


def _unskolemized(quads: Iterable[ox.Quad]) -> list[ox.Quad]:
    """Quads with the genid IRIs aikg made of blank nodes as blank nodes again (RDF 1.1 §3.5): a graph
    written with blank nodes is read back with blank nodes, as on the embedded store (the W3C Graph Store
    tests GET what they PUT and compare the graphs)."""

    def blank(t: Any) -> Any:
        if isinstance(t, ox.NamedNode) and t.value.startswith(GENID):
            return ox.BlankNode(re.sub(r"[^A-Za-z0-9_]", "_", t.value[len(GENID) :]) or "b")
        return t

    return [ox.Quad(blank(q.subject), q.predicate, blank(q.object), q.graph_name) for q in quads]


def skolemize_text(text: str) -> str:
    """Blank node labels inside ``INSERT DATA`` blocks replaced by genid IRIs (one run, one mapping).

    Labels elsewhere (patterns, templates) are variables in all but name and stay as they are.
    """
    if "_:" not in text:
        return text
    run = secrets.token_hex(6)
    toks = tokenize(text)
    edits = [
        (t.start, t.end, f"<{GENID}{run}-{t.text[2:]}>")
        for start, end in _data_blocks(toks, "INSERT")
        for t in toks[start:end]
        if t.kind == "bnode"
    ]
    return apply_edits(text, edits)


def split_delete_data(text: str) -> str:
    """Each ``DELETE DATA`` with several ``GRAPH`` blocks split into one operation per block.

    Same meaning in SPARQL 1.1; needed because Virtuoso 7.2 leaves the language-tagged and custom-typed
    literals of a several-block DELETE DATA in place (virtuoso-opensource#1055).
    """
    toks = tokenize(text)
    edits = []
    for start, end in _data_blocks(toks, "DELETE"):
        items = _data_items(toks, start, end)
        if len(items) > 1:
            parts = [text[toks[a].start : toks[b].end] for a, b in items]
            edits.append(
                (toks[start - 1].start, toks[end].end, "{ " + " } ;\nDELETE DATA { ".join(parts) + " }")
            )
    return apply_edits(text, edits)


def _data_blocks(toks: list[Token], verb: str) -> list[tuple[int, int]]:
    """(index after ``{``, index of ``}``) of every ``verb DATA { … }`` block."""
    out = []
    depth = 0
    for i, tok in enumerate(toks):
        if tok.text == "{":
            depth += 1
        elif tok.text == "}":
            depth -= 1
        elif (
            depth == 0
            and tok.is_keyword(verb)
            and i + 2 < len(toks)
            and toks[i + 1].is_keyword("DATA")
            and toks[i + 2].text == "{"
        ):
            close = _matching(toks, i + 2)
            out.append((i + 3, close))
    return out


def _matching(toks: list[Token], k: int) -> int:
    depth = 0
    for j in range(k, len(toks)):
        depth += (toks[j].text == "{") - (toks[j].text == "}")
        if depth == 0:
            return j
    return len(toks) - 1


def _data_items(toks: list[Token], start: int, end: int) -> list[tuple[int, int]]:
    """The top-level parts of a quad-data block: each ``GRAPH x { … }`` and each run of loose triples
    between them on its own (first and last token index of each)."""
    items: list[tuple[int, int]] = []
    loose: list[int] = []
    k = start
    while k <= end:
        at_graph = k < end and toks[k].is_keyword("GRAPH") and k + 2 < end and toks[k + 2].text == "{"
        if at_graph or k == end:
            if loose:
                items.append((loose[0], loose[-1]))
                loose = []
            if k == end:
                break
            close = _matching(toks, k + 2)
            items.append((k, close))
            k = close + 1
            continue
        if toks[k].text != "." or loose:
            loose.append(k)
        k += 1
    return items


def _ox_quad_block(quads: list[ox.Quad]) -> str:
    """Quads as one ``GRAPH <g> { … }`` block per graph: a block per quad makes Virtuoso generate SQL
    past its size limit (SP031) for a few thousand quads."""
    by_graph: dict[str, list[str]] = {}
    for q in quads:
        by_graph.setdefault(str(q.graph_name), []).append(f"{q.subject} {q.predicate} {q.object} .")
    return "\n".join(f"GRAPH {g} {{\n" + "\n".join(lines) + "\n}" for g, lines in by_graph.items())


def _engine_message(resp: requests.Response) -> str:
    text = resp.text.strip().splitlines()
    return (text[0] if text else resp.reason or "no detail")[:300]
