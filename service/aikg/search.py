"""Name search for autocomplete: an in-memory index over every entity's labels and alternative names.

A substring FILTER over a million triples takes 100+ ms, so the index is built once per store version
from two queries (names, types) and answers from memory:

- names are normalized (NFKC, case-folded, runs of spaces / hyphens / underscores made one space);
- exact and prefix matches come from a sorted list (bisect), word-prefix matches from a sorted list of
  the name tails that start a word, substring matches from an n-gram map (1-, 2- and 3-grams, so CJK
  names work per character) whose postings are ordered shortest name first, so a scan can stop early;
- ranking: exact before prefix before word-prefix before substring; within a tier shorter names (a
  larger share matched) first and an entity's main label before its alternative names.

The index also serves as the directory of entities (slug, label, most specific types) the entity API
uses to describe the other end of a relation without another query.
"""

from __future__ import annotations

import gc
import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass

import pyoxigraph as ox
from rdflib import URIRef

from .cache import per_version
from .namespaces import ID
from .store import OxigraphStore, Store
from .vocabulary import Vocabulary, local_name, vocabulary

MAX_LIMIT = 100
_SEP = "\0"
_TOP = "\U0010ffff"
_SEPARATORS = re.compile(r"[\s\-_]+")

TIER_BASE = {"exact": 1.0, "prefix": 0.8, "word": 0.6, "substring": 0.4}
"""Base score of each match tier; a tier always outranks the ones after it."""


def normalize(text: str) -> str:
    """The form names and queries are compared in: NFKC, case-folded, separators collapsed."""
    return _SEPARATORS.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


@dataclass(frozen=True)
class EntityInfo:
    """What the directory knows about one entity: IRI, slug, display label, most specific types."""

    iri: str
    slug: str
    label: str
    types: tuple[str, ...]


@dataclass(frozen=True)
class Hit:
    """One search result: the entity, the name that matched, how it matched and its score."""

    entity: EntityInfo
    name: str
    match: str
    score: float


_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
_ALT_LABEL = "http://www.w3.org/2004/02/skos/core#altLabel"
_NAMES_QUERY = "SELECT ?s ?name WHERE { ?s <%s> ?name }"
_TYPES_QUERY = "SELECT ?s ?t WHERE { ?s a ?t }"


def _select(store: Store, sparql: str) -> Iterator[tuple[str, str, str | None]]:
    """(subject, value, language) of a two-column SELECT, for IRI subjects only.

    On the embedded store the rows are read straight from pyoxigraph: building rdflib terms for a
    million rows would cost more than the query itself.
    """
    if isinstance(store, OxigraphStore):
        for row in store.raw.query(sparql, use_default_graph_as_union=True):
            s, o = row[0], row[1]
            if isinstance(s, ox.NamedNode):
                yield s.value, o.value, getattr(o, "language", None)
        return
    for s, o in store.query(sparql).rows:
        if isinstance(s, URIRef) and o is not None:
            yield str(s), str(o), getattr(o, "language", None)


