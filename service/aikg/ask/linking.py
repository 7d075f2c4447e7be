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
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from aikg.ask.lexicon import AMBIGUOUS_NAMES
from aikg.ask.text import Token
from aikg.ask.words import CLASS_WORDS, COMPARATORS, OPERATOR_WORDS, PLACE_NAMES, UNITS
from aikg.lookup.search import misspellings, normalize

MAX_SPAN = 6
"""Most tokens (words, or Chinese characters) in a linked name."""
MAX_CJK_SPAN = 10
CANDIDATES = 6
"""Candidates kept per mention."""
MAX_TOKENS = 64
"""Tokens of a question searched for names: each costs up to ten index look-ups, and a question is
rarely longer (a 500-character one would take a second)."""
AIKG = "https://w3id.org/aikg/ontology#"
DERIVATION = AIKG + "Derivation"
CATALOG = "http://www.w3.org/ns/dcat#Catalog"
OWN_NODES = frozenset({DERIVATION, CATALOG})
"""aikg's own nodes — its derivations, its catalogue of sources ("aikg source catalogue") —, which no
question names: "*Source* for xAI's 64M monthly users figure?" capitalizes a provenance word, not a name."""
DEPLOYMENT = AIKG + "Deployment"
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


_BRACKETED = re.compile(r"\s*\([^()]*\)\s*$")


