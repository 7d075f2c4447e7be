"""The router: which question a text asks, scored against every example question aikg has.

Examples are the ``# example:`` lines of the named queries plus the fact questions of
:mod:`aikg.ask.lexicon`. A question and the examples are read the same way (:class:`Reading`): names,
dates and property words become placeholders, so "deals of NVIDIA" and "deals of {CoreWeave}" are the same
question and the name is left to entity linking. Each intent scores by the cosine of the question with its
nearest examples.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from aikg.ask.dates import DateMention, find_dates
from aikg.ask.features import TfIdf, Vector, cosine, features
from aikg.ask.lexicon import FACT_EXAMPLES
from aikg.ask.linking import EntityLinker, Index, Mention
from aikg.ask.properties import PropertyMention, find_properties
from aikg.ask.text import (
    CJK_STOP,
    DATE,
    ENTITY,
    PROPERTY,
    STOPWORDS,
    Token,
    fold,
    language,
    replace_spans,
    tokens,
)
from aikg.query.named import NamedQuery

STOP = STOPWORDS | CJK_STOP

FACT = "fact"
"""The intent of a question about one fact of one entity (not a named query)."""

_BRACED = re.compile(r"\{[^{}]*\}")


@dataclass
class Reading:
    """A question as the router reads it: folded, with its names, dates and property words found."""

    question: str
    folded: str
    language: str
    dates: list[DateMention] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    properties: list[PropertyMention] = field(default_factory=list)
    masked: str = ""


@dataclass(frozen=True)
class Example:
    """One example question of an intent, as written and as a vector."""

    intent: str
    text: str
    vector: Vector


def _mask_example(raw: str) -> str:
    folded = fold(raw)
    text = _BRACED.sub(f" {ENTITY} ", folded)
    spans = [(d.start, d.end, DATE) for d in find_dates(text)]
    marks = [(m.start(), m.end()) for m in re.finditer("⟨[a-z]⟩", text)]
    spans += [(p.start, p.end, PROPERTY) for p in find_properties(text, marks + [s[:2] for s in spans])]
    return replace_spans(text, spans)


class Router:
    """Example questions of every intent, vectorized once; scores a reading against them."""

    def __init__(
        self, queries: Mapping[str, NamedQuery], fact_examples: Iterable[str] = FACT_EXAMPLES
    ) -> None:
        """Learn from the queries' examples and from the fact examples."""
        raw: list[tuple[str, str]] = []
        for q in queries.values():
            raw += [(q.name, e) for e in q.examples]
        raw += [(FACT, e) for e in fact_examples]
        masked = [(intent, text, _mask_example(text)) for intent, text in raw]
        counts = [features(m) for _, _, m in masked]
        self.model = TfIdf(counts)
        self.examples = [
            Example(intent, text, self.model.vector(c))
            for (intent, text, _), c in zip(masked, counts, strict=True)
        ]
        self.intents = sorted({e.intent for e in self.examples})
        # The examples' own words, and which of them follow one another: a name written inside such a
        # phrase ("H100 equivalents", "3D torus") is part of the question's wording, not its parameter.
        self.pairs: set[tuple[str, str]] = set()
        words: set[str] = set()
        for _, _, m in masked:
            toks = [t.text for t in tokens(m)]
            words |= {w for w in toks if w.isascii() and not w.startswith("⟨")}
            self.pairs |= set(zip(toks, toks[1:], strict=False))
        self.linker = EntityLinker(words)

    def read(self, question: str, index: Index) -> Reading:
        """Fold the question and find its dates, names (through ``index``) and property words."""
        folded = fold(question)
        reading = Reading(question, folded, language(question))
        reading.dates = find_dates(folded)
        toks = tokens(folded)
        date_spans = [(d.start, d.end) for d in reading.dates]
        reading.mentions = self.linker.link(index, folded, toks, date_spans, question)
        taken = date_spans + [(m.start, m.end) for m in reading.mentions]
        reading.properties = find_properties(folded, taken)
        spans = [(d.start, d.end, DATE) for d in reading.dates]
        spans += [(p.start, p.end, PROPERTY) for p in reading.properties]
        for m in reading.mentions:
            if not self._in_wording(toks, m):
                spans.append((m.start, m.end, ENTITY))
        reading.masked = replace_spans(folded, spans)
        return reading

    def masked_mentions(self, reading: Reading) -> set[tuple[int, int]]:
        """The spans of the mentions read as names to link (not as the examples' own wording)."""
        toks = tokens(reading.folded)
        return {(m.start, m.end) for m in reading.mentions if not self._in_wording(toks, m)}

    def _in_wording(self, toks: list[Token], m: Mention) -> bool:
        """True when the mention is written as the examples write those words (not as a parameter)."""
        inside = [t.text for t in toks if m.start <= t.start and t.end <= m.end]
        if len(inside) > 1:
            return all(p in self.pairs for p in zip(inside, inside[1:], strict=False))
        before = [t.text for t in toks if t.end <= m.start][-1:]
        after = [t.text for t in toks if t.start >= m.end][:1]
        joined_before = bool(before) and (before[0], inside[0]) in self.pairs and before[0] not in STOP
        joined_after = bool(after) and (inside[0], after[0]) in self.pairs and after[0] not in STOP
        return bool(inside) and (joined_before or joined_after)

    def scores(self, reading: Reading) -> list[tuple[str, float, str]]:
        """(intent, score, nearest example) for every intent, best first."""
        vector = self.model.vector(features(reading.masked))
        per: dict[str, list[tuple[float, str]]] = {}
        for e in self.examples:
            per.setdefault(e.intent, []).append((cosine(vector, e.vector), e.text))
        out = []
        for intent, sims in per.items():
            sims.sort(reverse=True)
            top = sims[0][0]
            second = sims[1][0] if len(sims) > 1 else top
            out.append((intent, 0.75 * top + 0.25 * second, sims[0][1]))
        return sorted(out, key=lambda x: -x[1])
