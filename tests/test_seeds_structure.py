"""Integrity of the seed files: they parse, are catalogued, use declared terms and keep provenance honest."""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS

from aikg.namespaces import AIKG, ANSWERS_GRAPH, GRAPH, ID, SCHEMA
from aikg.resources import ontology_dir, seed_graph_iri, seeds_dir

SEED_FILES = sorted(seeds_dir().rglob("*.ttl"))
SOURCE_STEMS = sorted(p.stem for p in (seeds_dir() / "sources").glob("*.ttl"))
DCAT_RESOURCE = URIRef("http://www.w3.org/ns/dcat#resource")
DCAT_CATALOG = URIRef("http://www.w3.org/ns/dcat#Catalog")
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@cache
def parsed(path: Path) -> Graph:
    """One seed file as an rdflib graph."""
    return Graph().parse(path, format="turtle")


@cache
def union() -> Graph:
    """All seed files together, as the store's union default graph sees them (minus derived facts)."""
    g = Graph()
    for path in SEED_FILES:
        g += parsed(path)
    return g


@cache
def ontology() -> Graph:
    """The ontology files together."""
    g = Graph()
    for path in sorted(ontology_dir().glob("*.ttl")):
        g.parse(path, format="turtle")
    return g


def catalog() -> Graph:
    """The catalogue graph."""
    return parsed(seeds_dir() / "catalog.ttl")


def source_graph(stem: str) -> Graph:
    """One source document's graph."""
    return parsed(seeds_dir() / "sources" / f"{stem}.ttl")


def test_the_three_source_documents_have_seed_files() -> None:
    """One file per source document in /work/shared/seeds."""
    assert SOURCE_STEMS == [
        "frontier-insights-coreweave-mlperf-2026-08-18",
        "infoq-soumith-tinker-2026-11-06",
        "nmedialink-llama31-training",
    ]


@pytest.mark.parametrize("path", SEED_FILES, ids=[p.name for p in SEED_FILES])
def test_seed_file_parses_and_has_no_blank_nodes(path: Path) -> None:
    """Every seed file is Turtle without blank nodes, so loads are idempotent and dumps stable."""
    g = parsed(path)
    assert len(g) > 0
    blanks = [t for t in g if any(isinstance(x, BNode) for x in t)]
    assert blanks == []


def test_every_data_graph_is_described_in_the_catalogue(seeded_store) -> None:
    """Each graph of facts (sources, background, derived, inferred) is a catalogued document's named graph."""
    described = {str(o) for o in catalog().objects(None, AIKG.namedGraph)}
    files = {seed_graph_iri(p) for p in SEED_FILES if p.name != "catalog.ttl"}
    assert files <= described
    schema_graphs = {str(GRAPH[n]) for n in ("ontology", "shapes", "catalog")}
    # graph/answers keeps named queries' rows, computed from the facts: no document states them.
    assert set(seeded_store.graphs()) - schema_graphs - {str(ANSWERS_GRAPH)} <= described
    assert str(ANSWERS_GRAPH) in seeded_store.graphs()
    # Graphs aikg writes itself: the computed ones, and the import's resolution links and records.
    assert described == files | {
        str(GRAPH.derived),
        str(GRAPH.inferred),
        str(GRAPH.resolution),
        str(GRAPH.imports),
    }


