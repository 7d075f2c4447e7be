"""Maintained answers (issue 49): a named query declared ``# maintained:`` is answered from rows kept in
``graph/answers``, kept with each gated write in the same transaction; they must always equal the
query's own text run over the data. Random gated writes (seeded) that add and delete the queries' inputs
check it by value, and the same writes with the upkeep switched off must tell the difference."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pyoxigraph as ox
import pytest

from aikg.epoch import import_epoch
from aikg.epoch.importer import default_overrides
from aikg.errors import Forbidden, ValidationFailed
from aikg.knowledge import answers, bands
from aikg.knowledge.derive import GENERATED_GRAPHS
from aikg.namespaces import ANSWERS_GRAPH
from aikg.query import maintained
from aikg.query.named import NamedQuery, load_queries
from aikg.store import Store
from aikg.store.oxigraph import OxigraphStore
from aikg.write import gate
from helpers import services_for
from test_epoch_import import FILES, SNAPSHOT, write_fixture

AIKG = "https://w3id.org/aikg/ontology#"
ID = "https://w3id.org/aikg/id/"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
TEST_GRAPH = "https://w3id.org/aikg/graph/sources/test-answers"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
XSD = "http://www.w3.org/2001/XMLSchema#"
PREFIXES = f"PREFIX aikg: <{AIKG}> PREFIX id: <{ID}> PREFIX rdfs: <{RDFS}> "
DCTERMS = "http://purl.org/dc/terms/"
CERTAINTY = ox.NamedNode(AIKG + "defaultCertainty")


def _header(name: str) -> str:
    return FILES[name].split("\n", 1)[0] + "\n"


MODELS, CLUSTERS = "ai_models/notable_ai_models.csv", "gpu_clusters/gpu_clusters.csv"
IMPORTS = {
    # test_epoch_import's small snapshot, imported whole: new graphs with their documents, new chips made
    # variants of the seeds' families (the Llama run on an H100 SXM5), a seeded run's other sources
    "import": (FILES, SNAPSHOT, False),
    # a newer snapshot of two files, partial: a run moved to another chip, a count and a cluster's figure
    "newer": (
        {
            MODELS: _header(MODELS)
            + "DeepSeek-V3,DeepSeek,2024-12-24,671000000000.0,671B total parameters,3.4078e+24,Confident,"
            "https://arxiv.org/abs/2412.19437,NVIDIA H800 SXM5,4096.0,1368,6100000.0,\n"
            "Llama Test,Meta AI,April 2026,284B,,about 1e24,Speculative,,NVIDIA H100 PCIe,8192,,,\n",
            CLUSTERS: _header(CLUSTERS)
            + "Oracle Test Cluster,Existing,Confirmed,3000,NVIDIA H800 SXM5,3072,Oracle,,2024-06-01,,30.0,"
            "NVIDIA,3072,https://example.org/oracle\n",
        },
        None,
        False,
    ),
    # a file replacing its dataset without some rows: their runs and clusters taken out
    "withdraw": (
        {
            MODELS: _header(MODELS) + "DeepSeek-V3,DeepSeek,2024-12-24,671000000000.0,,3.4078e+24,Confident,"
            "https://arxiv.org/abs/2412.19437,NVIDIA H800 SXM5,2048.0,1368,5390000.0,\n",
            CLUSTERS: _header(CLUSTERS)
            + "Lambda Labs Cluster,Existing,Confirmed,,NVIDIA H100 PCIe,512,Lambda Labs,,,,,NVIDIA,512,\n",
        },
        None,
        True,
    ),
}
"""The Epoch imports the random writes run among them (once each, the first before the others): files,
snapshot date (None: the next one after the last import) and whether the files replace their datasets."""


def declared() -> list[NamedQuery]:
    return answers.declared()


def rows(store: Store, text: str) -> set[tuple[object, ...]]:
    return set(store.query(text).rows)


def kept_answer(store: Store, q: NamedQuery):
    return maintained.as_result(q, maintained.kept_lines(store, q), truncated=False)


def assert_kept_equal_recomputed(store: Store, *, page: int = 0) -> None:
    """Each kept answer has the rows of its text; with ``page``, each page of every partition (the rows
    a request's parameters select) is that page of the text's rows in the kept order: the query's ORDER
    BY, ties by the line's text (so no row is on two pages or none), and the keys in the order the
    text's own answer gives them."""
    for q in declared():
        assert maintained.is_kept(store, q), q.name
        kept = kept_answer(store, q)
        again = store.query(q.text)
        assert kept.variables == again.variables
        assert set(kept.rows) == set(again.rows), q.name
        if page:
            assert_pages_equal_recomputed(store, q, again, page)


def partitions(q: NamedQuery, result) -> dict[tuple, list]:
    """The text's rows by the values of the query's parameter columns (None: rows no request selects)."""
    at = [result.variables.index(v) for v in maintained.parameters(q)]
    out: dict[tuple, list] = {}
    for row in result.rows:
        values = tuple(row[i] for i in at)
        if None not in values:
            out.setdefault(values, []).append(row)
    return out


def sort_keys(q: NamedQuery, lines: list[str]) -> list[tuple]:
    """Each line's ORDER BY keys as the kept order compares them (a COALESCE: its first bound cell)."""
    variables = list(maintained.projection(q.text))
    cells = [ln.split("\t") for ln in lines]
    keyed = []
    for names, _ in maintained.order_keys(q.text):
        at = [variables.index(n) for n in names]
        keyed.append([next((c[i] for i in at if c[i]), "") for c in cells])
    by_cell = maintained._cell_keys({cell for column in keyed for cell in column})
    return [tuple(by_cell[column[k]] for column in keyed) for k in range(len(lines))]


def assert_pages_equal_recomputed(store: Store, q: NamedQuery, again, page: int) -> None:
    def run(text, bindings):
        return store.query(text, bindings=bindings)

    names = maintained.parameters(q)
    for values, rows in partitions(q, again).items():
        texts = [maintained.line(r) for r in rows]  # in the text's own order (its ORDER BY)
        recomputed = maintained.ordered(q, texts)
        assert sort_keys(q, recomputed) == sort_keys(q, texts), q.name  # the ORDER BY's own order
        kept = {n: maintained.kept_value(v) for n, v in zip(names, values, strict=True)}
        for offset in range(0, len(recomputed) + page, page):
            lines, total = maintained.read_page(run, q, kept, offset, page)
            assert total == len(recomputed), (q.name, values)
            assert lines == recomputed[offset : offset + page], (q.name, values, offset)


def test_the_declared_queries_are_maintainable_and_speedup_claims_is_one():
    kept = {
        "speedup-claims",
        "accelerators-by-vendor",
        "capacity-pipeline",
        "model-accelerator-results",
        "largest-training-runs",
        "investments-by-investor",
        "topology-hop-counts",
        "largest-clusters-over-time",
        "largest-clusters-by-owner",
        "prices-without-currency",
        "derived-values",
        "deals-of-organization",
    }
    assert kept <= {q.name for q in declared()}
    for q in declared():
        assert q.maintained is not None
        maintained.shape(q.text, q.maintained.root)  # raises when the query cannot be kept by root


def test_deals_of_organization_names_every_role_of_the_ontology(store):
    """A kept query names every predicate it reads, so deals-of-organization names each role (each
    sub-property of aikg:party) instead of a variable predicate: a role the ontology adds must be named
    there too, or the deals in it would lose their roles."""
    text = load_queries()["deals-of-organization"].text
    party = f"<{AIKG}party>"
    sub = f"<{RDFS}subPropertyOf>"
    found = store.query(f"SELECT DISTINCT ?r WHERE {{ ?r {sub} {party} FILTER (?r != {party}) }}")
    roles = {r[0].value for r in found.rows}
    named = {AIKG + m for m in re.findall(r"aikg:(\w+) \?(?:org|counterparty) BIND", text)}
    assert len(roles) >= 6 and named == roles
    assert re.findall(r"aikg:(\w+) \?org BIND", text) == re.findall(r"aikg:(\w+) \?counterparty BIND", text)


def test_a_seeded_store_keeps_every_declared_answer(store):
    assert_kept_equal_recomputed(store)
    q = load_queries()["speedup-claims"]
    assert len(rows(store, q.text)) > 0


def test_the_named_query_is_served_from_the_kept_rows(store, monkeypatch):
    services = services_for(store)
    texts: list[str] = []
    real = services.runner.read_kept
    monkeypatch.setattr(
        services.runner, "read_kept", lambda text, **kw: (texts.append(text), real(text, **kw))[1]
    )
    result = services.named.run("speedup-claims", {})
    assert str(ANSWERS_GRAPH) in texts[-1]
    again = store.query(load_queries()["speedup-claims"].text)
    assert result.variables == again.variables
    assert set(result.rows) == set(again.rows)
    keys = [result.variables.index("speedup"), result.variables.index("claimLabel")]
    assert [[r[k] for k in keys] for r in result.rows] == [
        [r[k] for k in keys] for r in again.rows
    ]  # ordered
    page = services.named.run("speedup-claims", {}, limit=2, offset=1)
    assert page.rows == result.rows[1:3] and page.truncated


def test_a_kept_answer_is_read_without_a_query_worker(tmp_path, _seed_quads, monkeypatch):
    """On a store with snapshots a client's query runs in a worker process, which can be killed at its
    deadline; a kept answer is aikg's own index read, bounded by the answer's size: it is read in the
    asking process, a page and the whole answer alike, and a query that is not kept still goes to a
    worker."""
    disk = OxigraphStore(tmp_path / "store")
    disk.apply(add=_seed_quads)
    services = services_for(disk)
    assert disk.snapshot() is not None  # a client's query would go to a worker here

    def no_worker(*_args, **_kwargs):
        raise AssertionError("sent to a query worker")

    monkeypatch.setattr(services.runner.pool, "run", no_worker)
    whole = disk.query(load_queries()["speedup-claims"].text)
    kept = services.named.run("speedup-claims", {})
    assert set(kept.rows) == set(whole.rows) and kept.total == len(whole.rows)
    page = services.named.run("speedup-claims", {}, limit=2, offset=1)
    assert page.rows == kept.rows[1:3] and page.truncated
    # a query that is not kept, bound to an organization (whichever one the folder does not keep)
    queries = load_queries()
    not_kept = next(
        q for q in queries.values() if q.maintained is None and [p.name for p in q.parameters] == ["org"]
    )
    with pytest.raises(AssertionError, match="sent to a query worker"):
        services.named.run(not_kept.name, {"org": "nvidia"})
    services.close()
    disk.close()


def test_a_store_without_kept_rows_answers_with_the_query_text(store, monkeypatch):
    store.apply(drop=[str(ANSWERS_GRAPH)])
    services = services_for(store)
    texts: list[str] = []
    real = services.runner.query
    monkeypatch.setattr(
        services.runner, "query", lambda text, **kw: (texts.append(text), real(text, **kw))[1]
    )
    services.named.run("speedup-claims", {})
    assert str(ANSWERS_GRAPH) not in texts[-1]


class Writer:
    """Random gated writes touching the maintained queries' inputs (claims, their platforms' labels, the
    quotations stating them; hardware and its makers; capacity phases and what they add to; the written
    graph's document), each through the gate: SPARQL INSERT DATA / DELETE DATA; and among them Epoch
    imports (:data:`IMPORTS`, files written under ``directory``), committed by the same gate."""

    def __init__(self, store: Store, seed: int, directory: Path) -> None:
        self.store, self.rng, self.directory = store, random.Random(seed), directory
        self.snapshots = iter(["2026-04-20", "2026-04-21"])
        self.services = services_for(store)
        self.count = 0
        claims = [r[0] for r in store.query(f"SELECT DISTINCT ?c WHERE {{ ?c a <{AIKG}SpeedupClaim> }}").rows]
        self.claims = [c for c in claims if isinstance(c, ox.NamedNode)]
        self.pools = {
            role: sorted(
                {q.object for q in store.quads(None, ox.NamedNode(AIKG + role)) if q.subject in self.claims},
                key=str,
            )
            for role in ("subjectPlatform", "baseline", "workload")
        }
        for role in (
            "manufacturer",
            "phaseOf",
            "accelerator",
        ):  # the makers of hardware, what capacity phases add to
            self.pools[role] = sorted(
                {q.object for q in store.quads(None, ox.NamedNode(AIKG + role))}, key=str
            )
        self.nodes = sorted({n for pool in self.pools.values() for n in pool}, key=str)
        trained = store.query(load_queries()["models-trained-on"].text)
        at = trained.variables.index("chip")
        self.run_chips = sorted(
            {row[at] for row in trained.rows if isinstance(row[at], ox.NamedNode)}, key=str
        )
        """Chips of listed training runs: one made a variant of a chip this test writes (two steps from
        the run) changes the runs' rows (found by 49j: largest-training-runs' kept rows fell behind)."""
        self.made: list[ox.NamedNode] = []
        """Hardware and capacity phases this test wrote (roots of the other maintained queries)."""
        self.doc = ox.NamedNode(ID + "nmedialink-llama31-training")
        # The written graph's document, as every graph of facts has one: its default certainty is what the
        # clusters and runs written here are rated by (without it, largest-clusters-by-owner's text joins
        # an unbound ?confidence with every labelled node of the store, a row each).
        self.source = ox.NamedNode(ID + "test-answers-source")
        self.update(
            f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {self.source} aikg:namedGraph <{TEST_GRAPH}> ; "
            "aikg:defaultCertainty aikg:Reported } }"
        )

    def order(self, adds: list[str], changes: list[str]) -> list[str]:
        if not hasattr(self, "_order"):
            self._order = self.rng.sample(adds, len(adds)) + self.rng.sample(changes, len(changes))
        return self._order

    FIRSTS = (
        ["claim", "vendor", "hardware", "phase", "run", "model", "deal", "cluster", "price", "config"]
        + ["family", "import"],
        ["untype", "speedup", "count", "document", "newer", "withdraw"],
    )
    """Each kind of addition once first, then of change and deletion, each in a random order, so every
    kept answer is written to and some of what was written is taken back."""

    def update(self, text: str) -> None:
        self.services.gate.update(PREFIXES + text)

    def _named(self, subject: ox.NamedNode) -> bool:
        """Whether a statement of the data names ``subject`` (untyped, it would break that one's shape)."""
        return any(q.graph_name.value not in GENERATED_GRAPHS for q in self.store.quads(None, None, subject))

    def step(self) -> str:
        """One random write; "refused" when the gate refused it (the shapes), which changes nothing."""
        try:
            return self._step()
        except (ValidationFailed, Forbidden):
            return "refused"

    def _step(self) -> str:
        self.count += 1
        n, rng = self.count, self.rng
        kinds = [
            "claim",
            "claim",
            "vendor",
            "hardware",
            "hardware",
            "phase",
            "phase",
            "run",
            "run",
            "count",
            "model",
            "label",
            "label",
            "quote",
            "speedup",
            "untype",
            "drop-label",  # (refused: every entity keeps its English label; a refusal changes nothing)
            "drop-quote",
            "deal",
            "cluster",
            "price",
            "config",
            "family",
        ]
        firsts = self.order(*self.FIRSTS)
        kind = firsts[n - 1] if n <= len(firsts) else rng.choice(kinds)
        if kind in IMPORTS:  # an Epoch import (once each: test_epoch_import's snapshot first)
            files, snapshot, replace = IMPORTS[kind]
            report = import_epoch(
                self.services,
                write_fixture(self.directory / kind, files),
                overrides=default_overrides(),
                snapshot_date=snapshot or next(self.snapshots),
                replace=replace,
            )
            assert report.written, (kind, report.refused)
            return kind
        if kind == "document":  # the written graph's document retitled and its default certainty changed
            title = ox.NamedNode(DCTERMS + "title")
            old = [
                q
                for q in self.store.quads(self.source, None, None, TEST_GRAPH)
                if q.predicate in (title, CERTAINTY)
            ]
            block = " ".join(f"{q.subject} {q.predicate} {q.object} ." for q in old)
            certainty = rng.choice(["aikg:Reported", "aikg:Relayed", "aikg:Rumoured", "aikg:Estimated"])
            self.update(
                f"DELETE DATA {{ GRAPH <{TEST_GRAPH}> {{ {block} }} }} ; "
                f'INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {self.source} <{title.value}> "document {n}"@en ; '
                f"aikg:defaultCertainty {certainty} }} }}"
            )
            return kind
        if kind == "claim" or not self.claims:
            claim = ox.NamedNode(f"{ID}test-claim-{n}")
            platform, workload = rng.choice(self.pools["subjectPlatform"]), rng.choice(self.pools["workload"])
            baseline = rng.choice([b for b in self.pools["baseline"] if b != platform])  # (the shapes)
            self.update(
                f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {claim} a aikg:SpeedupClaim ; "
                f'rdfs:label "test claim {n}"@en ; aikg:subjectPlatform {platform} ; '
                f"aikg:baseline {baseline} ; aikg:workload {workload} ; "
                f'aikg:speedup {rng.randint(2, 40) / 2} ; aikg:metric "m{n % 3}" }} }}'
            )
            self.claims.append(claim)
            return kind
        if kind == "family":  # a new chip that a listed run's chip is made a variant of
            family = ox.NamedNode(f"{ID}test-family-{n}")
            self.update(
                f'INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {family} a aikg:GPU ; rdfs:label "family {n}"@en ; '
                f"aikg:manufacturer {rng.choice(self.pools['manufacturer'])} ; "
                f"aikg:memoryPerChip {rng.randint(16, 288)} . "
                f"{rng.choice(self.run_chips)} aikg:variantOf {family} }} }}"
            )
            return kind
        if kind == "vendor":  # a new organization: hardware may name it as maker, a phase may add to it
            org = ox.NamedNode(f"{ID}test-org-{n}")
            label = f'rdfs:label "org {n}"@en'
            self.update(f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {org} a aikg:Organization ; {label} }} }}")
            self.pools["manufacturer"].append(org)
            self.pools["phaseOf"].append(org)
            self.nodes.append(org)
            return kind
        if kind == "hardware":
            chip = ox.NamedNode(f"{ID}test-chip-{n}")
            kind_of = rng.choice(["aikg:GPU", "aikg:Accelerator", "aikg:TPU"])
            self.update(
                f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {chip} a {kind_of} ; "
                f'rdfs:label "chip {n}"@en ; aikg:manufacturer {rng.choice(self.pools["manufacturer"])} ; '
                f"aikg:memoryPerChip {rng.randint(16, 288)} }} }}"
            )
            self.made.append(chip)
            self.pools["accelerator"].append(chip)
            return kind
        if kind == "run":  # a training run: its GPU-hours are derived by a rule, read by an answer
            run = ox.NamedNode(f"{ID}test-run-{n}")
            self.update(
                f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {run} a aikg:TrainingRun ; "
                f'rdfs:label "run {n}"@en ; aikg:trainedModel {rng.choice(self.pools["workload"])} ; '
                f"aikg:accelerator {rng.choice(self.pools['accelerator'])} ; "
                f"aikg:acceleratorCount {rng.randint(8, 4096)} ; aikg:durationDays {rng.randint(1, 90)} }} }}"
            )
            self.made.append(run)
            return kind
        if kind == "count":  # a run's accelerator count changed: its derived GPU-hours follow
            old = [
                q for q in self.store.quads(None, ox.NamedNode(AIKG + "acceleratorCount"), None, TEST_GRAPH)
            ]
            if not old:
                return "nothing"
            q = rng.choice(sorted(old, key=str))
            count = rng.randint(8, 999)
            self.update(
                f"DELETE DATA {{ GRAPH {q.graph_name} {{ {q.subject} {q.predicate} {q.object} }} }} ; "
                f"INSERT DATA {{ GRAPH {q.graph_name} {{ {q.subject} {q.predicate} {count} }} }}"
            )
            return kind
        if kind == "phase":
            phase = ox.NamedNode(f"{ID}test-phase-{n}")
            self.update(
                f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {phase} a aikg:CapacityPhase ; "
                f'rdfs:label "phase {n}"@en ; aikg:phaseOf {rng.choice(self.pools["phaseOf"])} ; '
                f'aikg:date "{rng.randint(2024, 2030)}-0{rng.randint(1, 9)}-01"^^<{XSD}date> ; '
                f"aikg:powerCapacity {rng.randint(10, 900)} }} }}"
            )
            self.made.append(phase)
            return kind
        if kind == "deal":  # an investment (a funding round: an aikg:Investment by the ontology)
            deal = ox.NamedNode(f"{ID}test-deal-{n}")
            investor, investee = rng.sample(self.pools["manufacturer"], 2)
            self.update(
                f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {deal} a aikg:FundingRound ; "
                f'rdfs:label "deal {n}"@en ; aikg:investor {investor} ; aikg:investee {investee} ; '
                f"aikg:amount {rng.randint(1, 900) * 1000000} ; "
                f'aikg:currency "USD" ; '
                f'aikg:date "{rng.randint(2020, 2026)}-0{rng.randint(1, 9)}-01"^^<{XSD}date> }} }}'
            )
            self.made.append(deal)
            return kind
        if kind == "cluster":  # a GPU cluster of an operator: its largest clusters, its totals
            cluster = ox.NamedNode(f"{ID}test-cluster-{n}")
            self.update(
                f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {cluster} a aikg:Deployment ; "
                f'rdfs:label "cluster {n}"@en ; aikg:operator {rng.choice(self.pools["manufacturer"])} ; '
                f"aikg:accelerator {rng.choice(self.pools['accelerator'])} ; "
                f"aikg:h100Equivalents {rng.randint(100, 90000)}.0 ; aikg:operationalStatus "
                f'"{rng.choice(["existing", "planned"])}" ; '
                f'aikg:date "{rng.randint(2020, 2028)}-0{rng.randint(1, 9)}-01"^^<{XSD}date> }} }}'
            )
            self.made.append(cluster)
            return kind
        if kind == "price":  # a price given without its currency, on a price list
            price = ox.NamedNode(f"{ID}test-price-{n}")
            self.update(
                f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {price} a aikg:Price ; "
                f'rdfs:label "price {n}"@en ; aikg:price {rng.randint(1, 90)} ; aikg:currencyStated false ; '
                f"aikg:priceComponent aikg:OutputPrice . id:price-list-tinker aikg:hasPrice {price} }} }}"
            )
            self.made.append(price)
            return kind
        if kind == "config":  # a topology configuration
            config = ox.NamedNode(f"{ID}test-config-{n}")
            self.update(
                f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {config} a aikg:TopologyConfiguration ; "
                f'rdfs:label "config {n}"@en ; aikg:topology id:torus-6d ; '
                f"aikg:chipCount {rng.choice([256, 1024, 4096])} ; "
                f"aikg:worstCaseHops {rng.randint(2, 40)} }} }}"
            )
            self.made.append(config)
            return kind
        if kind == "model":  # a new model, which later claims may name as their workload
            model = ox.NamedNode(f"{ID}test-model-{n}")
            label = f'rdfs:label "model {n}"@en'
            self.update(f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ {model} a aikg:AIModel ; {label} }} }}")
            self.pools["workload"].append(model)
            self.nodes.append(model)
            return kind
        if kind == "label":  # a linked node renamed: every claim naming it (labels this test may change)
            named = [
                q
                for q in self.store.quads(None, ox.NamedNode(RDFS + "label"), None, TEST_GRAPH)
                if q.subject in self.nodes
            ]
            if not named:
                return "nothing"
            q = rng.choice(sorted(named, key=str))
            self.update(
                f"DELETE DATA {{ GRAPH {q.graph_name} {{ {q.subject} {q.predicate} {q.object} }} }} ; "
                f'INSERT DATA {{ GRAPH {q.graph_name} {{ {q.subject} {q.predicate} "renamed {n}"@en }} }}'
            )
            return kind
        if kind == "quote":
            claim = rng.choice(self.claims)
            self.update(
                f"INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ id:test-quote-{n} a aikg:Quotation ; "
                f"aikg:quotedFrom {self.doc} ; aikg:evidenceFor {claim} ; "
                f"aikg:supportsProperty aikg:speedup ; "
                f'aikg:quotedText "{chr(0x61 + n % 26)} quote {n}" }} }}'
            )
            return kind
        if kind == "speedup":  # a claim's factor changed: its old value deleted, the new one inserted
            old = sorted(self.store.quads(None, ox.NamedNode(AIKG + "speedup"), None, TEST_GRAPH), key=str)
            if not old:
                return "nothing"
            q = rng.choice(old)
            self.update(
                f"DELETE DATA {{ GRAPH {q.graph_name} {{ {q.subject} {q.predicate} {q.object} }} }} ; "
                f"INSERT DATA {{ GRAPH {q.graph_name} {{ {q.subject} {q.predicate} {rng.randint(2, 40)} }} }}"
            )
            return kind
        # The deletions of what this test wrote: a claim's type, a label, a whole quotation.
        predicate = {"untype": RDF_TYPE, "drop-label": RDFS + "label", "drop-quote": AIKG + "quotedText"}[
            kind
        ]
        found = [
            q
            for q in self.store.quads(None, ox.NamedNode(predicate), None, TEST_GRAPH)
            if kind != "untype"
            or (q.subject in self.claims or q.subject in self.made)
            and not self._named(q.subject)
        ]
        if not found:
            return "nothing"
        q = rng.choice(sorted(found, key=str))
        gone = [q] if kind != "drop-quote" else list(self.store.quads(q.subject, None, None, TEST_GRAPH))
        block = " ".join(f"{g.subject} {g.predicate} {g.object} ." for g in gone)
        self.update(f"DELETE DATA {{ GRAPH <{TEST_GRAPH}> {{ {block} }} }}")
        return kind


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_after_random_gated_writes_each_kept_answer_equals_a_recomputation(
    store, monkeypatch, tmp_path, seed
):
    """Kept in bands of 3 lines split past 6 (a page of 4 reads two or three of them): each write puts
    lines in bands, takes them out, splits and empties bands; every page stays the recomputation's."""
    monkeypatch.setattr(bands, "BAND_LINES", 3)
    monkeypatch.setattr(bands, "SPLIT_LINES", 6)
    answers.rebuild(store)
    monkeypatch.setattr(gate, "rebuild_derived", lambda _store: pytest.fail("a full rebuild ran"))
    writer = Writer(store, seed, tmp_path)
    last = {q.name: rows(store, q.text) for q in declared()}
    kinds, changed = set(), set()
    ranks = {q.name: band_ranks(store, q) for q in declared()}
    split = set()
    for _ in range(28):
        kinds.add(writer.step())
        assert_kept_equal_recomputed(store, page=4)
        now_ranks = {q.name: band_ranks(store, q) for q in declared()}
        split |= {name for name in now_ranks if now_ranks[name] - ranks[name]}
        ranks = now_ranks
        now = {q.name: rows(store, q.text) for q in declared()}
        changed |= {name for name in now if now[name] != last[name]}
        last = now
    assert {
        "claim",
        "run",
        "speedup",
        "untype",
        "count",
        "document",
        *IMPORTS,
    } <= kinds  # adds, changes, deletes
    assert [q.name for q in declared() if q.name not in changed] == []  # each one was changed by a write
    assert len(split) >= 2, split  # bands split off by writes


