"""Writes: SPARQL Update and the Graph Store Protocol insert, delete and replace; auth; derived facts."""

from __future__ import annotations

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDFS

from aikg.cli import main
from aikg.namespaces import AIKG, DERIVED_GRAPH, ID, ONTOLOGY_GRAPH
from aikg.web import create_app
from helpers import rdf, validation_report

G = "https://w3id.org/aikg/graph/sources/test-writes"
AUTH = {"Authorization": "Bearer test-token"}
PREFIXES = (
    "PREFIX aikg: <https://w3id.org/aikg/ontology#>\nPREFIX id: <https://w3id.org/aikg/id/>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
)
ACME = """@prefix aikg: <https://w3id.org/aikg/ontology#> . @prefix id: <https://w3id.org/aikg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
id:acme-test-cloud a aikg:Neocloud ; rdfs:label "Acme Test Cloud"@en .
"""
BETA = ACME.replace("acme-test-cloud", "beta-test-cloud").replace("Acme", "Beta")


@pytest.fixture()
def db(backend_store):
    """The store behind ``client``, whichever backend it is."""
    return backend_store


def labels(store, graph: str = G) -> set[str]:
    """English labels stored in a graph, by value."""
    return {str(o) for _, _, o, _ in rdf(store).quads(None, RDFS.label, None, graph)}


def put(client, body: str, mime: str = "text/turtle", graph: str = G, headers=AUTH):
    return client.put(
        "/data", query_string={"graph": graph}, data=body.encode(), headers={**headers, "Content-Type": mime}
    )


def update(client, text: str, headers=AUTH, form: bool = False):
    if form:
        return client.post("/update", data={"update": PREFIXES + text}, headers=headers)
    return client.post(
        "/update",
        data=(PREFIXES + text).encode(),
        headers={**headers, "Content-Type": "application/sparql-update"},
    )


# --- Graph Store Protocol ---------------------------------------------------------------------------


