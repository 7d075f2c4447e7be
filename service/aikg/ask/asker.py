"""``Asker``: a question in plain words in, what aikg understood and its answer out — or "I don't know".

Built once per application (:meth:`Asker.for_services`) with what it needs passed in: the store (for
the sources of rows), the search index (a callable, since the index follows the store's versions), the
named queries and their runner, the entity builder (facts with their sources) and the catalogue of
source documents. It keeps only its router, rebuilt when the queries' examples change.

A question is understood as the intent whose examples it is most like, with the parameters entity linking
and date reading can fill. aikg abstains — and offers the closest questions it can answer — when the
question is not like any example, when a parameter the query needs names nothing aikg knows, or when the
fact asked for is not in the graph.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from aikg.ask.acronyms import ACRONYMS_QUERY, acronyms, with_acronyms
from aikg.ask.answers import query_links, row_sources, rows_answer
from aikg.ask.compose import (
    COMPOSER_WORDS,
    FOLLOW_UP,
    KIND_WORDS,
    OPEN_END,
    OPEN_START,
    RANK_BY,
    SUBSET,
    SURE_AT,
    TEMPLATE_WORD,
    TOP_K,
    UNSURE,
    Form,
    answers_plans,
    asks_forecast,
    compile_form,
    countries_named,
    describe,
    division_word,
    every_row,
    invested_by,
    location_probe,
    members_query,
    merge,
    not_kept,
    of_one_thing,
    org_link_query,
    out_of_scope,
    ranking_words,
    rated_beside,
    read_dates,
    read_form,
    restated,
    sureness,
    unexplained_words,
    unused_properties,
    variants,
    written_as_names,
)
from aikg.ask.coverage import Domain, Vocabulary, meaning, operators, ratios, stems, unexplained
from aikg.ask.dates import date_range
from aikg.ask.described import (
    STATEMENTS_QUERY,
    Statements,
    asking,
    asks_party,
    asks_source,
    has_words,
    names_document,
    source_words,
    words_of,
)
from aikg.ask.lexicon import AIKG, OVERVIEW_WORDS, PARAMETER_CLASSES
from aikg.ask.lexicon import PROPERTY_WORDS as FACT_WORDS
from aikg.ask.lines import LINES_QUERY, chip_lines, unlinked_generation, with_lines
from aikg.ask.linking import Candidate, Mention
from aikg.ask.properties import PropertyMention
from aikg.ask.qualifiers import FACT_QUALIFIERS, PROPERTIES, applied_by_form, unapplied
from aikg.ask.router import FACT, Reading, Router
from aikg.ask.series import SERIES_QUERY, model_series, with_series
from aikg.ask.sites import SITES_QUERY, Sites, sites_of, with_sites
from aikg.ask.text import CJK_CHAR, CJK_STOP, STOPWORDS, fold, tokens
from aikg.ask.words import CLASS_WORDS, COUNTRIES, LABELS_NOT_WORDS, PROPERTY_LABELS, PROPERTY_WORDS, UNITS
from aikg.errors import BadRequest, QueryTimeout
from aikg.lookup.entities import EntityBuilder
from aikg.lookup.search import cell_json
from aikg.namespaces import GRAPH, ID
from aikg.query.named import NamedQuery
from aikg.store import QueryResult, Store

if TYPE_CHECKING:
    from aikg.services import Services

MAX_QUESTION = 500
"""Longest question read, in characters."""
MAX_ROWS = 200
"""Most rows an answer shows (the query's page and API give all of them)."""
SOURCES_QUERY = "sources-of-entity"
"""The named query of every statement about one thing, with its source and certainty."""
ANSWER_AT = 0.25
"""Least router score at which a question is answered as a named query; below it aikg abstains. On the
development part of the evaluation set, out-of-scope questions scored at most 0.09 for a named query and
answerable ones at least 0.28: the threshold sits nearer the answerable side, to rather abstain."""
FACT_AT = 0.30
"""Least router score for a fact question. Out-of-scope questions about an entity ("NVIDIA's stock
price") can score high here; they abstain because the fact they ask for is not one aikg has."""
ALTERNATIVES = 3
TEMPLATE_AT = 0.55
TEMPLATE_STRONG = 0.7
"""Least router score at which a named query answers a question a composed form would list: the named
queries stay the high-precision templates they are where a question is one of theirs."""
PRODUCTS = f"SELECT DISTINCT ?p WHERE {{ ?f a <{AIKG}UsageFigure> ; <{AIKG}product> ?p }}"
"""The products the usage figures name, linked by their names as written in the data."""
DIVISIONS = f"SELECT DISTINCT ?d WHERE {{ ?f a <{AIKG}StaffFigure> ; <{AIKG}companyDivision> ?d }}"
"""The divisions the staff figures name ("FAIR", "Research and development"), as written in the data."""
NAMES = (
    "SELECT DISTINCT ?l WHERE { ?x <http://www.w3.org/2000/01/rdf-schema#label>"
    "|<http://www.w3.org/2004/02/skos/core#altLabel> ?l }"
)
"""Every name and alias in the graph: their words are words of the domain (:class:`Domain`)."""
OPERATOR_PHRASE = re.compile(r"\b(?:most|least|under|over|more|less)\b|至多|至少")
"""A label of the ontology that names a qualifier ("at most / under"), not a thing: no content word."""
_SEED_DOCUMENT = re.compile(r"\bseed (?:article|document|doc|report|source|text)s?\b")
"""The seed documents named as such ("per the seed article"): which source, no word of the domain."""
BOUND_SAID = {
    AIKG + "AtLeast": ("minimum", "min", "least", "至少", "起码", "最少"),
    AIKG + "AtMost": ("maximum", "max", "most", "至多", "最多"),
}
"""Words of a question that say the bound a source gives its figure (aikg:qualifier): beside the figure
answered with that qualifier they restate it ("at minimum" of a figure given as at least 10,000)."""
UNUSED_WORD = 0.92
"""How much each word that a composed form or fact leaves unused, and that carries no meaning it could
use (:func:`aikg.ask.coverage.meaning`), leaves of its sureness: "who *wins* on memory, H200 or MI325X?"
is answered and says the word unused; from four such words on (0.92⁴ < :data:`SURE_AT`) it is not sure.
On the development part with the t… items (1,417), no such word tolerated: 1,347 right; up to one: 1,368,
two: 1,371, three: 1,373, confident-wrong 13 each. Blocking only operators: 1,375 right but 14 wrong;
tolerating every word but names: 23 wrong."""
ELSEWHERE = 0.6
"""How like another named query a question must be, against the one that answers it, for a word only that
other one knows to make the answer unsure (as the alternatives offered beside an answer)."""
RESTRICTED_OPS = frozenset({"top", "rank", "count", "sum", "amount", "spend", "list", "series"})
"""The composed operators over a set of things (ranked, counted, added up, listed), which a qualifier of
the question restricts; the others answer of things named (a fact, a role, a comparison, provenance)."""
PROPERTY_OPS = frozenset({"top", "count", "sum", "list"})
"""The composed operators that rank, bound, add up or show a property of the things of a set."""
SHOW_AT = 0.25
"""Least confidence (``understood.confidence``) at which an answer is shown; below it aikg says it is not
sure, what it understood, and offers the closest questions. Only a named query reaches so low (a router
score just over :data:`ANSWER_AT` with another query close behind: 0.25 / 0.8 × 0.6 = 0.19): "an hour of
H100 on Lambda" was answered with Lambda's funding at 22 %. On the development part no answer under 0.25
was right or wrong; 1 right one was under 0.27, 5 under 0.3, 21 under 0.4 (and 1 wrong one)."""
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
OVERVIEW_FEW = 12
"""An overview with fewer facts than this also lists the nodes that point at the entity."""
OVERVIEW_SKIP = frozenset({AIKG + "note", AIKG + "sourceRow", AIKG + "description"})


SUBSIDIARIES_COUNT = frozenset({"model", "run", "cluster", "datacenter", "hardware"})
"""Classes whose nodes an organization named may hold through a subsidiary (Meta's models: Meta AI's)."""


@dataclass
class Plan:
    """One way to read the question: an intent with the parameters it could fill, and how sure."""

    intent: str
    score: float
    example: str
    parameters: dict[str, str] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    mention: Mention | None = None

    @property
    def feasible(self) -> bool:
        """True when nothing the intent needs is missing."""
        return not self.missing


_DEFAULTS_ASKED = re.compile(
    r"\b(?:how much|how many|total|raised?|raising|closed|completed|happened|confirmed|likely|reliable|"
    r"largest|biggest|most|top|amount|sum|sorted|ranked|ranking|order|per)\b|多少|几|总|累计|合计|融了|已完成|完成的|"
    r"可靠|最|排序|排名|排行|按"
)
"""Words that ask a total, a count, a ranking or the rounds that happened: a named query's ``include``
default (rounds that happened, rated at least Likely) is theirs."""


OWNER_PARAMETERS = ("company", "org")
"""Entity parameters naming whose rows a named query lists (funding-by-company's company): its own things,
not a filter on other organizations' (nvidia-only-capacity's vendor)."""


def _lists_every_row(folded: str) -> bool:
    """True when the question asks for a list of things and nothing that the default of a named query's
    ``include`` parameter serves (a total, a count, a ranking, "closed", "reliable")."""
    return not _DEFAULTS_ASKED.search(folded) and not ranking_words(folded)


def _key(text: str) -> str:
    """A name as compared with a typed one: letters and digits only, case folded."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _without_figure(form: Form, held: set[str]) -> list[str]:
    """The sides of a comparison the data gives no figure for, as the question named them.

    A name that names several things ("GPT-4o": its four dated versions) is compared as all of them; it
    is a side without a figure only when none of them has one, and it is told as typed, never silently
    dropped ("compare Grok 3 and GPT-4o training compute" showed Grok 3's row alone, with no word that
    Epoch gives no figure for any GPT-4o)."""
    typed = {_key(t): t for t in form.ambiguous}
    groups: dict[str, list[Candidate]] = {}
    missing: list[str] = []
    for e in form.entities:
        name = next((k for k in typed if k and _key(e.label).startswith(k)), None)
        if name is not None:
            groups.setdefault(name, []).append(e)
        elif e.iri not in held:
            missing.append(e.label)
    for name, group in groups.items():
        if not any(e.iri in held for e in group):
            # as the labels write it ("GPT-4o (Aug 2024)" -> "GPT-4o"), else as typed
            stem = group[0].label.split(" (")[0]
            shown = stem if _key(stem) == name else typed[name]
            missing.append(f"{shown} ({len(group)} versions)" if len(group) > 1 else shown)
    return missing


def _no_figure_note(missing: list[str], lang: str) -> str | None:
    """What a comparison says of its sides without a figure (in the question's language)."""
    if not missing:
        return None
    if lang == "zh":
        return f"aikg 没有 {'、'.join(missing)} 的这项数据：只列出了另一方，这部分问题没有回答。"
    return (
        f"aikg has no figure for {', '.join(missing)}: only the other side is shown, so this part "
        "of the question is not answered."
    )


_TRAINING = re.compile(r"\btrain(?:ing|ed)?\b|训练|訓練")
"""Words saying the compute asked is a training run's."""
CHIP_COMPUTE = (
    "tensorFp16Performance",
    "fp16Performance",
    "fp8Performance",
    "int8Performance",
    "fp32Performance",
)
"""A chip's compute (算力), as its figures are quoted: its dense tensor FP16/BF16 performance, else the
first precision Epoch lists for it (the answer names the precision)."""
CHIP_CLASSES = frozenset(AIKG + c for c in ("Hardware", "GPU", "TPU", "LPU", "Accelerator"))


def _is_chip(c: Candidate) -> bool:
    """True when the thing named is a chip (an accelerator of Epoch's hardware list or a seed document's)."""
    return bool(CHIP_CLASSES & set(c.types))


def _counted_none(result: QueryResult) -> bool:
    """True when a count's one row counts nothing."""
    if "count" not in result.variables or len(result.rows) != 1:
        return False
    term = result.rows[0][result.variables.index("count")]
    return term is not None and str(getattr(term, "value", term)) in ("0", "0.0")


_WHY = re.compile(r"\bwhy\b|为什么|为何|怎么会|何以|点解")
"""Words asking a reason (点解 is Cantonese's why)."""
CAUSES = frozenset({"attributedTo"})
"""The properties that say why (a speed-up's cause, 主要靠什么): a reason asked is theirs to answer."""

NOT_COMPARED = frozenset({"Person", "SourceDocument", "Report", "Dataset", "MediaOutlet", "AnalystFirm"})
"""Classes of who says a figure (a person, a source document, an outlet), never a side of a comparison of
one."""

_ONE_OF_TWO = re.compile(
    r"(?:哪个|哪一个|谁).{0,12}(?:更|比)|\bwhich\b.{0,40}\b(?:more|less|higher|lower|bigger|larger|smaller)\b"
    r".{0,60}\bor\b|\b(?:vs\.?|versus)\b"
)
"""A question asking which of two things has more: answered with one thing's figure, it is not answered."""


def _unused_entities(form: Form, sparql: str, reading: Reading, orgs: AbstractSet[str]) -> list[str]:
    """The names of the question that could be an organization, read as another thing the form names, that
    its query uses nowhere (by IRI or by a label it matches on): a composed count, ranking or list that
    leaves one out answers of everything ("how many clusters does *Mistral* have": Mistral 7B, the model,
    which no cluster filter takes). A word linked by chance ("ever": the model Eve) names no organization."""
    lowered = sparql.casefold()
    taken = {e.iri for e in form.entities}

    def used(c: Candidate) -> bool:
        return c.iri in sparql or f'"{c.label.casefold()}"' in lowered

    return [
        m.text
        for m in reading.mentions
        if any(c.iri in taken for c in m.candidates)
        and (any(orgs & set(c.types) for c in m.candidates) or _named_thing(m, taken))
        and not any(used(c) for c in m.candidates)
    ]


_NUMBERED = re.compile(r"(?=.*[a-z])(?=.*\d)[a-z][a-z0-9.-]*")
"""A name written as a model number: letters, then digits among them ("gpt-4o", "mi300x")."""


def _named_thing(m: Mention, taken: AbstractSet[str]) -> bool:
    """True when the mention names, by its whole name, a thing the form took ("models trained on
    *Tinker*", "the chip of the *GB200 NVL72* with the most memory"): a count or ranking over a set that
    does not use it answers of every thing of the set, not of what was asked. A word of one name only
    ("w" of W.A.L.T, "tflops" of an Ascend 910's label: a unit beside a threshold) is linked by chance."""
    if m.text in UNITS:
        return False
    # a model number ("GPT-4o", "Llama 3.1" as one word) is a name, never a word linked by chance: "and
    # GPT-4o?" after Gemini's monthly users answered Gemini's figures under GPT-4o's name
    whole = len(m.text.split()) >= 2 or _NUMBERED.fullmatch(m.text.casefold()) is not None
    return any(c.iri in taken and (c.how == "exact" or (c.how == "word" and whole)) for c in m.candidates)


class Asker:
    """Understands questions and answers them from the graph, abstaining rather than guessing."""

    def __init__(
        self,
        *,
        store: Store,
        search: Callable[[], Any],
        queries: Callable[[], Mapping[str, NamedQuery]],
        run: Callable[[str, Mapping[str, str]], QueryResult],
        entities: Callable[[], EntityBuilder],
        catalog: Callable[[], Mapping[str, Any]],
        query: Callable[[str], QueryResult] | None = None,
    ) -> None:
        """``search`` returns the current search index, ``queries`` the named queries, ``run`` runs one,
        ``entities`` an entity builder for the current data, ``catalog`` the source documents by graph."""
        self.store, self.search, self.queries, self.run = store, search, queries, run
        self.entities, self.catalog = entities, catalog
        self.query = query if query is not None else store.query
        self._router: tuple[tuple[Any, ...], Router] | None = None
        self._examples: tuple[tuple[Any, ...], dict[str, Vocabulary]] | None = None
        self.sure_at = SURE_AT
        """Least sureness at which an answer is shown (:func:`aikg.ask.compose.sureness`)."""
        self._product_names: tuple[Any, tuple[str, ...]] | None = None
        self._division_names: tuple[Any, tuple[str, ...]] | None = None
        self._chip_lines: tuple[Any, dict[str, Candidate]] | None = None
        self._org_acronyms: tuple[Any, dict[str, Candidate]] | None = None
        self._model_series: tuple[Any, frozenset[str]] | None = None
        self._sites_read: tuple[Any, Sites] | None = None
        self._domain: tuple[Any, Domain] | None = None
        self._statements: tuple[Any, Statements] | None = None

    @classmethod
    def for_services(cls, services: Services) -> Asker:
        """The asker of one application: its store, search index, named queries and lookups."""
        return cls(
            store=services.store,
            search=services.index,
            queries=services.named.all,
            run=services.named.run,
            entities=lambda: EntityBuilder(services),
            catalog=services.catalog,
            query=lambda text: services.runner.query(text),
        )

    # -- understanding ----------------------------------------------------------------------------

    def router(self) -> Router:
        """The router for the current examples (rebuilt only when they change)."""
        queries = self.queries()
        key = tuple((q.name, tuple(q.examples)) for q in queries.values())
        if self._router is None or self._router[0] != key:
            self._router = (key, Router(queries))
        return self._router[1]

    def example_words(self, name: str) -> Vocabulary:
        """The words of one named query's title, description and examples (what a question it answers
        may say)."""
        queries = self.queries()
        key = tuple((q.name, q.title, tuple(q.examples)) for q in queries.values())
        if self._examples is None or self._examples[0] != key:
            vocabs = {
                q.name: Vocabulary.of_examples([q.title, q.description, *q.example_texts()])
                for q in queries.values()
            }
            self._examples = (key, vocabs)
        return self._examples[1].get(name) or Vocabulary.of(())

    def _asks_sources(self, name: str) -> bool:
        """True when a named query's title or examples ask where something comes from (its rows are
        statements with their sources: sources-of-entity, unconfirmed-claims), not a list of things."""
        query = self.queries().get(name)
        return query is not None and any(
            source_words(fold(t)) for t in (query.title, query.description, *query.example_texts())
        )

    def understand(self, question: str) -> tuple[Reading, list[Plan]]:
        """The reading of the question and every intent's plan, best first."""
        text = question.strip()
        if not text:
            raise BadRequest(
                "parameter 'q' is required: a question in plain words", errors=[{"parameter": "q"}]
            )
        if len(text) > MAX_QUESTION:
            raise BadRequest(
                f"the question is longer than {MAX_QUESTION} characters",
                errors=[{"parameter": "q", "length": len(text)}],
            )
        index = self.search()
        router = self.router()
        reading = self._named(router.read(text, index), index)
        queries = self.queries()
        plans = [
            self._plan(intent, score, example, reading, queries, index)
            for intent, score, example in router.scores(reading)
        ]
        named = [m for m in reading.mentions if (m.start, m.end) in router.masked_mentions(reading)]
        for plan in plans:
            plan.score = round(plan.score + _fit(plan, named), 4)
        return reading, sorted(plans, key=lambda p: -p.score)

    def _named(self, reading: Reading, index: Any) -> Reading:
        """The reading with the names its words make beyond the linker's: chip lines, initials, series
        of models, sites (also of the question before a follow-up, which is read as it was answered)."""
        router = self.router()
        # "Kunlun", "Ascend", "Trainium": a chip line read as its maker (:mod:`aikg.ask.lines`)
        reading.mentions = with_lines(reading.folded, reading.mentions, self._lines(index))
        # "the DOE", "NUDT's MT-3000": an organization written by its initials (:mod:`aikg.ask.acronyms`)
        reading.mentions = with_acronyms(
            reading.question, reading.folded, reading.mentions, self._acronyms(index)
        )
        # "Qwen 系列", "which Qwen model": a series of models read as the word their names begin with
        orgs = index.vocab.descendants(AIKG + "Organization")
        reading.mentions = with_series(
            reading.folded, reading.mentions, self._series(index), lambda c: any(t in orgs for t in c.types)
        )
        # "Microsoft's cluster in Des Moines", "Amazon's Madison campus": one site of an organization named by
        # a place its names or address hold (:mod:`aikg.ask.sites`)
        reading.mentions = with_sites(
            reading.folded,
            reading.mentions,
            self._sites(index),
            index.entities,
            router.linker.vocabulary,
            orgs,
            reading.question,
        )
        # a year inside a name linked ("甲骨文 2020 年那个 A100 集群": Oracle 2020 A100 Cluster) is no period
        reading.dates = [
            d
            for d in reading.dates
            if not any(m.start <= d.start and d.end <= m.end for m in reading.mentions)
        ]
        return reading

    def _plan(
        self,
        intent: str,
        score: float,
        example: str,
        reading: Reading,
        queries: Mapping[str, NamedQuery],
        index: Any,
    ) -> Plan:
        plan = Plan(intent, score, example)
        if intent == FACT:
            if reading.mentions:
                plan.mention = reading.mentions[0]
            else:
                plan.missing.append("entity")
            return plan
        q = queries[intent]
        used: set[int] = set()
        dates = date_range(reading.dates)
        for p in q.parameters:
            value: str | None = None
            if p.type == "entity":
                found = _pick(reading.mentions, used, PARAMETER_CLASSES.get(p.name), index)
                if found is not None:
                    value = found.slug
            elif p.type == "date" and dates is not None:
                value = dates[1] if p.name in {"to", "until", "end"} else dates[0]
            if value is None and p.default is not None:
                value = p.default
            if (
                p.name == "include"
                and value == "likely"
                and any(plan.parameters.get(o) for o in OWNER_PARAMETERS)
                and _lists_every_row(reading.folded)
            ):
                # "List xAI's funding rounds", "Anthropic 的融资轮次有哪些": a list of one organization's own
                # rows applies no status or rating default (rounds in late discussions too); a total or
                # ranking keeps the query's (and so does a vendor's: who runs only its chips)
                value = "all"
            if value is not None:
                plan.parameters[p.name] = value
            elif p.required:
                plan.missing.append(p.name)
        return plan

    # -- answering --------------------------------------------------------------------------------

    def ask(self, question: str, after: str | None = None) -> dict[str, Any]:
        """The answer JSON: what was understood, the rows or facts with their sources, or an abstention.
        ``after`` is the question asked before, for a follow-up ("and in Japan?")."""
        reading, plans = self.understand(question)
        form = self.compose(reading, after)
        if form is not None and form.op == "sources":
            plans, form = self._sources_first(plans, form), None
        body = self._answer(question, reading, plans, form)
        if after and form is None and not body["abstained"] and self._changes_topic(reading, body, after):
            # "and in 2024" after a question aikg could not compose ("Meta AI monthly actives in January
            # 2025?"): the period alone routed to the events of 2024, which is not what goes on from it
            body = self._abstain(
                question,
                plans[0],
                plans[:ALTERNATIVES],
                "aikg could not read this follow-up with the question before it.",
            )
        generation = None if body["abstained"] else self._unlinked_generation(reading)
        if generation is not None:
            # "Google's TPU 9 supercomputer", "AWS's Trainium 4 cluster": a chip of a line aikg does not
            # hold or did not read, which the line's word alone answered as every chip of it or its maker
            body = self._abstain(
                question,
                plans[0],
                plans[:ALTERNATIVES],
                f"aikg does not know the “{generation}” the question names.",
            )
        if out_of_scope(reading.folded) and not body["abstained"]:
            # prices of the day, predictions, advice: no named query or fact answers these, however
            # like an example the rest of the question is ("write a poem about the H100")
            body = self._abstain(
                question, plans[0], plans[:ALTERNATIVES], "aikg does not know how to answer this question."
            )
        if not body["abstained"] and asks_forecast(reading.folded) and not answers_plans(body):
            # "OpenAI 下一轮融资会估值多少": the past rounds are not the next one's valuation
            body = self._abstain(
                question,
                plans[0],
                plans[:ALTERNATIVES],
                "aikg holds no forecast of this: it knows what sources reported, and plans only of "
                "clusters, data centers and their capacity.",
            )
        query = body["understood"].get("query")
        if (
            query
            and not body["abstained"]
            and not query.startswith("sources")
            and _YES_NO.search(reading.folded)
        ):
            # "Did Google invest in Anthropic's Series F?": a named query's list of rows says neither yes
            # nor no (the sources of a thing are an answer to "is it reliable?")
            body = self._abstain(
                question,
                plans[0],
                plans[:ALTERNATIVES],
                "aikg cannot say yes or no to this: none of its facts states it.",
            )
        body = self._calibrated(reading, body, plans, form)
        if (
            body["abstained"]
            and body["answer"].get("kind") != "timeout"
            and asks_source(reading.folded)
            and not out_of_scope(reading.folded)
            and not asks_forecast(reading.folded)
        ):
            # "who relayed that a model was pre-trained in under 3 days", "4096 颗芯片组成 6D Torus 最坏只要
            # 12 跳是谁说的": a statement named by its words, not by a thing; its sources, when its words
            # find it (:mod:`aikg.ask.described`) and every word is then understood
            found = self._described(reading, form)
            if found is not None:
                other = self._calibrated(reading, self._composed(question, found, []), plans, found, True)
                if not other["abstained"]:
                    return other
        elif (
            body["abstained"]
            and body["answer"].get("kind") != "timeout"
            and not out_of_scope(reading.folded)
            and not asks_forecast(reading.folded)
        ):
            # "累计 4.2 倍的提升是跟谁比的", "what triggered China's LLM API price war": a figure or link of a
            # statement named by its words, which the things named do not hold themselves
            fact = self._described_fact(reading, form)
            if fact is not None:
                stated = self._form_fact(question, reading, fact)
                if stated is not None and not stated["abstained"]:
                    stated = self._calibrated(reading, stated, plans, fact, True)
                    if not stated["abstained"]:
                        return stated
        return body

    def _changes_topic(self, reading: Reading, body: dict[str, Any], after: str) -> bool:
        """True when a follow-up that names nothing of its own ("and in 2024", "那 2023 年呢") is answered
        by a named query the question before it would not be read as: its words alone chose the query,
        and what it goes on from is lost (the question before could not be composed with it)."""
        query = body["understood"].get("query")
        follows = FOLLOW_UP.search(reading.folded) or SUBSET.search(reading.folded)
        if not query or reading.mentions or not follows:
            return False
        _, before = self.understand(after.strip()[:MAX_QUESTION])
        return not before or before[0].intent != query

    def _described_fact(self, reading: Reading, form: Form | None) -> Form | None:
        """The fact form of the statement the question names by its words (:meth:`_described`) that
        holds the property it asks for — the form's, else one its words name (:data:`PROPERTY_WORDS`) —,
        the statement found first that holds one; None when none does."""
        statements = self._statements_of()
        named = [(m.text, [c.iri for c in m.candidates]) for m in reading.mentions]
        found = statements.find(reading.folded, named)
        if not found:
            return None
        # the property its words name, unless the statement's own words say them (单位成本性能 of the
        # per-cost claim describes it; 依据 asks its basis), then the reading's
        said = statements.words[found[0].iri]

        def described(prop: str) -> bool:
            words = [w for p, ws in PROPERTY_WORDS if p == prop for w in ws if has_words(reading.folded, [w])]
            return bool(words) and all(words_of(w) <= said for w in words)

        if form is not None and form.prop and (form.op == "fact" or not described(form.prop)):
            # the property the reading asks of a thing named ("what currency are Tinker's prices in"), or
            # one the statement's own words do not say: that one or none
            asked = [form.prop]
        else:
            asked = [
                p
                for p, words in PROPERTY_WORDS
                if any(has_words(reading.folded, [w]) and not words_of(w) <= said for w in words)
            ]
            # then the reading's, which the statement's words may only restate ("how many GB300 GPUs")
            asked += [form.prop] if form is not None and form.prop else []
        asked = list(dict.fromkeys(asked))
        if not asked:
            return None
        rows = self.store.query(
            f"SELECT DISTINCT ?x ?p WHERE {{ VALUES ?x {{ {' '.join(f'<{f.iri}>' for f in found)} }}"
            f" VALUES ?p {{ {' '.join(f'<{AIKG}{p}>' for p in asked)} }} ?x ?p ?v }}"
        ).rows
        held = {
            (r[0].value, r[1].value.rsplit("#", 1)[-1]) for r in rows if r[0] is not None and r[1] is not None
        }
        for f in found:
            prop = next((p for p in asked if (f.iri, p) in held), None)
            if prop is not None:
                label = self.store.query(f"SELECT ?l WHERE {{ <{f.iri}> <{RDFS_LABEL}> ?l }} LIMIT 1").rows
                name = label[0][0].value if label and label[0][0] is not None else f.iri
                node = Candidate(f.iri, f.iri.rsplit("/", 1)[-1], name, (), "described", f.weight)
                return Form(op="fact", entities=[node], prop=prop, lang=reading.language)
        return None

    def _statements_of(self) -> Statements:
        """The words of the source documents' statements (:class:`aikg.ask.described.Statements`), read
        once per search index."""
        index = self.search()
        if self._statements is None or self._statements[0] is not index:
            texts = [
                (
                    r[0].value,
                    r[1].value if r[1] is not None else None,
                    r[2].value if r[2] is not None else None,
                    r[3] is not None,
                )
                for r in self.store.query(STATEMENTS_QUERY).rows
                if r[0] is not None
            ]
            self._statements = (index, Statements(texts))
        return self._statements[1]

    def _described(self, reading: Reading, form: Form | None) -> Form | None:
        """The provenance form of the statements the question names by their words (their names,
        descriptions, figures and quoted sentences), when one stands out; None otherwise. A figure the
        reading took the question to ask (``form``'s property: "是实测的还是估算的" of 276 GPU hours) is
        asked of the statements that state it, and none when none does ("Soumith 转述的预训练用了多少张
        GPU": the relayed claim gives no GPU count)."""
        named = [(m.text, [c.iri for c in m.candidates]) for m in reading.mentions]
        found = self._statements_of().find(reading.folded, named)
        # Epoch's rating of a row ("how sure is …") is no figure a source document states; a party or a
        # document asked for ("who", 哪家媒体, "the URL of the article that says …") is the statement's,
        # whatever figure its words give
        prop = form.prop if form is not None and form.prop != "sourceConfidence" else None
        prop = None if asks_party(reading.folded) else prop
        if found and prop:
            holding = self.store.query(
                f"SELECT DISTINCT ?x WHERE {{ VALUES ?x {{ {' '.join(f'<{f.iri}>' for f in found)} }}"
                f" ?x <{AIKG}{prop}> ?v }}"
            ).rows
            held = {r[0].value for r in holding if r[0] is not None}
            found = [f for f in found if f.iri in held]
        if not found:
            return None
        things = " ".join(f"<{f.iri}>" for f in found)
        named_rows = self.store.query(
            f"SELECT ?x (SAMPLE(?l) AS ?label) (SAMPLE(?report) AS ?cited) WHERE {{ VALUES ?x {{ {things} }}"
            f" ?x <{RDFS_LABEL}> ?l OPTIONAL {{ ?x a <{AIKG}Report> BIND(true AS ?report) }} }} GROUP BY ?x"
        ).rows
        labels = {r[0].value: r[1].value for r in named_rows if r[0] is not None and r[1] is not None}
        reports = {r[0].value for r in named_rows if r[0] is not None and r[2] is not None}
        if not names_document(reading.folded):
            # no article or report asked for: the statements themselves, not a report citing them
            found = [f for f in found if f.iri not in reports]
            if not found:
                return None
        if found[0].iri in reports:
            # a report the document cites, named by its title's words ("英伟达世界模型训练速度飙升 400% 那篇
            # 报道"): the source asked for is that report itself, its outlet, link and date
            found = found[:1]
        entities = [
            Candidate(f.iri, f.iri.rsplit("/", 1)[-1], labels.get(f.iri, f.iri), (), "described", f.weight)
            for f in found
        ]
        value = form.value if prop and form is not None else None
        if found[0].iri in reports:
            return Form(op="provenance", entities=entities[:1], lang=reading.language, document=True)
        return Form(op="provenance", entities=entities, lang=reading.language, prop=prop, value=value)

    def _sources_first(self, plans: list[Plan], form: Form) -> list[Plan]:
        """The plans with the named query of every statement's sources about the thing the form names
        first: a provenance question that names a thing and no figure of it ("how sure is the Inkling
        model", "Tinker 训练单价 1.50 是哪篇文章里说的") asks that query of that thing, however little its
        words are like the query's examples."""
        plan = next((p for p in plans if p.intent == SOURCES_QUERY), None)
        if plan is None:
            return plans
        plan.parameters["entity"] = form.entities[0].slug
        plan.missing = [m for m in plan.missing if m != "entity"]
        plan.score = max(plan.score, TEMPLATE_AT)  # the words chose it, as a template that fits
        return [plan] + [p for p in plans if p is not plan]

    # -- how sure (issue 44) ----------------------------------------------------------------------

    def unknown_words(self, reading: Reading, query: str | None = None) -> list[str]:
        """The words of the question the reading does not account for: not a name, date or number it
        read, nor a word of the composer's vocabulary, the ontology's labels or (when a named query
        answers) that query's title and examples."""
        index = self.search()
        return unexplained_words(
            reading.folded,
            reading.mentions,
            self.router().linker.vocabulary,
            self._labels(index),
            self._products(index),
            self.example_words(query) if query else None,
        )

    def _calibrated(
        self,
        reading: Reading,
        body: dict[str, Any],
        plans: list[Plan] | None = None,
        form: Form | None = None,
        described: bool = False,
    ) -> dict[str, Any]:
        """The answer with how sure its reading is (``understood.sure``, ``understood.unknown``); an
        answer read with too little sureness is replaced by what was understood and that aikg is not
        sure — the words it did not understand may change the answer (a qualifier, a filter)."""
        understood = body["understood"]
        query = understood.get("query")
        unknown = self.unknown_words(reading, query)
        if form is not None:
            # "Meta's *FAIR*", "Anthropic 研发部*门*": the division the form keeps to (its staff rows)
            unknown = [w for w in unknown if not division_word(form, w, reading.folded)]
            unknown = restated(form, reading.folded, of_one_thing(form, unknown, reading.folded))
            unknown += [w for w in not_kept(form, reading.folded) if w not in unknown]
        if form is not None and form.prop and form.op in ("fact", "joint", "provenance"):
            # a word of the property's own label standing apart from the rest of it ("the *origin* of
            # CoreWeave's *business*", "worst case *hop* count"): the property the form already reads
            said = {
                w
                for label, prop in self._labels(self.search()).items()
                if prop == form.prop
                for w in re.findall(r"[a-z]{3,}", label)
            }
            unknown = [w for w in unknown if w.casefold() not in said]
        if form is not None and form.period_said:
            # "那上半年呢", "and the second half?": the half read in the year of the question before
            unknown = [w for w in unknown if w.casefold() not in form.period_said]
        if form is not None and form.op == "event" and unknown and not body["abstained"]:
            # words the organization's own events say ("switch from *mining* to GPU cloud": its start as
            # an Ethereum mining operation) tell the event asked for, they ask nothing else
            told = self._events_told(form)
            unknown = [w for w in unknown if not _event_told(w.casefold(), told)]
        if form is not None and form.op == "provenance" and form.entities and unknown:
            # the words of what the sources say of the thing ("TPU v9 *双轨*的传闻", "keeps two tracks":
            # the rumour concerning it) tell which statement is asked about, and ask nothing else
            told = self._statements_told(form)
            unknown = [w for w in unknown if w.casefold() not in told]
        if form is not None and form.op in TOLD_OPS and unknown and not body["abstained"]:
            # the words of the statement the answer gives ("the *upgraded* platform beat the *previous*
            # version": the 1.9x claim's own label; NVFP4 训练*策略*: the cause it credits; 接进一个 NVLink
            # 域: its quotation) tell which statement is asked about, and ask nothing else
            nodes = _answered(body) + [e.slug for e in form.entities if form.op == "provenance"]
            stated = self._nodes_told(list(dict.fromkeys(nodes)))
            unknown = [w for w in unknown if not _told(w, stated, lone=described)]
            if described:
                # the statements were found by the question's words: those asking for their source
                # (转发, 结论, "putting out") ask nothing more
                unknown = [w for w in unknown if not asking(w)]
        if unknown and not body["abstained"]:
            # "how many accelerators do Amazon's training clusters have *at minimum*": the bound the source
            # gives the figure answered (its qualifier, "at least / over") restates it, asks nothing more
            bounds = {
                w
                for f in body["answer"].get("facts") or []
                for w in BOUND_SAID.get(((f.get("qualifier") or {}).get("iri") or ""), ())
            }
            unknown = [w for w in unknown if w.casefold() not in bounds]
        seeded = _SEED_DOCUMENT.search(reading.folded)
        if seeded:
            # "per the seed article", "according to the seed documents": the documents aikg was seeded with
            unknown = [w for w in unknown if w.casefold() not in seeded.group().split()]
        names = written_as_names(reading.question, unknown)
        if form is not None and form.lost:
            # "which of them has the highest TDP?" after clusters: the things before, which the form over
            # another class could not keep — every chip ranked is another question's answer
            names += len(form.lost)
        if (
            form is not None
            and form.op == "provenance"
            and not described
            and not body["abstained"]
            and self._apart(form.entities)
        ):
            # "who relayed the claim that *GPT-5* was *pre-trained in under 3 days*": two things named that
            # nothing links (the relayed claim is of an unnamed model) — what the question says of them is
            # not in the graph, and each one's sources are not its source
            names += 1
        why = _WHY.search(reading.folded)
        if why and form is not None and not body["abstained"] and form.prop not in CAUSES:
            # "Why did pre-training on Tinker drop below three days?" answered with the duration, 为什么 Groq
            # 明年能到 200 兆瓦 with the 200 MW: a reason asked, which no figure or list says
            unknown, names = unknown + ([why.group()] if why.group() not in unknown else []), names + 1
        sayers = [
            e.label
            for e in (form.entities if form is not None and form.op == "compare" else [])
            if NOT_COMPARED & {t.rsplit("#", 1)[-1] for t in e.types}
        ]
        if sayers and not body["abstained"]:
            # "What does Tinker charge for training, per the price list Soumith relayed?": Tinker compared
            # with the person who relayed its prices — a person or a source document is who says a figure,
            # never a side holding one
            unknown, names = unknown + [w for w in sayers if w not in unknown], names + 1
        if not body["abstained"] and not described:
            # "哪篇文章说 OpenAI 和 SB Energy 签了 20 年的租约" answered with OpenAI's deals, "Inkling 总参数
            # 975B 这个说法是哪个媒体报的" with a comparison of the model and the article: the source asked is
            # in no row of a comparison, nor of a named query whose own words never ask one
            asked = source_words(reading.folded)
            if asked and (
                (form is not None and form.op == "compare")
                or (
                    query
                    and not self._asks_sources(query)
                    and any(unexplained(w, [], self.example_words(query)) for w in asked)
                )
            ):
                unknown += [w for w in asked if w not in unknown]
                names += 1
        if query and not body["abstained"] and unknown and not body["answer"].get("rows"):
            # "What was NVIDIA's gross margin in fiscal 2025?" read as the models trained on NVIDIA's chips,
            # none in fiscal 2025: a template that finds nothing for a question it does not wholly read says
            # nothing of what was asked (on the development part every right empty answer read every word)
            names += 1
        if query and not body["abstained"]:
            orgs = self.search().vocab.descendants(AIKG + "Organization")
            shown = json.dumps(body["answer"], ensure_ascii=False)
            dropped = [
                m.text
                for m in _dropped_names(reading, understood.get("parameters") or {}, orgs)
                if f'"{m.best.slug}"' not in shown and m.best.iri not in shown
            ]
            # any other thing named that the query neither takes nor shows nor says in its examples ("how
            # sure is the 6D torus for *TPU v9t*" answered by every topology's hop counts): what was
            # asked about is not in the answer
            vocab = self.example_words(query)
            dropped += [
                m.text
                for m in _unused_names(reading, understood.get("parameters") or {}, orgs)
                if m.text not in dropped
                and f'"{m.best.slug}"' not in shown
                and m.best.iri not in shown
                and m.best.label not in shown
                and unexplained(m.text, [], vocab)
            ]
            # no named query takes a country: "who owns the largest clusters in Japan" answered with every
            # country's owners drops Japan, and with it what was asked
            dropped += countries_named(reading.folded)
            unknown, names = unknown + dropped, names + len(dropped)
        if (
            form is not None
            and form.op == "fact"
            and len(form.entities) == 1
            and unknown
            and not body["abstained"]
            and _ONE_OF_TWO.search(reading.folded)
        ):
            # "X 和 Meta 的普罗米修斯，哪个造价更高": a comparison answered with one side's figure, the
            # other side a word not linked; the answer would say nothing of which is more
            names += 1
        if form is not None and form.dates and not body["abstained"]:
            # "models Tencent put out betwen 2023 and 2024": a year of the question outside the period the
            # form reads (2023 alone) is a date the answer did not use
            left = _years_left(reading, form.dates)
            unknown, names = unknown + [y for y in left if y not in unknown], names + len(left)
        if form is not None and form.op == "list" and not form.threshold and not body["abstained"]:
            # "2024 年发布的芯片里哪款显存最大" listed every chip of 2024: a ranking word the list does not
            # apply says the answer is another question's
            unranked = [w for w in ranking_words(reading.folded) if w not in unknown]
            unknown, names = unknown + unranked, names + len(unranked)
        if form is not None and not query and not body["abstained"] and form.op in PROPERTY_OPS:
            # "of NVIDIA's chips over 4 TB/s, which has the highest *TDP*" ranked by bandwidth: a property of
            # the things asked about that the ranking, count or list does not use asks another question
            unused = [w for w in unused_properties(form) if w not in unknown]
            unknown, names = unknown + unused, names + len(unused)
        if form is not None and not query and not body["abstained"] and form.op in RESTRICTED_OPS:
            # a thing named that the composed query over a set does not use ("how many clusters does
            # *Mistral* have in China": Mistral read as the model Mistral 7B, which no cluster filter
            # takes, counted every cluster in China): what was asked about is not in the answer
            orgs = self.search().vocab.descendants(AIKG + "Organization")
            dropped = _unused_entities(form, understood.get("sparql") or "", reading, orgs)
            unknown, names = unknown + [d for d in dropped if d not in unknown], names + len(dropped)
        if (
            form is not None
            and not query
            and not body["abstained"]
            and form.op in RESTRICTED_OPS
            and form.threshold
            and not (form.prop or form.threshold_prop)
        ):
            # a bound read with no figure to weigh it against ("more than 2,000" of what): no query applies
            # it, and every thing of the set came back — what was asked is not the answer
            bound = f"{form.threshold[0]} {form.threshold[1]:g}"
            unknown, names = unknown + [bound], names + 1
        # "memory per watt", "人均收入": a ratio no figure is divided by; read without it, another question
        ratio = [r for r in ratios(reading.folded) if r not in unknown]
        if form is not None and form.prop == "speedup" and form.measure == "cost":
            # a speed-up on its per-cost measure ("how much better *per dollar*", 每美元): the claim's own
            # measure (单位成本性能), which the form applies, no ratio aikg lacks
            ratio = [r for r in ratio if not _PER_MONEY.search(r)]
            unknown = [w for w in unknown if not _PER_MONEY.search(w)]
        unknown += ratio
        # "open-weight models", "推理芯片": a qualifier the lexicon knows that the reading did not apply
        qualifier = [w for w in self._unapplied(reading, body, form) if w not in unknown]
        if described and form is not None:
            # a qualifier the statements found say ("the TPU v9 rumour: an *inference* chip and a training
            # chip") describes them: their sources are the answer
            found_said = self._nodes_told([e.slug for e in form.entities])
            qualifier = [w for w in qualifier if not _told(w, found_said, lone=True)]
        unknown += qualifier
        domain, spans = self.domain(), self._name_spans(reading)
        if query:
            # a named query: a word that asks what no template applies (an operator: "excluding",
            # "average", "second"; a ratio; a qualifier) makes it unsure, as for a composed form; other
            # words are tolerated by count (TEMPLATE_WORD): on the development part, weighing every word
            # of the domain as for a composed form made 22 right answers unsure (paraphrases: "mention",
            # "grouped", "agreed", 增加, 分类) and no wrong one
            # a part of a name the reading did not link ("升级版平台": the upgraded platform) names what
            # the template was not given: its rows are others' (every speed-up claim), never the answer
            meant = [
                w
                for w in unknown
                if w in ratio
                or w in qualifier
                or meaning(reading.folded, w, domain, spans) == "operator"
                or domain.names_part(w)
            ]
            per_word = TEMPLATE_WORD
        else:
            # a composed form or a fact: a word that carries meaning it did not use makes it unsure; a
            # word that asks nothing of this domain ("wins", "pls", 话说) is said unused and lowers it
            meant = [
                w
                for w in unknown
                if w in ratio or w in qualifier or meaning(reading.folded, w, domain, spans)
            ]
            per_word = UNUSED_WORD
        sure = UNSURE if names else sureness(meant) * per_word ** (len(unknown) - len(meant))
        if query and not body["abstained"] and self._asked_elsewhere(plans or [], unknown, query):
            # "哪些公司投资了别的公司" is not the NVIDIA-only capacity it is most like: 投资 (invest) is
            # a word of another query's questions, so the question asks what that one answers
            sure = min(sure, UNSURE)
        understood["unknown"] = unknown
        understood["sure"] = sure >= self.sure_at
        if body["abstained"]:
            return body
        understood["confidence"] = round(min(understood["confidence"], sure), 3)
        if not understood["sure"]:
            return self._unsure(body, unknown)
        if understood["confidence"] < SHOW_AT:
            # a named query the question is only a little like (its router score and margin): the
            # closest questions are offered beside what was understood, never a low-confidence answer
            understood["sure"] = False
            return self._unsure(body, unknown, low=understood["confidence"])
        return body

    def _events_told(self, form: Form) -> str:
        """The labels and descriptions of the corporate events of the organizations of an event form,
        and their origin business, casefolded in one text."""
        orgs = " ".join(f"<{e.iri}>" for e in form.entities)
        rows = self.store.query(
            f"SELECT ?t WHERE {{ VALUES ?org {{ {orgs} }} {{ ?e <{AIKG}agent> ?org ;"
            f" a <{AIKG}CorporateEvent> ; <{RDFS_LABEL}>|<{AIKG}description> ?t }}"
            f" UNION {{ ?org <{AIKG}originBusiness> ?t }} }}"
        ).rows
        return " ".join(r[0].value.casefold() for r in rows if r[0] is not None)

    def _statements_told(self, form: Form) -> str:
        """The labels and descriptions of what the sources state about the things of a provenance form
        (the nodes concerning them: a rumour, a claim), casefolded in one text."""
        things = " ".join(f"<{e.iri}>" for e in form.entities)
        rows = self.store.query(
            f"SELECT ?t WHERE {{ VALUES ?x {{ {things} }} ?s <{AIKG}concerns> ?x ."
            f" ?s <{RDFS_LABEL}>|<{AIKG}description> ?t }}"
        ).rows
        return " ".join(r[0].value.casefold() for r in rows if r[0] is not None)

    def _apart(self, entities: list[Candidate]) -> bool:
        """True when two of the things named are not linked within two steps (either way, through any
        node but a class): a provenance question relating them asks about what the graph does not hold."""
        if len(entities) < 2 or len(entities) > 4:
            return False
        pairs = " ".join(
            f"(<{a.iri}> <{b.iri}>)"
            for i, a in enumerate(entities)
            for b in entities[i + 1 :]
            if a.iri != b.iri
        )
        if not pairs:
            return False
        typed = f"FILTER(?p != <{RDF_TYPE}> && ?q != <{RDF_TYPE}>)"
        rows = self.store.query(
            f"SELECT ?a ?b WHERE {{ VALUES (?a ?b) {{ {pairs} }} FILTER NOT EXISTS {{"
            f" {{ ?a ?p ?b BIND(?p AS ?q) }} UNION {{ ?b ?p ?a BIND(?p AS ?q) }}"
            f" UNION {{ ?a ?p ?m . ?m ?q ?b }} UNION {{ ?a ?p ?m . ?b ?q ?m }}"
            f" UNION {{ ?m ?p ?a . ?m ?q ?b }} UNION {{ ?m ?p ?a . ?b ?q ?m }} {typed} }} }}"
        ).rows
        return bool(rows)

    def _own_thing(self, form: Form) -> Form | None:
        """The fact of the one thing a joint form names beside an organization the thing itself links to
        (its maker, developer, operator, owner: "xAI's Colossus Memphis Phase 3 power", "NVIDIA's A100
        TDP", 英伟达的 A100 功耗), None otherwise. The organization says whose the thing is, not a second
        thing to join: the nodes linking both are other things (Colossus Phase 2, the A100's variants),
        whose figures answered with confidence for the thing named."""
        apart = form.apart
        if apart is None or apart.op != "fact" or len(apart.entities) != 1 or len(form.entities) != 2:
            return None
        orgs = self.search().vocab.descendants(AIKG + "Organization")
        thing = apart.entities[0]
        others = [e for e in form.entities if e.iri != thing.iri]
        if len(others) != 1 or not orgs & set(others[0].types) or orgs & set(thing.types):
            return None
        rows = self.store.query(
            f"SELECT ?p WHERE {{ <{thing.iri}> ?p <{others[0].iri}> FILTER(?p != <{RDF_TYPE}>) }} LIMIT 1"
        ).rows
        return replace(apart, orgs=[]) if rows else None

    def _nodes_told(self, nodes: list[str]) -> tuple[str, frozenset[str]]:
        """What the source documents say in words of the nodes an answer gives (those their graphs name):
        their names, titles, descriptions, notes and other texts, the sentences quoted as their evidence,
        and the names of the things they link to (a claim's platforms and causes) — casefolded, whole and
        as words."""
        # only the statements of the source documents: a dataset's row is no description of the question
        # ("Snellius *phase* 2" is not phase 1, whose label has the word)
        known = self._statements_of().words
        nodes = [n for n in nodes if f"{ID}{n}" in known]
        if not nodes:
            return "", frozenset()
        things = " ".join(f"<{ID}{n}>" for n in nodes)
        rows = self.store.query(
            f"SELECT ?t WHERE {{ VALUES ?x {{ {things} }}"
            f" {{ ?x ?p ?t FILTER(isLiteral(?t) && ?p != <{AIKG}sourceRow>) }}"
            f" UNION {{ ?q <{AIKG}evidenceFor> ?x ; <{AIKG}quotedText> ?t }}"
            f" UNION {{ ?x ?p ?o . ?o <{RDFS_LABEL}>|<{SKOS_ALT}> ?t"
            f" FILTER(?p != <{RDF_TYPE}>) }}"
            # the class a source document's graph gives the node ("the 6D torus *configuration*": an
            # aikg:TopologyConfiguration), by its own label
            f" UNION {{ GRAPH ?g {{ ?x <{RDF_TYPE}> ?c }} FILTER(STRSTARTS(STR(?g), '{GRAPH}sources/'))"
            f" ?c <{RDFS_LABEL}> ?t }} }}"
        ).rows
        text = " ".join(r[0].value.casefold() for r in rows if r[0] is not None)
        return text, frozenset(_stem(w) for w in re.findall(r"[a-z0-9][a-z0-9.]*", text))

    def _unapplied(self, reading: Reading, body: dict[str, Any], form: Form | None) -> list[str]:
        """The qualifiers of the question (:mod:`aikg.ask.qualifiers`) its answer does not apply: the
        composed form's status, spending category or property; a fact's property; a named query's own
        words (a query about inference says it)."""
        understood, answer = body["understood"], body["answer"]
        if body["abstained"]:
            return []
        query = understood.get("query")
        if query:
            # a named query applies no qualifier and no operator of the composer's ("which operators use
            # only NVIDIA hardware, *excluding* OpenAI" listed OpenAI first) unless its examples say it
            vocab = self.example_words(query)
            said = [w for w in operators(reading.folded) if unexplained(w, [], vocab)]
            return said + unapplied(reading.folded, None, explained=lambda w: not unexplained(w, [], vocab))
        if form is not None and understood.get("form") and form.op in RESTRICTED_OPS:
            return unapplied(reading.folded, lambda kind: applied_by_form(kind, form))
        # a fact of a thing named (or a role, a comparison): a status or openness describes the thing or
        # the value ("which *open-source* project did he co-found", "the MW *planned* for 2027"), but a
        # use names the figure asked ("OpenAI's *inference* spend" is not its training compute)
        props = {
            (f.get("property") or {}).get("iri", "").rsplit("#", 1)[-1] for f in answer.get("facts") or []
        }
        return unapplied(
            reading.folded,
            lambda kind: bool(props & PROPERTIES[kind]) or (form is not None and applied_by_form(kind, form)),
            kinds=FACT_QUALIFIERS,
        )

    def domain(self) -> Domain:
        """The words of the whole domain (rebuilt when the search index changes): the graph's names, the
        ontology's labels, the composer's and the router's words and every named query's examples."""
        index = self.search()
        if self._domain is None or self._domain[0] is not index:
            names = [r[0].value for r in self.store.query(NAMES).rows if r[0] is not None]
            # a named query's title and examples (its description is prose: "so", "put")
            examples = [t for q in self.queries().values() for t in (q.title, *q.example_texts())]
            content = [w for _, ws in (*CLASS_WORDS, *PROPERTY_WORDS) for w in ws]
            content += [w for ws, _ in FACT_WORDS for w in ws] + list(UNITS) + list(COUNTRIES)
            content += [w for w in self._labels(index) if not OPERATOR_PHRASE.search(w)]
            words = [*examples, *COMPOSER_WORDS.latin, *COMPOSER_WORDS.cjk]
            self._domain = (index, Domain.of(names, words, content))
        return self._domain[1]

    @staticmethod
    def _name_spans(reading: Reading) -> list[tuple[int, int]]:
        return [(m.start, m.end) for m in reading.mentions]

    def _asked_elsewhere(self, plans: list[Plan], unknown: list[str], query: str) -> bool:
        """True when a word the named query ``query`` does not explain is a word of the title,
        description or examples of another named query the question is nearly as like (its plan's
        score): the question may ask what that one answers, not this one in other words."""
        if not unknown:
            return False
        scores = {p.intent: p.score for p in plans}
        least = ELSEWHERE * scores.get(query, 0.0)
        others = [self.example_words(n) for n in self.queries() if n != query and scores.get(n, 0.0) >= least]
        return any(not unexplained(w, [], vocab) for w in unknown for vocab in others)

    @staticmethod
    def _unsure(body: dict[str, Any], unknown: list[str], low: float | None = None) -> dict[str, Any]:
        """An answer not shown: what was understood, the words that were not, and how to run it anyway."""
        understood, answer = body["understood"], body["answer"]
        if answer["kind"] == "facts":
            entity = answer["entity"]
            what = (
                f"the {answer['property']['label']} of {entity['label']}"
                if answer["property"]
                else f"what aikg knows about {entity['label']}"
            )
            page = (entity.get("links") or {}).get("page")
            links = {"page": page} if page else {}
        else:
            query = answer["query"]
            what = understood.get("description") or query["title"]
            links = dict(query["links"])
        words = ", ".join(f"“{w}”" for w in unknown)
        understood.setdefault("description", what)
        why = (
            f"aikg is only {low:.0%} sure of its reading of the question"
            if low is not None
            else f"aikg did not understand {words} in the question, and the answer may depend on it"
        )
        return {
            **body,
            "answer": {
                "kind": "unsure",
                "message": f"Not sure. {why}. It understood the question as: {what}.",
                "description": what,
                "unknown": unknown,
                "links": links,
            },
            "abstained": True,
        }

    def _answer(
        self, question: str, reading: Reading, plans: list[Plan], form: Form | None
    ) -> dict[str, Any]:
        best = plans[0]
        if form is not None and form.op == "refuse":
            # every word was read, and what it asks is not in the data (a country of a data center)
            return self._abstain(question, best, plans[:ALTERNATIVES], form.why or "")
        if form is not None and form.op == "joint":
            own = self._own_thing(form)
            if own is not None:
                form = own  # "xAI's Colossus Memphis Phase 3 power": the cluster's own, xAI runs it
        if form is not None and form.op == "joint":
            body = self._composed(question, form, alternatives=[])
            if not body["abstained"] or form.apart is None:
                return body
            if invested_by(form, reading.folded, reading.mentions):
                return body  # what one invested in the other: no node says, and their rounds apart are not it
            form = form.apart  # nothing links them all: the things named, one by one
        if form is not None and form.op == "fact" and form.prop and form.entities:
            # One fact of one entity: its page's facts (units, qualifiers, notes, the event it is given on)
            facts = self._form_fact(question, reading, form)
            if facts is not None:
                return facts
        if form is not None and not self._template_fits(best, form, reading.folded):
            return self._composed(question, form, alternatives=[])
        if form is not None and form.dates and best.intent != FACT:
            self._dates_into(best, form.dates)
        if form is None and best.intent != FACT and not self._takes_dates(best.intent, reading):
            # "How much did Anthropic raise in 2025?" is not every round since 2021
            return self._abstain(
                question,
                best,
                plans[:ALTERNATIVES],
                "aikg could not apply the dates of the question to the query that would answer it.",
            )

        # Offered besides an answer: other readings nearly as likely (the abstentions offer the closest).
        alternatives = [p for p in plans[1:] if p.feasible and p.score >= max(ANSWER_AT, 0.6 * best.score)]
        alternatives = alternatives[:ALTERNATIVES]
        if best.score < (FACT_AT if best.intent == FACT else ANSWER_AT):
            return self._abstain(
                question, best, plans[:ALTERNATIVES], "aikg does not know how to answer this question."
            )
        if not best.feasible:
            what = ", ".join(best.missing)
            return self._abstain(
                question,
                best,
                [best] + alternatives,
                f"aikg could not tell which {what} the question is about.",
            )
        confidence = _confidence(best, plans)
        if best.intent == FACT:
            return self._fact(question, reading, best, confidence, alternatives)
        q = self.queries()[best.intent]
        try:
            result = self.run(q.name, best.parameters)
        except QueryTimeout:
            links = query_links(q, best.parameters)
            body = self._body(question, best.intent, best.parameters, None, confidence, {}, True, [])
            body["answer"] = {
                "kind": "timeout",
                "message": f"aikg understood the question as: {q.title}. The answer ran out of time; "
                "run it from the query's page or the SPARQL editor.",
                "description": q.title,
                "links": links,
            }
            return body
        index = self.search()
        answer = rows_answer(
            self.store, q, best.parameters, result, index, self.catalog(), self.entities().term, MAX_ROWS
        )
        return self._body(
            question, best.intent, best.parameters, None, confidence, answer, False, alternatives
        )

    # -- composition (issue 44) -------------------------------------------------------------------

    def _dates_into(self, plan: Plan, dates: tuple[str, str]) -> None:
        """The form's date range (both ends read together) as the named query's date parameters."""
        for p in self.queries()[plan.intent].parameters:
            if p.type == "date":
                value = dates[1] if p.name in {"to", "until", "end"} else dates[0]
                if value not in (OPEN_START, OPEN_END):
                    plan.parameters[p.name] = value

    def _takes_dates(self, intent: str, reading: Reading) -> bool:
        """False when the question gives a period and the named query has no date to take it."""
        folded = reading.folded
        dates, spans = read_dates(folded)
        if dates is None or all(folded[s:e].strip().isdigit() for s, e in spans):
            return True  # no period, or a bare number that may be a count ("2048 张 H800")
        if all(any(m.start <= s and e <= m.end for m in reading.mentions) for s, e in spans):
            return True  # the year of a name linked ("甲骨文 2020 年那个 A100 集群"), no period
        return any(p.type == "date" for p in self.queries()[intent].parameters)

    def _template_fits(self, best: Plan, form: Form, folded: str = "") -> bool:
        """True when a named query answers the question as well as the composed form would: it is very
        like the query's examples and the form asks for no filter the query cannot take."""
        if best.intent == FACT or not best.feasible:
            return False
        if form.per and form.op == "top" and best.score >= ANSWER_AT:
            return True  # "who owns the largest clusters": the owners' ranking is a named query's
        if (
            form.carrier == "event"
            and form.op == "list"
            and form.dates
            and not (form.orgs or form.entities or form.country or form.threshold)
            and best.score >= ANSWER_AT
            and "date" in {p.type for p in self.queries()[best.intent].parameters}
        ):
            # "events from 2019 until 2024", "2024年12月有什么事件": the named query of what happened in a
            # period, which holds the models released then too (the class of events alone holds none)
            return True
        if best.score < TEMPLATE_AT:
            return False
        if (
            form.threshold
            or form.country
            or form.countries
            or form.region
            or form.status
            or form.op in ("compare", "provenance", "sum", "rank")
        ):
            return False
        if (
            form.op == "top"
            and form.carrier in RANK_BY
            and form.prop not in (RANK_BY[form.carrier], "gpuHours")
        ):
            return (
                False  # the named rankings rank by size (H100-equivalents, compute, GPU-hours), not by cost
            )
        if form.op == "top" and form.k != TOP_K:
            return False  # "前三大集群", "the three biggest": a named ranking shows its own number of rows
        if form.ascending or form.chips or (form.op == "count" and not form.per):
            return False  # a named query ranks from the top and lists; it neither counts nor filters by chip
        if form.op == "series" and form.latest:
            return False  # "its latest round", "最近一次": the composed figures, newest first
        if (
            form.op == "series"
            and form.carrier == "funding"
            and form.prop == "postMoneyValuation"
            and not form.class_named
        ):
            # "xAI's valuation": what the company is worth, its newest round's valuation first; the
            # named query lists every round, oldest first, with the amounts raised (which "valuation and
            # funding rounds", naming the class, asks for)
            return False
        q = self.queries()[best.intent]
        kinds = {p.type for p in q.parameters}
        if form.dates and "date" not in kinds:
            return False
        if form.class_named and form.op == "list" and self._class_unsaid(form, folded, best.intent):
            # "which chips has Huawei made?", "which models has Mistral made?": the things asked for are
            # of a class the query's title and examples never name — its rows (the organization's deals)
            # are other things, shown with confidence where the composed list answers
            return False
        if (form.orgs or form.entities) and "entity" not in kinds:
            return False
        if form.per and form.op == "top":
            return best.score >= ANSWER_AT  # "who owns the largest clusters": a named query's ranking
        return best.score >= TEMPLATE_STRONG or form.op in ("list", "series")

    def _class_unsaid(self, form: Form, folded: str, query: str) -> bool:
        """True when the question names the form's class by a word (:data:`CLASS_WORDS`) that the named
        query's title, description and examples never use."""
        words = [w for key, ws in CLASS_WORDS if key == form.carrier for w in ws]
        said = [w for w in words if re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", folded)]
        vocab = self.example_words(query)
        return bool(said) and all(unexplained(w, [], vocab) for w in said)

    def _labels(self, index: Any) -> dict[str, str]:
        """The ontology's own labels (English and Chinese) of the properties aikg composes over."""
        out: dict[str, str] = {}
        for prop in PROPERTY_LABELS.keys() - LABELS_NOT_WORDS:
            for text in (index.vocab.labels.get(AIKG + prop) or {}).values():
                word = re.sub(r"\s*[(（].*?[)）]", "", text).strip().casefold()
                if len(word) >= 2:
                    out[word] = prop
        return out

    def _read(self, reading: Reading, index: Any, context: str | None = None) -> Form | None:
        router = self.router()
        return read_form(
            reading.question,
            reading.folded,
            reading.mentions,
            reading.language,
            index.vocab,
            self._labels(index),
            router.linker.vocabulary,
            reading.properties[0].properties[0] if reading.properties else None,
            self._products(index),
            context,
            self._divisions(index),
        )

    def _divisions(self, index: Any) -> tuple[str, ...]:
        """The divisions the staff figures name, read once per search index."""
        if self._division_names is None or self._division_names[0] is not index:
            rows = self.store.query(DIVISIONS).rows
            self._division_names = (index, tuple(sorted({r[0].value for r in rows if r[0] is not None})))
        return self._division_names[1]

    def _products(self, index: Any) -> tuple[str, ...]:
        """The products the usage figures name ("ChatGPT", "Gemini"), read once per search index."""
        if self._product_names is None or self._product_names[0] is not index:
            rows = self.store.query(PRODUCTS).rows
            self._product_names = (index, tuple(sorted({r[0].value for r in rows if r[0] is not None})))
        return self._product_names[1]

    def _lines(self, index: Any) -> dict[str, Candidate]:
        """The chip lines of the graph's accelerators (:func:`aikg.ask.lines.chip_lines`), read once per
        search index."""
        if self._chip_lines is None or self._chip_lines[0] is not index:
            rows = [
                tuple(t.value for t in r if t is not None)
                for r in self.store.query(LINES_QUERY).rows
                if None not in tuple(r)
            ]
            # a word the composer or the named queries' examples use is no line ("Data Center GPU Max")
            known = (COMPOSER_WORDS | Vocabulary.of(KIND_WORDS)).latin | self.router().linker.vocabulary
            self._chip_lines = (index, chip_lines(rows, lambda w: any(s in known for s in stems(w))))
        return self._chip_lines[1]

    def _sites(self, index: Any) -> Sites:
        """The clusters and data centers with the words of their names and places
        (:func:`aikg.ask.sites.sites_of`), read once per search index."""
        if self._sites_read is None or self._sites_read[0] is not index:
            rows = [
                tuple(t.value if t is not None else None for t in r)
                for r in self.store.query(SITES_QUERY).rows
            ]
            self._sites_read = (index, sites_of(rows))  # type: ignore[arg-type]  # five terms a row
        return self._sites_read[1]

    def _unlinked_generation(self, reading: Reading) -> str | None:
        """A chip line's or kind's word with a generation number no linked name covers
        (:func:`aikg.ask.lines.unlinked_generation`)."""
        words = [*self._lines(self.search()), *KIND_WORDS]
        return unlinked_generation(reading.folded, words, [(m.start, m.end) for m in reading.mentions])

    def _acronyms(self, index: Any) -> dict[str, Candidate]:
        """The organizations' acronyms (:func:`aikg.ask.acronyms.acronyms`), read once per search index."""
        if self._org_acronyms is None or self._org_acronyms[0] is not index:
            rows = [
                (a.value, b.value)
                for a, b in (tuple(r) for r in self.store.query(ACRONYMS_QUERY).rows)
                if a is not None and b is not None
            ]
            known = (COMPOSER_WORDS | Vocabulary.of(KIND_WORDS)).latin | self.router().linker.vocabulary
            self._org_acronyms = (index, acronyms(rows, lambda w: any(s in known for s in stems(w))))
        return self._org_acronyms[1]

    def _series(self, index: Any) -> frozenset[str]:
        """The series words of the graph's models (:func:`aikg.ask.series.model_series`), read once per
        search index."""
        if self._model_series is None or self._model_series[0] is not index:
            labels = [r[0].value for r in self.store.query(SERIES_QUERY).rows if r[0] is not None]
            known = (COMPOSER_WORDS | Vocabulary.of(KIND_WORDS)).latin | self.router().linker.vocabulary
            self._model_series = (index, model_series(labels, lambda w: any(s in known for s in stems(w))))
        return self._model_series[1]

    def compose(self, reading: Reading, after: str | None = None) -> Form | None:
        """The logical form of the question (with the question before it, for a follow-up), or None
        when nothing can be composed."""
        index = self.search()
        previous = None
        if after and after.strip():
            # the question before read as it was answered ("Which models did TII release in 2024?": TII
            # is the Technology Innovation Institute by its initials, kept in "and in 2025?")
            before = self._named(self.router().read(after.strip()[:MAX_QUESTION], index), index)
            previous = self._read(before, index)
            if previous is not None and previous.op == "sources":
                previous.op = ""  # a named query answered it: a follow-up keeps no composed form of it
        form = self._read(reading, index, previous.carrier if previous is not None else None)
        if previous is not None and form is not None:
            merged = merge(previous, form, reading.folded)
            if merged is not None:
                form = merged
        return form if form is not None and form.op else None

    def _composed(self, question: str, form: Form, alternatives: list[Plan]) -> dict[str, Any]:
        """Run a composed form: the rows with the sources of each, and what was done in words."""
        sparql = compile_form(form)
        what = describe(form)
        links = {"editor": "/editor?" + urlencode({"query": sparql})}
        understood = {
            "query": None,
            "parameters": {},
            "entity": form.entities[0].slug if len(form.entities) == 1 else None,
            "confidence": 1.0,  # how sure the words make it: _calibrated
            "form": _form_json(form),
            "description": what,
            "sparql": sparql,
        }
        try:
            result = self.query(sparql)
        except QueryTimeout:
            answer: dict[str, Any] = {
                "kind": "timeout",
                "message": f"aikg understood the question as: {what}. The answer ran out of time; "
                "run it in the SPARQL editor.",
                "description": what,
                "sparql": sparql,
                "links": links,
            }
            return {
                "question": question,
                "understood": understood,
                "answer": answer,
                "abstained": True,
                "alternatives": [],
            }
        index = self.search()
        term = self.entities().term
        rows = result.rows[:MAX_ROWS]
        if not rows and form.orgs and not form.subsidiaries and form.carrier in SUBSIDIARIES_COUNT:
            # "Meta's models" are Meta AI's: an organization with none of its own counts its subsidiaries'
            return self._composed(question, replace(form, subsidiaries=True), alternatives)
        if not rows or (form.op == "count" and _counted_none(result) and self._not_linked(form)):
            return self._composed_none(question, form, understood, what, links)
        missing: list[str] = []
        if form.op == "compare" and "entity" in result.variables and len(form.entities) >= 2:
            # a comparison with a side the data has no figure for: the sides it has, and which it has not
            i = result.variables.index("entity")
            held = {t.value for t in (r[i] for r in rows) if t is not None}
            missing = _without_figure(form, held)
        about_var = next(
            (v for v in ("position", "node", "x", "entity", "org0", "org", "group") if v in result.variables),
            None,
        )
        about_i = result.variables.index(about_var) if about_var else None
        abouts = [r[about_i] if about_i is not None else None for r in rows]
        nodes = sorted({t.value for t in abouts if t is not None and t.value.startswith(str(ID))})
        sources = row_sources(self.store, nodes, self.catalog(), term)
        out_rows = []
        for r, about_term in zip(rows, abouts, strict=True):
            about = about_term.value if about_term is not None else None
            cells = {v: cell_json(t, index) for v, t in zip(result.variables, r, strict=True)}
            if "certainty" in cells and cells["certainty"] is not None:
                cells["certainty"]["label"] = term(cells["certainty"]["value"])["label"]
            if "document" in cells and cells["document"] is not None:
                doc = next((d for d in self.catalog().values() if d.iri == cells["document"]["value"]), None)
                if doc is not None:
                    cells["document"]["label"] = doc.title
            out_rows.append(
                {"cells": cells, "about": about, "sources": sources.get(about, []) if about else []}
            )
        if about_var != "x":
            self._sources_of_totals(form, out_rows)
        every = self._every_row(form, result)
        self._rated_beside(form, result, out_rows)
        answer = {
            "kind": "rows",
            "description": what,
            "summary": _summary(form, result, out_rows, every),
            "note": _no_figure_note(missing, form.lang),
            "query": {"name": None, "title": what, "description": what, "links": links, "sparql": sparql},
            "columns": result.variables,
            "about": about_var,
            "rows": out_rows,
            "total": len(result.rows),
            "truncated": result.truncated or len(result.rows) > MAX_ROWS,
        }
        if every is not None:
            answer["every_row"] = every
        return {
            "question": question,
            "understood": understood,
            "answer": answer,
            "abstained": False,
            "alternatives": self._alternatives(alternatives, exclude=None),
        }

    def _sources_of_totals(self, form: Form, rows: list[dict[str, Any]]) -> None:
        """Each row of a total, a count or a ranking by either cites the sources of the nodes it adds up
        (the rounds of a sum, the clusters of a count), not those of the organization it is grouped by."""
        members = members_query(form)
        if members is None:
            return
        sparql, key = members
        try:
            result = self.query(sparql)
        except QueryTimeout:
            return
        groups: dict[str | None, list[str]] = {}
        x = result.variables.index("x")
        k = result.variables.index(key) if key else None
        for r in result.rows:
            node, by = r[x], (r[k] if k is not None else None)
            if node is not None:
                groups.setdefault(by.value if by is not None else None, []).append(node.value)
        nodes = sorted({n for ns in groups.values() for n in ns})
        found = row_sources(self.store, nodes, self.catalog(), self.entities().term)
        for row in rows:
            cell = row["cells"].get(key) if key else None
            group = cell.get("value") if isinstance(cell, dict) else None
            cited: dict[str, dict[str, Any]] = {}
            for n in groups.get(group, []):
                for source in found.get(n, []):
                    cited.setdefault(source["graph"], source)
            if cited:
                row["sources"] = list(cited.values())

    def _rated_beside(self, form: Form, result: QueryResult, rows: list[dict[str, Any]]) -> None:
        """Beside a total over clusters of a status named with no rating, each row's total of the rows
        Epoch rates at least Likely (:func:`rated_beside`), as its ``rated`` cell where it differs: the
        question says neither reading, so the answer states both."""
        other = rated_beside(form)
        if other is None or not rows or "total" not in result.variables:
            return
        try:
            rated = self.query(compile_form(other))
        except QueryTimeout:
            return
        group = next((v for v in ("org0", "country", "org") if v in result.variables), None)
        if "total" not in rated.variables or (group and group not in rated.variables):
            return
        at = rated.variables.index("total")
        by = rated.variables.index(group) if group else None
        totals: dict[str | None, Any] = {}
        for r in rated.rows:
            key = r[by] if by is not None else None
            totals[key.value if key is not None else None] = r[at]
        index = self.search()
        for row in rows:
            cell = row["cells"].get(group) if group else None
            key = cell.get("value") if isinstance(cell, dict) else None
            total = row["cells"].get("total")
            term = totals.get(key)
            figure = cell_json(term, index) if term is not None else {"value": "0"}
            if figure is None or not isinstance(total, dict) or figure["value"] == total.get("value"):
                continue
            row["cells"]["rated"] = figure

    def _every_row(self, form: Form, counted: QueryResult) -> dict[str, Any] | None:
        """Beside a count with the totals' defaults, the count of every row (planned, decommissioned,
        lower-rated, superseded ones too), per group where the count is per organization or country:
        a person sees both, and which one the answer is."""
        other = every_row(form)
        if other is None:
            return self._own_count(form, counted)
        try:
            result = self.query(compile_form(other))
        except QueryTimeout:
            return None
        index = self.search()
        groups = [v for v in result.variables if v != "count"]
        counts = []
        for row in result.rows:
            cells = dict(zip(result.variables, row, strict=True))
            n = cells.get("count")
            item: dict[str, Any] = {"count": int(n.value) if n is not None else 0}
            for v in groups:
                term = cells.get(v)
                if term is not None:
                    item[v] = cell_json(term, index)
            counts.append(item)
        if form.carrier == "cluster" and form.orgs and len(counts) == 1:
            # every row of the organization itself, without its subsidiaries' (Google: not DeepMind's)
            own = replace(other, every=False, subsidiaries=False)
            with contextlib.suppress(QueryTimeout):
                mine = self.query(compile_form(own))
                # the count's own column: a count of two organizations' clusters is grouped by them first
                # ("the Department of Energy" read as it and Entergy: was a ValueError on the IRI)
                at = mine.variables.index("count") if "count" in mine.variables else 0
                own_counts = [
                    int(t.value) for r in mine.rows if (t := r[at]) is not None and t.value.isdigit()
                ]
                if len(own_counts) == 1 and own_counts[0] != counts[0]["count"]:
                    counts.append({"count": own_counts[0], "without_subsidiaries": True})
        zh = form.lang == "zh"
        return {
            "description": describe(other),
            "note": "全部记录（含规划中、已退役、可信度较低或重复的）"
            if zh
            else "every row, planned, decommissioned, lower-rated and duplicate ones too",
            "counts": counts,
            "counted": len(counted.rows),
        }

    def _own_count(self, form: Form, counted: QueryResult) -> dict[str, Any] | None:
        """Beside a count of an organization's models, chips, runs or sites with its subsidiaries', the
        count of its own alone ("How many models has Google released": Google DeepMind's too, and Google's
        own beside); None when they are the same or the count is of something else."""
        if form.op != "count" or not form.subsidiaries or len(form.orgs) != 1 or len(counted.rows) != 1:
            return None
        # (every row of a status or of any: its clusters too, which the count of every row links through
        # its subsidiaries whatever ``subsidiaries`` says)
        own = replace(form, subsidiaries=False, every=False)
        try:
            rows = self.query(compile_form(own)).rows
        except QueryTimeout:
            return None
        n, m = counted.rows[0][0], rows[0][0] if rows else None
        if n is None or m is None or int(m.value) == int(n.value):
            return None
        zh = form.lang == "zh"
        return {
            "description": describe(own),
            "note": "不含子公司的" if zh else "without its subsidiaries'",
            "counts": [{"count": int(n.value)}, {"count": int(m.value), "without_subsidiaries": True}],
            "counted": 1,
        }

    def _not_linked(self, form: Form) -> bool:
        """True when no node of the class counted is linked to the organization named as the count links
        it (:func:`org_link_query`): its 0 says nothing about what the question asked."""
        probes = [p for p in (org_link_query(form), location_probe(form)) if p is not None]
        return any(not self.query(p).rows for p in probes)

    def _composed_none(
        self, question: str, form: Form, understood: dict[str, Any], what: str, links: dict[str, str]
    ) -> dict[str, Any]:
        names = ", ".join(e.label for e in form.entities) or what
        message = f"I don't know. aikg has no answer for {what}" + (f" ({names})." if form.entities else ".")
        return {
            "question": question,
            "understood": understood,
            "answer": {"kind": "none", "message": message, "description": what, "links": links},
            "abstained": True,
            "alternatives": self._alternatives(
                self._entity_alternatives(form.entities[0]) if form.entities else [], exclude=None
            ),
        }

    def _form_fact(self, question: str, reading: Reading, form: Form) -> dict[str, Any] | None:
        """A composed fact answered as the entity's page gives it, or None when the page lacks it."""
        entity = form.entities[0]
        mention = next((m for m in reading.mentions if m.best.iri == entity.iri), None)
        if mention is None:
            mention = Mention(0, 0, entity.label, "exact", [entity])
        props = reading.properties
        words = props[0].properties if props else ()
        # the property read with the others its words name ("运营方": operatedBy or operator), also when
        # a follow-up keeps it from the question before, whose words it does not repeat
        alike = next((props for _, props in FACT_WORDS if form.prop in props), None)
        wanted = words if form.prop in words else (alike or (form.prop or "",))
        if form.prop == "hbmPerScaleUpDomain":
            wanted = (form.prop,)  # derived by a rule, on no page: never the memory of one chip instead
        reading.properties = [PropertyMention(0, 0, wanted)]
        try:
            plan = Plan(FACT, 1.0, "", mention=mention)
            # how sure the words make it: _calibrated; a period asked picks the events of that period
            body = self._fact(question, reading, plan, 1.0, [], None if form.now else form.dates)
        finally:
            reading.properties = props
        if body["abstained"]:
            # "who founded OpenAI" asks for a party; the date aikg has does not answer it
            return body if _ASKS_WHO.search(question) else None
        for prop in form.also:
            # "total and active parameters": each property asked for, or no answer that looks whole
            reading.properties = [PropertyMention(0, 0, (prop,))]
            try:
                more = self._fact(
                    question,
                    reading,
                    Plan(FACT, 1.0, "", mention=mention),
                    1.0,
                    [],
                    None if form.now else form.dates,
                )
            finally:
                reading.properties = props
            if more["abstained"]:
                return None
            body["answer"]["facts"] += more["answer"]["facts"]
        answered = str((body["answer"].get("property") or {}).get("name") or "").removeprefix("aikg:")
        if (answered in wanted or answered in CHIP_COMPUTE) and answered not in ("location", "locationName"):
            # of the properties a word names ("是谁的": developer, maker, owner), the one the page had
            form.prop = answered
        body["understood"]["description"] = describe(form)
        body["understood"]["form"] = _form_json(form)
        return body

    def _fact(
        self,
        question: str,
        reading: Reading,
        plan: Plan,
        confidence: float,
        alternatives: list[Plan],
        dates: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        assert plan.mention is not None
        mention = plan.mention
        builder = self.entities()
        wanted = reading.properties[0].properties if reading.properties else None
        if wanted is not None:
            wanted = tuple(dict.fromkeys((*wanted, *(a for p in wanted for a in FACT_ALSO.get(p, ())))))
        if (
            wanted
            and "trainingCompute" in wanted
            and _is_chip(mention.best)
            and not _TRAINING.search(question)
        ):
            # 算力, "compute" of a chip: its performance (FLOP/s at each precision Epoch lists), not training
            # compute, which is a training run's ("H100 SXM5 的算力是多少")
            wanted = CHIP_COMPUTE
        if wanted is None:
            leftover = _leftover(reading)
            if leftover:
                return self._abstain(
                    question,
                    plan,
                    self._entity_alternatives(mention.best) + alternatives,
                    f"aikg does not know the {_words(leftover)} of {mention.best.label}.",
                    entity=mention.best.slug,
                )
            body = builder.build(mention.best.iri)
            facts = [
                self._fact_json(f, body) for f in body["facts"] if f["property"]["iri"] not in OVERVIEW_SKIP
            ]
            facts += [self._link_json(r, body) for r in body["relations"]["outgoing"]]
            # what points at it, when it says little itself (a person: the positions held)
            if len(facts) < OVERVIEW_FEW:
                facts += [self._incoming_json(r, body) for r in body["relations"]["incoming"][:OVERVIEW_FEW]]
            alike = variants(mention, reading.folded)
            answer = {
                "kind": "facts",
                "entity": _entity_json(body),
                "property": None,
                "facts": facts,
                "documents": body["documents"],
                # "tell me about GPT-4": which of the models so named this is, never one silently
                "note": f"“{mention.text}” names {len(alike)} entities: {', '.join(c.label for c in alike)}; "
                f"these are {mention.best.label}'s facts."
                if len(alike) >= 2
                else None,
            }
            return self._body(
                question,
                None,
                {},
                mention.best.slug,
                confidence,
                answer,
                False,
                self._entity_alternatives(mention.best) + alternatives,
            )
        index = self.search()
        # "Who founded OpenAI?" asks for a party: a value (the founding date) does not answer it
        who = _ASKS_WHO.search(question) is not None
        candidates = _fact_candidates(mention, index)
        orgs = index.vocab.descendants(AIKG + "Organization")
        if orgs & set(mention.best.types):
            # "AMD's memory bandwidth", "how many parameters does Anthropic have", OpenAI 的训练算力: an
            # organization holds no chip's or model's figure, and one of its things picked by its name
            # (the MI300A, Anthropic LM 52B, OpenAI Five) answered with confidence what was not asked
            candidates = candidates[:1]
        for rank, candidate in enumerate(candidates):
            body = builder.build(candidate.iri)
            for prop in wanted:
                iri = AIKG + prop
                facts = (
                    []
                    if who and prop not in PARTY_NAMES
                    else [self._fact_json(f, body) for f in body["facts"] if f["property"]["iri"] == iri]
                )
                facts += [
                    self._link_json(r, body)
                    for r in body["relations"]["outgoing"]
                    if r["property"]["iri"] == iri
                ]
                # A figure of an event the entity takes part in: a model's training compute is its
                # training run's (Epoch gives it per run), shown with the run as its subject.
                held = [] if facts else self._event_facts(body, iri, who, dates, reading.folded)
                facts += [f for _, f in held]
                if not facts:
                    continue
                note = None
                differing = self._variants_differ(candidates[rank:], wanted, prop) if rank else []
                if differing:
                    # "H100 TDP": the name's own node has none, and the chips it names differ (NVL 400 W,
                    # PCIe 350 W, SXM5 700 W): one of them picked is a guess at which one was meant
                    return self._abstain(
                        question,
                        plan,
                        self._entity_alternatives(mention.best) + alternatives,
                        f"“{mention.text}” names several things whose {builder.term(iri)['label']} differ "
                        f"({', '.join(differing)}); aikg does not know which one is meant.",
                        entity=mention.best.slug,
                    )
                if rank:
                    note = (
                        f"{mention.best.label} has no {builder.term(iri)['label']} in aikg; this is "
                        f"{candidate.label}'s."
                    )
                if held:
                    events = ", ".join(dict.fromkeys(node["label"] for node, _ in held))
                    note = (note + " " if note else "") + (
                        f"The {builder.term(iri)['label']} of {candidate.label} is given on {events}."
                    )
                answer = {
                    "kind": "facts",
                    "entity": _entity_json(body),
                    "property": builder.term(iri),
                    "facts": facts,
                    "documents": body["documents"],
                    "note": note,
                }
                sure = round(confidence * (0.8 if rank else 1.0), 3)
                return self._body(
                    question,
                    None,
                    {},
                    candidate.slug,
                    sure,
                    answer,
                    False,
                    self._entity_alternatives(candidate) + alternatives,
                )
        label = builder.term(AIKG + wanted[0])["label"]
        if who:
            return self._abstain(
                question,
                plan,
                self._entity_alternatives(mention.best) + alternatives,
                f"aikg does not know who: its {label} of {mention.best.label} is a value, not a party.",
                entity=mention.best.slug,
            )
        return self._abstain(
            question,
            plan,
            self._entity_alternatives(mention.best) + alternatives,
            f"aikg has no {label} for {mention.best.label}.",
            entity=mention.best.slug,
        )

    def _variants_differ(self, candidates: list[Candidate], wanted: tuple[str, ...], prop: str) -> list[str]:
        """The things a name names, other than its own node (``candidates``: the first one holding the
        property, then the others), with their values of ``prop`` — when they hold it with more than one
        value (the H100's variants: NVL 94 GB, PCIe 80 GB), else nothing: the same value of each (the
        H100's process node) or one thing alone (the GB200 NVL72's chip) answers whichever is meant."""
        if len(candidates) < 2 or prop not in wanted:
            return []
        things = " ".join(f"<{c.iri}>" for c in candidates)
        rows = self.store.query(
            f"SELECT ?x ?v WHERE {{ VALUES ?x {{ {things} }} ?x <{AIKG}{prop}> ?v }}"
        ).rows
        values: dict[str, set[str]] = {}
        for x, v in rows:
            if x is not None and v is not None:
                values.setdefault(x.value, set()).add(v.value)
        if len({frozenset(vs) for vs in values.values()}) < 2:
            return []
        labels = {c.iri: c.label for c in candidates}
        return [f"{labels[x]}: {', '.join(sorted(vs))}" for x, vs in values.items()]

    @staticmethod
    def _fact_json(fact: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        return {
            "subject": {"id": body["id"], "label": body["label"]},
            "property": fact["property"],
            "value": fact["value"],
            "number": fact.get("number"),
            "datatype": fact["datatype"],
            "lang": fact["lang"],
            "unit": fact["unit"],
            "qualifier": fact["qualifier"],
            "sources": fact["sources"],
        }

    @staticmethod
    def _link_json(rel: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        node = rel["node"]
        return {
            "subject": {"id": body["id"], "label": body["label"]},
            "property": rel["property"],
            "value": node["iri"],
            "node": {"id": node["id"], "label": node["label"]},
            "number": None,
            "datatype": None,
            "lang": None,
            "unit": None,
            "qualifier": None,
            "sources": rel["sources"],
        }

    @staticmethod
    def _incoming_json(rel: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        """A link that points at the entity, said from the node it comes from ("X, CTO of Y: held by X")."""
        node = rel["node"]
        out = Asker._link_json(rel, body)
        out["subject"] = {"id": node["id"], "label": node["label"]}
        out["value"] = body["iri"]
        out["node"] = {"id": body["id"], "label": body["label"]}
        return out

    def _event_facts(
        self,
        body: dict[str, Any],
        iri: str,
        who: bool,
        dates: tuple[str, str] | None = None,
        question: str = "",
    ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(node, fact JSON) of ``iri`` on the n-ary nodes linked to the entity (a training run, a
        deal), as the entity's page expands them; only links to parties when the question asks who.
        With ``dates``, only the nodes dated within them: "Groq's capacity next year" is its phase of
        2027 (200 MW), not the 54 MW it has now; a node without a date is no answer for a period."""
        out = []
        rels = [rel for direction in ("incoming", "outgoing") for rel in body["relations"][direction]]
        # the entity's own event first (the run that trained the model), then those that only use it
        # (a benchmark result whose workload it is): "DeepSeek-V3's GPU hours" is its run's 2.788M
        # a node stating a number the question names comes first ("the GPUs of the 3.2x comparison":
        # the claim of 3.2x, not the model's own run)
        numbers = {float(n) for n in re.findall(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])", question or "")}
        rels.sort(
            key=lambda rel: (
                not _states(rel["node"].get("expanded") or {}, numbers),
                rel["property"]["iri"] in USED_BY,
            )
        )
        for rel in rels:
            node = rel["node"]
            expanded = node.get("expanded") or {}
            if dates and not _dated_within(expanded, dates):
                continue
            if rel in body["relations"]["incoming"] and rel["property"]["iri"] in CHIP_OF:
                # a training run that used the chip: its compute, duration or cost is the run's, never the
                # chip's ("TPU v5p 的算力" was answered with the training compute of three runs on it, sure)
                continue
            if not who:
                out += [
                    (node, self._fact_json(f, node))
                    for f in expanded.get("facts", [])
                    if f["property"]["iri"] == iri
                ]
            out += [
                (node, self._link_json(r, node))
                for r in expanded.get("relations", [])
                if r["property"]["iri"] == iri
            ]
        return out

    def _entity_alternatives(self, candidate: Candidate) -> list[Plan]:
        if "sources-of-entity" not in self.queries():
            return []
        return [Plan("sources-of-entity", 0.0, "", {"entity": candidate.slug})]

    def _abstain(
        self, question: str, best: Plan, offered: list[Plan], message: str, *, entity: str | None = None
    ) -> dict[str, Any]:
        answer = {"kind": "none", "message": "I don't know. " + message}
        understood = best.intent if best.intent != FACT and best.feasible and entity is None else None
        return self._body(
            question,
            understood if best.score >= ANSWER_AT else None,
            best.parameters if understood else {},
            entity,
            round(min(best.score, 0.99) / 2, 3),
            answer,
            True,
            offered,
        )

    def _body(
        self,
        question: str,
        query: str | None,
        parameters: Mapping[str, str],
        entity: str | None,
        confidence: float,
        answer: dict[str, Any],
        abstained: bool,
        alternatives: list[Plan],
    ) -> dict[str, Any]:
        return {
            "question": question,
            "understood": {
                "query": query,
                "parameters": dict(parameters),
                "entity": entity,
                "confidence": confidence,
            },
            "answer": answer,
            "abstained": abstained,
            "alternatives": self._alternatives(alternatives, exclude=query),
        }

    def _alternatives(self, plans: list[Plan], exclude: str | None) -> list[dict[str, Any]]:
        queries = self.queries()
        out: list[dict[str, Any]] = []
        seen: set[tuple[str, tuple[Any, ...]]] = set()
        for p in plans:
            key = (p.intent, tuple(sorted(p.parameters.items())))
            if key in seen or (p.intent == exclude and not out and p.score) or p.intent not in queries:
                continue
            seen.add(key)
            q = queries[p.intent]
            entry: dict[str, Any] = {
                "query": p.intent,
                "parameters": dict(p.parameters),
                "confidence": round(max(p.score, 0.0) / 2, 3),
                "title": q.title,
                "example": (q.example_texts() or [q.title])[0],
            }
            if p.missing:
                entry["missing"] = list(p.missing)
            else:
                entry["links"] = query_links(q, p.parameters)
            out.append(entry)
        return out[: ALTERNATIVES + 1]


_ASKS_WHO = re.compile(r"\bwho(?:m)?\b|谁", re.IGNORECASE)
"""A question that asks for a party (an organization or a person), answered by a link, never a value."""


_YES_NO = re.compile(r"^\s*(?:did|does|do|is|was|are|were|has|have|had|can|will)\b|吗\s*[?？]?\s*$")
"""A question asked for a yes or no."""
PARTY_NAMES = frozenset({"foundryName"})
USED_BY = frozenset(AIKG + p for p in ("workload", "baseline", "introducedWorkload", "comparedWith"))
"""Links from a node that uses the entity as its input (a benchmark result's workload, a claim's
baseline): a figure on such a node is that node's own, shown after the entity's own events'."""
"""Properties whose text value names a party ("Who makes the MI300X's silicon?": TSMC)."""


CHIP_OF = frozenset({AIKG + "accelerator"})
"""Links from a node to the chip it ran on (a training run's accelerator): the node's figures are its own."""
DATED = (AIKG + "date", AIKG + "announcedOn")
"""The properties that date an event or a figure's node, the first one it has."""


TOLD_OPS = frozenset({"fact", "joint", "provenance"})
"""Composed operators whose answer is a statement of nodes named or found (a fact, what links the
things named, where it comes from): the words of those nodes explain the question's."""
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


FACT_ALSO: dict[str, tuple[str, ...]] = {"facilityInvestor": ("investor",)}
"""A property asked of a thing that does not have it, read as the one saying the same on the deals the
thing takes part in: a data center's investors (Epoch's column) are, of a company or a funding round, the
investors of the investments in it ("who invested in SB Energy", 谁参投了 Groq 的 A 轮: NVIDIA)."""
_PER_MONEY = re.compile(r"dollar|usd|\$|美元|美金|块钱|元")
"""A ratio to money: the per-cost measure of a speed-up claim (:data:`aikg.ask.compose.MEASURE_WORDS`)."""


def _answered(body: dict[str, Any]) -> list[str]:
    """The node the answer states first: its first fact's subject, or its first row's node and entity."""
    answer = body["answer"]
    if answer.get("facts"):
        subject = answer["facts"][0].get("subject") or {}
        return [subject["id"]] if subject.get("id") else []
    rows = answer.get("rows") or []
    cells = rows[0].get("cells", {}) if rows else {}
    return [c["id"] for k in ("node", "entity") if isinstance(c := cells.get(k), dict) and c.get("id")]


EVENT_DATE_WORDS = frozenset({"day", "date", "year", "month", "日", "天", "年", "月"})
"""The parts of the date an event form answers with ("on what *day* did Groq announce …")."""


def _event_told(word: str, told: str) -> bool:
    """True when an organization's events' words (:meth:`Asker._events_told`) hold ``word``: a Latin word
    or a date word whole, a Chinese run when all but one of its characters are in two-character pieces of
    the text or in it alone (靠以太坊挖矿: 靠, 以太坊, 矿 of 以太坊矿场; 挖 is the question's word)."""
    if word in told or word in EVENT_DATE_WORDS:
        return True
    if not CJK_CHAR.search(word) or len(word) < 3:
        return False
    covered = [False] * len(word)
    for i in range(len(word) - 1):
        if word[i : i + 2] in told:
            covered[i] = covered[i + 1] = True
    if not any(covered):
        return False
    missing = [c for c, ok in zip(word, covered, strict=True) if not ok and c not in told]
    return len(missing) <= 1


def _stem(word: str) -> str:
    """A word without its plural or verb ending ("upgrades", "upgraded" → "upgrad"), for comparing."""
    for end in ("ing", "ed", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 4:
            return word[: -len(end)]
    return word


def _told(word: str, told: tuple[str, frozenset[str]], lone: bool = False) -> bool:
    """True when the graph's words of the answered nodes hold ``word``: a Chinese word of two characters
    or more anywhere in the text (one character too, ``lone``), another word as one of its words (or the
    same word with another ending)."""
    w = word.casefold()
    if CJK_CHAR.search(w):
        # one character alone is in any long text (而, 近): only a word of two or more is told, but of
        # the statements the question's words found (``lone``: 投 of 投资, 靠 of "靠 3D Torus")
        return (len(w) >= 2 or (lone and w not in CJK_STOP)) and w in told[0]
    return _stem(w) in told[1]


def _states(node: dict[str, Any], numbers: AbstractSet[float]) -> bool:
    """True when one of the node's own figures is one of ``numbers``."""
    for f in node.get("facts", []):
        with contextlib.suppress(TypeError, ValueError):
            if float(f.get("value")) in numbers:
                return True
    return False


def _dated_within(node: dict[str, Any], dates: tuple[str, str]) -> bool:
    """True when the node's date (a year, a month or a day) lies within ``dates`` (ISO days)."""
    for prop in DATED:
        for f in node.get("facts", []):
            if f["property"]["iri"] == prop:
                day = str(f.get("value", ""))
                return dates[0][: len(day)] <= day <= dates[1][: len(day)]
    return False


def _entity_json(body: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": body["id"],
        "iri": body["iri"],
        "label": body["label"],
        "types": body["types"],
        "links": body["links"],
    }


def _pick(mentions: list[Mention], used: set[int], cls: str | None, index: Any) -> Candidate | None:
    """The first candidate of an unused mention whose class fits ``cls`` (any entity when None)."""
    allowed = index.vocab.descendants(cls) if cls else None
    for i, m in enumerate(mentions):
        if i in used:
            continue
        for c in m.candidates:
            if allowed is None or any(t in allowed for t in c.types):
                used.add(i)
                return c
    return None


def _fact_candidates(mention: Mention, index: Any) -> list[Candidate]:
    """The mention's best candidate, then its other non-n-ary candidates (a system named after a chip)."""
    nary = index.vocab.nary
    first = mention.best
    rest = [c for c in mention.candidates[1:] if not any(t in nary for t in c.types)]
    return [first] + rest[:3]


USES_NAME, LEAVES_NAME, MISSING, MISFIT = 0.05, -0.05, -0.15, -0.25
"""Score adjustments: a reading that uses the names the question gives is preferred; one that leaves a
name unused, or lacks a parameter it needs, is not; least of all one whose parameter the question does
name, but with an entity of another kind ("how many tokens was DeepSeek-V3 trained on" names a model, not
the accelerator ``models-trained-on`` needs)."""


def _dropped_names(reading: Reading, parameters: Mapping[str, str], orgs: AbstractSet[str]) -> list[Mention]:
    """The organizations the question names that a named query's parameters do not take: "What did
    OpenAI pay Oracle?" answered with all of OpenAI's deals drops Oracle (unless its rows show Oracle),
    and with it what was asked."""
    used = set(parameters.values())
    out = []
    for m in reading.mentions:
        if m.how == "fuzzy" or any(c.slug in used or c.iri in used for c in m.candidates):
            continue
        if any(t in orgs for t in m.best.types):
            out.append(m)
    return out if used else []


def _unused_names(reading: Reading, parameters: Mapping[str, str], orgs: AbstractSet[str]) -> list[Mention]:
    """The things other than organizations the question names exactly that a named query's parameters
    do not take (organizations: :func:`_dropped_names`)."""
    used = set(parameters.values())
    return [
        m
        for m in reading.mentions
        if m.how == "exact"
        and not any(c.slug in used or c.iri in used for c in m.candidates)
        and not any(t in orgs for t in m.best.types)
    ]


def _fit(plan: Plan, named: list[Mention]) -> float:
    """How well the plan fits the names in the question (see :data:`USES_NAME`)."""
    if plan.missing:
        return MISFIT if named and plan.intent != FACT else MISSING
    if not named:
        return 0.0
    used = plan.mention is not None or any(
        c.slug == v for m in named for c in m.candidates for v in plan.parameters.values()
    )
    return USES_NAME if used else LEAVES_NAME


_YEAR = re.compile(
    r"(?<![\d.,])((?:19|20)\d\d)(?![\d.,])(?!\s*(?:亿|万|人|张|块|颗|个|mw|gw|kw|w\b|gb|tb|b\b|m\b|k\b|bn\b))"
)
"""A year written in digits, not an amount ("2000 亿", "2000 MW", "2,000 chips")."""


def _years_left(reading: Reading, dates: tuple[str, str]) -> list[str]:
    """The years the question writes (outside the names it links) that the period read leaves out; a year
    just past an open end is the bound itself ("before 2020": until 2019; "after 2023": from 2024)."""
    start, end = int(dates[0][:4]), int(dates[1][:4])
    spans = [(m.start, m.end) for m in reading.mentions]
    left = []
    for m in _YEAR.finditer(reading.folded):
        if any(a <= m.start() < b for a, b in spans):
            continue
        year = int(m.group(1))
        if start <= year <= end or (start <= 1 and year == end + 1) or (end >= 9999 and year == start - 1):
            continue
        left.append(m.group(1))
    return left


def _leftover(reading: Reading) -> list[str]:
    """Words of an entity question that are neither its name nor an overview's wording."""
    return [
        t.text
        for t in tokens(reading.masked)
        if not t.text.startswith("⟨") and t.text not in OVERVIEW_WORDS and t.text not in STOPWORDS
    ]


def _words(words: list[str]) -> str:
    """Words joined as written: Chinese characters without spaces between them."""
    out = ""
    for w in words:
        cjk = bool(CJK_CHAR.match(w))
        out += w if not out or (cjk and CJK_CHAR.match(out[-1])) else " " + w
    return out


def _form_json(form: Form) -> dict[str, Any]:
    """The logical form as JSON (what the answer page and the evaluation show)."""
    return {
        "op": form.op,
        "class": form.carrier,
        "property": form.prop,
        "entities": [e.slug for e in form.entities],
        "organizations": [o[0].slug for o in form.orgs],
        "country": form.country,
        "status": form.status,
        "dates": list(form.dates) if form.dates else None,
        "threshold": list(form.threshold) if form.threshold else None,
        "value": form.value,
        "top": form.k if form.op == "top" else None,
        "period": form.period,
        # the series of models named ("Qwen 系列"): only when one is
        **({"series": form.series} if form.series else {}),
        # the division of a company's staff named ("Meta's FAIR"): only when one is
        **({"division": form.division} if form.division else {}),
        # a funding round's stage other than closed ("in talks", "not closed"): only when one is asked
        **({"stage": form.stage} if form.stage else {}),
    }


def _label(cell: dict[str, Any]) -> str:
    return str(cell.get("label") or cell["value"])


def _figure(value: str) -> str:
    """A total as a person reads it: 196,400; 275,795.9."""
    try:
        number = float(value)
    except ValueError:
        return value
    return f"{number:,.0f}" if number.is_integer() or abs(number) >= 1e4 else f"{number:,.1f}"


def _rated(row: dict[str, Any], zh: bool) -> str:
    """A total's figure of the rows rated at least Likely, said beside it (:meth:`Asker._rated_beside`)."""
    rated, total = row["cells"].get("rated"), row["cells"].get("total") or {}
    if not isinstance(rated, dict):
        return ""
    figure = _figure(rated["value"])
    if figure == _figure(str(total.get("value", ""))):
        return ""  # the same to the figure shown (NVIDIA's 38.3 MW either way): the row holds both
    return f"（可信度至少 Likely 的合计 {figure}）" if zh else f" ({figure} rated at least Likely)"


def _summary(
    form: Form, result: QueryResult, rows: list[dict[str, Any]], every: dict[str, Any] | None = None
) -> str | None:
    """One sentence of the answer where it has one: a count (with every row's count beside one made with
    the totals' defaults), a total, each one's total or count, the larger (or the lower, asked so) of a
    comparison."""
    zh = form.lang == "zh"
    group = next((v for v in ("org0", "country", "org") if v in result.variables), None)
    if form.op in ("sum", "count") and group and rows:
        figure = "total" if form.op == "sum" else "count"
        # each organization's or country's total or count, the largest first
        return "; ".join(
            f"{_label(r['cells'][group])}: {_figure(r['cells'][figure]['value'])}{_rated(r, zh)}"
            for r in rows
            if r["cells"].get(group) and r["cells"].get(figure)
        )
    if form.op == "count" and "count" in result.variables and len(rows) == 1:
        n = rows[0]["cells"]["count"]["value"]
        counts = (every or {}).get("counts") or []
        m = counts[0]["count"] if counts else None
        own = [c["count"] for c in counts[1:] if c.get("without_subsidiaries")]
        said = [] if m is None or str(m) == str(n) else [f"全部记录共 {m} 条" if zh else f"{m} rows in all"]
        said += [
            f"不含子公司的 {own[0]} 条" if zh else f"{own[0]} without its subsidiaries'" for _ in own[:1]
        ]
        if said:
            return f"{n}（{'，'.join(said)}）" if zh else f"{n} ({', '.join(said)})"
        return f"{n}"
    if form.op == "sum" and rows:
        total = rows[0]["cells"].get("total")
        if total and rows[0]["cells"].get("rated"):
            return f"{_figure(total['value'])}{_rated(rows[0], zh)}"
        return total["value"] if total else None
    if form.op == "compare" and len(rows) >= 2:
        try:
            pick = min if form.ascending else max  # "哪个功耗低": the lower one
            best = pick(rows, key=lambda r: float(r["cells"]["value"]["value"]))
        except (TypeError, ValueError, KeyError):
            return None
        entity = best["cells"]["entity"]
        return f"{entity.get('label', entity['value'])}: {best['cells']['value']['value']}"
    return None


def _confidence(best: Plan, plans: list[Plan]) -> float:
    """0–1 from the router score and the margin over the next intent."""
    second = next((p.score for p in plans[1:]), 0.0)
    margin = max(0.0, best.score - second)
    value = min(1.0, best.score / 0.8) * (0.6 + 0.4 * min(1.0, margin / 0.15))
    return round(value, 3)
