"""Reconciliation: which existing aikg entity an Epoch name denotes, or a new one, never a guess.

Strategy, in order, per kind of thing (organization, model, accelerator):

1. the overrides file (``seeds/epoch/overrides.csv``: ``kind,epoch_name,aikg_id``; ``aikg_id`` ``new``
   forces a separate node) decides hard cases;
2. the normalized name (ASCII-folded, lower case, punctuation as spaces) equal to the normalized
   rdfs:label or skos:altLabel of exactly one entity of that kind: matched;
3. a loose key (hardware: vendor prefix, form factor and memory size dropped; models: parenthesized
   qualifiers dropped; organizations: legal suffixes dropped) equal for exactly one entity AND for no
   other name of this import: matched;
4. otherwise a new node. If several entities had the key, or (organizations) the name of an entity the
   graph already held is a word-prefix of this name (``Google`` / ``Google Cloud``), the name is
   reported as ambiguous with its candidates and stays separate.
"""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from aikg.epoch.values import normalize, slugify
from aikg.knowledge.derive import GENERATED_GRAPHS
from aikg.namespaces import ID
from aikg.store import Store

KINDS = {
    "organization": "https://w3id.org/aikg/ontology#Organization",
    "model": "https://w3id.org/aikg/ontology#AIModel",
    "accelerator": "https://w3id.org/aikg/ontology#Accelerator",
    "datacenter": "https://w3id.org/aikg/ontology#DataCenter",
}
"""Kinds of thing reconciled, and the aikg class whose instances (any subclass) are candidates."""

_FORM_FACTOR = re.compile(r"\b(sxm\d*|pcie|nvl|oam|\d+ ?gb|gb \d+|hbm\d*e?)\b")
_LEGAL = re.compile(r"\b(inc|ltd|llc|corp|corporation|co|plc|gmbh|sa)\b")


def loose_key(kind: str, name: str, vendors: frozenset[str] = frozenset()) -> str:
    """The looser comparison key of step 3 (see the module docstring)."""
    text = re.sub(r"\([^)]*\)", " ", name)
    key = normalize(text)
    if kind == "accelerator":
        words = key.split()
        while words and words[0] in vendors | {"nvidia", "google", "amd", "intel", "tesla"}:
            words = words[1:]
        key = " ".join(_FORM_FACTOR.sub(" ", " ".join(words)).split())
    elif kind == "organization":
        key = " ".join(_LEGAL.sub(" ", key).split())
    return key


@dataclass
class Match:
    """What a name was reconciled to."""

    kind: str
    name: str
    iri: str
    status: str
    """``matched`` (an existing entity), ``created`` (a new node) or ``ambiguous`` (new, with candidates)."""
    rule: str = ""
    candidates: list[str] = field(default_factory=list)
    label: str = ""
    """The node's English label: the name itself for new nodes; existing entities keep theirs."""


@dataclass
class Known:
    """An existing entity: its IRI and the normalized forms of its names."""

    iri: str
    names: set[str]


def read_overrides(path: Path | None) -> dict[tuple[str, str], str]:
    """The overrides file as ``{(kind, normalized epoch name): aikg id or 'new'}``."""
    if path is None or not path.exists():
        return {}
    out: dict[tuple[str, str], str] = {}
    with path.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(line for line in f if not line.lstrip().startswith("#")):
            kind, name, target = (row.get(k, "").strip() for k in ("kind", "epoch_name", "aikg_id"))
            if kind in KINDS and name and target:
                out[(kind, normalize(name))] = target
    return out


