"""Hub-proof answers by value: an entity's relations come per group (direction, property) with the
group's total and pages that together give every link once; a small entity is answered whole, as
before; a named query's pages are the slices of its full answer; bad page parameters are a 400."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from aikg.lookup.entities import SKIPPED_GRAPHS
from aikg.query import maintained
from aikg.query.named import QueryFileError, load_queries, parse_query_file
from aikg.web import create_app

AIKG = "https://w3id.org/aikg/ontology#"
ID = "https://w3id.org/aikg/id/"
GRAPH = "https://w3id.org/aikg/graph/sources/test-hub"
OTHER_GRAPH = "https://w3id.org/aikg/graph/sources/test-hub-2"
INFERRED = "https://w3id.org/aikg/graph/inferred"
MAKES, DEVELOPS, COMPETES = 130, 3, 60


def _hub_quads() -> str:
    """A hub: 130 chips made by it, 3 developed by it, 60 rivals it competes with; one chip also
    stated by a second graph; one link only in the inferred graph (not a fact: never listed)."""
    lines = [
        f'<{ID}test-hub> <http://www.w3.org/2000/01/rdf-schema#label> "Test Hub"@en <{GRAPH}> .',
        f"<{ID}test-hub> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{AIKG}Organization> <{GRAPH}> .",
        f"<{ID}test-chip-7> <{AIKG}manufacturer> <{ID}test-hub> <{OTHER_GRAPH}> .",
        f"<{ID}test-inferred-only> <{AIKG}party> <{ID}test-hub> <{INFERRED}> .",
    ]
    lines += [f"<{ID}test-chip-{i}> <{AIKG}manufacturer> <{ID}test-hub> <{GRAPH}> ." for i in range(MAKES)]
    lines += [f"<{ID}test-model-{i}> <{AIKG}developer> <{ID}test-hub> <{GRAPH}> ." for i in range(DEVELOPS)]
    lines += [
        f"<{ID}test-hub> <{AIKG}competesWith> <{ID}test-rival-{i}> <{GRAPH}> ." for i in range(COMPETES)
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture()
def hub_client(store):
    store.load(_hub_quads(), mime="application/n-quads")
    return create_app({"store": "memory", "load_seeds": False}, store=store).test_client()


def _ok(resp) -> dict:
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def _group(body: dict, direction: str, prop: str) -> dict:
    [group] = [
        g for g in body["relations"]["groups"] if g["direction"] == direction and g["property"]["iri"] == prop
    ]
    return group


def _key(rel: dict) -> str:
    return json.dumps(rel, sort_keys=True)


def _every_page(client, first: dict) -> list[list[dict]]:
    """The relations of each page of a group, following ``next`` from the entity's first page."""
    pages, url = [], first["next"]
    while url:
        page = _ok(client.get(url))
        assert page["total"] == first["total"]
        pages.append(page["relations"])
        assert page["truncated"] == (page["next"] is not None)
        url = page["next"]
    return pages


def test_a_hubs_relations_are_paged_with_the_right_total_and_pages_that_together_equal_the_full_set(
    hub_client,
):
    body = _ok(hub_client.get("/api/entities/test-hub?limit=50"))
    assert body["truncated"] is True
    made = _group(body, "incoming", AIKG + "manufacturer")
    assert (made["total"], made["count"], made["offset"]) == (MAKES, 50, 0)
    assert made["next"] and "offset=50" in made["next"]
    developed = _group(body, "incoming", AIKG + "developer")
    assert (developed["total"], developed["count"], developed["next"]) == (DEVELOPS, DEVELOPS, None)
    assert not [g for g in body["relations"]["groups"] if g["property"]["iri"] == AIKG + "party"]
    first = [r for r in body["relations"]["incoming"] if r["property"]["iri"] == AIKG + "manufacturer"]
    pages = [first, *_every_page(hub_client, made)]
    assert [len(p) for p in pages] == [50, 50, 30]
    listed = [r["node"]["iri"] for p in pages for r in p]
    assert len(listed) == len(set(listed)), "no link on two pages"
    assert set(listed) == {f"{ID}test-chip-{i}" for i in range(MAKES)}
    # The pages hold exactly the entries of the whole group, sources and all.
    whole = _ok(hub_client.get("/api/entities/test-hub?limit=1000"))
    assert whole["truncated"] is False
    full = [r for r in whole["relations"]["incoming"] if r["property"]["iri"] == AIKG + "manufacturer"]
    assert sorted(map(_key, full)) == sorted(_key(r) for p in pages for r in p)
    [chip7] = [r for r in full if r["node"]["iri"] == f"{ID}test-chip-7"]
    assert [s["graph"] for s in chip7["sources"]] == [GRAPH, OTHER_GRAPH]


