"""Evidence of the seeds: every statement of a document's graph rests on a quotation of that document,
found word for word in its text, and every fact of the curated background says what it rests on.

The documents' texts are not part of the project: they are read from ``../shared/seeds/`` beside the
checkout (as in development and CI), each found by the SHA-256 the catalogue records for it.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from functools import cache
from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF

from aikg.namespaces import AIKG
from aikg.resources import seeds_dir

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ROOT.parent / "shared" / "seeds"
SOURCES = sorted((seeds_dir() / "sources").glob("*.ttl"))
SENTENCE_END = "。！？!?"


@cache
def parsed(path: Path) -> Graph:
    """One seed file as an rdflib graph."""
    return Graph().parse(path, format="turtle")


@cache
def catalog() -> Graph:
    """The catalogue graph."""
    return parsed(seeds_dir() / "catalog.ttl")


@cache
def texts() -> dict[str, str]:
    """SHA-256 -> text of every document beside the checkout; fails (never skips) when they are absent."""
    files = sorted(TEXTS.glob("*.txt"))
    assert files, f"the source documents' texts are not in {TEXTS} (they sit beside the checkout)"
    return {hashlib.sha256(f.read_bytes()).hexdigest(): f.read_text(encoding="utf-8") for f in files}


def document_of(path: Path) -> URIRef:
    """The catalogued document whose graph a source file is loaded into."""
    graph = URIRef(f"https://w3id.org/aikg/graph/sources/{path.stem}")
    (doc,) = catalog().subjects(AIKG.namedGraph, graph)
    assert isinstance(doc, URIRef)
    return doc


def text_of(doc: URIRef) -> str:
    """The text of a document, found by the digest the catalogue records for it."""
    digest = catalog().value(doc, AIKG.textSha256)
    assert digest is not None, f"{doc} has no aikg:textSha256 in the catalogue"
    found = texts().get(str(digest))
    assert found is not None, f"no text in {TEXTS} has the SHA-256 the catalogue gives {doc}: {digest}"
    return found


def evidence_nodes(g: Graph) -> set[URIRef]:
    """The quotations and rationales of a graph."""
    return {
        s
        for cls in (AIKG.Quotation, AIKG.CurationRationale)
        for s in g.subjects(RDF.type, cls)
        if isinstance(s, URIRef)
    }


def uncovered(g: Graph) -> list[str]:
    """The statements of a graph no evidence of the same graph supports, as readable lines.

    A statement (s p o) is supported by evidence naming s (aikg:evidenceFor) and p (aikg:supportsProperty).
    A value qualification and the link to it rest on the evidence of the figure it qualifies."""
    evidence = evidence_nodes(g)
    supported: set[tuple[URIRef, URIRef]] = set()
    for e in evidence:
        for node in g.objects(e, AIKG.evidenceFor):
            for prop in g.objects(e, AIKG.supportsProperty):
                supported.add((node, prop))  # type: ignore[arg-type]
    owner_of = {vq: (s, g.value(vq, AIKG.onProperty)) for s, vq in g.subject_objects(AIKG.qualifiedBy)}
    missing = []
    for s, p, o in sorted(g):
        if s in evidence:
            continue
        if s in owner_of:
            key = owner_of[s]
        elif p == AIKG.qualifiedBy and o in owner_of:
            key = owner_of[o]
        else:
            key = (s, p)
        if key not in supported:
            shown = o if isinstance(o, Literal) else g.namespace_manager.normalizeUri(o)
            missing.append(
                f"{g.namespace_manager.normalizeUri(s)} {g.namespace_manager.normalizeUri(p)} {shown}"
            )
    return missing


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_every_statement_of_a_document_rests_on_a_quotation(path: Path) -> None:
    """Each triple of a document's graph is supported by one of its quotations (the list names those
    that are not)."""
    g = parsed(path)
    assert not list(g.subjects(RDF.type, AIKG.CurationRationale)), "a document's graph quotes it"
    assert uncovered(g) == []


@pytest.mark.parametrize("path", SOURCES, ids=[p.stem for p in SOURCES])
def test_every_quotation_is_whole_sentences_of_its_document_word_for_word(path: Path) -> None:
    """A quotation's text occurs in its document as it stands, starts and ends where sentences do, and
    carries the document's language; it is quoted from the document whose graph holds it."""
    g = parsed(path)
    doc = document_of(path)
    text = text_of(doc)
    language = str(catalog().value(doc, URIRef("http://purl.org/dc/terms/language")))
    quotes = list(g.subjects(RDF.type, AIKG.Quotation))
    assert quotes
    wrong = []
    for q in quotes:
        (quoted,) = g.objects(q, AIKG.quotedText)
        assert isinstance(quoted, Literal)
        said = str(quoted)
        at = text.find(said)
        if at < 0:
            wrong.append(f"{q}: not in the document: {said!r}")
            continue
        before = text[:at].rstrip(" \u3000")
        after = text[at + len(said) :]
        if before and before[-1] not in SENTENCE_END + "\n":
            wrong.append(f"{q}: starts inside a sentence: …{before[-20:]!r} | {said[:20]!r}")
        if said[-1] not in SENTENCE_END and after and after[0] != "\n":
            wrong.append(f"{q}: ends inside a sentence: {said[-20:]!r} | {after[:20]!r}…")
        if quoted.language != language:
            wrong.append(f"{q}: language {quoted.language!r}, the document's is {language!r}")
        if list(g.objects(q, AIKG.quotedFrom)) != [doc]:
            wrong.append(f"{q}: quoted from {list(g.objects(q, AIKG.quotedFrom))}, not {doc}")
    assert wrong == []


