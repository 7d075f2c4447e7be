"""Words that restrict what a question counts, lists or ranks, and whether its reading applied them
(issue 44).

A word the composer knows explains itself in :func:`aikg.ask.coverage.unexplained` whether or not the
form uses it: "which *open-weight* model has the most parameters" was read as the models ranked by
parameters, "谷歌有几款*推理*芯片" as all of Google's chips, "*retired* chips" as every chip, each answered
as sure. A qualifier is a restriction of the things asked about — their status, what they are for,
whether their weights are open —; when the reading does not apply it, the answer is another question's,
so the word is said unused ("Did not use: …") and weighed as a word of the domain (not sure).
"""

from __future__ import annotations

import re
from typing import Any

from aikg.ask.text import CJK_CHAR
from aikg.ask.words import CARRIERS, SPEND_CATEGORIES, STARTED_WORDS, STATUS_WORDS

_NOW = frozenset(
    ["today", "right now", "currently", "at the moment", "online", "running", "operating", "up and running"]
)
"""Status words that are also words of time or of a verb ("come online", "companies operating
clusters", "the largest cluster today"): they say when, not which, and restrict nothing by themselves."""
_ALSO_STATUS = ("announced", "future", "现有", "在跑", "正在跑", "在用的")
"""Status words of :data:`STATUS_WORDS` that name other things too ("when was it announced", 现有 "now
has", 在用的 "in use"): the status reader takes them, this check does not."""

QUALIFIERS: dict[str, tuple[str, ...]] = {
    # a cluster going into operation ("became operational in 2024", 投入运营): with a period, the date the
    # range applies to, no status; it holds status words ("operational", 投运) the check must not take, and
    # a word of both (投入使用) is read as this one first (its period applies it; without one, its status)
    "started": STARTED_WORDS,
    # the status of a thing (a cluster's Planned, Decommissioned, Existing): only clusters have one
    "status": tuple(w for ws in STATUS_WORDS.values() for w in ws if w not in _NOW and w not in _ALSO_STATUS),
    # what a chip, a model or a compute budget is for: the spending category is the only use the
    # data records (Epoch's "Inference cloud compute"), training being a word of everything else
    "use": tuple(w for w, c in SPEND_CATEGORIES.items() if c.startswith("Inference")) + ("inference-only",),
    # whether a model's weights are published: a fact of a model (aikg:openWeights), never a filter
    "openness": (
        "open weights",
        "open-weight",
        "open-weights",
        "open weight",
        "open source",
        "open-source",
        "开源",
        "开放权重",
        "closed source",
        "closed-source",
        "closed weights",
        "closed-weight",
        "proprietary",
        "闭源",
    ),
    # how a rack or site is cooled: a fact of a rack the seed documents state (aikg:liquidCooled), never a
    # filter of a ranking ("液冷集群中最大的是哪个")
    "cooling": (
        "liquid-cooled",
        "liquid cooled",
        "liquid cooling",
        "air-cooled",
        "air cooled",
        "液冷",
        "风冷",
    ),
}
"""The qualifiers the lexicon knows, by the kind of restriction they name."""

PROPERTIES: dict[str, frozenset[str]] = {
    "status": frozenset({"operationalStatus", "status"}),
    "use": frozenset({"designedFor", "purpose", "spendCategory"}),
    "openness": frozenset({"openWeights"}),
    "cooling": frozenset({"liquidCooled"}),
    "started": frozenset({"date"}),
}
"""The properties that apply a qualifier when a form ranks, lists or filters by them ("clusters by
status", "models by whether their weights are open")."""


def qualifiers(folded: str) -> list[tuple[str, str]]:
    """The qualifiers the (folded) question says, as (kind, words as written), in order: Latin phrases as
    whole words, Chinese anywhere; a phrase inside a longer one found ("open weights" of "open-weights")
    counts once."""
    found: list[tuple[int, int, str, str]] = []
    for kind, phrases in QUALIFIERS.items():
        for p in phrases:
            if CJK_CHAR.search(p):
                spans = [(m.start(), m.end()) for m in re.finditer(re.escape(p), folded)]
            else:
                spans = [
                    (m.start(), m.end())
                    for m in re.finditer(rf"(?<![a-z0-9-]){re.escape(p)}(?![a-z0-9-])", folded)
                ]
            found += [(s, e, kind, p) for s, e in spans]
    found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    out: list[tuple[str, str]] = []
    end = -1
    for s, e, kind, p in found:
        if s >= end:
            out.append((kind, p))
            end = e
    return out


def applied_by_form(kind: str, form: Any) -> bool:
    """True when a composed form applies a qualifier of this kind: a status on a class that has one, a
    spending category, or the property the qualifier names (ranked, listed or asked)."""
    props = {form.prop, form.threshold_prop, *form.also} - {None}
    if props & PROPERTIES[kind]:
        return True
    if kind == "status":
        carrier = CARRIERS.get(form.carrier or "")
        # a funding round's stage (in talks, not closed) is its status, applied as ``stage``
        return bool(form.status and carrier is not None and carrier.status) or bool(
            getattr(form, "stage", None)
        )
    if kind == "use" and form.carrier == "usage":
        return True  # tokens "served", 处理: usage figures are the volume served, no category of spending
    if kind == "use":
        # one category, or the figure of several named together ("training plus inference combined")
        return form.spend_category is not None or bool(form.spend_total and form.carrier == "spend")
    if kind == "started":
        return form.dates is not None or bool(form.status)
    return False


FACT_QUALIFIERS = frozenset({"use"})
"""The qualifiers that restrict a fact of a thing named: what a figure is spent on (a company's inference
spend, not its training compute). A status or openness there describes the thing or the value asked."""


def unapplied(
    folded: str, applied: Any, *, explained: Any = None, kinds: frozenset[str] | None = None
) -> list[str]:
    """The qualifiers of the question the reading did not apply, as written. ``applied(kind)`` says
    whether a composed form applied one of that kind (None: no form applies any); ``explained(word)``
    is True when a named query's own title or examples say the word (the query is about it); ``kinds``:
    the kinds of qualifier weighed (all by default)."""
    out: list[str] = []
    for kind, word in qualifiers(folded):
        if kinds is not None and kind not in kinds:
            continue
        if applied is not None and applied(kind):
            continue
        if explained is not None and explained(word):
            continue
        if word not in out:
            out.append(word)
    return out