class Reconciler:
    """Decides, name by name, the IRI each Epoch name gets; remembers every decision for the report."""

    def __init__(self, store: Store, overrides: dict[tuple[str, str], str], names: dict[str, set[str]],
                 vendors: frozenset[str] = frozenset()) -> None:
        self.overrides = overrides
        self.vendors = vendors
        self.known: dict[str, list[Known]] = {k: _existing(store, cls) for k, cls in KINDS.items()}
        self.exact: dict[str, dict[str, set[str]]] = {k: defaultdict(set) for k in KINDS}
        self.loose: dict[str, dict[str, set[str]]] = {k: defaultdict(set) for k in KINDS}
        self.by_iri: dict[str, set[str]] = defaultdict(set)
        self.before = {k.iri for entities in self.known.values() for k in entities}
        """Entities the graph held before this import (candidates for the prefix rule)."""
        for kind, entities in self.known.items():
            for known in entities:
                self._index(kind, known)
        self.taken: set[str] = _all_ids(store)
        self.loose_names: dict[str, dict[str, set[str]]] = {
            k: _group(names.get(k, set()), lambda n, k=k: loose_key(k, n, vendors)) for k in KINDS}
        self.decisions: dict[tuple[str, str], Match] = {}
        self.created: dict[str, dict[str, Match]] = defaultdict(dict)

    def _index(self, kind: str, known: Known) -> None:
        self.by_iri[known.iri] |= known.names
        for n in known.names:
            self.exact[kind][n].add(known.iri)
            self.loose[kind][loose_key(kind, n, self.vendors)].add(known.iri)

    def names_of(self, kind: str, iri: str) -> set[str]:
        """Normalized names an entity of ``kind`` is known by."""
        return self.by_iri.get(iri, set())

    def resolve(self, kind: str, name: str) -> Match:
        """The IRI for ``name`` of ``kind``; the same name always gets the same answer."""
        norm = normalize(name)
        key = (kind, norm)
        if key not in self.decisions:
            self.decisions[key] = self._decide(kind, name, norm)
        return self.decisions[key]

    def _decide(self, kind: str, name: str, norm: str) -> Match:
        target = self.overrides.get((kind, norm))
        if target == "new":
            return self._create(kind, name, norm, "override: separate", [])
        if target:
            return Match(kind, name, str(ID[target]), "matched", "override")
        exact = sorted(self.exact[kind].get(norm, set()))
        if len(exact) == 1:
            return Match(kind, name, exact[0], "matched", "normalized name")
        if len(exact) > 1:
            return self._create(kind, name, norm, "several entities share the name", exact)
        loose = loose_key(kind, name, self.vendors)
        by_loose = sorted(self.loose[kind].get(loose, set()))
        rivals = self.loose_names[kind].get(loose, set()) - {norm}
        if len(by_loose) == 1 and not rivals and loose:
            return Match(kind, name, by_loose[0], "matched", "loose name")
        if by_loose:
            why = "other names of this import have the same loose key" if rivals else \
                "several entities have the same loose key"
            return self._create(kind, name, norm, why, by_loose)
        words = norm.split()
        prefix = sorted({iri for i in range(1, len(words))
                         for iri in self.exact[kind].get(" ".join(words[:i]), set()) if iri in self.before})
        if prefix and kind == "organization":
            return self._create(kind, name, norm, "an existing name is a prefix of this one", prefix)
        same = self.created[kind].get(norm)
        if same is not None:
            return same
        return self._create(kind, name, norm, "", [])

    def _create(self, kind: str, name: str, norm: str, why: str, candidates: list[str]) -> Match:
        existing = self.created[kind].get(norm)
        if existing is not None:
            return existing
        base = slugify(name)
        slug = base if base not in self.taken else f"epoch-{kind}-{base}"
        n = 2
        while slug in self.taken:
            slug = f"epoch-{kind}-{base}-{n}"
            n += 1
        self.taken.add(slug)
        status = "ambiguous" if candidates else "created"
        match = Match(kind, name, str(ID[slug]), status, why, candidates, label=name)
        self.created[kind][norm] = match
        # Later names of this import find the new node by its name, like an existing entity.
        known = Known(match.iri, {norm})
        self.known[kind].append(known)
        self._index(kind, known)
        return match


_GENERATED = ", ".join(f"<{g}>" for g in GENERATED_GRAPHS)
"""The computed graphs: they restate imported nodes, so they never count as what the graph held."""


def _group(names: set[str], key: object) -> dict[str, set[str]]:
    grouped: dict[str, set[str]] = defaultdict(set)
    for n in names:
        grouped[key(n)].add(normalize(n))  # type: ignore[operator]
    return grouped


def _existing(store: Store, cls: str) -> list[Known]:
    """Entities of a class (or any subclass) outside the Epoch and computed graphs, with their names."""
    result = store.query(f"""
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
        SELECT ?e ?name WHERE {{
          GRAPH ?g {{ ?e a ?t }}
          ?t rdfs:subClassOf* <{cls}> .
          FILTER (!STRSTARTS(STR(?g), "https://w3id.org/aikg/graph/epoch/") && ?g NOT IN ({_GENERATED}))
          GRAPH ?n {{ ?e rdfs:label|skos:altLabel ?name }}
          FILTER (!STRSTARTS(STR(?n), "https://w3id.org/aikg/graph/epoch/"))
        }}""")
    names: dict[str, set[str]] = defaultdict(set)
    for e, name in result.values():
        if e is not None and name is not None:
            names[e].add(normalize(name))
    return [Known(iri, n) for iri, n in sorted(names.items())]


def _all_ids(store: Store) -> set[str]:
    """Slugs used by any node outside the Epoch and computed graphs (new nodes must not collide)."""
    prefix = str(ID[""])
    result = store.query(f"""
        SELECT DISTINCT ?s WHERE {{
          GRAPH ?g {{ ?s ?p ?o }}
          FILTER (!STRSTARTS(STR(?g), "https://w3id.org/aikg/graph/epoch/") && ?g NOT IN ({_GENERATED}))
        }}""")
    return {s[len(prefix):] for (s,) in result.values() if s is not None and s.startswith(prefix)}
