"""SPARQL 1.1 Service Description (W3C Recommendation 21 March 2013), requirement by requirement, on both
backends: what the description says, and that it is true of the service."""

from __future__ import annotations

import pytest
from rdflib import Graph, Namespace, URIRef
from rdflib.namespace import RDF

from aikg.rdf.formats import GRAPH_FORMATS, RESULT_FORMATS
from aikg.web import create_app
from conformance import AUTH, MINE, PREFIXES, turtle, update

SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
FORMATS = "http://www.w3.org/ns/formats/"
ROOT = "http://localhost"


def description(client, path: str = "/sparql", accept: str | None = None) -> Graph:
    resp = client.get(path, headers={"Accept": accept} if accept else {})
    assert resp.status_code == 200
    return (
        turtle(resp)
        if resp.mimetype == "text/turtle"
        else Graph().parse(
            data=resp.data,
            format={
                "application/ld+json": "json-ld",
                "application/rdf+xml": "xml",
                "application/n-triples": "nt",
            }[resp.mimetype],
        )
    )


def service(g: Graph, endpoint: str) -> URIRef:
    (svc,) = g.subjects(SD.endpoint, URIRef(ROOT + endpoint))
    return svc


# --- §2 accessing a description -----------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", ["/sparql", "/update"])
def test_2_a_get_without_parameters_returns_the_description(ro_client, endpoint):
    """§2: services "SHOULD return a service description document at the service endpoint when
    dereferenced using the HTTP GET operation without any query parameter strings"; it "MUST be made
    available in an RDF serialization" — at the query and at the update endpoint."""
    resp = ro_client.get(endpoint)
    assert resp.status_code == 200 and resp.mimetype == "text/turtle"
    assert (None, RDF.type, SD.Service) in turtle(resp)


@pytest.mark.parametrize(
    "accept",
    ["application/ld+json", "application/rdf+xml", "application/n-triples", "text/turtle; charset=utf-8"],
)
def test_2_the_description_is_negotiated(ro_client, accept):
    """§2: it "SHOULD use content negotiation if available in other RDF representations"."""
    g = description(ro_client, accept=accept)
    assert service(g, "/sparql")


# --- §5 conformance -----------------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", ["/sparql", "/update"])
def test_5_the_description_names_its_endpoint(ro_client, endpoint):
    """§5: "The RDF content returned from dereferencing a service endpoint URL <service-endpoint-URL> MUST
    include at least one triple matching: ?service sd:endpoint <service-endpoint-URL>"."""
    assert service(description(ro_client, endpoint), endpoint)


def test_5_the_endpoint_follows_base_url(seeded_store):
    """§3.2.1 sd:endpoint "is an IRI": the public one when aikg runs behind a proxy (setting base_url)."""
    app = create_app(
        {"store": "memory", "load_seeds": False, "base_url": "https://kg.example.org/"}, store=seeded_store
    )
    g = Graph().parse(
        data=app.test_client().get("/sparql", headers={"Accept": "application/ld+json"}).data,
        format="json-ld",
    )
    assert set(g.objects(None, SD.endpoint)) == {
        URIRef("https://kg.example.org/sparql"),
        URIRef("https://kg.example.org/update"),
    }


def test_3_2_10_languages_are_those_each_endpoint_speaks(ro_client):
    """§3.2.10 sd:supportedLanguage, §3.4.2–3: the query endpoint speaks sd:SPARQL11Query and the update
    endpoint sd:SPARQL11Update (regression: the update endpoint was not described)."""
    g = description(ro_client)
    assert set(g.objects(service(g, "/sparql"), SD.supportedLanguage)) == {SD.SPARQL11Query}
    assert set(g.objects(service(g, "/update"), SD.supportedLanguage)) == {SD.SPARQL11Update}


def test_3_2_14_result_formats_are_the_formats_served(ro_client):
    """§3.2.14 sd:resultFormat: every format the query endpoint serves, by its W3C format IRI (from the one
    format table) — and each one is really served."""
    g = description(ro_client)
    iris = {str(o) for o in g.objects(service(g, "/sparql"), SD.resultFormat)}
    assert iris == {f.iri for f in (*RESULT_FORMATS, *GRAPH_FORMATS)}
    assert all(i.startswith(FORMATS) for i in iris)
    for f in RESULT_FORMATS:
        resp = ro_client.get("/sparql", query_string={"query": "ASK {}"}, headers={"Accept": f.mime})
        assert resp.mimetype == f.mime
    for f in GRAPH_FORMATS:
        resp = ro_client.get(
            "/sparql",
            query_string={"query": "CONSTRUCT WHERE { ?s a ?o } LIMIT 1"},
            headers={"Accept": f.mime},
        )
        assert resp.mimetype == f.mime


def test_graph_store_is_named(ro_client):
    """The graph store is named for both services (aikg:graphStore: SPARQL 1.1 has no term), and it is a
    working Graph Store Protocol endpoint (regression: not described)."""
    g = description(ro_client)
    stores = {
        o
        for s in (service(g, "/sparql"), service(g, "/update"))
        for o in g.objects(s, URIRef("https://w3id.org/aikg/ontology#graphStore"))
    }
    assert stores == {URIRef(ROOT + "/data")}
    assert (
        ro_client.get("/data", query_string={"graph": "https://w3id.org/aikg/graph/catalog"}).status_code
        == 200
    )


# --- §3.2.12–19, §3.3.8–11 the dataset --------------------------------------------------------------------


