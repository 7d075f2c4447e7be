"""Search ranked as people expect, measured over names and aliases in English and Chinese.

Each query is what someone types to find one entity; that entity must come first, on the seeded store
and on the default store (seeds plus the real Epoch AI snapshot, whose hundreds of clusters, deals,
results and training runs are named after the companies, chips and models they involve). The same
ranking must come out of ``/api/search``, with a description under each hit that tells namesakes apart.
"""

from __future__ import annotations

import pytest

from aikg.lookup.search import EVENT, SearchIndex, kind_rank, link_counts, record_classes, search
from aikg.lookup.vocabulary import Vocabulary
from aikg.web import create_app
from helpers import services_for

ID = "https://w3id.org/aikg/id/"
AIKG = "https://w3id.org/aikg/ontology#"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"

BOTH: list[tuple[str, str]] = [
    # the examples: each used to open a deal, a cluster, a result or a training run
    ("coreweave", "coreweave"),
    ("NVIDIA", "nvidia"),
    ("GB300", "gb300"),
    ("deepseek v3", "deepseek-v3"),
    ("英伟达", "nvidia"),
    # case, separators and spelling variants of labels
    ("CoreWeave", "coreweave"),
    ("Nvidia", "nvidia"),
    ("DeepSeek-V3", "deepseek-v3"),
    ("gb300 nvl72", "gb300-nvl72"),
    ("soumith chintala", "soumith-chintala"),
    ("SB Energy", "sb-energy"),
    ("MLPerf Training v6.0", "mlperf-training-v6-0"),
    ("llama 3.1 405b", "llama-3-1-405b"),
    ("openai", "openai"),
    ("microsoft", "microsoft"),
    ("google", "google"),
    ("oracle", "oracle"),
    ("amazon", "amazon"),
    ("groq", "groq"),
    ("nebius", "nebius"),
    ("lambda", "lambda"),
    ("H800", "h800"),
    ("h100", "h100"),
    ("Blackwell", "blackwell"),
    ("deepseek", "deepseek"),
    ("Tinker", "tinker"),
    # English aliases
    ("V3", "deepseek-v3"),
    ("TPUv9", "tpu-v9"),
    ("Soumith", "soumith-chintala"),
    ("Llama 3.1", "llama-3-1-405b"),
    ("LPU", "groq-lpu"),
    # Chinese names and aliases
    ("微软", "microsoft"),
    ("谷歌", "google"),
    ("亚马逊", "amazon"),
    ("黑威尔", "blackwell"),
    ("黑威尔架构", "blackwell"),
    ("MLPerf训练", "mlperf-training"),
    ("MLPerf推理", "mlperf-inference"),
    ("微软合约", "deal-coreweave-microsoft-2023"),
    ("OpenAI 长约", "deal-coreweave-openai-2025"),
    ("新媒网", "nmedialink"),
    ("36氪", "36kr"),
    ("36 氪", "36kr"),
    ("Tinker 平台", "tinker"),
    ("前沿科技洞见", "frontier-tech-insights"),
    ("光模块", "optical-module"),
    ("俄亥俄州", "ohio"),
    ("8 卡 HGX", "hgx-h100"),
]
"""(what a person types, the entity they are looking for), on the seeded and on the default store."""

EPOCH_ONLY: list[tuple[str, str]] = [
    ("xai", "xai"),
    ("anthropic", "anthropic"),
    ("meta", "meta"),
    # an organization and a data center whose clusters Epoch names exactly like them
    ("SingularityNET", "singularitynet"),
    ("Google New Albany Ohio", "google-new-albany-ohio"),
    # a prefix: the organization before the clusters named after it
    ("stargate", "stargate-openai"),
    # a model family typed as a whole word: Llama 3-8B, not LLaMA-33B (a shorter name)
    ("Llama 3", "llama-3-8b"),
    # Chinese names of Epoch's organizations (seeds/epoch/names.csv), given by the import to the node it
    # resolved Epoch's name to: Facebook's is Meta's, Amazon AWS's is not Amazon's
    ("华为", "huawei"),
    ("阿里巴巴", "alibaba"),
    ("字节跳动", "bytedance"),
    ("腾讯", "tencent"),
    ("百度", "baidu"),
    ("深度求索", "deepseek"),
    ("智谱", "zhipu-ai"),
    ("月之暗面", "moonshot"),
    ("亚马逊云", "amazon-aws"),
    ("摩尔线程", "moore-threads-tencent"),
    ("脸书", "meta"),
    ("甲骨文", "oracle"),
    ("辉达", "nvidia"),
]
"""Names only the Epoch snapshot holds."""

