"""A runner for the W3C SPARQL 1.1 Protocol and Graph Store Protocol test manifests (tests/data/w3c/).

Each test is performed as its manifest describes it: its ``ut:graphData`` loaded into the graphs its labels
name, then every ``ht:Request`` in order (method, path, headers, body in its ``cnt:characterEncoding``),
each response checked against its ``ht:resp``: ``mf:expectedStatus`` (a code or a class),
``mf:expectedBoolean``, ``mf:expectedFormat``, the response headers given, a body isomorphic to the one
given, and ``mf:expectedLocation`` (the ``Location`` header, substituted for its template variable in the
requests after it).

What the manifests leave to the runner, and how it is done here:

- **Endpoints.** Protocol requests name ``/sparql/``; a request invoking the update operation (an
  ``application/sparql-update`` body, an ``update`` parameter, or a body the protocol cannot read in a test
  named for the update operation) goes to ``/update``, every other to ``/sparql`` (the manifest allows
  separate query and update endpoints). Graph Store requests name ``/gsp``: ``/gsp?...`` is aikg's ``/data``
  (indirect identification) and ``/gsp/<path>`` its ``/graph/<path>`` (direct identification).
- **Authorization.** Every request carries the test server's bearer token: the manifests assume a writable
  service, and aikg requires a token for every write.
- **A clean store per test.** The manifests' tests each start from a graph store without their graphs (a
  test PUTs a graph another one created, expecting 201): before each test the runner sends ``DROP ALL``,
  which removes every client graph (aikg's own graphs stay).
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from xml.dom import minidom

from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.compare import isomorphic
from rdflib.namespace import RDFS

W3C = Path(__file__).resolve().parent / "data" / "w3c"
MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
HT = Namespace("http://www.w3.org/2011/http#")
HTS = Namespace("http://www.w3.org/2011/http-statusCodes#")
CNT = Namespace("http://www.w3.org/2011/content#")
UT = Namespace("http://www.w3.org/2009/sparql/tests/test-update#")

STATUS_CODES = {"OK": 200, "Created": 201, "NoContent": 204, "NotFound": 404}
"""The ``hts:`` status terms the manifests use, by name (the classes are ``hts:StatusCodeNxx``)."""
BOOLEAN_TYPES = {"application/sparql-results+json", "application/sparql-results+xml"}
FORMATS = {
    "boolean": BOOLEAN_TYPES,
    "tabular": BOOLEAN_TYPES | {"text/csv", "text/tab-separated-values"},
    "RDF": {"application/rdf+xml", "text/turtle", "application/n-triples", "application/xhtml+xml"},
}
"""``mf:expectedFormat``: the media types each kind of answer may come in (Protocol §2.1.6 and the tests'
names: "expect one of: XML, JSON, CSV, TSV" and "RDF/XML, Turtle, N-Triples, RDFa")."""
RDF_PARSERS = {
    "text/turtle": "turtle",
    "application/n-triples": "nt",
    "application/rdf+xml": "xml",
    "application/ld+json": "json-ld",
}


def checksums() -> dict[str, str]:
    """The recorded SHA-256 of every file in tests/data/w3c (SHA256SUMS), by relative path."""
    out = {}
    for line in (W3C / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split(maxsplit=1)
        out[name] = digest
    return out


def unmodified() -> list[str]:
    """The files whose content differs from the checksum recorded for the W3C original (none, or a list)."""
    return [
        name
        for name, digest in checksums().items()
        if hashlib.sha256((W3C / name).read_bytes()).hexdigest() != digest
    ]


@dataclass
class Expected:
    """An ``ht:Response``: what the response to one request must be."""

    statuses: list[int | str]
    """Codes (201) and classes ("2xx")."""
    boolean: bool | None = None
    format: str | None = None
    location: str | None = None
    """The template variable the ``Location`` header's value is bound to."""
    headers: dict[str, str] = field(default_factory=dict)
    body: str | None = None

    def status_ok(self, status: int) -> bool:
        """Whether ``status`` is one of the expected codes or in one of the expected classes."""
        return any(status == s if isinstance(s, int) else f"{status // 100}xx" == s for s in self.statuses)