def _unqualified(name: str) -> str | None:
    """A label without the qualifier in brackets it ends with, normalized; None when it has none."""
    bare = _BRACKETED.sub("", name)
    return normalize(bare) if bare != name and bare else None


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
                numeral = last.text == "i" and j > i  # "Kunlun I": a roman numeral, not the pronoun
                if (last.stop and not numeral) or any(s < last.end and first.start < e for s, e in taken):
                    continue
                span = toks[i : j + 1]
                if numeral:
                    mention = self._exact(index, folded, span)
                    if mention is not None:
                        found.append(mention)
                    continue
                if (
                    len(span) == 1
                    and first.text in AMBIGUOUS_NAMES
                    and len(original) == len(folded)
                    and not original[first.start].isupper()
                ):
                    continue
                # "V100S" is a chip of its own, "V100s" the V100 in the plural: only the letter's case tells
                capital_s = last.text.endswith("s") and _capital_s(last.text, original)
                mention = self._lookup(index, folded, span, budget, capital_s)
                if mention is None and _capitalized(original, folded, span):
                    mention = self._proper(index, folded, span)
                if mention is not None:
                    found.append(mention)
        mentions = _one_thing(_versioned(_qualified(_non_overlapping(found), folded), folded), folded)
        mentions = _sites_at_places(mentions, folded, index)
        mentions = _site_named_after_org(mentions, folded, index)
        return _sibling_phases(_not_amounts(mentions, folded), folded, index)

    def _exact(self, index: Index, folded: str, span: list[Token]) -> Mention | None:
        """The mention of a span that is a whole name or the end of one thing's name, else None."""
        start, end = span[0].start, span[-1].end
        hits = index.search(normalize(folded[start:end]), limit=CANDIDATES)
        exact = [_candidate(h, "exact", 1.0) for h in hits if h.match == "exact"]
        if exact:
            return Mention(start, end, folded[start:end], "exact", exact)
        # "Kunlun I": the words that end one name (Baidu Kunlun I), not the start of another's (Kunlun II)
        whole = [h for h in hits if h.match in {"prefix", "word"} and h.whole and h.entity.types]
        if len(whole) != 1:
            return None
        return Mention(
            start, end, folded[start:end], "word", [_candidate(whole[0], "word", 0.8 * whole[0].score)]
        )

    def _lookup(
        self, index: Index, folded: str, span: list[Token], budget: list[int], capital_s: bool = False
    ) -> Mention | None:
        start, end = span[0].start, span[-1].end
        text = folded[start:end]
        norm = normalize(text)
        cjk_only = all(t.cjk for t in span)
        if len(norm) < 2 or (cjk_only and len(span) < 2) or norm.isdigit():
            return None
        hits = index.search(norm, limit=CANDIDATES)
        # a name typed without the qualifier its label ends with ("the new-generation platform": the
        # label "new-generation platform (unnamed in the NMediaLink article)") is that name, exactly
        # (one thing only: "GPT-4" of "GPT-4 (Mar 2023)" and "GPT-4 (Jun 2023)" names both, as variants)
        bare = [h for h in hits if _unqualified(h.name) == norm]
        if len(bare) == 1:
            hits = [replace(h, match="exact") if h is bare[0] else h for h in hits]
        exact = [h for h in hits if h.match == "exact"]
        own = [h for h in hits if h.match in {"prefix", "word"} and h.whole and set(h.entity.types) & _CHIPS]
        own = own if capital_s else []
        if not exact and not own and norm.endswith("s") and any(c.isdigit() for c in norm) and len(norm) >= 4:
            # a chip counted in the plural ("5,000 A100s", "MI250Xs", "TPU v4s", "the most V100s"): the chip,
            # unless the S is a capital one that a chip's name has as a word ("V100S" is a word of the NVIDIA
            # Tesla V100S PCIe 32 GB's name: a chip of its own; "Oracle OCI Supercluster H100s" names a
            # cluster, no chip)
            plural = [
                h
                for h in index.search(norm[:-1], limit=CANDIDATES)
                if (h.match == "exact" or (h.match in {"prefix", "word"} and h.whole))
                and set(h.entity.types) & _CHIPS
            ]
            if plural:
                hits = plural  # read as the chip's name is: exact, or the things whose names have it
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
        skip = nary | OWN_NODES
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
        apart = self._words_apart(index, span, norm, OWN_NODES)
        if apart is not None:
            return Mention(start, end, text, "word", [apart])
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

    def _words_apart(
        self, index: Index, span: list[Token], norm: str, skip: AbstractSet[str]
    ) -> Candidate | None:
        """The one thing whose label has every word of the span as a whole word, in order and with
        others between (:func:`_apart_in`): "Jean Zay phase 4" is the Jean Zay Supercomputer Phase 4,
        "Alps 二期" (read "alps phase 2") the Alps Supercomputer Phase 2. Only for a span with a word
        of no vocabulary ("phase 2" alone names nothing) that ends with a number, a phase's or a
        model's, the label's last word ("phase 3" is no "phase 30"; "the GPT-3 run" is left to the
        words around it), with two words besides numbers ("Meta 3400" is no name of Meta's staff
        figure, "1 GW" none of DataVolt Neom 1.5 GW Phase 1); two such things name none."""
        words = norm.split()
        owners_of = getattr(index, "word_owners", None)
        entities = getattr(index, "entities", None)
        if (
            len(words) < 2
            or owners_of is None
            or entities is None
            or not norm.isascii()
            or not words[-1].isdigit()
            or len([w for w in words if not _NUMBER.fullmatch(w)]) < 2
            or all(t.text in self.vocabulary or t.stop or t.text in UNITS or t.text.isdigit() for t in span)
        ):
            return None
        owners: set[str] | None = None
        for w in sorted(set(words), key=len, reverse=True):
            found = owners_of(w)
            owners = found if owners is None else owners & found
            if not owners:
                return None
        things = []
        for iri in owners or ():
            info = entities[iri]
            if not info.types or set(info.types) & skip:
                continue
            if _apart_in(words, _WORD.findall(normalize(info.label))):
                things.append(info)
        if len(things) != 1:
            return None
        info = things[0]
        return Candidate(info.iri, info.slug, info.label, tuple(info.types), "word", 0.7)

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
        whole = [h for h in hits if h.match in {"prefix", "word"} and h.whole]
        near = [h for h in whole if not set(h.entity.types) & (nary | {CATALOG})]
        if not near and len(span) == 1 and span[0].text not in UNITS:
            # a cluster people name by its own name ("Gefion", "Jupiter"), one word that nothing else
            # has and one cluster only ("GW" is a unit, a word of DataVolt Neom 1.5 GW's two phases;
            # "NVIDIA MLPerf" the maker and the benchmark, not NVIDIA's MLPerf Submission cluster)
            near = [h for h in whole if DEPLOYMENT in h.entity.types]
            near = near if len(near) == 1 else []
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
        # nor are the letters written against it: "Nvida H200" is no NVIDIA B200 nor GH200, "nvida h100"
        # no A100 (the maker's name misspelt; the model's letters and number as typed)
        model = set(_MODEL_NUMBER.findall(norm))
        ranked = [(d, h) for d, h in ranked if model <= set(_MODEL_NUMBER.findall(normalize(h.name)))]
        if not ranked:
            return None
        return Mention(
            start,
            end,
            text,
            "fuzzy",
            [_candidate(h, "fuzzy", 0.9 - 0.15 * d) for d, h in ranked[:CANDIDATES]],
        )


