"""Name search for autocomplete: an in-memory index over every entity's labels and alternative names.

A substring FILTER over a million triples takes 100+ ms, so the index is built from two queries (names,
types) and answers from memory:

- names are normalized (NFKC, case-folded, runs of spaces / hyphens / underscores made one space);
- all normalized names live in one string, shortest first, each after a NUL (names with non-ASCII
  characters in a second one); exact and prefix matches come from the name starts sorted by name,
  word-prefix matches from the word starts sorted by the rest of the name (both bisected), substring
  matches from ``str.find`` over the string, which meets names in ranking order and stops early;
- ranking: exact before prefix before word-prefix before substring; within a tier things people look
  up (organizations, models, chips, facilities …) before the events and other n-ary nodes that mention
  them (deals, clusters, results, runs), and those before records (source documents, derived values);
  then a match that ends where a word of the name ends ("gpt 4" in "gpt 4 (mar 2023)") before one that
  stops inside a word ("gpt 4v", "llama 33b"); then shorter names (a larger share matched) first and
  an entity's main label before its other names.
  Epoch's data has hundreds of clusters, deals and results named after their parties ("CoreWeave
  H200s"), which would otherwise bury the party itself under a prefix query such as "nvidia h".

Sorted keys are positions into that string, not strings: at a million triples the index and directory
take about 370 bytes per name (1,060 when every key was a string of its own).

The index also serves as the directory of entities (slug, label, most specific types) the entity API
uses to describe the other end of a relation without another query.

A write through the SHACL gate does not rebuild it: the gate records which subjects it touched
(:mod:`aikg.writelog`), and the next reader lays a small index over those subjects' current names on
top of the full one (:class:`LiveIndex`). The full index is rebuilt, in the background once large,
only when the overlay grows past :data:`OVERLAY_MAX` subjects or after a change the gate did not make.
"""

from __future__ import annotations

import gc
import logging
import os
import pickle
import re
import threading
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar, overload

import pyoxigraph as ox
from rapidfuzz.distance import OSA

from aikg.errors import AikgError, StoreError
from aikg.lookup.hanzi import has_han, simplified
from aikg.lookup.vocabulary import Vocabulary, local_name
from aikg.namespaces import AIKG, ID
from aikg.store import Store, Term, open_snapshot
from aikg.store.base import current_deadline, unbounded
from aikg.write.writelog import WriteLog

log = logging.getLogger(__name__)

_T = TypeVar("_T")

MAX_LIMIT = 100
MAX_SEARCH_OFFSET = 900
"""Matches a search may skip: a page never needs more than the best 1,000 (257 clusters share the name
"Anonymized Chinese System")."""
_SEP = "\0"
_TOP = "\U0010ffff"
_SEPARATORS = re.compile(r"[\s_\-\u2010-\u2015\u2212\u2e3a\u2e3b\ufe58\ufe63\uff0d\"\u201c\u201d]+")
"""Spaces, underscores, every dash and double quotes: "OpenAI–SB Energy" is the words "openai sb energy",
and Epoch's name written in quotes ('"Jupiter, Jülich"', its CSV cell quoted twice) begins with
"jupiter"."""
_ID = str(ID)
_AIKG = str(AIKG)

TIER_BASE = {
    "exact": 1.0,
    "prefix": 0.8,
    "word": 0.6,
    "substring": 0.4,
    "words": 0.2,
    "parties": 0.0,
    "misspelt": 0.0,
}
"""Base score of each match tier; a tier always outranks the ones after it (the rest of a score is
below 0.2: kind up to 0.12 in steps of 0.06, whole words 0.03, share of the name matched up to 0.025,
main label 0.001)."""
WHOLE_WORDS = 0.03
"""Added to a prefix or word-prefix match that ends where a word of the name ends: a user who typed
"GPT-4" or "Llama 3" means GPT-4 (Mar 2023) or Llama 3-8B before GPT-4V or LLaMA-33B."""

THING, EVENT, RECORD = 0, 1, 2
"""Kinds of entity, in the order they rank within a tier (see :func:`kind_rank`)."""

RECORD_ROOTS = tuple(
    _AIKG + c for c in ("SourceDocument", "Report", "Derivation", "Rule", "ValueQualification")
)
"""Classes whose instances are aikg's records about the industry rather than parts of it."""


def record_classes(vocab: Vocabulary) -> frozenset[str]:
    """The classes whose instances are :data:`RECORD` s: :data:`RECORD_ROOTS` and their subclasses."""
    return frozenset(c for root in RECORD_ROOTS for c in vocab.descendants(root))


def kind_rank(vocab: Vocabulary, types: Iterable[str], records: AbstractSet[str]) -> int:
    """:data:`THING`, :data:`EVENT` (an n-ary node: deal, result, cluster, phase …) or :data:`RECORD`
    (a source document, derived value …; also an entity with no type, of which nothing is known)."""
    types = tuple(types)
    if not types or any(t in records for t in types):
        return RECORD
    if any(t in vocab.nary for t in types):
        return EVENT
    return THING


_ACCENTS = re.compile("[\u0300-\u036f]")
"""Combining accents of Latin letters (after NFD): "Jülich" and "Julich", "Béluga" and "Beluga" are one
name to whoever types it; other scripts' marks (kana's voicing marks, U+3099) are not among them."""


def normalize(text: str) -> str:
    """The form names and queries are compared in: NFKC, case-folded, Latin accents dropped (a name is
    typed with or without them: Epoch writes "Julich Supercomputing Center" and "Calcul Québec Béluga"),
    separators collapsed."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFC", _ACCENTS.sub("", unicodedata.normalize("NFD", folded)))
    return _SEPARATORS.sub(" ", folded).strip()


@dataclass(frozen=True, slots=True)
class EntityInfo:
    """What the directory knows about one entity: IRI, display label, most specific types."""

    iri: str
    label: str
    types: tuple[str, ...]

    @property
    def slug(self) -> str:
        """The entity's id in aikg URLs (computed: one string fewer per entity in memory)."""
        return _slug(self.iri)


def _slug(iri: str) -> str:
    return iri[len(_ID) :] if iri.startswith(_ID) else iri


class Directory(Mapping[str, EntityInfo]):
    """A directory of entities by IRI whose ``get`` asks for one entity once (:meth:`_find`), where
    Mapping's own goes through ``__getitem__`` and KeyError."""

    __slots__ = ()

    def _find(self, iri: str) -> EntityInfo | None:
        raise NotImplementedError

    @overload
    def get(self, iri: str, /) -> EntityInfo | None: ...
    @overload
    def get(self, iri: str, default: EntityInfo, /) -> EntityInfo: ...
    @overload
    def get(self, iri: str, default: _T, /) -> EntityInfo | _T: ...

    def get(self, iri: str, default: object = None, /) -> object:
        found = self._find(iri)
        return default if found is None else found