def test_gsp_put_creates_post_adds_put_replaces_delete_removes(client, db):
    r = put(client, ACME)
    assert r.status_code == 201
    assert r.get_json() == {
        "ok": True,
        "operation": "replace",
        "added": 2,
        "removed": 0,
        "graphs": [G],
        "validated_nodes": 1,
    }
    assert labels(db) == {"Acme Test Cloud"}

    r = client.post(
        "/data",
        query_string={"graph": G},
        data=BETA.encode(),
        headers={**AUTH, "Content-Type": "text/turtle"},
    )
    assert r.status_code == 200 and r.get_json()["added"] == 2
    assert labels(db) == {"Acme Test Cloud", "Beta Test Cloud"}

    r = put(client, BETA)
    assert r.status_code == 200
    assert (r.get_json()["added"], r.get_json()["removed"]) == (0, 2)
    assert labels(db) == {"Beta Test Cloud"}

    r = client.delete("/data", query_string={"graph": G}, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["removed"] == 2
    assert G not in db.graphs()
    assert client.delete("/data", query_string={"graph": G}, headers=AUTH).status_code == 404


def test_gsp_get_returns_the_graph_in_the_asked_format(client):
    assert put(client, ACME).status_code == 201
    r = client.get("/data", query_string={"graph": G}, headers={"Accept": "application/n-triples"})
    assert r.status_code == 200 and r.mimetype == "application/n-triples"
    g = Graph().parse(data=r.data, format="nt")
    assert (ID["acme-test-cloud"], RDFS.label, Literal("Acme Test Cloud", lang="en")) in g
    r = client.get("/data", query_string={"graph": G})
    assert r.mimetype == "text/turtle"
    assert len(Graph().parse(data=r.data, format="turtle")) == 2
    assert client.get("/data", query_string={"graph": G + "-missing"}).status_code == 404


@pytest.mark.parametrize(
    ("mime", "body"),
    [
        (
            "application/n-triples",
            "<https://w3id.org/aikg/id/acme-test-cloud> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
            "<https://w3id.org/aikg/ontology#Neocloud> .\n<https://w3id.org/aikg/id/acme-test-cloud> "
            '<http://www.w3.org/2000/01/rdf-schema#label> "Acme Test Cloud"@en .\n',
        ),
        (
            "application/n-quads",
            f"<https://w3id.org/aikg/id/acme-test-cloud> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
            f"<https://w3id.org/aikg/ontology#Neocloud> <{G}> .\n<https://w3id.org/aikg/id/acme-test-cloud> "
            f'<http://www.w3.org/2000/01/rdf-schema#label> "Acme Test Cloud"@en <{G}> .\n',
        ),
        (
            "application/ld+json",
            '{"@context": {"rdfs": "http://www.w3.org/2000/01/rdf-schema#"}, '
            '"@id": "https://w3id.org/aikg/id/acme-test-cloud", '
            '"@type": "https://w3id.org/aikg/ontology#Neocloud", '
            '"rdfs:label": {"@value": "Acme Test Cloud", "@language": "en"}}',
        ),
        (
            "application/rdf+xml",
            '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            'xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"><rdf:Description '
            'rdf:about="https://w3id.org/aikg/id/acme-test-cloud"><rdf:type '
            'rdf:resource="https://w3id.org/aikg/ontology#Neocloud"/><rdfs:label xml:lang="en">Acme Test '
            "Cloud</rdfs:label></rdf:Description></rdf:RDF>",
        ),
    ],
)
def test_gsp_reads_every_input_format(client, db, mime, body):
    r = put(client, body, mime)
    assert r.status_code == 201, r.get_json()
    assert labels(db) == {"Acme Test Cloud"}
    assert (ID["acme-test-cloud"], URIRef(str(AIKG) + "Neocloud")) in {
        (s, o) for s, _, o, _ in rdf(db).quads(ID["acme-test-cloud"], None, None, G)
    }


def test_gsp_quads_of_another_graph_are_refused(client, db):
    body = f'<https://w3id.org/aikg/id/x> <http://www.w3.org/2000/01/rdf-schema#label> "X"@en <{G}-other> .\n'
    r = put(client, body, "application/n-quads")
    assert r.status_code == 400
    assert G not in db.graphs() and G + "-other" not in db.graphs()


@pytest.mark.parametrize(
    "graph",
    [
        str(ONTOLOGY_GRAPH),
        str(DERIVED_GRAPH),
        "https://w3id.org/aikg/graph/shapes",
        "https://w3id.org/aikg/graph/inferred",
    ],
)
def test_protected_graphs_are_not_writable(client, db, graph):
    before = db.dump(mime="application/n-quads")
    assert put(client, ACME, graph=graph).status_code == 403
    assert client.delete("/data", query_string={"graph": graph}, headers=AUTH).status_code == 403
    r = update(client, f'INSERT DATA {{ GRAPH <{graph}> {{ id:acme-test-cloud rdfs:label "A"@en }} }}')
    assert r.status_code == 403
    assert db.dump(mime="application/n-quads") == before


# --- SPARQL Update ----------------------------------------------------------------------------------


@pytest.mark.parametrize("form", [False, True])
def test_update_inserts_deletes_and_replaces(client, db, form):
    r = update(
        client,
        f"INSERT DATA {{ GRAPH <{G}> {{ id:acme-test-cloud a aikg:Neocloud ; "
        f'rdfs:label "Acme Test Cloud"@en }} }}',
        form=form,
    )
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["added"] == 2
    assert labels(db) == {"Acme Test Cloud"}

    r = update(
        client,
        f"WITH <{G}> DELETE {{ ?s rdfs:label ?l }} "
        f'INSERT {{ ?s rdfs:label "Acme Renamed"@en }} WHERE {{ ?s rdfs:label ?l }}',
        form=form,
    )
    assert r.status_code == 200 and (r.get_json()["added"], r.get_json()["removed"]) == (1, 1)
    assert labels(db) == {"Acme Renamed"}

    r = update(
        client,
        f"DROP GRAPH <{G}> ; INSERT DATA {{ GRAPH <{G}> {{ "
        f'id:beta-test-cloud a aikg:Neocloud ; rdfs:label "Beta Test Cloud"@en }} }}',
        form=form,
    )
    assert r.status_code == 200
    assert labels(db) == {"Beta Test Cloud"}

    r = update(client, f"DELETE WHERE {{ GRAPH <{G}> {{ ?s ?p ?o }} }}", form=form)
    assert r.status_code == 200 and r.get_json()["removed"] == 2
    assert labels(db) == set()


def test_update_syntax_error_is_a_clear_400(client, db):
    before = db.dump(mime="application/n-quads")
    r = update(client, "INSERT DATA { GRAPH <x> { oops")
    assert r.status_code == 400 and r.get_json()["error"] == "query syntax error"
    assert db.dump(mime="application/n-quads") == before


def test_update_needs_a_media_type_it_reads(client):
    r = client.post("/update", data=b"INSERT DATA {}", headers={**AUTH, "Content-Type": "text/plain"})
    assert r.status_code == 415


# --- auth -------------------------------------------------------------------------------------------


def test_writes_need_the_right_bearer_token(client, db):
    before = db.dump(mime="application/n-quads")
    r = put(client, ACME, headers={})
    assert r.status_code == 401 and r.headers["WWW-Authenticate"].startswith("Bearer")
    r = put(client, ACME, headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401 and 'error="invalid_token"' in r.headers["WWW-Authenticate"]
    r = update(
        client,
        f'INSERT DATA {{ GRAPH <{G}> {{ id:a rdfs:label "A"@en }} }}',
        headers={"Authorization": "Basic dGVzdA=="},
    )
    assert r.status_code == 401
    assert db.dump(mime="application/n-quads") == before
    assert put(client, ACME).status_code == 201


def test_without_a_configured_token_writes_are_off(store):
    client = create_app({"store": "memory", "load_seeds": False, "token": ""}, store=store).test_client()
    r = put(client, ACME)
    assert r.status_code == 403 and "switched off" in r.get_json()["message"]
    assert client.post("/update", data={"update": "CLEAR ALL"}, headers=AUTH).status_code == 403
    assert validation_report(client).status_code == 200  # reading the report needs no token


# --- derived facts and validation -------------------------------------------------------------------

RUN = """@prefix aikg: <https://w3id.org/aikg/ontology#> . @prefix id: <https://w3id.org/aikg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
id:test-writes-model a aikg:AIModel ; rdfs:label "Test Writes Model"@en .
id:test-writes-run a aikg:TrainingRun ; rdfs:label "Test Writes Run"@en ;
    aikg:trainedModel id:test-writes-model ; aikg:acceleratorCount 8 ; aikg:durationDays 2 .
"""


def derived_gpu_hours(store) -> list[float]:
    rows = (
        rdf(store)
        .query(
            PREFIXES + "SELECT ?v WHERE { GRAPH <https://w3id.org/aikg/graph/derived> { "
            "?d aikg:derivedFor id:test-writes-run ; aikg:derivedProperty aikg:gpuHours ; "
            "aikg:value ?v } }"
        )
        .rows
    )
    return [float(r[0]) for r in rows]


def test_derived_facts_follow_a_write(client, db):
    assert derived_gpu_hours(db) == []
    r = put(client, RUN)
    assert r.status_code == 201, r.get_json()
    assert derived_gpu_hours(db) == [8 * 2 * 24]
    r = update(
        client,
        f"WITH <{G}> DELETE {{ id:test-writes-run aikg:durationDays ?d }} "
        f"INSERT {{ id:test-writes-run aikg:durationDays 3 }} "
        f"WHERE {{ id:test-writes-run aikg:durationDays ?d }}",
    )
    assert r.status_code == 200, r.get_json()
    assert derived_gpu_hours(db) == [8 * 3 * 24]
    assert client.delete("/data", query_string={"graph": G}, headers=AUTH).status_code == 200
    assert derived_gpu_hours(db) == []


def test_api_validate_reports_the_whole_store(client):
    r = validation_report(client)
    assert r.status_code == 200
    body = r.get_json()
    assert body["ok"] is True and body["conforms"] is True and body["violations"] == [] and body["count"] == 0
    r = client.get("/api/validate", headers={"Accept": "text/turtle"})
    assert r.status_code == 200 and r.mimetype == "text/turtle"
    assert "sh:ValidationReport" in r.get_data(as_text=True)


# --- CLI --------------------------------------------------------------------------------------------


def test_cli_load_file_goes_through_the_gate(runner, tmp_path):
    store_dir = str(tmp_path / "store")
    assert runner.invoke(main, ["load", "--seeds", "--store", store_dir]).exit_code == 0
    good = tmp_path / "acme.ttl"
    good.write_text(ACME, encoding="utf-8")
    result = runner.invoke(main, ["load", str(good), "--graph", G, "--store", store_dir])
    assert result.exit_code == 0, result.output
    assert "2 added" in result.output
    bad = tmp_path / "bad.ttl"
    bad.write_text(ACME.replace('"Acme Test Cloud"@en', '"no language"'), encoding="utf-8")
    result = runner.invoke(main, ["load", str(bad), "--graph", G + "-bad", "--store", store_dir])
    assert result.exit_code == 1
    assert "acme-test-cloud" in result.output
    result = runner.invoke(main, ["load", str(good), "--store", store_dir])
    assert result.exit_code == 2
    dumped = runner.invoke(main, ["dump", "--graph", G, "--format", "ntriples", "--store", store_dir])
    assert "Acme Test Cloud" in dumped.output


def test_a_figure_beyond_64_bits_is_served_exactly(client):
    """A parameter count beyond a 64-bit integer (an xsd:decimal below 10^20) is answered exactly as
    written, and a FLOP count (an xsd:double, 3.4078e24) keeps its own value (no digits invented)."""
    body = """@prefix aikg: <https://w3id.org/aikg/ontology#> . @prefix id: <https://w3id.org/aikg/id/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
id:big-test-model a aikg:AIModel ; rdfs:label "Big Test Model"@en ;
    aikg:totalParameters "30000000000000000001"^^xsd:decimal ;
    aikg:trainingCompute "3.4078e24"^^xsd:double .
"""
    assert put(client, body).status_code in (200, 201)
    r = client.get("/api/entities/big-test-model")
    assert r.status_code == 200, r.get_data(as_text=True)
    facts = {f["property"]["iri"]: f for f in r.get_json()["facts"]}
    assert facts[str(AIKG.totalParameters)]["number"] == 30000000000000000001
    assert '"number":30000000000000000001' in r.get_data(as_text=True).replace(" ", "")
    assert float(facts[str(AIKG.trainingCompute)]["number"]) == 3.4078e24