_NUMBER = re.compile(r"[\d.]+")
"""A number, with the dots of a version ("5.0")."""
_WORD = re.compile(r"[^\W_]+(?:\.\d+)*")
"""A word of a normalized label, a version's dots kept ("pangu 3.0")."""
_NUMBER_APART = re.compile(r"(?<=[a-z]) (?=\d+$)")
"""The space between a name's word and its closing number ("gaudi 3")."""
_DIGITS = re.compile(r"\d+")
_MODEL_NUMBER = re.compile(r"\b[a-z]+\d+")
"""A model's letters and number written as one word ("h200", "b200", "gh200", "mi300" of "mi300x"; the
letters after the number may be misspelt: "MI300XX")."""
PROPER_LOOKUP = 40
"""Hits looked at for a capitalized name (the phases of a data center come before other names)."""
PROPER_MOST = 2
"""Most things a capitalized name may be a word of: more, and it is a place or a common word ("Texas")."""
_LOCATIVE = re.compile(r"(?:\b(?:in|at|near|around|from|of)|位于|在)\s*$")


def _capital_s(word: str, original: str) -> bool:
    """Whether the question as typed writes ``word`` (folded, ending in s) with a capital S: "V100S"
    (the offsets of a Chinese question's folded text need not be the original's: 記憶體 reads 内存)."""
    return re.search(rf"(?i:{re.escape(word[:-1])})S(?![A-Za-z0-9])", original) is not None


def _capitalized(original: str, folded: str, span: list[Token]) -> bool:
    """True when every word of the span is written capitalized in the question as typed."""
    if len(original) == len(folded):
        return all(
            not t.cjk and not t.stop and t.text.isalpha() and original[t.start].isupper() for t in span
        )
    # folding changed the length (traditional characters, Chinese place names, numerals read as
    # digits): the span's words are looked up among the words the question capitalizes, and among
    # the words folding read from a Chinese name ("奥马哈" is Omaha, a name however it was typed)
    capitalized = {w.casefold() for w in _LATIN_WORD.findall(original) if w[0].isupper()}
    capitalized |= _FOLDED_NAME_WORDS
    return all(not t.cjk and not t.stop and t.text.isalpha() and t.text in capitalized for t in span)


_FOLDED_NAME_WORDS = frozenset(w for name in PLACE_NAMES.values() for w in re.findall(r"[a-z]+", name))
"""Words folding writes for a Chinese name (:data:`~aikg.ask.words.PLACE_NAMES`): proper names."""


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
        # a version no name was found for ("MLPerf v4.0"), or a variant word ("曦云C500 OAM版", read
        # "mxc500 oam版"): the name's candidates of that version or variant
        after = _VERSION_AFTER.match(folded, m.end) or _VARIANT_AFTER.match(folded, m.end)
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
_VARIANT_AFTER = re.compile(r"\s*(sxm\d?|pcie|oam)(?![a-z0-9])(?:\s*版)?")
"""A chip's form factor right after its name, followed by anything but a Latin letter or digit; with
版 ("OAM版": the OAM version), which then asks nothing more (no other 版: "升级版" is a name's)."""
_DOTTED_AFTER = re.compile(r"\s*(\d+\.\d+)(?![a-z0-9.%万亿千百倍])")
"""A version number right after a name ("盘古5.0", read "pangu 5.0")."""


def _not_amounts(mentions: list[Mention], folded: str) -> list[Mention]:
    """Mentions less a bare number followed by a unit: "4.5 PFLOP/s", "200 MW" are amounts, not the
    "4.5" of GLM 4.5's name."""
    out = []
    for m in mentions:
        if _NUMBER.fullmatch(normalize(m.text)):
            rest = folded[m.end :].lstrip()
            if any(rest.startswith(u) and not "a" <= rest[len(u) : len(u) + 1] <= "z" for u in UNITS):
                continue
            if rest.startswith(_SCALE_WORDS):
                continue  # "超过 1.6 万亿", "1.6 trillion parameters": an amount, not Seed 1.6's "1.6"
        if m.how == "word" and _GLUED_AMOUNT.fullmatch(m.text):
            continue  # "显存不到 16GB": an amount, not the "16GB" of the P100 PCIe 16GB's name
        if _SCALED.fullmatch(m.text.strip()) and (
            _COMPARED.search(folded[: m.start]) or _COMPARED_AFTER.match(folded, m.end)
        ):
            continue  # "more than 100B parameters": a threshold, not the "100B" of PLaMo-100B's name
        if _SCALED.fullmatch(m.text.strip()) and _FIGURE_AFTER.match(folded, m.end):
            continue  # "the OpenAI 3B API revenue figure": an amount, not T5-3B's "3B"
        out.append(m)
    return out