class Entities(Directory):
    """A directory of entities held as columns (IRIs, labels, types, by place), its
    :class:`EntityInfo` made when asked for. A kept index at 1M quads (155k entities) loads in a
    third of the time it took as one object per entity, and a restarted server answers sooner."""

    __slots__ = ("_place", "iris", "labels", "types")

    def __init__(self, iris: list[str], labels: list[str], types: list[tuple[str, ...]]) -> None:
        self.iris, self.labels, self.types = iris, labels, types
        self._place = {iri: k for k, iri in enumerate(iris)}

    def __reduce__(self) -> tuple[type[Entities], tuple[list[str], list[str], list[tuple[str, ...]]]]:
        return Entities, (self.iris, self.labels, self.types)  # the places are rebuilt, not stored

    def place(self, iri: str) -> int:
        """The entity's place in the columns (KeyError when it is not here)."""
        return self._place[iri]

    def at(self, k: int) -> EntityInfo:
        """The entity at place ``k``."""
        return EntityInfo(self.iris[k], self.labels[k], self.types[k])

    def __getitem__(self, iri: str) -> EntityInfo:
        return self.at(self._place[iri])

    def _find(self, iri: str) -> EntityInfo | None:
        k = self._place.get(iri)
        return None if k is None else self.at(k)

    def __contains__(self, iri: object) -> bool:
        return iri in self._place

    def __iter__(self) -> Iterator[str]:
        return iter(self.iris)

    def __len__(self) -> int:
        return len(self.iris)


@dataclass(frozen=True)
class Hit:
    """One search result: the entity, the name that matched, how it matched and its score; its kind
    (:data:`THING`, :data:`EVENT`, :data:`RECORD`) and whether the query ended a word of the name, which
    with the match make the hits that are equal matches (:func:`search` orders those by links)."""

    entity: EntityInfo
    name: str
    match: str
    score: float
    kind: int = THING
    whole: bool = False


_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
_ALT_LABEL = "http://www.w3.org/2004/02/skos/core#altLabel"
_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
_NAMES_QUERY = "SELECT ?s ?name WHERE { ?s <%s> ?name }"
_TYPES_QUERY = "SELECT ?s ?t WHERE { ?s a ?t }"

NameRow = tuple[str, str, str, str | None]
"""(entity IRI, property IRI, name, language)."""


def _select(store: Store, sparql: str) -> Iterator[tuple[str, str, str | None]]:
    """(subject, value, language) of a two-column SELECT, for IRI subjects only."""
    for s, o in store.query(sparql).rows:
        if isinstance(s, ox.NamedNode) and o is not None:
            yield s.value, o.value, getattr(o, "language", None)


