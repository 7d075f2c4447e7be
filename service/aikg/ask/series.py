"""Series of models: the word a family of models is named by at the start of each one's name (*Qwen*3-Max,
*EXAONE* 3.5, *Phi*-4, *Granite* 3.0 8B), read from the graph's labels, never listed by hand (issue 44).

"LG 的 EXAONE 系列里，哪个模型训练算力最大", "Qwen 系列里哪个模型参数最多", "which Qwen model has the most
parameters", "微軟 Phi 系列有幾多個模型": the question names the models by their series, which no node is
named by alone, so the linker left the word (an unknown word: not sure) or linked one model that happens
to be named by it alone ("Claude"), and a ranking of every model came back. A series word said as one —
followed by 系列, 家族, "series", "family", "line", "model(s)" or 模型 — keeps only the models whose name
begins with it (:attr:`aikg.ask.compose.Form.series`), or the training runs of those models.

A word is a series when it begins the names of two models or more (its first run of letters: "qwen" of
Qwen3-Max, "phi" of phi-3-small 7.4B), has three letters or more, and is not a word the composer reads
("deep", "big", "multi" begin names too). An organization's name is no series ("DeepSeek 系列", "Amazon
models": the organization's models, which its filter already is).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from aikg.ask.linking import Candidate, Mention

AIKG = "https://w3id.org/aikg/ontology#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"

SERIES_QUERY = f"SELECT ?label WHERE {{ ?x a <{AIKG}AIModel> ; <{RDFS}label> ?label }}"
"""Every model's name."""

SERIES = "series"
"""The ``how`` of a series mention, and its candidate's only type."""
MIN_MODELS = 2
_FIRST_WORD = re.compile(r"[a-z]+")
_SAID_AS_SERIES = re.compile(
    r"\s*(?:系列|家族|大模型|模型|series\b|family\b|line\b|models?\b)", re.IGNORECASE
)
"""What follows a series word said as one ("Qwen 系列", "the Granite family", "which Qwen model")."""


def model_series(labels: Iterable[str], known: Callable[[str], bool]) -> frozenset[str]:
    """The series words of the models' names (see the module's docstring); ``known(word)`` is true for a
    word the composer reads."""
    counts: Counter[str] = Counter()
    for label in labels:
        m = _FIRST_WORD.match(label.casefold())
        if m:
            counts[m.group()] += 1
    return frozenset(w for w, n in counts.items() if n >= MIN_MODELS and len(w) >= 3 and not known(w))


def series_word(candidate: Candidate) -> str | None:
    """The series word a series mention's candidate stands for, or None."""
    return candidate.slug if candidate.how == SERIES else None


def with_series(
    folded: str, mentions: list[Mention], words: frozenset[str], is_org: Callable[[Candidate], bool]
) -> list[Mention]:
    """The mentions with each series word said as one read as that series: a mention it overlaps that
    links a model or a word of a name ("Claude": the model named so alone) gives way; an organization
    named there ("DeepSeek 系列") stays the organization."""
    if not words:
        return mentions
    out = list(mentions)
    pattern = re.compile(
        r"(?<![a-z0-9])(" + "|".join(map(re.escape, sorted(words, key=len, reverse=True))) + r")(?![a-z])"
    )
    for m in pattern.finditer(folded):
        start, end, word = m.start(), m.end(), m.group(1)
        tail = re.match(r"[0-9a-z.\-]*", folded[end:])
        if tail and tail.group():
            continue  # "Qwen3-Max", "Phi-4": a model's own name, not its series
        if not _SAID_AS_SERIES.match(folded, end):
            continue
        overlapping = [o for o in out if o.start < end and start < o.end]
        if any(is_org(c) for o in overlapping for c in o.candidates):
            continue  # "Mistral 模型", "which Mistral model": the company's models, which its filter reads
        if any(o.start < start or o.end > end for o in overlapping):
            continue  # a longer name holds the word ("Claude 3 Opus")
        out = [o for o in out if o not in overlapping]
        candidate = Candidate(SERIES + ":" + word, word, word, (SERIES,), SERIES, 1.0)
        out.append(Mention(start, end, folded[start:end], SERIES, [candidate]))
    return sorted(out, key=lambda o: o.start)