_SCALED = re.compile(r"\$?\d+(?:\.\d+)?\s*(?:b|bn|m|k|t)", re.IGNORECASE)
"""A number with the letter of its size ("100B", "1.5T", "70b"), which a model's name may end with too."""
_COMPARED = re.compile(
    "(?:" + "|".join(re.escape(w) for _, ws in COMPARATORS for w in ws) + r")\s*(?:of\s+)?\$?\s*$"
)
"""A comparator right before a number: "more than 100B", "超过 70B" make it a threshold's amount."""
_COMPARED_AFTER = re.compile(
    r"\s*(?:参数)?\s*(?:以上|以下|以内|及以上|或以上|或更高|及更高|or more|or less|and above|and below|and up"
    r"|or above|or higher|and higher|or greater)"
)
"""A comparator right after it: "8B 以下", "100B or more"."""

_FIGURE_AFTER = re.compile(
    r"\s*(?:[a-z]+\s+|的\s*)?(?:revenue|arr\b|run-rate|valuation|funding|round|raise|sales|spend|收入|营收|估值|融资|美元"
    r"|users|tokens|用户|月活|周活)"
)
"""A word of money or of a company's usage right after a number with the letter of its size, or one word on
("3B API revenue", "2B 的收入", "400M monthly users"): an amount, not a model's size."""

_SCALE_WORDS = ("万亿", "千亿", "百亿", "亿", "万", "trillion", "billion", "million", "thousand")
"""Words of a number's size after it: the number is an amount ("1.6 万亿", "2.5 billion")."""

_GLUED_AMOUNT = re.compile(
    r"[\d.]+\s*(?:"
    + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True) if u.isascii())
    + ")"
)
"""A number with its unit written together ("16GB", "700W"): alone, a word of no name."""


def _versioned(mentions: list[Mention], folded: str) -> list[Mention]:
    """A model or chip followed by a version none of its things has, or a cluster or site by a phase,
    names one the data does not hold ("盘古5.0": Huawei's Pangu 5.0, not the PanGu-Σ that "pangu" alone
    names, nor the SenseChat 5.0 that "5.0" alone is a word of; "SURF Snellius phase 2", of which Epoch
    lists phases 1 and 3): the name and the number are dropped, so the answer says it does not know
    rather than give another version's figure."""
    dropped: set[int] = set()
    for k, m in enumerate(mentions):
        types = {t for c in m.candidates for t in c.types}
        after = (
            (_DOTTED_AFTER.match(folded, m.end) if types & _VERSIONED else None)
            or (_GENERATION_AFTER.match(folded, m.end) if types & _CHIPS else None)
            or (
                (_PHASE_AFTER.match(folded, m.end) or _NUMBERED_AFTER.match(folded, m.end))
                if types & _PHASED
                else None
            )
        )
        if after is None:
            continue
        number = [n for n, o in enumerate(mentions) if o is not m and o.start < after.end() and m.end < o.end]
        if any(not _NUMBER.fullmatch(normalize(mentions[n].text)) for n in number):
            continue  # the words after are a name of their own
        version = next(g for g in after.groups() if g)
        if not any(version in _VERSIONS.findall(normalize(c.label)) for c in m.candidates):
            dropped |= {k, *number}
    return [m for k, m in enumerate(mentions) if k not in dropped]


_CHIPS = frozenset(AIKG + c for c in ("Accelerator", "GPU", "TPU", "LPU"))
"""A chip's most specific types (a candidate carries those): aikg:Accelerator and its subclasses in
ontology/hardware.ttl."""
_VERSIONED = frozenset({AIKG + "AIModel", *_CHIPS})
"""Things whose names carry a version ("Pangu 3.0", "MI300X")."""
_PHASED = frozenset(AIKG + c for c in ("Deployment", "DataCenter"))
"""Things whose names carry a phase ("Alps Supercomputer Phase 2")."""


