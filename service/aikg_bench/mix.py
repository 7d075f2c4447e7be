"""The fixed request mix: each operation as aikg's HTTP request and as the SPARQL a peer would run.

Operations with a parameter carry many variants (different entities, search terms) drawn with a fixed
seed, so a run measures the engine and the indexes, not only aikg's response cache; the variant lists
are the same for every peer.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from aikg.lookup.search import normalize
from aikg.namespaces import ID, PREFIXES
from aikg.query.named import Parameter, bind_parameters, load_queries, paged
from aikg.rdf.substitute import substitute
from aikg.settings import Settings
from aikg_bench.generate import Template

WRITE_GRAPH = "https://w3id.org/aikg/graph/bench-writes"
_N = "@N@"
"""Marker replaced by a fresh number in every write, so no two writes insert the same triples."""

PARAMS = {
    "org": "coreweave",
    "entity": "deepseek-v3",
    "vendor": "nvidia",
    "from": "2024-01-01",
    "to": "2026-12-31",
    "accelerator": "h100",
    "model": "deepseek-v3",
}
"""A value for each named-query parameter; entity slugs that are copied get a replica number."""
BY_TYPE = {
    "entity": "coreweave",
    "iri": f"{ID}coreweave",
    "date": "2025-01-01",
    "integer": "10",
    "decimal": "1.5",
    "string": "nvidia",
}
"""Values for parameters of named queries added later, by type."""

_PREFIXES = "".join(f"PREFIX {p}: <{ns}>\n" for p, ns in PREFIXES.items())

JOIN = (
    _PREFIXES
    + """SELECT ?deployment ?operator ?peer ?label WHERE {
  ?deployment aikg:operator ?operator .
  ?operator aikg:competesWith ?peer .
  ?peer rdfs:label ?label .
} LIMIT 10000"""
)
"""Three hops: deployment -> operator -> competitor -> its label."""

AGGREGATE = (
    _PREFIXES
    + """SELECT ?type (COUNT(?s) AS ?n) WHERE { ?s a ?type }
