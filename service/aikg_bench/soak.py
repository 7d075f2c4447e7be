"""The soak and the fair share: ``aikg serve`` under hours-like traffic, measured from outside.

**Soak** (:func:`soak`): ``clients`` pooled keep-alive clients, each with random pauses (some past the
server's 2 s keep-alive, so reused idle connections are exercised), send a mixed load for ``seconds``
to a copy of a default store served the README's default way: entity lookups (the hub ``nvidia``
among them), search, named queries with and without parameters, SPARQL SELECT and ASK, exports and
neighbourhoods, and gated writes (INSERT DATA / DELETE DATA through ``/update``, PUT / POST / DELETE
through the Graph Store ``/data``) with the token. It reports requests by route and status, errors
(a 5xx, a timeout, a connection error, an error not in the JSON envelope, or a status the request should
not get — every request of the mix is valid), latency percentiles per kind, and the resident memory of
every serving process over time.

**Fair share** (:func:`fair_share`): the p99 latency of cheap requests (an entity, an ``ASK``, the
hub's depth-1 neighbourhood, a bad parameter's 400) idle, and while ``hostile`` clients run runaway
queries, deep neighbourhoods of ``nvidia``, large CONSTRUCTs and slow-sending connections; the ratio
under load / idle is the figure (goal ≤ 2), with a 90 % interval by resampling. Idle and loaded blocks
alternate (four of each by default, 30 s each), so both phases get as many probes and share whatever
else the machine does over the run; an idle block starts only once no hostile request is in flight.
The hostile clients read their answers as sent, without decompressing them: on one machine, their CPU
is the server's.

``python -m aikg_bench.soak --store DIR --seconds 600 --out soak.json`` (``--fair`` for the fair
share). No figure is asserted anywhere: the machine decides them; the report carries the load average.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import random
import re
import resource
import select
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote, urlencode

import requests
import urllib3

from aikg.namespaces import PREFIXES
from aikg.query.named import load_queries
from aikg.serving.views import GRACE
from aikg_bench.served import (
    TOKEN,
    MemoryWatch,
    Served,
    load_average,
    prepare_store,
    pressure,
    stop_on_sigterm,
)

ID = "https://w3id.org/aikg/id/"
SOAK_GRAPH = "https://w3id.org/aikg/graph/soak/"
"""Writes go to graphs under this one: inside the writable namespace, apart from every seed graph."""
READ_BUDGET = 5.0
"""A read's budget: the default ``query_timeout``. Answers later than budget + 1 s are counted as slow."""
WRITE_BUDGET = 120.0
"""A write's budget: the default ``write_timeout``."""
READ_TIMEOUT = 30.0
"""Seconds a soak client waits for a read before it counts a timeout (the budget with a wide margin)."""
WRITE_TIMEOUT = 130.0
HUBS = ("nvidia", "coreweave", "deepseek-v3", "h100", "openai", "microsoft", "gb200-nvl72")
SEARCHES = (
    "nvidia",
    "NVIDIA",
    "coreweave",
    "英伟达",
    "deepseek v3",
    "gb300",
    "h100",
    "openai",
    "tpu",
    "microsoft",
    "groq",
    "llama",
    "gpt-4",
    "cluster",
    "zzz no such name",
)
PARAM_VALUES = {
    "org": ("nvidia", "coreweave", "microsoft", "openai"),
    "entity": ("deepseek-v3", "coreweave", "nvidia", "gb200-nvl72"),
    "vendor": ("nvidia", "google"),
    "accelerator": ("h100", "h800"),
    "company": ("openai", "coreweave"),
    "from": ("2020-01-01", "2024-01-01", "2025"),
    "to": ("2024-12-31", "2026-12-31"),
    "axis": ("document", "dataset"),
    "include": ("likely", "all"),
    "uses": ("any", "mostly-known"),
    "date": ("2024-06-30", "2026-12-31"),
}
"""Values for the named queries' parameters, each naming something in the seeds (so in every default
store); half the time an entity parameter takes an entity found in the store instead."""
EXPORT_FORMATS = ("graphml", "gexf", "dot", "cytoscape", "nquads", "turtle")
WEIGHTS = {"lookup": 26, "search": 14, "named": 14, "select": 10, "ask": 8, "export": 14, "write": 14}
"""How often each kind of request is drawn, in percent."""
_PREFIXES = "".join(f"PREFIX {p}: <{ns}>\n" for p, ns in PREFIXES.items())
SELECTS = (
    "SELECT ?m ?label WHERE { ?m a aikg:AIModel ; rdfs:label ?label } LIMIT 200",
    "SELECT ?type (COUNT(?s) AS ?n) WHERE { ?s a ?type } GROUP BY ?type ORDER BY DESC(?n) LIMIT 50",
    "SELECT ?deal ?p ?o WHERE { ?deal aikg:party id:nvidia ; ?p ?o } LIMIT 500",
    "SELECT DISTINCT ?chip ?vendor WHERE { ?chip a aikg:Accelerator ; aikg:manufacturer ?vendor } LIMIT 1000",
    "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g",
)
ASKS = (
    "ASK { id:nvidia a aikg:HardwareVendor }",
    "ASK { ?deal aikg:investor id:nvidia }",
    "ASK { id:no-such-entity ?p ?o }",
    "ASK { ?s a aikg:Neocloud }",
)
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


