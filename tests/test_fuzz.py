"""Fuzzing: malformed SPARQL, RDF bodies, parameters, headers and invalid UTF-8 never get a 5xx, and the
service keeps answering afterwards."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aikg.web import create_app

AUTH = "Bearer fuzz-token"
G = "https://w3id.org/aikg/graph/sources/test-fuzz"
FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

WORDS = [
    "SELECT",
    "ASK",
    "CONSTRUCT",
    "DESCRIBE",
    "WHERE",
    "{",
    "}",
    "(",
    ")",
    "?s",
    "?p",
    "?o",
    "*",
    ".",
    ";",
    "FILTER",
    "OPTIONAL",
    "UNION",
    "GRAPH",
    "SERVICE",
    "FROM",
    "NAMED",
    "LOAD",
    "INSERT",
    "DELETE",
    "DATA",
    "WITH",
    "USING",
    "CLEAR",
    "DROP",
    "ALL",
    "SILENT",
    "PREFIX",
    "BASE",
    "a",
    "<http://x/>",
    "<https://w3id.org/aikg/graph/sources/test-fuzz>",
    "aikg:Neocloud",
    "rdfs:label",
    '"x"@en',
    "1",
    "COUNT",
    "GROUP BY",
    "LIMIT 3",
    "VALUES",
    "BIND",
    "AS",
    "#",
    "'''",
    '"',
    "<",
    ">",
    "\\",
    "^^",
    "_:b",
    "[]",
    "|",
    "/",
    "+",
    "IRI(",
    "REGEX(",
    "SUBSTR(",
    "\u00e9",
    "\x00",
    "\ud7ff",
]
sparql_texts = st.one_of(st.text(max_size=200), st.lists(st.sampled_from(WORDS), max_size=30).map(" ".join))
RDF_TYPES = [
    "text/turtle",
    "application/n-triples",
    "application/n-quads",
    "application/ld+json",
    "application/rdf+xml",
    "application/trig",
    "text/plain",
    "application/json",
    "",
    "text/turtle; charset=latin-1",
    "multipart/form-data; boundary=x",
]
rdf_bodies = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.sampled_from(
        [
            b'<https://w3id.org/aikg/id/x> <http://www.w3.org/2000/01/rdf-schema#label> "X"@en .',
            b'{"@context": {"@vocab": "http://x/"}, '
            b'"@id": "https://w3id.org/aikg/id/x", "v": {"@list": [1]}}',
            b'{"@context": ' * 200 + b"{}" + b"}" * 200,
            b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "&b;"><!ENTITY b "&a;">]><r>&a;</r>',
            b'<?xml version="1.0" encoding="UTF-16"?><rdf:RDF/>',
            b"\xff\xfe\x00<\x00r\x00>",
            b"@prefix : <http://x/> . :a :b :c ; :d ( 1 2 [ :e :f ] ) .",
        ]
    ),
)
header_values = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=60)


@pytest.fixture()
def fuzz_client(store):
    return create_app(
        {
            "store": "memory",
            "load_seeds": False,
            "token": "fuzz-token",
            "query_timeout": 1,
            "max_body": 20_000,
        },
        store=store,
    ).test_client()


def ok(r) -> None:
    assert r.status_code < 500, (r.status_code, r.get_data()[:500])
    if r.status_code >= 400:
        body = r.get_json(silent=True)
        if r.mimetype == "application/json":
            assert body["ok"] is False and body["status"] == r.status_code


def still_answers(client) -> None:
    r = client.get(
        "/sparql",
        query_string={"query": "ASK { ?s ?p ?o }"},
        headers={"Accept": "application/sparql-results+json"},
    )
    assert r.status_code == 200 and r.get_json()["boolean"] is True


@FUZZ
@given(text=sparql_texts, accept=header_values)
def test_random_queries(fuzz_client, text, accept):
    ok(fuzz_client.get("/sparql", query_string={"query": text}, headers={"Accept": accept}))
    ok(
        fuzz_client.post(
            "/sparql",
            data=text.encode("utf-8", "surrogatepass"),
            headers={"Content-Type": "application/sparql-query"},
        )
    )
    still_answers(fuzz_client)


@FUZZ
@given(text=sparql_texts, form=st.booleans())
def test_random_updates(fuzz_client, text, form):
    if form:
        r = fuzz_client.post("/update", data={"update": text}, headers={"Authorization": AUTH})
    else:
        r = fuzz_client.post(
            "/update",
            data=text.encode("utf-8", "surrogatepass"),
            headers={"Authorization": AUTH, "Content-Type": "application/sparql-update"},
        )
    ok(r)
    still_answers(fuzz_client)


@FUZZ
@given(
    body=rdf_bodies,
    mime=st.sampled_from(RDF_TYPES),
    method=st.sampled_from(["put", "post"]),
    graph=st.one_of(st.just(G), st.text(max_size=40)),
)
def test_random_rdf_bodies(fuzz_client, body, mime, method, graph):
    r = getattr(fuzz_client, method)(
        "/data",
        query_string={"graph": graph},
        data=body,
        headers={"Authorization": AUTH, "Content-Type": mime},
    )
    ok(r)
    still_answers(fuzz_client)


@FUZZ
@given(
    params=st.dictionaries(
        st.sampled_from(
            ["query", "graph", "default", "default-graph-uri", "named-graph-uri", "update", "format", "x"]
        ),
        st.text(max_size=40),
        max_size=4,
    ),
    path=st.sampled_from(["/sparql", "/data", "/update"]),
    method=st.sampled_from(["get", "post", "put", "delete", "patch"]),
    headers=st.dictionaries(
        st.sampled_from(["Accept", "Content-Type", "Authorization", "Content-Length", "Accept-Charset"]),
        header_values,
        max_size=3,
    ),
)
def test_random_parameters_and_headers(fuzz_client, params, path, method, headers):
    headers.pop("Content-Length", None)  # the test client computes it; a wrong one is the server's job
    ok(getattr(fuzz_client, method)(path, query_string=params, headers=headers))
    still_answers(fuzz_client)


@pytest.mark.parametrize(
    "raw",
    [b"query=%FF%FE%FD", b"query=SELECT%20%C3%28", b"graph=%ED%A0%80", b"query=%00", b"default&graph=x"],
)
def test_invalid_utf8_in_the_query_string(fuzz_client, raw):
    for path in ("/sparql", "/data"):
        ok(fuzz_client.get(f"{path}?{raw.decode('ascii')}"))
    ok(
        fuzz_client.post(
            "/update",
            data=b"\xff\xfe INSERT",
            headers={"Authorization": AUTH, "Content-Type": "application/sparql-update"},
        )
    )
    ok(
        fuzz_client.post(
            "/sparql", data=b"SELECT \xc3\x28 WHERE {}", headers={"Content-Type": "application/sparql-query"}
        )
    )
    still_answers(fuzz_client)