def test_3_3_9_the_dataset_has_a_default_graph_and_named_graphs_with_names(ro_client, backend):
    """§3.3.9: "The default graph of an sd:Dataset MUST be linked with the sd:defaultGraph predicate";
    §3.2.17: a named graph description "MUST include the sd:name property"; §3.3.8 each "MUST be linked with
    the sd:namedGraph predicate" — and the names are the store's graphs."""
    g = description(ro_client)
    dataset = g.value(service(g, "/sparql"), SD.defaultDataset)
    assert (dataset, RDF.type, SD.Dataset) in g
    assert g.value(dataset, SD.defaultGraph) is not None
    named = list(g.objects(dataset, SD.namedGraph))
    names = {str(g.value(n, SD.name)) for n in named}
    assert None not in {g.value(n, SD.name) for n in named}
    store = ro_client.application.extensions["aikg.services"].store
    assert names == set(store.graphs())


def test_3_2_13_no_available_graphs_are_claimed_as_datasets_are_not_limited(ro_client):
    """§3.2.13 sd:availableGraphs describes the graphs allowed in a dataset "if the service limits the
    scope of dataset construction": aikg does not (a graph it does not hold is an empty graph, and
    nothing is fetched, so sd:DereferencesURIs is not claimed either), so it claims none; the default
    dataset still lists every graph it holds."""
    g = description(ro_client)
    query = service(g, "/sparql")
    assert g.value(query, SD.availableGraphs) is None
    dataset = g.value(query, SD.defaultDataset)
    names = {str(g.value(n, SD.name)) for n in g.objects(dataset, SD.namedGraph)}
    some = sorted(names)[0]
    ok = ro_client.get("/sparql", query_string={"query": f"ASK FROM <{some}> {{ ?s ?p ?o }}"})
    assert ok.status_code == 200 and ok.get_json()["boolean"] is True
    outside = "https://w3id.org/aikg/graph/sources/not-in-the-store"
    assert outside not in names
    empty = ro_client.get("/sparql", query_string={"query": f"ASK FROM <{outside}> {{ ?s ?p ?o }}"})
    assert empty.status_code == 200 and empty.get_json()["boolean"] is False


# --- §3.4 features: each one claimed is true, none claimed that is not ------------------------------------


def test_3_4_5_union_default_graph_holds_for_queries_and_updates(client, backend_store):
    """§3.4.5 sd:UnionDefaultGraph: "the default graph of the dataset used during query and update
    evaluation (when an explicit dataset is not specified) is comprised of the union of all the named
    graphs"."""
    g = description(client)
    assert (service(g, "/sparql"), SD.feature, SD.UnionDefaultGraph) in g
    query = PREFIXES + "ASK { aikg:Neocloud rdfs:label ?l . id:coreweave rdfs:label ?m }"  # two graphs
    assert client.get("/sparql", query_string={"query": query}).get_json()["boolean"] is True
    text = (
        PREFIXES + f"INSERT {{ GRAPH <{MINE}> {{ id:coreweave rdfs:comment ?l }} }} "
        'WHERE { aikg:Neocloud rdfs:label ?l . id:coreweave rdfs:label "CoreWeave"@en }'
    )
    assert update(client, text).get_json()["added"] == 2


def test_3_4_features_not_offered_are_not_claimed(ro_client):
    """§3.4.4 sd:DereferencesURIs (aikg never dereferences FROM/USING IRIs), §3.4.7 sd:EmptyGraphs (it
    keeps no empty graph), §3.4.8 sd:BasicFederatedQuery (SERVICE is refused unless allow-listed) and
    §3.4.6 sd:RequiresDataset (a default dataset exists) are not claimed."""
    g = description(ro_client)
    claimed = set(g.objects(None, SD.feature))
    assert claimed.isdisjoint(
        {SD.DereferencesURIs, SD.EmptyGraphs, SD.BasicFederatedQuery, SD.RequiresDataset}
    )


def test_3_4_8_federated_query_is_claimed_only_when_allowed(seeded_store):
    """§3.4.8: with SERVICE endpoints allow-listed (setting allow_service), the query service says so."""
    app = create_app(
        {"store": "memory", "load_seeds": False, "allow_service": "http://127.0.0.1:9/sparql"},
        store=seeded_store,
    )
    g = turtle(app.test_client().get("/sparql"))
    assert (service(g, "/sparql"), SD.feature, SD.BasicFederatedQuery) in g


def test_3_4_7_an_emptied_graph_is_gone(client, backend_store):
    """§3.4.7 (not claimed): a graph left empty is not kept — on both backends alike."""
    text = PREFIXES + f'INSERT DATA {{ GRAPH <{MINE}> {{ id:coreweave rdfs:comment "x" }} }}'
    assert update(client, text).status_code == 200
    assert MINE in backend_store.graphs()
    assert update(client, text.replace("INSERT", "DELETE")).status_code == 200
    assert MINE not in backend_store.graphs()
    assert MINE not in {str(o) for o in description(client).objects(None, SD.name)}


def test_3_2_3_the_entailment_regime_is_simple(ro_client):
    """§3.2.3 sd:defaultEntailmentRegime: simple entailment (subclass answers are materialized triples,
    not entailment at query time)."""
    g = description(ro_client)
    assert g.value(service(g, "/sparql"), SD.defaultEntailmentRegime) == URIRef(
        "http://www.w3.org/ns/entailment/Simple"
    )


def test_2_the_update_description_needs_no_token(client):
    """§2: the description is read without credentials, even at the update endpoint."""
    assert client.get("/update").status_code == 200
    assert client.get("/update", headers=AUTH).status_code == 200