class SearchIndex:
    """The names of some entities, indexed for exact, prefix, word-prefix and substring lookup."""

    def __init__(self, names: Iterable[NameRow], types: Iterable[tuple[str, str]], vocab: Vocabulary) -> None:
        """Build from (entity IRI, property IRI, name, language) and (entity IRI, type IRI) rows."""
        names = list(names)
        self.vocab = vocab
        self.entities = self._directory(names, types, vocab)
        ranks: dict[tuple[str, ...], int] = {}  # one per distinct tuple of types (they are shared)
        records = record_classes(vocab)

        def rank(iri: str) -> int:
            types = self.entities.types[self.entities.place(iri)]
            r = ranks.get(types)
            if r is None:
                r = ranks[types] = kind_rank(vocab, types, records)
            return r

        entries = sorted(
            {(norm, iri, name, prop == _LABEL) for iri, prop, name, _ in names if (norm := normalize(name))},
            key=lambda e: (rank(e[1]), len(e[0]), e[0], not e[3], e[1]),
        )
        del names
        norms = [e[0] for e in entries]
        self._name = [e[2] for e in entries]
        self._is_label = bytearray(e[3] for e in entries)
        self._kind = bytearray(rank(e[1]) for e in entries)
        self._owner = array("I", (self.entities.place(e[1]) for e in entries))  # places in the directory
        del entries
        # Names with non-ASCII characters (Chinese) get their own string, so the large ASCII one stays
        # one byte per character and a Chinese query scans only the small one.
        ascii_ids = [i for i, n in enumerate(norms) if n.isascii()]
        other_ids = [i for i, n in enumerate(norms) if not n.isascii()]
        self._parts = (_Part(norms, ascii_ids), _Part(norms, other_ids))
        # name id -> 2 * its place in its part, + 1 in the non-ASCII part
        self._in_part = array("I", bytes(4 * len(norms)))
        for p, ids in enumerate((ascii_ids, other_ids)):
            for k, i in enumerate(ids):
                self._in_part[i] = 2 * k + p

    @staticmethod
    def _directory(names: list[NameRow], types: Iterable[tuple[str, str]], vocab: Vocabulary) -> Entities:
        # The display label: the first English label, else the first without a language, else the
        # first in any language. Plain dicts, not one dict (or set) per entity: the build's peak memory.
        label: dict[str, str] = {}
        rank: dict[str, int] = {}
        for iri, prop, name, lang in names:
            if prop == _LABEL:
                r = 0 if lang == "en" else 1 if not lang else 2
                if r < rank.get(iri, 3):
                    label[iri], rank[iri] = name, r
        del rank
        typed: dict[str, list[str]] = {}
        for iri, t in types:
            typed.setdefault(iri, []).append(t)
        shared: dict[frozenset[str], tuple[str, ...]] = {}  # one tuple per distinct set of types
        iris = list(typed.keys() | {n[0] for n in names})
        most_specific: list[tuple[str, ...]] = []
        for iri in iris:
            key = frozenset(typed.get(iri, ()))
            most = shared.get(key)
            if most is None:
                most = shared[key] = vocab.most_specific(key)
            most_specific.append(most)
        return Entities(iris, [label.get(iri) or _slug(iri) for iri in iris], most_specific)

    def __len__(self) -> int:
        return len(self._name)

    def _norm(self, i: int) -> str:
        where = self._in_part[i]
        return self._parts[where & 1].norm(where >> 1)

    def search(
        self,
        query: str,
        *,
        type_iri: str | None = None,
        limit: int = 10,
        hidden: AbstractSet[str] = frozenset(),
    ) -> list[Hit]:
        """The best ``limit`` entities whose names match ``query``, one hit per entity, ranked.

        Entities in ``hidden`` are left out (their names here are out of date).
        """
        q = normalize(query).replace(_SEP, "")
        if not q or not self._name:
            return []
        allowed = self.vocab.descendants(type_iri) if type_iri else None
        best: dict[str, Hit] = {}
        parts = [p for p in self._parts if p.ids and (q.isascii() or not p.text.isascii())]
        # Tier by tier, best first; within a tier hits arrive in ranking order (kind, then shortest name).

        entities = self.entities

        def wanted(i: int) -> str | None:
            k = self._owner[i]
            iri = entities.iris[k]
            if (
                iri in best
                or iri in hidden
                or (allowed is not None and not any(t in allowed for t in entities.types[k]))
            ):
                return None
            return iri

        def matches(tier: str, needle: str, whole: bool | None) -> list[int]:
            """Name ids of one tier (``whole``: only where the query ends a word, or only where it
            does not), in ranking order, up to the number of entities still wanted."""
            enough = limit - len(best)
            if tier != "substring":  # bisect the sorted keys, unless a range is so large a scan stops sooner
                ranges = [(part, r) for part in parts for r in part.key_ranges(tier, q, whole)]
                if sum(hi - lo for _, (lo, hi, _) in ranges) <= _RANGE_SCAN:
                    ids = {
                        i
                        for part, (lo, hi, check) in ranges
                        for i in part.ids_in(tier, lo, hi, q, whole if check else None)
                    }
                    return _first(sorted(ids), wanted, enough)
            found: list[int] = []
            for part in parts:
                found += part.find(needle, tier, wanted, enough, whole)
            return sorted(found)

        for tier, needle in (
            ("exact", _SEP + q + _SEP),
            ("prefix", _SEP + q),
            ("word", " " + q),
            ("substring", q),
        ):
            if tier in ("prefix", "word"):
                # Within a kind, names where the query ends a word first: each group's best entities
                # are enough to hold the best of both.
                whole = set(matches(tier, needle, True))
                found = sorted(
                    whole | set(matches(tier, needle, False)),
                    key=lambda i: (self._kind[i], i not in whole, i),
                )
            else:
                whole, found = set(), matches(tier, needle, None)
            for i in found:
                if len(best) >= limit:
                    break
                owner = entities.at(self._owner[i])
                if owner.iri not in best:
                    best[owner.iri] = self._hit(owner, i, q, tier, i in whole)
            if len(best) >= limit:
                break
        return _ranked(best.values())

    def _hit(self, owner: EntityInfo, i: int, q: str, tier: str, whole: bool) -> Hit:
        """The hit of name ``i`` (of ``owner``) found for ``q`` in ``tier``: exact when the whole name is
        the query; scored by tier, the owner's kind, a match ending a word, the share of the name matched
        and whether the name is a label."""
        norm = self._norm(i)
        kind = "exact" if norm == q else tier
        score = (
            TIER_BASE[kind]
            + 0.06 * (RECORD - self._kind[i])
            + (WHOLE_WORDS if whole else 0.0)
            + 0.025 * len(q) / len(norm)
            + (0.001 if self._is_label[i] else 0.0)
        )
        return Hit(owner, self._name[i], kind, round(score, 4), self._kind[i], kind == "exact" or whole)

    def word_owners(self, word: str, hidden: AbstractSet[str] = frozenset()) -> set[str]:
        """Every entity with a name of which a word starts with ``word`` (normalized, one word): what
        a query of several words is matched with, word by word (:func:`search`)."""
        q = normalize(word).replace(_SEP, "")
        owners: set[str] = set()
        if not q or not self._name:
            return owners
        iris = self.entities.iris
        for part in self._parts:
            if not part.ids or (not q.isascii() and part.text.isascii()):
                continue
            for tier in ("prefix", "word"):
                for lo, hi, _ in part.key_ranges(tier, q):
                    owners.update(iris[self._owner[i]] for i in part.ids_in(tier, lo, hi))
        return owners - hidden if hidden else owners

    def types_of(self, info: EntityInfo) -> list[dict[str, str]]:
        """An entity's most specific types as JSON (IRI, local name, label)."""
        return [type_json(self.vocab, t) for t in info.types]


def _ranked(hits: Iterable[Hit]) -> list[Hit]:
    return sorted(hits, key=lambda h: (-h.score, h.entity.label, h.entity.iri))


def _first(ids: list[int], wanted: Callable[[int], Hashable | None], enough: int) -> list[int]:
    """The leading ``ids`` (in ranking order) that are wanted, up to ``enough`` different entities."""
    out: list[int] = []
    owners: set[Hashable] = set()
    for i in ids:
        owner = wanted(i)
        if owner is not None:
            owners.add(owner)
            out.append(i)
            if len(owners) >= enough:
                break
    return out


_RANGE_SCAN = 4096
"""Largest bisected range read in full; a larger one is left to a scan, which stops at enough hits."""


_AFTER_WORD = (("", "0"), (":", "a"), ("{", "\x80"))
_AFTER_NUMBER = (("", ".0"), (".:", "0"), (":", "a"), ("{", "\x80"))


def _word_ends(q: str) -> tuple[tuple[str, str], ...]:
    """What may follow ``q`` where it ends a word, as half-open ranges of suffixes in sort order: the
    end of the name, a space or any ASCII character that is no letter or digit; not a point between
    digits ("4" does not end a word in "4.1"). Another ASCII letter or digit continues the word (names
    are case-folded, so the upper-case letters between ":" and "a" do not occur); a non-ASCII character
    ends it unless it is a letter or digit (an en dash does, a Chinese character does not)."""
    return _AFTER_NUMBER if q[-1:].isdigit() else _AFTER_WORD