def test_catalogue_describes_each_document() -> None:
    """Title, language, graph and default certainty of every document; dates, publishers, URLs as given."""
    c = catalog()
    for doc in c.subjects(RDF.type, AIKG.SourceDocument):
        assert len(list(c.objects(doc, DCTERMS.title))) == 1, doc
        assert len(list(c.objects(doc, AIKG.namedGraph))) == 1, doc
        assert len(list(c.objects(doc, AIKG.defaultCertainty))) == 1, doc
    frontier = ID["frontier-insights-coreweave-mlperf-2026-08-18"]
    assert c.value(frontier, DCTERMS.issued).toPython().isoformat() == "2026-08-18"
    assert c.value(frontier, DCTERMS.publisher) == ID["frontier-tech-insights"]
    assert c.value(frontier, AIKG.aiAssisted) == Literal(True)
    nmedia = ID["nmedialink-llama31-training"]
    assert c.value(nmedia, DCTERMS.publisher) == ID.nmedialink
    assert c.value(nmedia, SCHEMA.url) == URIRef(
        "https://nmedialink.com/posts/llama-3-1-ai-train-4-2x-cost-cut-half.html"
    )
    soumith = ID["infoq-soumith-tinker-2026-11-06"]
    assert c.value(soumith, AIKG.basedOn) == ID["report-infoq-2026-11-06-soumith-pretraining"]
    # Neither the 新媒网 article nor the Soumith item gives its own date; the Soumith item names no publisher.
    assert c.value(nmedia, DCTERMS.issued) is None
    assert c.value(soumith, DCTERMS.issued) is None
    assert c.value(soumith, DCTERMS.publisher) is None
    for stem in SOURCE_STEMS:
        doc = ID[stem]
        assert c.value(doc, DCTERMS.language) == Literal("zh")
        assert c.value(doc, AIKG.namedGraph) == GRAPH[f"sources/{stem}"]
        assert c.value(doc, AIKG.defaultCertainty) == AIKG.Reported
    assert c.value(ID["aikg-curated-background"], AIKG.namedGraph) == GRAPH.background
    # Curated background shows as aikg's curation, not as "reported" (regression).
    assert c.value(ID["aikg-curated-background"], AIKG.defaultCertainty) == AIKG.Curated
    assert c.value(ID["aikg-entity-resolution"], AIKG.defaultCertainty) == AIKG.Curated
    assert c.value(ID["aikg-derived-facts"], AIKG.defaultCertainty) == AIKG.Derived
    for outlet in (ID["frontier-tech-insights"], ID.nmedialink):
        assert (outlet, RDF.type, AIKG.MediaOutlet) in c


def test_dcat_catalog_lists_every_document() -> None:
    """The dcat:Catalog node lists every catalogued document."""
    c = catalog()
    assert (ID.catalog, RDF.type, DCAT_CATALOG) in c
    docs = set(c.subjects(RDF.type, AIKG.SourceDocument))
    assert set(c.objects(ID.catalog, DCAT_RESOURCE)) == docs
    assert len(docs) == 8


def test_entities_have_exactly_one_english_label_and_at_most_one_chinese() -> None:
    """Every id: node (qualifications and evidence aside) has one @en rdfs:label across all graphs, and at
    most one @zh."""
    g = union()
    problems = []
    unlabelled = (AIKG.ValueQualification, AIKG.Quotation, AIKG.CurationRationale)
    for node in {s for s in g.subjects() if str(s).startswith(str(ID))}:
        if any((node, RDF.type, cls) in g for cls in unlabelled):
            continue
        by_lang = defaultdict(set)
        for label in g.objects(node, RDFS.label):
            by_lang[label.language].add(str(label))
        if len(by_lang["en"]) != 1 or len(by_lang["zh"]) > 1 or set(by_lang) - {"en", "zh"}:
            problems.append((str(node), dict(by_lang)))
    assert problems == []


def test_slugs_are_lowercase_ascii_and_hyphens() -> None:
    """Entity IRIs follow the id:<slug> scheme of CONTRACTS.md."""
    g = union()
    nodes = {x for t in g for x in t if isinstance(x, URIRef) and str(x).startswith(str(ID))}
    bad = sorted(str(n) for n in nodes if not SLUG.match(str(n)[len(str(ID)) :]))
    assert bad == []


def test_every_referenced_entity_is_typed() -> None:
    """No dangling references: every id: node used anywhere has an rdf:type in some seed graph."""
    g = union()
    used = {o for o in g.objects() if isinstance(o, URIRef) and str(o).startswith(str(ID))}
    untyped = sorted(str(n) for n in used if (n, RDF.type, None) not in g)
    assert untyped == []


