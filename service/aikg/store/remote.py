"""A remote SPARQL 1.1 engine (Virtuoso, Fuseki, GraphDB, Neptune, QLever) behind the store interface.

aikg then runs stateless in front of an engine that can scale beyond one machine, and several aikg
instances can share it. The engine is reached only through the standard protocols: SPARQL 1.1 Query,
Update, and optionally the Graph Store HTTP Protocol for bulk loads.

What the interface promises and how this backend keeps it:

- *The default graph is the union of aikg's named graphs.* Engines differ (Virtuoso unions every graph,
  including its own system graphs; Fuseki needs ``unionDefaultGraph``), so each query names aikg's
  graphs explicitly as ``default-graph-uri`` and ``named-graph-uri``.
- *Bindings are values, never raw text.* Each bound variable is replaced by its value serialized by
  rdflib, token by token, with the same meaning as Oxigraph's substitutions (SPARQL SEP-0007).
- *A version that changes on every write*, shared by every aikg instance: a stamp triple in the
  ``graph/system`` graph, replaced in the same update request as the write.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterable, Mapping, Sequence

import pyoxigraph as ox
import requests
from rdflib import BNode, Literal, URIRef
from rdflib.term import Identifier

from ..errors import QuerySyntaxError, QueryTimeout, RdfSyntaxError, StoreError
from ..namespaces import AIKG, GRAPH
from .base import Deadline, Quad, QueryResult, ResultKind, Store
from .oxigraph import rdf_format
from .terms import to_rdflib

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
_CHUNK = 2000
"""Triples per INSERT DATA request when loading without the Graph Store Protocol."""


class RemoteStore(Store):
    """The store interface over SPARQL 1.1 Query / Update / Graph Store protocols."""

    kind = "remote"

    def __init__(self, query_url: str, *, update_url: str = "", gsp_url: str = "", user: str = "",
                 password: str = "", timeout: float = 60.0) -> None:
        """Talk to the engine at ``query_url``; updates go to ``update_url`` (default: the same)."""
        self.query_url = query_url
        self.update_url = update_url or query_url
        self.gsp_url = gsp_url
        self.timeout = timeout
        self._http = requests.Session()
        if user:
            self._http.auth = requests.auth.HTTPDigestAuth(user, password)
        self._graphs: list[str] | None = None
        self._version_cache: tuple[float, int] = (0.0, -1)
        self._lock = threading.Lock()

    # -- protocol plumbing -------------------------------------------------------------------------

    def _post(self, url: str, data: Mapping[str, object], accept: str | None,
              deadline: Deadline | None = None) -> requests.Response:
        timeout = self.timeout
        if deadline is not None:
            timeout = max(0.05, min(timeout, deadline.at - time.monotonic()))
        headers = {"Accept": accept} if accept else {}
        try:
            resp = self._http.post(url, data=data, headers=headers, timeout=timeout)
        except requests.Timeout:
            raise QueryTimeout("the query ran past its time limit and was stopped") from None
        except requests.RequestException as exc:
            raise StoreError(f"the remote SPARQL engine is unreachable: {type(exc).__name__}") from None
        if resp.status_code == 400:
            raise QuerySyntaxError("the remote engine refused the query: " + _engine_message(resp))
        if resp.status_code >= 300:
            raise StoreError(f"the remote engine answered {resp.status_code}: {_engine_message(resp)}")
        return resp

    def _graph_params(self, default_graphs: Sequence[str] | None,
                      named_graphs: Sequence[str] | None) -> dict[str, list[str]]:
        ours = self.graphs()
        return {"default-graph-uri": list(default_graphs or ours),
                "named-graph-uri": list(named_graphs or ours)}

    # -- the interface -----------------------------------------------------------------------------

    def query(self, sparql: str, *, bindings: Mapping[str, Identifier] | None = None,
              default_graphs: Sequence[str] | None = None,
              named_graphs: Sequence[str] | None = None,
              max_rows: int | None = None, deadline: Deadline | None = None) -> QueryResult:
        _check_parses(sparql)
        text = substitute(sparql, bindings) if bindings else sparql
        form = query_form(text)
        params: dict[str, object] = {"query": text, **self._graph_params(default_graphs, named_graphs)}
        if form in ("CONSTRUCT", "DESCRIBE"):
            resp = self._post(self.query_url, params, "application/n-triples", deadline)
            triples = []
            truncated = False
            for t in ox.parse(resp.content, format=ox.RdfFormat.N_TRIPLES):
                if max_rows is not None and len(triples) >= max_rows:
                    truncated = True
                    break
                triples.append((to_rdflib(t.subject), to_rdflib(t.predicate), to_rdflib(t.object)))
            return QueryResult(ResultKind.GRAPH, triples=triples, truncated=truncated)
        resp = self._post(self.query_url, params, "application/sparql-results+json", deadline)
        try:
            body = resp.json()
        except ValueError:
            raise StoreError("the remote engine sent results that are not SPARQL JSON") from None
        if "boolean" in body:
            return QueryResult(ResultKind.ASK, boolean=bool(body["boolean"]))
        variables = body["head"].get("vars", [])
        bound = body["results"]["bindings"]
        if form == "ASK":  # Virtuoso answers ASK as a one-row SELECT of __ASK_RETVAL
            value = bound[0][variables[0]]["value"] if bound and variables else "0"
            return QueryResult(ResultKind.ASK, boolean=value in ("1", "true"))
        truncated = max_rows is not None and len(bound) > max_rows
        if truncated:
            bound = bound[:max_rows]
        rows = [tuple(_term(b.get(v)) for v in variables) for b in bound]
        return QueryResult(ResultKind.SELECT, variables=variables, rows=rows, truncated=truncated)

    def update(self, sparql: str) -> None:
        _check_parses(sparql, update=True)
        self._update(sparql)

    def _update(self, sparql: str, *, bump: bool = True) -> None:
        text = f"{sparql} ;\n{_bump_version()}" if bump else sparql
        self._post(self.update_url, {"update": text}, None)
        with self._lock:
            self._graphs = None
            self._version_cache = (0.0, -1)

    def load(self, data: bytes, *, mime: str, graph: str | None = None,
             replace: bool = False) -> int:
        fmt = rdf_format(mime)
        try:
            parsed = list(ox.parse(data, format=fmt))
        except SyntaxError as exc:
            raise RdfSyntaxError(f"the RDF document does not parse: {exc}") from None
        target = ox.NamedNode(graph) if graph else None
        if target is None and any(isinstance(q.graph_name, ox.DefaultGraph) for q in parsed):
            raise RdfSyntaxError("every triple must go to a named graph: name the target graph")
        quads = [q if not isinstance(q.graph_name, ox.DefaultGraph)
                 else ox.Quad(q.subject, q.predicate, q.object, target) for q in parsed]
        ops = [f"DROP SILENT GRAPH <{graph}>"] if replace and graph else []
        # Engines limit blank nodes in updates (Virtuoso refuses them in INSERT DATA and caps the size
        # of INSERT templates), so blank nodes are skolemized (RDF 1.1 §3.5) into genid IRIs.
        quads = _skolemize(quads)
        for start in range(0, len(quads), _CHUNK):
            ops.append("INSERT DATA {\n" + _ox_quad_block(quads[start:start + _CHUNK]) + "\n}")
        if ops:
            self._update(" ;\n".join(ops))
        return len(quads)

    def dump(self, *, mime: str, graph: str | None = None) -> bytes:
        fmt = rdf_format(mime)
        if graph is None:
            if mime not in ("application/n-quads", "application/trig"):
                raise RdfSyntaxError("a dump of the whole store needs a quad format (N-Quads, TriG)")
            quads = [ox.Quad(_ox(s), _ox(p), _ox(o), ox.NamedNode(str(g)))
                     for s, p, o, g in self.quads()]
            return ox.serialize(quads, format=fmt)
        triples = [ox.Triple(_ox(s), _ox(p), _ox(o)) for s, p, o, _ in self.quads(graph=graph)]
        return ox.serialize(triples, format=fmt)

    def graphs(self) -> list[str]:
        with self._lock:
            if self._graphs is not None:
                return list(self._graphs)
        resp = self._post(self.query_url, {"query": "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }"},
                          "application/sparql-results+json")
        found = sorted(b["g"]["value"] for b in resp.json()["results"]["bindings"]
                       if b["g"]["value"] != SYSTEM_GRAPH
                       and not b["g"]["value"].startswith(_ENGINE_GRAPH_PREFIXES))
        with self._lock:
            self._graphs = found
        return list(found)

    def drop_graph(self, graph: str) -> None:
        self._update(f"DROP SILENT GRAPH <{URIRef(graph)}>")

    def count(self, graph: str | None = None) -> int:
        graphs = [graph] if graph else self.graphs()
        if not graphs:
            return 0
        res = self.query("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }",
                         named_graphs=graphs, default_graphs=graphs)
        return int(res.rows[0][0]) if res.rows else 0

    def quads(self, subject: Identifier | None = None, predicate: Identifier | None = None,
              obj: Identifier | None = None, graph: str | None = None) -> Iterable[Quad]:
        graphs = [graph] if graph else self.graphs()
        if not graphs:
            return []
        s = subject.n3() if subject is not None else "?s"
        p = predicate.n3() if predicate is not None else "?p"
        o = obj.n3() if obj is not None else "?o"
        res = self.query(f"SELECT ?s ?p ?o ?g WHERE {{ GRAPH ?g {{ {s} {p} {o} BIND({s} AS ?s) "
                         f"BIND({p} AS ?p) BIND({o} AS ?o) }} }}" if any(
                             t is not None for t in (subject, predicate, obj))
                         else "SELECT ?s ?p ?o ?g WHERE { GRAPH ?g { ?s ?p ?o } }",
                         named_graphs=graphs, default_graphs=graphs)
        return [(r[0], r[1], r[2], URIRef(r[3])) for r in res.rows]

    def apply(self, *, remove: Iterable[Quad] = (), add: Iterable[Quad] = ()) -> None:
        remove, add = list(remove), list(add)
        ops = []
        if remove:
            ops.append("DELETE DATA {\n" + _quad_block(remove) + "\n}")
        if add:
            ops.append("INSERT DATA {\n" + _quad_block(_skolemize_rdflib(add)) + "\n}")
        if ops:
            self._update(" ;\n".join(ops))

    @property
    def version(self) -> int:
        # Several aikg instances may share the engine, so the version lives there; a short memo keeps
        # a burst of cached reads from asking for it on every request.
        with self._lock:
            stamp, value = self._version_cache
            if time.monotonic() - stamp < 0.5 and value >= 0:
                return value
        resp = self._post(self.query_url, {
            "query": f"SELECT ?v WHERE {{ GRAPH <{SYSTEM_GRAPH}> {{ <{SYSTEM_GRAPH}> <{_VERSION}> ?v }} }}",
        }, "application/sparql-results+json")
        rows = resp.json()["results"]["bindings"]
        value = int(rows[0]["v"]["value"]) if rows else 0
        with self._lock:
            self._version_cache = (time.monotonic(), value)
        return value

    def close(self) -> None:
        self._http.close()


# -- helpers -----------------------------------------------------------------------------------------

def _bump_version() -> str:
    # A fresh random stamp rather than a counter: engines disagree on read-modify-write updates
    # (Virtuoso 7.2 fails on aggregates inside DELETE/INSERT), and a version only needs to change.
    g, v = f"<{SYSTEM_GRAPH}>", f"<{_VERSION}>"
    stamp = secrets.randbits(62)
    return (f"DELETE WHERE {{ GRAPH {g} {{ {g} {v} ?old }} }} ;\n"
            f"INSERT DATA {{ GRAPH {g} {{ {g} {v} {stamp} }} }}")


def _check_parses(text: str, *, update: bool = False) -> None:
    # Parse locally first (parse only, nothing runs), so a malformed query is a 400 that says where,
    # whatever the engine's own error message looks like.
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    try:
        (parseUpdate if update else parseQuery)(text)
    except ParseException as exc:
        what = "update" if update else "query"
        raise QuerySyntaxError(f"the {what} does not parse at line {exc.lineno}, column {exc.col}") from None


def _term(binding: Mapping[str, str] | None) -> Identifier | None:
    if binding is None:
        return None
    kind, value = binding["type"], binding["value"]
    if kind == "uri":
        return URIRef(value)
    if kind == "bnode":
        return BNode(value)
    if "xml:lang" in binding:
        return Literal(value, lang=binding["xml:lang"])
    if binding.get("datatype"):
        return Literal(value, datatype=URIRef(binding["datatype"]))
    return Literal(value)


def _ox(term: Identifier) -> ox.NamedNode | ox.BlankNode | ox.Literal:
    from .terms import to_ox

    return to_ox(term)


def _quad_block(quads: list[Quad]) -> str:
    return "\n".join(f"GRAPH <{g}> {{ {s.n3()} {p.n3()} {o.n3()} }}" for s, p, o, g in quads)


GENID = "https://w3id.org/aikg/.well-known/genid/"
"""Prefix of skolem IRIs standing for blank nodes sent to a remote engine."""


def _skolemize(quads: list[ox.Quad]) -> list[ox.Quad]:
    run = secrets.token_hex(6)

    def sk(t: object) -> object:
        return ox.NamedNode(f"{GENID}{run}-{t.value}") if isinstance(t, ox.BlankNode) else t

    return [ox.Quad(sk(q.subject), q.predicate, sk(q.object), q.graph_name) for q in quads]


def _skolemize_rdflib(quads: list[Quad]) -> list[Quad]:
    run = secrets.token_hex(6)

    def sk(t: Identifier) -> Identifier:
        return URIRef(f"{GENID}{run}-{t}") if isinstance(t, BNode) else t

    return [(sk(s), p, sk(o), g) for s, p, o, g in quads]


def _ox_quad_block(quads: list[ox.Quad]) -> str:
    return "\n".join(f"GRAPH {q.graph_name} {{ {q.subject} {q.predicate} {q.object} }}" for q in quads)


def _engine_message(resp: requests.Response) -> str:
    text = resp.text.strip().splitlines()
    return (text[0] if text else resp.reason or "no detail")[:300]


def query_form(text: str) -> str:
    """The query form keyword (SELECT, ASK, CONSTRUCT, DESCRIBE) of a parsed query text."""
    for token in _tokens(text):
        upper = token.upper()
        if upper in ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE"):
            return upper
    return "SELECT"


def _tokens(text: str) -> Iterable[str]:
    """Top-level words and braces of a SPARQL text, skipping comments, strings and IRIs."""
    i, n = 0, len(text)
    while i < n:
        j = _skip_opaque(text, i)
        if j != i:
            i = j
            continue
        c = text[i]
        if c in "{}":
            yield c
        elif c.isalpha():
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_:-"):
                j += 1
            yield text[i:j]
            i = j
            continue
        i += 1


def _looks_like_iri(text: str, i: int) -> bool:
    j = text.find(">", i)
    return j != -1 and not any(ch in text[i + 1:j] for ch in " \n\t")


def substitute(text: str, bindings: Mapping[str, Identifier]) -> str:
    """Replace bound variables by their values, as Oxigraph's ``substitutions`` do (SPARQL SEP-0007).

    Remote engines have no substitution API, so the query is rewritten token by token: each value is
    serialized by rdflib (never pasted as raw text), strings, IRIs and comments are left untouched, a
    projected variable becomes ``(value AS ?var)`` and a grouping/ordering key ``(value)``.
    """
    out: list[str] = []
    i, n = 0, len(text)
    clause = ""  # the clause being read: SELECT, GROUP, ORDER, or another
    depth = 0  # parenthesis depth within that clause
    after_as = False
    while i < n:
        c = text[i]
        j = _skip_opaque(text, i)
        if j != i:
            out.append(text[i:j])
            i = j
            continue
        if c in "?$" and i + 1 < n and (text[i + 1].isalnum() or text[i + 1] == "_"):
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            name = text[i + 1:j]
            if name in bindings and not after_as:
                value = bindings[name].n3()
                if clause == "SELECT" and depth == 0:
                    out.append(f"({value} AS ?{name})")
                elif clause in ("GROUP", "ORDER") and depth == 0:
                    out.append(f"({value})")
                else:
                    out.append(value)
            else:
                out.append(text[i:j])
            after_as = False
            i = j
            continue
        if c.isalpha():
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_:-"):
                j += 1
            word = text[i:j].upper()
            if word in _CLAUSES:
                clause, depth = word, 0
            after_as = word == "AS"
            out.append(text[i:j])
            i = j
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "{":
            clause, depth = "", 0
        out.append(c)
        i += 1
    return "".join(out)


_CLAUSES = {"SELECT", "GROUP", "ORDER", "WHERE", "HAVING", "LIMIT", "OFFSET", "VALUES", "CONSTRUCT",
            "ASK", "DESCRIBE"}


def _skip_opaque(text: str, i: int) -> int:
    """End of a comment, string literal or IRI starting at ``i`` (``i`` itself when none starts)."""
    n, c = len(text), text[i]
    if c == "#":
        j = text.find("\n", i)
        return n if j == -1 else j
    if c in "\"'":
        quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else c
        j = i + len(quote)
        while j < n and text[j:j + len(quote)] != quote:
            j += 2 if text[j] == "\\" else 1
        return min(n, j + len(quote))
    if c == "<" and _looks_like_iri(text, i):
        return text.find(">", i) + 1
    return i
