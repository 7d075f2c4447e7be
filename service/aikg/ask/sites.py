"""One site named by its organization and a place (issue 44).

"How confident is Epoch about Microsoft's cluster in Des Moines?", "Amazon's Madison campus", "Reliance's
planned supercomputer in Jamnagar", "Nebius 新泽西那个集群", "the Frontier supercomputer at Oak Ridge": the
question names a cluster or a data center by the organization that runs it and a place, which its label need
not hold — Epoch writes the place in its Location column ("Des Moines, Iowa") or in another name of the site
("Amazon Madison Mega Site"). The linker found the organization only, so the answer was the organization's
every site, or none, the place a word not understood.

A mention of an organization becomes a mention of its one site when the words of its clause (before or
after it) that are words of a site's names or address — no question word (``EntityLinker.vocabulary``), no
country or region the composer filters on, no word of the organization's own name — are all words of one
site only, among the sites it (or a part of it) operates or owns or whose names hold its name; of a cluster
and a data center so named, the class the question says. Two sites at that place (Yandex's two clusters in
Sasovo), or a place where it has none, link nothing: the place stays a word not understood, and the answer
is not sure. Several sites asked for ("clusters", 哪些, 几个) are a filter, not one site: left alone.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz.distance import OSA

from aikg.ask.linking import Candidate, Mention
from aikg.ask.text import STOPWORDS
from aikg.ask.words import COUNTRIES, REGIONS
from aikg.lookup.search import normalize

AIKG = "https://w3id.org/aikg/ontology#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SKOS = "http://www.w3.org/2004/02/skos/core#"
CLUSTER = AIKG + "Deployment"
DATA_CENTER = AIKG + "DataCenter"

SITES_QUERY = (
    "SELECT ?site ?type ?name ?place ?org WHERE {"
    f" VALUES ?type {{ <{CLUSTER}> <{DATA_CENTER}> }} ?site a ?type ."
    f" {{ ?site <{RDFS}label>|<{SKOS}altLabel> ?name }}"
    f" UNION {{ ?site <{AIKG}locationName> ?place }}"
    f" UNION {{ ?site (<{AIKG}operator>|<{AIKG}owner>)/<{AIKG}parentOrganization>* ?org }} }}"
)
"""Every cluster and data center with its names, the places Epoch writes for it and who runs or owns it (or
the organization that one is a part of: Google Cloud's site is Google's)."""

_WORD = re.compile(r"[^\W\d_]+")
_CJK = re.compile(r"[\u3400-\u9fff]")
_CLAUSE = re.compile(r"[,，;；。?？!！、:：]")
WINDOW = 48
"""Characters of a clause looked at on each side of the organization's name."""
SHORTEST = 3
"""Letters of the shortest place word ("Pau"; "in", "of" are none)."""

CLUSTER_WORDS = re.compile(r"\bclusters?\b|\bsupercomputers?\b|集群|超算|超级计算机")
"""The question names a cluster."""
DATA_CENTER_WORDS = re.compile(r"\bdata\s*cent(?:er|re)s?\b|\bcampus(?:es)?\b|\bsites?\b|数据中心|园区")
"""The question names a data center (a site, a campus)."""
SEVERAL = re.compile(
    r"\b(?:clusters|supercomputers|data\s*cent(?:er|re)s|sites|campuses)\b|哪些|几个|多少个|哪几"
)
"""The question asks for several sites: the place filters them, it names no one site."""
NOT_PLACES = frozenset(w for w in (*COUNTRIES, *REGIONS) if w.isascii()) | frozenset(
    {"cluster", "supercomputer", "supercluster", "data", "center", "centre", "datacenter", "campus", "site"}
    | {"facility", "phase"}
)
"""Countries and regions the composer filters on ("Google's clusters in Texas"), and the words of the classes
of sites: no one site's place."""


@dataclass
class Sites:
    """The clusters and data centers: their types, the words of their names and places, their
    organizations."""

    types: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    words: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    names: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    of_org: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    every_word: set[str] = field(default_factory=set)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(normalize(text)) if not _CJK.search(w)}


def sites_of(rows: Iterable[tuple[str, str, str | None, str | None, str | None]]) -> Sites:
    """The sites of the rows of :data:`SITES_QUERY` (site, type, name, place, organization)."""
    out = Sites()
    for site, kind, name, place, org in rows:
        out.types[site].add(kind)
        for text in (name, place):
            if text:
                out.words[site] |= _words(text)
        if name:
            out.names[site] |= _words(name)
        if org:
            out.of_org[org].add(site)
    out.every_word = {w for ws in out.words.values() for w in ws}
    return out