@pytest.mark.parametrize("path", [*SOURCES, seeds_dir() / "background.ttl"], ids=lambda p: p.stem)
def test_evidence_supports_only_what_its_graph_states(path: Path) -> None:
    """No evidence names a node or a property its graph does not state of that node (a typo or a
    statement removed since): each (node, property) it supports is a statement of the same graph."""
    g = parsed(path)
    stale = []
    for e in evidence_nodes(g):
        nodes = list(g.objects(e, AIKG.evidenceFor))
        props = list(g.objects(e, AIKG.supportsProperty))
        assert len(nodes) == 1 and props, e
        stale += [f"{e}: {nodes[0]} {p}" for p in props if (nodes[0], p, None) not in g]
    assert stale == []


def test_the_background_says_what_each_of_its_facts_rests_on() -> None:
    """Every fact aikg's curators add (graph/background) has a rationale, and none is a quotation: no
    document states them."""
    g = parsed(seeds_dir() / "background.ttl")
    assert not list(g.subjects(RDF.type, AIKG.Quotation))
    assert uncovered(g) == []
    quotations = {q for path in SOURCES for q in parsed(path).subjects(RDF.type, AIKG.Quotation)}
    for r in g.subjects(RDF.type, AIKG.CurationRationale):
        (why,) = g.objects(r, AIKG.rationale)
        assert len(str(why)) > 20, r
        # What a rationale draws on exists: a quotation of a document or another rationale.
        assert set(g.objects(r, AIKG.drawsOn)) <= quotations | evidence_nodes(g), r


def test_each_document_sentence_quoted_supports_something() -> None:
    """Quotations are per statement: a sentence that supports several nodes is one quotation per node,
    and each names at least one property (so a reader sees which sentence supports which fact)."""
    per_doc: dict[str, int] = defaultdict(int)
    for path in SOURCES:
        g = parsed(path)
        for q in g.subjects(RDF.type, AIKG.Quotation):
            assert len(list(g.objects(q, AIKG.evidenceFor))) == 1, q
            assert list(g.objects(q, AIKG.supportsProperty)), q
            per_doc[path.stem] += 1
    assert set(per_doc) == {p.stem for p in SOURCES}


# ----------------------------------------------------------------------------- the evidence shown

ESTIMATED_COST = "按每卡小时约 2 美元计算成本约 557.6 万美元"


def _fact_sources(body: dict, prop: str) -> list[dict]:
    return [s for f in body["facts"] if f["property"]["name"] == prop for s in f["sources"]]


def test_the_entity_json_gives_each_fact_the_sentence_it_rests_on(ro_client) -> None:
    """Each source of a fact carries the quotation of its document that states it: the estimated cost
    with the sentence computing it (and its certainty, estimated), on both backends."""
    run = ro_client.get("/api/entities/training-run-deepseek-v3").get_json()
    [cost] = _fact_sources(run, "aikg:cost")
    assert cost["certainty"]["name"] == "aikg:Estimated"
    [quote] = cost["evidence"]
    assert quote["kind"] == "quotation" and quote["lang"] == "zh" and ESTIMATED_COST in quote["text"]
    # The date of the run rests on another sentence than its cost.
    [date] = _fact_sources(run, "aikg:date")
    assert [e["text"] for e in date["evidence"]] == [
        "与 2024 年 V3 原始训练的 278.8 万 H800 GPU 小时相比，差了约四个数量级。"
    ]


def test_links_carry_their_evidence_and_quotations_are_not_relations(ro_client) -> None:
    """An incoming link rests on the quotation of its subject (the 2019 pivot names CoreWeave as its
    agent); the quotations naming an entity are not listed among its relations; a curated background
    link gives the curators' reason instead of a quotation."""
    body = ro_client.get("/api/entities/coreweave").get_json()
    groups = {(g["direction"], g["property"]["name"]) for g in body["relations"]["groups"]}
    assert ("incoming", "aikg:evidenceFor") not in groups
    [pivot] = [
        r for r in body["relations"]["incoming"] if r["node"]["id"] == "coreweave-2019-pivot-to-gpu-cloud"
    ]
    assert any("2019 年转 GPU 云" in e["text"] for s in pivot["sources"] for e in s["evidence"])
    h800 = ro_client.get("/api/entities/h800").get_json()
    [maker] = [r for r in h800["relations"]["outgoing"] if r["property"]["name"] == "aikg:manufacturer"]
    [source] = maker["sources"]
    assert source["certainty"]["name"] == "aikg:Curated"
    assert [e["kind"] for e in source["evidence"]] == ["rationale"]
    assert "H800" in source["evidence"][0]["text"]