def band_ranks(store: Store, q: NamedQuery) -> set[str]:
    """The ranks of a query's bands (a band split off has a rank of its own)."""
    found = store.quads(None, maintained.rank_predicate(q.name), None, str(ANSWERS_GRAPH))
    return {t.object.value for t in found}


def test_a_page_reads_the_bands_it_falls_in(store, monkeypatch):
    """A page of a kept answer reads every band's rank and count, then the lines of its own bands only:
    a page of 4 lines from the 5th of speedup-claims kept in bands of 3 reads the second and third."""
    monkeypatch.setattr(bands, "BAND_LINES", 3)
    answers.rebuild(store)
    q = load_queries()["speedup-claims"]
    whole = maintained.ordered(q, [maintained.line(r) for r in store.query(q.text).rows])
    assert len(whole) >= 6
    texts: list[str] = []

    def run(text, bindings):
        texts.append(text)
        return store.query(text, bindings=bindings)

    lines, total = maintained.read_page(run, q, {}, 4, 2)
    assert (lines, total) == (whole[4:6], len(whole))
    read = store.query(texts[-1])
    assert len(read.rows) == 1 and read.rows[0][1].value.split("\n") == whole[3:6]  # the second band only
    services = services_for(store)
    page = services.named.run("speedup-claims", {}, limit=2, offset=4)
    assert [maintained.line(r) for r in page.rows] == whole[4:6] and page.total == len(whole)