class _Part:
    """Some of the names in one NUL-separated string, in ranking order, with sorted keys into it.

    ``prefix`` holds the names' places sorted by name, ``word`` the positions where a word other than
    the first begins, sorted by the rest of the name from there: both are bisected with a key that
    slices the string, so no key string is kept.
    """

    def __init__(self, norms: list[str], ids: list[int]) -> None:
        self.ids = array("I", ids)
        self.text = text = "".join(_SEP + norms[i] for i in ids) + _SEP
        self.starts = array("I")
        pos = 0
        for i in ids:
            self.starts.append(pos + 1)
            pos += len(norms[i]) + 1
        self.starts.append(pos + 1)  # sentinel: the end of the last name is starts[k + 1] - 1
        self.prefix = array("I", sorted(range(len(ids)), key=lambda k: norms[ids[k]]))
        # Word starts, bucketed by first character so only one bucket's keys exist at a time.
        buckets: dict[str, array[int]] = {}
        p = text.find(" ")
        while p >= 0:
            buckets.setdefault(text[p + 1], array("I")).append(p + 1)
            p = text.find(" ", p + 1)
        self.word = array("I")
        for c in sorted(buckets):
            self.word.extend(sorted(buckets.pop(c), key=self._tail))

    def norm(self, k: int) -> str:
        """The ``k``-th name of this part."""
        return self.text[self.starts[k] : self.starts[k + 1] - 1]

    def _tail(self, p: int) -> str:
        return self.text[p : self.text.index(_SEP, p)]

    def key_ranges(self, tier: str, q: str, whole: bool | None = None) -> list[tuple[int, int, bool]]:
        """The ranges of the tier's sorted keys (names, or word tails) that equal (``exact``) or start
        with ``q``; with ``whole``, only those where ``q`` ends a word (True) or does not (False). A
        range's flag says whether that is still to be checked name by name (:meth:`ids_in`).

        Keys that start with ``q`` are sorted by the character after it, so those where it ends a word
        with an ASCII character are a few contiguous runs (:func:`_word_ends`), found by bisection like
        the whole range; a non-ASCII character after it is in both."""
        keys, key = (self.word, self._tail) if tier == "word" else (self.prefix, self.norm)
        lo = bisect_left(keys, q, key=key)
        if tier == "exact":
            return [(lo, bisect_right(keys, q, lo, key=key), False)]
        hi = bisect_left(keys, q + _TOP, lo, key=key)
        if whole is None:
            return [(lo, hi, False)]
        ends = [
            (bisect_left(keys, q + a, lo, hi, key=key), bisect_left(keys, q + b, lo, hi, key=key))
            for a, b in _word_ends(q)
        ]
        non_ascii = (bisect_left(keys, q + "\x80", lo, hi, key=key), hi, True)
        if whole:
            return [(a, b, False) for a, b in ends if a < b] + [non_ascii]
        rest, at = [], lo
        for a, b in ends:
            rest.append((at, a, False))
            at = b
        return [r for r in rest if r[0] < r[1]] + [non_ascii]

    def ids_in(self, tier: str, lo: int, hi: int, q: str = "", whole: bool | None = None) -> list[int]:
        """The name ids of a range of the tier's sorted keys; with ``whole``, only those where ``q``
        ends a word (True) or does not (False)."""
        if whole is None:
            if tier != "word":
                return [self.ids[k] for k in self.prefix[lo:hi]]
            return [self.ids[bisect_right(self.starts, p) - 1] for p in self.word[lo:hi]]
        if tier != "word":
            at = [(self.ids[k], self.starts[k]) for k in self.prefix[lo:hi]]
        else:
            at = [(self.ids[bisect_right(self.starts, p) - 1], p) for p in self.word[lo:hi]]
        n = len(q)
        return [i for i, p in at if self.ends_word(q, p + n) == whole]

    def ends_word(self, q: str, end: int) -> bool:
        """Whether ``q``, matched before position ``end``, ends a word there: the name ends, or what
        follows is a space or another character that is no letter or digit (:func:`_word_ends`)."""
        after = self.text[end : end + 2]
        if after[:1] >= "\x80":
            return not after[0].isalnum()
        return any(a <= after < b for a, b in _word_ends(q))

    def find(
        self,
        needle: str,
        tier: str,
        wanted: Callable[[int], Hashable | None],
        enough: int,
        whole: bool | None = None,
    ) -> list[int]:
        """Name ids where ``needle`` occurs in this tier's sense, in ranking order.

        ``wanted`` maps a name id to its entity when that entity may still be added (else None); the
        scan stops once ``enough`` different such entities were found. ``whole`` as in :meth:`ids_in`.
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
            if whole is not None and self.ends_word(needle, pos + len(needle)) != whole:
                fresh = False
            owner = wanted(self.ids[k]) if fresh else None
            if owner is not None:
                owners.add(owner)
                out.append(self.ids[k])
            pos = text.find(needle, pos + 1)
        return out


# --- what tells namesakes apart -------------------------------------------------------------------

_DCT = "http://purl.org/dc/terms/"
MAKER_PROPERTIES: tuple[tuple[str, ...], ...] = (
    tuple(
        _AIKG + p
        for p in (
            "manufacturer",
            "developer",
            "submitter",
            "operator",
            "operatedBy",
            "builder",
            "inOrganization",
            "priceListOf",
        )
    )
    + (_DCT + "publisher",),
    tuple(
        _AIKG + p
        for p in (
            "provider",
            "lessor",
            "investor",
            "customer",
            "lessee",
            "investee",
            "party",
            "agent",
            "claimant",
            "heldBy",
            "trainedModel",
            "phaseOf",
            "facility",
            "capacityUser",
            "workload",
            "attributedTo",
            "derivedFor",
        )
    ),
)
"""Who made, runs or is party to a thing, most telling first: a hit's description names the first
group that has any (up to two names), so "GB300 · GPU · NVIDIA" and "deal · CoreWeave, Microsoft"."""

DATE_PROPERTIES = (_AIKG + "releaseDate", _AIKG + "availableFrom", _AIKG + "date", _DCT + "issued")
"""The dates a hit's year comes from, in this order."""

_YEAR = re.compile(r"^[0-9]{4}(?![0-9])")
_DESCRIBE_QUERY = "SELECT ?e ?p ?o WHERE { VALUES ?e { %s } VALUES ?p { %s } ?e ?p ?o }"


@dataclass(frozen=True)
class Description:
    """What a search hit shows under its name: its kind, who made or is party to it, its year."""

    kind: str
    makers: tuple[EntityInfo, ...]
    year: str | None

    def text(self) -> str:
        """One line: "GPU · NVIDIA · 2025"."""
        parts = [self.kind, ", ".join(m.label for m in self.makers), self.year or ""]
        return " · ".join(p for p in parts if p)


def describe(store: Store, index: LiveIndex | SearchIndex, hits: Iterable[Hit]) -> dict[str, Description]:
    """A :class:`Description` of each hit, from one query over just these entities (nothing extra is
    held in the index, so it stays lean and a write is described correctly at once)."""
    hits = list(hits)
    if not hits:
        return {}
    props = [p for group in MAKER_PROPERTIES for p in group] + list(DATE_PROPERTIES)
    values = " ".join(f"<{h.entity.iri}>" for h in hits)
    found: dict[str, dict[str, list[str]]] = {}
    result = store.query(_DESCRIBE_QUERY % (values, " ".join(f"<{p}>" for p in props)))
    for e, p, o in result.values():
        if e is None or p is None or o is None:
            continue
        per = found.setdefault(e, {}).setdefault(p, [])
        if o not in per:
            per.append(o)
    out = {}
    for h in hits:
        facts = found.get(h.entity.iri, {})
        makers: list[EntityInfo] = []
        for group in MAKER_PROPERTIES:
            for p in group:
                for o in facts.get(p, ()):
                    info = index.entities.get(o)
                    if info is not None and info.iri != h.entity.iri and info not in makers:
                        makers.append(info)
            if makers:
                break
        years = [d[:4] for p in DATE_PROPERTIES for d in sorted(facts.get(p, ())) if _YEAR.match(d)]
        year = years[0] if years else None
        kind = ", ".join(index.vocab.label(t) for t in h.entity.types)
        out[h.entity.iri] = Description(kind, tuple(makers[:2]), year)
    return out