_GENERATION_AFTER = re.compile(
    r"\s*(\d{1,3})(?![\d.,%])(?=\s*(?:(?:chips?|gpus?|accelerators?|processors?|clusters?|supercomputers?)\b|"
    r"[?？!！,，。]|$|的|芯片|这款|那款|集群|超算))"
)
"""A chip's generation or model number written as a bare number after its name and before the end or a
chip word ("Tesla's Dojo 2 chip", "Dojo 2 的功耗", 天垓 200 beside the Tiangai 100: part m's answered trap): a
look-alike the data does not hold unless a candidate's label has it (the number is the name's, never an
amount: units, 倍, 张 … are not among what may follow)."""
_PHASE_AFTER = re.compile(r"\s*(phase \d+)(?![a-z0-9])")
_NUMBERED_AFTER = re.compile(
    r"\s*(\d{1,2})(?![\d.,%])(?!\s*(?:[a-z]|%|万|亿|千|百|兆|个|张|块|颗|座|家|年|月|日|号|期|倍|名|大|强))"
    r"|\s*(\d{1,2})(?=\s+(?:in|at|of|on|and|or|vs|is|was|has|have|will|draw|use|run|hold)\b)"
)
"""A small number right after a site's or cluster's name, itself no figure ("Colossus 3 in Memphis",
"Fairwater 3"; not "Colossus 200 MW", "Abilene 2 GW", "前 3 名"): the name's own number, which names
a site the data does not hold when none of its candidates' labels has it ("xAI Colossus 2 Memphis
Tennessee" has 2; "Phase 3" is a phase, not a 3)."""
"""A phase right after a name ("SURF Snellius phase 2"): the name's phase, none when it has no such."""
_VERSIONS = re.compile(r"phase \d+(?![\w.])|[^\W_]+(?:\.\d+)*")
"""The words of a normalized label, a version's dots and a phase's number kept with them."""


_BETWEEN_ONE = re.compile(r"[\s的之]*")
"""What may stand between two names of one thing ("New Carlisle 的 Project Rainier")."""


_PHASE_WORD = re.compile(r"(?<![a-z0-9])phase (\d+)(?![a-z0-9])")
_PHASE_END = re.compile(r"phase \d+$")
_AND = re.compile(r"\s*(?:[和与跟及、,/]|and|or|vs\.?|versus)?\s*")
"""What joins two phases of one name ("一期和二期", "phase 1 and phase 2")."""


def _sibling_phases(mentions: list[Mention], folded: str, index: Index) -> list[Mention]:
    """A phase named alone right after another phase of a name ("NVIDIA Selene 一期和二期", read
    "... phase 1 和 phase 2"): the same name's other phase, when the data holds one by that label;
    when it does not, neither is linked (the answer abstains rather than give one phase's figure)."""
    out = list(mentions)
    for m in _PHASE_WORD.finditer(folded):
        if any(o.start < m.end() and m.start() < o.end for o in out):
            continue
        before = [o for o in out if o.end <= m.start()]
        if not before:
            continue
        prev = max(before, key=lambda o: o.end)
        label = normalize(prev.best.label)
        if (
            len(prev.candidates) != 1
            or not _PHASE_END.search(label)
            or not _AND.fullmatch(folded[prev.end : m.start()])
        ):
            continue
        sibling = _PHASE_END.sub(f"phase {m.group(1)}", label)
        hits = [h for h in index.search(sibling, limit=CANDIDATES) if h.match == "exact"]
        if len(hits) == 1:
            out.append(Mention(m.start(), m.end(), m.group(), "word", [_candidate(hits[0], "word", 0.8)]))
        else:
            out.remove(prev)  # a phase the data does not hold: answered for neither, not for one
    return sorted(out, key=lambda o: o.start)


_AT_PLACE = re.compile(
    r"(?:'s)?\s*(?:(?P<what>data\s*cent(?:er|re)|site|campus|facility|cluster|supercomputer|one)\s+)?"
    r"(?:in|at|在)\s*(?P<place>[a-z]+(?:\s+[a-z]+)?)"
)
"""After an organization's name, its site at a place ("Google's data center in Omaha", "the Google one in
Omaha", 谷歌在奥马哈的数据中心 — the place folded to its English name)."""
SITE_TYPES = {"cluster": AIKG + "Deployment", "datacenter": AIKG + "DataCenter"}
"""The classes of sites an organization's name and a place name together ("Google Omaha Nebraska")."""