PREFIXES = ["nvidia h", "coreweave", "anthropic", "stargate", "core", "microsoft", "openai"]
"""Queries whose many prefix matches are mostly clusters, deals and phases on the default store."""


@pytest.fixture(scope="module")
def seeded_index(seeded_store):
    return services_for(seeded_store).index()


@pytest.fixture(scope="module")
def epoch_index(epoch_store):
    return services_for(epoch_store).index()


def _first(index, q: str) -> str | None:
    hits = index.search(q, limit=10)
    return hits[0].entity.slug if hits else None


@pytest.mark.parametrize(("q", "slug"), BOTH)
def test_seeded_store_finds_the_entity_first(seeded_index, q, slug):
    assert _first(seeded_index, q) == slug


@pytest.mark.parametrize(("q", "slug"), BOTH + EPOCH_ONLY)
def test_default_store_finds_the_entity_first(epoch_index, q, slug):
    assert _first(epoch_index, q) == slug


@pytest.mark.parametrize("q", PREFIXES)
def test_things_come_before_the_events_and_records_named_after_them(epoch_index, q):
    """Within each match tier, an organization, chip or data center comes before a cluster, deal or
    result, and those before a source document or derived value."""
    index = epoch_index
    records = record_classes(index.vocab)
    hits = index.search(q, limit=30)
    for tier in ("exact", "prefix", "word", "substring"):
        kinds = [kind_rank(index.vocab, h.entity.types, records) for h in hits if h.match == tier]
        assert kinds == sorted(kinds), (q, tier)
    # the prefix matches begin with a thing, although most of them are events on this store
    prefix = [kind_rank(index.vocab, h.entity.types, records) for h in hits if h.match == "prefix"]
    assert prefix[0] < EVENT and EVENT in prefix


def test_an_exact_name_is_first_even_behind_many_longer_prefix_matches():
    """A source document named exactly what was typed outranks the many things whose names merely
    start with it, although within the prefix tier things come first."""
    vocab = Vocabulary()
    names = [(f"{ID}doc", LABEL, "Alpha", "en")]
    names += [(f"{ID}org-{i}", LABEL, f"Alpha {i}", "en") for i in range(20)]
    types = [(f"{ID}doc", AIKG + "SourceDocument")] + [
        (f"{ID}org-{i}", AIKG + "Organization") for i in range(20)
    ]
    hits = SearchIndex(names, types, vocab).search("alpha", limit=5)
    assert [(h.entity.slug, h.match) for h in hits][:2] == [("doc", "exact"), ("org-0", "prefix")]
    assert len(hits) == 5


@pytest.fixture(scope="module")
def epoch_client(epoch_store):
    return create_app({"store": "memory", "load_seeds": False}, store=epoch_store).test_client()


@pytest.mark.parametrize(("q", "slug"), BOTH + EPOCH_ONLY)
def test_api_search_ranks_the_same(epoch_client, epoch_store, epoch_index, q, slug):
    """The API ranks as the index, equal matches then by links (:func:`aikg.lookup.search.search`)."""
    body = epoch_client.get("/api/search", query_string={"q": q, "limit": 20}).get_json()
    ranked = search(epoch_store, epoch_index, q, limit=20)
    assert [r["id"] for r in body["results"]] == [h.entity.slug for h in ranked]
    assert body["results"][0]["id"] == slug


def test_core_opens_coreweave_not_the_obscure_model_named_core(epoch_client, epoch_store):
    """ "core" is exactly the name of CoRe, a 2023 model with 2 links, and the start of CoreWeave's, with
    40: the hub comes first and the exact match second (rule: :data:`aikg.lookup.search.HUB_RATIO`)."""
    results = epoch_client.get("/api/search", query_string={"q": "core"}).get_json()["results"]
    assert [(r["id"], r["match"]) for r in results[:2]] == [("coreweave", "prefix"), ("core", "exact")]
    links = link_counts(epoch_store, [ID + "coreweave", ID + "core"])
    assert links[ID + "coreweave"] >= 10 * links[ID + "core"]