# --- ranking by links, and queries of several words --------------------------------------------------

RERANKED = 50
"""Hits at the head of a search that are ordered by their links (the rest keep the index's order): a
fixed number, so every page of a search agrees on the order."""
HUB_LINKS = 20
HUB_RATIO = 10
"""A thing whose name starts with the query comes before an exact match when it has at least this many
links, and this many times as many as every exact match (CoreWeave, 40 links, before the model CoRe, 2)."""
MAX_PARTY_POOL = 400
"""Entities matching a query's rarest word past which its parties are not searched (too common a word)."""
TIER_ORDER = {"exact": 0, "prefix": 1, "word": 2, "substring": 3, "words": 4, "parties": 5, "misspelt": 6}
MISSPELT_MIN = 4
"""Shortest query (letters, spaces aside) tried as a misspelling when no name matches it: a shorter one is
within an edit of too many names to mean one."""
_RDF_TYPE = _TYPE
_LINKS_QUERY = (
    "SELECT ?e (COUNT(?x) AS ?n) WHERE { VALUES ?e { %s } "
    "{ ?e ?p ?x FILTER (isIRI(?x) && ?p != <" + _RDF_TYPE + ">) } UNION { ?x ?q ?e } } GROUP BY ?e"
)
_PARTY_PROPERTIES = " ".join(f"<{p}>" for group in MAKER_PROPERTIES for p in group)
_LINKED_QUERY = (
    "SELECT DISTINCT ?e WHERE { VALUES ?x { %s } VALUES ?p { " + _PARTY_PROPERTIES + " } ?e ?p ?x }"
)
_PARTIES_QUERY = "SELECT ?e ?x WHERE { VALUES ?e { %s } VALUES ?p { " + _PARTY_PROPERTIES + " } ?e ?p ?x }"


def search(
    store: Store, index: LiveIndex | SearchIndex, query: str, *, type_iri: str | None = None, limit: int = 10
) -> list[Hit]:
    """The best ``limit`` entities for ``query``, as people rank them: the index's tiers (exact, prefix,
    word, substring), then, for several words, entities each word of which matches one of their names
    ("words") or a name of one of their parties ("parties": "openai sb energy" finds the lease between
    them); among equal matches (same tier, kind and word end) the better-known entity, with more links,
    first; and a well-linked thing whose name starts with the query before an exact match of an obscure
    one (see :data:`HUB_RATIO`)."""
    pool = max(limit, RERANKED)
    hits = _matches(store, index, query, type_iri, pool)
    if not any(h.match in _NAME_TIERS for h in hits) and has_han(query) and simplified(query) != query:
        # written in traditional characters (英偉達, 輝達, 華為): the graph's Chinese names are simplified
        query = simplified(query)
        hits = _before(_matches(store, index, query, type_iri, pool), hits)[:pool]
    if not any(h.match in _NAME_TIERS for h in hits):
        bare = without_legal_form(query)
        if bare:
            hits = _before(_matches(store, index, bare, type_iri, pool), hits)[:pool]
    if not hits:
        hits = _misspelt(index, normalize(query).replace(_SEP, ""), type_iri, pool)
    head, tail = hits[:RERANKED], hits[RERANKED:]
    return _descending((_by_links(head, link_counts(store, [h.entity.iri for h in head])) + tail)[:limit])


_NAME_TIERS = frozenset({"exact", "prefix", "word", "substring"})
"""Tiers where one name holds the query: a hit of theirs means the query named something."""
LEGAL_FORMS = frozenset(
    {"inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited", "llc", "plc", "pbc"}
    | {"gmbh", "ag", "sa", "group", "holdings"}
)
"""Words of a company's legal name that the graph's names leave out ("Anthropic PBC", "Microsoft
Corporation", "Alibaba Group", "OpenAI, Inc."): tried without them when the whole query names nothing."""
LEGAL_FORMS_ZH = ("有限公司", "公司", "集团", "集團")
"""The same at the end of a Chinese name (阿里巴巴集团, 华为技术有限公司 is not stripped past 公司)."""


def without_legal_form(query: str) -> str | None:
    """``query`` without the legal-form words it ends with, or None when it ends with none (or is
    nothing but them)."""
    words = [w.strip(".,") for w in normalize(query).replace(_SEP, "").split()]
    while words and words[-1] in LEGAL_FORMS:
        words.pop()
    bare = " ".join(w for w in words if w)
    for form in LEGAL_FORMS_ZH:
        if bare.endswith(form) and len(bare) > len(form):
            bare = bare[: -len(form)].strip()
            break
    return bare if bare and bare != normalize(query) else None


def _matches(
    store: Store, index: LiveIndex | SearchIndex, query: str, type_iri: str | None, pool: int
) -> list[Hit]:
    """The index's hits for ``query``; for several words, first the names that hold them written
    together ("gb 200", "H-100", "Trainium 2", "x ai": a separator typed where the name has none),
    then the entities each word names ("words", "parties")."""
    hits = index.search(query, type_iri=type_iri, limit=pool)
    words = normalize(query).replace(_SEP, "").split()
    if len(words) > 1:
        joined = [
            h
            for h in index.search("".join(words), type_iri=type_iri, limit=pool)
            if h.match == "exact" or (h.match in ("prefix", "word") and h.whole)
        ]
        hits = _before(joined, hits)[:pool]
    if len(words) > 1 and len(hits) < pool:
        seen = {h.entity.iri for h in hits}
        hits += _all_words(store, index, words, type_iri, seen)[: pool - len(hits)]
    return hits


def _before(first: list[Hit], then: list[Hit]) -> list[Hit]:
    """Both lists' hits, one per entity, ranked by score (a tie keeps ``first`` first)."""
    seen = {h.entity.iri for h in first}
    merged = first + [h for h in then if h.entity.iri not in seen]
    return sorted(merged, key=lambda h: -h.score)