def test_every_aikg_term_used_is_declared_in_the_ontology() -> None:
    """Properties, classes and controlled values from the aikg namespace are all declared."""
    declared = set(ontology().subjects(RDF.type, None))
    used = set()
    for s, p, o in union():
        used.update(x for x in (s, p, o) if isinstance(x, URIRef) and str(x).startswith(str(AIKG)))
    assert sorted(str(t) for t in used - declared) == []


def test_qualifications_qualify_a_figure_the_node_states() -> None:
    """Each value qualification hangs off one node that states a value for the qualified property."""
    for stem in SOURCE_STEMS:
        g = source_graph(stem)
        for vq in g.subjects(RDF.type, AIKG.ValueQualification):
            owners = list(g.subjects(AIKG.qualifiedBy, vq))
            assert len(owners) == 1, vq
            prop = g.value(vq, AIKG.onProperty)
            assert g.value(owners[0], prop) is not None, (vq, prop)
            assert str(vq).startswith(str(owners[0]) + "-q-"), vq


def test_money_always_has_a_currency_or_says_it_has_none() -> None:
    """Amounts, prices and costs carry aikg:currency or aikg:currencyStated false — exactly one of the two."""
    g = union()
    for prop in (AIKG.amount, AIKG.price, AIKG.cost, AIKG.pricePerGpuHour):
        for node in g.subjects(prop, None):
            has_currency = (node, AIKG.currency, None) in g
            unstated = (node, AIKG.currencyStated, Literal(False)) in g
            assert has_currency != unstated, node


def mentioned(stem: str) -> set[str]:
    """Every IRI and literal text of one document's graph, for spot checks."""
    return {str(x) for t in source_graph(stem) for x in t}


def test_nmedialink_graph_names_no_product_the_article_does_not_name() -> None:
    """新媒网 never says Hopper, Blackwell Ultra, GB200 or GB300: identifications stay in the background."""
    terms = mentioned("nmedialink-llama31-training")
    for absent in ("hopper", "blackwell-ultra", "gb200-nvl72", "gb300-nvl72", "gb300", "h100", "coreweave"):
        assert str(ID[absent]) not in terms, absent
    assert not [t for t in terms if "Hopper" in t or "Blackwell Ultra" in t or "GB300" in t]
    background = parsed(seeds_dir() / "background.ttl")
    generation = AIKG.architectureGeneration
    assert (ID["nmedialink-previous-generation-platform"], generation, ID.hopper) in background
    assert (ID["nmedialink-upgraded-platform"], generation, ID["blackwell-ultra"]) in background


def test_frontier_graph_does_not_name_the_developer_it_does_not_name() -> None:
    """The 003 report names DeepSeek-V2/V3 but not the company DeepSeek, nor H800's maker: background only."""
    g = source_graph("frontier-insights-coreweave-mlperf-2026-08-18")
    assert str(ID.deepseek) not in mentioned("frontier-insights-coreweave-mlperf-2026-08-18")
    assert (ID.h800, AIKG.manufacturer, None) not in g
    assert (ID["deepseek-v3"], AIKG.developer, None) not in g
    assert (ID["semianalysis"], RDF.type, AIKG.AnalystFirm) not in g


def test_soumith_graph_has_no_chip_currency_or_model_name() -> None:
    """The Soumith item names no chip, no GPU count, no currency and no model: none appear in its graph."""
    g = source_graph("infoq-soumith-tinker-2026-11-06")
    assert not list(g.subjects(RDF.type, AIKG.GPU))
    assert not list(g.triples((None, AIKG.acceleratorCount, None)))
    assert not list(g.triples((None, AIKG.currency, None)))
    assert str(ID.nvidia) not in mentioned("infoq-soumith-tinker-2026-11-06")


def test_background_states_no_figures_and_keeps_out_of_documents() -> None:
    """The curated background connects entities; it adds no numbers, and documents never repeat it."""
    background = parsed(seeds_dir() / "background.ttl")
    numeric = [t for t in background if isinstance(t[2], Literal) and t[2].datatype is not None]
    assert numeric == []
    for stem in SOURCE_STEMS:
        g = source_graph(stem)
        shared = [t for t in background if t in g and t[1] != RDFS.label and t[1] != RDF.type]
        assert shared == [], stem