class SearchIndex:
    """The names of every entity, indexed for exact, prefix, word-prefix and substring lookup."""

    def __init__(self, names: list[tuple[str, str, str, str | None]],
                 types: list[tuple[str, str]], vocab: Vocabulary) -> None:
        """Build from (entity IRI, property IRI, name, language) and (entity IRI, type IRI) rows."""
        self.vocab = vocab
        self.entities = self._directory(names, types, vocab)
        entries = sorted({(norm, iri, name, prop == _LABEL)
                          for iri, prop, name, _ in names if (norm := normalize(name))},
                         key=lambda e: (len(e[0]), e[0], not e[3], e[1]))
        self._norm = [e[0] for e in entries]
        self._name = [e[2] for e in entries]
        self._is_label = [e[3] for e in entries]
        self._owner = [self.entities[e[1]] for e in entries]
        # All names in one string, shortest first, each after a NUL: str.find scans it at C speed, and
        # hits come out in ranking order, so a search stops as soon as it has enough entities. Names
        # with non-ASCII characters (Chinese) get their own string, so the large ASCII one stays one
        # byte per character and a Chinese query scans only the small one.
        ascii_ids = [i for i, n in enumerate(self._norm) if n.isascii()]
        other_ids = [i for i, n in enumerate(self._norm) if not n.isascii()]
        self._parts = [_Part(self._norm, ascii_ids), _Part(self._norm, other_ids)]
        # Sorted keys for the prefix and word-prefix tiers: a bisect finds the range of names (or name
        # tails that start a word) beginning with the query without scanning anything.
        self._prefix = _Sorted((n, i) for i, n in enumerate(self._norm))
        self._word = _Sorted((tail, i) for i, n in enumerate(self._norm) if " " in n
                             for tail in _word_tails(n))

    @staticmethod
    def _directory(names: list[tuple[str, str, str, str | None]], types: list[tuple[str, str]],
                   vocab: Vocabulary) -> dict[str, EntityInfo]:
        labels: dict[str, dict[str, str]] = {}
        for iri, prop, name, lang in names:
            if prop == _LABEL:
                labels.setdefault(iri, {}).setdefault(lang or "", name)
        typed: dict[str, set[str]] = {}
        for iri, t in types:
            typed.setdefault(iri, set()).add(t)
        out = {}
        for iri in set(labels) | set(typed) | {n[0] for n in names}:
            by_lang = labels.get(iri, {})
            slug = iri[len(str(ID)):]
            label = by_lang.get("en") or by_lang.get("") or next(iter(by_lang.values()), slug)
            out[iri] = EntityInfo(iri, slug, label, vocab.most_specific(frozenset(typed.get(iri, ()))))
        return out

    def __len__(self) -> int:
        return len(self._norm)

    def search(self, query: str, *, type_iri: str | None = None, limit: int = 10) -> list[Hit]:
        """The best ``limit`` entities whose names match ``query``, one hit per entity, ranked."""
        q = normalize(query).replace(_SEP, "")
        if not q:
            return []
        allowed = self.vocab.descendants(type_iri) if type_iri else None
        best: dict[str, Hit] = {}
        parts = [p for p in self._parts if p.ids and (q.isascii() or not p.text.isascii())]
        # Tier by tier, best first; within a tier hits arrive shortest name first (highest score).

        def wanted(i: int) -> str | None:
            owner = self._owner[i]
            if owner.iri in best or (allowed is not None and not any(t in allowed for t in owner.types)):
                return None
            return owner.iri

        for tier, needle in (("prefix", _SEP + q), ("word", " " + q), ("substring", q)):
            keys = {"prefix": self._prefix, "word": self._word}.get(tier)
            found = keys.find(q, wanted, limit - len(best)) if keys is not None else None
            if found is None:  # a substring, or a prefix so common that a scan stops sooner
                found = []
                for part in parts:
                    found += part.find(needle, tier, wanted, limit - len(best))
            for i in sorted(found):
                if len(best) >= limit:
                    break
                owner = self._owner[i]
                if owner.iri in best:
                    continue
                norm = self._norm[i]
                kind = "exact" if tier == "prefix" and norm == q else tier
                score = TIER_BASE[kind] + 0.19 * len(q) / len(norm) + (0.01 if self._is_label[i] else 0.0)
                best[owner.iri] = Hit(owner, self._name[i], kind, round(score, 4))
            if len(best) >= limit:
                break
        return sorted(best.values(), key=lambda h: (-h.score, h.entity.label, h.entity.iri))

    def types_of(self, info: EntityInfo) -> list[dict]:
        """An entity's most specific types as JSON (IRI, local name, label)."""
        return [type_json(self.vocab, t) for t in info.types]