@dataclass
class Request:
    """An ``ht:Request``."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes | None
    expected: Expected


@dataclass
class W3CTest:
    """One manifest entry."""

    iri: str
    name: str
    requests: list[Request]
    graph_data: list[tuple[Path, str]]
    """``ut:graphData``: a file and the graph IRI (its label) it is loaded into."""

    @property
    def id(self) -> str:
        return self.iri.rsplit("#", 1)[-1]


def _list(g: Graph, node) -> list:
    return list(Collection(g, node)) if node is not None else []


def _statuses(g: Graph, resp) -> list[int | str]:
    out: list[int | str] = []
    for term in g.objects(resp, MF.expectedStatus):
        name = str(term).rsplit("#", 1)[-1]
        m = re.fullmatch(r"StatusCode(\d)xx", name)
        if m:
            out.append(f"{m.group(1)}xx")
        elif name in STATUS_CODES:
            out.append(STATUS_CODES[name])
        else:
            raise ValueError(f"status term {term} is not known to the runner")
    return out


def _headers(g: Graph, node) -> dict[str, str]:
    return {
        str(g.value(h, HT.fieldName)).lower(): str(g.value(h, HT.fieldValue))
        for h in _list(g, g.value(node, HT.headers))
    }


def _body(g: Graph, node) -> tuple[str, str] | None:
    body = g.value(node, HT.body)
    if body is None:
        return None
    return str(g.value(body, CNT.chars)), str(g.value(body, CNT.characterEncoding) or "UTF-8")


def read_manifest(path: Path) -> list[W3CTest]:
    """The tests of a manifest, in its ``mf:entries`` order, following ``mf:include``."""
    g = Graph().parse(path, format="turtle", publicID=path.as_uri())
    manifest = URIRef(path.as_uri())
    tests: list[W3CTest] = []
    for included in _list(g, g.value(manifest, MF.include)):
        tests += read_manifest(Path(urllib.parse.urlparse(str(included)).path))
    for entry in _list(g, g.value(manifest, MF.entries)):
        action = g.value(entry, MF.action)
        requests = []
        for r in _list(g, g.value(action, HT.requests)):
            resp = g.value(r, HT.resp)
            body = _body(g, r)
            expected_body = _body(g, resp)
            boolean = g.value(resp, MF.expectedBoolean)
            location = g.value(resp, MF.expectedLocation)
            fmt = g.value(resp, MF.expectedFormat)
            requests.append(
                Request(
                    method=str(g.value(r, HT.methodName)),
                    path=str(g.value(r, HT.absolutePath)),
                    headers=_headers(g, r),
                    body=body[0].encode(body[1]) if body else None,
                    expected=Expected(
                        statuses=_statuses(g, resp),
                        boolean=boolean.toPython() if isinstance(boolean, Literal) else None,
                        format=str(fmt) if fmt is not None else None,
                        location=str(location) if location is not None else None,
                        headers=_headers(g, resp),
                        body=expected_body[0] if expected_body else None,
                    ),
                )
            )
        graph_data = []
        for gd in g.objects(entry, UT.graphData):
            file = Path(urllib.parse.urlparse(str(g.value(gd, UT.graph))).path)
            graph_data.append((file, str(g.value(gd, RDFS.label))))
        tests.append(W3CTest(str(entry), str(g.value(entry, MF.name)), requests, sorted(graph_data)))
    return tests


def protocol_tests() -> list[W3CTest]:
    """The SPARQL 1.1 Protocol tests (34)."""
    return read_manifest(W3C / "protocol" / "manifest.ttl")


def graph_store_tests() -> list[W3CTest]:
    """The SPARQL 1.1 Graph Store Protocol tests (13: direct and indirect identification)."""
    return read_manifest(W3C / "graph-store-protocol" / "manifest.ttl")


@dataclass
class Answer:
    """What the server answered to one request."""

    status: int
    headers: dict[str, str]
    body: bytes


Send = Callable[[str, str, dict[str, str], bytes | None], Answer]
"""Sends one request (method, path with query string, headers, body) to the server under test."""


def _content_type(headers: dict[str, str]) -> str:
    return headers.get("content-type", "").split(";", 1)[0].strip().lower()


def _is_update(request: Request, test: W3CTest) -> bool:
    """Whether the request invokes the protocol's update operation (it goes to the update endpoint)."""
    ctype = _content_type(request.headers)
    if ctype == "application/sparql-update":
        return True
    if ctype == "application/sparql-query":
        return False
    query = urllib.parse.urlsplit(request.path).query
    params = urllib.parse.parse_qs(query, keep_blank_values=True)
    if ctype == "application/x-www-form-urlencoded" and request.body:
        params.update(urllib.parse.parse_qs(request.body.decode("utf-8", "replace"), keep_blank_values=True))
    if "update" in params or "query" in params:
        return "update" in params
    return "update operation" in test.name  # a body the protocol cannot read: the test says which