def _sites_at_places(mentions: list[Mention], folded: str, index: Any) -> list[Mention]:
    """An organization named, then its site at a place with words between ("Google's data center in
    Omaha", "Meta 在 New Albany 的数据中心"), is the one site whose label has the organization's name
    first and the place's words after it (Google Omaha Nebraska); of a data center and a cluster so
    named, the class the question says, else the data center. It takes the place of the organization's
    mention and of the place's (New Albany: Google's and Meta's sites)."""
    owners_of = getattr(index, "word_owners", None)
    entities = getattr(index, "entities", None)
    if owners_of is None or entities is None:
        return mentions
    out = list(mentions)
    for m in mentions:
        at = _AT_PLACE.match(folded, m.end)
        if at is None or m not in out:
            continue
        site = _site_of(m, at, folded, owners_of, entities)
        if site is None:
            continue
        end = at.end()
        out = [o for o in out if o is not m and not (m.end <= o.start < end)]
        out.append(Mention(m.start, end, folded[m.start : end], "word", [site]))
    return sorted(out, key=lambda o: o.start)


_OWNED = re.compile(r"(?:'s|’s|s')?\s*(?:的)?\s*")
"""What stands between an organization and the rest of its site's name ("Oracle's OCI MI300x", 甲骨文的)."""
_NAME_PART = re.compile(r"[a-z0-9][a-z0-9.\-]*|(?P<cjk>[\u4e00-\u9fff]+)|(?P<stop>[,，。;；?？!！()（）])")
_SITE_CLASS = frozenset({"cluster", "supercomputer"})
"""Class words a site's label may end with ("Oracle 2020 A100 Cluster"), which the question may say in
its own words (集群) or not at all."""
_MANY_SITES = frozenset({"clusters", "supercomputers", "sites", "campuses", "centers", "centres"})


def _site_named_after_org(mentions: list[Mention], folded: str, index: Any) -> list[Mention]:
    """An organization named, then the rest of the name of one of its sites ("ExxonMobil's Discovery 6
    supercomputer", "Oracle's OCI MI300x cluster", 甲骨文 OCI Supercluster H200s, 甲骨文 2020 年那个 A100
    集群): that site, whose label is the organization's name and those words in that order (ExxonMobil
    Discovery 6, Oracle 2020 A100 Cluster) — words of Chinese between them are passed over; it takes the
    place of the organization's mention and of the names inside (the MI300X, the H200). Two sites whose
    names go on so alike, or sites asked in the plural ("Oracle's OCI clusters"), link none (was: the
    organization alone, the rest words not understood)."""
    owners_of = getattr(index, "word_owners", None)
    entities = getattr(index, "entities", None)
    if owners_of is None or entities is None:
        return mentions
    out = list(mentions)
    for m in mentions:
        if m not in out or m.how not in ("exact", "word"):
            continue
        owned = _OWNED.match(folded, m.end)
        start = owned.end() if owned else m.end  # the pattern matches the empty string too
        parts = []
        for p in _NAME_PART.finditer(folded, start):
            if p.group("stop"):
                break
            if not p.group("cjk"):
                parts.append(p)
            if len(parts) > 6:
                break
        words = [normalize(p.group()) for p in parts]
        if not words:
            continue
        found: list[tuple[int, Candidate]] = []
        names = {
            tuple(_WORD.findall(normalize(text)))
            for c in m.candidates
            if c.how == "exact" or (c.how == "word" and AIKG + "Organization" in c.types)
            # the organization's label, or its name as written (an alias: "Sustainable Metal Cloud" of
            # SMC - Sustainable Metal Cloud, whose sites' labels begin so)
            for text in (c.label, m.text)
        }
        for org in map(list, names):
            if not org:
                continue
            for iri in owners_of(org[0]) & owners_of(words[0]):
                info = entities[iri]
                if not set(info.types) & set(SITE_TYPES.values()):
                    continue
                label = _WORD.findall(normalize(info.label))
                rest = [w for w in label[len(org) :] if w not in _SITE_CLASS]
                if label[: len(org)] != org or not rest or words[: len(rest)] != rest:
                    continue
                if len(words) > len(rest) and words[len(rest)] in _MANY_SITES:
                    continue
                found.append(
                    (len(rest), Candidate(info.iri, info.slug, info.label, tuple(info.types), "word", 0.8))
                )
        if not found:
            continue
        longest = max(n for n, _ in found)
        best = {c.iri: c for n, c in found if n == longest}
        if len(best) != 1:
            continue
        end = parts[longest - 1].end()
        out = [o for o in out if o is not m and not (m.start <= o.start < end)]
        out.append(Mention(m.start, end, folded[m.start : end], "word", list(best.values())))
    return sorted(out, key=lambda o: o.start)


