"""Small helpers the tests share: services around a test's store, named queries, compact terms."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from aikg.services import Services, build_services
from aikg.settings import load_settings
from aikg.store import QueryResult, Store

ID = "https://w3id.org/aikg/id/"
AIKG = "https://w3id.org/aikg/ontology#"


def children(pid: int) -> list[int]:
    """The processes ``pid`` started, read from /proc; threads or processes that end meanwhile are skipped."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, deepest first."""
    out: list[int] = []
    for kid in children(pid):
        out += [*descendants(kid), kid]
    return out


def command_line(pid: int) -> str:
    """A process's command line, or "" once it has ended."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return ""


def kill_hard(server: Any) -> None:
    """SIGKILL the server and all its processes at once: no clean shutdown of any kind.

    The tree is frozen first, parents before children, until no new process appears: killed one by
    one, a writer's arbiter could start a new writer before its own turn came, and that orphan would
    hold the store's lock when the test restarts the server. Then every process is killed, and waited
    for until it has exited (a killed process keeps its locks until then).
    """
    frozen: list[int] = []
    while True:
        tree = [server.proc.pid, *reversed(descendants(server.proc.pid))]  # parents first
        new = [pid for pid in tree if pid not in frozen]
        if not new:
            break
        for pid in new:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
            frozen.append(pid)
    for pid in frozen:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    server.proc.wait()
    deadline = time.monotonic() + 30
    while any(running(pid) for pid in frozen):
        assert time.monotonic() < deadline, "killed processes did not exit"
        time.sleep(0.05)


def proc_stat(path: str | Path) -> list[str]:
    """The fields of a /proc ``stat`` file (a process's or a thread's) after the command name, which
    may hold spaces and parentheses: [0] is the state, [11] and [12] the user and system clock ticks,
    [16] the niceness (proc(5) numbers them from 3). Raises OSError once the process is gone."""
    return Path(path).read_text().rsplit(")", 1)[1].split()


def running(pid: int) -> bool:
    """True while ``pid`` has not exited (a zombie has: it holds no file or lock)."""
    try:
        return proc_stat(f"/proc/{pid}/stat")[0] != "Z"
    except OSError:
        return False


def cpu_seconds(pid: int) -> float:
    """CPU time ``pid`` has used so far (user + system)."""
    fields = proc_stat(f"/proc/{pid}/stat")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def services_for(store: Store, **settings: Any) -> Services:
    """The services around a test's store (no environment, no seeds loaded), with limits a busy machine
    does not trip unless the test sets its own (beside busy loops, a 20,000-``!`` ASK took past the
    default 5 s and answered "query timeout")."""
    config = {"store": "memory", "load_seeds": False, "query_timeout": 60, "write_timeout": 120, **settings}
    return build_services(load_settings(config, environ={}), store=store)


def run_named(
    store: Store,
    name: str,
    params: Mapping[str, str],
    settings: Mapping[str, Any] | None = None,
    *,
    directory: Path | None = None,
) -> QueryResult:
    """Run a named query on ``store`` under the service's limits."""
    services = services_for(
        store,
        **{
            k: v
            for k, v in (settings or {}).items()
            if k in ("query_timeout", "max_rows", "max_heavy_queries")
        },
    )
    if directory is not None:
        services.named.directory = directory
    try:
        return services.named.run(name, params)
    finally:
        services.runner.close()


def iri(slug: str) -> ox.NamedNode:
    """An ``id:`` entity as a term."""
    return ox.NamedNode(ID + slug)


def term(name: str) -> ox.NamedNode:
    """An ``aikg:`` vocabulary term."""
    return ox.NamedNode(AIKG + name)


def value(t: Any) -> str | None:
    """A term's lexical value (an IRI without brackets), None for None."""
    return None if t is None else t.value


def rdf_dicts(result: QueryResult) -> list[dict[str, Any]]:
    """SELECT rows as dicts of rdflib terms (``str()`` of which is the lexical value)."""
    from aikg.store.terms import to_rdflib

    return [{k: to_rdflib(t) for k, t in row.items()} for row in result.dicts()]


def rdf_rows(result: QueryResult) -> list[tuple[Any, ...]]:
    """SELECT rows as tuples of rdflib terms."""
    from aikg.store.terms import to_rdflib

    return [tuple(to_rdflib(t) for t in row) for row in result.rows]


class RdfView:
    """A test's view of a store in rdflib terms: terms are converted on the way in and out, so tests
    about values (derived figures, inferred types) can compare with rdflib's ``Literal`` / ``URIRef``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def query(self, sparql: str, *, bindings: Mapping[str, Any] | None = None, **kwargs: Any) -> QueryResult:
        from aikg.store.terms import to_ox, to_rdflib

        result = self.store.query(
            sparql, bindings={k: to_ox(v) for k, v in (bindings or {}).items()} or None, **kwargs
        )
        result.rows = [tuple(to_rdflib(t) for t in row) for row in result.rows]
        result.triples = [tuple(to_rdflib(t) for t in tr) for tr in result.triples]  # type: ignore[misc]
        return result

    def quads(self, s: Any = None, p: Any = None, o: Any = None, graph: str | None = None) -> list[tuple]:
        from aikg.store.terms import to_ox, to_rdflib

        found = self.store.quads(
            *(None if t is None else to_ox(t) for t in (s, p, o)), None if graph is None else str(graph)
        )
        return [
            (to_rdflib(q.subject), to_rdflib(q.predicate), to_rdflib(q.object), to_rdflib(q.graph_name))
            for q in found
        ]

    def apply(self, *, remove: Any = (), add: Any = ()) -> None:
        from aikg.store.terms import to_ox

        def quad(q: tuple) -> ox.Quad:
            s, p, o, g = q
            return ox.Quad(to_ox(s), to_ox(p), to_ox(o), ox.NamedNode(str(g)))

        self.store.apply(remove=[quad(q) for q in remove], add=[quad(q) for q in add])

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def rdf(store: Store) -> RdfView:
    """The store seen in rdflib terms (see :class:`RdfView`)."""
    return store if isinstance(store, RdfView) else RdfView(store)


def valid_may_be_refused(document: dict[str, Any], method: str, path: str) -> bool:
    """OpenAPI operations where a schema-valid request can still be refused with a 4xx, as documented:
    JSON Schema cannot say it, so schemathesis' "valid data is accepted" check does not apply to them.

    A SPARQL text that is not SPARQL; an entity parameter (a well-formed slug) that names no entity;
    and the operations the document marks ``x-aikg-valid-may-be-refused``: writes (401 without the token;
    with it, an update that does not parse, an empty or unparsable body, a graph aikg maintains, neither
    or both of ?graph and ?default) and Graph Store reads of a well-formed graph IRI
    the store does not hold (404).
    """
    if path == "/sparql":
        return True
    operation = document["paths"][path][method]
    if operation.get("x-aikg-valid-may-be-refused"):
        return True
    params = operation.get("parameters", [])
    return any(p.get("x-aikg-type") == "entity" for p in params)


def validation_report(client: Any, *, headers: Mapping[str, str] | None = None, tries: int = 2400) -> Any:
    """``GET /api/validate`` asked again while it answers 202 (the report is a job), until it is ready.

    The Retry-After a client is told is whole seconds; a test asks every 50 ms instead, and gives up
    after ``tries`` (a hang guard, not a timing).
    """
    import time

    for _ in range(tries):
        r = client.get("/api/validate", headers=dict(headers or {}))
        if r.status_code != 202:
            return r
        assert int(r.headers["Retry-After"]) >= 1
        time.sleep(0.05)
    raise AssertionError("the validation report never became ready")