def _word_tails(norm: str) -> Iterator[str]:
    """Every tail of a normalized name that starts a word after the first."""
    k = norm.find(" ")
    while k >= 0:
        yield norm[k + 1:]
        k = norm.find(" ", k + 1)


_RANGE_SCAN = 4096
"""Largest bisected range read in full; a larger one is left to a scan, which stops at enough hits."""


class _Sorted:
    """Keys in sorted order with the name id of each, for prefix lookups by bisect."""

    def __init__(self, pairs: Iterable[tuple[str, int]]) -> None:
        ordered = sorted(pairs)
        self.keys = [k for k, _ in ordered]
        self.ids = array("L", (i for _, i in ordered))

    def find(self, q: str, wanted: Callable[[int], Hashable | None], enough: int) -> list[int] | None:
        """Name ids of keys starting with ``q``, in ranking order; None when the range is too large."""
        lo = bisect_left(self.keys, q)
        hi = bisect_left(self.keys, q + _TOP, lo)
        if hi - lo > _RANGE_SCAN:
            return None
        out: list[int] = []
        owners: set[Hashable] = set()
        for i in sorted(set(self.ids[lo:hi])):
            owner = wanted(i)
            if owner is not None:
                owners.add(owner)
                out.append(i)
                if len(owners) >= enough:
                    break
        return out


class _Part:
    """Some of the names in one NUL-separated string, in ranking order, searchable with str.find."""

    def __init__(self, norms: list[str], ids: list[int]) -> None:
        self.ids = array("L", ids)
        self.text = "".join(_SEP + norms[i] for i in ids) + _SEP
        self.starts = array("L")
        pos = 0
        for i in ids:
            self.starts.append(pos + 1)
            pos += len(norms[i]) + 1

    def find(self, needle: str, tier: str, wanted: Callable[[int], Hashable | None],
             enough: int) -> list[int]:
        """Name ids where ``needle`` occurs in this tier's sense, in ranking order.

        ``wanted`` maps a name id to its entity when that entity may still be added (else None); the
        scan stops once ``enough`` different such entities were found.
        """
        out: list[int] = []
        owners: set[Hashable] = set()
        text, starts = self.text, self.starts
        offset = 0 if tier == "substring" else 1
        pos = text.find(needle)
        while pos >= 0 and len(owners) < enough:
            k = bisect_right(starts, pos + offset) - 1
            # a substring hit at a name or word start was already found as a prefix or word hit
            fresh = tier != "substring" or (pos != starts[k] and text[pos - 1] != " ")
            owner = wanted(self.ids[k]) if fresh else None
            if owner is not None:
                owners.add(owner)
                out.append(self.ids[k])
            pos = text.find(needle, pos + 1)
        return out


def type_json(vocab: Vocabulary, iri: str) -> dict:
    """A class as JSON: IRI, local name and English label."""
    return {"iri": iri, "name": local_name(iri), "label": vocab.label(iri)}


def _build(store: Store) -> SearchIndex:
    vocab = vocabulary(store)
    base = str(ID)
    gc.disable()  # hundreds of thousands of small objects: collections would only slow the build
    try:
        names = list({(s, prop, name, lang) for prop in (_LABEL, _ALT_LABEL)
                      for s, name, lang in _select(store, _NAMES_QUERY % prop) if s.startswith(base)})
        types = list({(s, t) for s, t, _ in _select(store, _TYPES_QUERY) if s.startswith(base)})
        return SearchIndex(names, types, vocab)
    finally:
        gc.enable()


BACKGROUND_REBUILD = 50_000
"""Names above which a changed store's index is rebuilt in the background (the old one answers)."""


def search_index(store: Store) -> SearchIndex:
    """The index for the store's current data, built lazily and rebuilt when the version changes.

    A large index (seconds to build) is rebuilt in the background after a write, the previous one
    answering meanwhile; a small one is rebuilt at once, so a write is searchable immediately.
    """
    return per_version(store, "search-index", _build, stale_while=lambda old: len(old) > BACKGROUND_REBUILD)