def test_ranks_fall_between_their_neighbours_and_never_run_out():
    rng = random.Random(7)
    ranks = bands.first_ranks(5)
    assert ranks == sorted(ranks) and len(set(ranks)) == 5
    for _ in range(400):  # splits anywhere, and 200 times in a row at one place
        at = rng.randrange(len(ranks) + 1) if _ % 2 else 1
        low, high = ranks[at - 1] if at else "", ranks[at] if at < len(ranks) else None
        new = bands.rank_between(low, high)
        assert low < new and (high is None or new < high) and not new.endswith("0")
        ranks.insert(at, new)
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)


def test_with_the_upkeep_switched_off_the_same_writes_leave_the_kept_answer_behind(
    store, monkeypatch, tmp_path
):
    monkeypatch.setattr(answers, "plan", lambda _store, _removed, _added: (set(), set()))
    writer = Writer(store, 1, tmp_path)
    while writer.step() != "claim":  # up to the first new claim
        pass
    q = load_queries()["speedup-claims"]
    assert set(kept_answer(store, q).rows) != rows(store, q.text)
    behind = set()
    while writer.count < sum(map(len, Writer.FIRSTS)):  # the first write of each kind (Writer.order)
        writer.step()
        behind |= {q.name for q in declared() if set(kept_answer(store, q).rows) != rows(store, q.text)}
    assert [q.name for q in declared() if q.name not in behind] == []  # every kept answer left behind