def misspellings(
    index: LiveIndex | SearchIndex, q: str, type_iri: str | None = None
) -> list[tuple[int, Hit]]:
    """Entities ``q`` (normalized) may misspell, as (edits, hit), one per entity, fewest edits (then
    shortest label) first: names that share its first letters and are within one edit of it (two past six
    letters; a transposition counts one). Nothing within the distance gives nothing: no guess past it.
    The search box (:func:`search`) and the question reader (:mod:`aikg.ask.linking`) both use it."""
    squeezed = q.replace(" ", "")
    allowed = 1 if len(squeezed) <= 6 else 2
    found: dict[str, tuple[int, Hit]] = {}
    for prefix, pool in ((squeezed[:3], 40), (squeezed[:2], 80)):
        for h in index.search(prefix, type_iri=type_iri, limit=pool):
            d = min(OSA.distance(squeezed, normalize(n).replace(" ", "")) for n in (h.name, h.entity.label))
            if d <= allowed and (h.entity.iri not in found or d < found[h.entity.iri][0]):
                found[h.entity.iri] = (d, h)
        if found:
            break
    return sorted(found.values(), key=lambda dh: (dh[0], len(dh[1].entity.label)))


def _misspelt(index: LiveIndex | SearchIndex, q: str, type_iri: str | None, limit: int) -> list[Hit]:
    """The hits of a query that matched no name ("nvidai", "Micrsoft"): the entities it may misspell with
    the fewest edits, marked so and scored below every real match. Only a query of one or two Latin
    words is tried; a person typing more gets the words tier."""
    if len(q.replace(" ", "")) < MISSPELT_MIN or len(q.split()) > 2 or not q.isascii():
        return []
    found = misspellings(index, q, type_iri)
    fewest = found[0][0] if found else 0
    score = round(TIER_BASE["misspelt"] + 0.1 - 0.03 * fewest, 4)
    return [replace(h, match="misspelt", score=score, whole=False) for d, h in found[:limit] if d == fewest]


def _descending(hits: list[Hit]) -> list[Hit]:
    """The hits with scores that never rise down the list: a client that sorts by score (or keeps those
    above a cut) must get the order :func:`search` chose, not the index's tiers again; a hit ranked
    below a weaker match for its links gets that match's score."""
    out: list[Hit] = []
    for h in hits:
        if out and h.score > out[-1].score:
            h = replace(h, score=out[-1].score)
        out.append(h)
    return out


def link_counts(store: Store, iris: Iterable[str]) -> dict[str, int]:
    """How many links (statements between it and another node, either way, types left out) each entity
    has: how well known it is, in one query over just these entities."""
    wanted = list(dict.fromkeys(iris))
    if not wanted:
        return {}
    rows = store.query(_LINKS_QUERY % " ".join(f"<{i}>" for i in wanted)).values()
    return {e: int(n) for e, n in rows if e is not None and n is not None}


def _by_links(hits: list[Hit], links: Mapping[str, int]) -> list[Hit]:
    def bucket(h: Hit) -> int:  # a factor of two in links counts; 10 against 11 does not
        return (links.get(h.entity.iri, 0) + 1).bit_length()

    ordered = sorted(
        hits,
        key=lambda h: (
            TIER_ORDER[h.match],
            h.kind,
            not h.whole,
            -bucket(h),
            -h.score,
            h.entity.label,
            h.entity.iri,
        ),
    )
    exact = [links.get(h.entity.iri, 0) for h in ordered if h.match == "exact"]
    if exact:
        least = max(HUB_LINKS, HUB_RATIO * max(1, max(exact)))
        hub = next(
            (
                h
                for h in ordered
                if h.match == "prefix" and h.kind == THING and links.get(h.entity.iri, 0) >= least
            ),
            None,
        )
        if hub is not None:
            ordered.remove(hub)
            ordered.insert(0, hub)
    return ordered


def _all_words(
    store: Store,
    index: LiveIndex | SearchIndex,
    words: list[str],
    type_iri: str | None,
    seen: AbstractSet[str],
) -> list[Hit]:
    """Entities each word of which starts a word of one of their names ("words"), or of a name of one of
    their parties (deal parties, makers, operators: :data:`MAKER_PROPERTIES`; "parties")."""
    sets = [index.word_owners(w) for w in words]
    own = set.intersection(*sets)
    via: set[str] = set()
    rarest = min(sets, key=len)
    if 0 < len(rarest) <= MAX_PARTY_POOL:
        values = " ".join(f"<{i}>" for i in sorted(rarest))
        pool = {row[0] for row in store.query(_LINKED_QUERY % values).values() if row[0] is not None} | rarest
        pool -= own
        if pool:
            parties: dict[str, set[str]] = {}
            values = " ".join(f"<{i}>" for i in sorted(pool))
            for e, x in store.query(_PARTIES_QUERY % values).values():
                if e is not None and x is not None:
                    parties.setdefault(e, set()).add(x)
            via = {e for e in pool if all(e in s or not parties.get(e, set()).isdisjoint(s) for s in sets)}
    vocab = index.vocab
    allowed = vocab.descendants(type_iri) if type_iri else None
    records = record_classes(vocab)
    hits = []
    for match, found in (("words", own), ("parties", via)):
        for iri in found - seen:
            info = index.entities.get(iri)
            if info is None or (allowed is not None and not any(t in allowed for t in info.types)):
                continue
            kind = kind_rank(vocab, info.types, records)
            score = TIER_BASE[match] + 0.06 * (RECORD - kind) + 0.025 / (1 + len(info.label) / 40)
            hits.append(Hit(info, info.label, match, round(score, 4), kind, True))
    return sorted(
        hits, key=lambda h: (TIER_ORDER[h.match], h.kind, len(h.entity.label), h.entity.label, h.entity.iri)
    )


def type_json(vocab: Vocabulary, iri: str) -> dict[str, str]:
    """A class as JSON: IRI, local name and English label."""
    return {"iri": iri, "name": local_name(iri), "label": vocab.label(iri)}


# --- following writes ----------------------------------------------------------------------------------

OVERLAY_MAX = 5_000
"""Subjects written since the full index was built past which it is rebuilt (then with no overlay)."""

BACKGROUND_REBUILD = 50_000
"""Names past which a rebuild runs in the background (the previous index answering meanwhile)."""


