"""Entity linking: which spans of a question name entities, through the search index.

Every span of up to a few tokens is looked up in the search index (names and aliases in both languages):

- an exact name (case, width and separators aside) links at once;
- a span with a digit ("B200", "TPU v4", "A100 SXM4 80 GB") also links to the names it starts a word of
  ("NVIDIA B200"), since people drop the maker's name;
- a span that is no word of the router's vocabulary and has no such match is tried as a misspelling: the
  names that share its first letters, within one or two edits (transpositions count one), link with a
  lower score.

Overlapping spans keep the longest one (then the best matched). A mention keeps several candidates;
which one fills a parameter depends on the class the parameter takes.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Protocol

from aikg.ask.lexicon import AMBIGUOUS_NAMES
from aikg.ask.text import Token
from aikg.ask.words import CLASS_WORDS, OPERATOR_WORDS
from aikg.lookup.search import misspellings, normalize

MAX_SPAN = 6
"""Most tokens (words, or Chinese characters) in a linked name."""
MAX_CJK_SPAN = 10
CANDIDATES = 6
"""Candidates kept per mention."""
MAX_TOKENS = 64
"""Tokens of a question searched for names: each costs up to ten index look-ups, and a question is
rarely longer (a 500-character one would take a second)."""
DERIVATION = "https://w3id.org/aikg/ontology#Derivation"
MAX_MISSPELT = 16
"""Spans tried as misspellings per question (each costs two wider look-ups)."""
OPERATOR_TOKENS = frozenset(w for ws in OPERATOR_WORDS.values() for p in ws for w in p.split() if w.isascii())
"""Words of the operators ("how sure", "who reported"): never a misspelt name ("sure" is not SURF)."""
CLASS_TOKENS = frozenset(w for _, ws in CLASS_WORDS for w in ws if w.isascii() and " " not in w)
"""Class words ("GPUs", "clusters"): a name typed in part does not end with one ("GB300 GPUs" is the
GB300, not a node whose label has both words)."""


class Index(Protocol):
    """What linking needs of the search index (:class:`aikg.search.LiveIndex`)."""

    def search(self, query: str, *, type_iri: str | None = None, limit: int = 10) -> list[Any]: ...


@dataclass(frozen=True, slots=True)
class Candidate:
    """An entity a mention may name: IRI, slug, label, most specific types, and how well it matched."""

    iri: str
    slug: str
    label: str
    types: tuple[str, ...]
    how: str
    score: float


@dataclass(slots=True)
class Mention:
    """A span of the folded question that names an entity, with its candidates best first."""

    start: int
    end: int
    text: str
    how: str
    candidates: list[Candidate] = field(default_factory=list)

    @property
    def best(self) -> Candidate:
        """The first candidate."""
        return self.candidates[0]


_RANK = {"exact": 0, "word": 1, "fuzzy": 2}


def _candidate(hit: Any, how: str, score: float) -> Candidate:
    info = hit.entity
    return Candidate(info.iri, info.slug, info.label, tuple(info.types), how, score)


class EntityLinker:
    """Finds the names in a question; ``vocabulary`` are the router's own words (never misspellings)."""

    def __init__(self, vocabulary: Collection[str]) -> None:
        """Keep the words the examples use, so that "deals" is not read as a misspelt name."""
        self.vocabulary = frozenset(vocabulary)

    def link(
        self, index: Index, folded: str, toks: list[Token], taken: list[tuple[int, int]], original: str
    ) -> list[Mention]:
        """The mentions of ``folded`` (tokens ``toks``), none overlapping ``taken`` or each other;
        ``original`` is the question as typed (an everyday word names something only when capitalized)."""
        found: list[Mention] = []
        budget = [MAX_MISSPELT]
        toks = toks[:MAX_TOKENS]
        for i, first in enumerate(toks):
            if first.stop:
                continue
            longest = MAX_CJK_SPAN if first.cjk else MAX_SPAN
            for j in range(min(len(toks), i + longest) - 1, i - 1, -1):
                last = toks[j]
                if last.stop or any(s < last.end and first.start < e for s, e in taken):
                    continue
                span = toks[i : j + 1]
                if (
                    len(span) == 1
                    and first.text in AMBIGUOUS_NAMES
                    and len(original) == len(folded)
                    and not original[first.start].isupper()
                ):
                    continue
                mention = self._lookup(index, folded, span, budget)
                if mention is None and _capitalized(original, folded, span):
                    mention = self._proper(index, folded, span)
                if mention is not None:
                    found.append(mention)
        return _qualified(_non_overlapping(found), folded)

    def _lookup(self, index: Index, folded: str, span: list[Token], budget: list[int]) -> Mention | None:
        start, end = span[0].start, span[-1].end
        text = folded[start:end]
        norm = normalize(text)
        cjk_only = all(t.cjk for t in span)
        if len(norm) < 2 or (cjk_only and len(span) < 2) or norm.isdigit():
            return None
        hits = index.search(norm, limit=CANDIDATES)
        exact = [h for h in hits if h.match == "exact"]
        joined = _NUMBER_APART.sub("", norm)
        if not hits and joined != norm:
            # "Gaudi 3" is the Gaudi3 (a name that writes its number joined), not another Gaudi; only
            # when the joined name is one thing's ("Qwen 3" is a family of models: not one of them)
            joined_hits = index.search(joined, limit=CANDIDATES)
            if len(joined_hits) == 1 or any(h.match == "exact" for h in joined_hits):
                hits = joined_hits
                exact = [h for h in hits if h.match == "exact"]
        if exact:
            others = [h for h in hits if h.match != "exact"]
            cands = [_candidate(h, "exact", 1.0) for h in exact]
            cands += [_candidate(h, h.match, 0.5 * h.score) for h in others]
            return Mention(start, end, text, "exact", cands)
        if cjk_only:
            return None
        if len(span) > 1 and span[-1].text in CLASS_TOKENS:
            return None
        nary: frozenset[str] = getattr(getattr(index, "vocab", None), "nary", frozenset())
        # n-ary nodes and aikg's own derivations are not what people name ("2,048 H800" is no cost)
        skip = nary | {DERIVATION}
        near = [h for h in hits if h.match in {"prefix", "word"} and not set(h.entity.types) & skip]
        # the model number typed is one of the name's, not the start of another ("v10" is no V100)
        digits = set(_DIGITS.findall(norm))
        near = [h for h in near if digits <= set(_DIGITS.findall(normalize(h.name)))]
        if near and any(c.isdigit() for c in norm):
            return Mention(start, end, text, "word", [_candidate(h, "word", 0.8 * h.score) for h in near])
        if (
            len(near) == 1
            and len(span) >= 2
            and norm.isascii()
            and not any(t.text in self.vocabulary for t in span)
        ):
            # words of one name only, the maker's or the place's left out ("Stargate Abilene": the
            # OpenAI-Oracle Stargate Abilene Texas data center); never a name two things share
            return Mention(start, end, text, "word", [_candidate(near[0], "word", 0.8 * near[0].score)])
        if (
            len(span) <= 2
            and span[0].text not in self.vocabulary
            and span[0].text not in OPERATOR_TOKENS
            and len(norm) >= 4
            and norm.isascii()
            and budget[0] > 0
        ):
            budget[0] -= 1
            if len(span) == 2 and any(
                h.match == "exact" for h in index.search(normalize(span[0].text), limit=CANDIDATES)
            ):
                return None  # "NVIDIA put" is NVIDIA and a word, not a misspelt NVIDIA P40
            return self._misspelt(index, start, end, text, norm)
        return None

    def _proper(self, index: Index, folded: str, span: list[Token]) -> Mention | None:
        """A capitalized name that is whole words of one or two names of one kind ("Fairwater": the
        Microsoft Fairwater data centers; "New Carlisle"; "Moore Threads"), not a word of the router's
        vocabulary nor a place a question asks about ("clusters in Memphis")."""
        start, end = span[0].start, span[-1].end
        text = folded[start:end]
        if all(t.text in self.vocabulary for t in span) or _LOCATIVE.search(folded[:start]):
            return None
        nary: frozenset[str] = getattr(getattr(index, "vocab", None), "nary", frozenset())
        hits = index.search(normalize(text), limit=PROPER_LOOKUP)
        near = [
            h for h in hits if h.match in {"prefix", "word"} and h.whole and not set(h.entity.types) & nary
        ]
        kinds = {tuple(h.entity.types) for h in near}
        if not near or len(near) > PROPER_MOST or len(kinds) > 1:
            return None
        return Mention(start, end, text, "word", [_candidate(h, "word", 0.7 * h.score) for h in near])

    def _misspelt(self, index: Index, start: int, end: int, text: str, norm: str) -> Mention | None:
        ranked = misspellings(index, norm)  # type: ignore[arg-type]  # any index with search()
        # a model number is never misspelt: "TPU v10" is no V100, "GB400 NVL72" no GB200 NVL72 (a thing
        # the graph does not hold, not a typo of one it does); letters around it may be ("MI300XX")
        digits = set(_DIGITS.findall(norm))
        ranked = [(d, h) for d, h in ranked if digits <= set(_DIGITS.findall(normalize(h.name)))]
        if not ranked:
            return None
        return Mention(
            start,
            end,
            text,
            "fuzzy",
            [_candidate(h, "fuzzy", 0.9 - 0.15 * d) for d, h in ranked[:CANDIDATES]],
        )