GROUP BY ?type ORDER BY DESC(?n)"""
)
"""Whole-graph analytics: instances per class."""


@dataclass
class Op:
    """One operation of the mix: aikg's request paths and the SPARQL peers run for the same answer."""

    name: str
    group: str
    paths: list[str]
    sparql: list[str]
    body: str | None = None
    """For writes: the Turtle aikg receives (``sparql`` then holds the equivalent INSERT DATA)."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_write(self) -> bool:
        return self.body is not None


def value_for(p: Parameter) -> str:
    """The value the mix asks a parameter with: :data:`PARAMS` by name, else a string parameter's own
    default among its declared words (``values=``: another word is a 400 since dcee23a, and the mix asked
    ``include=nvidia``), else a value by type (:data:`BY_TYPE`)."""
    if p.name in PARAMS:
        return PARAMS[p.name]
    if p.values:
        return p.default if p.default in p.values else p.values[0]
    return BY_TYPE.get(p.type, "")


def _iri(slug: str) -> str:
    return f"<{ID}{slug}>"


def _str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def write_body(n_entities: int = 20) -> tuple[str, str]:
    """A 100-triple write (Turtle for aikg, INSERT DATA for peers): new neoclouds with their names."""
    triples = []
    for i in range(n_entities):
        s = f"<{ID}bench-org-{_N}-{i}>"
        triples += [
            f"{s} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <{PREFIXES['aikg']}Neocloud> .",
            f'{s} <http://www.w3.org/2000/01/rdf-schema#label> "Bench Cloud {_N} {i}"@en .',
            f'{s} <http://www.w3.org/2000/01/rdf-schema#label> "基准云 {_N} {i}"@zh .',
            f'{s} <http://www.w3.org/2004/02/skos/core#altLabel> "BC{_N}-{i}" .',
            f'{s} <http://www.w3.org/2000/01/rdf-schema#comment> "A synthetic neocloud (aikg bench)."@en .',
        ]
    turtle = "\n".join(triples) + "\n"
    update = f"INSERT DATA {{ GRAPH <{WRITE_GRAPH}> {{\n{turtle}}} }}"
    return turtle, update


HUB = "nvidia"
"""The biggest hub: a vendor, shared by every replica of generated data (and by much of Epoch's)."""
SMALL = {"accelerator": "tpu-v8t"}
"""A node with few links for each kind of parameter (an organization unless named here)."""
SMALL_NODE = "lambda"
HUB_BY_NAME = {"accelerator": "h100"}
"""The hub bound to a parameter that nvidia cannot fill (an accelerator, not a vendor)."""


def numbered(value: str, k: int, template: Template, replicas: int) -> str:
    """A template slug as it is in the data: replica ``k``'s copy in generated data (``replicas`` > 0),
    the slug itself in the default store (``replicas`` 0)."""
    return f"{value}-{k}" if replicas and value in set(template.copied_slugs) else value


def node_params(template: Template, replicas: int, *, hub: bool) -> dict[str, str]:
    """Every entity parameter of the named queries bound to the hub, or to a small node (replica 1)."""
    names = {p.name for q in load_queries().values() for p in q.parameters if p.type == "entity"}
    if hub:
        return {n: numbered(HUB_BY_NAME.get(n, HUB), 1, template, replicas) for n in names}
    return {n: numbered(SMALL.get(n, SMALL_NODE), 1, template, replicas) for n in names}


def build_mix(template: Template, replicas: int, *, seed: int = 42, variants: int = 200) -> list[Op]:
    """The operations, in the order they run (the write last: it changes the store's version).

    ``replicas`` 0 is the default store: the seeds' own slugs and names, not numbered copies.
    """
    rng = random.Random(seed)
    ks = [rng.randint(1, max(replicas, 1)) for _ in range(variants)]
    entities = template.entities
    slugs = [numbered(rng.choice(entities)[0], k, template, replicas) for k in ks]
    ops = [
        Op(
            "entity lookup",
            "lookup",
            [f"/api/entities/{s}" for s in slugs],
            [_PREFIXES + f"SELECT ?p ?o WHERE {{ {_iri(s)} ?p ?o }}" for s in slugs],
        )
    ]
    terms = []
    for k in ks:
        name = normalize(rng.choice(template.names))
        whole = f"{name} {str(k)[:1]}" if replicas else name
        terms.append(name[: rng.randint(3, 6)] if rng.random() < 0.5 else whole)
    ops.append(
        Op(
            "search / autocomplete",
            "search",
            ["/api/search?" + urlencode({"q": t, "limit": 10}) for t in terms],
            [
                _PREFIXES + "SELECT DISTINCT ?s ?name WHERE { ?s rdfs:label|skos:altLabel ?name . "
                f"FILTER(CONTAINS(LCASE(STR(?name)), {_str(t)})) }} LIMIT 10"
                for t in terms
            ],
        )
    )
    # aikg is asked for the row cap, as the peers' text asks: without limit it answers its first page
    # (query_page, 1,000 rows), which the mix compared with the peers' whole answer.
    cap = Settings().max_rows
    for name, q in sorted(load_queries().items()):
        paths, texts = [], []
        for k in ks[: variants // 4] if q.parameters else ks[:1]:
            raw = {p.name: numbered(value_for(p), k, template, replicas) for p in q.parameters}
            paths.append(f"/api/queries/{name}?" + urlencode({**raw, "limit": str(cap)}))
            # The peers get the parameters substituted into the text as aikg's remote backend sends them
            # (SEP-0007 semantics: they reach subqueries too, as Oxigraph's substitutions do), with the
            # LIMIT aikg's store runs a page of the cap with.
            texts.append(substitute(paged(q, cap, 0), bind_parameters(q, raw)))
        ops.append(Op(f"query {name}", "named", sorted(set(paths)), sorted(set(texts))))
    ops.append(Op("3-hop join", "join", ["/sparql?" + urlencode({"query": JOIN})], [JOIN]))
    ops.append(Op("aggregate", "aggregate", ["/sparql?" + urlencode({"query": AGGREGATE})], [AGGREGATE]))
    ops.append(
        Op(
            "export neighbourhood",
            "export",
            [f"/api/entities/{s}/neighbors" for s in slugs],
            [
                f"CONSTRUCT {{ {_iri(s)} ?p ?o . ?x ?q {_iri(s)} }} WHERE {{ {{ {_iri(s)} ?p ?o }} "
                f"UNION {{ ?x ?q {_iri(s)} }} }}"
                for s in slugs
            ],
        )
    )
    turtle, update = write_body()
    ops.append(
        Op(
            "write 100 triples (SHACL gate)",
            "write",
            ["/data?graph=" + quote(WRITE_GRAPH, safe="")],
            [update],
            body=turtle,
        )
    )
    return ops


def fresh(text: str, n: str) -> str:
    """A write's text with the marker replaced by ``n``."""
    return text.replace(_N, n)