class _Overlaid(Directory):
    """The base index's entities with the written ones replaced by the overlay's."""

    def __init__(
        self, base: Mapping[str, EntityInfo], overlay: Mapping[str, EntityInfo], hidden: AbstractSet[str]
    ) -> None:
        self._base, self._overlay, self._hidden = base, overlay, hidden
        self._len = len(base) - sum(1 for iri in hidden if iri in base) + len(overlay)

    def __getitem__(self, iri: str) -> EntityInfo:
        return (self._overlay if iri in self._hidden else self._base)[iri]

    def _find(self, iri: str) -> EntityInfo | None:
        return (self._overlay if iri in self._hidden else self._base).get(iri)

    def __contains__(self, iri: object) -> bool:
        return iri in (self._overlay if iri in self._hidden else self._base)

    def __iter__(self) -> Iterator[str]:
        yield from (iri for iri in self._base if iri not in self._hidden)
        yield from self._overlay

    def __len__(self) -> int:
        return self._len


_Rows = dict[str, tuple[frozenset[NameRow], frozenset[tuple[str, str]]]]


class LiveIndex:
    """The full index of one store version, with the subjects written since laid over it.

    A search merges the full index's hits (less the written subjects) with the overlay's; the ranking
    is the same as one index over both, since each side returns its own best ``limit`` entities.
    """

    def __init__(self, base: SearchIndex, base_version: int, version: int, rows: _Rows | None = None) -> None:
        self.base, self.base_version, self.version = base, base_version, version
        self.vocab = base.vocab
        self._rows: _Rows = rows or {}
        self.touched = frozenset(self._rows)
        self.overlay: SearchIndex | None = None
        self.entities: Mapping[str, EntityInfo] = base.entities
        self.identity: str | None = None
        """The identity of the data this index reflects, when known: what it is kept under."""
        self.kept = False
        """True when this very index is kept already (loaded, or kept as it was built)."""
        if self._rows:
            overlay = SearchIndex(
                (n for names, _ in self._rows.values() for n in names),
                (t for _, types in self._rows.values() for t in types),
                self.vocab,
            )
            self.overlay = overlay
            self.entities = _Overlaid(base.entities, overlay.entities, self.touched)

    def __len__(self) -> int:
        return len(self.base) + (len(self.overlay) if self.overlay is not None else 0)

    @property
    def rows(self) -> _Rows:
        """The names and types of the subjects written since the base index was built."""
        return self._rows

    def search(self, query: str, *, type_iri: str | None = None, limit: int = 10) -> list[Hit]:
        """The best ``limit`` entities whose names match ``query``, one hit per entity, ranked."""
        hits = self.base.search(query, type_iri=type_iri, limit=limit, hidden=self.touched)
        if self.overlay is None:
            return hits
        return _ranked(hits + self.overlay.search(query, type_iri=type_iri, limit=limit))[:limit]

    def word_owners(self, word: str) -> set[str]:
        """Every entity with a name of which a word starts with ``word`` (see SearchIndex.word_owners)."""
        owners = self.base.word_owners(word, hidden=self.touched)
        return owners | self.overlay.word_owners(word) if self.overlay is not None else owners

    def types_of(self, info: EntityInfo) -> list[dict[str, str]]:
        """An entity's most specific types as JSON (IRI, local name, label)."""
        return self.base.types_of(info)

    def follow(self, store: Store, now: int, changed: AbstractSet[str]) -> LiveIndex:
        """This index brought to version ``now`` by re-reading ``changed``, the subjects written since."""
        rows = dict(self._rows)
        rows.update(_rows_of(store, {s for s in changed if s.startswith(_ID)}))
        return LiveIndex(self.base, self.base_version, now, rows)


def _rows_of(store: Store, subjects: Iterable[str]) -> _Rows:
    """The current names and types of ``subjects`` (an entity with none is gone)."""
    out: _Rows = {}
    label, alt, rdf_type = ox.NamedNode(_LABEL), ox.NamedNode(_ALT_LABEL), ox.NamedNode(_TYPE)
    for s in subjects:
        node = ox.NamedNode(s)
        names = frozenset(
            (s, p.value, q.object.value, q.object.language)
            for p in (label, alt)
            for q in store.quads(node, p)
            if isinstance(q.object, ox.Literal)
        )
        types = frozenset(
            (s, q.object.value) for q in store.quads(node, rdf_type) if isinstance(q.object, ox.NamedNode)
        )
        out[s] = (names, types)
    return out


def _build(store: Store, vocab: Vocabulary) -> SearchIndex:
    gc.disable()  # hundreds of thousands of small objects: collections would only slow the build
    try:
        # One string object per distinct IRI: every row brings its own copies.
        one: dict[str, str] = {}
        names = list(
            {
                (one.setdefault(s, s), prop, name, lang)
                for prop in (_LABEL, _ALT_LABEL)
                for s, name, lang in _select(store, _NAMES_QUERY % prop)
                if s.startswith(_ID)
            }
        )
        types = (
            (one.setdefault(s, s), one.setdefault(t, t))  # streamed: the directory dedupes them
            for s, t, _ in _select(store, _TYPES_QUERY)
            if s.startswith(_ID)
        )
        return SearchIndex(names, types, vocab)
    finally:
        gc.enable()


class IndexNotReady(StoreError):
    """The search index of this data is still being built; the client should retry shortly."""

    title = "index not ready"