def with_sites(
    folded: str,
    mentions: list[Mention],
    sites: Sites,
    entities: Mapping[str, Any],
    vocabulary: AbstractSet[str],
    orgs: AbstractSet[str],
    question: str = "",
) -> list[Mention]:
    """The mentions, an organization's mention with the place words of its clause read as its one site
    (``orgs``: the classes of organizations; ``question``: as typed, where a place is written capitalized)."""
    if SEVERAL.search(folded) or not sites.words:
        return mentions
    out = list(mentions)
    for m in mentions:
        named = [c for c in m.candidates if c.how == m.best.how and set(c.types) & orgs]
        if m not in out or not named or named[0] is not m.best:
            continue
        own = _named(m)
        owned = set().union(*(sites.of_org.get(c.iri, set()) for c in named))
        if own:
            owned |= {s for s, ws in sites.names.items() if own <= ws}
        if not owned:
            continue
        near = set().union(*(sites.words[s] for s in owned))
        places = [
            p
            for p in _places(folded, m, out, sites, own | _words(m.best.label), vocabulary, near, question)
            if _proper(folded[p[0] : p[1]], question)
        ]
        if not places:
            continue
        words = {w for _, _, w in places}
        if not words <= set().union(*(sites.words[s] for s in owned)):
            continue  # a place where it has no site: nothing to name
        found = sorted(s for s in owned if words <= sites.words[s])
        site = _of_class(folded, found, sites)
        info = entities.get(site) if site else None
        if site is None or info is None:
            continue
        start = min(m.start, places[0][0])
        end = max(m.end, places[-1][1])
        # the words of its place around the ones found ("Shackelford *County*"), whatever else they may name
        for w in _WORD.finditer(folded, end):
            if folded[end : w.start()].strip() or w.group() not in sites.words[site]:
                break
            end = w.end()
        out = [o for o in out if o is m or o.end <= start or o.start >= end]
        out[out.index(m)] = Mention(
            start,
            end,
            folded[start:end],
            "word",
            [Candidate(info.iri, info.slug, info.label, info.types, "word", 0.7)],
        )
    return sorted(out, key=lambda o: o.start)


def _named(m: Mention) -> set[str]:
    """The words the question names the organization by, when they are Latin ("Oak Ridge", "Stargate")."""
    return {w for w in _words(m.text) if len(w) >= 2}


def _places(
    folded: str,
    m: Mention,
    mentions: list[Mention],
    sites: Sites,
    own: set[str],
    vocabulary: AbstractSet[str],
    near: AbstractSet[str] = frozenset(),
    question: str = "",
) -> list[tuple[int, int, str]]:
    """The words of the organization's clause that may be a site's place: a word of some site's names or
    address, none of the question words, countries, regions or the organization's own names, outside the
    question's other names; or a word one letter off a place word of the organization's own sites (``near``:
    "Google's one in Omha" is its Omaha site), read as that word when the question writes it capitalized
    (never "status", one letter off "states")."""
    lo = max(0, m.start - WINDOW)
    hi = min(len(folded), m.end + WINDOW)
    before = [b.end() for b in _CLAUSE.finditer(folded, lo, m.start)]
    after = _CLAUSE.search(folded, m.end, hi)
    lo = before[-1] if before else lo
    hi = after.start() if after else hi
    others = [(o.start, o.end) for o in mentions if o is not m]
    found = []
    for w in _WORD.finditer(folded, lo, hi):
        word = w.group()
        if m.start <= w.start() < m.end or any(s <= w.start() < e for s, e in others):
            continue
        if (
            _CJK.search(word)
            or len(word) < SHORTEST
            or word in vocabulary
            or word in STOPWORDS
            or word in NOT_PLACES
            or word in own
        ):
            continue
        if word not in sites.every_word:
            typo = [p for p in near if len(p) >= 5 and len(word) >= 4 and OSA.distance(word, p) == 1]
            typed = re.search(rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])", question, re.I)
            if len(typo) != 1 or typed is None or not typed.group()[0].isupper():
                continue
            word = typo[0]
        found.append((w.start(), w.end(), word))
    if any(s >= m.end for s, _, _ in found) and any(e <= m.start for _, e, _ in found):
        return []  # places on both sides: two things, not one site
    return found


def _proper(word: str, question: str) -> bool:
    """True when the question as typed writes the word capitalized ("Madison", "Des Moines": a place, not
    "submission", a word of NVIDIA's MLPerf submission cluster), or does not write it at all (a place named
    in Chinese, 麦迪逊, read as its English name)."""
    found = [m.group() for m in re.finditer(rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])", question, re.I)]
    return not found or any(w[0].isupper() for w in found)


def _of_class(folded: str, found: list[str], sites: Sites) -> str | None:
    """The one site found of the class the question names, or None; a site of the other class only when its
    names hold the class's word (NHN Cloud's National AI Data Center is a cluster); of no class named, the one
    site found."""
    for words, kind in ((CLUSTER_WORDS, CLUSTER), (DATA_CENTER_WORDS, DATA_CENTER)):
        if words.search(folded):
            of_kind = [s for s in found if kind in sites.types[s]]
            if not of_kind:
                of_kind = [s for s in found if sites.names[s] & _CLASS_NAMES[kind]]
            return of_kind[0] if len(of_kind) == 1 else None
    return found[0] if len(found) == 1 else None


_CLASS_NAMES = {
    CLUSTER: frozenset({"cluster", "supercomputer", "supercluster"}),
    DATA_CENTER: frozenset({"data", "center", "centre", "datacenter", "campus"}),
}
"""The words of a site's names that say its class, whatever class Epoch files it under."""
