"""The search index: normalization, ranking tiers, CJK, type filters, and rebuilding on new data."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from aikg.lookup.search import SearchIndex, normalize, search
from aikg.lookup.vocabulary import Vocabulary
from aikg.store import OxigraphStore, Store
from helpers import services_for

AIKG = "https://w3id.org/aikg/ontology#"
ID = "https://w3id.org/aikg/id/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
GRAPH = ox.NamedNode("https://w3id.org/aikg/graph/test")


@pytest.fixture(scope="module")
def small() -> SearchIndex:
    """A hand-made index where every tier has a known answer."""
    vocab = Vocabulary()
    vocab.supers[AIKG + "Neocloud"].add(AIKG + "Organization")
    vocab.subs[AIKG + "Organization"].add(AIKG + "Neocloud")
    names = [
        (ID + "core", LABEL, "Core", "en"),
        (ID + "coreweave", LABEL, "CoreWeave", "en"),
        (ID + "hardcore", LABEL, "Hardcore Labs", "en"),
        (ID + "apple-core", LABEL, "Apple Core Systems", "en"),
        (ID + "nvidia", LABEL, "NVIDIA", "en"),
        (ID + "nvidia", ALT, "英伟达", "zh"),
        (ID + "deepseek-v3", LABEL, "DeepSeek-V3", "en"),
        (ID + "deepseek-v3", ALT, "V3", None),
    ]
    types = [
        (ID + "coreweave", AIKG + "Neocloud"),
        (ID + "coreweave", AIKG + "Organization"),
        (ID + "hardcore", AIKG + "Organization"),
        (ID + "nvidia", AIKG + "Organization"),
        (ID + "deepseek-v3", AIKG + "AIModel"),
    ]
    return SearchIndex(names, types, vocab)


def _slugs(hits) -> list[str]:
    return [h.entity.slug for h in hits]


def test_normalize_folds_case_width_and_separators():
    assert normalize("  DeepSeek-V3 ") == "deepseek v3"
    assert normalize("ＧＢ３００_NVL72") == "gb300 nvl72"
    assert normalize("英伟达") == "英伟达"
    # Epoch's cell quoted twice ('"Jupiter, Jülich"'): the name begins with its first word
    assert normalize('"Jupiter, Jülich"') == "jupiter, julich"


def test_normalize_drops_latin_accents_only():
    # a name is typed with or without its accents: Epoch writes "Julich Supercomputing Center" and
    # "Calcul Québec Béluga"; "Jülich Supercomputing Centre" linked Pawsey Supercomputing Centre
    assert normalize("Jülich") == normalize("Julich") == "julich"
    assert normalize("Calcul Québec Béluga") == "calcul quebec beluga"
    assert normalize("Petrobras Dragão") == "petrobras dragao"
    # other scripts keep their marks: kana's voicing mark, Hangul syllables, Chinese
    assert normalize("ガウディ") == "ガウディ"
    assert normalize("네이버") == "네이버"
    assert normalize("於利希") == "於利希"


def test_tiers_exact_prefix_word_substring(small):
    hits = small.search("core")
    assert _slugs(hits) == ["core", "coreweave", "apple-core", "hardcore"]
    assert [h.match for h in hits] == ["exact", "prefix", "word", "substring"]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_one_hit_per_entity_with_its_best_name(small):
    hits = small.search("v3")
    assert _slugs(hits) == ["deepseek-v3"]
    assert (hits[0].name, hits[0].match) == ("V3", "exact")
    assert hits[0].entity.label == "DeepSeek-V3"


def test_chinese_names_match_per_character(small):
    assert _slugs(small.search("英伟达")) == ["nvidia"]
    assert _slugs(small.search("伟")) == ["nvidia"]
    assert small.search("伟")[0].match == "substring"


def test_type_filter_includes_subclasses(small):
    assert _slugs(small.search("core", type_iri=AIKG + "Organization")) == ["coreweave", "hardcore"]
    assert _slugs(small.search("core", type_iri=AIKG + "Neocloud")) == ["coreweave"]
    assert small.search("core", type_iri=AIKG + "AIModel") == []


def test_limit_and_empty_queries(small):
    assert len(small.search("core", limit=2)) == 2
    assert small.search("   ") == []
    assert small.search("zzz") == []


def test_directory_keeps_most_specific_types(small):
    assert small.entities[ID + "coreweave"].types == (AIKG + "Neocloud",)


def test_seeded_index_answers_by_any_name(seeded_store):
    services = services_for(seeded_store)
    index = services.index()
    assert _slugs(index.search("英伟达"))[0] == "nvidia"
    assert _slugs(index.search("Soumith"))[0] == "soumith-chintala"
    assert _slugs(index.search("tpuv9t"))[0] == "tpu-v9t"
    assert services.index() is index  # cached while the data does not change


def test_index_is_rebuilt_when_the_store_changes(store):
    services = services_for(store)
    before = services.index()
    assert before.search("Qwertyuiop Cloud") == []
    turtle = f'<{ID}qwertyuiop-cloud> a <{AIKG}Neocloud> ; <{LABEL}> "Qwertyuiop Cloud"@en ; <{ALT}> "QC" .'
    store.load(turtle.encode(), mime="text/turtle", graph="https://w3id.org/aikg/graph/test")
    after = services.index()
    assert after is not before
    assert _slugs(after.search("qwertyuiop")) == ["qwertyuiop-cloud"]
    assert _slugs(after.search("qc", type_iri=AIKG + "Organization")) == ["qwertyuiop-cloud"]


def test_bisected_keys_and_the_scan_agree(monkeypatch):
    """Prefix and word-prefix lookups bisect sorted positions; past a range size they scan instead."""
    names = [(f"{ID}e{i}", LABEL, f"Alpha Beta {i:04d}", "en") for i in range(300)]
    names += [(f"{ID}c{i}", LABEL, f"基准云 {i} Beta", "zh") for i in range(30)]
    index = SearchIndex(names, [], Vocabulary())
    queries = ("alpha", "beta", "beta 01", "alpha beta 0299", "基准", "ta 02", "云 2")
    bisected = {q: index.search(q, limit=15) for q in queries}
    monkeypatch.setattr("aikg.lookup.search._RANGE_SCAN", 0)
    assert {q: index.search(q, limit=15) for q in queries} == bisected
    assert _slugs(bisected["beta 01"])[:3] == ["e100", "e101", "e102"]
    assert [h.match for h in bisected["alpha beta 0299"]] == ["exact"]
    assert _slugs(bisected["云 2"])[0] == "c2"


@pytest.fixture(scope="module")
def versions() -> SearchIndex:
    """Model names where the query is a whole word of some names and the start of a word of others."""
    names = [
        (ID + "gpt-4v", LABEL, "GPT-4V", "en"),
        (ID + "gpt-4-1", LABEL, "GPT-4.1", "en"),
        (ID + "gpt-4o", LABEL, "GPT-4o", "en"),
        (ID + "gpt-4-mar-2023", LABEL, "GPT-4 (Mar 2023)", "en"),
        (ID + "gpt-4-turbo", LABEL, "GPT-4 Turbo", "en"),
        (ID + "llama-33b", LABEL, "LLaMA-33B", "en"),
        (ID + "llama-3-8b", LABEL, "Llama 3-8B", "en"),
        (ID + "llama-3-1-8b", LABEL, "Llama 3.1-8B", "en"),
        (ID + "run-llama-3-8b", LABEL, "Training Llama 3-8B", "en"),
        (ID + "run-llama-33b", LABEL, "Training LLaMA-33B", "en"),
        (ID + "openaix", LABEL, "OpenAIx", "en"),
        (ID + "openai-oracle", LABEL, "OpenAI–Oracle Stargate", "en"),
        (ID + "nvidia-corp", LABEL, "英伟达公司", "zh"),
        (ID + "nvidia-h100", LABEL, "英伟达 H100", "zh"),
    ]
    types = [(n[0], AIKG + "AIModel") for n in names]
    return SearchIndex(names, types, Vocabulary())


def test_a_query_that_ends_a_word_ranks_before_one_that_stops_inside_a_word(versions, monkeypatch):
    """Typing "GPT-4" means GPT-4 (Mar 2023) before GPT-4V; "Llama 3" Llama 3-8B before LLaMA-33B. A point
    between digits continues a word: "4" is not a whole word of "GPT-4.1". Bisection and scan agree."""
    expected = {
        "GPT-4": ["gpt-4-turbo", "gpt-4-mar-2023", "gpt-4v", "gpt-4o", "gpt-4-1"],
        "Llama 3": ["llama-3-8b", "llama-33b", "llama-3-1-8b", "run-llama-3-8b", "run-llama-33b"],
        "llama": ["llama-33b", "llama-3-8b", "llama-3-1-8b", "run-llama-33b", "run-llama-3-8b"],
        "gpt 4.1": ["gpt-4-1"],
        "openai": ["openai-oracle", "openaix"],  # an en dash ends a word
        "英伟达": ["nvidia-h100", "nvidia-corp"],  # a Chinese character does not
    }
    for ranges_read_in_full in (True, False):
        if not ranges_read_in_full:
            monkeypatch.setattr("aikg.lookup.search._RANGE_SCAN", 0)
        for query, slugs in expected.items():
            hits = versions.search(query)
            assert _slugs(hits) == slugs, (query, ranges_read_in_full)
            assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


# --- several words, and links ------------------------------------------------------------------------


def test_several_words_find_what_their_names_or_their_parties_name(seeded_store):
    """Each word matches a word of a label or alias of the entity, or of one of its parties: "openai sb
    energy" found nothing (the lease is "OpenAI–SB Energy …", an en dash, and no name holds the three
    words in another order)."""
    services = services_for(seeded_store)
    index = services.index()
    lease = "deal-openai-sb-energy-ports-pike-lease"

    def found(q: str) -> list[tuple[str, str]]:
        return [(h.entity.slug, h.match) for h in search(seeded_store, index, q)]

    assert found("openai sb energy")[0] == (lease, "prefix")  # every dash separates words
    assert found("sb energy openai")[0] == (lease, "words")  # the words in another order
    assert found("lease ohio openai")[0] == (lease, "words")
    assert ("tinker", "parties") in found("thinking machines tinker")  # its developer's name
    assert found("openai zzzz") == []  # every word must match
    assert normalize("OpenAI–SB Energy") == "openai sb energy"


def _linked_store(links: dict[str, int]) -> Store:
    """Organizations named ``name`` with ``n`` statements linking others to each."""
    s = OxigraphStore(None)
    quads = []
    for name, n in links.items():
        e = ox.NamedNode(ID + name.lower().replace(" ", "-"))
        quads += [
            ox.Quad(e, ox.NamedNode(LABEL), ox.Literal(name, language="en"), GRAPH),
            ox.Quad(e, ox.NamedNode(TYPE), ox.NamedNode(AIKG + "Organization"), GRAPH),
        ]
        quads += [
            ox.Quad(ox.NamedNode(f"{e.value}-fan-{i}"), ox.NamedNode(AIKG + "customer"), e, GRAPH)
            for i in range(n)
        ]
    s.apply(add=quads)
    return s


@pytest.mark.parametrize(
    ("links", "first"),
    [
        # a hub whose name starts with the query before an obscure exact match (CoreWeave before CoRe)
        ({"Core": 2, "CoreWeave": 40, "Corewell": 3}, ["coreweave", "core", "corewell"]),
        # not a hub (fewer than 20 links, or not ten times the exact match's): the exact match first
        ({"Core": 2, "CoreWeave": 19, "Corewell": 3}, ["core", "coreweave", "corewell"]),
        ({"Core": 5, "CoreWeave": 40, "Corewell": 3}, ["core", "coreweave", "corewell"]),
        # among equal matches (prefix, organizations), the better-known first: a factor of two counts
        ({"Core": 9, "CoreWeave": 2, "Corewell": 5}, ["core", "corewell", "coreweave"]),
        # ... not a few links more (5 against 4): then the name the query covers more of first
        ({"Core": 9, "CoreWeave": 5, "Corewell": 4}, ["core", "corewell", "coreweave"]),
    ],
)
def test_links_rank_equal_matches_and_a_hub_comes_before_an_obscure_exact_match(links, first):
    store = _linked_store(links)
    index = services_for(store).index()
    assert _slugs(search(store, index, "core")) == first