@pytest.mark.parametrize("q", PREFIXES)
def test_equal_matches_rank_the_better_known_entity_first(epoch_store, epoch_index, q):
    """Within each tier and kind, and word end, links never rise by a factor of two down the list."""
    hits = search(epoch_store, epoch_index, q, limit=30)
    links = link_counts(epoch_store, [h.entity.iri for h in hits])
    groups: dict[tuple[str, int, bool], list[int]] = {}
    for h in hits[1:]:  # the first may be a hub before an exact match
        groups.setdefault((h.match, h.kind, h.whole), []).append(
            (links.get(h.entity.iri, 0) + 1).bit_length()
        )
    assert all(g == sorted(g, reverse=True) for g in groups.values()), groups


@pytest.mark.parametrize(
    ("q", "slug", "description"),
    [
        ("GB300", "gb300", "GPU · NVIDIA · 2025"),  # Epoch ml_hardware: released 2025-08-22
        ("gb300 nvl72", "gb300-nvl72", "rack-scale system · NVIDIA · 2025"),
        ("deepseek v3", "deepseek-v3", "AI model · DeepSeek · 2024"),
        ("微软合约", "deal-coreweave-microsoft-2023", "compute contract · CoreWeave, Microsoft · 2023"),
        ("SingularityNET", "cluster-singularitynet", "deployment · SingularityNET"),
    ],
)
def test_hits_say_what_they_are_who_made_them_and_when(epoch_client, q, slug, description):
    """Namesakes told apart by kind, maker or party, and year."""
    results = epoch_client.get("/api/search", query_string={"q": q}).get_json()["results"]
    hit = next(r for r in results if r["id"] == slug)
    assert hit["description"] == description
    assert hit["kind"] == description.split(" · ")[0]
    assert [m["label"] for m in hit["makers"]] == description.split(" · ")[1].split(", ")


WRITTEN_APART: list[tuple[str, str]] = [
    # a separator typed where the name has none: "gb 200" opened GB300 (the words "gb" and "200" each in
    # one of its names), "H-100" a fan model, "Trainium 2", "mi 300x" and "x ai" nothing or a list of
    # models whose names hold an x and an ai; each must open what the name typed together opens
    ("gb 200", "gb200"),
    ("GB-300", "gb300"),
    ("H-100", "h100"),
    ("h 800", "h800"),
    ("Trainium 2", "trainium2"),
    ("mi 300x", "mi300x"),
    ("x ai", "xai"),
    ("open ai", "openai"),
    # a company's legal name: the graph's names leave the legal form out
    ("Anthropic PBC", "anthropic"),
    ("OpenAI, Inc.", "openai"),
    ("Microsoft Corporation", "microsoft"),
    ("Nvidia Corp", "nvidia"),
    ("Alibaba Group", "alibaba"),
    ("阿里巴巴集团", "阿里巴巴"),
    ("华为公司", "华为"),
    # traditional characters, as Taipei and Hong Kong write the names: the graph's are simplified
    ("英偉達", "英伟达"),
    ("輝達", "辉达"),
    ("華為", "华为"),
    ("華為公司", "华为"),
    ("阿里巴巴集團", "阿里巴巴"),
]


@pytest.mark.parametrize(("typed", "name"), WRITTEN_APART)
def test_a_name_written_apart_or_with_its_legal_form_opens_what_the_name_opens(epoch_client, typed, name):
    """What the search box opens on Enter (the first hit) for a name typed with a space or a dash
    where the name has none, or with the company's legal form after it: the entity the name opens."""

    def first(q: str) -> str | None:
        results = epoch_client.get("/api/search", query_string={"q": q}).get_json()["results"]
        return results[0]["id"] if results else None

    expected = first(name)
    assert expected is not None and first(typed) == expected


def test_a_legal_form_alone_or_a_real_name_ending_in_one_is_not_stripped(epoch_client):
    """Only a query that names nothing is tried without its legal form: "inc" alone stays "inc", and a
    name that holds the word matches as it is."""
    from aikg.lookup.search import without_legal_form

    assert without_legal_form("Inc.") is None and without_legal_form("nvidia") is None
    assert without_legal_form("OpenAI, Inc.") == "openai"
    results = epoch_client.get("/api/search", query_string={"q": "SoftBank Group"}).get_json()["results"]
    assert results and "softbank" in results[0]["id"]