# -- requests and what is wrong with an answer --------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One request: its kind (for latency), route (for counts), and the statuses a correct server gives."""

    kind: str
    route: str
    method: str
    target: str
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None
    expect: frozenset[int] = frozenset({200})
    timeout: float = READ_TIMEOUT
    budget: float = READ_BUDGET


@dataclass(frozen=True)
class Outcome:
    """What came back: a status (0 when nothing did), the time it took, and the problem, if any."""

    status: int
    seconds: float
    problem: str | None = None
    detail: str = ""


def in_envelope(status: int, content_type: str, body: bytes) -> bool:
    """True if an error response is aikg's JSON envelope (``ok``, ``status``, ``error``, ``message``,
    ``errors``) with a JSON content type."""
    if not content_type.lower().startswith("application/json"):
        return False
    try:
        doc = json.loads(body)
    except ValueError:
        return False
    return (
        isinstance(doc, dict)
        and doc.get("ok") is False
        and doc.get("status") == status
        and isinstance(doc.get("error"), str)
        and isinstance(doc.get("message"), str)
        and isinstance(doc.get("errors"), list)
    )


def judge(call: Call, status: int, content_type: str, body: bytes) -> str | None:
    """The problem with an answer: a 5xx, an error outside the envelope, a status the call should not get."""
    if status >= 500:
        return "5xx"
    if status >= 400 and not in_envelope(status, content_type, body):
        return "not in the envelope"
    if status not in call.expect:
        return "unexpected status"
    return None


def send(session: requests.Session, base: str, call: Call, *, decode: bool = True) -> Outcome:
    """Send ``call`` on the pooled ``session``, read the whole answer, and judge it.

    With ``decode`` false a successful answer is read as it came, not decompressed: a hostile client
    only needs the server to send it; decompressing it here took CPU from the server it measures.
    """
    start = time.perf_counter()
    try:
        r = session.request(
            call.method,
            base + call.target,
            headers=dict(call.headers),
            data=call.body,
            timeout=call.timeout,
            allow_redirects=False,
            stream=not decode,
        )
        if decode or r.status_code >= 400:
            body = r.content
        else:
            body = b""
            for _ in r.raw.stream(1 << 16, decode_content=False):
                pass
            r.close()
    except requests.Timeout as exc:
        return Outcome(0, time.perf_counter() - start, "timeout", str(exc)[:200])
    except requests.ConnectionError as exc:
        return Outcome(0, time.perf_counter() - start, "connection error", str(exc)[:200])
    except urllib3.exceptions.ReadTimeoutError as exc:  # reading a raw answer
        return Outcome(0, time.perf_counter() - start, "timeout", str(exc)[:200])
    except (requests.RequestException, urllib3.exceptions.HTTPError) as exc:  # a broken chunked body
        return Outcome(0, time.perf_counter() - start, "broken answer", f"{type(exc).__name__}: {exc}"[:200])
    seconds = time.perf_counter() - start
    problem = judge(call, r.status_code, r.headers.get("Content-Type", ""), body)
    detail = body[:200].decode("utf-8", "replace") if problem else ""
    return Outcome(r.status_code, seconds, problem, detail)