def endpoint_path(request: Request, test: W3CTest) -> str:
    """The request's path on aikg (see the module docstring)."""
    path = request.path
    if path.startswith("/sparql/"):
        rest = path[len("/sparql/") :]
        return ("/update" if _is_update(request, test) else "/sparql") + rest
    if path.startswith("/gsp/"):
        return "/graph/" + path[len("/gsp/") :]
    if path == "/gsp" or path.startswith("/gsp?"):
        return "/data" + path[len("/gsp") :]
    raise ValueError(f"{test.id}: no endpoint for {path}")


def _boolean(answer: Answer) -> bool | None:
    ctype = _content_type(answer.headers)
    if ctype == "application/sparql-results+json":
        return json.loads(answer.body).get("boolean")
    if ctype == "application/sparql-results+xml":
        nodes = minidom.parseString(answer.body).getElementsByTagName("boolean")
        return nodes[0].firstChild.data.strip() == "true" if nodes else None
    return None


def _same_graph(answer: Answer, expected: str, expected_type: str) -> str | None:
    """None when the answer's graph is isomorphic to the expected one, else what differs."""
    ctype = _content_type(answer.headers)
    if ctype not in RDF_PARSERS:
        return f"the body is {ctype}, not RDF"
    got = Graph().parse(data=answer.body, format=RDF_PARSERS[ctype])
    want = Graph().parse(data=expected, format=RDF_PARSERS[expected_type])
    if isomorphic(got, want):
        return None
    return f"the graph differs: got {sorted(got)}, expected {sorted(want)}"


def _media(value: str) -> tuple[str, dict[str, str]]:
    kind, *params = value.split(";")
    pairs = dict(p.strip().lower().split("=", 1) for p in params if "=" in p)
    return kind.strip().lower(), pairs


def check(answer: Answer, expected: Expected) -> list[str]:
    """What is wrong with an answer (an empty list when it is what the manifest expects)."""
    problems = []
    if not expected.status_ok(answer.status):
        problems.append(f"status {answer.status}, expected {expected.statuses}: {answer.body[:300]!r}")
        return problems
    if expected.format is not None and _content_type(answer.headers) not in FORMATS[expected.format]:
        problems.append(f"content type {answer.headers.get('content-type')}, expected {expected.format}")
    if expected.boolean is not None and _boolean(answer) is not expected.boolean:
        problems.append(f"boolean {_boolean(answer)}, expected {expected.boolean}")
    for name, value in expected.headers.items():
        got = answer.headers.get(name)
        same = got is not None and (
            _media(got) == _media(value) if name == "content-type" else got.strip() == value.strip()
        )
        if not same:
            problems.append(f"header {name}: {got!r}, expected {value!r}")
    if expected.body is not None:
        differs = _same_graph(answer, expected.body, _content_type(expected.headers) or "text/turtle")
        if differs:
            problems.append(differs)
    if expected.location is not None and not answer.headers.get("location"):
        problems.append("no Location header")
    return problems


def run(test: W3CTest, send: Send, token: str) -> list[str]:
    """Perform one test; the problems found (an empty list: passed)."""
    auth = {"authorization": f"Bearer {token}"}
    reset = send("POST", "/update", {**auth, "content-type": "application/sparql-update"}, b"DROP ALL")
    if reset.status != 200:
        return [f"resetting the store with DROP ALL failed: {reset.status} {reset.body[:300]!r}"]
    for path, graph in test.graph_data:
        loaded = send(
            "PUT",
            "/data?" + urllib.parse.urlencode({"graph": graph}),
            {**auth, "content-type": "application/n-triples"},
            path.read_bytes(),
        )
        if loaded.status not in (200, 201, 204):
            return [f"loading {path.name} into <{graph}> failed: {loaded.status} {loaded.body[:300]!r}"]
    variables: dict[str, str] = {}
    for n, request in enumerate(test.requests, 1):
        path, body = request.path, request.body
        for name, value in variables.items():
            path = path.replace(name, value)
            body = body.replace(name.encode(), value.encode()) if body is not None else None
        request = Request(request.method, path, request.headers, body, request.expected)
        answer = send(request.method, endpoint_path(request, test), {**request.headers, **auth}, body)
        problems = check(answer, request.expected)
        if problems:
            return [f"request {n} ({request.method} {path}): {p}" for p in problems]
        if request.expected.location is not None:
            variables[request.expected.location] = answer.headers["location"]
    return []