def test_a_hubs_outgoing_links_are_paged_too(hub_client):
    body = _ok(hub_client.get("/api/entities/test-hub?limit=25"))
    rivals = _group(body, "outgoing", AIKG + "competesWith")
    assert (rivals["total"], rivals["count"]) == (COMPETES, 25)
    first = [r["node"]["iri"] for r in body["relations"]["outgoing"]]
    rest = [r["node"]["iri"] for p in _every_page(hub_client, rivals) for r in p]
    assert len(first + rest) == len(set(first + rest)) == COMPETES
    assert set(first + rest) == {f"{ID}test-rival-{i}" for i in range(COMPETES)}


def test_a_page_past_the_end_is_empty_with_the_total(hub_client):
    url = "/api/entities/test-hub/relations?direction=incoming&property=aikg:manufacturer&offset=500"
    page = _ok(hub_client.get(url))
    assert (page["total"], page["count"], page["relations"], page["next"]) == (MAKES, 0, [], None)


def _links(store, iri: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Every link of an entity in the fact graphs, read straight from the store: (property, other)
    outgoing, (other, property) incoming, in the order the entity JSON sorts them."""
    skipped = ", ".join(f"<{g}>" for g in SKIPPED_GRAPHS)
    not_links = (
        "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>, <https://w3id.org/aikg/ontology#certainty>, "
        "<https://w3id.org/aikg/ontology#datasetConfidence>, <https://w3id.org/aikg/ontology#qualifiedBy>"
    )
    out = store.query(
        f"SELECT DISTINCT ?p ?o WHERE {{ GRAPH ?g {{ <{iri}> ?p ?o }} FILTER (isIRI(?o) && "
        f"?g NOT IN ({skipped}) && ?p NOT IN ({not_links})) }}"
    ).rows
    # Quotations and rationales naming the entity are the evidence of its facts, not its relations.
    evidence = "<https://w3id.org/aikg/ontology#evidenceFor>, <https://w3id.org/aikg/ontology#drawsOn>"
    inc = store.query(
        f"SELECT DISTINCT ?s ?p WHERE {{ GRAPH ?g {{ ?s ?p <{iri}> }} "
        f"FILTER (?g NOT IN ({skipped}) && ?p NOT IN ({evidence})) }}"
    ).rows
    return sorted((p.value, o.value) for p, o in out), sorted((s.value, p.value) for s, p in inc)


@pytest.mark.parametrize("slug", ["coreweave", "nvidia", "result-mlperf-training-v6-0-coreweave-deepseek-v3"])
def test_a_small_entity_is_answered_whole_as_before(ro_client, seeded_store, slug):
    body = _ok(ro_client.get(f"/api/entities/{slug}"))
    out, inc = _links(seeded_store, ID + slug)
    assert [(r["property"]["iri"], r["node"]["iri"]) for r in body["relations"]["outgoing"]] == out
    assert [(r["node"]["iri"], r["property"]["iri"]) for r in body["relations"]["incoming"]] == inc
    assert all(g["next"] is None and g["count"] == g["total"] for g in body["relations"]["groups"])
    assert sum(g["total"] for g in body["relations"]["groups"]) == len(out) + len(inc)
    assert body["truncated"] is False


_PAGED_QUERIES = [
    ("accelerators-by-vendor", {}),
    ("unconfirmed-claims", {}),
    ("sources-of-entity", {"entity": "coreweave"}),
    ("events-between", {"from": "2000", "to": "2030-12-31"}),
]


@pytest.mark.parametrize(("name", "params"), _PAGED_QUERIES)
def test_named_query_pages_together_are_the_full_answer(ro_client, name, params):
    qs = "&".join(f"{k}={v}" for k, v in params.items())
    full = _ok(ro_client.get(f"/api/queries/{name}?{qs}"))
    assert full["truncated"] is False and full["next"] is None
    assert len(full["rows"]) > 4, "a query with rows enough to page"
    rows, url, pages = [], f"/api/queries/{name}?{qs}&limit=3", 0
    while url:
        resp = ro_client.get(url)
        page = _ok(resp)
        pages += 1
        assert page["limit"] == 3 and len(page["rows"]) <= 3
        assert page["truncated"] == (page["next"] is not None)
        assert resp.headers["X-AIKG-Truncated"] == str(page["truncated"]).lower()
        rows += page["rows"]
        url = page["next"]
    assert rows == full["rows"], "the pages, in order, are the whole ordered answer"
    assert pages == -(-len(full["rows"]) // 3), "no empty last page"


def test_named_query_page_of_exactly_the_rest_is_not_truncated(ro_client):
    full = _ok(ro_client.get("/api/queries/accelerators-by-vendor"))
    n = len(full["rows"])
    last = _ok(ro_client.get(f"/api/queries/accelerators-by-vendor?limit={n - 2}&offset=2"))
    assert last["rows"] == full["rows"][2:] and last["truncated"] is False and last["next"] is None
    cut = _ok(ro_client.get(f"/api/queries/accelerators-by-vendor?limit={n - 1}"))
    assert cut["rows"] == full["rows"][:-1] and cut["truncated"] is True


def test_named_query_csv_pages_carry_the_next_link(ro_client):
    resp = ro_client.get("/api/queries/accelerators-by-vendor?limit=2&format=csv")
    assert resp.status_code == 200
    assert resp.headers["X-AIKG-Truncated"] == "true"
    assert 'rel="next"' in resp.headers["Link"] and "offset=2" in resp.headers["Link"]
    assert len(resp.get_data(as_text=True).strip().splitlines()) == 3  # header and two rows


@pytest.mark.parametrize(
    "url",
    [
        "/api/entities/nvidia?limit=0",
        "/api/entities/nvidia?limit=abc",
        "/api/entities/nvidia?limit=1001",
        "/api/entities/nvidia/relations?direction=incoming&property=aikg:manufacturer&offset=-1",
        "/api/entities/nvidia/relations?direction=incoming&property=aikg:manufacturer&limit=0",
        "/api/entities/nvidia/relations?direction=sideways&property=aikg:manufacturer",
        "/api/entities/nvidia/relations?direction=incoming",
        "/api/entities/nvidia/relations?direction=incoming&property=not%20a%20property",
        "/api/queries/accelerators-by-vendor?limit=0",
        "/api/queries/accelerators-by-vendor?limit=",
        "/api/queries/accelerators-by-vendor?offset=x",
        "/api/queries/accelerators-by-vendor?offset=-3",
        "/api/queries/accelerators-by-vendor?limit=10001",
    ],
)
def test_bad_page_parameters_get_the_400_envelope(ro_client, url):
    resp = ro_client.get(url)
    assert resp.status_code == 400, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["ok"] is False and body["status"] == 400 and body["message"]
    assert body["errors"], "the envelope names the parameter"


def test_a_query_file_may_not_declare_the_page_parameters(tmp_path: Path):
    path = tmp_path / "q.rq"
    path.write_text("# title: T\n# param: limit integer optional -- Most rows\nSELECT * WHERE { ?s ?p ?o }\n")
    with pytest.raises(QueryFileError, match="limit"):
        parse_query_file(path)


def test_an_entity_named_by_a_full_iri_pages_through_its_next_links(store):
    iri = "http://example.org/things/hub"
    store.load(
        "".join(
            f"<http://example.org/things/x{i}> <{AIKG}manufacturer> <{iri}> <{GRAPH}> .\n" for i in range(7)
        ),
        mime="application/n-quads",
    )
    client = create_app({"store": "memory", "load_seeds": False}, store=store).test_client()
    body = _ok(client.get(f"/api/entities/{quote(iri, safe='')}?limit=3"))
    made = _group(body, "incoming", AIKG + "manufacturer")
    seen = [r["node"]["iri"] for r in body["relations"]["incoming"]]
    seen += [r["node"]["iri"] for p in _every_page(client, made) for r in p]
    assert sorted(seen) == sorted(f"http://example.org/things/x{i}" for i in range(7))


@pytest.mark.parametrize("name", ["speedup-claims", "accelerators-by-vendor", "unconfirmed-claims"])
def test_a_named_query_asked_without_limit_answers_its_first_page_with_total_and_next(store, name):
    """Without ``limit`` a named query answers query_page rows (a page a person reads: 10,000 rows of a
    whole-graph answer took 5 s at 10M quads), the first rows of its full answer in its order; ``total``
    says how many rows there are in all when aikg knows it (a kept answer knows its lines; a text's
    answer on its last page), ``next`` and the Link header where the next page is; an explicit limit up
    to max_rows is honoured."""
    client = create_app({"store": "memory", "load_seeds": False, "query_page": 3}, store=store).test_client()
    full = _ok(client.get(f"/api/queries/{name}?limit=10000"))
    n = len(full["rows"])
    assert n > 3 and full["truncated"] is False and full["total"] == n and full["next"] is None
    resp = client.get(f"/api/queries/{name}")
    first = _ok(resp)
    assert first["rows"] == full["rows"][:3], "the first page is the first rows in the query's order"
    assert first["limit"] == 3 and first["offset"] == 0 and first["truncated"] is True
    assert first["next"] == f"/api/queries/{name}?limit=3&offset=3"
    assert resp.headers["Link"] == f'<{first["next"]}>; rel="next"'
    q = load_queries()[name]
    kept = q.maintained is not None and maintained.is_kept(store, q)  # its line count is known
    assert kept == (name != "unconfirmed-claims")
    assert first["total"] == (n if kept else None)
    assert resp.headers.get("X-AIKG-Total") == (str(n) if kept else None)
    rows, url = list(first["rows"]), first["next"]
    while url:
        page = _ok(client.get(url))
        rows += page["rows"]
        url = page["next"]
    assert rows == full["rows"] and page["total"] == n, "the last page knows the total"
    asked = _ok(client.get(f"/api/queries/{name}?limit={n - 1}"))
    assert asked["rows"] == full["rows"][: n - 1] and asked["limit"] == n - 1 and asked["truncated"] is True


def test_a_named_query_asked_as_csv_without_limit_answers_up_to_the_row_cap(store):
    """CSV has no place in its body to say that more rows follow, and the explorer's ↓ CSV link is a
    download of the whole answer: without ``limit`` it answers up to max_rows, not query_page."""
    client = create_app({"store": "memory", "load_seeds": False, "query_page": 3}, store=store).test_client()
    full = _ok(client.get("/api/queries/speedup-claims?limit=10000"))
    resp = client.get("/api/queries/speedup-claims?format=csv")
    assert resp.status_code == 200 and resp.headers["X-AIKG-Truncated"] == "false"
    assert len(resp.get_data(as_text=True).strip().splitlines()) == len(full["rows"]) + 1 > 4