def _site_of(m: Mention, at: Any, folded: str, owners_of: Any, entities: Any) -> Candidate | None:
    org = _WORD.findall(normalize(m.best.label))[:1]
    if not org:
        return None
    place = at.group("place").split()
    for words in (place, place[:1]):
        if words[0] in STOPWORD_PLACES:
            return None
        wanted = org + words
        owners: set[str] | None = None
        for w in wanted:
            found = owners_of(w)
            owners = set(found) if owners is None else owners & set(found)
        things = []
        for iri in owners or ():
            info = entities[iri]
            label = _WORD.findall(normalize(info.label))
            if not set(info.types) & set(SITE_TYPES.values()) or not label or label[0] != org[0]:
                continue
            rest = iter(label[1:])
            if all(w in rest for w in words):
                things.append(info)
        what = at.group("what") or ""
        asked = (
            "cluster"
            if what in ("cluster", "supercomputer") or re.search(r"集群|超算", folded)
            else "datacenter"
        )
        of_class = [t for t in things if SITE_TYPES[asked] in t.types]
        pick = of_class if of_class else things
        if len(pick) == 1:
            info = pick[0]
            return Candidate(info.iri, info.slug, info.label, tuple(info.types), "word", 0.7)
        if things:
            return None  # two sites at that place: no guess
    return None


STOPWORD_PLACES = frozenset({"the", "a", "an", "which", "what", "total", "all", "each"})
"""Words after "in" that are no place ("in the", "in total")."""


def _apart_in(words: list[str], label: list[str]) -> bool:
    """True when ``words`` are words of ``label`` in its order, the first its first or second word (after
    a maker's name) and the last its last: "alps phase 2" of "alps supercomputer phase 2", not "run gpt
    3" of "gpt 3 training run" nor "mlperf v4.0 gpt 3" of a result whose name goes on."""
    if not label or words[-1] != label[-1] or words[0] not in label[:2]:
        return False
    rest = iter(label[label.index(words[0]) :])
    return all(w in rest for w in words)


def _maker_of(org: Mention, thing: Candidate) -> bool:
    """True when the thing's label starts with the name of the organization written before it ("特斯拉
    Cortex 二期": Tesla Cortex Phase 2, whose label begins with Tesla): the organization is part of
    the name, not a second thing asked about."""
    label = normalize(thing.label).split()
    return any(
        c.how == "exact"
        and (words := normalize(c.label).split())
        and label[: len(words)] == words
        and len(label) > len(words)
        for c in org.candidates
    )


def _one_thing(mentions: list[Mention], folded: str) -> list[Mention]:
    """Two names side by side that one of them names only one thing of the other's, or an organization
    before a thing whose name begins with it: one mention of that thing ("新卡莱尔的雷尼尔计划": the Project
    Rainier data center in New Carlisle, not the Project Rainier cluster and a second data center)."""
    out: list[Mention] = []
    for m in mentions:
        prev = out[-1] if out else None
        if prev is not None and _BETWEEN_ONE.fullmatch(folded[prev.end : m.start]):
            for sole, other in ((prev, m), (m, prev)):
                if len(sole.candidates) != 1:
                    continue
                iri = sole.best.iri
                if any(c.iri == iri for c in other.candidates) or (
                    other is prev and _maker_of(prev, sole.best)
                ):
                    best = next(c for c in (prev.candidates + m.candidates) if c.iri == iri)
                    out[-1] = Mention(prev.start, m.end, folded[prev.start : m.end], sole.how, [best])
                    break
            else:
                out.append(m)
            continue
        out.append(m)
    return out