_NUMBER_APART = re.compile(r"(?<=[a-z]) (?=\d+$)")
"""The space between a name's word and its closing number ("gaudi 3")."""
_DIGITS = re.compile(r"\d+")
PROPER_LOOKUP = 40
"""Hits looked at for a capitalized name (the phases of a data center come before other names)."""
PROPER_MOST = 2
"""Most things a capitalized name may be a word of: more, and it is a place or a common word ("Texas")."""
_LOCATIVE = re.compile(r"(?:\b(?:in|at|near|around|from|of)|位于|在)\s*$")


def _capitalized(original: str, folded: str, span: list[Token]) -> bool:
    """True when every word of the span is written capitalized in the question as typed."""
    if len(original) == len(folded):
        return all(
            not t.cjk and not t.stop and t.text.isalpha() and original[t.start].isupper() for t in span
        )
    # folding changed the length (traditional characters, Chinese place names, numerals read as
    # digits): the span's words are looked up among the words the question capitalizes
    capitalized = {w.casefold() for w in _LATIN_WORD.findall(original) if w[0].isupper()}
    return all(not t.cjk and not t.stop and t.text.isalpha() and t.text in capitalized for t in span)


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def _non_overlapping(found: list[Mention]) -> list[Mention]:
    chosen: list[Mention] = []
    for m in sorted(found, key=lambda m: (-(m.end - m.start), _RANK[m.how], m.start)):
        if all(m.end <= c.start or c.end <= m.start for c in chosen):
            chosen.append(m)
    return sorted(chosen, key=lambda m: m.start)