def test_a_change_to_a_class_a_query_reads_falls_back_to_the_full_rebuild(store, monkeypatch):
    rebuilt: list[bool] = []
    real = gate.rebuild_derived
    monkeypatch.setattr(gate, "rebuild_derived", lambda s: (rebuilt.append(True), real(s))[1])
    services_for(store).gate.update(
        PREFIXES + f'INSERT DATA {{ GRAPH <{TEST_GRAPH}> {{ aikg:SpeedupClaim rdfs:label "a claim"@en }} }}'
    )
    assert rebuilt == [True]
    assert_kept_equal_recomputed(store)


def test_a_kept_cell_is_ordered_as_the_term_it_writes():
    """The sort key read from a cell's text (maintained._cell_keys) is the key of the term the TSV parser
    makes of it: IRIs, numbers, strings with a language or a datatype, escapes, blanks."""
    cells = {
        "<https://w3id.org/aikg/id/h100>",
        '"2.5"^^<http://www.w3.org/2001/XMLSchema#decimal>',
        '"10"^^<http://www.w3.org/2001/XMLSchema#integer>',
        '"1e3"^^<http://www.w3.org/2001/XMLSchema#double>',
        '"H100 \\"SXM\\""@en',
        '"tab\\there"',
        '"plain"',
        '"英伟达"@zh',
        '"2024-05"^^<http://www.w3.org/2001/XMLSchema#gYearMonth>',
        "_:b0",
        "",
    }
    parsed = maintained._terms(cells)
    assert maintained._cell_keys(cells) == {c: maintained._key(t) for c, t in parsed.items()}
    ordered = sorted(cells, key=maintained._cell_keys(cells).__getitem__)
    assert ordered[:3] == ["", "_:b0", "<https://w3id.org/aikg/id/h100>"]
    numbers = [c for c in ordered if "XMLSchema#d" in c or "integer" in c]
    assert numbers == [
        '"2.5"^^<http://www.w3.org/2001/XMLSchema#decimal>',
        '"10"^^<http://www.w3.org/2001/XMLSchema#integer>',
        '"1e3"^^<http://www.w3.org/2001/XMLSchema#double>',
    ]


def test_a_kept_answer_longer_than_the_row_cap_is_sorted_whole_then_cut(store):
    """The kept lines are read a row each, past the row cap, and cut once sorted: the first page is the
    text's first rows and says more follow (read under the cap, a page of 3 of the 6 claims was 3 lines
    sorted among themselves, and not truncated)."""
    services = services_for(store, max_rows=3)
    whole = store.query(load_queries()["speedup-claims"].text)
    assert len(whole.rows) > 3
    keys = [whole.variables.index("speedup"), whole.variables.index("claimLabel")]

    def ordered(rows):
        return [[r[k] for k in keys] for r in rows]

    first = services.named.run("speedup-claims", {})
    assert first.truncated and len(first.rows) == 3
    assert set(first.rows) <= set(whole.rows)
    assert ordered(first.rows) == ordered(whole.rows[:3])
    second = services.named.run("speedup-claims", {}, limit=3, offset=3)
    assert ordered(second.rows) == ordered(whole.rows[3:6])