def percentiles(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, p50, p95, p99 and max of latencies in seconds, as milliseconds."""
    if not values:
        return {"n": 0, "p50_ms": None, "p95_ms": None, "p99_ms": None, "max_ms": None}
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50_ms": round(1000 * statistics.median(ordered), 1),
        "p95_ms": round(1000 * quantile(ordered, 0.95), 1),
        "p99_ms": round(1000 * quantile(ordered, 0.99), 1),
        "max_ms": round(1000 * ordered[-1], 1),
    }


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of values sorted ascending (the value at rank ``q`` · n, no interpolation)."""
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Tally:
    """Counts and latencies of one phase, shared by the clients (behind a lock)."""

    EXAMPLES = 10
    """Problems of each kind kept with their detail; the rest are only counted."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.routes: dict[str, dict[str, int]] = {}
        self.latencies: dict[str, list[float]] = {}
        self.problems: dict[str, int] = {}
        self.examples: list[dict[str, Any]] = []
        self.slow: dict[str, int] = {}
        self.late: dict[str, int] = {}
        """Answers past the budget plus the views' grace (what the service promises), by kind and status."""

    def answered(self) -> int:
        """Requests recorded so far, whatever their outcome."""
        with self._lock:
            return sum(sum(by_status.values()) for by_status in self.routes.values())

    def record(self, call: Call, outcome: Outcome) -> None:
        status = str(outcome.status) if outcome.status else (outcome.problem or "no answer")
        with self._lock:
            by_status = self.routes.setdefault(call.route, {})
            by_status[status] = by_status.get(status, 0) + 1
            self.latencies.setdefault(call.kind, []).append(outcome.seconds)
            if outcome.seconds > call.budget + 1:
                self.slow[call.kind] = self.slow.get(call.kind, 0) + 1
            if outcome.seconds > call.budget + GRACE:
                late = f"{call.kind} {status}"
                self.late[late] = self.late.get(late, 0) + 1
            if outcome.problem:
                self.problems[outcome.problem] = self.problems.get(outcome.problem, 0) + 1
                if self.problems[outcome.problem] <= self.EXAMPLES:
                    self.examples.append(
                        {
                            "problem": outcome.problem,
                            "status": outcome.status,
                            "method": call.method,
                            "target": call.target[:300],
                            "seconds": round(outcome.seconds, 3),
                            "detail": outcome.detail,
                        }
                    )

    def report(self, seconds: float) -> dict[str, Any]:
        with self._lock:
            total = sum(sum(s.values()) for s in self.routes.values())
            return {
                "seconds": round(seconds, 1),
                "requests": total,
                "rps": round(total / seconds, 1) if seconds else None,
                "errors": sum(self.problems.values()),
                "errors_by_kind": dict(sorted(self.problems.items())),
                "error_examples": list(self.examples),
                "over_budget_plus_1s": dict(sorted(self.slow.items())),
                "over_budget_plus_grace": dict(sorted(self.late.items())),
                "by_route": {r: dict(sorted(s.items())) for r, s in sorted(self.routes.items())},
                "latency": {k: percentiles(v) for k, v in sorted(self.latencies.items())},
            }


# -- the mix ------------------------------------------------------------------------------------------


def _sparql(kind: str, route: str, text: str, rng: random.Random, accept: str) -> Call:
    """A query by GET, form POST or direct POST (the three ways of the protocol), in turn at random."""
    how = rng.randrange(3)
    headers: tuple[tuple[str, str], ...] = (("Accept", accept),)
    if how == 0:
        return Call(kind, f"GET {route}", "GET", "/sparql?" + urlencode({"query": text}), headers)
    if how == 1:
        form = (("Content-Type", "application/x-www-form-urlencoded"),)
        return Call(
            kind, f"POST {route}", "POST", "/sparql", headers + form, urlencode({"query": text}).encode()
        )
    direct = (("Content-Type", "application/sparql-query"),)
    return Call(kind, f"POST {route}", "POST", "/sparql", headers + direct, text.encode())


def _turtle(triples: str) -> str:
    return "@prefix aikg: <https://w3id.org/aikg/ontology#> .\n" + triples


def _cloud(client: int, n: int) -> str:
    """A small node that conforms to the shapes: a neocloud with its label."""
    return (
        f"<{ID}soak-c{client}-{n}> a <https://w3id.org/aikg/ontology#Neocloud> ; "
        f'<http://www.w3.org/2000/01/rdf-schema#label> "Soak cloud {client} {n}"@en .'
    )


_AUTH = ("Authorization", f"Bearer {TOKEN}")


class Writes:
    """One client's gated writes, each undoing an earlier one, so the store stays the same size: INSERT
    DATA, DELETE DATA (``/update``), then PUT, POST and DELETE of a graph (``/data``)."""

    def __init__(self, client: int) -> None:
        self.client = client
        self.graph = f"{SOAK_GRAPH}c{client}"
        self.gsp = f"{SOAK_GRAPH}c{client}-gsp"
        self.steps = itertools.cycle(range(5))
        self.n = 0

    def next(self) -> Call:
        step = next(self.steps)
        if step == 0:
            self.n += 1
        c, n = self.client, self.n
        update = (("Content-Type", "application/sparql-update"), _AUTH)
        form = (("Content-Type", "application/x-www-form-urlencoded"), _AUTH)
        turtle = (("Content-Type", "text/turtle"), _AUTH)
        target = "/data?" + urlencode({"graph": self.gsp})
        kw: dict[str, Any] = {"timeout": WRITE_TIMEOUT, "budget": WRITE_BUDGET}
        if step == 0:
            text = f"INSERT DATA {{ GRAPH <{self.graph}> {{ {_cloud(c, n)} }} }}"
            return Call(
                "write", "POST /update", "POST", "/update", update, text.encode(), frozenset({200}), **kw
            )
        if step == 1:
            text = f"DELETE DATA {{ GRAPH <{self.graph}> {{ {_cloud(c, n)} }} }}"
            body = urlencode({"update": text}).encode()
            return Call("write", "POST /update", "POST", "/update", form, body, frozenset({200}), **kw)
        if step == 2:
            body = _turtle(_cloud(c, 1000 + n) + "\n" + _cloud(c, 2000 + n)).encode()
            return Call("write", "PUT /data", "PUT", target, turtle, body, frozenset({201}), **kw)
        if step == 3:
            body = _turtle(_cloud(c, 3000 + n)).encode()
            return Call("write", "POST /data", "POST", target, turtle, body, frozenset({200}), **kw)
        return Call("write", "DELETE /data", "DELETE", target, (_AUTH,), None, frozenset({200}), **kw)


@dataclass
class Mix:
    """Draws the soak's requests: ``entities`` are slugs found in the served store."""

    entities: list[str]
    named: list[tuple[str, list[tuple[str, str, bool]]]] = field(default_factory=list)
    """Each named query with its parameters (name, type, required)."""

    def __post_init__(self) -> None:
        if not self.named:
            self.named = [
                (q.name, [(p.name, p.type, p.required) for p in q.parameters])
                for q in load_queries().values()
            ]

    def entity(self, rng: random.Random) -> str:
        return rng.choice(HUBS) if rng.random() < 0.3 else rng.choice(self.entities)

    def draw(self, rng: random.Random, writes: Writes) -> Call:
        kind = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        return getattr(self, "_" + kind)(rng, writes)  # type: ignore[no-any-return]

    def _lookup(self, rng: random.Random, _writes: Writes) -> Call:
        slug = self.entity(rng)
        r = rng.random()
        if r < 0.75:
            return Call("lookup", "GET /api/entities/{id}", "GET", f"/api/entities/{quote(slug)}")
        if r < 0.9:
            accept = rng.choice(("text/turtle", "application/ld+json", "text/html"))
            return Call("lookup", "GET /id/{slug}", "GET", f"/id/{quote(slug)}", (("Accept", accept),))
        path = rng.choice(("/api/stats", "/api/types", "/api/queries", "/api/health"))
        return Call("lookup", f"GET {path}", "GET", path)

    def _search(self, rng: random.Random, _writes: Writes) -> Call:
        if rng.random() < 0.5:
            q = rng.choice(SEARCHES)
        else:
            slug = rng.choice(self.entities)
            q = slug.replace("-", " ")[: rng.randint(3, max(3, len(slug)))]
        params = {"q": q, "limit": str(rng.choice((5, 10, 20)))}
        return Call("search", "GET /api/search", "GET", "/api/search?" + urlencode(params))

    def _named(self, rng: random.Random, _writes: Writes) -> Call:
        name, params = rng.choice(self.named)
        # A parameter added to a query after this table was written keeps its default (optional) or is
        # a drawn entity; an unknown one had raised KeyError and silently ended the client's thread.
        given = {
            p: self.entity(rng)
            if kind == "entity" and (rng.random() < 0.5 or p not in PARAM_VALUES)
            else rng.choice(PARAM_VALUES[p])
            for p, kind, required in params
            if (required or rng.random() < 0.5) and (p in PARAM_VALUES or kind == "entity")
        }
        target = f"/api/queries/{name}" + ("?" + urlencode(given) if given else "")
        headers = (("Accept", "text/csv"),) if rng.random() < 0.2 else ()
        return Call("named", "GET /api/queries/{name}", "GET", target, headers)

    def _select(self, rng: random.Random, _writes: Writes) -> Call:
        accept = rng.choice(("application/sparql-results+json", "text/csv", "application/sparql-results+xml"))
        return _sparql("select", "/sparql SELECT", _PREFIXES + rng.choice(SELECTS), rng, accept)

    def _ask(self, rng: random.Random, _writes: Writes) -> Call:
        return _sparql(
            "ask", "/sparql ASK", _PREFIXES + rng.choice(ASKS), rng, "application/sparql-results+json"
        )

    def _export(self, rng: random.Random, _writes: Writes) -> Call:
        slug = self.entity(rng)
        r = rng.random()
        if r < 0.5:
            fmt = rng.choice(EXPORT_FORMATS)
            params = {"focus": slug, "depth": str(rng.choice((1, 1, 2)))}
            return Call("export", "GET /export/{format}", "GET", f"/export/{fmt}?" + urlencode(params))
        if r < 0.9:
            params = {"depth": str(rng.choice((1, 2))), "fold": rng.choice(("true", "false"))}
            target = f"/api/entities/{quote(slug)}/neighbors?" + urlencode(params)
            return Call("export", "GET /api/entities/{id}/neighbors", "GET", target)
        return Call(
            "export", "GET /api/graph", "GET", "/api/graph?" + urlencode({"limit": rng.choice((100, 600))})
        )

    def _write(self, _rng: random.Random, writes: Writes) -> Call:
        return writes.next()


def discover_entities(base: str, limit: int = 400, seed: int = 1, attempts: int = 5) -> list[str]:
    """Slugs of entities in the served store (a sample, so runs spread over the data, not one cache).
    Asked again after a refusal: the first query of a fresh server on a loaded machine can time out."""
    text = f"SELECT DISTINCT ?s WHERE {{ ?s a ?t FILTER(STRSTARTS(STR(?s), '{ID}')) }} LIMIT 20000"
    for attempt in range(attempts):
        r = requests.get(
            base + "/sparql",
            params={"query": text},
            headers={"Accept": "application/sparql-results+json"},
            timeout=60,
        )
        if r.status_code == 200 or attempt == attempts - 1:
            break
        time.sleep(2.0)
    r.raise_for_status()
    slugs = sorted(
        {
            b["s"]["value"].removeprefix(ID)
            for b in r.json()["results"]["bindings"]
            if _SLUG.match(b["s"]["value"].removeprefix(ID))
        }
    )
    rng = random.Random(seed)
    return rng.sample(slugs, min(limit, len(slugs)))


# -- the soak -----------------------------------------------------------------------------------------


def _pause(rng: random.Random) -> float:
    """Between two requests of a client: mostly short, sometimes past the server's keep-alive of 2 s,
    so an idle pooled connection that the server closed is reused."""
    return rng.uniform(2.2, 4.0) if rng.random() < 0.04 else rng.uniform(0.05, 0.6)


OVERTIME = 30
"""How much longer than asked (× ``seconds``) a run may go on to count ``at_least`` requests."""


def soak(
    store: Path,
    *,
    seconds: float = 600.0,
    clients: int = 8,
    warmup: float | None = None,
    work: Path | None = None,
    seed: int = 1,
    epoch: bool = True,
    extra: Sequence[Call] = (),
    sample_every: float = 5.0,
    server_env: dict[str, str] | None = None,
    log: Callable[[str], None] = print,
    at_least: int = 0,
) -> dict[str, Any]:
    """Serve a copy of ``store`` and run the mixed load on it (see the module docstring); the report.

    ``warmup`` (default a tenth of ``seconds``, at most 60) runs the same load before the measurement: its
    errors count, its latencies do not, and memory growth is measured from its end. ``extra`` calls are
    sent once each at the start of the measured phase (a test sends one that must count as an error).
    ``server_env``: ``AIKG_*`` settings for the server (say, ``AIKG_CACHE_SIZE=0`` to see what the
    response cache weighs). ``at_least``: the measured phase goes on past ``seconds`` until it counts
    that many requests and every ``extra`` call was sent (at most ``OVERTIME`` × ``seconds`` more): a busy
    machine answers fewer in the same seconds, and a test asserts what was counted, never how fast.
    """
    warmup = min(60.0, seconds / 10) if warmup is None else warmup
    with tempfile.TemporaryDirectory(prefix="aikg-soak-") as tmp:
        base_dir = work or Path(tmp)
        copy = prepare_store(store, base_dir, log, epoch=epoch)
        served = Served(copy, base_dir / "logs", env=server_env)
        with stop_on_sigterm(served):
            try:
                result = _soak_on(served, seconds, clients, warmup, seed, extra, sample_every, log, at_least)
                return {
                    **result,
                    "store": {"source": str(store), "served_copy": str(copy)},
                    "server_env": server_env,
                }
            finally:
                left = served.stop()
                if left:
                    log(f"serving processes left after the stop (killed): {left}")


def _soak_on(
    served: Served,
    seconds: float,
    clients: int,
    warmup: float,
    seed: int,
    extra: Sequence[Call],
    sample_every: float,
    log: Callable[[str], None],
    at_least: int = 0,
) -> dict[str, Any]:
    mix = Mix(discover_entities(served.base, seed=seed))
    tallies = {"warmup": Tally(), "measured": Tally()}
    watch = MemoryWatch(served, every=sample_every)
    watch.mark("before-warmup")
    begin = time.monotonic()
    measured_from = begin + warmup
    end = measured_from + seconds
    last = end + OVERTIME * seconds
    pending = list(extra)
    load_at_start: list[float] = []

    def more(i: int, now: float) -> bool:
        if now < end:
            return True
        if now >= last:
            return False
        return (i == 0 and bool(pending)) or tallies["measured"].answered() < at_least

    def client(i: int) -> None:
        rng = random.Random(seed * 1000 + i)
        writes = Writes(i)
        with requests.Session() as session:
            while more(i, now := time.monotonic()):
                phase = "measured" if now >= measured_from else "warmup"
                call = pending.pop(0) if i == 0 and phase == "measured" and pending else mix.draw(rng, writes)
                tallies[phase].record(call, send(session, served.base, call))
                time.sleep(min(_pause(rng), max(0.0, end - time.monotonic())))

    log(f"soak: {clients} clients, {warmup:.0f} s warm-up + {seconds:.0f} s on {served.base}")
    threads = [threading.Thread(target=client, args=(i,), name=f"soak-client-{i}") for i in range(clients)]
    for t in threads:
        t.start()
    time.sleep(max(0.0, measured_from - time.monotonic()))
    watch.mark("start")
    load_at_start = load_average()
    watch.start()
    for t in threads:
        t.join()
    elapsed = max(seconds, time.monotonic() - measured_from)
    watch.stop()
    watch.mark("end")
    load_at_end = load_average()
    measured = tallies["measured"].report(elapsed)
    warm = tallies["warmup"].report(warmup)
    memory = watch.report()
    errors = measured["errors"] + warm["errors"]
    growth = memory.get("lasting", {}).get("growth_pct")
    log(
        f"soak: {measured['requests']} requests, {errors} errors, RSS growth {growth} %, "
        f"load {load_at_start} -> {load_at_end}"
    )
    return {
        "kind": "soak",
        "clients": clients,
        "seconds": seconds,
        "measured_seconds": round(elapsed, 1),
        "warmup_seconds": warmup,
        "mix_weights_pct": WEIGHTS,
        "load_average": {"start": load_at_start, "end": load_at_end},
        "pressure_pct_end": pressure(),
        "measured": measured,
        "warmup": warm,
        "memory": memory,
        "errors": errors,
        "goals": {
            "no_errors": errors == 0,
            "rss_growth_under_10_pct": growth is not None and growth < 10,
        },
        "server_log_tail": served.log_tail(1500),
    }


# -- the fair share -----------------------------------------------------------------------------------

RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
"""A cartesian product of the whole store, three times over: it runs until the time limit stops it."""
CONSTRUCT = "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }"
SMALL_ENTITY = "groq"
"""A cheap lookup: an entity with a handful of facts."""
HUB = "nvidia"
"""The hub whose depth-1 neighbourhood is probed (the explorer's first view of it) and whose deep
neighbourhoods the hostile clients load."""


def _probe_calls(n: int) -> list[Call]:
    """The cheap lookups measured, each with a fresh nonce so it is answered, not replayed from the
    response cache; and the cached entity lookup, the path most lookups take."""
    ask = _PREFIXES + f"ASK {{ id:{SMALL_ENTITY} ?p ?o }} # probe {n}"
    return [
        Call(
            "entity", "GET /api/entities/{id}", "GET", f"/api/entities/{SMALL_ENTITY}?probe={n}", timeout=30
        ),
        Call(
            "ask",
            "GET /sparql ASK",
            "GET",
            "/sparql?" + urlencode({"query": ask}),
            (("Accept", "application/sparql-results+json"),),
            timeout=30,
        ),
        Call("entity (cached)", "GET /api/entities/{id}", "GET", f"/api/entities/{SMALL_ENTITY}", timeout=30),
        # a view's cheap lane (depth 0-1), and a bad parameter answered before any view is handed on
        Call(
            "neighbourhood (depth 1)",
            "GET /api/entities/{id}/neighbors",
            "GET",
            f"/api/entities/{HUB}/neighbors?depth=1&probe={n}",
            timeout=30,
        ),
        Call(
            "bad parameter (400)",
            "GET /api/entities/{id}/neighbors",
            "GET",
            f"/api/entities/{HUB}/neighbors?depth=9&probe={n}",
            expect=frozenset({400}),
            timeout=30,
        ),
    ]


def _hostile_call(kind: str, n: int, rng: random.Random) -> Call:
    nonce = f" # hostile {n}"
    anything = frozenset(range(100, 600))
    if kind == "runaway":
        headers = (
            ("Content-Type", "application/sparql-query"),
            ("Accept", "application/sparql-results+json"),
        )
        return Call(
            kind, "POST /sparql runaway", "POST", "/sparql", headers, (RUNAWAY + nonce).encode(), anything
        )
    if kind == "deep neighbourhood":
        if n % 2:
            params = {"depth": "4", "fold": "true", "limit": str(rng.randint(1000, 2000))}
            target = f"/api/entities/{HUB}/neighbors?" + urlencode(params)
            return Call(kind, "GET /api/entities/nvidia/neighbors", "GET", target, expect=anything)
        target = "/export/graphml?" + urlencode({"focus": HUB, "depth": "4", "fold": "true", "n": str(n)})
        return Call(kind, "GET /export/graphml nvidia", "GET", target, expect=anything)
    accept = ("application/n-triples", "application/rdf+xml", "text/turtle")[n % 3]
    headers = (("Content-Type", "application/sparql-query"), ("Accept", accept))
    return Call(
        kind, "POST /sparql CONSTRUCT", "POST", "/sparql", headers, (CONSTRUCT + nonce).encode(), anything
    )


HOSTILE_KINDS = ("runaway", "deep neighbourhood", "large construct", "slow sender")


class Turns:
    """When the hostile clients may send: between :meth:`go` and :meth:`pause`; what is in flight, and
    when each request they sent ran (``time.monotonic``, which every process of the machine shares)."""

    def __init__(self) -> None:
        self._state = threading.Condition()
        self._going = False
        self._stopped = False
        self._in_flight = 0
        self.spans: list[tuple[float, float]] = []

    def go(self) -> None:
        with self._state:
            self._going = True
            self._state.notify_all()

    def pause(self, timeout: float) -> bool:
        """Stop new requests and wait until none is in flight; False if one still is after ``timeout``."""
        with self._state:
            self._going = False
            return self._state.wait_for(lambda: self._in_flight == 0, timeout)

    def stop(self) -> None:
        with self._state:
            self._stopped = self._going = True
            self._state.notify_all()

    @property
    def going(self) -> bool:
        return self._going and not self._stopped

    def begin(self) -> bool:
        """Wait for a turn; True when a request may start (and is counted in flight), False to stop."""
        with self._state:
            self._state.wait_for(lambda: self._going)
            if self._stopped:
                return False
            self._in_flight += 1
            return True

    def end(self, began: float) -> None:
        with self._state:
            self._in_flight -= 1
            self.spans.append((began, time.monotonic()))
            self._state.notify_all()


def _slow_sender(base: str, turns: Turns, tally: Tally, connections: int = 4) -> None:
    """Connections that send a request a byte a second: each held until the server cuts it off, or
    closed when the clients pause."""
    host, port = base.removeprefix("http://").split(":")
    head = (
        b"POST /sparql HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\n"
        b"Content-Length: 400\r\n\r\n"
    )
    call = Call("slow sender", "POST /sparql slow", "POST", "/sparql", expect=frozenset({408}))
    while turns.begin():
        began = time.monotonic()
        socks: dict[socket.socket, float] = {}
        try:
            while turns.going:
                while len(socks) < connections:
                    s = socket.create_connection((host, int(port)), timeout=5)
                    s.sendall(head[:20])
                    socks[s] = time.perf_counter()
                readable, _, _ = select.select(list(socks), [], [], 1.0)
                for s in readable:
                    started = socks.pop(s)
                    try:
                        answer = s.recv(4096)
                    except OSError:
                        answer = b""
                    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
                    tally.record(call, Outcome(status, time.perf_counter() - started))
                    s.close()
                for s in list(socks):
                    try:
                        s.send(b"S")
                    except OSError:
                        socks.pop(s)
                        s.close()
        finally:
            for s in socks:
                s.close()
            turns.end(began)


def _hostile(kind: str, base: str, turns: Turns, tally: Tally, seed: int) -> None:
    if kind == "slow sender":
        _slow_sender(base, turns, tally)
        return
    rng = random.Random(seed)
    with requests.Session() as session:
        for n in itertools.count():
            if not turns.begin():
                return
            began = time.monotonic()
            try:
                call = _hostile_call(kind, n, rng)
                tally.record(call, send(session, base, call, decode=False))
            finally:
                turns.end(began)


def _hostile_clients(kinds: list[str], base: str, seed: int, conn: Connection) -> None:
    """The hostile clients, in a process of their own, sending while told to ("go" … "pause") until
    told to "stop"; then sends back their tally and when each of their requests ran.

    Reading their large answers holds the GIL of the process that reads them: threads beside the
    probes delayed the probes in the client, and the fair share measured the client, not the server.
    """
    turns, tally, began = Turns(), Tally(), time.monotonic()
    threads = [
        threading.Thread(
            target=_hostile, args=(k, base, turns, tally, seed + i), name=f"hostile-{i}", daemon=True
        )
        for i, k in enumerate(kinds)
    ]
    for t in threads:
        t.start()
    try:
        conn.send("ready")
        while (order := conn.recv()) != "stop":
            if order == "go":
                turns.go()
                conn.send("going")
            else:
                conn.send("paused" if turns.pause(120) else "still busy")
    except (EOFError, OSError):
        return  # the prober is gone (killed): so are these clients
    finally:
        turns.stop()
    for t in threads:
        t.join(60)
    used = resource.getrusage(resource.RUSAGE_SELF)
    # The clients share the server's cores here: what they spent is CPU the server did not have.
    spent = round(used.ru_utime + used.ru_stime, 1)
    conn.send({**tally.report(time.monotonic() - began), "cpu_seconds": spent, "spans": turns.spans})


def _probe(
    base: str, seconds: float, tally: Tally, rng: random.Random, counter: itertools.count[int]
) -> None:
    end = time.monotonic() + seconds
    with requests.Session() as session:
        while time.monotonic() < end:
            for call in _probe_calls(next(counter)):
                tally.record(call, send(session, base, call))
                time.sleep(rng.uniform(0.05, 0.15))


def fair_share(
    store: Path,
    *,
    hostile: int = 4,
    idle_seconds: float = 120.0,
    load_seconds: float = 120.0,
    rounds: int = 4,
    work: Path | None = None,
    seed: int = 1,
    epoch: bool = True,
    kinds: list[str] | None = None,
    log: Callable[[str], None] = print,
    server_env: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The p99 of cheap lookups idle and under ``hostile`` hostile clients, on a served copy of
    ``store``; the ratio under load / idle for each (see the module docstring). ``kinds`` picks the
    hostile clients' kinds (default: all of :data:`HOSTILE_KINDS` in turn), to tell which one costs.
    The idle and loaded seconds are taken in ``rounds`` turns, idle then loaded. ``server_env``: settings
    of the server (``aikg bench`` serves its loaded store as it is, without seeds or an import)."""
    with tempfile.TemporaryDirectory(prefix="aikg-fair-") as tmp:
        base_dir = work or Path(tmp)
        copy = prepare_store(store, base_dir, log, epoch=epoch)
        served = Served(copy, base_dir / "logs", env=server_env)
        with stop_on_sigterm(served):
            try:
                chosen = kinds or list(HOSTILE_KINDS)
                picked = [chosen[i % len(chosen)] for i in range(hostile)]
                result = _fair_on(served, picked, idle_seconds, load_seconds, max(1, rounds), seed, log)
                return {**result, "store": {"source": str(store), "served_copy": str(copy)}}
            finally:
                left = served.stop()
                if left:
                    log(f"serving processes left after the stop (killed): {left}")


SETTLE = 1.0
"""Seconds between the hostile clients' pause (nothing of theirs in flight) and an idle block."""
RAMP = 3.0
"""Seconds between the hostile clients' go and a loaded block: every one has its first request in."""


def _significant(value: float, digits: int = 2) -> float:
    """A ratio to two significant figures: two decimals made 0.0069 (an idle outlier) read as 0.01."""
    return float(f"{value:.{digits}g}")


def p99_ratio(
    loaded: Sequence[float], idle: Sequence[float], rng: random.Random, resamples: int = 1000
) -> dict[str, float | list[float] | None]:
    """The p99 under load over the p99 idle, and a 90 % interval of that ratio by resampling both
    (a percentile bootstrap): how far another run of the same length could put it."""
    if not loaded or not idle:
        return {"ratio": None, "interval_90": None}

    def p99(values: Sequence[float]) -> float:
        return quantile(sorted(values), 0.99)

    ratio = _significant(p99(loaded) / p99(idle))
    if not resamples:
        return {"ratio": ratio, "interval_90": None}
    ratios = sorted(
        p99(rng.choices(loaded, k=len(loaded))) / p99(rng.choices(idle, k=len(idle)))
        for _ in range(resamples)
    )
    interval = [_significant(ratios[int(0.05 * resamples)]), _significant(ratios[int(0.95 * resamples) - 1])]
    return {"ratio": ratio, "interval_90": interval}


def _fair_on(
    served: Served,
    kinds: list[str],
    idle_seconds: float,
    load_seconds: float,
    rounds: int,
    seed: int,
    log: Callable[[str], None],
) -> dict[str, Any]:
    """Idle and loaded blocks in turn (``rounds`` of each), so that whatever else the machine does
    over the run weighs on both phases alike, and both have as many probes."""
    rng = random.Random(seed)
    counter = itertools.count()
    _probe(served.base, 5.0, Tally(), rng, counter)  # warm-up: workers started, caches built
    idle, loaded = Tally(), Tally()
    load_idle, pressure_idle = load_average(), pressure()
    spawn = multiprocessing.get_context("spawn")
    conn, theirs = spawn.Pipe()
    clients = spawn.Process(target=_hostile_clients, args=(kinds, served.base, seed, theirs), daemon=True)
    clients.start()
    conn.recv()
    windows: list[tuple[float, float]] = []
    by_round: list[dict[str, float | None]] = []
    load_begin = load_end = pressure_end = None
    not_paused = 0
    log(
        f"fair share: {rounds} rounds of {idle_seconds / rounds:.0f} s idle and {load_seconds / rounds:.0f} s"
        f" under {len(kinds)} hostile clients ({', '.join(kinds)}) on {served.base}"
    )
    try:
        for turn in range(rounds):
            time.sleep(SETTLE)
            marks = (
                {k: len(v) for k, v in idle.latencies.items()},
                {k: len(v) for k, v in loaded.latencies.items()},
            )
            began = time.monotonic()
            _probe(served.base, idle_seconds / rounds, idle, rng, counter)
            windows.append((began, time.monotonic()))
            conn.send("go")
            conn.recv()
            time.sleep(RAMP)
            load_begin = load_begin or load_average()
            _probe(served.base, load_seconds / rounds, loaded, rng, counter)
            load_end, pressure_end = load_average(), pressure()
            conn.send("pause")
            not_paused += conn.recv() != "paused"
            ratios_now: dict[str, float | None] = {}
            for kind, values in loaded.latencies.items():
                before = idle.latencies.get(kind, [])[marks[0].get(kind, 0) :]
                now = values[marks[1].get(kind, 0) :]
                ratios_now[kind] = cast("float | None", p99_ratio(now, before, rng, resamples=0)["ratio"])
            by_round.append(ratios_now)
            log(f"fair share: round {turn + 1}: p99 ratios {ratios_now}")
    finally:
        conn.send("stop")
        hostiles: dict[str, Any] = (
            conn.recv() if conn.poll(120) else {"error": "the hostile clients did not report"}
        )
        clients.join(30)
    spans = hostiles.pop("spans", [])
    overlapping = sum(1 for b, e in spans if any(b < w_end and e > w_begin for w_begin, w_end in windows))
    i, lo = idle.report(idle_seconds), loaded.report(load_seconds)
    ratios: dict[str, Any] = {
        kind: p99_ratio(values, idle.latencies.get(kind, []), rng)
        for kind, values in loaded.latencies.items()
    }
    worst = max((r["ratio"] for r in ratios.values() if r["ratio"] is not None), default=None)
    log(f"fair share: p99 ratios under load / idle {ratios}; load {load_begin} -> {load_end}")
    return {
        "kind": "fair-share",
        "hostile": kinds,
        "rounds": rounds,
        "load_average": {"idle": load_idle, "under_load_start": load_begin, "under_load_end": load_end},
        "pressure_pct": {"idle": pressure_idle, "under_load_end": pressure_end},
        "idle": i,
        "under_load": lo,
        "hostile_clients": hostiles,
        "hostile_requests_in_idle_blocks": overlapping,
        "p99_ratio": {kind: r["ratio"] for kind, r in ratios.items()},
        "p99_ratio_interval_90": {kind: r["interval_90"] for kind, r in ratios.items()},
        "p99_ratio_by_round": by_round,
        "goals": {
            "p99_ratio_at_most_2": worst is not None and worst <= 2.0,
            "no_failed_probes_under_load": lo["errors"] == 0,
            "idle_blocks_without_hostile_requests": overlapping == 0 and not_paused == 0,
        },
        "server_log_tail": served.log_tail(1500),
    }


# -- command line -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aikg_bench.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, required=True, help="a default store to copy (made if missing)")
    parser.add_argument("--out", type=Path, required=True, help="where the JSON report goes")
    parser.add_argument("--seconds", type=float, default=600.0, help="soak: seconds measured")
    parser.add_argument("--clients", type=int, default=8, help="soak: clients")
    parser.add_argument("--warmup", type=float, default=None, help="soak: seconds of warm-up")
    parser.add_argument("--fair", action="store_true", help="measure the fair share instead of the soak")
    parser.add_argument("--hostile", type=int, default=4, help="fair share: hostile clients")
    parser.add_argument(
        "--kind",
        action="append",
        choices=HOSTILE_KINDS,
        default=None,
        help="fair share: a hostile client's kind (repeat; default: all in turn)",
    )
    parser.add_argument("--idle-seconds", type=float, default=120.0, help="fair share: seconds probed idle")
    parser.add_argument(
        "--load-seconds", type=float, default=120.0, help="fair share: seconds probed under load"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="fair share: idle and loaded blocks taken in turn, this many of each",
    )
    parser.add_argument("--work", type=Path, default=None, help="keep the store copy and logs here")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--env", action="append", default=[], metavar="AIKG_NAME=VALUE", help="a server setting"
    )
    args = parser.parse_args(argv)
    server_env = dict(e.split("=", 1) for e in args.env) or None

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if args.fair:
        result = fair_share(
            args.store,
            hostile=args.hostile,
            idle_seconds=args.idle_seconds,
            load_seconds=args.load_seconds,
            rounds=args.rounds,
            work=args.work,
            seed=args.seed,
            kinds=args.kind,
            log=log,
        )
    else:
        result = soak(
            args.store,
            seconds=args.seconds,
            clients=args.clients,
            warmup=args.warmup,
            work=args.work,
            seed=args.seed,
            server_env=server_env,
            log=log,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    log(f"report: {args.out}; goals: {result['goals']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