class SearchIndexes:
    """The search index of one store, kept current: built on first use, then following writes.

    After a gated write the written subjects (from the write log) are re-read into the overlay by the
    first reader (milliseconds), so a write is searchable as soon as it returns. After any other
    change, or once the overlay is large, the full index is rebuilt: at once when small, else in the
    background with the previous index answering meanwhile.
    """

    def __init__(
        self,
        store: Store,
        writelog: WriteLog,
        vocabulary: Callable[[], Vocabulary],
        *,
        keep: Path | None = None,
    ) -> None:
        self.store, self.writelog, self.vocabulary = store, writelog, vocabulary
        self.keep = keep
        """A folder where built indexes are kept by the identity of the data they index (the serving
        folder): a restart, or another HTTP worker, loads the index instead of building it again."""
        self._lock = threading.Lock()
        self._view: LiveIndex | None = None
        self._rebuilding = False
        self._built = threading.Event()

    def _fresh(self) -> LiveIndex:
        version = self.store.version  # read first: a write during the build is then followed afterwards
        snapshot = self.store.snapshot() if self.keep is not None else None
        if snapshot is None or self.keep is None:
            return LiveIndex(_build(self.store, self.vocabulary()), version, version)
        # Built from the snapshot itself, so the index is exactly that data's, whatever is written meanwhile.
        identity = snapshot.data_id()
        kept = _kept_path(self.keep, identity)
        found = _load_kept(kept)
        if found is None:
            frozen = open_snapshot(snapshot)
            try:
                found = (_build(frozen, self.vocabulary()), {})
            finally:
                frozen.close()
            _keep(kept, found)
        index, rows = found
        live = LiveIndex(index, snapshot.version, snapshot.version, rows)
        live.identity, live.kept = identity, True
        return live

    def keep_current(self) -> None:
        """Keep the index as it stands, writes followed included, under the identity of the data it
        reflects, so the next start on that data loads it instead of building it (as the service
        closes: a restart after writes otherwise rebuilt the whole index, 8-11 s at 1M quads)."""
        if self.keep is None or self._view is None:
            return
        try:
            view = self.current()  # writes since the last request followed first (as a request would)
        except AikgError:
            view = self._view
        if not view.kept and view.identity is not None:
            _keep(_kept_path(self.keep, view.identity), (view.base, view.rows))

    def _identity(self, version: int) -> str | None:
        """The identity of the data at ``version`` (see ``Snapshot.data_id``), read while its snapshot is
        there (the writer removes its snapshots as it stops, before the HTTP workers close)."""
        if self.keep is None:
            return None
        try:
            snapshot = self.store.snapshot()
            if snapshot is None or snapshot.version != version:
                return None  # the data moved on meanwhile: better no identity than a wrong one
            return snapshot.data_id()
        except (AikgError, OSError):
            return None

    def current(self) -> LiveIndex:
        """The index for the store's current data.

        The first index is built in the background, outside any request's deadline (every later request
        shares it); a request waits for it within its own deadline, else gets 503 with Retry-After.
        """
        now = self.store.version  # read before asking whether a write is under way (WriteLog.writing)
        view = self._view
        if view is not None and view.version == now:
            return view
        if view is None:
            return self._first()
        with self._lock:
            view = self._view
            if view is not None and (view.version == now or self.writelog.writing()):
                return view  # up to date, or a gated write is committing: its record follows at once
            changed = self.writelog.since(view.version, now) if view is not None else None
            new = view.follow(self.store, now, changed) if view is not None and changed is not None else None
            large = view is not None and len(view) > BACKGROUND_REBUILD
            if new is None and large and view is not None:  # (large implies a view)
                self._rebuild_in_background()
                return view
            if new is None or (len(new.touched) > OVERLAY_MAX and not large):
                new = self._fresh()
            elif len(new.touched) > OVERLAY_MAX:
                self._rebuild_in_background()
            if new.identity is None:
                new.identity = self._identity(now)
            self._view = new
            return new

    def warm_up(self) -> None:
        """Start the first index (loaded when kept, else built) in the background, without waiting:
        ``aikg serve`` does at boot, so the first search or named query does not wait for it."""
        with self._lock:
            if self._view is None and not self._rebuilding:
                self._built.clear()
                self._rebuild_in_background()

    def _first(self) -> LiveIndex:
        self.warm_up()
        deadline = current_deadline()
        if not self._built.wait(None if deadline is None else max(0.0, deadline.left())):
            raise IndexNotReady(
                "the search index is being built for this data (it takes a few seconds "
                "on a large store, once); retry shortly",
                headers={"Retry-After": "5"},
            )
        view = self._view
        if view is None:
            raise IndexNotReady(
                "the search index could not be built; retry shortly", headers={"Retry-After": "5"}
            )
        return self.current() if view.version != self.store.version else view

    def _rebuild_in_background(self) -> None:
        if self._rebuilding:
            return
        self._rebuilding = True
        threading.Thread(target=self._rebuild, daemon=True, name="search-index").start()

    def _rebuild(self) -> None:
        try:
            with unbounded():
                fresh = self._fresh()
            with self._lock:
                self._view = fresh  # the next reader follows the writes made during the build
        except Exception:  # noqa: BLE001 - a failed build is retried by the next reader
            log.exception("building the search index failed")
        finally:
            self._rebuilding = False
            self._built.set()


KEPT = 3
"""Kept indexes per folder: the current data's, and a few before it (readers still on them)."""


Kept = tuple["SearchIndex", _Rows]
"""What is kept for a later start: the full index and the subjects' rows laid over it."""

KEPT_FORMAT = 5
"""The layout of a kept index, written first in its file: one of another layout is rebuilt, not
loaded (2: the directory held as columns, :class:`Entities`; 3: every dash separates words; 4: so do
double quotes; 5: Latin accents dropped, :func:`normalize`)."""


_TMP_PID = re.compile(r"\.([0-9]+)\.tmp$")
"""The pid of the process writing a kept index, in the name of its file until it is complete."""


def _running(pid: int) -> bool:
    """True when ``pid`` names a running process (or cannot be told)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        pass  # it runs, as another user
    return True


def _kept_path(folder: Path, identity: str) -> Path:
    """Where the index of the data ``identity`` names is kept: the layout is in the name too, so a
    server of another aikg version on the same store keeps its own file instead of replacing this."""
    return folder / f"search-{KEPT_FORMAT}-{identity}.pickle"


def _load_kept(path: Path) -> Kept | None:
    """A kept index (written by this service into its own folder), or None when there is none usable."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    gc.disable()  # hundreds of thousands of small objects
    try:
        kept = pickle.loads(data)
    except Exception:  # noqa: BLE001 - a damaged or older file is rebuilt, never trusted
        return None
    finally:
        gc.enable()
    match kept:
        case (int() as layout, SearchIndex() as index, dict() as rows) if layout == KEPT_FORMAT:
            return index, rows
    return None


def _keep(path: Path, index: Kept) -> None:
    """Write an index for later starts (atomically), and drop the oldest beyond :data:`KEPT`."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps((KEPT_FORMAT, *index), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, path)
        kept = sorted(path.parent.glob("search-*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in kept[:-KEPT]:
            old.unlink(missing_ok=True)
        for partial in path.parent.glob("search-*.tmp"):  # left by a process stopped while it wrote one
            writer = _TMP_PID.search(partial.name)
            if writer is not None and not _running(int(writer.group(1))):
                partial.unlink(missing_ok=True)
    except OSError:
        pass  # a folder that cannot be written only costs the next start a build


_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def cell_json(term: Term | None, index: LiveIndex) -> dict[str, Any] | None:
    """One result value as the named-query API and the ask answers give it: its lexical form and kind,
    and for entities their id and label (a vocabulary term: its label)."""
    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        iri = term.value
        cell: dict[str, Any] = {"value": iri, "type": "uri"}
        info = index.entities.get(iri)
        if info is not None:
            cell["id"] = info.slug
            cell["label"] = info.label
        elif iri in index.vocab.labels:
            cell["label"] = index.vocab.label(iri)
        return cell
    if isinstance(term, ox.Literal):
        cell = {"value": term.value, "type": "literal"}
        if term.language:
            cell["lang"] = term.language
        elif term.datatype.value != _XSD_STRING:
            cell["datatype"] = term.datatype.value
        return cell
    return {"value": term.value, "type": "bnode"}