_QUALIFIER = re.compile(r"(?:\d+\s*(?:gb|tb|g)|sxm\d?|pcie|nvl\d*|oam|hbm\d?e?|v\d+(?:\d+)*)")
"""A word that tells one variant of a chip from another ("A100 *80GB*", "H100 *PCIe*")."""


def _squeezed(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def _qualified(mentions: list[Mention], folded: str) -> list[Mention]:
    """A variant word right after a name narrows that name, never names a thing of its own: in
    "A100 80GB", "80GB" picks the A100's 80 GB variant (not the H100 SXM5 80GB, which a comparison of
    the MI250X and the A100 80GB would add as a third). The variant word is dropped when no candidate of
    the name has it."""
    out: list[Mention] = []
    for m in mentions:
        prev = out[-1] if out else None
        if (
            prev is not None
            and m.how != "exact"
            and _QUALIFIER.fullmatch(_squeezed(m.text))
            and not folded[prev.end : m.start].strip()
        ):
            word = _squeezed(m.text)
            narrowed = [c for c in prev.candidates if word in _squeezed(c.label) or word in _squeezed(c.slug)]
            if narrowed:
                prev.candidates = narrowed
                prev.end = m.end
                prev.text = folded[prev.start : m.end]
            continue
        out.append(m)
    for m in out:
        # a version no name was found for ("MLPerf v4.0"): the name's candidates of that version
        after = _VERSION_AFTER.match(folded, m.end)
        if after is None or any(o.start < after.end() and m.end < o.end for o in out if o is not m):
            continue
        word = _squeezed(after.group(1))
        narrowed = [c for c in m.candidates if re.search(word + r"(?![0-9])", _squeezed(c.slug))]
        if narrowed:
            m.candidates = narrowed
            m.end = after.end()
            m.text = folded[m.start : m.end]
    return out


_VERSION_AFTER = re.compile(r"\s*(v\d+(?:\.\d+)*)(?![\w.])")
