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
from bisect import bisect_right
from dataclasses import dataclass

from .cache import per_version
from .namespaces import ID
from .store import Store
from .vocabulary import Vocabulary, local_name, vocabulary

MAX_LIMIT = 100
_SEP = "\0"
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


_NAMES_QUERY = """
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT DISTINCT ?s ?p ?name WHERE {
  VALUES ?p { rdfs:label skos:altLabel }
  ?s ?p ?name .
  FILTER(isIRI(?s) && STRSTARTS(STR(?s), "%s"))
}""".replace("%s", str(ID))

_TYPES_QUERY = """
SELECT DISTINCT ?s ?t WHERE {
  ?s a ?t .
  FILTER(isIRI(?s) && isIRI(?t) && STRSTARTS(STR(?s), "%s"))
}""".replace("%s", str(ID))

_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


def _rows(store: Store, sparql: str) -> list[tuple[str | None, ...]]:
    """SELECT rows as (value, language) pairs flattened to strings, bypassing rdflib terms."""
    out = []
    for row in store.query(sparql).rows:
        flat: list[str | None] = []
        for term in row:
            flat.append(None if term is None else str(term))
            flat.append(getattr(term, "language", None))
        out.append(tuple(flat))
    return out


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
        # hits come out in ranking order, so a search stops as soon as it has enough entities.
        self._text = "".join(_SEP + n for n in self._norm) + _SEP
        starts = array("L")
        pos = 0
        for n in self._norm:
            starts.append(pos + 1)
            pos += len(n) + 1
        self._starts = starts

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
        # Tier by tier, best first; within a tier hits arrive shortest name first (highest score).
        for tier, needle, offset in (("prefix", _SEP + q, 1), ("word", " " + q, 1),
                                     ("substring", q, 0)):
            pos = self._text.find(needle)
            while pos >= 0 and len(best) < limit:
                i = bisect_right(self._starts, pos + offset) - 1
                start = self._starts[i]
                if tier == "substring" and (pos == start or self._text[pos - 1] == " "):
                    pos = self._text.find(needle, pos + 1)  # already found as prefix or word start
                    continue
                owner = self._owner[i]
                if owner.iri not in best and (allowed is None
                                              or any(t in allowed for t in owner.types)):
                    norm = self._norm[i]
                    kind = "exact" if tier == "prefix" and norm == q else tier
                    score = (TIER_BASE[kind] + 0.19 * len(q) / len(norm)
                             + (0.01 if self._is_label[i] else 0.0))
                    best[owner.iri] = Hit(owner, self._name[i], kind, round(score, 4))
                pos = self._text.find(needle, pos + 1)
            if len(best) >= limit:
                break
        return sorted(best.values(), key=lambda h: (-h.score, h.entity.label, h.entity.iri))

    def types_of(self, info: EntityInfo) -> list[dict]:
        """An entity's most specific types as JSON (IRI, local name, label)."""
        return [type_json(self.vocab, t) for t in info.types]


def type_json(vocab: Vocabulary, iri: str) -> dict:
    """A class as JSON: IRI, local name and English label."""
    return {"iri": iri, "name": local_name(iri), "label": vocab.label(iri)}


def _build(store: Store) -> SearchIndex:
    vocab = vocabulary(store)
    gc.disable()  # hundreds of thousands of small objects: collections would only slow the build
    try:
        names = [(r[0], r[2], r[4], r[5]) for r in _rows(store, _NAMES_QUERY)]
        types = [(r[0], r[2]) for r in _rows(store, _TYPES_QUERY)]
        return SearchIndex(names, types, vocab)  # type: ignore[arg-type]
    finally:
        gc.enable()


def search_index(store: Store) -> SearchIndex:
    """The index for the store's current data, built lazily and rebuilt when the version changes."""
    return per_version(store, "search-index", _build)