def test_sources_of_entity_give_the_quote_and_the_certainty_of_each_statement(ro_client) -> None:
    """sources-of-entity: the estimated cost reads estimated (its qualification's certainty), not the
    document's reported; every statement of the run has the quote it rests on; the quotations naming
    an entity are not listed as statements about it; background facts give their rationale."""
    prop = "https://w3id.org/aikg/ontology#"
    rows = _query(ro_client, "sources-of-entity", entity="training-run-deepseek-v3")
    [cost] = [r for r in rows if r["property"] == prop + "cost"]
    assert cost["certainty"] == prop + "Estimated" and cost["certaintyLabel"] == "estimated"
    assert ESTIMATED_COST in cost["quote"]
    graph = "https://w3id.org/aikg/graph/sources/frontier-insights-coreweave-mlperf-2026-08-18"
    assert [r for r in rows if r["graph"] == graph and not r["quote"]] == []
    coreweave = _query(ro_client, "sources-of-entity", entity="coreweave")
    assert prop + "evidenceFor" not in {r["property"] for r in coreweave}
    [curated] = [
        r
        for r in _query(ro_client, "sources-of-entity", entity="h800")
        if r["property"] == prop + "manufacturer"
    ]
    assert curated["quote"] is None and "H800" in curated["rationale"]


def _query(client, name: str, **params: str) -> list[dict[str, str | None]]:
    """A named query's rows through the JSON API, each as {column: value or None}."""
    body = client.get(f"/api/queries/{name}", query_string=params).get_json()
    return [{c: (r.get(c) or {}).get("value") for c in body["columns"]} for r in body["rows"]]


def test_named_queries_with_a_source_column_give_the_quote(ro_client) -> None:
    """The source column of a named query comes with the sentence the row rests on: the estimated cost
    in unconfirmed-claims, Groq's round in funding-by-company, DeepSeek-V3's run on the H800, and a
    speed-up claim's factor."""
    claims = {r["claim"]: r["quote"] for r in _query(ro_client, "unconfirmed-claims")}
    assert ESTIMATED_COST in claims["https://w3id.org/aikg/id/training-run-deepseek-v3-q-cost"]
    assert "SemiAnalysis 传出 Google TPUv9" in claims["https://w3id.org/aikg/id/tpu-v9t"]
    [groq] = _query(ro_client, "funding-by-company", company="groq")
    assert groq["quote"].startswith("而 Groq 在 8 月 17 日宣布 3.5 亿美元 A 轮")
    [run] = _query(ro_client, "models-trained-on", accelerator="h800")
    assert "在 2,048 张 H800 上跑了约 278.8 万 GPU 小时" in run["quote"]
    claims = {r["claim"]: r["quote"] for r in _query(ro_client, "speedup-claims")}
    assert "快达3.2倍的训练性能" in claims["https://w3id.org/aikg/id/claim-nmedialink-3-2x-llama-3-1-405b"]


def test_a_written_quotation_keeps_the_generated_graphs_as_a_rebuild_would(store) -> None:
    """A client's quotation (here of a document aikg holds, in the client's graph) is written through the
    gate like any node: validated, its superclass (aikg:Evidence) inferred in the same commit, and removed
    with it; the generated graphs stay what a rebuild would make."""
    from rdflib.namespace import RDF as _RDF

    from aikg.namespaces import INFERRED_GRAPH
    from aikg.write import gate
    from helpers import services_for
    from test_incremental import TEST_GRAPH, assert_same_as_rebuild, turtle_quads

    quote = "https://w3id.org/aikg/id/quote-test-coreweave-founded"
    turtle = f"""@prefix aikg: <{AIKG}> . @prefix id: <https://w3id.org/aikg/id/> .
        id:quote-test-coreweave-founded a aikg:Quotation ;
            aikg:quotedFrom id:frontier-insights-coreweave-mlperf-2026-08-18 ;
            aikg:evidenceFor id:coreweave ; aikg:supportsProperty aikg:foundedIn ;
            aikg:quotedText "CoreWeave 2017 年从以太坊矿场起家"@zh ."""
    services = services_for(store)
    services.gate.write(lambda: gate.graph_change(store, TEST_GRAPH, turtle_quads(turtle), replace=False))
    inferred = {q.object.value for q in store.quads(ox.NamedNode(quote), None, None, str(INFERRED_GRAPH))}
    assert inferred == {str(AIKG.Evidence)}
    assert_same_as_rebuild(store)
    services.gate.write(lambda: gate.graph_change(store, TEST_GRAPH, set(), replace=True))
    assert not list(store.quads(ox.NamedNode(quote), ox.NamedNode(str(_RDF.type)), None, None))
    assert_same_as_rebuild(store)
