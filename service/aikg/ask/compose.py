"""Understanding as composition (issue 44): a question read into a small logical form over the ontology,
compiled to SPARQL.

A :class:`Form` names an operator (a fact, a comparison of entities on a property, a ranking, a count, a
sum, a list or time series, the provenance of a figure), the class of the nodes it is about (clusters,
training runs, models, accelerators, revenue / usage figures, funding rounds, events), the property, the
entities the question names and its filters (organization, country, status, date range, a numeric
threshold with its unit). Reading uses the names already linked through the search index (aliases in both
languages, typos), the analyst words of :mod:`aikg.ask.words`, and fuzzy matching (rapidfuzz) for
misspelt words. :func:`compile_form` turns a form into one SPARQL query; :func:`describe` says in words
what was done.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from pypinyin import lazy_pinyin
from rapidfuzz import process
from rapidfuzz.distance import OSA

from aikg.ask.coverage import FILLER_EN, FILLER_ZH, Vocabulary, stems, unexplained
from aikg.ask.lines import line_word
from aikg.ask.linking import Candidate, Mention
from aikg.ask.series import series_word
from aikg.ask.text import STOPWORDS
from aikg.ask.words import (
    ADVICE,
    AIKG,
    ANY_STATUS_WORDS,
    CARRIERS,
    CLASS_WORDS,
    COMPARATORS,
    COUNTRIES,
    COUNTRY_PAIRS,
    DIVISION_WORDS,
    DOUBT,
    EVENT_WORDS,
    FORECAST,
    MEMORY_WORDS,
    OPERATOR_WORDS,
    OPINION_WORDS,
    OUT_OF_SCOPE,
    PERFORMANCE,
    POSITION_WORDS,
    PROPERTY_CARRIER,
    PROPERTY_LABELS,
    PROPERTY_WORDS,
    PUBLISHER_WORDS,
    RATING_WORDS,
    REGION_CODES,
    REGIONS,
    RESTATED,
    ROLE_WORDS,
    SPEND_CATEGORIES,
    STARTED_WORDS,
    STATUS_WORDS,
    TASK,
    UNITS,
    US_STATES,
    USE_WORDS,
)
from aikg.namespaces import GRAPH, INFERRED_GRAPH

PREFIXES = (
    "PREFIX aikg: <https://w3id.org/aikg/ontology#>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
    "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n"
)
ORGANIZATION = AIKG + "Organization"
PERSON = AIKG + "Person"
TOP_K = 10
"""Rows a ranking shows when the question gives no number."""
LIST_LIMIT = 200
LINKS = (
    "aikg:trainedModel",
    "aikg:round",
    "aikg:phaseOf",
    "aikg:priceListOf",
    "aikg:hasPrice",
    "aikg:workload",
    "aikg:submitter",
    "aikg:topology",
    "aikg:usesAccelerator",
    "aikg:subjectPlatform",
    "aikg:baseline",
    "aikg:agent",
    "aikg:facility",
    "aikg:investee",
    "aikg:lessee",
    "aikg:provider",
    "aikg:relayedBy",
    "aikg:trainingPrecision",
)
"""Links from an n-ary node (a run, a phase, a result, a claim) to the entity a question names: a
property the entity lacks is looked for on the nodes linked to it this way."""
RECLASS = {
    ("cluster", "thermalDesignPower"): "powerCapacity",
    ("cluster", "trainingCompute"): "h100Equivalents",  # 集群算力: what a cluster computes with
    ("hardware", "powerCapacity"): "thermalDesignPower",
    ("cluster", "memoryPerChip"): "h100Equivalents",
    ("datacenter", "thermalDesignPower"): "powerCapacity",
    ("datacenter", "memoryPerChip"): "h100Equivalents",
    # a chiller's or cooling tower's "capacity", "kW", "power": the heat it removes (cooling capacity)
    ("chiller", "thermalDesignPower"): "coolingCapacity",
    ("chiller", "powerCapacity"): "coolingCapacity",
    ("tower", "thermalDesignPower"): "coolingCapacity",
    ("tower", "powerCapacity"): "coolingCapacity",
}
"""Where a property word names another property on the class the question names."""
WATTS = {"thermalDesignPower": 1.0, "coolingCapacity": 1e3, "powerCapacity": 1e6}
"""Watts in one unit of each property of power (W, kW, MW): an amount moves with :data:`RECLASS`."""
RATED = frozenset(AIKG + c for c in ("Deployment", "TrainingRun", "DataCenter"))
"""Classes whose nodes carry Epoch's own confidence rating (aikg:sourceConfidence)."""
LEASE_WORDS = ("lease", "leases", "租约", "租期")
CONFIDENCE_WORDS = (
    "how sure",
    "how certain",
    "how reliable",
    "how confident",
    "可信度",
    "置信度",
    "可信",
    "把握",
    "多可靠",
    # how sure, said 多肯定 / 幾肯定 / 有多确定 ("Epoch 有幾肯定"): the same rating
    "多肯定",
    "几肯定",
    "有多确定",
    "多确定",
    # Epoch's rating of a row, and whether it is real at all
    *RATING_WORDS,
)
FLEET_WORDS = ("fleet", "fleets", "机群", "算力机群")
"""An organization's chips as a whole ("Microsoft's GPU fleet"): the chips of its clusters."""
RECORD_WORDS = (
    "records",
    "record",
    "figures",
    "counts",
    "data points",
    "记录",
    "条数据",
    # Epoch's rows are reports of a figure ("how many usage reports", "headcount reports") and entries
    "reports",
    "entries",
)
"""Words asking for a company's figures as rows ("staff counts reported in 2024", "员工数超过3000人的记录"):
every row, a division's too (:attr:`Form.records`), listed or counted ("how many revenue records")."""
"""Words for the rows of a company's figures, counted ("how many revenue records", "几条员工人数的记录")."""
CLOSED_WORDS = ("closed", "completed", "已完成", "完成了", "完成的", "已经完成")
"""Words for funding rounds that closed (aikg:Closed), not those announced or in talks."""
ROUND_TALKS_WORDS = (
    "in talks",
    "in discussions",
    "in discussion",
    "under discussion",
    "late discussions",
    "in negotiations",
    "in negotiation",
    "being negotiated",
    "洽谈",
    "在谈",
    "商谈",
    "谈判",
    "磋商",
)
"""Words for funding rounds being negotiated, not closed: Epoch's "Late discussions" (aikg:Planned)."""
_NOT = r"(?:\bnot|\b\w*n't|\bnever)\s+(?:yet\s+)?(?:been\s+)?"
_NOT_ZH = r"(?:没有|没|未|尚未|还没有?|仍未|未曾|并未)\s*"
NOT_CLOSED = re.compile(
    rf"{_NOT}(?:closed|completed?|finali[sz]ed|done)\b"
    r"|\byet to (?:be )?(?:close|closed|complete|completed|finali[sz]ed)\b"
    rf"|{_NOT_ZH}(?:完成|关闭|敲定|完结|交割)"
)
"""A funding round's closing negated ("not closed yet", 还没完成, 仲未完成): every round whose status is not
aikg:Closed (Epoch's "Late discussions", a stage announced), never the closed rounds the word names."""
NOT_BUILT = re.compile(
    rf"{_NOT}(?:built|finished|completed?|operational|online|running|operating|live"
    r"|in operation|in service)\b"
    r"|\byet to\b[^,.;?]{0,30}?\b(?:online|live|built|operational|operating|running|completed?"
    r"|finish(?:ed)?)\b"
    rf"|{_NOT_ZH}(?:建成|建好|完工|落成|投运|投入(?:运行|使用|运作|运营)|运行|运营|运作|上线|启用|开通)"
)
"""A site's being built or running negated ("not yet built", "aren't operational yet", 还没有建成, 仲未投入
運作): the planned ones (a word of running inside it, "operational", 投入运作, is no Existing status)."""
STILL = re.compile(r"\b(?:still|already)\b|仍然|仍在|仍|还在|尚在")
""""Still" or "already" beside a status ("still planned", "still in talks", "already running", 仍在规划, 还在
洽谈): it says the status holds now, which every status the data gives does; explained when one is read."""
_ONLY_STATUS = re.compile(
    r"\bonly\s+(?:planned|announced|proposed|in\s+(?:late\s+)?(?:talks|discussions?|negotiations?)"
    r"|under construction|on paper)\b"
    r"|(?:仅|只|只是)(?:在)?(?:规划|计划|洽谈|在谈)"
)
"""A status said with "only" ("still only planned", 只是规划): the status, not one vendor's chips only."""
RELIABLE_WORDS = (
    "reliable",
    "trustworthy",
    "靠谱",
    "可靠",
    # asked for with "only" or "want" before it (只看 / 只要 / 要 靠谱的数据)
    "只看可靠",
    "只看靠谱",
    "只要可靠",
    "只要靠谱",
    "要可靠",
    "要靠谱",
)
"""Words asking for figures a source vouches for ("reliable figures only", 要靠谱的数据): rows Epoch rates
at least Likely, the rankings' default (never "how reliable", which asks the rating itself)."""
PLAN_WORDS = ("plan", "plans", "planning", "intend", "intends", "intending", "计划", "打算")
"""Words of a plan a question asks the figure of ("how big does Groq plan its footprint to be next year"):
a question about what will be (words.FORECAST), answered only from the plans aikg holds (a company's
capacity stated for a coming year); the words themselves ask nothing more."""
DAILY_WORDS = ("per day", "a day", "each day", "daily", "/day", "每天", "每日", "日均", "一天", "一日")
YEARLY_REVENUE_WORDS = ("calendar year", "calendar-year", "full-year", "full year", "自然年", "全年")
"""Revenue of a whole year as booked (Epoch's "Yearly revenue"), not a run-rate at some day of it."""
CONTRACTOR_WORDS = ("contractors", "contractor", "tutors", "annotators", "外包", "标注员", "合同工", "导师")
"""Staff Epoch files as contractors (xAI's 900 AI tutors), not the company's own employees."""
FULL_TIME_WORDS = (
    "full-time",
    "full time",
    "own employees",
    "全职",
    "正式员工",
    # the whole company, not one division of it ("company-wide headcount", 全公司员工人数)
    "company-wide",
    "companywide",
    "whole company",
    "entire company",
    "全公司",
    "整个公司",
)
"""The company's own employees: the staff figures' default (Epoch's "Full company")."""
_NOT_CONTRACTORS = re.compile(
    r"(?:不算|不含|不包括|除去|excluding|not counting|without)\s*(?:the\s+)?"
    r"(?:外包|合同工|标注员|contractors?|tutors?)+"
)
"""Contractors left out ("不算外包标注员", "not counting contractors"): the company's own staff."""
RUN_RATE_WORDS = (
    "annual recurring revenue",
    "recurring revenue",
    "annual run-rate",
    "annual run rate",
    "run-rate",
    "run rate",
    "arr",
    "年度经常性收入",
    "经常性收入",
)
"""Revenue as a run-rate at a day (ARR): Epoch's "Annualized revenue" and "Annual recurring revenue" rows,
not a half-year's or a product's revenue scaled to a year (OpenAI's H1 2025 beside its June 10B ARR)."""
RUN_RATE_KINDS = ("Annualized revenue", "Annual recurring revenue")
DEAL_STAGE_WORDS = (
    "signed",
    "finalized",
    "finalised",
    "done deal",
    "closed",
    "confirmed",
    "completed",
    "签了",
    "签约了",
    "签下",
    "定了",
    "敲定",
    "落地",
    "完成了",
    "完成没",
    "完成没有",
    # a stage set against another ("已经完成，还是只是宣布", "finalized, or only planned")
    "已经完成",
    "已完成",
    "只是宣布",
    "only announced",
    "only planned",
)
"""The stages of a deal asked yes or no ("has the lease been signed", "is the investment finalized", "a done
deal", 定了吗, 签了没有, 完成了吗): what a deal's or a round's status (aikg:status) answers."""
DEAL_STATUS_WORDS = ("status", "状态", "现状")
"""A deal's or round's status asked by name (英伟达投资 Groq 的状态)."""
AI_DIVISION_WORDS = ("ai division", "ai unit", "ai 部门", "ai部门", "人工智能部门")
"""A company's AI division as a whole (Epoch's "Full AI division": Google DeepMind within Google)."""
PAYING_WORDS = ("paying", "paid users", "paid subscribers", "subscribers", "付费", "订阅用户")
"""Users who pay: Epoch names such a usage row only by its Id ("ChatGPT 40M paying WAU"), so a question
asking them gets the rows whose name says "paying", and one that does not puts those rows last (800M weekly
users in October 2025 first, not the 40M paying ones)."""
PAYING_LABEL = "paying"
LEASE_TERM_WORDS = ("签了几年", "签了多少年", "签约")
"""How long a lease was signed for: its term."""
"""Words of a rate per day: beside "tokens", the tokens a company processes, not a model's training set."""
NEWEST_WORDS = (
    "newest",
    "latest",
    "most recent",
    "most recently",
    "最新",
    "最近发布",
    # the newest generation ("英伟达新一代芯片"): a generation word, no foundry (代工) nor a chip's own
    # architecture generation
    "新一代",
    "最新一代",
)
"""Words asking for the last released of a kind of thing (not a figure's latest value)."""
OLDEST_WORDS = ("earliest", "oldest", "first released", "最早", "最老", "最早发布", "最早推出")
"""Words asking for the first released of a kind of thing."""
DATED = {"hardware": "availableFrom", "model": "releaseDate"}
"""Things released on a date, and the property that says when."""
KIND_WORDS = {"tpu": "TPU", "tpus": "TPU"}
"""Words naming a subclass of accelerator as a class ("the earliest TPU", "clusters using TPUs")."""
DOCUMENT_KIND_WORDS = ("article", "report", "post", "story", "piece", "篇", "文章", "报道", "报告", "快讯")
"""Words naming a document by its kind (an article, a report, 那篇)."""
CONFIRMED_WORDS = ("confirmed", "confident", "已确认", "经确认", "确认的", "已证实")
"""Words asking for the rows Epoch rates highest (its Confirmed clusters, Confident training runs)."""
RUN_FIGURES = ("trainingCompute", "durationDays", "acceleratorCount", "gpuHours", "cost")
"""Figures of a model that the data states on its training run."""
FIGURES = ("revenue", "usage", "funding", "staff", "spend")
"""Classes of dated figures of an organization: asked about one, the answer is their series."""
SITES = ("cluster", "datacenter")
"""Classes of places that hold accelerators: a chip word beside them filters, it does not name the class."""
RANK_BY = {
    "cluster": "h100Equivalents",
    "datacenter": "powerCapacity",
    "model": "trainingCompute",
    "run": "trainingCompute",
    "funding": "amount",
    "chiller": "coolingCapacity",
    "tower": "coolingCapacity",
}
"""What a ranking of a class is by when the question names no property ("largest cluster")."""
ALSO = {
    "releaseDate": "availableFrom",
    "availableFrom": "releaseDate",
    "sourceConfidence": "certainty",
    "powerCapacity": "contractedCapacity",
    "contractedCapacity": "powerCapacity",
    "acceleratorCount": "acceleratorsPerSystem",
    "facilityInvestor": "investor",
    "price": "cost",
    "timeToTrain": "durationDays",
    "designedFor": "purpose",
    "purpose": "designedFor",
    "tradeOff": "costDriver",
    "costDriver": "tradeOff",
    # who runs a thing: a platform's aikg:operatedBy, a site's or cluster's aikg:operator (Epoch's Owner;
    # no node has both apart) — "who operates Colossus", whose name names two data centers, was looked up
    # as operatedBy alone over them: no answer
    "operatedBy": "operator",
    "operator": "operatedBy",
}
"""A property looked up together with another that says the same on other classes (a model's release
date, a chip's first availability)."""
BIG = 1e15
"""Values above this are compared as doubles of their lexical form (training compute in FLOP)."""


@dataclass
class Form:
    """What a question asks, over the ontology."""

    op: str
    carrier: str | None = None
    prop: str | None = None
    entities: list[Candidate] = field(default_factory=list)
    orgs: list[list[Candidate]] = field(default_factory=list)
    country: str | None = None
    status: str | None = None
    dates: tuple[str, str] | None = None
    threshold: tuple[str, float] | None = None
    value: float | None = None
    per: bool = False
    k: int = TOP_K
    product: str | None = None
    division: str | None = None
    """The division of a company's staff figures the question names, as the data writes it ("FAIR",
    "Research and development"): its rows, not the whole company's."""
    products: list[str] = field(default_factory=list)
    """Every product of the usage figures the question names: two or more are compared, each on its
    newest figure ("Gemini vs Meta AI, whose assistant has more monthly users")."""
    period: str | None = None
    round_name: str | None = None
    rounds_of: list[tuple[list[Candidate], str | None, tuple[str, str] | None]] = field(default_factory=list)
    """Each side's own round when two or more are compared, by its letter, its period or both — each
    organization's ("xAI's Series C vs Anthropic's Series E", "OpenAI's October 2024 round or Anthropic's
    March 2025 round", "Anthropic 2023年5月那轮C轮，和 Mistral 2025年9月的C轮"), or one organization's two
    letters ("Anthropic's Series E or its Series F"): the rows are those rounds, each of its own."""
    latest: bool = False
    lang: str = "en"
    sure: float = 1.0
    """How sure the reading is (0-1): lowered by words of the question nothing understood."""
    unknown: list[str] = field(default_factory=list)
    role: str | None = None
    """The role a "who is the CTO of …" question asks for (an aikg:Role)."""
    count_report: bool = False
    """A count of the nodes the carrier reports (models, where the figures are on their runs)."""
    alternates: list[list[Candidate]] = field(default_factory=list)
    """For each entity, an organization the same name may mean ("Mistral": the model or the company)."""
    ascending: bool = False
    """A ranking from the lowest up ("lowest TDP", "功耗最低")."""
    group: str | None = None
    """A ranking of the things the carrier's nodes link to, by how many nodes (or their total): the path
    from a node to the thing ("which operator runs the most clusters": aikg:operator)."""
    chips: list[Candidate] = field(default_factory=list)
    """Accelerators the carrier's nodes use ("clusters with the GB200")."""
    vendor: bool = False
    """Organizations named filter the carrier's accelerators' makers ("clusters on AMD chips")."""
    ambiguous: list[str] = field(default_factory=list)
    """Names the question gives that name several things alike ("GPT-4": GPT-4 (Mar 2023) and GPT-4
    (Jun 2023)): all of them are answered, each with its name."""
    spend_total: bool = False
    """A company's total compute spending ("total compute spend", "算力总支出"): the figures Epoch files
    under several categories at once (its "Total compute spend"), not one category's."""
    subsidiaries: bool = False
    """Organizations named count their subsidiaries' nodes too (Meta: Meta AI's models): set when the
    organization itself has none."""
    spend_category: str | None = None
    """The category of compute spending asked for ("R&D", "inference"): figures of that category alone
    (a figure Epoch files under several categories is their total)."""
    threshold_prop: str | None = None
    """The property a threshold's unit names when it is not the one the question ranks or lists by
    ("the highest-memory chip under 500 W": memory ranked, TDP under 500)."""
    kind: str | None = None
    """A subclass of accelerator the question names as a class ("TPUs"): the chips of that class, or the
    clusters that use them."""
    confirmed: bool = False
    """Only the nodes Epoch rates highest ("confirmed clusters": Confirmed; "confident runs": Confident),
    in place of the rankings' default of at least Likely."""
    rated_as: str | None = None
    """Only the nodes Epoch rates so, the rating named ("clusters Epoch rates as Unlikely", 评为 Unlikely),
    in place of the default of at least Likely."""
    defaults: bool = False
    """The rankings' defaults apply (existing, rated at least Likely) though the operator is not ``top``:
    what an organization has now ("how many H100 does xAI have", "which company has the most GPUs")."""
    price_components: tuple[str, ...] = ()
    """The component of a price list a price question names ("charging for output", "训练单价"): the
    price of that component only (aikg:priceComponent), not the whole list."""
    owned: bool = False
    """A provenance question names an organization and a class of its nodes ("Reliance 那个超算集群",
    "Poolside's cluster"): the entities are the organization's nodes of that class, not itself."""
    rated_link: str | None = None
    """For Epoch's rating of a data center's link ("the tenant is Meta: Epoch's rating?"), the link's
    property: the ratings of that link to the organizations named."""
    class_named: bool = False
    """The question names its class ("data centers"), not only implies it by its property ("the most
    power"): a follow-up that names none asks about the class of the question before it."""
    apart: Form | None = None
    why: str | None = None
    """For a ``refuse`` form (a question the data cannot answer as asked, though its words were all
    read: "which country has the most data centers", whose sites hold only an address), why."""
    countries: list[str] = field(default_factory=list)
    """Every country the question names, in its order: two or more are compared ("China or the US")."""
    region: str | None = None
    """A region within a country ("Texas"): clusters whose location, as written, names it."""
    every: bool = False
    """Count every row, not only those the totals count (the figure shown beside a count's answer)."""
    event_kind: str | None = None
    """The kind of corporate event asked for (aikg:IPO, aikg:Pivot): when the thing named had it."""
    per_token: bool = False
    """A price asked per token ("price per million tokens"): a price list's price, never what a thing
    cost (:data:`ALSO` looks a price up with a cost otherwise)."""
    now: bool = False
    """The question asks the figure of now beside a period ("Groq's capacity today and next year"): both,
    so the period does not pick the linked nodes (:func:`_dated`)."""
    figure_kind: str | None = None
    """The kind of company figure asked (Epoch's Type column): "Yearly revenue" for a calendar year's
    revenue, "Contractors" for contractors; None for the carrier's default."""
    run_rate: bool = False
    """Revenue asked as a run-rate (ARR, "annual recurring revenue"): Epoch's run-rate kinds only."""
    paying: bool = False
    """Usage asked of paying users ("paying weekly users", 付费用户): the rows Epoch names so."""
    document: bool = False
    """A provenance question that names the source document or report itself ("which article says …
    in 2.02 minutes", "who published the 'Llama 3.1 training 4.2x faster' article", "那篇文章的原文链接"):
    the answer is that document, its publisher, link, date and default certainty."""
    dated: bool = False
    """With ``document``: the publication date is asked ("when was … published"): a document with no date
    in the data answers nothing, not its publisher and link alone."""
    period_said: str = ""
    """A follow-up's words of a half or quarter read in the year of the question before ("那上半年呢"):
    explained by that reading (:func:`_period_of_year_before`)."""
    outlet: bool = False
    """With ``document``: the things named are media outlets, and the documents asked for are those they
    published ("新媒网那篇讲 Llama 3.1 训练提速的文章", "the AINews report")."""
    measure: str | None = None
    """For a speed-up between things named, the measure the question asks it on ("per cost", 单位成本:
    ``cost``; "cumulative", 累计: ``cumulative``): the claims on that measure first, the others after."""
    claim: float | None = None
    """The speed-up a fact's claim is named by when the question names nothing else ("the 4.2x
    cumulative gain"): the claims of that speed-up."""
    records: bool = False
    """A count of a company's figures as rows ("几条记录"): every row, a division's too."""
    closed: bool = False
    """Only funding rounds that closed ("closed rounds", 已完成的融资): aikg:Closed."""
    stage: str | None = None
    """Funding rounds of a stage other than closed: "Planned" (in talks, planned: Epoch's "Late
    discussions") or "open" (not closed yet, 还没完成: every status but aikg:Closed)."""
    reliable: bool = False
    """Only rows Epoch rates at least Likely, whatever the operator ("reliable figures only", 靠谱)."""
    listed: bool = False
    """Only the chips of Epoch's hardware list ("in the hardware list", 硬件列表): not those only a
    cluster or a run names (the AMD MI210 of a cluster is no row of the list)."""
    epoch_rows: bool = False
    """Only the clusters, data centers, models or runs a row of Epoch's dataset gives ("how many clusters
    does Epoch's cluster dataset list for Amazon", Epoch 的数据中心数据集里): not the nodes only a seed
    document names (Amazon's training clusters of a seed article, the PORTS-Pike site)."""
    value_prop: str | None = None
    """The property the unit of ``value`` names ("1 万亿参数": parameters), when it names one."""
    series: str | None = None
    """The series of models the question names by the word their names begin with ("Qwen 系列", "which
    Qwen model": :mod:`aikg.ask.series`): those models only, or their training runs."""
    line: str | None = None
    """The chip line the question names its chips by ("Kunlun", "Trainium": :mod:`aikg.ask.lines`): the
    maker's chips whose name holds the word (Trainium1–3, not Amazon AWS's Inferentia2)."""
    also: list[str] = field(default_factory=list)
    """Further properties a fact asks for beside ``prop`` ("total and active parameters", "用多少张 H800
    训了多少天", "how many GPUs of which chip"): each is answered."""
    said: list[tuple[str, str]] = field(default_factory=list)
    """Every property word the question says, as (word, property): a ranking, count or list that uses
    none of the property of one of them answers another question (``asker._calibrated``)."""
    lost: list[str] = field(default_factory=list)
    """The words of a follow-up naming the things before ("of those", 其中) when the form could not keep
    them (another class): not understood, so the answer over every thing of its class is not sure."""
    """For a ``joint`` form (the figure of the node that links every thing named: NVIDIA's investment in
    SB Energy, CoreWeave's MLPerf v6.0 result on the GB300), the reading of the named things one by
    one, answered when no node links them all."""

    def key(self) -> tuple[Any, ...]:
        """The form in short (for tests and the evaluation's report)."""
        return (self.op, self.carrier, self.prop, tuple(e.slug for e in self.entities))


# -- reading ---------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _pattern(w: str) -> re.Pattern[str]:
    """A word's pattern: Latin words match whole, Chinese ones anywhere."""
    if re.search(r"[a-z]", w) and w.strip() == w:
        return re.compile(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])")
    return re.compile(re.escape(w))


def _find(text: str, words: Iterable[str]) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), w) for w in words if w in text for m in _pattern(w).finditer(text)]


def _has(text: str, words: Iterable[str]) -> bool:
    return bool(_find(text, words))


_ASCII_WORD = re.compile(r"[a-z][a-z-]{3,}")
_FUZZY_WORDS: dict[str, str] = {}
for _prop, _words in PROPERTY_WORDS:
    for _w in _words:
        for _part in _w.split():  # "desing" is "design" of "thermal design power"
            if _part.isascii() and _part.isalpha() and len(_part) >= 5:
                _FUZZY_WORDS.setdefault(_part, _prop)
_FUZZY_CLASS = {w: k for k, ws in CLASS_WORDS for w in ws if w.isascii() and " " not in w and len(w) >= 5}
_FUZZY_COUNTRY = {w: c for w, c in COUNTRIES.items() if w.isascii() and len(w) >= 5}
_FUZZY_OPS = {"largest": "largest", "biggest": "biggest", "highest": "highest"}
# "already" beside a status (STILL), typed with a slip ("alredy operational"): read as STILL reads it
_FUZZY_STILL = {"already": "already"}
# a status typed with a slip ("decomissioned", "retird") is that status: the coverage check explains a
# typo of a known word as that word, so a status the composer did not respell was never applied (a count
# of "decomissioned clusters" counted the existing ones, sure)
_FUZZY_STATUS = {
    w: w for ws in STATUS_WORDS.values() for w in ws if w.isascii() and w.isalpha() and len(w) >= 5
}


_KNOWN = frozenset(
    w
    # the words of a class word of several ("cooling tower" is no "cooling power" misspelt)
    for table in (
        OPERATOR_WORDS.values(),
        STATUS_WORDS.values(),
        [c for _, c in COMPARATORS],
        [c for _, c in CLASS_WORDS],
    )
    for words in table
    for phrase in words
    for w in phrase.split()
) | frozenset(
    (
        "operate",
        "operates",
        "operated",
        "operator",
        "operators",
        "develop",
        "developed",
        "made",
        "make",
        "makes",
        "trained",
        "train",
        "training",
        "used",
        "uses",
        "using",
        "released",
        "release",
        "raise",
        "raised",
        "have",
        "does",
        "which",
        "what",
        "when",
        "where",
        "with",
        "more",
        "most",
        "than",
        "from",
        "since",
        "between",
        "about",
        "their",
        "there",
        "these",
        "those",
        "many",
        "much",
        "confirmed",
        "confident",
        # "which Ascend part", "Ascend parts": a chip, never the model Parti misspelt
        "part",
        "parts",
        # "runs carried out on TPU v4": done, never the chiller maker Carrier misspelt
        "carried",
        # "clusters Google has yet to finish": to complete, never Finnish (Finland) misspelt
        "finish",
        "finished",
    )
)


_FIVE_LETTER_COUNTRIES = tuple(c for c in _FUZZY_COUNTRY if len(c) == 5)
"""Country words a four-letter word may be with one letter dropped ("japn")."""
_NOT_COUNTRY_TYPOS = frozenset({"span", "spin", "pain", "chin", "iris"})
"""English words one letter off a five-letter country word (Spain, China, Irish): no typo of it."""


def _respell(text: str, taken: list[tuple[int, int]], known: frozenset[str] = frozenset()) -> str:
    """The text with misspelt analyst words (one or two edits) written as the lexicon spells them;
    words the lexicon or the router's examples use are left as they are."""
    vocab = (
        list(_FUZZY_WORDS)
        + list(_FUZZY_CLASS)
        + list(_FUZZY_COUNTRY)
        + list(_FUZZY_OPS)
        + list(_FUZZY_STATUS)
        + list(_FUZZY_STILL)
    )
    out, pos = [], 0
    for m in _ASCII_WORD.finditer(text):
        word = m.group()
        if any(s < m.end() and m.start() < e for s, e in taken) or word in vocab or word in _KNOWN:
            continue
        if word in known or len(word) < 4:
            continue
        if len(word) == 4:
            # a country of five letters typed with one dropped ("Japn", "Chna", "Inda"): that country, when
            # it is the only one so close and the word is no English word one letter off one (span, chin)
            near = [c for c in _FIVE_LETTER_COUNTRIES if OSA.distance(word, c) == 1]
            if len(near) == 1 and word not in _NOT_COUNTRY_TYPOS and not set(stems(word)) & FILLER_EN:
                out += [text[pos : m.start()], near[0]]
                pos = m.end()
            continue
        best = process.extractOne(word, vocab, scorer=OSA.distance, score_cutoff=2 if len(word) > 7 else 1)
        if best is not None and any(w in FILLER_EN or w in STOPWORDS for w in stems(word)):
            # a word of the question's shape, spelt right, is no typo of another word ("listed" is no
            # "lasted"), only of its own inflection ("value the company at": valued)
            best = best if set(stems(word)) & set(stems(best[0])) else None
        if best is not None:
            out.append(text[pos : m.start()])
            out.append(best[0])
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


_NUMBER = re.compile(
    r"(?P<num>10\^\d+|\d+(?:[.,]\d+)*(?:e\d+)?)\s*(?P<scale>万亿|万|亿|(?:k|m|b|t|million|billion|trillion|thousand)(?![a-z/]))?\s*"
    r"(?:(?P<unit>tb/s|gb/s|gw|mw|kw|gb|tb|(?:peta|tera|exa|[ptge])?flop/s|(?:peta|tera|exa|[ptge])flops"
    r"|flops?|[gtp]ops|top/s|h100|watts|w|chips|gpus|accelerators"
    r"|千瓦|兆瓦|吉瓦|瓦|张卡|张 gpu|-?person|人的?团队|张|people|persons|人)(?![a-z0-9]))?",
)
_SCALES = {
    "万": 1e4,
    "亿": 1e8,
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "million": 1e6,
    "b": 1e9,
    "billion": 1e9,
    "t": 1e12,
    "trillion": 1e12,
    "万亿": 1e12,
}


def _number(m: re.Match[str]) -> tuple[float, str | None]:
    raw = m.group("num")
    value = 10.0 ** int(raw[3:]) if raw.startswith("10^") else float(raw.replace(",", ""))
    scale = m.group("scale")
    if scale == "t" and m.start() and m.string[m.start() - 1].isalpha():
        scale = None  # the "8t" of "v8t" is a name's, not 8 trillion
    if scale:
        value *= _SCALES[scale]
    unit = m.group("unit")
    if unit in ("千瓦", "kw") and scale in ("万", "亿"):
        # "50 万千瓦" (500,000 kW) is how Chinese writes a site's power: 500 MW, not a chip's watts
        return value / 1000.0, "mw"
    if unit and unit in UNITS:
        value *= UNITS[unit][1]
    return value, unit


def _implied(unit: str | None, prop: str | None) -> str | None:
    """The property a number's unit implies. A rate of FLOP/s fits the performance at any precision: the
    one the question names ("FP16 算力超过 2 PFLOP/s"), none when it names none ("chips over 2 PFLOP/s":
    which precision is not said, so no property is taken from the unit)."""
    if unit is None or unit not in UNITS:
        return None
    implied = UNITS[unit][0]
    if implied == PERFORMANCE:
        return prop if prop is not None and prop.endswith(PERFORMANCE) else None
    return implied


_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_LAST_DAY = {1: 31, 2: 28, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}


def _end(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}-{_LAST_DAY[month]:02d}"


YEAR_PARTS = {"early": (1, 6), "mid": (4, 9), "middle": (4, 9), "late": (7, 12)}
"""The months of a part of a year ("early 2025", "mid-2024", "late 2023"): its half, the middle one's six
months around June — wide, as people say it of a figure whose value then names the one row (was: "early"
a word not understood, the figure's source not sure)."""
OPEN_START = "0001-01-01"
OPEN_END = "9999-12-31"
# "since the second half of 2024", "before the first quarter of 2025": "the" between the word and the period
_FROM_BEFORE = re.compile(r"(?:since|starting(?: in| from)?)(?:\s+the)?\s*$")
# "2024 年及以后", "2025 or later", "2024 and after", "2023 and beyond": the period and every one after it
_FROM_AFTER = re.compile(
    r"\s*(?:(?:及|以及|或)?(?:以后|之后)|以来|起|开始|on(?:wards?)?\b"
    r"|(?:and|or)\s+(?:later|after|beyond|since)\b)"
)
_AFTER_BEFORE = re.compile(r"(?:after|later than)(?:\s+the)?\s*$")
_UNTIL_BEFORE = re.compile(r"(?:until|till|through|up to|as of|截至|截止到?|到)(?:\s+the)?\s*$")
_UNTIL_AFTER = re.compile(r"\s*(?:为止)")
_BEFORE_BEFORE = re.compile(r"(?:before|prior to|earlier than)(?:\s+the)?\s*$")
_BEFORE_AFTER = re.compile(r"\s*(?:之前|以前)")


_EVENT_AFTER = re.compile(
    r"\s*(?:(?:funding|equity)\s+)?(?:rounds?|raise)\b|\s*的?(?:那一?轮|那次融资|轮)"
    r"|\s*(?:series\s+[a-z]\+?|seed)\b|\s*的?[a-z]\+?\s*轮"
)
"""A thing a period names by when it happened ("the October 2024 round", "3 月那轮", "after the May 2023
Series C": the valuation that round gave, 2024年6月B轮之后): the words around it do not open the period."""


def _open_ended(
    text: str, span: tuple[int, int], lo: str, hi: str
) -> tuple[tuple[str, str], tuple[int, int]]:
    """A period made open by the words around it: "since 2024", "2024 年以后" (from its start on),
    "after 2023" (from the day after its end), "before 2024", "2024 年之前" (up to the
    day before), "until 2024", "截至 2024 年" (up to its end)."""
    s, e = span
    if _EVENT_AFTER.match(text, e):
        return (lo, hi), span  # "after the October 2024 round": the round of that month, not what came after
    head = text[:s]
    for before, after, bound in (
        (_FROM_BEFORE, _FROM_AFTER, "from"),
        (_AFTER_BEFORE, None, "after"),  # 之后 reads as 以后 does: from the period's start
        (_BEFORE_BEFORE, _BEFORE_AFTER, "before"),
        (_UNTIL_BEFORE, _UNTIL_AFTER, "until"),
    ):
        b = before.search(head)
        a = after.match(text, e) if after else None
        if not (b or a):
            continue
        s2, e2 = (b.start() if b else s), (a.end() if a else e)
        lead = re.search(r"(?:from|自|从)\s*$", head) if a else None
        s2 = lead.start() if lead else s2  # "从 2024 年起", "from 2024 on"
        if bound == "from":
            return (lo, OPEN_END), (s2, e2)
        if bound == "after":
            day = datetime.date.fromisoformat(hi) + datetime.timedelta(days=1)
            return (day.isoformat(), OPEN_END), (s2, e2)
        if bound == "until":
            return (OPEN_START, hi), (s2, e2)
        day = datetime.date.fromisoformat(lo) - datetime.timedelta(days=1)
        return (OPEN_START, day.isoformat()), (s2, e2)
    return (lo, hi), span


def read_dates(text: str) -> tuple[tuple[str, str] | None, list[tuple[int, int]]]:
    """A date range the text gives (from, to as ISO dates), and the spans it took; a period with words
    that open it ("since", "before", "截至", "以后") runs from or to its bound (:func:`_open_ended`)."""
    found, spans = _read_period(text)
    if found is None or spans[0][1] - spans[0][0] == 0:
        return found, spans
    lo, hi = found
    if lo == OPEN_START or hi == OPEN_END:
        return found, spans
    period, span = _open_ended(text, spans[0], lo, hi)
    return period, [span]


def _read_period(text: str) -> tuple[tuple[str, str] | None, list[tuple[int, int]]]:
    """The period the text names (a year, half, quarter, month or a range), and the span it took."""
    pats = [
        # the second half of 2024 / 2024 年下半年 / H2 2024
        (
            r"\b(first|second)\s+half\s+(?:of\s+)?(\d{4})|\bh([12])\s*(\d{4})|(\d{4})\s*年?\s*(上|下)半年",
            "half",
        ),
        # Q3 2024 / the third quarter of 2024 / 2024 年第三季度
        (
            r"\bq([1-4])\s*(\d{4})|\b(\d{4})\s*q([1-4])\b|\b(first|second|third|fourth)\s+quarter\s+(?:of\s+)?(\d{4})"
            r"|(\d{4})\s*年?\s*第?\s*([一二三四1-4])\s*季度",
            "quarter",
        ),
        # between 2024-05-01 and 2024-12-31, from 2024-05 to 2024-08: both ends, each at its precision
        (
            r"(?<![\d.-])(\d{4}-(?:0[1-9]|1[0-2])(?:-[0-3]\d)?)\s*(?:and|to|until|till|through|-|–|~|到|至)\s*"
            r"(\d{4}-(?:0[1-9]|1[0-2])(?:-[0-3]\d)?)(?![\d.-])",
            "iso-iso",
        ),
        # 2024-05-17, 2024-05: a day, a month as ISO writes them
        (r"(?<![\d.-])(\d{4})-(0[1-9]|1[0-2])-([0-3]\d)(?![\d.-])", "ymd"),
        (r"(?<![\d.-])(\d{4})-(0[1-9]|1[0-2])(?![\d.-])", "ym-zh"),
        # 2023 年 10 月到 2024 年 12 月, 2024 年 6 月到 2025 年, 2023 年到 2024 年 3 月: each end at its own
        # precision, across the years (was: the first month alone)
        (
            r"(\d{4})\s*年\s*(?:(1[0-2]|0?[1-9])\s*月份?)?\s*(?:到|至|-|~|—|–)\s*(\d{4})\s*年\s*"
            r"(?:(1[0-2]|0?[1-9])\s*月)?",
            "ym-ym",
        ),
        # 2019 到 2022 年 / 2019-2022 年 / 2019 to 2022 / 2019–2022
        (r"(\d{4})\s*年?\s*(?:到|至|-|~|—|–)\s*(\d{4})\s*年", "y-y"),
        (
            r"(?<![\d.-])((?:19|20)\d{2})\s*(?:-|~|—|–|to|through|thru|until|到|至)\s*"
            r"((?:19|20)\d{2})(?![\d.])",
            "y-y",
        ),
        # between June and September 2025 / from Jan to Mar 2025
        (rf"(?:between|from)\s+({_MONTH_RE})\w*\s+(?:and|to|-)\s+({_MONTH_RE})\w*,?\s+(\d{{4}})", "mm-y"),
        # from January 2024 to June 2024
        (
            rf"(?:from|between)\s+({_MONTH_RE})\w*,?\s+(\d{{4}})\s+(?:and|to|until|till|-)\s+({_MONTH_RE})\w*,?\s+(\d{{4}})",
            "my-my",
        ),
        # from 2019 until 2024 / between 2024 and 2025
        # ("betwen", "beteen", "btwn": the slips of "between", which left the second year unread)
        (r"(?:from|between|betwe+n|betwen|beteen|btwn)\s+(\d{4})\s+(?:and|to|until|till|-)\s+(\d{4})", "y-y"),
        # 2025 年 1 月到 3 月
        (r"(\d{4})\s*年\s*(1[0-2]|0?[1-9])\s*月\s*(?:到|至|-|~)\s*(1[0-2]|0?[1-9])\s*月", "y-mm"),
        (r"since\s+(\d{4})|(\d{4})\s*年\s*以来", "since"),
        # early 2025 / late 2023 / mid-2024: a part of the year (:data:`YEAR_PARTS`), not the whole year
        (r"\b(early|late|mid|middle of)[\s-]+(\d{4})\b", "part"),
        (rf"({_MONTH_RE})\w*\s+(\d{{4}})", "my"),
        # a month that is none ("2024年13月") is no date: never a month past December
        (r"(\d{4})\s*年\s*(1[0-2]|0?[1-9])\s*月", "ym-zh"),
        (
            r"(?:in|during|(?:at|by)?\s*the\s+(?:end|start|beginning)\s+of|(?:end|start)\s+of)\s+(\d{4})\b"
            r"|(\d{4})\s*年(?:底|末|初)?|\b(20\d{2})\b",
            "y",
        ),
    ]
    rel = re.search(
        # "yr", the chat shorthand of year ("and next yr?")
        r"\b(next|this|last|past)\s+(?:year|yr)\b|(明年|今年|去年|前年|(?<![之以然])后年)"
        r"|the year (after) next",
        text,
    )
    if rel and not re.search(r"\b(?:19|20)\d\d\b|\d{4}\s*年", text):
        # the year a relative word means, read in its place ("去年上半年": the first half of 2025)
        word = rel.group(1) or rel.group(2) or rel.group(3)
        shift = {"next": 1, "明年": 1, "this": 0, "今年": 0, "前年": -2, "后年": 2, "after": 2}.get(word, -1)
        named = f"{datetime.date.today().year + shift}" + ("年" if rel.group(2) else "")
        s, e = rel.span()
        found, spans = _read_period(text[:s] + named + text[e:])
        delta = len(named) - (e - s)

        def back(p: int, end: bool) -> int:
            if p <= s:
                return p
            return p - delta if p >= s + len(named) else (e if end else s)

        return found, [(back(a, False), back(b, True)) for a, b in spans]
    for pat, kind in pats:
        m = re.search(pat, text)
        if not m:
            continue
        g = [x for x in m.groups() if x is not None]
        span = [(m.start(), m.end())]
        if kind == "ym-ym":
            y1, m1, y2, m2 = m.groups()
            lo = f"{int(y1)}-{int(m1 or 1):02d}-01"
            return (lo, _end(int(y2), int(m2 or 12))), span
        if kind == "half":
            year = int(next(x for x in g if x.isdigit() and len(x) == 4))
            second = any(x in ("second", "2", "下") for x in g)
            return (
                (f"{year}-07-01", f"{year}-12-31") if second else (f"{year}-01-01", f"{year}-06-30")
            ), span
        if kind == "quarter":
            year = int(next(x for x in g if x.isdigit() and len(x) == 4))
            q = next(x for x in g if not (x.isdigit() and len(x) == 4))
            n = {"first": 1, "second": 2, "third": 3, "fourth": 4, "一": 1, "二": 2, "三": 3, "四": 4}.get(
                q
            ) or int(q)
            return (f"{year}-{3 * n - 2:02d}-01", _end(year, 3 * n)), span
        if kind == "mm-y":
            y = int(g[2])
            return (f"{y}-{_MONTHS[g[0]]:02d}-01", _end(y, _MONTHS[g[1]])), span
        if kind == "my-my":
            return (f"{int(g[1])}-{_MONTHS[g[0]]:02d}-01", _end(int(g[3]), _MONTHS[g[2]])), span
        if kind == "y-y":
            return (f"{int(g[0])}-01-01", f"{int(g[1])}-12-31"), span
        if kind == "y-mm":
            y = int(g[0])
            return (f"{y}-{int(g[1]):02d}-01", _end(y, int(g[2]))), span
        if kind == "since":
            return (f"{int(g[0])}-01-01", OPEN_END), span
        if kind == "part":
            y, (first, last) = int(g[1]), YEAR_PARTS[g[0].split()[0]]
            return (f"{y}-{first:02d}-01", _end(y, last)), span
        if kind == "my":
            y, mo = int(g[1]), _MONTHS[g[0]]
            return (f"{y}-{mo:02d}-01", _end(y, mo)), span
        if kind == "iso-iso":
            lo, hi = g[0], g[1]
            lo = lo if len(lo) == 10 else f"{lo}-01"
            hi = hi if len(hi) == 10 else _end(int(hi[:4]), int(hi[5:7]))
            return (lo, hi), span
        if kind == "ymd":
            day = f"{int(g[0])}-{int(g[1]):02d}-{int(g[2]):02d}"
            return (day, day), span
        if kind == "ym-zh":
            y, mo = int(g[0]), int(g[1])
            return (f"{y}-{mo:02d}-01", _end(y, mo)), span
        y = int(g[0])
        return (f"{y}-01-01", f"{y}-12-31"), span
    return None, []


def countries_named(folded: str) -> list[str]:
    """The country words of a question (keys of :data:`COUNTRIES`)."""
    return [w for _, _, w in _find(folded, COUNTRIES)]


_FIRST_N_BIG = re.compile(r"前\s*(?:\d+|[二两三四五六七八九十])\s*(?:大|名|强)")


def ops_top(text: str) -> bool:
    """True when the text asks for a ranking ("前三大": the three biggest)."""
    return _has(f" {text} ", OPERATOR_WORDS["top"]) or _FIRST_N_BIG.search(text) is not None


def ranking_words(text: str) -> list[str]:
    """The words of the text that ask for a ranking, highest or lowest first ("largest", "最大", "least"),
    but for a bound ("at least 128 GB", "at most"), which is a threshold."""
    bare = f" {re.sub(r'at (?:least|most)', ' ', text)} "
    found = _find(bare, [*OPERATOR_WORDS["top"], *OPERATOR_WORDS["bottom"]])
    return [bare[s:e].strip() for s, e, _ in found]


def out_of_scope(folded: str) -> bool:
    """True for a question of a kind aikg does not answer from its facts (:data:`OUT_OF_SCOPE`). When a
    company went public is its IPO event's date ("what year did CoreWeave go public"), which aikg holds;
    a listing to come, its price or its shares are not."""
    if _WHEN.search(folded) and not FORECAST.search(folded):
        for w in EVENT_WORDS["IPO"]:
            folded = re.sub(_pattern(w), " ", folded)
    return (
        _has(folded, OUT_OF_SCOPE)
        or _has(folded, OPINION_WORDS)
        or ADVICE.search(folded) is not None
        or DOUBT.search(folded) is not None
        or TASK.search(folded) is not None
    )


PLANNED_CLASSES = frozenset({"cluster", "datacenter"})
PLANNED_FIGURES = frozenset({"powerCapacity", "h100Equivalents", "acceleratorCount", "status", "date"})
"""What aikg holds plans of: clusters and data centers with a status (Planned), and the capacity of
their phases (also a company's capacity stated for a coming year)."""
PLANNED_QUERIES = frozenset(
    {"capacity-pipeline", "largest-clusters-by-owner", "largest-clusters-over-time", "events-between"}
)


def asks_forecast(folded: str) -> bool:
    """True when the question asks what will be ("will", "expected to", "预计", "下一轮", "会")."""
    return FORECAST.search(folded) is not None


def answers_plans(body: dict[str, Any]) -> bool:
    """True when an answer is about what aikg holds plans of (planned clusters, capacity to come) or
    about a claim's source ("who says Groq will have 200 MW"), so a question about the future may
    take it."""
    u = body["understood"]
    form = u.get("form") or {}
    if form.get("status") == "Decommissioned":
        return False  # no source plans a shutdown: "which clusters will be shut down next year"
    if form.get("op") == "provenance" or (u.get("query") or "") in PLANNED_QUERIES or form.get("stage"):
        return True  # (a funding round in talks is a plan aikg holds: Epoch's late discussions)
    if (u.get("query") or "").startswith("sources"):
        return True
    prop = (body["answer"].get("property") or {}).get("name") or ""
    return (
        form.get("class") in PLANNED_CLASSES
        or form.get("property") in PLANNED_FIGURES
        or prop.removeprefix("aikg:") in PLANNED_FIGURES
    )


def mentions_named(form: Form) -> bool:
    """True when the question names an entity (not only organizations to filter on)."""
    return bool(form.entities)


_QUESTION_CHARS = frozenset("什么多少哪几谁是的了吗呢怎样个和与")


SEED_PROPS = frozenset(
    {
        "accelerator",
        "baseline",
        "submitter",
        "workload",
        "introducedWorkload",
        "successor",
        "predecessor",
        "originBusiness",
        "tradeOff",
        "costDriver",
        "purpose",
        "architectureGeneration",
        "announcedOn",
        "ordersOfMagnitude",
        "hardwareVendorPolicy",
        "builder",
        "marketTier",
        "liquidCooled",
        "openWeights",
    }
)
"""Properties of facts the seed documents state, named by their own words only: their short Chinese words
one character off are everyday words (前身: 目前运行; 数量级: 数量出自)."""
_EXACT_ONLY = frozenset(
    {"上市", "问世", "供电", "投资方", "电力公司", "租户", "消息量", "条消息", "费电", "省电"}
    | {w for prop, words in PROPERTY_WORDS if prop in SEED_PROPS for w in words}
    | {"分钟", "喂了", "喂了多少", "注资", "收多少", "训了几天", "落实了没有", "定了没有", "这事落实", "锁定"}
)
"""Property words read only as written: one character off, they are everyday words (上租, 上卖: "on";
用电, 耗电; 投资了; 消息可: the news is; 分别 is no 分钟)."""
_BY_FIRST: dict[str, list[tuple[str, str]]] = {}
"""Chinese property words (two characters or more) by their first character."""


_OTHER_WORDS = frozenset(
    w
    for table in (
        OPERATOR_WORDS.values(),
        STATUS_WORDS.values(),
        [c for _, c in COMPARATORS],
        [c for _, c in CLASS_WORDS],
        [("时候", "时间", "什么", "多少", "收录", "统计", "报到"), USE_WORDS],
        # artificial intelligence (艾伦人工智能研究所, 人工智能公司): never 员工 (staff) misspelt
        [("人工智能", "人工")],
        # bills the data holds no figure of: never 电力 (power) misspelt
        [("电费", "电价", "水费", "油费")],
        # what compute is spent on: 推理 (inference) is no 推出 (released) misspelt
        [tuple(SPEND_CATEGORIES)],
    )
    for words in table
    for w in words
)
"""Words of the lexicon that are not property words: never read as a property word misspelt."""


def _cjk_near(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Chinese property words written with one wrong character after a right first one (显寸 for 显存)."""
    if not _BY_FIRST:
        for prop, words in PROPERTY_WORDS:
            for w in words:
                if w in _EXACT_ONLY:
                    continue
                if len(w) >= 2 and all("\u4e00" <= ch <= "\u9fff" for ch in w):
                    _BY_FIRST.setdefault(w[0], []).append((w, prop))
    out = []
    for i, ch in enumerate(text):
        for w, prop in _BY_FIRST.get(ch, ()):
            chunk = text[i : i + len(w)]
            if len(chunk) != len(w) or sum(a != b for a, b in zip(chunk, w, strict=True)) != 1:
                continue
            cjk = all("\u4e00" <= c <= "\u9fff" and c not in _QUESTION_CHARS for c in chunk)
            if chunk in _OTHER_WORDS:
                continue  # "最大" is a word of its own, not "最长" misspelt
            if cjk and not any(a < i + len(w) and i < b for a, b in spans):
                out.append((i, i + len(w), prop))
    return out


def _cjk_only(w: str) -> bool:
    return all("\u4e00" <= ch <= "\u9fff" for ch in w)


@functools.cache
def _sound(ch: str) -> str:
    """A character's sound without its tone (pypinyin): 代 and 带 are both "dai"."""
    return lazy_pinyin(ch)[0]


_HOMOPHONES: dict[tuple[str, ...], str] = {}
"""Chinese lexicon words (properties, classes) by the sounds of their characters."""


def _homophones() -> dict[tuple[str, ...], str]:
    if not _HOMOPHONES:
        for _, words in (*PROPERTY_WORDS, *CLASS_WORDS):
            for w in words:
                if len(w) >= 2 and _cjk_only(w):
                    _HOMOPHONES.setdefault(tuple(_sound(ch) for ch in w), w)
    return _HOMOPHONES


def respell_cjk(text: str, taken: Iterable[tuple[int, int]] = ()) -> str:
    """The text with Chinese lexicon words typed as a homophone written right ("显存代宽" -> "显存带宽",
    "工耗" -> "功耗", "急群" -> "集群"): a pinyin input method's usual slip is one character of the same
    sound. Same length, so offsets found on either text mean the same characters."""
    if not CJK_CHAR_RE.search(text):
        return text
    words = _homophones()
    spans = list(taken)
    # a word spelt right is not half of another misspelt: "这条数据" is "this figure", not 跳数 (hops)
    spans += [(a, b) for a, b, _ in _find(text, [w for w in FILLER_ZH if len(w) >= 2])]
    # nor is 机群 (an organization's chips as a whole, FLEET_WORDS) 集群 (clusters) misspelt
    spans += [(a, b) for a, b, _ in _find(text, [w for w in FLEET_WORDS if _cjk_only(w)])]
    sounds = [_sound(ch) if "\u4e00" <= ch <= "\u9fff" and ch not in _QUESTION_CHARS else "" for ch in text]
    chars = list(text)
    for n in sorted({len(k) for k in words}, reverse=True):
        for i in range(len(chars) - n + 1):
            key = tuple(sounds[i : i + n])
            w = words.get(key) if all(key) else None
            if w is None or any(a < i + n and i < b for a, b in spans):
                continue
            diff = [j for j in range(n) if chars[i + j] != w[j]]
            if len(diff) == 1:
                chars[i + diff[0]] = w[diff[0]]
    return "".join(chars)


GROUP_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "vendor",
        (
            "vendor",
            "vendors",
            "chipmaker",
            "chipmakers",
            "chip maker",
            "maker",
            "makers",
            "manufacturer",
            "manufacturers",
            "芯片厂商",
            "厂商",
            "厂家",
            "供应商",
            "制造商",
        ),
    ),
    (
        "org",
        (
            "operator",
            "operators",
            "company",
            "companies",
            "firm",
            "firms",
            "organization",
            "organizations",
            "organisation",
            "lab",
            "labs",
            "developer",
            "developers",
            "公司",
            "机构",
            "运营商",
            "运营方",
            "startup",
            "startups",
            "企业",
            "实验室",
            "开发商",
        ),
    ),
    ("hardware", ("accelerator", "accelerators", "chip", "chips", "gpu", "gpus", "芯片", "加速器", "显卡")),
    ("country", ("country", "countries", "nation", "nations", "国家", "國家", "哪国", "哪國")),
)
"""Words for what a ranking by a count or total groups by ("which *operator* runs the most clusters")."""
GROUP_PATHS: dict[tuple[str, str], str] = {
    ("cluster", "org"): "aikg:operator",
    ("datacenter", "org"): "aikg:operator",
    ("cluster", "vendor"): "aikg:accelerator/aikg:manufacturer",
    ("cluster", "hardware"): "aikg:accelerator",
    ("run", "hardware"): "aikg:accelerator",
    ("run", "org"): "aikg:trainedModel/aikg:developer",
    ("run", "vendor"): "aikg:accelerator/aikg:manufacturer",
    ("model", "org"): "aikg:developer",
    ("hardware", "org"): "aikg:manufacturer",
    ("hardware", "vendor"): "aikg:manufacturer",
    ("funding", "org"): "aikg:investee",
}
"""From a node of the class counted to the thing a ranking groups by (the ontology's links)."""
QUANTITY_WORDS = ("most", "fewest", "least", "number of", "最多", "最少", "数量")
"""A ranking by how many ("the most clusters"), not by size ("the largest cluster")."""
SUMMABLE = ("amount", "h100Equivalents", "powerCapacity", "acceleratorCount")
"""Figures a total adds up (a ranking of organizations by them sums their nodes')."""
_WHICH = re.compile(
    r"\b(?:which|what)\s+|哪一?[家个款种位]?\s*"
    r"|(?:最多|最少)的\s*|前\s*(?:\d+|[一二三四五六七八九十]+)\s*[家个位名]?\s*"
    r"|\bthe\s+(?=\w+\s+(?:with\s+the\s+most|that|which|who)\b)"
)
"""Where the word for what a ranking groups by may follow ("which *operator*", "哪家*公司*", "前三家*公司*",
"the *company* that raised the most"), or one word later ("which AI *lab*", "哪家 AI *公司*")."""


def _after_which(text: str) -> Iterator[str]:
    """The text after each "which" (:data:`_WHICH`), and after the word that follows it."""
    for m in _WHICH.finditer(text):
        rest = text[m.end() :].lstrip()
        yield rest
        word = re.match(r"[a-z0-9-]+\s+", rest)
        if word and word.group(0).strip() not in ("most", "largest", "biggest"):
            yield rest[word.end() :]


TOTAL_WORDS = (
    "total",
    "in total",
    "overall",
    "altogether",
    "cumulative",
    "累计",
    "总额",
    "合计",
    "总共",
    "一共",
)
"""Words of a total over time (what a company raised in all its rounds)."""
_WHO = re.compile(r"\bwho(?:se)?\b|谁")
"""Who has the most of a class is an organization ("who runs the most clusters", "谁手里的集群最多")."""


_VENDOR_AFTER = re.compile(r"(?:'s)?\s*(?:的\s*)?(?:chips?|gpus?|accelerators?|hardware|芯片|加速器|显卡|卡)")
_VENDOR_BEFORE = re.compile(r"(?:made by|built by|designed by|from)\s*$")
_SITE_AFTER = re.compile(r"\s*(?:clusters?|supercomputers?|集群|超算|算力集群)")
"""A class of sites right after an organization's chip word: "Meta's GPU clusters", "谷歌的 GPU 集群" are the
clusters it runs (the chip word says what kind), not clusters of chips it makes."""


def _makes_chips(text: str, end: int) -> bool:
    """True when the chip word after an organization (ending at ``end``) says the organization made the
    chips ("AMD chips", "clusters running Huawei chips"); not "Meta's GPU clusters", its own clusters."""
    m = _VENDOR_AFTER.match(text, end)
    if m is None:
        return False
    return not (re.match(r"(?:'s|\s*的)", m.group()) and _SITE_AFTER.match(text, m.end()))


def _group(text: str, carrier: str | None) -> str | None:
    """The path a ranking by a count or total groups the carrier's nodes by, when the question asks
    which organization or chip has the most of them; else None."""
    if carrier is None:
        return None
    if carrier == "funding" and re.search(r"\bsingle\b|\bone round\b|\ba round\b|单笔|一轮|单轮", text):
        return None  # "the most in a single round": the rounds ranked, not each company's total
    per = re.search(r"\bper\s+(\w+)", text)  # "clusters per operator, top ones": how many each has
    for kind, words in GROUP_WORDS if per else ():
        if per is not None and per.group(1) in words:
            return GROUP_PATHS.get((carrier, kind))
    if not _has(f" {text} ", QUANTITY_WORDS) and not (carrier == "funding" and _has(text, TOTAL_WORDS)):
        # a company raises its money in rounds: "累计融资额排名第一的是哪家公司" asks for its total
        return None
    for rest in _after_which(text):
        for kind, words in GROUP_WORDS:
            if any(re.match(re.escape(w) + r"(?![a-z])", rest) for w in words):
                return GROUP_PATHS.get((carrier, kind))
    if _WHO.search(text):
        return GROUP_PATHS.get((carrier, "org"))
    return None


def _is_org(c: Candidate, orgs: frozenset[str]) -> bool:
    return any(t in orgs for t in c.types)


def read_form(
    question: str,
    folded: str,
    mentions: list[Mention],
    lang: str,
    vocab: Any,
    labels: dict[str, str],
    known: frozenset[str] = frozenset(),
    fallback: str | None = None,
    products: Iterable[str] = (),
    context: str | None = None,
    divisions: Iterable[str] = (),
) -> Form | None:
    """The logical form of a question (``op`` empty when it names parts of one but no operator, as a
    follow-up does), or None when it is out of scope. ``form.unknown`` lists the words of the question
    the form does not account for (:mod:`aikg.ask.coverage`); ``form.sure`` is lowered by them.
    ``context`` is the class of the question before, for a follow-up: its words are read as that
    class's ("那推理呢" after OpenAI's R&D compute spending: the inference category, not a property)."""
    form = _read_form(
        question, folded, mentions, lang, vocab, labels, known, fallback, tuple(products), context, divisions
    )
    if form is None:
        return None
    if form.op not in ("fact", "joint", "series"):
        form.also = []  # a fact or figures over time answer each property asked; a total or a list its own
    form.unknown = unexplained_words(folded, mentions, known, labels, products)
    form.unknown = [w for w in form.unknown if not division_word(form, w, folded)]
    form.unknown = of_one_thing(form, form.unknown, folded)
    form.unknown += [w for w in not_kept(form, folded) if w not in form.unknown]
    form.sure = sureness(form.unknown)
    return form


SERIES_OPS = frozenset({"top", "count", "list", "sum", "compare", "series"})


def series_applied(form: Form) -> bool:
    """True when the answer keeps to the series of models the question names: models or their runs,
    ranked, counted or listed."""
    return form.carrier in ("model", "run") and form.op in SERIES_OPS and not form.entities


def not_kept(form: Form, folded: str = "") -> list[str]:
    """What the question names that the answer does not keep to, as words not understood: a series of
    models beside a form that does not keep to it ("Qwen 系列的参数量"), and a figure with no bound
    beside a list, count or ranking, which does not apply it ("阿里巴巴有 1 万亿参数的模型吗", "models with
    1 trillion parameters": was every Alibaba model listed, sure)."""
    out = [form.series] if form.series and not series_applied(form) else []
    out += form.lost
    if (
        form.op in ("list", "count", "top")
        and form.value is not None
        and form.threshold is None
        and form.value_prop is not None
        and form.value_prop == form.prop
    ):
        out.append(f"{form.value:,.0f}" if form.value.is_integer() else f"{form.value:g}")
    if form.op == "list" and form.carrier in DATED and not form.dates:
        # "AMD 最新芯片的显存是多少": the newest one's figure, which no one form says; a list of every chip
        # answers another question
        out += [w for _, _, w in _find(folded, (*NEWEST_WORDS, *OLDEST_WORDS)) if w not in out]
    return out


def of_one_thing(form: Form, unknown: list[str], folded: str = "") -> list[str]:
    """The words left unexplained less those a fact of one thing answers: "the *max* scale-up domain of
    TPU v8t" is its figure, the most it has (TPU v8t: "at most 9,600"); a minimum is another figure,
    which aikg does not hold (coverage.UNAPPLIED_EN). And those an organization's filter answers: "NVIDIA's
    *own* biggest model", "Meta *自研*的芯片" are the things it made, which its filter already is."""
    if form.op == "fact" and len(form.entities) == 1 and not form.orgs:
        return [w for w in unknown if w not in MAX_WORDS]
    if form.orgs and form.carrier in OWNED and not form.vendor:
        said = [m.group() for m in OWN_WORDS.finditer(folded)]
        return [w for w in unknown if not any(w in s for s in said)]
    return unknown


def restated(form: Form, folded: str, unknown: list[str]) -> list[str]:
    """The words left unexplained less those that restate what the form applies (:data:`RESTATED`): a
    comparative beside a comparison, "own" beside an organization's clusters or sites, "shipped" beside
    its models or chips, "done" beside its rounds or the runs on a chip, "handling" beside usage figures,
    阶段 beside a status, "back" beside a period; and "so" of "so far" (until now) beside a count or a
    company's figures."""
    asked = set()
    if form.op == "compare":
        asked.add("compare")
        if "先进" in folded:
            asked.add("compare_zh")
    if re.search(r"\bin here\b", folded) and form.op == "count":
        asked.add("data")
    if form.orgs and form.carrier in ("cluster", "datacenter"):
        asked.add("holds")
    if form.orgs and form.carrier in ("model", "hardware") and form.op in ("count", "list", "top"):
        asked.add("makes")
    if form.carrier == "funding" and (form.orgs or form.entities):
        asked.add("rounds")
    if form.carrier == "run" and form.chips:
        asked.add("runs")
    if form.carrier == "usage":
        asked.add("usage")
    if form.status:
        asked.add("status")
    if form.spend_category:
        asked.add("category")
    if form.every and _has(folded, ANY_STATUS_WORDS):
        asked.add("every")
    if form.spend_total and form.carrier == "spend":
        asked.add("spend_total")
    if form.dates:
        asked.add("dated")
    if form.rated_as:
        asked.add("rating")
    if form.carrier == "staff":
        asked.add("staff")
    if form.op == "provenance":
        asked.add("source")
    if form.prop in ("status", "termYears", "contractedCapacity") and form.carrier in (None, "funding"):
        # a deal's status, term or capacity: the deal named by what it is (OpenAI *租* PORTS-Pike 的*合同*)
        asked.add("deal")
    if form.document:
        asked.add("document")
    if form.prop in ("architectureGeneration", "marketTier") and form.op in ("fact", "joint"):
        asked.add("belongs")
    if form.per_token:
        asked.add("per_token")
    if form.series and series_applied(form):
        asked.add("series")
    if form.prop == "memoryPerChip":
        asked.add("memory")
    if form.prop and form.prop.endswith("Performance"):
        asked.add("performance")
    if form.prop == "trainingCompute":
        asked.add("compute")
    if form.prop in ("location", "locationName"):
        asked.add("place")
    told = {w for kind in asked for w in RESTATED[kind]}
    if form.round_name == "Seed":
        told.update(("seed", "种子"))  # the seed round the form keeps to (_SEED_ROUND)
    if re.search(r"\bso far\b", folded) and (form.op == "count" or form.carrier in FIGURES):
        told.add("so")
    if any(period for _, _, period in form.rounds_of):
        # each side's month was read with its round ("OpenAI's October 2024 round or Anthropic's March
        # 2025 round"), not the first one only
        told.update(_MONTHS)
    return [w for w in unknown if w not in told]


OWN_WORDS = re.compile(
    r"\bown\b|\bin-?house\b|\bhome-?grown\b|\bself-developed\b|\b(?:it|them)sel(?:f|ves)\b|自研|自家|自主研发|自有"
    # what it developed, made or designed itself ("亚马逊自己开发的模型", "谷歌自己研发的芯片")
    r"|自己(?:开发|研发|做|造|设计|打造|训练|推出)"
)
"""Words saying that the things an organization has are of its own making (its models, its chips)."""


NOW = re.compile(r"\b(?:now|today|currently|current)\b|现在|目前|当前|如今")
"""Words of the present, asked beside a period: the figure of now too."""
MAX_WORDS = frozenset({"max", "maximum", "maximal", "上限"})
"""Words of the most a single thing's figure allows: that figure itself, for a fact of one thing."""
NOT_NAMES = frozenset({"minimum", "maximum", "min", "max", "neocloud", "neoclouds", "seed"})
"""Everyday words never read as a misspelt name ("per the *seed* article": no model SEER; a seed round)."""
"""Everyday words that are no misspelt name ("minimum" is not MiniMax), and the kind of company the
ontology calls a neocloud (aikg:Neocloud: "Lambda's tier of neocloud"), which is no misspelt NeevCloud."""


UNSURE = 0.4
"""How sure a composed form (or a fact) is that leaves a word of the question unexplained: below
:data:`SURE_AT`. On the development questions, composed forms that explain every word were right for
413 of 419, those that left one word 6 of 8 ("next year" read as no date), two words 0 of 3."""
TEMPLATE_WORD = 0.9
"""How much each unexplained word leaves of a named query's sureness. A named query is a fixed template
that answers a whole kind of question, and words its title, description and examples do not use are
mostly other ways to say the same ("firms", "chipmaker", "小道消息"): on the development questions it
was right for 29 of 30 answers that left one word, 9 of 10 that left two; from three words on
(0.9³ < :data:`SURE_AT`) it is not sure."""
SURE_AT = 0.75
"""Least sureness at which a reading is answered; below it aikg says what it understood and that it is
not sure, and shows no answer."""


def sureness(unknown: list[str], *, template: bool = False, names: int = 0) -> float:
    """How sure a reading is (0-1) that leaves these words of the question unexplained: a composed form
    or fact (``template`` False) or a named query. ``names``: how many of them the question writes as
    names (capitalized past its first word). A template cannot apply a name it was not given: "list data
    centers in Texas" ran the whole capacity pipeline (Hebei, Ohio, ...) as a sure answer."""
    if not unknown:
        return 1.0
    if names:
        return UNSURE
    return round(TEMPLATE_WORD ** len(unknown), 3) if template else UNSURE


def written_as_names(question: str, unknown: list[str]) -> int:
    """How many of the ``unknown`` words ``question`` writes capitalized, not as its first word, or
    writes as a model number (letters and digits: "v10", "MI450X", a name the graph does not hold)."""
    words = re.findall(r"[^\W\d_]+", question)[1:]
    wanted = {w.casefold() for w in unknown}
    numbered = {w for w in wanted if _MODEL_NUMBER.fullmatch(w)}
    return len({w.casefold() for w in words if w[:1].isupper() and w.casefold() in wanted} | numbered)


LISTED_WORDS = (
    "hardware list",
    "hardware dataset",
    "hardware database",
    "hardware table",
    "硬件列表",
    "硬件清单",
    "硬件数据库",
    "硬件数据集",
    "硬件表",
)
"""Words naming Epoch's list of ML hardware, the one dataset whose rows are chips (:attr:`Form.listed`)."""
EPOCH_DATASET = re.compile(
    r"\bepoch(?:\s+ai)?(?:'s)?\s+(?:[a-z0-9-]+\s+){0,3}?(?:datasets?|databases?|lists?|tables?)\b"
    r"|\bepoch(?:\s+ai)?\s+(?:lists?|listed|records?|tracks?)\b"
    r"|epoch\s*(?:ai)?\s*的?[^，。？?]{0,40}?(?:数据集|数据库)"
)
"""Epoch's own dataset named as what holds the things counted or listed ("Epoch's cluster dataset",
"does Epoch list", Epoch 的数据中心数据集): its rows (:attr:`Form.epoch_rows`)."""
DATASET_ROWS = frozenset({"cluster", "datacenter", "model", "run"})
"""Carriers whose nodes are rows of one of Epoch's datasets (aikg:sourceRow) or named by a seed document."""
HARDWARE_GRAPH = str(GRAPH["epoch/ml-hardware"])
CHIP_LINES = ("昇腾", "昆仑芯", "思元")
"""Chinese names of chip lines, written before the model number a name links ("昇腾910B"): words of the
name, never a misspelt property word's second character ("用昇": not 用户)."""
_MODEL_NUMBER = re.compile(r"(?=.*[a-z])(?=.*\d)[a-z0-9-]+")


def _static_phrases() -> list[str]:
    from aikg.ask.lexicon import FACT_EXAMPLES, OVERVIEW_WORDS
    from aikg.ask.lexicon import PROPERTY_WORDS as FACT_WORDS

    out: list[str] = []
    for _, ws in (*PROPERTY_WORDS, *CLASS_WORDS, *COMPARATORS):
        out += ws
    for ws, _ in FACT_WORDS:
        out += ws
    for table in (OPERATOR_WORDS, STATUS_WORDS, ROLE_WORDS, EVENT_WORDS):
        for ws in table.values():
            out += ws
    out += list(COUNTRIES) + list(UNITS) + list(SPEND_CATEGORIES) + list(OVERVIEW_WORDS) + list(PERIOD_WORDS)
    out += (
        list(DAILY_WORDS)
        + list(PLAN_WORDS)
        + list(YEARLY_REVENUE_WORDS)
        + list(CONTRACTOR_WORDS)
        + list(FULL_TIME_WORDS)
        + list(RUN_RATE_WORDS)
        + list(DEAL_STAGE_WORDS)
        + list(DEAL_STATUS_WORDS)
        + list(AI_DIVISION_WORDS)
        + list(PAYING_WORDS)
        + list(LEASE_TERM_WORDS)
        + list(STARTED_WORDS)
        + list(NEWEST_WORDS)
        + list(OLDEST_WORDS)
        + ["不算外包", "不含外包", "不包括外包", "not counting", "外包标注员"]
        + list(FLEET_WORDS)
        + list(LISTED_WORDS)
        + list(RELIABLE_WORDS)
        + list(RECORD_WORDS)
        + list(CLOSED_WORDS)
        + list(ROUND_TALKS_WORDS)
    )
    # 人工智能 (artificial intelligence) as "AI" before a class word (人工智能模型, 人工智能公司) restates it
    out += ["series", "轮", "round", "rounds", "人工智能", *_KNOWN, *ANSWERED_WORDS]
    out += [w for _, ws in GROUP_WORDS for w in ws] + list(QUANTITY_WORDS) + list(CONFIDENCE_WORDS)
    out += list(CONFIRMED_WORDS) + list(KIND_WORDS) + list(DOCUMENT_KIND_WORDS)
    out += [w for e in FACT_EXAMPLES for w in re.findall(r"[a-z]+", _BRACED.sub(" ", e.casefold()))]
    return out


_BRACED = re.compile(r"\{[^{}]*\}")
ANSWERED_WORDS = (
    # the domain itself, and how a count is asked
    "ai",
    "count",
    # the date a date range applies to: a cluster's first operation, a round's announcement
    "came",
    "become",
    "became",
    "come",
    "online",
    "投运",
    "上线",
    "announce",
    "announced",
    "宣布",
    "closed",
    "after",
    "before",
    "历次",
    # what the answer shows whole: a price list has its input and output prices, a speedup its claim
    "input",
    "output",
    "输入",
    "输出",
    "claim",
    "claims",
    "声称",
    "号称",
    "faster",
    "快",
    "connect",
    "rack",
    "机柜",
    "业务",
    # what a source's statement is called, whose source the answer shows ("the TPU v9t rumour")
    "rumour",
    "rumours",
    "rumor",
    "rumors",
    "news",
    "report",
    "消息",
    "传闻",
    "说法",
    # how a lease holds capacity, and which of a site's phases a figure is ("lock in", "首批")
    "lock",
    "locked",
    "锁定",
    "首批",
    "首期",
    "signed",
    "deliver",
    "delivers",
    "lease",
    "leases",
    "租约",
    "跑",
    "holds",
    "hold",
    "容纳",
    "result",
    "site",
    "campus",
    "由",
    "多大",
    "向",
    "big",
    "size",
    "多大",
    "签约",
    # a model or chip line ("型号"), which came first ("先"), and the source a rating is of
    "型号",
    # Chinese names of chip lines, written beside the model number the name links ("昇腾 910B")
    *CHIP_LINES,
    "先",
    "按",
    "排",
    "排序",
    "epoch",
    "rated",
    "rates",
    # the source document a seed fact is asked of ("文中", "in the article"), and where it places one
    "文中",
    "文章里",
    "文章中",
    "原文中",
    "article",
    "属于",
    # how a thing is used or finished ("采用 3D torus", "完成的融资", "投入运行"), in an analyst's words
    # too ("threw 11,616 H100s at GPT-3", "burn 276 GPU-hours", "动用"), and the benchmark a result is
    # of, which a reading of what links the things named finds ("GPT-3 基准": the MLPerf result)
    "采用",
    "使用",
    "部署",
    "throw",
    "threw",
    "thrown",
    "burn",
    "burned",
    "burnt",
    "动用",
    "benchmark",
    "benchmarks",
    "基准",
    "基准测试",
    # how a capacity grows ("从 54MW 扩到 200MW", "expands to 200 MW"): the figures named say how much,
    # and what a source wrote it in ("哪篇文章写的")
    "扩到",
    "扩容",
    "扩建",
    "expand",
    "expands",
    "expanded",
    "expanding",
    "写的",
    "哪种",
    "预训练",
    "pretrained",
    "pre-trained",
    "pretraining",
    "pre-training",
    # a figure reached ("hit 12 billion", "达到"), of a rate (annualized), said by others ("otherwise")
    "hit",
    "reached",
    "annualized",
    "annualised",
    "按年化算",  # counted annualized (按年化算是多少): the figure's own period, as "annualized"
    "年化算",
    "年化",
    "otherwise",
    "assistant",
    "助手",
    "上",
    "规模",
    "中",
    "完成",
    "投入运行",
    *USE_WORDS,
    # a figure as it was reported or counted ("最高报到过", "最近一次统计的"), what the data holds
    # ("收录了几款", "aikg has"), and who a count of users counts ("月活多少人")
    "报到过",
    "报到",
    "报过",
    "统计的",
    "收录",
    "收录了",
    "有记录",
    "多少人",
    "aikg",
    # what a seed document's figure is called and how it is asked ("the 2.02 minutes", "Groq's target",
    # "the NVFP4 recipe brought", "每颗 GPU 配多少", "训了多少天", "这个数")
    "minute",
    "minutes",
    "estimate",
    "estimates",
    "figure",
    "number",
    "target",
    "targets",
    "aiming",
    "aim",
    "submission",
    "submit",
    "recipe",
    "bring",
    "brings",
    "brought",
    "sit",
    "sits",
    "measured",
    "neocloud",
    "neoclouds",
    "project",
    "projects",
    "open-source",
    "undercut",
    "moving",
    "move",
    "work",
    "works",
    "dataset",
    "datasets",
    "数据集",
    "媒体",
    "put",
    "报的",
    "当",
    "州",
    "园区",
    "gpu cloud",
    "gpu 云",
    "主要",
    "目标",
    "实测",
    "估算",
    "估计",
    "估",
    "假设",
    "实际",
    "配",
    "配备",
    "搭载",
    "方案",
    "训",
    "算的",
    "数",
    "项目",
    "开源",
    # where, said in passing ("沙特那边"), and what a count of chips held is ("GPU 存量")
    "那边",
    "这边",
    "存量",
    # the currency an amount is given in
    "dollars",
    "dollar",
    "usd",
    "money",
    "美元",
    "钱",
    # the whole of what the data holds, over time ("in the dataset", "raised the most overall", "累计")
    "dataset",
    "in the data",
    # Epoch's tables of chillers and cooling towers, the whole of what "equipment data" holds
    "equipment",
    "overall",
    "altogether",
    "cumulative",
    "cumulatively",
    "累计",
    "迄今",
    "迄今为止",
    "至今",
    "到目前为止",
    "single",
    "任务",  # "训练成本最高的任务": the training runs, 训练 read with 成本
    # what an organization spends: the data holds its compute spending (see _spend_of_org)
    "spend",
    "spent",
    "spending",
    "put out",
)
"""Words the reading does not turn into a part of the form, whose meaning the answer shows anyway: the
date a range applies to, the input and output prices of a price list."""
_ROUND = re.compile(r"\bser(?:ies|eis|ise|is|ie|es)\s+([a-f])\b|(?<![a-z0-9])([a-f])\s*轮")
"""A funding round by its letter ("Series B", B 轮), "series" typed a letter off too ("Seris F")."""


Side = tuple[list[Candidate], str | None, tuple[str, str] | None]
"""A round compared: its organization, its letter ("Series E") or None, its period or None."""


def _rounds_of(form: Form, r: _Reading) -> list[Side]:
    """Each side's round when two or more are compared: one organization's rounds of two or more letters
    ("Anthropic's Series E or its Series F", "Anthropic 嘅 E 輪同 F 輪"); or, two or more organizations
    named, the round written after each, before the next one — its letter, its period or both ("xAI's
    Series C post-money vs Anthropic's Series E", "OpenAI's October 2024 round or Anthropic's March 2025
    round"). Empty unless every side has its own round (was: the first letter or period read for all)."""
    rounds = [(m.start(), (m.group(1) or m.group(2)).upper()) for m in _ROUND.finditer(r.text)]
    letters = list(dict.fromkeys(letter for _, letter in rounds))
    if len(form.orgs) == 1 and len(letters) >= 2:
        return [(form.orgs[0], "Series " + letter, None) for letter in letters]
    if len(form.orgs) < 2:
        return []
    spans = []
    for cands in form.orgs:
        # where the organization is named (also as the alternate of a name read first as a model)
        at = [(m.start, m.end) for m in r.mentions if any(c.iri == cands[0].iri for c in m.candidates)]
        if len(at) != 1:
            return []
        spans.append(at[0])
    order = sorted(range(len(form.orgs)), key=lambda i: spans[i][0])
    out: list[Side] = []
    for n, i in enumerate(order):
        start = spans[i][1]
        end = spans[order[n + 1]][0] if n + 1 < len(order) else len(r.text)
        own = {letter for at, letter in rounds if start <= at < end}
        period = read_dates(r.text[start:end])[0] if _ROUNDS.search(r.text[start:end]) else None
        if len(own) > 1 or not (own or period):
            return []
        out.append((form.orgs[i], "Series " + own.pop() if own else None, period))
    periods = {p for _, _, p in out if p}
    if len(periods) < 2 and len(letters) < 2:
        return []  # one round named for all ("xAI and Anthropic's C rounds", "their rounds of 2024")
    return out


_K_WORDS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twenty": 20,
    **{w: n for n, w in enumerate("二三四五六七八九十", 2)},
    "两": 2,
}
"""How many rows a ranking is asked for, in words ("the three biggest", "top five", 前三)."""
_K_WORD = "|".join(sorted(_K_WORDS, key=len, reverse=True))
_TOP_K = re.compile(
    rf"(?:top|前)\s*(\d+|{_K_WORD})(?![a-z])|(\d+|三|五|十)\s*[个款家](?!月)"
    # "the three biggest clusters", "five most powerful chips": a number word before a superlative
    rf"|\b({'|'.join(w for w in _K_WORDS if w.isascii())})\s+(?=(?:[a-z-]+est|most)\b)"
    # "日本最大的两个集群", "功耗最低的三款": a number after a superlative
    rf"|最[\u4e00-\u9fff]{{1,3}}?的\s*(\d+|{_K_WORD})\s*[个款家座](?!月)"
    # "which 3 chips have the lowest TDP", "the 5 biggest clusters"
    rf"|\b(?:which|what|the)\s+(\d{{1,2}})\s+(?=[a-z])(?!(?:nm|gb|tb|gw|mw|kw|w|x|pflop|tflop|b|m)\b)"
)
PERIOD_WORDS = (
    "monthly",
    "mau",
    "月活",
    "月活跃",
    "weekly",
    "wau",
    "周活",
    "周活跃",
    "daily",
    "dau",
    "日活",
    "日活跃",
)
COMPOSER_WORDS = Vocabulary.of(_static_phrases())
"""Every word the composer and the fact reader know (the labels of the ontology are added per store)."""


_END_OF = re.compile(r"\b(?:at\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?$")


_EDITION = re.compile(r"([a-z0-9]+)\s*版(?!本)")
"""版 right after a Latin word or number ("OAM 版", "PCIe 版"): the edition that word names."""
_ALONE = re.compile(r"(?<![\u4e00-\u9fff])光\s*$|(?<=[，,。\s])光\s*$")
"""光 (only, alone) right before a name, at the start of the question or of a clause."""


def unexplained_words(
    folded: str,
    mentions: list[Mention],
    known: frozenset[str],
    labels: dict[str, str],
    products: Iterable[str],
    extra: Vocabulary | None = None,
) -> list[str]:
    """The words of the question that neither its names, dates and numbers nor the composer's words
    (and ``extra``, a named query's) explain; a misspelling of a known word counts as that word."""
    names = [
        m
        for m in mentions
        if not (m.how == "fuzzy" and (m.text in _KNOWN or m.text in known or m.text in NOT_NAMES))
    ]
    taken = [(m.start, m.end) for m in names]
    # "光 OpenAI 就发布了多少个模型", "光谷歌就有几个集群": 光 right before a name is "X alone", which the
    # name's filter already is (就, "just", is a filler)
    taken += [(a.start(), a.end()) for m in names if (a := _ALONE.search(folded, 0, m.start))]
    # "MXC500（OAM 版）", "H100 PCIe 版": 版 (edition) after a word of a linked name's label names that
    # variant, no more ("A100（80GB 版）": 80GB is no word of the A100's label, so 版 stays unexplained)
    words_of_names = {w for m in names for w in re.findall(r"[a-z0-9]+", m.best.label.casefold())}
    taken += [(v.start(), v.end()) for v in _EDITION.finditer(folded) if v.group(1) in words_of_names]
    words = [p.casefold() for p in products if len(p) >= 3]
    taken += [(s, e) for s, e, _ in _find(folded, words)]
    taken += [(s, e) for s, e, _ in _find(folded, [*COUNTRIES, *COUNTRY_PAIRS, *REGIONS])]
    dated = read_dates(folded)[1]
    taken += dated
    # "(at) the end of October 2025": the period the date reader took, as 月底 and 年底 are
    taken += [(m.start(), s) for s, _ in dated if (m := _END_OF.search(folded, 0, s))]
    taken += [(m.start(), m.end()) for m in _NUMBER.finditer(folded) if m.group("num")]
    taken += [(m.start(), m.end()) for m in re.finditer(r"\d+(?:\.\d+)?\s*[x×倍]", folded)]
    taken += [
        (m.start(), m.end()) for pattern in (_TOP_K, _ROUND, _WORD_NUMBER) for m in pattern.finditer(folded)
    ]
    taken += [(m.start(), m.end()) for pattern in (FOLLOW_UP, SUBSET) for m in pattern.finditer(folded)]
    # a rating named as a floor the composer reads ("Likely or better", 至少 Likely): a lower one is not
    taken += floor_spans(folded)
    # a status negated ("not yet built", 还没有完成) and "still" beside a status ("still in talks", 仍在规划)
    staged = [(m.start(), m.end()) for p in (NOT_BUILT, NOT_CLOSED) for m in p.finditer(folded)]
    staged += [
        (s, e)
        for s, e, _ in _find(folded, [*ROUND_TALKS_WORDS, *(w for ws in STATUS_WORDS.values() for w in ws)])
    ]
    if staged or (
        STILL.search(folded)
        and _has(_respell(folded, [], known), [w for ws in STATUS_WORDS.values() for w in ws])
    ):
        # (a status typed with a slip, "already up and runnning", is that status: "already" beside it too)
        taken += staged + [(m.start(), m.end()) for m in STILL.finditer(folded)]
        # a status said with "only" (还只是在洽谈, "still only in late discussions"): the status, no more
        taken += [(m.start(), m.end()) for m in _ONLY_STATUS.finditer(folded)]
    taken += [(s, e) for s, e, _ in _cjk_near(folded, taken)]
    vocab = COMPOSER_WORDS | Vocabulary.of(labels)
    # the words of a linked name's full label ("Indiana" of "Project Rainier New Carlisle Indiana")
    labels_of_names = [m.best.label.casefold() for m in names]
    # (a bracketed qualifier's word too: "OAM" of "MetaX MXC500 (OAM)")
    vocab = vocab | Vocabulary.of(
        labels_of_names + [w for lb in labels_of_names for w in re.findall(r"[^\s()（）]+", lb)]
    )
    if extra is not None:
        vocab = vocab | extra
    left = unexplained(respell_cjk(folded, taken), taken, vocab)
    return [w for w in left if CJK_CHAR_RE.match(w) or _respell(w, [], known) == w] + name_tails(
        folded, names
    )


_NAME_TAIL = re.compile(
    r"[ \t]*(?:\d{1,2}|ii|iii|iv)(?![\w.,])"
    r"(?=\s*(?:$|[?？!！.。,，;；:：)）]|'s\b|的|呢|吗|和|与|芯片|\b(?:and|or|vs|versus|compared|chips?|gpus?)\b))"
)
"""A number written right after a name, ending the name ("Blackwell Ultra *2*?", "H100 2 的显存") or before
a chip word ("Trainium *4* chip", "Inferentia 3 芯片": a chip line read as its maker's chips): a model number
the name linked does not have."""


def name_tails(folded: str, mentions: list[Mention]) -> list[str]:
    """Names written with a model number their linked entity does not have ("Blackwell Ultra 2": the
    Blackwell Ultra is in the graph, its successor is not). The linker takes the longest name it knows, so
    a number left after one names something else, never the entity linked: the question is not about
    anything aikg knows, and the name with its number counts as a word it did not understand."""
    out = []
    for m in mentions:
        tail = _NAME_TAIL.match(folded, m.end)
        if tail is None or any(o.start < tail.end() and m.end < o.end for o in mentions if o is not m):
            continue
        out.append(folded[m.start : tail.end()].strip())
    return out


CJK_CHAR_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass
class _Reading:
    """What the steps of :func:`_read_form` share: the question's text (respelt) and where in it the
    names, dates and property words are."""

    text: str
    mentions: list[Mention]
    prop_spans: list[tuple[int, int]]
    """Property words of the text before respelling around names (same length as ``text``)."""
    name_spans: list[tuple[int, int]] = field(default_factory=list)
    """Names and dates: no property, class or number is read inside them."""
    org_spans: list[tuple[int, int]] = field(default_factory=list)
    countries: list[tuple[int, int, str]] = field(default_factory=list)
    prop_named: dict[tuple[int, int], str] = field(default_factory=dict)
    """The property each property word of the text names, by its span."""
    explicit: bool = False
    """The question names the class of the nodes (not only implied by its property)."""
    hardware_word: bool = False
    """The question says "chips", "GPUs", "accelerators" ..."""
    places: list[Candidate] = field(default_factory=list)
    """Places named (a country, a region) that the search index also links as entities."""
    chip_of: dict[str, Candidate] = field(default_factory=dict)
    """For a system a name was linked to ("GB200": the GB200 NVL72 rack), the chip the same name also
    names (the NVIDIA GB200): what a chip filter means by it."""
    context: str | None = None
    """The class of the question before, for a follow-up (:func:`read_form`)."""
    guessed: bool = False
    """The property was read from a Chinese word with one character wrong (:func:`_cjk_near`): a guess
    that a number's unit naming a property outweighs ("训练时用了超过 3 万张卡": the chips, not 训练时长)."""


def _read_form(
    question: str,
    folded: str,
    mentions: list[Mention],
    lang: str,
    vocab: Any,
    labels: dict[str, str],
    known: frozenset[str],
    fallback: str | None,
    products: Iterable[str],
    context: str | None = None,
    divisions: Iterable[str] = (),
) -> Form | None:
    """The steps of reading: the text, the names, dates, property, numbers, class, modifiers, operator."""
    if out_of_scope(folded):
        return None
    r = _respelt(folded, mentions, known)
    r.context = context
    form = Form(op="", lang=lang)
    _read_names(form, r, vocab, products)
    form.dates, date_spans = read_dates(r.text)
    if date_spans and any(m.start <= s and e <= m.end for s, e in date_spans for m in r.mentions):
        # "甲骨文 2020 年那个 A100 集群": the year is its name's (Oracle 2020 A100 Cluster), no period
        form.dates, date_spans = None, []
    r.name_spans = [(m.start, m.end) for m in r.mentions] + date_spans
    if context == "spend" and not _has(r.text, SPEND_WORDS):
        # a follow-up of a compute-spending question: "研发", "inference" name its category, not the
        # developer or a property of their own
        categories = [(s, e) for s, e, _ in _find(r.text, SPEND_CATEGORIES)]
        r.name_spans += categories
        fallback = None if categories else fallback
    _read_property(form, r, labels, fallback)
    _read_numbers(form, r)
    _read_class(form, r)
    _read_division(form, r, divisions, question)
    _round_how_much(form, r)
    _site_power(form)
    if form.series and form.carrier is None:
        form.carrier = "model"  # "Qwen 系列里哪个参数最多": the series' models
    _figures_of_org(form)
    _named_of_class(form, r, vocab)
    _country_of_org(form)
    _read_modifiers(form, r)
    _deal_status(form, r)
    return _read_operator(form, r, vocab)


def divisions_named(text: str, divisions: Iterable[str]) -> list[tuple[int, int, str]]:
    """The divisions of the staff figures the text names (start, end, the division as the data writes it,
    folded): by the division's name without its bracketed note ("FAIR", "research and development", "AI
    tutors"), or by a word of :data:`DIVISION_WORDS` ("R&D", 研发部门)."""
    words: dict[str, str] = {}
    for d in divisions:
        name = re.sub(r"\s*[(（].*?[)）]", "", d).strip().casefold()
        if len(name) >= 3:
            words[name] = d.casefold()
    folded = {d.casefold() for d in divisions}
    words.update({w: d for w, d in DIVISION_WORDS.items() if d in folded})
    found = sorted(_find(text, words), key=lambda f: (f[0], f[0] - f[1]))
    return [(start, end, words[w]) for start, end, w in found]


def _as_written(division: str, divisions: Iterable[str]) -> str:
    """The division as the data writes it (``division`` folded)."""
    return next((d for d in divisions if d.casefold() == division), division)


def _read_division(form: Form, r: _Reading, divisions: Iterable[str], question: str) -> None:
    """A division of a company's staff named by the data's own words ("Meta's FAIR in 2016", "Anthropic's
    R&D headcount", Anthropic 研发部门): its staff rows (aikg:companyDivision), not the whole company's
    (was: "fair" a word not understood; "R&D" the organization Panasonic R&D, the company's figure shown).
    A division named as an organization of its own (Google DeepMind) is read by the organization."""
    staff = form.carrier == "staff" or form.prop == "staffCount"
    if not (staff or (_PEOPLE.search(r.text) and form.orgs)):
        return  # "Anthropic 研发部门有多少人": 研发 read the models it develops, 多少人 asks its people
    found = divisions_named(r.text, divisions)
    if not found:
        return
    start, end, division = found[0]
    written = question[start:end] if len(question) == len(r.text) else ""
    if division.upper() == _as_written(division, divisions) and not written.isupper():
        return  # an acronym the data writes in capitals ("FAIR") is a division only written so ("fair")
    inside = {c.iri for m in r.mentions if start <= m.start and m.end <= end for c in m.candidates}
    named = {e.iri for e in form.entities} | {c.iri for o in form.orgs for c in o}
    if inside & named and not _has(r.text[start:end], DIVISION_WORDS):
        return  # a division named as an organization of its own (Google DeepMind) is read by it
    form.orgs = [o for o in form.orgs if o[0].iri not in inside]
    form.entities = [e for e in form.entities if e.iri not in inside]
    form.division = _as_written(division, divisions)
    form.carrier, form.prop = "staff", form.prop or "staffCount"
    r.name_spans.append((start, end))


def division_word(form: Form, word: str, folded: str) -> bool:
    """True when ``word`` is one of the words the question names the form's division by: a word of its
    name as the data writes it ("fair", "development"), of a word naming it that the question says
    (研发部门's 门), or a word of the division's kind ("division", "lab", 部门)."""
    if not form.division:
        return False
    w, division = word.casefold(), form.division.casefold()
    said = [a for a, d in DIVISION_WORDS.items() if d == division and _has(folded, [a])]
    return (
        w in re.findall(r"[a-z]+", division)
        or any(w in a for a in said)
        or w in ("division", "divisions", "lab", "labs", "unit", "team", "部门", "实验室", "团队")
    )


_PEOPLE = re.compile(r"\bpeople\b|\bheadcount\b|\bstaff\b|\bemployees?\b|多少人|几个人|人数|员工")
"""Words of a staff figure a division is asked with ("how many people were at Meta's FAIR")."""


def _country_of_org(form: Form) -> None:
    """A country beside the organization named, for things that have no place in aikg ("阿联酋那个 TII
    2024年发布了哪些模型", "China's Huawei chips"): it says where the organization is, and filters nothing
    (was: the models located in the country, which none is — nothing answered). Sites keep it: "Google's
    clusters in Japan" are those in Japan."""
    if form.country and form.orgs and not form.entities and form.carrier not in (*SITES, None):
        form.country, form.countries = None, []


def _round_how_much(form: Form, r: _Reading) -> None:
    """ "How much was xAI's September 2025 round?", "how much money is in Anthropic's November 2025 funding
    round": how much of a round is the money it raises, its amount (was: the round listed with no figure,
    sure; "funding" of "funding round" is the class's word, no property's)."""
    if form.carrier == "funding" and form.prop is None and _HOW_MUCH.search(r.text):
        form.prop = "amount"


SITE_TYPES = frozenset(AIKG + c for c in ("Deployment", "DataCenter"))
"""The classes of sites: clusters and data centers, whose power is their capacity, never a chip's TDP."""


def _site_power(form: Form) -> None:
    """A chip's power words said of sites ("which *draws* more power, Yotta's Shakti Cloud NM1 Phase 1 or
    Sakura's H100s Phase 1", "the cluster that *consumes* the most"): their power capacity, as 耗电 of a
    cluster already is (was: their TDP, which no site has — nothing answered)."""
    if form.prop != "thermalDesignPower":
        return
    sites = form.carrier in SITES or (
        bool(form.entities) and all(SITE_TYPES & set(e.types) for e in form.entities)
    )
    if sites:
        form.prop = "powerCapacity"


_YES_NO = re.compile(r"^(?:is|has|have|had|was|were|did|does)\b|吗|没有|了没|没[?？]?$|or only|or just|还是")
"""A question asked for a yes or no (or between two stages): its stage word asks a status, no filter."""


def _deal_status(form: Form, r: _Reading) -> None:
    """A deal's or funding round's status asked — yes or no of a stage ("Has OpenAI's lease of PORTS-Pike
    been signed?", "英伟达投资 SB Energy 这事定了吗", "Has xAI's September 2025 round closed?") or by name
    ("the status of NVIDIA's investment in Groq"): the status of the deal linking the things named, or of
    the rounds asked, never the rounds that closed listed (aikg:status: Signed, Announced, Planned, Closed).
    Not of a site or cluster, whose status is operational."""
    text = r.text
    if form.carrier not in (None, "funding") or form.threshold or form.group:
        return
    named = len(form.entities) + len(form.orgs)
    if form.carrier is None and named < 2:
        return  # one thing's status is its own fact (the fact reader: a deal's, else a site's)
    if form.carrier == "funding" and not (
        form.round_name or form.dates or form.value is not None or named >= 2
    ):
        return  # "closed rounds of xAI": a filter of every round, not the status of one
    asked = _has(text, DEAL_STATUS_WORDS) or (_has(text, DEAL_STAGE_WORDS) and _YES_NO.search(text))
    if (
        not asked
        or any(_has(f" {text} ", OPERATOR_WORDS[op]) for op in ("compare", "sum", "count", "top"))
        or (named >= 2 and _MORE_OR.search(text))
    ):
        return  # "has OpenAI or Anthropic raised more across their closed rounds": a comparison, a filter
    form.prop, form.closed, form.confirmed = "status", False, False
    if named >= 2:
        form.carrier = None  # the deal that links them (NVIDIA's part in Groq's round), not each one's rounds


def _figures_of_org(form: Form) -> None:
    """A figure only organizations have (a valuation, revenue, users, staff, compute spending) asked of
    a name that is also an organization's ("Mistral": the model Mistral 7B, the company Mistral AI):
    the organization's figures."""
    if form.carrier not in FIGURES or not form.entities or form.orgs:
        return
    alternates = form.alternates[: len(form.entities)]
    if len(alternates) == len(form.entities) and all(alternates):
        form.orgs = [alt[:1] for alt in alternates]
        form.entities, form.alternates = [], []


def _named_of_class(form: Form, r: _Reading, vocab: Any) -> None:
    """A name beside the class word of what it names: of the things the name may mean, the one of that
    class ("the Project Rainier data center": Amazon's campus in Indiana, not the cluster of that name),
    each of several compared ("Prometheus 数据中心和 Project Rainier 数据中心，哪个功率更大")."""
    if not (r.explicit and form.carrier in SITES and form.entities) or vocab is None:
        return
    wanted = vocab.descendants(AIKG + CARRIERS[form.carrier].cls)
    hardware = vocab.descendants(AIKG + "Hardware")
    chosen = []
    for entity in form.entities:
        if any(t in hardware for t in entity.types):
            # a chip beside clusters ("使用 H100 的集群", "Meta 的集群里有多少张 H100") is what they use,
            # never a cluster whose name holds it (Reka H100 Rental)
            chosen.append(entity)
            continue
        mention = next((m for m in r.mentions if m.best.iri == entity.iri), None)
        other = [c for c in mention.candidates if any(t in wanted for t in c.types)] if mention else []
        held = any(t in wanted for t in entity.types)
        chosen.append(other[0] if not held and len(other) == 1 else entity)
    form.entities = list({e.iri: e for e in chosen}.values())


def _respelt(folded: str, mentions: list[Mention], known: frozenset[str]) -> _Reading:
    """The text with misspelt words respelt around the names, and the names that stay names."""
    text = folded
    # a misspelt everyday word linked as a name ("operate" as Opera) is not a name, nor is a name inside a
    # longer property word ("H100" in "H100-equivalents")
    mentions = [
        m
        for m in mentions
        if not (m.how == "fuzzy" and (m.text in _KNOWN or m.text in known or m.text in NOT_NAMES))
    ]
    # nor is an amount written as a model size ("Anthropic's 7B revenue": 7 billion, not DCLM 7B)
    mentions = [
        m
        for m in mentions
        if m.how == "exact"
        or not _AMOUNT.fullmatch(m.text.strip())
        or not re.search(r"(?:'s|\$)\s*$", folded[: m.start])
    ]
    # nor is a misspelt analyst word ("tennant" is a tenant, not Tencent)
    mentions = [m for m in mentions if not (m.how == "fuzzy" and _respell(m.text, [], known) != m.text)]
    respelt = _respell(text, [], known)
    respelt = respelt if len(respelt) == len(text) else text
    found = [(s, e, prop) for prop, ws in PROPERTY_WORDS for s, e, _ in _find(respelt, ws)]
    prop_spans = [(s, e) for s, e, _ in found]
    mentions = [
        m
        for m in mentions
        if not any(
            s <= m.start and m.end <= e and (e - s > m.end - m.start or m.how == "fuzzy")
            for s, e in prop_spans
        )
    ]
    taken = [(m.start, m.end) for m in mentions]
    text = respell_cjk(_respell(text, taken, known), taken)
    reading = _Reading(text, mentions, prop_spans)
    reading.prop_named = {(s, e): prop for s, e, prop in found}
    return reading


_AMOUNT = re.compile(r"\$?\d+(?:\.\d+)?\s*(?:b|bn|m|k|t)")


def _read_names(form: Form, r: _Reading, vocab: Any, products: Iterable[str]) -> None:
    """Names: organizations filter, other entities are what the question is about; its country and
    the product of the usage figures it names."""
    text = r.text
    orgs_cls = vocab.descendants(ORGANIZATION) if vocab is not None else frozenset()
    chips_cls = vocab.descendants(AIKG + "Accelerator") if vocab is not None else frozenset()
    r.countries = countries = [
        c
        for c in _find(text, [*COUNTRIES, *COUNTRY_PAIRS, *REGIONS])
        if not _NOT_A_PLACE.match(text, c[0])
        # a country word inside a longer name is the name's ("American Electric Power", "Saudi Aramco")
        and not any(m.start <= c[0] and c[1] <= m.end and m.end - m.start > c[1] - c[0] for m in r.mentions)
    ]
    named_products = {p.casefold() for p in products if len(p) >= 3 and _has(text, [p.casefold()])}
    spend = _has(text, SPEND_WORDS) or r.context == "spend" or SPENT.search(text) is not None
    chips_named = any(c in chips_cls for m in r.mentions for c in m.best.types)
    # chips asked for ("which chips …"), not chips counted ("在 512 颗 GPU 上": a run's size)
    chips_asked = any(not _COUNTED.search(text, 0, s) for s, _, _ in _find(text, HARDWARE_WORDS))
    figures: list[Mention] = []
    for m in r.mentions:
        if spend and m.text in SPEND_CATEGORIES:
            continue  # "R&D compute spend": a category of the figure, not the company Panasonic R&D
        if (word := series_word(m.best)) is not None:
            form.series = word  # "Qwen 系列": the models named by it (:mod:`aikg.ask.series`)
            continue
        prop = r.prop_named.get((m.start, m.end))
        is_chip = any(t in chips_cls for t in m.best.types)
        if prop and (chips_named or chips_asked) and not is_chip and PROPERTY_CARRIER.get(prop) == "hardware":
            # "which is faster at FP8", chips named: the chips' FP8 figure, not the thing named "FP8";
            # "which chips exceed 4 PFLOP/s at FP8": chips asked for, their FP8 figure
            figures.append(m)
            continue
        if m.how == "fuzzy" and m.text in named_products:
            continue  # "Grok" is a product of the usage figures, not Groq misspelt
        if any(s <= m.start and m.end <= e for s, e, _ in countries):
            r.places.append(m.best)  # a place named, kept for a fact that links it ("in Ohio")
            continue
        if m.text in COUNTRIES:
            continue
        orgs = [c for c in m.candidates if _is_org(c, orgs_cls)]
        if _is_org(m.best, orgs_cls):
            r.org_spans.append((m.start, m.end))
            exact = [c for c in orgs if c.how == "exact"]
            named_as = exact[:3] or orgs[:1]
            # one organization named twice, "巴西石油（Petrobras）" (its Chinese name and its own): one filter
            if not any(o and o[0].iri == named_as[0].iri for o in form.orgs):
                form.orgs.append(named_as)
        else:
            alike = variants(m, text)
            if len(alike) >= 2 and r.org_spans and 0 <= m.start - r.org_spans[-1][1] <= 2 and form.orgs:
                # "谷歌 New Albany": of the things the name names alike, the one of the organization
                # written right before it (Google New Albany Ohio, not Meta Prometheus New Albany Ohio)
                org = form.orgs[-1][0].label.casefold()
                alike = [c for c in alike if org in c.label.casefold()] or alike
                alike = alike if len(alike) >= 2 else []
                if not alike:
                    alike = [c for c in variants(m, text) if org in c.label.casefold()]
                    form.entities.append(alike[0])
                    form.alternates.append(orgs[:1])
                    continue
            if len(alike) >= 2:
                # "GPT-4": GPT-4 (Mar 2023), GPT-4 (Jun 2023) ... all of them, never one silently
                form.entities += alike
                form.alternates += [orgs[:1]] * len(alike)
                form.ambiguous.append(m.text)
                continue
            form.entities.append(alike[0] if alike else m.best)
            form.alternates.append(orgs[:1])
            chip = _chip_named(m, chips_cls)
            if chip is not None:
                r.chip_of[m.best.iri] = chip
    r.mentions = [m for m in r.mentions if m not in figures]  # a property word, read as such
    # a thing named twice ("Google's Omaha, Nebraska data center": Omaha and Nebraska both link Google
    # Omaha Nebraska) is one thing, not two compared
    first_at: dict[str, int] = {}
    for i, named in enumerate(form.entities):
        first_at.setdefault(named.iri, i)
    kept = sorted(first_at.values())
    if len(kept) < len(form.entities):
        form.entities = [form.entities[i] for i in kept]
        form.alternates = [form.alternates[i] for i in kept if i < len(form.alternates)]
    form.line = next((w for g in form.orgs for c in g[:1] if (w := line_word(c))), None)
    # every country named, in order: the longest word where words overlap ("south korea", "korea")
    for s, e, w in sorted(countries, key=lambda c: (c[0], c[0] - c[1])):
        if any(a <= s and e <= b and (a, b) != (s, e) for a, b, _ in countries):
            continue
        if w in REGIONS:
            form.region = REGIONS[w]
            continue
        for name in COUNTRY_PAIRS.get(w) or (COUNTRIES[w],):
            if name not in form.countries:
                form.countries.append(name)
    if form.countries:
        form.country = form.countries[0] if len(form.countries) == 1 else None
    products_named = [p for p in products if len(p) >= 3 and _has(text, [p.casefold()])]
    if products_named:
        form.product = max(products_named, key=len)
    form.products = _products_named(text, products)


_ASSISTANT = re.compile(r"\bassistants?\b|助手|助理")


def _products_named(text: str, products: Iterable[str]) -> list[str]:
    """The products the text names, the longest where names overlap ("Meta AI assistant", not "Meta
    AI"); an assistant named by its maker's name beside "assistant" or 助手 ("Meta AI 助手") is it."""
    found: list[tuple[int, int, str]] = []
    heads: list[tuple[int, int, str]] = []
    for p in products:
        name = p.casefold()
        if len(name) < 3:
            continue
        head = name.removesuffix(" assistant")
        if head != name and _ASSISTANT.search(text):
            found += [(s, e, p) for s, e, _ in _find(text, [head])]
        else:
            found += [(s, e, p) for s, e, _ in _find(text, [name])]
            if head != name:
                heads += [(s, e, p) for s, e, _ in _find(text, [head])]
    if found and heads:
        # beside another product named ("Gemini 和 Meta AI 的月活"), the maker's name of an assistant is
        # that assistant, as "Meta AI 助手" is: products are compared with products
        found += heads
    found.sort(key=lambda f: (f[0], f[0] - f[1]))
    out: list[str] = []
    end = -1
    for s, e, p in found:
        if s >= end and p not in out:
            out.append(p)
            end = e
    return out


MAX_VARIANTS = 4
_QUALIFIED = re.compile(r"\s*\([^()]*\)\s*$")


def variants(m: Mention, text: str) -> list[Candidate]:
    """The things a name names alike when it is not an exact name: those whose label is the name typed
    with a qualifier in brackets ("GPT-4 (Mar 2023)", "GPT-4 (Jun 2023)" for "gpt-4"); only those whose
    qualifier the question also gives, when it gives one ("GPT-4 (Mar 2023)")."""
    if m.how == "exact":
        return []
    if m.how == "word" and not any(ch.isdigit() for ch in m.text) and len(m.candidates) >= 2:
        # a capitalized name that is a word of several names ("Fairwater": both Fairwater data centers)
        return m.candidates[:MAX_VARIANTS]

    def squeeze(t: str) -> str:
        return re.sub(r"[^0-9a-z]", "", t.casefold())

    typed = squeeze(m.text)
    found = [
        c
        for c in m.candidates
        if _QUALIFIED.search(c.label) and squeeze(_QUALIFIED.sub("", c.label)) == typed
    ]
    if not found and m.how == "word":
        # a family typed by its name and number ("Llama 3", "Claude 3"): its members, each the name
        # and a size or tier after a space or dash ("Llama 3-8B", "Claude 3 Opus"), of one kind; not
        # a later version ("Llama 3.1 405B") nor a member's training run
        family = re.compile(r"[\s-]*".join(map(re.escape, m.text.casefold().split())) + r"[\s-]+[a-z0-9]")
        members = [c for c in m.candidates if family.match(c.label.casefold())]
        return [c for c in members if c.types == members[0].types][:MAX_VARIANTS]
    rest = squeeze(text[m.end :])
    given = [c for c in found if rest.startswith(squeeze(_QUALIFIED.search(c.label).group(0)))]  # type: ignore[union-attr]
    return (given or found)[:MAX_VARIANTS]


def _chip_named(m: Mention, chips_cls: frozenset[str]) -> Candidate | None:
    """The chip a name also names when it was linked to something else ("GB200": the rack first)."""
    if any(t in chips_cls for t in m.best.types):
        return None
    typed = re.sub(r"[^0-9a-z]", "", m.text.casefold())
    for c in m.candidates[1:]:
        if any(t in chips_cls for t in c.types) and typed in re.sub(r"[^0-9a-z]", "", c.label.casefold()):
            return c
    return None


_CLASS_WORDS = frozenset(w for _, ws in CLASS_WORDS for w in ws)


def _read_property(form: Form, r: _Reading, labels: dict[str, str], fallback: str | None) -> None:
    """The property: analyst words, then the ontology's own labels (both languages), the longest."""
    text, name_spans = r.text, r.name_spans
    found = [
        (s, e, prop)
        for prop, words in PROPERTY_WORDS
        for s, e, _ in _find(text, words)
        if not any(a < e and s < b for a, b in name_spans)
    ]
    for label, prop in labels.items():
        found += [
            (s, e, prop)
            for s, e, _ in _find(text, [label])
            if not any(a < e and s < b for a, b in name_spans)
        ]
    # tokens as the unit a price is quoted in ("price per million tokens", 每百万 token 的价格): no count of
    # tokens is asked
    per_token = [(m.start(), m.end()) for m in _PER_TOKEN.finditer(text)]
    found = [f for f in found if not any(a <= f[0] and f[1] <= b for a, b in per_token)]
    # a status word holds the property word inside it ("在运营": in service, not its operator), and a
    # class word its property word ("算力" in "算力集群": a cluster)
    held = [(a, b) for a, b, _ in _find(text, [w for ws in STATUS_WORDS.values() for w in ws])]
    held += [(a, b) for a, b, _ in _find(text, STARTED_WORDS)]
    classes = [(a, b) for a, b, _ in _find(text, _CLASS_WORDS)]
    found = [
        f
        for f in found
        if not any(a <= f[0] and f[1] <= b and b - a > f[1] - f[0] for a, b in held + classes)
    ]
    if fallback and held and not _outside(text, _fact_words(fallback), held):
        fallback = None  # the fact reader's word ("运营": operator) is inside the status word
    if not found and fallback:
        form.prop = fallback
    elif not found:
        # a chip line's Chinese name before its model number ("用昇腾910B") is part of the name
        lines = [(a, b) for a, b, _ in _find(text, CHIP_LINES)]
        found = _cjk_near(text, name_spans + [(a, b) for a, b, _ in r.countries] + held + classes + lines)
        r.guessed = bool(found)
    found += _chips_asked(text, r.mentions)
    if found:
        # a class word that is also a property word ("GPUs": a chip count) gives way to another
        # property word ("GPUs with more than 250 GB of HBM": the memory, of GPUs)
        found = [f for f in found if text[f[0] : f[1]] not in _CLASS_WORDS] or found
        if any(f[2] != "amount" and PROPERTY_CARRIER.get(f[2]) == "funding" for f in found):
            # "哪一轮融资的投后估值最高", "which funding round had the highest valuation": the word that names
            # the round is no amount asked beside the round's other figure
            found = [
                f for f in found if not (f[2] == "amount" and text[f[0] : f[1]] in ROUND_NAMED_AS_AMOUNT)
            ]
        found = every = _given(text, found)
        # every property word read (none guessed one character off: 训练时用 is no 训练时长), less those
        # inside or across another as long ("memory" of "memory bandwidth", "fp16 算力" of "张量 fp16 算力")
        form.said = [
            (text[s:e], prop)
            for s, e, prop in every
            if not r.guessed
            and not any(
                a < e and s < b and (a, b) != (s, e) and b - a >= e - s and p != prop for a, b, p in every
            )
            and not any(a <= s and e <= b and b - a > e - s for a, b, _ in every)
        ]
        strong = [f for f in found if f[2] not in WEAK_PROPS]
        if form.dates:
            # "2024 年发布的芯片里哪款显存最大", "which chip released in 2023 has the highest TDP": the
            # release word says what the period is of; the other property word says what is asked
            strong = [f for f in strong if f[2] not in DATE_PROPS] or strong
        if not strong and (ops_top(text) or not r.mentions):
            found = []  # "which chip has the most memory": a ranking of chips, not a chip link
        found = strong or found
        found.sort(key=lambda f: (-(f[1] - f[0]), f[0]))
        if found:
            form.prop = found[0][2]
            form.also = _also_asked(text, found[0], every)
    if form.prop == "releaseDate" and form.orgs and not form.entities and _has(text, ["上市"]):
        form.prop = None  # a company's 上市 is its listing on a stock exchange, not a release
    if form.prop == "trainingTokens" and _has(text, DAILY_WORDS):
        form.prop = "dailyTokens"  # "tokens a day", "每天 43 万亿 token": tokens processed, not trained on
    if form.prop == "scaleUpDomainSize" and _has(text, MEMORY_WORDS):
        form.prop = "hbmPerScaleUpDomain"  # "how much HBM does a scale-up domain have": not its chips
    if form.prop == "price" and _PER_TOKEN.search(text):
        form.per_token = True  # "Tinker's price per million tokens": its price list's, no cost
    if form.prop in ("speedup", None) and _BASELINE_ASKED.search(text):
        # "who is the 3.2x gain compared with?", "which platform is it measured against?": the other side
        # of the claim, its baseline, not its factor (the factor is the figure the question names)
        form.prop = "baseline"
    if _has(text, LEASE_TERM_WORDS) and form.prop in (None, "timeToTrain", "date"):
        form.prop = "termYears"  # "租约签了多少年": the lease's term
    if _has(text, LEASE_WORDS) and (
        form.prop == "timeToTrain" or (form.prop is None and _has(text, ("how many years", "几年", "多少年")))
    ):
        form.prop = "termYears"  # "how long is the lease", "租约期限是几年": its term


_PER_TOKEN = re.compile(
    r"\bper(?: (?:million|thousand|1m|1k|m|k|[\d,]+))? tokens?\b|每[^，,。?？\s]{0,10}\s*token"
)
"""A price quoted per token ("per million tokens", 每百万 token): the unit token prices are given in."""
_BASELINE_ASKED = re.compile(
    r"^\s*(?:who|whom|which|what)\b.*"
    r"\b(?:compared (?:with|to)|measured against|against|versus|relative to)\s*[?？]?\s*$"
)
"""A question asking what the thing or figure it names is set against, the words at its end."""


def _fact_words(prop: str) -> list[str]:
    """The words the fact reader (:mod:`aikg.ask.lexicon`) reads as ``prop``."""
    from aikg.ask.lexicon import PROPERTY_WORDS as FACT_WORDS

    return [w for words, props in FACT_WORDS if prop in props for w in words]


def _outside(text: str, words: list[str], spans: list[tuple[int, int]]) -> bool:
    """True when one of ``words`` occurs in ``text`` outside every span."""
    return any(not any(a <= s and e <= b for a, b in spans) for s, e, _ in _find(text, words))


ROUND_NAMED_AS_AMOUNT = frozenset({"funding", "融资", "一轮融资", "轮融资"})
"""Amount words that also name a funding round ("哪一轮融资", "funding round"): beside another figure of the
round (its valuation, its debt) they say what the round is, not that its amount is asked."""
DATE_PROPS = frozenset({"releaseDate", "availableFrom"})
"""The release dates a period of the question is read on ("released in 2024")."""
WEAK_PROPS = frozenset({"accelerator", "openWeights", "liquidCooled"})
"""Properties whose words ("which chip", "什么卡") also ask for a ranking or a list of the class: read
only beside a name, when the question names no other property and ranks nothing. A yes-or-no fact of one
thing ("open weights", 液冷) is no figure to rank by: beside another property word it is a qualifier
("which open-weight model has the most parameters"), which :mod:`aikg.ask.qualifiers` finds unapplied."""
_AND = re.compile(r"\band\b|&|[,，、和与及跟+]|\bvs\.?|\bplus\b|分别|以及")
_TOTAL_TOO = re.compile(r"\btotal\b|总")
_ASKING = re.compile(r"多少|几|\bhow many\b|\bhow much\b|\bwhich\b|\bwhat\b|什么|哪")
_GIVEN = re.compile(r"(?<![\w.-])\d[\d,.]*\s*(?:万|亿|千|百万|[kmb]|bn|million|billion)?\s*$")


def _given(text: str, found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The property words written right after a number ("the 276 GPU-hours", "557.6 万美元成本"): the
    figure the question names to say which thing it is about, not what it asks, when it asks another
    (a word inside a given one's, "供电" of "首期供电", is given too; a threshold's unit is no figure
    given: "memory bandwidth over 8 TB/s")."""
    if any(_has(text, words) for _, words in COMPARATORS):
        return found
    given = [f for f in found if _GIVEN.search(text[: f[0]])]
    props = {g[2] for g in given}
    taken = [(s, e) for s, e, p in found if p in props]
    asked = [f for f in found if f[2] not in props and not any(a <= f[0] and f[1] <= b for a, b in taken)]
    return asked if given and asked else found


def _also_asked(text: str, chosen: tuple[int, int, str], found: list[tuple[int, int, str]]) -> list[str]:
    """The other properties a question asks for beside the chosen one, joined to it by "and", a comma,
    "vs" ("DeepSeek-V2 总参数和激活参数", "how many GPUs of which chip"): words apart from the chosen
    one's and from each other's."""
    out: list[str] = []
    spans = [(chosen[0], chosen[1])]
    for s, e, prop in sorted(found, key=lambda f: (-(f[1] - f[0]), f[0])):
        if prop == chosen[2] or prop in out or any(a < e and s < b for a, b in spans):
            continue
        a, b = sorted([(s, e), (chosen[0], chosen[1])])
        joined = _AND.search(text[a[1] : b[0]]) or re.search(r"\bof\b", text[a[1] : b[0]])
        # "用多少张 H800 训了多少天": two words that each ask how many
        asked = all(_ASKING.search(text[x:y]) for x, y in ((s, e), (chosen[0], chosen[1])))
        if not (joined or asked):
            continue
        out.append(prop)
        spans.append((s, e))
    if chosen[2] == "activeParameters" and "totalParameters" not in out and _TOTAL_TOO.search(text):
        out.append("totalParameters")  # "total vs active parameters", "975B-A41B 总参数和激活"
    return out


def _chips_asked(text: str, mentions: list[Mention]) -> list[tuple[int, int, str]]:
    """ "How many H800s": a count of the chip the name names (the word before the name)."""
    out = []
    for m in mentions:
        if not any(t.rsplit("#", 1)[-1] in CHIP_TYPES for t in m.best.types):
            continue
        # "how many H800s"; "the run that used the *most* V100s", "the fewest A100s": ranked by how many
        before = re.search(
            r"(?:how many|多少张|几张|多少块|几块|多少颗|几颗|\b(?:the\s+)?(?:most|fewest))\s*$",
            text[: m.start],
        )
        if before:
            out.append((before.start(), before.end(), "acceleratorCount"))
    return out


CHIP_TYPES = frozenset({"GPU", "TPU", "LPU", "Accelerator", "Hardware"})


_WORD_NUMBER = re.compile(r"\b(half an?|an?|one)\s+(thousand|million|billion|trillion)\b")
"""An amount written in words ("more than a trillion parameters", "half a trillion")."""
_WORD_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def _read_numbers(form: Form, r: _Reading) -> None:
    """Numbers: a threshold with its unit (and the property the unit implies), a value to look for, or
    how many a ranking shows."""
    text = r.text
    comparator = None
    found = [(s, e, op) for op, words in COMPARATORS for s, e, _ in _find(text, words)]
    for s, e, op in found:
        # "不超过", "no more than": the longer word, never the "超过" / "more than" inside it
        if not any(a <= s and e <= b and b - a > e - s for a, b, _ in found):
            comparator = op
            break
    for nm in _NUMBER.finditer(text):
        if any(a <= nm.start() < b for a, b in r.name_spans) or not nm.group("num"):
            continue
        if nm.start() and "a" <= text[nm.start() - 1] <= "z":
            continue  # the digits of a word ("fp16", "gb200"), no amount: "1.5 petaflops of fp16" is 1.5e15
        value, unit = _number(nm)
        implied = _implied(unit, form.prop)
        if implied and (form.prop is None or r.guessed):
            form.prop = implied
        elif implied and comparator is not None and implied != form.prop:
            form.threshold_prop = implied
        elif implied and comparator is not None and _other_said(form, implied):
            # "of NVIDIA's chips with more than 4 TB/s of memory bandwidth, which has the highest TDP",
            # 显存超过 150GB 的芯片里哪款功耗最低: the bound's unit names the longer property word the reading
            # took; the other property word said is what the ranking is by (was: ranked by the bound's own
            # property, sure, another question's answer)
            form.prop, form.threshold_prop = _other_said(form, implied), implied
            form.also = [p for p in form.also if p != form.prop]
        if comparator is not None:
            form.threshold = (comparator, value)
            if form.prop is None and not unit and _chips_counted(text, nm.end(), r.mentions):
                # "runs that used more than 2,000 H800s", "over 50,000 GPUs": how many chips (was: the
                # bound read with no property, so nothing applied it and every run of the chip came back)
                form.prop = "acceleratorCount"
        elif (
            form.value is None
            and value >= 10
            # a bare 2024 may be a year; "2000亿", "2000 MW" are amounts
            and (nm.group("scale") or unit or not re.fullmatch(r"(19|20)\d\d", nm.group("num")))
        ):
            form.value = value
            form.value_prop = implied or (form.prop if nm.group("scale") or unit else None)
    word = _WORD_NUMBER.search(text)
    if word and comparator is not None and form.threshold is None:
        # "more than a trillion parameters": the amount in words, a threshold like one in digits
        form.threshold = (
            comparator,
            _WORD_SCALES[word.group(2)] * (0.5 if word.group(1).startswith("half") else 1),
        )
    top = _TOP_K.search(text)
    if top and (ops_top(text) or _has(f" {text} ", OPERATOR_WORDS["bottom"])):  # "功耗最低的三款"
        k = next(g for g in top.groups() if g)
        form.k = _K_WORDS.get(k) or int(k)


OWNER_ROLES = frozenset({"operator", "operatedBy", "developer", "manufacturer", "owner"})
"""The links from a thing to the organization whose it is (its operator, developer, maker, owner)."""


def _maker_named(form: Form) -> bool:
    """True when each thing named is of the class asked (models) and its name also names an organization
    that makes things of that class (:attr:`Form.alternates`): the name is the maker's."""
    alternates = form.alternates[: len(form.entities)]
    return (
        form.carrier == "model"
        and bool(form.entities)
        and not form.orgs
        and len(alternates) == len(form.entities)
        and all(alternates)
    )


def unused_properties(form: Form) -> list[str]:
    """The property words of the question (:attr:`Form.said`) naming a property of the class asked about
    that a ranking, count, total or list neither ranks, bounds nor shows ("of the chips over 4 TB/s, which
    has the highest *TDP*" ranked by bandwidth): its answer is another question's. A release word (the
    period's) and a chip link (a filter) are applied otherwise."""
    used = {p for p in (form.prop, form.threshold_prop, form.value_prop, *form.also) if p is not None}
    used |= {ALSO[p] for p in list(used) if p in ALSO}
    classes = {PROPERTY_CARRIER.get(p) for p in used} | {form.carrier}
    out: list[str] = []
    for word, p in form.said:
        if p in used or p in WEAK_PROPS or p in DATE_PROPS or word in out:
            continue
        if PROPERTY_CARRIER.get(p) is not None and PROPERTY_CARRIER.get(p) in classes:
            out.append(word)
    return out


def _other_said(form: Form, bound: str) -> str | None:
    """The one other property of the same class the question says beside the property a bound's unit
    names (the bound holds for one, the question asks the other), None when there is none or several."""
    others = {
        p
        for _, p in form.said
        if p != bound
        and p not in WEAK_PROPS
        and p not in DATE_PROPS
        and PROPERTY_CARRIER.get(p) is not None
        and PROPERTY_CARRIER.get(p) == PROPERTY_CARRIER.get(bound)
    }
    return others.pop() if len(others) == 1 else None


_CHIP_AFTER = re.compile(r"\s*(?:张|块|颗|个)?\s*")
_CHIP_WORD_AFTER = re.compile(
    r"\s*(?:张|块|颗)?\s*(?:chips?|gpus?|accelerators?|cards?|芯片|卡|显卡|加速器)(?![a-z])"
)


def _chips_counted(text: str, end: int, mentions: list[Mention]) -> bool:
    """True when the number ending at ``end`` counts chips: a chip's name or a chip word right after it
    ("2,000 H800s", "5,000 A100 chips", "1 万张卡")."""
    if _CHIP_WORD_AFTER.match(text, end):
        return True
    at = _CHIP_AFTER.match(text, end)
    start = at.end() if at else end
    return any(
        m.start == start and any(t.rsplit("#", 1)[-1] in CHIP_TYPES for t in m.best.types) for m in mentions
    )


_CLOUD = re.compile(r"\s*(?:clouds?\b|云)")


_COUNTED = re.compile(r"\d\s*(?:颗|张|块|个)?\s*$")
HARDWARE_WORDS = next(words for key, words in CLASS_WORDS if key == "hardware")
"""The words of the chips' class ("chips", "GPUs", 芯片)."""
_CARDS = re.compile(r"(?<=[些款种的])卡(?![塔内车尔拉])")
"""卡 after a word that asks which or whose ("哪些卡", "发布的卡"): cards, the chips (卡塔尔 is Qatar)."""


def _read_class(form: Form, r: _Reading) -> None:
    """The class of the nodes: named by a class word or implied by the property (which may then be
    read as the same word's property of that class)."""
    text = r.text
    carrier = None
    best_len = 0
    for key, words in CLASS_WORDS:
        for s, e, _ in _find(text, words):
            if any(a < e and s < b for a, b in r.name_spans):
                continue
            if key == "hardware" and _CLOUD.match(text, e):
                continue  # "before it was a GPU cloud", "转型做 GPU 云": a business, not chips
            if key == "hardware":
                r.hardware_word = True
            if e - s > best_len or (key in SITES and carrier == "hardware"):
                if carrier in SITES and key == "hardware":
                    continue
                carrier, best_len = key, e - s
                r.explicit = True
    card = _CARDS.search(text)
    if (
        carrier is None
        and card
        and not form.entities
        and not any(a <= card.start() < b for a, b in r.name_spans)
    ):
        carrier, r.explicit, r.hardware_word = "hardware", True, True  # "AMD 发了哪些卡": chips
    kinds = [k for s, e, k in _find(text, KIND_WORDS) if not any(a < e and s < b for a, b in r.name_spans)]
    if kinds:
        form.kind = KIND_WORDS[kinds[0]]
        r.hardware_word = True
        if carrier not in SITES:
            carrier, r.explicit = "hardware", True
    if carrier == "hardware" and form.prop == "releaseDate":
        form.prop = "availableFrom"
    if form.prop == "status" and carrier in ("cluster", "run") and _has(text, CONFIRMED_WORDS):
        form.prop = (
            None  # "confirmed clusters", 已确认的集群: Epoch's rating of the rows, not a deal's status
        )
    # the same word names another property on another class ("power" of a cluster, of a chip)
    said = form.threshold_prop or form.prop
    form.prop = RECLASS.get((carrier or "", form.prop or ""), form.prop) if r.explicit else form.prop
    meant = RECLASS.get((carrier or "", said or ""), said) if r.explicit else said
    if form.threshold and said in WATTS and meant in WATTS and said != meant:
        # the amount read in the unit of the word's property, held in the unit of the one meant: "chillers
        # above 9,000 kW" are 9,000 kW of cooling capacity, not the 9,000,000 W of a chip's TDP
        op, v = form.threshold
        form.threshold = (op, v * WATTS[said] / WATTS[meant])
    if form.prop in PROPERTY_CARRIER and (
        carrier is None or PROPERTY_CARRIER[form.prop] in {"run", *FIGURES}
    ):
        implied = PROPERTY_CARRIER[form.prop]
        carrier = implied if not (carrier in SITES and implied == "hardware") else carrier
    if carrier == "model" and form.prop in RUN_FIGURES:
        carrier = "run"  # a model's compute, duration or chips are stated on its training run
        form.count_report = True
    if (
        carrier is None
        and form.prop in RUN_FIGURES
        and not (form.entities or form.orgs)
        and re.search(r"训练|\btraining\b", text)
    ):
        carrier = "run"  # "成本最高的训练": the training runs, whose figure it is
    if carrier == "funding" and form.threshold and form.prop is None and not form.threshold_prop:
        form.prop = "amount"  # "rounds of at least $5 billion": the money raised (was: no filter, sure)
    form.carrier = carrier
    form.class_named = r.explicit
    if (
        carrier == "hardware"
        and r.explicit
        and form.prop in ("accelerator", "acceleratorCount")
        and not form.entities
    ):
        form.prop = None  # "GPUs", "chips": the class asked for, not a count of chips or a chip link
    if form.prop in ("releaseDate", "availableFrom", "date") and (form.dates or not mentions_named(form)):
        form.prop = None if form.dates else form.prop


def _read_modifiers(form: Form, r: _Reading) -> None:
    """Status, period of a usage figure, funding round, "latest" and "per" (a breakdown)."""
    text = r.text
    if form.dates:
        # "went into operation in 2024", "2023 年投入运营的": the period is of the start, no status now
        for s, e, _ in _find(text, STARTED_WORDS):
            text = text[:s] + " " * (e - s) + text[e:]
    for status, words in STATUS_WORDS.items():
        if _has(text, words):
            form.status = status
    if NOT_BUILT.search(text):
        form.status = "Planned"  # "not yet built", "aren't operational yet", 还没建成: not running, planned
    if form.status == "Existing" and FORECAST.search(text) and not _has(text, ("existing", "现有")):
        form.status = "Planned"  # "will come online", "将投入运行": not yet running
    for period, words in (
        ("Monthly", ("monthly", "mau", "月活", "月活跃")),
        ("Weekly", ("weekly", "wau", "周活", "周活跃")),
        ("Daily", ("daily", "dau", "日活", "日活跃")),
    ):
        if _has(text, words):
            form.period = period
    series = _ROUND.search(text)
    if series:
        form.round_name = "Series " + (series.group(1) or series.group(2)).upper()
        if form.prop is None and form.orgs:
            form.prop = "amount"  # "how big was Groq's Series A": the amount raised
            form.carrier = form.carrier or "funding"
    elif _SEED_ROUND.search(text):
        form.round_name = "Seed"  # "Mistral's seed round", 种子轮: the round Epoch names "… Seed"
    if form.carrier == "spend" or (form.carrier is None and r.context == "spend"):
        _read_spend_category(form, text)
    if form.prop == "price":
        # every component named ("input and output prices": both)
        form.price_components = tuple(
            dict.fromkeys(PRICE_COMPONENTS[w] for _, _, w in _find(text, PRICE_COMPONENTS))
        )
    form.listed = form.carrier == "hardware" and _has(text, LISTED_WORDS)
    form.epoch_rows = form.carrier in DATASET_ROWS and EPOCH_DATASET.search(text) is not None
    # a company's figures asked as records ("staff counts reported in 2024", "超过3000人的记录"): each row
    form.records = form.carrier in FIGURES and _has(text, RECORD_WORDS)
    form.reliable = _has(text, RELIABLE_WORDS) and not _has(text, CONFIDENCE_WORDS)
    # rounds "done" are those that closed (RESTATED: the word is explained only beside rounds)
    form.closed = form.carrier == "funding" and _has(text, (*CLOSED_WORDS, *RESTATED["rounds"]))
    if form.carrier == "funding":
        # a round's stage other than closed: negated closing ("not closed yet", 还没完成) is every other
        # status; talks and plans ("still in talks", "planned", 还在洽谈, 计划中) are Epoch's late discussions
        if NOT_CLOSED.search(text):
            form.stage, form.closed = "open", False
        elif _has(text, (*ROUND_TALKS_WORDS, "planned", "规划", "计划中")):
            form.stage, form.closed = "Planned", False
    form.latest = _has(text, OPERATOR_WORDS["latest"])
    form.confirmed = _has(text, CONFIRMED_WORDS) and not _has(text, OPERATOR_WORDS["provenance"])
    rated = _RATED_AS.search(text)
    if rated and form.carrier in ("cluster", "run"):
        # "how many clusters does Epoch rate as Unlikely": the rows of that rating, whatever the default
        form.rated_as, form.confirmed = next(g for g in rated.groups() if g).capitalize(), False
    floor = RATED_FLOOR.search(text)
    if floor and form.carrier in ("cluster", "run"):
        # "rated Likely or better", "Likely 及以上": down to that rating, not that rating alone
        level = next(g for g in floor.groups() if g)
        if level in FLOOR_READ:
            form.rated_as = None
            form.confirmed = level != "likely"
            form.reliable = level == "likely"
    # "per" of a property word ("memory per chip") is not a breakdown per organization
    unprop = "".join(" " if any(a <= i < b for a, b in r.prop_spans) else ch for i, ch in enumerate(text))
    form.per = _has(unprop, OPERATOR_WORDS["per"]) and not form.orgs


_MOST_RECENT = re.compile(r"\bmost\s+recent(?:ly)?\b")
""""Most recent(ly)": the newest, whose "most" is no ranking word."""
_RATED_AS = re.compile(
    r"\b(?:rated?|rates|rating)\s+(?:as\s+|of\s+)?(unlikely|likely|confirmed|speculative|confident)\b"
    r"|(?:评为|评级为|可信度为|标为|标记为)\s*(unlikely|likely|confirmed|speculative|confident)\b"
)
"""A rating of Epoch's named as what the rows are rated ("rate as Unlikely", 评为 Unlikely)."""

_LEVEL = r"(likely|confirmed|confident|speculative|unlikely)"
RATED_FLOOR = re.compile(
    rf"\b(?:at\s+least|no\s+lower\s+than|not\s+below|a\s+minimum\s+of)\s+(?:rated\s+)?(?:as\s+)?{_LEVEL}\b"
    rf"|\b{_LEVEL}\s+(?:or|and)\s+(?:better|above|higher|up)\b"
    rf"|(?:至少|不低于|最低)\s*(?:为|是|评为|被评为)?\s*{_LEVEL}\b"
    rf"|\b{_LEVEL}\s*(?:及以上|或以上|以上|或更高|及更高|或更好)"
)
"""A rating of Epoch's named as a floor ("rated Likely or better", "at least Likely", Likely 及以上, 至少
Likely): the ratings from the top down to it — the rankings' default for Likely (``reliable``), the top
rating alone for Confirmed or Confident (``confirmed``); a lower floor is not read (its words stay
unexplained: not sure)."""
FLOOR_READ = frozenset({"likely", "confirmed", "confident"})
_RATING_BEFORE = re.compile(
    r"(?:(?:epoch(?:'s)?\s+)?(?:rating|confidence|certainty)\s*(?:of\s+|is\s+|was\s+)?"
    r"|(?:可信度|评级|置信度|评分)\s*(?:在|是|为)?\s*)$"
)
"""The rating word a floor follows ("an Epoch rating of at least Likely", 可信度在 Likely 及以上): a filter
named, not Epoch's rating asked (provenance)."""


def floor_spans(text: str) -> list[tuple[int, int]]:
    """The spans of the rating floors the composer reads, with the rating word before each."""
    out = []
    for m in RATED_FLOOR.finditer(text):
        if set(m.groups()) & FLOOR_READ:
            before = _RATING_BEFORE.search(text, 0, m.start())
            out.append((before.start() if before else m.start(), m.end()))
    return out


def _read_operator(form: Form, r: _Reading, vocab: Any) -> Form:
    """The operator, from its words and what the form holds; ``op`` stays empty when none fits."""
    text = r.text
    if form.prop == "speedup":
        form.measure = next((m for m, words in MEASURE_WORDS.items() if _has(text, words)), None)
    form.now = bool(form.dates) and NOW.search(text) is not None
    if form.carrier == "revenue" and _has(text, YEARLY_REVENUE_WORDS):
        form.figure_kind = "Yearly revenue"  # "OpenAI's revenue for calendar year 2024", 全年营收
    if (
        form.carrier is None
        and form.prop is None
        and form.orgs
        and _has(text, (*CONTRACTOR_WORDS, *AI_DIVISION_WORDS))
    ):
        # "how many contractors did xAI have", "how many people were in Google's AI division": its staff
        form.carrier, form.prop = "staff", "staffCount"
    if form.carrier == "staff" and _has(text, CONTRACTOR_WORDS) and not _NOT_CONTRACTORS.search(text):
        form.figure_kind = "Contractors"  # "how many contractors did xAI have", 外包标注员
    elif form.carrier == "staff" and _has(text, AI_DIVISION_WORDS):
        form.figure_kind = "Full AI division"  # "Google's AI division", 谷歌 AI 部门: Google DeepMind
    if form.carrier == "revenue" and form.figure_kind is None and _has(text, RUN_RATE_WORDS):
        form.run_rate = True  # "OpenAI's ARR in June 2025": its 10B ARR, not the H1 figure scaled to a year
    if form.carrier == "usage" and form.prop in (None, "activeUsers") and _has(text, PAYING_WORDS):
        form.paying = True  # "ChatGPT's paying weekly users", 付费用户
    masked = text.replace("参数量", "参数")  # "数量" (a count) inside "参数量" (parameter count) is not one
    # "the most recent round", "most recently released": the newest (OPERATOR_WORDS["latest"]), no ranking by
    # a figure or count ("most" was read as the largest amount raised, sure)
    masked = _MOST_RECENT.sub("latest", masked)
    for a, b in floor_spans(masked):
        # "with an Epoch rating of at least Likely": the rows' filter, not their rating asked
        masked = masked[:a] + " " * (b - a) + masked[b:]
    ops = {op: _has(f" {masked} ", words) for op, words in OPERATOR_WORDS.items()}
    ops["top"] = ops["top"] or ops_top(masked)
    if ops["provenance"] and _has(text, ENERGY_FROM_WORDS):
        ops["provenance"] = False  # "Meta Prometheus 的电从哪来": who supplies its electricity, not a source
    if _PUBLISHED_WHEN.search(text) and _DOCUMENT_WORD.search(text):
        # "when was the report on … published", 那篇文章是哪天发的: the document's date, with its publisher
        # and link — never the release date of the model its title names
        ops["provenance"] = True
    unprop = "".join(" " if any(a <= i < b for a, b in r.prop_spans) else ch for i, ch in enumerate(text))
    if (
        ops["count"]
        and ops["top"]
        and form.prop
        and not _has(f" {unprop} ", OPERATOR_WORDS["count"])
        and not re.search(r"how many|多少|几", text)
    ):
        ops["count"] = False  # "芯片数量最多的是哪个": 数量 belongs to the property's word; a ranking
    if form.reliable or form.closed or ((form.status or form.stage) and _ONLY_STATUS.search(text)):
        # "reliable figures only", "closed rounds only", "still only planned": a filter asked for, not one
        # vendor's chips only
        ops["only"] = False
    if form.prop == "status" and _OR_ONLY.search(text):
        # "closed, *or only* announced", 还是*只*是宣布: the other stage asked, no restriction to one thing
        ops["only"] = False
    if form.rated_as and not form.entities:
        ops["provenance"] = False  # "可信度为 Unlikely 的集群有多少个": the rating filters, nothing's source
    if _HOW_MANY_ZH.search(masked):
        ops["count"] = True  # "Meta 有多少 GPU", "OpenAI 有多少模型": 多少 before the class asks a count
    if ops["count"] and form.prop == "h100Equivalents" and not _has(f" {unprop} ", OPERATOR_WORDS["count"]):
        # "xAI 的集群折合多少张 H100": 多少张 is the property's own word (H100-equivalents), no count of
        # clusters; an organization's or a country's clusters' figure is their total
        ops["count"] = False
        ops["sum"] = ops["sum"] or (bool(form.orgs or form.country) and not form.entities)
    units = _HOW_MANY_UNITS.search(masked)
    if units:
        ops["count"] = False  # "how many MW of data-center capacity does Groq run": the figure, in MW
        # "how many MW of data centers does Microsoft operate": the sites' figures added up
        ops["sum"] = ops["sum"] or bool(units.group("sites"))
    if "哪几" in masked and not re.search(r"多少|(?<!哪)几", masked):
        ops["count"] = False  # "哪几轮", "哪几款": which ones (a list), not how many
    if (
        ops["count"]
        and ops["top"]
        and _THOSE_FEW.search(masked)
        and not re.search(r"多少|(?<![哪那这])几", masked)
    ):
        # "微软那几个集群里，哪个 H100 当量最多", "xAI 这几个数据中心，哪个功率最大": those few, ranked; the
        # 几 of 那几个 points at them and counts nothing
        ops["count"] = False
    if (
        ops["provenance"]
        and _PER_SOURCE.search(text)
        and _FIGURE_ASKED.search(text)
        and not re.search(r"\bwho\b|\blink\b|\burl\b|\bsource\b|谁|哪家|媒体|链接|来源|出处", text)
    ):
        # "按那篇文章的说法，Groq 明年数据中心规模能到多少兆瓦", "according to the article, how many GB300
        # GPUs did CoreWeave use": the figure as the source states it, which names where it comes from and
        # asks it not
        ops["provenance"] = False
    if _PARTY_ASKED.search(text) or _RUMOUR_CHECKED.search(text):
        # "which company reported the TPU v9i rumour", "is the TPU v9t news confirmed or just a rumour": who
        # reported it and how certain it is
        ops["provenance"] = True
    if re.match(r"\s*where(?:'s)?\b", text) and re.search(r"\b(?:was|were|is|are)\b.*\breported\b", text):
        # "where was OpenAI's 3,000 staff figure reported?": the source of that figure
        ops["provenance"] = True
    if re.match(r"\s*where\b", text) and re.search(r"\bfrom\s*(?:[?？!.,;，。]|$)", text):
        # "where is the 14.8T tokens figure from?", "where's the $100M figure … from? link please": the
        # clause that ends with "from", whatever follows it
        ops["provenance"] = True
    kind = next((k for k, words in EVENT_WORDS.items() if _has(text, words)), None)
    named = form.entities + [o[0] for o in form.orgs]
    if kind is None and form.orgs and not form.entities and _has(text, ["上市"]):
        kind = "IPO"  # a company's 上市 is its listing (a chip's or model's is its release)
    if kind and len(named) > 1 and form.orgs:
        # "when did Groq pivot from *LPU* chips", "哪一年靠 *H100* 大单和*微软*合约起量": the other things
        # named are what the turn was from, to or on; the event is an organization's (the query keeps
        # those that are its agents)
        named = [o[0] for o in form.orgs]
    if (
        kind
        and (len(named) == 1 or (named and all(n in [o[0] for o in form.orgs] for n in named)))
        and _WHEN.search(text)
        and not ops["provenance"]
        and not form.dates
        and (
            form.prop in (None, "date", "releaseDate", "announcedOn")
            or (kind, form.prop) == ("Founding", "originBusiness")
            # 是*在哪*一年: the year, not a place
            or (form.prop == "location" and _IN_WHICH_YEAR.search(text) is not None)
        )
        and not _has(text, ("price", "valuation", "raised", "价格", "估值", "融资", "市值"))
    ):
        # "what year did CoreWeave *start out* as an Ethereum miner", 哪一年靠以太坊挖矿*起家*: the year of
        # its founding event, not its origin business the words also name
        # "what year did CoreWeave go public", "哪一年转型做 GPU 云": the date of that event of it
        form.op, form.event_kind, form.entities, form.orgs, form.prop = "event", kind, named, [], None
        return form
    role = next((rl for rl, words in ROLE_WORDS.items() if _has(text, words)), None)
    asks_who = re.search(r"\bwho(?:m|se)?\b|谁", text) is not None
    person = any(PERSON in e.types for e in form.entities)
    if person and not role and _has(text, POSITION_WORDS) and not ops["provenance"]:
        role = ""  # "what positions does Soumith hold": every position, its role and organization
    if (
        role is not None
        and (asks_who or form.prop is None or person)
        and (form.orgs or form.entities)
        and not ops["provenance"]
    ):
        form.role, form.op = role, "role"
        form.entities = (form.entities + [o[0] for o in form.orgs])[:1]
        form.orgs = []
        return form
    if len(form.entities) + len(form.orgs) >= 2 and _MORE_OR.search(text):
        ops["compare"] = True  # "who raised more money, Anthropic or OpenAI?"
    if _has(f" {re.sub(r'at (?:least|most)', ' ', text)} ", OPERATOR_WORDS["bottom"]):
        ops["top"], form.ascending = True, True
    if (
        form.carrier == "hardware"
        and ops["top"]
        and form.prop in (None, "manufacturer")
        and _POWERFUL.search(text)
    ):
        form.prop = "fp16Performance"  # "Huawei's most powerful chip": ranked by its FP16 compute
    hardware_cls = vocab.descendants(AIKG + "Hardware") if vocab is not None else frozenset()
    if vocab is not None:
        _spend_of_org(form, r, vocab.descendants(ORGANIZATION))
    _makers_figures(form)
    if _founded_ranked(form, r, ops):
        return form
    _yes_no_bound(
        form, r, ops, hardware_cls, vocab.descendants(ORGANIZATION) if vocab is not None else frozenset()
    )
    if _totals_compared(form, r, ops, hardware_cls) or _countries_ranked(form, r, ops):
        return form
    holding = _holding(form, r, ops, hardware_cls)
    group = _group(masked, form.carrier) if ops["top"] and not holding else None
    if ops["count"] and ops["top"] and not group and not holding and not _has(f" {masked} ", QUANTITY_WORDS):
        # "Meta 训练算力最大的模型用了多少张卡": a figure of the first of a ranking, which no one form
        # says; counting Meta's runs would be an answer to another question
        form.op = "refuse"
        form.why = (
            "aikg cannot answer a figure of the top-ranked thing in one question: ask for the ranking first."
        )
        return form
    if holding and ops["top"]:
        group = GROUP_PATHS[("cluster", "org")]
    _dates_compared(form, r, ops, hardware_cls)
    _chips_filter(form, r, ops, hardware_cls)
    if not _choose_op(form, r, ops, group):
        return _joint(form, ops, vocab) or form
    orgs_cls = vocab.descendants(ORGANIZATION) if vocab is not None else frozenset()
    form = _checked_op(form, r, ops, hardware_cls, orgs_cls)
    if form.op == "compare" and PROPERTY_CARRIER.get(form.prop or "") == "hardware":
        # chips compared on a chip's figure: a name linked to a rack whose name holds it ("the GB200":
        # the GB200 NVL72 first) is the chip it names (the NVIDIA GB200), as a chip filter reads it
        form.entities = [r.chip_of.get(e.iri, e) for e in form.entities]
    if form.op == "top" and form.prop in LINKED_BY and form.carrier:
        # "哪个运营方手上在跑的集群最多": a ranking "by" a link (the operator) with "most" is by how many
        # each has, not the nodes sorted by the link's IRI
        path = GROUP_PATHS.get((form.carrier, LINKED_BY[form.prop]))
        if path and _has(f" {masked} ", (*QUANTITY_WORDS, "count", "how many", "数目")):
            form.op, form.group, form.prop = "rank", path, None
    if form.op in ("count", "rank") and form.carrier == "cluster":
        # the clusters the totals count (a count's answer gives every row's count beside): "which
        # operator runs the most clusters" ranks what each one runs now, each cluster once
        form.defaults = True
    if (
        form.op == "count"
        and form.carrier in ("cluster", "funding")
        and not form.status
        and _has(masked, ANY_STATUS_WORDS)
    ):
        # "how many clusters does Epoch list for Amazon, any status", xAI 一共有几条融资记录，不管什么状态:
        # every row, not the count with the totals' defaults (its every-row count was only beside it)
        form.defaults, form.every = False, True
    alternates = form.alternates[: len(form.entities)]
    if (
        (form.op == "top" or (form.op in ("list", "count") and form.class_named and form.carrier == "model"))
        and form.carrier in ("model", "run")
        and form.entities
        and not form.orgs
        and len(alternates) == len(form.entities)
        and all(alternates)
    ):
        # "Which Mistral model used the most training compute": a ranking names no one model; the name
        # is the company it also names (Mistral AI), whose models are ranked; so are "Mistral models"
        # listed or counted ("Which Mistral models have at least 123B parameters")
        form.orgs, form.entities, form.alternates = [alt[:1] for alt in alternates], [], []
    if form.carrier == "usage" and len(form.products) >= 2 and form.op in ("series", "compare", "fact"):
        # "Gemini vs Meta AI assistant": each product's newest figure, side by side; an organization
        # whose name the product's holds (Meta AI, DeepSeek) is the product named, not a filter
        form.op, form.latest, form.orgs, form.entities, form.alternates = "series", True, [], [], []
        form.prop = form.prop or "activeUsers"
    if form.op == "sum" and form.carrier == "funding" and form.round_name and form.also:
        form.op = "series"  # "F 轮融了多少钱，估值多少": the round's figures, each asked, not a total
    if form.op in ("top", "count", "list") and form.orgs and form.carrier in OWNED:
        # "Meta's largest model" is Meta AI's too, "Which Microsoft models were released in 2023" Microsoft
        # Research's, "How many data centers does Google own" Google Cloud's: what an organization has,
        # ranked, counted or listed, leaves none of its subsidiaries' out (a count says its own beside)
        form.subsidiaries = org_role(form, form.carrier) is None
    if form.series and form.orgs:
        form.subsidiaries = True  # "微软 Phi 系列": Microsoft Research's Phi-4 too
    if form.orgs and (form.carrier == "funding" or _ROUNDS.search(r.text)):
        form.rounds_of = _rounds_of(form, r)
        if form.rounds_of:
            # the rounds compared, each side's own (its letter, its period): their figures side by side,
            # not a total, count or period of every organization named
            form.round_name, form.carrier, form.per = None, "funding", False
            if any(period for _, _, period in form.rounds_of):
                form.dates = None
            if PROPERTY_CARRIER.get(form.prop or "") != "funding":
                form.prop = "amount"
            if form.op != "series":
                form.op, form.also, form.entities = "series", [], []
            return form
    return _joint(form, ops, vocab) or form


GROUP_NAMES = {
    "operator": ("operator", "运营方"),
    "manufacturer": ("manufacturer", "制造商"),
    "developer": ("developer", "开发方"),
    "investee": ("company", "公司"),
    "accelerator": ("accelerator", "加速器"),
}
"""What a ranking groups by, in words (the last step of its path)."""
LINKED_BY = {
    "operator": "org",
    "operatedBy": "org",
    "owner": "org",
    "developer": "org",
    "manufacturer": "vendor",
    "investee": "org",
}
"""Properties that link a node to an organization: what a ranking by one counts per organization."""
OWNED = frozenset({"model", "run", "cluster", "datacenter", "hardware"})
"""Classes an organization has through its subsidiaries too (Meta's models: Meta AI's)."""


SPENT = re.compile(r"\bspen[dt]\b|\bspending\b|\bcosts?\b|花了?多少钱|花费|花了|花在|开销|支出|成本")
"""Words of money an organization spends: the data holds its compute spending and nothing else."""


_SPENT_ON = re.compile(r"\bspen[dt]\b|\bspending\b|花了?多少钱|花费|花了|花在")
"""Words of money spent (not "cost", which a run's compute also has)."""


def _spend_of_org(form: Form, r: _Reading, orgs: frozenset[str]) -> None:
    """ "OpenAI 推理花了多少钱", "how much did Anthropic spend on inference", "OpenAI inference cost":
    an organization's cost or spending is its compute spending (of the category named), the only
    spending the data holds — not the cost of some run of one of its models."""
    if form.prop == "trainingCompute" and form.carrier in (None, "run") and _SPENT_ON.search(r.text):
        form.prop, form.carrier = None, None  # "spend on inference compute": money, not FLOP
    if form.prop not in (None, "cost") or form.carrier not in (None, "spend") or not SPENT.search(r.text):
        return
    named = form.entities + [o[0] for o in form.orgs]
    if not named or not all(_is_org(c, orgs) for c in named):
        return
    form.orgs = [[c] for c in form.entities] + form.orgs
    form.entities, form.alternates = [], []
    form.carrier, form.prop = "spend", "computeSpend"
    _read_spend_category(form, r.text)


def _read_spend_category(form: Form, text: str) -> None:
    """The category of compute spending asked, or the total: several categories named together ("training
    plus inference combined", "R&D and inference together", 训练加推理) ask the figure Epoch files under
    them all, as a total does (was: the first one named, Anthropic's 1.5B of R&D for its 2.5B of 2024)."""
    found = {SPEND_CATEGORIES[w] for _, _, w in _find(text, SPEND_CATEGORIES)}
    form.spend_category = next(iter(found)) if len(found) == 1 else None
    form.spend_total = form.spend_category is None and (
        len(found) > 1 or _has(text, SPEND_TOTAL_WORDS + CLOUD_SPEND_WORDS)
    )


def rated_beside(form: Form) -> Form | None:
    """For a total over clusters of the status the question names with no rating ("whose *operating*
    clusters add up to more", 现役集群加起来), the same total of the rows Epoch rates at least Likely,
    which the answer states beside it: a total counts every row of its status (tests/data/README.md's
    defaults), a ranking what Epoch rates at least Likely, and the question says neither — Tesla's
    existing clusters add up to 99,144 H100e, 64,144 without the Unlikely row of an earnings-call claim.
    None when the question names a rating, or the two cannot differ."""
    if form.op != "sum" or form.carrier != "cluster" or form.status != "Existing":
        return None
    if form.defaults or form.reliable or form.confirmed or form.rated_as or form.every:
        return None
    return replace(form, reliable=True)


def every_row(form: Form) -> Form | None:
    """For a count with the totals' defaults (clusters: existing, rated at least Likely, without Epoch's
    superseded or duplicate rows; funding rounds: those that happened, rated at least Likely), the same
    count of every row, which the answer gives beside it; else None."""
    if form.op != "count" or form.every or form.carrier not in ("cluster", "funding"):
        return None
    if form.carrier == "cluster" and not form.defaults:
        return None
    return replace(form, defaults=False, every=True)


_OR_MORE = re.compile(r"\bor\b[^?]*\b(?:who|whose|which)\b[^?]*\b(?:more|less|fewer|bigger|larger|higher)\b")
"""The choice named before its comparative ("OpenAI or Anthropic, who raised more in 2025?")."""
_MORE_ZH = re.compile(r"(?:谁|哪个|哪家|哪一家|哪边|哪国)[^，,？?]{0,12}?[多大高强]")
"""A Chinese choice by a comparative ("谁的 GPU 更多", "哪家的卡多", "哪个算力大")."""
TOTAL_OF = {
    "acceleratorCount": "acceleratorCount",
    "accelerator": "acceleratorCount",
    "h100Equivalents": "h100Equivalents",
    "trainingCompute": "h100Equivalents",
    "powerCapacity": "powerCapacity",
    "thermalDesignPower": "powerCapacity",
}
"""What organizations or countries compared or ranked on a figure add up over their clusters: their
chips, their H100-equivalents ("compute", 算力), their power (MW)."""
COUNTED = frozenset({"cluster", "model", "hardware", "datacenter", "run"})
"""Classes whose nodes organizations or countries compared on them are compared by the count of."""
_CARD = re.compile(r"(?<![a-z])gpus?(?![a-z])|[张块的]卡|卡[更多]|显卡|芯片")
COUNTRY_GROUP = "aikg:locationName"
"""What a ranking of countries groups clusters by: the country their location names."""
_NOT_A_PLACE = re.compile(r"德州仪器|texas instruments")
"""Names that begin with a place's name and are no place (Texas Instruments: 德州仪器)."""
_THE_LARGEST = re.compile(
    r"\b(?:the\s+)?(?:largest|biggest|most powerful|highest)\s+(?:\w+\s+)?(?:cluster|supercomputer|data cent)"
    r"|(?:最大|最强|最高)的?\s*(?:算力)?(?:集群|超算|数据中心|训练)"
)
"""A superlative naming one thing ("the largest cluster", "最大的集群"), not a ranking of totals."""
_WHICH_COUNTRY = re.compile(
    r"\b(?:which|what)\s+(?:country|countries|nation)\b|哪个国家|哪國|哪国|哪個國家|哪些国家"
)


def _totals_compared(form: Form, r: _Reading, ops: dict[str, bool], hardware_cls: frozenset[str]) -> bool:
    """ "Who has more GPUs, Meta or Microsoft?", "中美谁的算力更多": two or more organizations or countries
    compared on what their clusters add up to (chips, H100-equivalents, power), each one's total as the
    totals count it (existing clusters rated at least Likely, without Epoch's superseded or duplicate
    rows; an organization's with its subsidiaries'), never the chips they make; or on how many clusters,
    models or chips each has. True when the form is set."""
    text = r.text
    chips = [e for e in form.entities if any(t in hardware_cls for t in e.types)]
    others = [e for e in form.entities if e not in chips]
    if form.prop == "h100Equivalents":
        chips = [c for c in chips if "h100" not in c.slug]  # the H100 of "H100 等效算力" is the unit
    alternates = dict(zip((e.iri for e in form.entities), form.alternates, strict=False))
    orgs = list(form.orgs)
    if orgs and others and all(alternates.get(e.iri) for e in others):
        # "Mistral" beside "xAI": the company, not its model
        orgs += [alternates[e.iri][:1] for e in others]
        others = []
    many = len(orgs) >= 2 or (len(form.countries) >= 2 and len(orgs) <= 1)
    if not many or others or ops["provenance"] or form.threshold:
        return False
    if chips and form.prop not in (None, "acceleratorCount", "accelerator"):
        return False  # "BR100 and S4000 (Biren's, Moore Threads') memory": the chips compared
    if not (ops["compare"] or _MORE_OR.search(text) or _OR_MORE.search(text) or _MORE_ZH.search(text)):
        return False
    if len(form.countries) < 2 and (form.carrier in ("funding", *FIGURES) or form.prop == "amount"):
        if form.carrier == "funding" or form.prop == "amount":
            # each one's money raised or rounds: the funding comparison of _choose_op
            ops["compare"], form.orgs, form.entities = True, orgs, chips
        return False
    explicit = form.carrier if r.explicit else None
    prop = TOTAL_OF.get(form.prop or "")
    cards = r.hardware_word or _CARD.search(text) is not None
    makes = explicit == "hardware" and _MAKE.search(text) is not None
    if prop is None and (cards or chips) and not makes and explicit in (None, "hardware", "cluster"):
        prop = "acceleratorCount"
    if prop is not None and explicit in (None, "hardware", "cluster", "run") and not makes:
        form.op, form.carrier, form.prop = "sum", "cluster", prop
        form.chips = [r.chip_of.get(e.iri, e) for e in chips] if prop == "acceleratorCount" else []
    elif explicit in COUNTED and not chips:
        form.op, form.carrier, form.prop = "count", explicit, None
    else:
        return False
    ops["compare"], form.orgs = True, orgs
    form.entities, form.alternates, form.per = [], [], True
    # what each one has now (the totals' defaults), unless the question says the status itself ("whose
    # existing clusters add up to more"): then, as one organization's total, every row of that status
    form.defaults = form.carrier == "cluster" and not (form.op == "sum" and form.status)
    return True


def _countries_ranked(form: Form, r: _Reading, ops: dict[str, bool]) -> bool:
    """ "Which country has the most AI compute?", "哪个国家的集群最多": countries ranked by what their
    clusters add up to, or by how many clusters they have, as the totals count them. True when set
    (``op`` empty when the ranking is of something clusters do not hold: the closest questions)."""
    if not (ops["top"] and _WHICH_COUNTRY.search(r.text)) or form.entities or form.countries:
        return False
    if _THE_LARGEST.search(r.text) and not _has(f" {r.text} ", QUANTITY_WORDS):
        return False  # "最大的集群在哪个国家": where the largest one is, not countries ranked
    explicit = form.carrier if r.explicit else None
    prop = TOTAL_OF.get(form.prop or "")
    if prop is None and (r.hardware_word or _CARD.search(r.text)) and explicit in (None, "hardware"):
        prop = "acceleratorCount"
    if prop is None and _has(r.text, ("compute", "算力", "算力资源")):
        prop = "h100Equivalents"
    if explicit == "datacenter":
        # Epoch gives a data center an address, not a country: a ranking by country would be a guess
        form.op = "refuse"
        form.why = (
            "aikg cannot rank countries by their data centers: the data gives each data center an "
            "address, not a country."
        )
        return True
    form.op, form.group, form.carrier, form.defaults = "rank", COUNTRY_GROUP, "cluster", True
    if prop is not None and explicit in (None, "hardware", "cluster", "run"):
        form.prop = prop
    elif explicit == "cluster":
        form.prop = None
    else:
        form.op = ""
    return True


SPEEDUP_MEASURES = (("cost", "成本"), ("cumulative", "累计"))
"""The measures a speed-up claim is on other than speed, as its aikg:metric words them (单位成本性能: per
cost, 累计性能增益: cumulative): a question that names none asks how much faster, and gets those last."""
MEASURE_WORDS = {
    "cost": ("per cost", "per-cost", "per dollar", "cost efficiency", "price-performance", "成本", "性价比"),
    "cumulative": ("cumulative", "cumulatively", "all told", "累计", "累积", "总共", "一共"),
}
"""The question's words for the measure of a speed-up it asks (:data:`SPEEDUP_MEASURES`)."""
PART_OF = "(aikg:suite|aikg:variantOf|aikg:usesAccelerator)"
"""Links from a thing to what it is a part, a variant or a user of, as a question may name the whole."""
JOINT_BLOCKERS = ("compare", "top", "sum", "provenance", "bottom", "per", "yearly", "only")
"""Operators whose question is about each thing named, never about what links them."""


KINDS = tuple(AIKG + c for c in ("Hardware", "AIModel", "Organization", "DataCenter", "Deployment", "Event"))
"""Top classes whose members are compared with each other (chips, models, sites), never joined."""


def _one_kind(entities: list[Candidate], vocab: Any) -> bool:
    """True when the things named are all of one of :data:`KINDS` (a TPU and a GPU are both hardware)."""
    if len({e.types for e in entities}) < 2:
        return True
    if vocab is None:
        return False
    for kind in KINDS:
        members = vocab.descendants(kind)
        if all(any(t in members for t in e.types) for e in entities):
            return True
    return False


def _joint(form: Form, ops: dict[str, bool], vocab: Any = None) -> Form | None:
    """The figure of the node that links every thing the question names, when it names several kinds
    of things or organizations: "how much is NVIDIA investing in SB Energy" (the investment whose
    investor is NVIDIA and investee SB Energy), "how many GB300 did CoreWeave use in MLPerf v6.0" (the
    result of that submitter, round and chip). The form read apart is kept for when none links them."""
    named = form.entities + [o[0] for o in form.orgs]
    measured = form.prop == "speedup" and form.measure is not None and len(named) == 1
    if (len(named) < 2 and not measured) or not form.prop or form.threshold or form.group or form.chips:
        # one thing's speed-up on a measure ("新一代平台单位成本性能提升了多少"): its claims on that
        # measure first, as between two things named
        return None
    if form.op in ("role", "provenance", "count", "list"):
        return None
    if form.prop == "speedup" and not ops.get("provenance") and not ops.get("top"):
        # a speed-up is a claim's, between the things it names (X faster than Y, on a workload): two
        # platforms named are the claim linking them, never each one's speed-ups compared or added
        return replace(form, op="joint", entities=named, orgs=[], carrier=None, apart=None)
    blockers = [op for op in JOINT_BLOCKERS if ops.get(op)]
    if blockers == ["sum"] and not form.orgs and not _one_kind(form.entities, vocab):
        # "DeepSeek-V3 训练一共花了多少 H800 卡时": 一共 of the one figure of what links a model and a
        # chip (its run), which no total over either would give
        blockers = []
    if blockers:
        return None
    if not form.orgs and _one_kind(form.entities, vocab):
        return None  # things of one kind named together are compared, not joined ("TPU v5p and H100")
    apart = form if form.op else None
    if apart is not None and apart.op == "compare" and not _one_kind(apart.entities, vocab):
        apart = None  # a chip and a benchmark are not compared: nothing linking them is no answer
    return replace(form, op="joint", entities=named, orgs=[], carrier=None, apart=apart)


_INVESTED = re.compile(
    r"\binvest(?:s|ed|ing|ment|ments)?\b|\bput(?:s|ting)?\s+(?:in|into)\b|投了|投资|投入|注资|出资|入股"
)
"""The verb of an investment, whose subject is the investor ("Amazon invested in Anthropic", 谷歌给
Anthropic 投了, 微软对 OpenAI 投资)."""


def invested_by(form: Form, folded: str, mentions: list[Mention]) -> bool:
    """Whether a joint form asks what one organization it names invested in another — an organization
    named before the verb of investing ("How much did Amazon invest in Anthropic?", 谷歌给 Anthropic
    投了多少).
    When no node links them (Epoch's rounds name no investor), the things named one by one answer another
    question: the investee's total raised (Anthropic's 29.4 billion), never Amazon's part of it."""
    if form.op != "joint" or form.prop not in ("amount", "facilityInvestor"):
        return False
    verb = _INVESTED.search(folded)
    if verb is None:
        return False
    named = {e.iri for e in form.entities}
    return any(m.candidates and m.end <= verb.start() and m.best.iri in named for m in mentions)


_POWERFUL = re.compile(
    r"\b(?:most powerful|powerful|fastest|strongest|quickest)\b|最强|最快|性能最高|算力最高|最厉害"
)
"""How a chip's power is asked for: its compute (FP16, the precision most chips state)."""
_LESS = re.compile(
    r"\b(?:less|lower|fewer|smaller|cheaper|older|earlier|slower|least|lowest|smallest)\b"
    r"|(?<![多至不])少|(?<![不])低|(?<![大])小|省电|便宜|更早|先"
)
"""A comparison asked by its lower side ("which draws less", "哪个功耗低", "谁的显存小", "更省电"): the
answer names the lower value as the one asked for."""
_MORE_OR = re.compile(
    r"\b(?:more|less|fewer|bigger|larger|higher)\b.*\bor\b|\bor\b.*\b(?:more|less|fewer|bigger|larger|higher)\b"
)
"""A choice between two named things by a comparative ("who raised more, A or B"; "did A or B raise more")."""
_HOLD = re.compile(
    r"\b(?:have|has|had|own|owns|owned|hold|holds|operate|operates|run|runs|possess|possesses)\b"
    r"|拥有|有多少|有几|囤|手里|手上|最多"
)
_FLEET = re.compile(r"\bfleets?\b|机群")
_DATA_HOLDS = re.compile(
    r"\b(?:does|do|did|has|have)\s+(?:the\s+)?(?:aikg|epoch(?:\s+ai)?|(?:knowledge\s+)?graph|dataset|data\s+set"
    r"|database|data)\s+(?:have|has|hold|holds|list|lists|contain|contains|track|tracks|include|includes"
    r"|cover|covers|got)\b|\bin here\b|收录"
)
"""The data itself as what has the things counted ("how many Kunlunxin chips does *the graph have*", "has
Intel got *in here*", aikg *收录*了几款): the rows the data holds, not the chips an organization's clusters
hold."""
_MAKE = re.compile(
    r"\b(?:make|makes|made|design|designs|designed|release|released|launch|launched|build|builds|built"
    r"|sell|sells|sold|models?|lines?|kinds?|types?"
    r"|ship|ships|shipped|puts? out|rolled out|unveiled)\b|发布|推出|生产|设计|制造|型号|款|种"
)
_HOW_MANY_ZH = re.compile(
    r"多少\s*(?:[个张块颗台款]\s*)?(?:"
    + "|".join(
        sorted((re.escape(w) for _, ws in CLASS_WORDS for w in ws if CJK_CHAR_RE.search(w)), key=len)[::-1]
    )
    + r"|gpus?|tpus?|卡)(?!\s*(?:小时|时|hours?)|[a-z0-9])"
)
"""多少 before a class word (with or without a measure word) asks how many of them; not "多少 GPU 小时"."""
_THOSE_FEW = re.compile(r"[那这]\s*[几两些]\s*(?:个|家|款|座|处|轮|台|张)?")
"""那几个, 这几家, 那两个: the things named, pointed at ("谷歌那几个数据中心里"), never how many of them."""
_HOW_MANY_UNITS = re.compile(
    r"\bhow many\s+(?:mw|gw|kw|w|watts?|kilowatts?|megawatts?|gigawatts?|gb|tb|gb/s|tb/s|flop)(?![\w/])"
    r"(?P<sites>\s+of\s+(?:the\s+|its\s+|their\s+)?(?:data[\s-]?cent(?:er|re)s|clusters|supercomputers)\b)?"
)
"""'How many' before a unit of measure asks a figure in that unit ("how many MW of capacity", "how many GB
of memory"), never a count of the things the class word after it names (Groq's data centers)."""
HOLDINGS = ("acceleratorCount", "h100Equivalents")
"""The figures of what an organization has in its clusters: chips, and their H100-equivalents."""


_FOUNDED = re.compile(r"\bfounded\b|\bestablished\b|成立|创立|创办")
_FOUNDED_LATEST = re.compile(
    r"\b(?:most recently|latest|last|newest|youngest|most recent)\b|最晚|最新|最近|最年轻|最迟|最后"
)
_FOUNDED_EARLIEST = re.compile(r"\b(?:earliest|first|oldest)\b|最早|最先|最老|最久")


def _founded_ranked(form: Form, r: _Reading, ops: dict[str, bool]) -> bool:
    """Organizations ranked by when they were founded ("Epoch 收录的 AI 公司里，哪家成立得最早", "which
    company was founded most recently"): the organizations aikg holds a founding date of, earliest or
    latest first (a year alone, CoreWeave's 2017, sorts as its year)."""
    if form.entities or form.orgs or form.dates or form.threshold or form.carrier not in (None, "company"):
        return False
    if not _FOUNDED.search(r.text) or ops["provenance"] or ops["compare"]:
        return False
    latest = _FOUNDED_LATEST.search(r.text) is not None
    if not latest and not _FOUNDED_EARLIEST.search(r.text):
        return False
    form.op, form.prop, form.carrier, form.ascending = "founded", "foundedIn", None, not latest
    return True


YES_NO = re.compile(
    r"^\s*(?:is|are|was|were|does|do|did|has|have|had)\b|吗\s*[?？!！。]?\s*$|是不是|是否|有没有|有无|对不对|对吗"
)
"""A question asked for a yes or no: an English one that starts with its verb ("does the MI300X have …",
"is the B200's TDP above …"), a Chinese one ending in 吗 or asking 是不是, 是否, 有没有 (Cantonese 係咪,
有冇 read so: :func:`aikg.ask.text.mandarin`)."""


def _yes_no_bound(
    form: Form, r: _Reading, ops: dict[str, bool], hardware_cls: frozenset[str], orgs_cls: frozenset[str]
) -> None:
    """A yes or no asked of one thing's figure against a bound ("B200 的显存是不是超过 150GB", "does the
    MI300X have more than 150 GB of memory", "Meta 有超过 10 万张 H100 吗"): the bound is what the answer's
    figure is weighed against, not a filter of the things asked about — the thing's figure (or what the
    organization has) answers it, never every thing over the bound, the thing named dropped."""
    if not form.threshold or r.explicit or ops["top"] or ops["count"]:
        return
    if not YES_NO.search(r.text) or form.dates or form.country or form.status:
        return
    things = [e for e in form.entities if not any(t in orgs_cls for t in e.types)]
    chips = [e for e in things if any(t in hardware_cls for t in e.types)]
    one_thing = len(things) == 1 and len(form.entities) == 1 and not form.orgs
    holds = bool(form.orgs) and len(form.orgs) == 1 and chips == things
    if not (one_thing or holds):
        return
    form.prop = form.prop or form.threshold_prop
    form.threshold, form.threshold_prop = None, None
    ops["compare"] = False  # "have more than": the bound's comparator, not two things compared


def _holding(form: Form, r: _Reading, ops: dict[str, bool], hardware_cls: frozenset[str]) -> bool:
    """A question about the chips an organization has ("how many H100 does xAI have", "xAI 有多少张
    卡", "which company has the most GPUs"): the total of its clusters' chips (a chip named filters
    them), existing and rated at least Likely as the rankings count them; a ranking groups them by
    operator. Not a question of the chips a company makes ("how many GPUs has NVIDIA released")."""
    if ops["compare"] or ops["provenance"] or form.threshold or form.dates:
        return False
    chips = [e for e in form.entities if any(t in hardware_cls for t in e.types)]
    if len(chips) != len(form.entities):
        return False  # a model, a cluster or a data center named: its own figures
    about_chips = bool(chips) or r.hardware_word or form.prop in HOLDINGS
    if not about_chips or form.carrier not in (None, "hardware", "cluster") or _MAKE.search(r.text):
        return False
    if _DATA_HOLDS.search(r.text):
        return False  # "how many Huawei chips does the dataset have": the chips the data lists
    fleet = _FLEET.search(r.text) is not None
    if r.explicit and form.carrier == "cluster" and form.prop not in HOLDINGS and not fleet:
        return False  # "how many H100 clusters does xAI have": a count of clusters (机群 is the fleet)
    if not _HOLD.search(r.text) and not fleet and not (chips and form.orgs and form.prop in HOLDINGS):
        return False
    if ops["top"] and _THE_LARGEST.search(r.text) and not _has(f" {r.text} ", QUANTITY_WORDS):
        return False  # "which organizations run the largest compute clusters": the clusters, each one
    if ops["top"]:
        ranks_orgs = _WHO.search(r.text) is not None or any(
            re.match(re.escape(w) + r"(?![a-z])", rest)
            for rest in _after_which(r.text)
            for kind, words in GROUP_WORDS
            if kind == "org"
            for w in words
        )
        if not ranks_orgs or form.orgs:
            return False
    elif not (form.orgs and (ops["count"] or form.prop in HOLDINGS or fleet)):
        return False
    form.carrier = "cluster"
    form.prop = form.prop if form.prop in HOLDINGS else "acceleratorCount"
    form.defaults = True
    ops["sum"], ops["count"] = not ops["top"], False
    return True


_BY_DATE = re.compile(
    r"\b(?:first|sooner|earlier|older|newer|later|more recent|most recent)\b"
    # 边个早啲出 (Cantonese: 哪个早些出), 哪个先发布, 谁更早, 哪款较晚推出
    r"|(?:更|较|比较)?[早晚](?:些|一点|一些)?(?:发布|推出|出|上市)|(?:更|较)[早晚]|[早晚]些|先(?:发布|推出|出|上市)"
)
"""Comparatives of time: which of the things named came out first, or is newer."""
_FIRST = re.compile(r"\b(?:first|sooner)\b|早|先(?:发布|推出|出|上市)")


def _dates_compared(form: Form, r: _Reading, ops: dict[str, bool], hardware_cls: frozenset[str]) -> None:
    """Two or more chips, or models, named with a comparative of time ("which came out first, the
    MI300X or the Gaudi2", "which chip is newer"): their release dates compared, not a ranking of the
    runs that used them ("first" is a ranking's word) nor a chip link ("chip")."""
    if len(form.entities) < 2 or not _BY_DATE.search(r.text):
        return
    if form.prop not in (None, "releaseDate", "availableFrom") and form.prop not in WEAK_PROPS:
        return
    kinds = {
        "hardware"
        if any(t in hardware_cls for t in e.types)
        else "model"
        if AIKG + "AIModel" in e.types
        else ""
        for e in form.entities
    }
    if len(kinds) != 1 or "" in kinds:
        return
    kind = kinds.pop()
    # an organization beside each name is its maker ("Microsoft's Maia 100 or Google's TPU v6e")
    form.carrier, form.prop, form.orgs = kind, DATED[kind], []
    ops["compare"], ops["top"], ops["count"] = True, False, False


def _chips_filter(form: Form, r: _Reading, ops: dict[str, bool], hardware_cls: frozenset[str]) -> None:
    """A chip named beside a count or ranking of models, clusters or runs filters them."""
    if (
        form.carrier == "model"
        and (ops["count"] or ops["top"])
        and any(t in hardware_cls for e in form.entities for t in e.types)
    ):
        form.carrier, form.count_report = "run", True  # "models trained on the H800": their runs
    listed = (
        r.explicit
        and (form.prop is None or form.threshold is not None)
        and bool(form.entities)
        and all(any(t in hardware_cls for t in e.types) for e in form.entities)
    )
    if (
        form.carrier in ("cluster", "run")
        and (ops["count"] or ops["top"] or ops["sum"] or listed)
        and not ops["compare"]
    ):
        # a chip named beside a count or ranking of clusters or runs filters them by their accelerator;
        # so it does a list of them, the class named ("哪些集群用的是 MI300X", "用了超过 1 万张 H100 的训练
        # 任务有哪些": was the chip dropped and every cluster or run over the bound listed, sure)
        chips = [e for e in form.entities if any(t in hardware_cls for t in e.types)]
        form.entities = [e for e in form.entities if e not in chips]
        form.chips = [r.chip_of.get(e.iri, e) for e in chips]
        # "AMD chips", "AMD 的芯片", "chips made by AMD": the organization makes the chips
        # ("Microsoft's GPU fleet": the chips it runs, whoever made them)
        form.vendor = (
            r.hardware_word
            and not _FLEET.search(r.text)
            and any(_makes_chips(r.text, e) or _VENDOR_BEFORE.search(r.text[:s]) for s, e in r.org_spans)
        )


_ROWS_COUNTED = re.compile(r"(?:几|多少)\s*条")


def _product_of_org(form: Form) -> bool:
    """A product named beside the organizations asked about that names none of them ("API", "ChatGPT"
    beside OpenAI; not "DeepSeek" beside DeepSeek, nor "Meta AI" beside Meta)."""
    product = (form.product or "").casefold()
    return bool(product) and not any(
        c.label.casefold() in product or product in c.label.casefold() for o in form.orgs for c in o
    )


def _rows_counted(r: _Reading) -> bool:
    """A count with the measure word of rows (几条, 多少条) that is no part of a property's word ("多少条
    消息": the messages): the figures counted, not one figure's value."""
    return any(not any(a <= m.end() - 1 < b for a, b in r.prop_spans) for m in _ROWS_COUNTED.finditer(r.text))


def _choose_op(form: Form, r: _Reading, ops: dict[str, bool], group: str | None) -> bool:
    """Set the operator the form's words and parts ask for, the first that fits; False when none."""
    text, explicit = r.text, r.explicit
    named = form.entities + [o[0] for o in form.orgs]
    if ops["provenance"]:
        form.op = "provenance"
        if form.prop is None and re.search(r"faster|speedup|倍|快", text):
            form.prop = "speedup"
    elif group:
        form.op, form.group = "rank", group
        if form.carrier == "funding" and form.prop is None:
            form.prop = "amount"
    elif ops["count"] and _counts_of_maker(form, r):
        form.op = "count"
    elif ops["count"] and form.carrier in FIGURES and (_has(text, RECORD_WORDS) or _rows_counted(r)):
        # "有几条员工人数的记录", "how many revenue records", 收录了多少条谷歌的用户数据: the figures
        # themselves, each row
        form.op, form.records = "count", True

    elif ops["count"] and (
        not form.prop
        or (form.carrier and form.prop in (None, "amount"))
        or (explicit and not form.entities and form.prop not in ("activeUsers", "annualRevenue"))
    ):
        form.op = "count"
        if form.prop == "amount" and form.carrier is None:
            form.carrier = "funding"
    elif len(form.orgs) >= 2 and ops["compare"] and form.carrier in ("funding", None) and not form.entities:
        # "who raised more, A or B": each one's total; "more funding rounds": each one's count
        # ("closed rounds only" filters the rounds whose money is compared: no count of rounds)
        # (money said beside rounds — 已完成的融资轮中谁融到的钱更多, "融资总额" — is the money compared)
        raised = form.prop == "amount" and (
            _MONEY.search(text) is not None or not _ROUNDS.search(_CLOSED_ROUNDS.sub(" ", text))
        )
        form.op, form.carrier = ("sum" if raised else "count"), form.carrier or "funding"
        form.per = True
        if form.prop not in (None, "amount"):
            # "A 和 B 估值谁高": each one's valuations, newest first (a count of rounds is no valuation)
            form.op, form.per = "series", False
    elif len(form.entities) >= 2 and form.prop:
        form.op = "compare"
        form.ascending = _LESS.search(text) is not None  # "哪个功耗低": the lower one wins
        if form.prop in DATED.values() and _FIRST.search(text):
            form.ascending = True  # "which came out first": the earlier date
    elif (
        form.carrier in DATED
        and (_has(text, NEWEST_WORDS) or _has(text, OLDEST_WORDS))
        and (not form.entities or (explicit and _maker_named(form)))
        and form.prop in (None, DATED[form.carrier], "architectureGeneration")
        and not form.dates
    ):
        if form.entities:
            # "Mistral 最近发布的模型": the name is the maker's (Mistral AI), not the one model Mistral 7B
            form.orgs, form.entities, form.alternates = [a[:1] for a in form.alternates], [], []
        # "Google's newest TPU", "OpenAI's latest model": the ranking by date, newest first;
        # "NVIDIA's earliest GPU", "英伟达最早的 GPU": oldest first; "最新的 TPU 是哪一代": which one is
        # the newest, not the chips' architecture generation
        form.op, form.prop = "top", DATED[form.carrier]
        form.ascending = not _has(text, NEWEST_WORDS)
    elif ops["top"] and form.carrier and (form.prop or form.carrier in RANK_BY):
        form.op = "top"
        if (form.orgs or form.entities) and form.prop in OWNER_ROLES and form.carrier in RANK_BY:
            # "the largest cluster Oracle operates", "the biggest model Meta developed", 甲骨文运营的最大
            # 集群: the verb says whose things they are, which the organization's filter applies; ranked as
            # the class ranks (was: by the operator, no answer, or by the developer, sure)
            form.prop = None
        form.prop = form.prop or RANK_BY[form.carrier]
        if form.carrier == "model" and form.prop == "trainingCompute":
            form.carrier = "run"
    elif (ops["sum"] and form.prop in SUMMABLE) or _asks_raised(form, r, ops):
        form.op, form.carrier = "sum", form.carrier or PROPERTY_CARRIER.get(form.prop or "", "funding")
    elif form.threshold and form.prop and form.carrier:
        form.op = "list"
    elif form.carrier == "datacenter" and form.prop == "powerCapacity" and form.orgs and not form.entities:
        # "Groq's data-center capacity": the organization's own figure, wherever it sits
        form.entities, form.orgs, form.carrier = [form.orgs[0][0]], form.orgs[1:], None
        form.op = "fact"
    elif not explicit and form.orgs and not form.entities and form.prop and form.carrier not in FIGURES:
        form.entities, form.orgs = [o[0] for o in form.orgs[:1]], form.orgs[1:]
        form.op = "fact"
    elif form.carrier in FIGURES and form.orgs:
        form.op = "series"
    elif form.carrier == "usage" and (form.entities or form.product):
        form.op = "series"  # "ChatGPT daily users": a product of the usage figures
    elif form.dates and explicit and form.prop in (None, *DATE_PROPS) and _maker_named(form):
        # "Which Mistral models came out in 2024", "Mistral models from 2025 onwards": a period of a class
        # named after a name that is also its maker's (Mistral: Mistral 7B and Mistral AI) lists the
        # maker's things of the period (was: the one model's release date, no answer)
        form.op, form.prop = "list", None
    elif len(form.entities) == 1 and form.prop:
        form.op = "fact"
    elif (
        form.carrier
        and (
            form.orgs
            or form.dates
            or form.country
            or form.countries
            or form.region
            or form.status
            or (form.chips and r.explicit)
        )
        and not form.entities
    ):
        form.op = "list"
    elif named and form.prop and not form.entities and form.orgs and form.prop in ("price", "powerCapacity"):
        form.entities = [form.orgs[0][0]]
        form.orgs = []
        form.op = "fact"
    elif not named and form.prop and form.prop != "speedup" and _TIMES.search(text):
        # "the 4.2x cumulative gain is measured against what baseline?": the claim of that speed-up
        form.op, form.claim = "fact", float(_TIMES.search(text).group(1))  # type: ignore[union-attr]
    elif (
        named
        and form.prop is None
        and explicit
        and form.carrier in LINKED_CLASSES
        and _WHICH_ONE.search(text)
        and not _MANY.search(text)
    ):
        # "which model did CoreWeave train in MLPerf v6.0", "MLPerf 早期轮次跑的是什么模型": the thing of
        # that class linked to what is named (or to the node that links all of it)
        form.op = "linked"
    else:
        return False
    return True


LINKED_CLASSES = {"model": "AIModel", "hardware": "Hardware"}
"""Classes a question may ask for as the thing linked to what it names ("which model", "什么卡")."""
_WHEN = re.compile(
    r"\bwhen\b|\bwhat year\b|\bwhich year\b|\b(?:what|which) (?:day|date)\b"
    r"|什么时候|哪年|哪一年|何时|哪天|哪一天|哪日|几几年"
    r"|边一年|边年|几时"  # Cantonese: 邊一年 (which year), 幾時 (when), read in simplified characters
)
_IN_WHICH_YEAR = re.compile(r"在哪一?年")
_OR_ONLY = re.compile(r"\bor (?:is it |was it |is that )?(?:only|just|merely)\b|还是只|还是仅")
_MANY = re.compile(r"\b(?:models|chips|gpus|accelerators)\b|哪些")
"""A list asked for ("what models has the H800 trained"): a named query's, not one linked thing."""
_WHICH_ONE = re.compile(r"\b(?:which|what)\b|哪个|哪款|哪种|哪一|什么")
_TIMES = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:x|×|倍)(?![a-z])")


ORG_FIGURES = frozenset({"revenue", "usage", "funding", "staff", "spend"})
"""The classes of figures only an organization has (its revenue, users, rounds, staff, compute spend)."""


def _makers_figures(form: Form) -> None:
    """A name that is both a thing and an organization ("Mistral": the model Mistral 7B and Mistral AI)
    names the organization when the question asks for figures only organizations have ("Mistral 有多少员工",
    "xAI 和 Mistral 谁融资更多"), and the owner when it asks for its clusters or data centers, which no model
    has ("how many clusters does Mistral have": Mistral AI's, not every cluster, the model unused)."""
    if form.carrier not in ORG_FIGURES and form.carrier not in SITES:
        return
    kept, kept_alt = [], []
    for i, e in enumerate(form.entities):
        alt = form.alternates[i] if i < len(form.alternates) else []
        owned = form.carrier in ORG_FIGURES or AIKG + "AIModel" in e.types
        if alt and owned and AIKG + CARRIERS[form.carrier].cls not in e.types:
            if all(alt[0].iri != o[0].iri for o in form.orgs):
                form.orgs.append(alt[:1])
        else:
            kept.append(e)
            kept_alt.append(alt)
    form.entities, form.alternates = kept, kept_alt


def _counts_of_maker(form: Form, r: _Reading) -> bool:
    """ "How many models has Mistral released": a name that is both one of the things counted (the
    model Mistral 7B) and an organization (Mistral AI) names the organization whose things are counted;
    the form then counts the organization's nodes of the class."""
    if not (r.explicit and form.carrier in CARRIERS and form.entities) or form.orgs:
        return False
    own = AIKG + CARRIERS[form.carrier].cls
    alternates = form.alternates[: len(form.entities)]
    if len(alternates) != len(form.entities) or not all(
        own in e.types and alt for e, alt in zip(form.entities, alternates, strict=True)
    ):
        return False
    form.orgs, form.entities, form.alternates = [alt[:1] for alt in alternates], [], []
    if form.prop in ("releaseDate", "availableFrom"):
        form.prop = None  # "released": the things of the organization, not their dates
    return True


SPEND_WORDS = next(words for prop, words in PROPERTY_WORDS if prop == "computeSpend")
DEBT_WORDS = next(words for prop, words in PROPERTY_WORDS if prop == "debtAmount")
_ROUNDS = re.compile(r"\brounds?\b|轮")
_HOW_MUCH = re.compile(
    r"\bhow much\b|\bwhat did\b.*\brais|多少钱|多少资金|融了多少|融资多少|融资了多少|筹集了多少|筹了多少"
)


_MONEY = re.compile(
    r"\b(?:raised?|raising|money|amount|dollars?|cash)\b|\$"
    r"|融到|融得|钱|资金|总额|金额|筹到|筹集|募集|募资"
)
"""Words of the money raised, not of rounds counted ("who raised more money", 谁融到的钱更多, 融资总额)."""
_CLOSED_ROUNDS = re.compile(r"\b(?:closed|completed)\s+(?:funding\s+)?rounds?\b|已完成的?轮次?")
_ONE_ROUND = re.compile(
    r"(?:最近|最新|上|那|这|首|第一|最后)\s*一?\s*轮|\b(?:latest|last|most recent|newest|first|previous)\s+"
    r"(?:funding\s+)?round\b"
    rf"|\b(?:{_MONTH_RE})\w*,?\s+\d{{4}}\s+(?:funding\s+)?round\b"
)
"""One round named ("最近一轮融了多少", "its latest round", "Anthropic's November 2025 round"): the rounds
newest first, not their total (a round in talks, which no total counts, too)."""


def _asks_raised(form: Form, r: _Reading, ops: dict[str, bool]) -> bool:
    """ "How much did xAI raise in 2024": the total of the organization's rounds (in the period), not
    their list; "how much did it raise in each round" lists them."""
    return (
        form.carrier in ("funding", None)
        and form.prop == "amount"
        and not _has(r.text, DEBT_WORDS)
        and bool(form.orgs)
        and not form.entities
        and not ops["series"]
        and not ops["per"]
        and _HOW_MUCH.search(r.text) is not None
        and not re.search(r"\beach\b|\bevery\b|\bper\b|每轮|每一轮|各轮", r.text)
        and _ONE_ROUND.search(r.text) is None
    )


def _checked_op(
    form: Form, r: _Reading, ops: dict[str, bool], hardware_cls: frozenset[str], orgs_cls: frozenset[str]
) -> Form:
    """The operator chosen, cleared (``op`` empty) where the form cannot say what the question asks,
    and what it needs filled in."""
    if form.op == "count" and form.carrier is None:
        form.op = ""
        return form
    if (
        form.dates
        and form.op in ("list", "count", "top", "sum", "rank", "series")
        and form.carrier
        and not CARRIERS[form.carrier].date
    ):
        form.op = ""  # "data centers opened in 2025": the class holds no date to filter on
        return form
    if (
        form.op in ("list", "top", "fact", "count")
        and (ops["only"] or ops["yearly"])
        and not form.entities[1:]
    ):
        form.op = ""  # "only NVIDIA" is a policy the forms cannot say; a named query can
        return form
    if (
        r.explicit
        and form.op == "fact"
        and form.carrier
        and form.carrier != "hardware"
        and not form.threshold
        and any(t in hardware_cls for e in form.entities for t in e.types)
    ):
        form.op = ""  # "models trained on the H100": a list by a link the forms do not filter on
        return form
    if (
        form.op == "fact"
        and (form.region or form.countries)
        and any(_is_org(e, orgs_cls) for e in form.entities)
    ):
        # "the capacity OpenAI locked up in Ohio": an organization's facts take no place; the node that
        # links the organization and the place does (the lease in Ohio), or nothing answers
        if not r.places:
            form.op = ""
            return form
        return replace(form, op="joint", entities=form.entities + r.places[:1], orgs=[], carrier=None)
    if form.op in ("fact", "compare") and form.prop and form.prop in PROPERTY_CARRIER:
        form.carrier = None
    if form.op == "provenance":
        docs = [e for e in form.entities if set(e.types) & DOCUMENTS]
        outlets = [o[0] for o in form.orgs if AIKG + "MediaOutlet" in o[0].types]
        if not outlets and not docs and _OWN_DOCUMENT.search(r.text) and not _has(r.text, SOURCE_ASKED):
            # "CoreWeave 的白皮书", "Epoch 的数据中心数据集": a document an organization puts out itself (a
            # white paper, a dataset) named by its publisher; an article or report about it is no such one
            outlets = [o[0] for o in form.orgs] + [e for e in form.entities if _is_org(e, orgs_cls)]
        if not docs and outlets and _DOCUMENT_WORD.search(r.text):
            # "新媒网那篇讲 Llama 3.1 训练提速的文章，原文链接是什么": the article an outlet published, asked
            # by its publisher, never the sources of the other things its subject names
            form.entities, form.orgs, form.prop, form.value, form.carrier = outlets, [], None, None, None
            form.document, form.outlet, form.also = True, True, []
            form.dated = bool(_PUBLISHED_WHEN.search(r.text))
            return form
        if docs and (
            form.prop is None
            or _has(r.text, (*PUBLISHER_WORDS, *LINK_WORDS))
            or _PUBLISHED_WHEN.search(r.text)
        ):
            # the question names the document by its words ("the 'Llama 3.1 training 4.2x faster'
            # article", "2.02 minutes" of a title): the source asked for is that document itself
            form.entities, form.orgs, form.prop, form.value, form.carrier = docs, [], None, None, None
            form.document, form.also = True, []
            form.dated = bool(_PUBLISHED_WHEN.search(r.text))
            return form
        if _has(r.text, PUBLISHER_WORDS):
            # who published a document the question does not name (a white paper, a report aikg
            # cannot tell): the sources of the things named are no answer to it
            form.op = ""
            return form
    owner = _round_owner(form, r, orgs_cls) if form.op == "provenance" else None
    if owner is not None:
        # "where does the Mistral Series C figure come from? need the link", "Epoch 对 Anthropic 的 E 轮融资有
        # 多大把握", "OpenAI 2024年10月那轮融资的评级", "the source link for Anthropic's 2024 compute
        # spend": that round's or period's rows — their rating, the links they cite, the figure asked —, not
        # every row of the company (nor the model Mistral 7B the name also links)
        form.orgs, form.entities, form.alternates = [[owner]], [], []
        form.carrier = form.carrier if form.carrier in FIGURES else "funding"
        form.owned, form.class_named = True, True
        if form.prop in (None, "status"):
            form.prop = "sourceConfidence"
    if (
        form.op == "provenance"
        and form.prop is None
        and len(form.entities) == 1
        and not form.orgs
        and AIKG + "AIModel" in form.entities[0].types
        and (_EPOCH.search(r.text) or _has(r.text, RATING_WORDS))
    ):
        # "Epoch 对 Gemini 1.0 Ultra 训练数据的可信度评级是什么", "where does Epoch's data on Qwen2.5-72B come
        # from? link": Epoch's row of the model is its training run's, which carries the rating and the
        # links it cites (the rating of the run linked to it, :data:`LINKS`), not every statement about it
        form.prop = "sourceConfidence"
    by_value = form.prop is not None and form.value is not None and form.prop not in WEAK_PROPS
    if form.op == "provenance" and not (
        form.entities or form.orgs or (form.product and form.prop) or by_value
    ):
        form.op = ""  # "the 276 GPU-hours" names its figure by its value: the nodes that state it
        return form
    if (
        form.op == "provenance"
        and form.orgs
        and not form.entities
        and form.class_named
        and form.carrier in OWNED_RATED
        and form.prop in (None, "status", "sourceConfidence")
    ):
        form.owned = True  # "Reliance 那个超算集群": the organization's clusters, which Epoch rates
        form.prop = None if form.prop == "status" else form.prop
    if form.op == "provenance" and not form.entities:
        form.entities = [o[0] for o in form.orgs]
        form.orgs = []
    if (
        form.op == "provenance"
        and form.prop in LINK_RATED
        and _has(r.text, CONFIDENCE_WORDS)
        and any(AIKG + "DataCenter" in e.types for e in form.entities)
        and (form.orgs or any(_is_org(e, orgs_cls) for e in form.entities))
    ):
        # "Meta Prometheus 的使用方是 Meta，这条 Epoch 评级是什么": the rating of that link, to them
        form.rated_link, form.prop = form.prop, "sourceConfidence"
        form.orgs = form.orgs + [[e] for e in form.entities if _is_org(e, orgs_cls)]
        form.entities = [e for e in form.entities if not _is_org(e, orgs_cls)]
    if (
        form.op == "provenance"
        and form.prop is None
        and _has(r.text, CONFIDENCE_WORDS)
        and (form.owned or all(t in RATED for e in form.entities for t in e.types))
    ):
        form.prop = "sourceConfidence"  # "how sure is the data about X": the rating of X itself
    if (
        form.op == "provenance"
        and form.prop is None
        and _has(r.text, LINK_WORDS)
        and form.entities
        and all(t in RATED for e in form.entities for t in e.types)
    ):
        # "甲骨文 2020 年那个 A100 集群，数据来源链接是什么": the links Epoch's row of it cites, with its
        # rating (was: every statement about the cluster, 62 rows)
        form.prop = "sourceConfidence"
    if (
        form.op == "provenance"
        and form.prop is None
        and (
            re.search(r"\bwho\b|谁", r.text) or _PARTY_ASKED.search(r.text) or _RUMOUR_CHECKED.search(r.text)
        )
    ):
        # "who reported TPU v9t", "which firm is the source of the TPU v9t rumour", "TPU v9i 這個消息確定嗎？
        # 還是傳聞？": the sources, the parties and the certainty behind the entity itself, one row a
        # source, not every statement about it
        return form
    if form.op == "provenance" and form.prop is None and len(form.entities) == 1 and not form.orgs:
        # "how sure is the Inkling model", "Tinker 训练单价 1.50 是哪篇文章里说的", "TPU v8t 的 9600 颗
        # 芯片这个数字出自哪里": no figure named by its word, so every statement about the thing, with
        # its source and certainty: the named query of that
        form.op = "sources"
        return form
    if form.op in ("fact", "compare", "provenance") and form.prop is None:
        form.op = ""
    return form


def _round_owner(form: Form, r: _Reading, orgs_cls: frozenset[str]) -> Candidate | None:
    """The organization whose one funding round a provenance question names by its letter, "seed" or its
    month ("the Mistral Series C figure", Anthropic 的 E 轮, "OpenAI 2024年10月那轮融资"), or whose figures
    of a period it asks about ("how confident is Epoch about OpenAI's revenue in 2024"): the one
    organization named (or the organization a name also links: Mistral, the model Mistral 7B and Mistral
    AI); None when no round or period is named, a value names the figure, or other things are named too."""
    if not (form.round_name or (form.carrier in FIGURES and form.dates)) or form.value is not None:
        return None
    named = form.entities + [o[0] for o in form.orgs]
    if len(named) != 1:
        return None
    if _is_org(named[0], orgs_cls):
        return named[0]
    alternates = form.alternates[0] if form.entities and form.alternates else []
    return next((a for a in alternates if _is_org(a, orgs_cls)), None)


_EPOCH = re.compile(r"\bepoch(?:'s| ai)?\b|epoch\s*(?=[\u3400-\u9fff])")
"""Epoch AI named as the source asked about ("what rating does Epoch give …", "Epoch 对 … 的评级")."""
_PARTY_ASKED = re.compile(
    r"\b(?:which|what)\s+(?:company|companies|firm|firms|organi[sz]ation|analysts?|research)\b"
    r"(?=.*\b(?:rumou?rs?|leak\w*|news|scoop|source|behind)\b)"
    r"|(?:哪家|哪个公司|哪间|边间|哪一家|边个)(?=.*(?:爆|传出|传的|消息|传闻|放出|报道|报的|说的))"
)
"""Who a source names as having reported a thing, asked by the kind of party ("which firm is the source of
the TPU v9t rumour", "which company reported …", 係邊間公司爆出嚟): the reporter, as "who reported" asks."""
_PER_SOURCE = re.compile(
    r"\b(?:according to|per|as per|going by)\s+(?:the|that|this)\s+(?:[\w.-]+\s+){0,3}"
    r"(?:article|report|piece|story)\b"
    r"|(?:按|照|据|依)(?:[^，,。？?]{0,8})?(?:那|这)篇(?:文章|报道|报告)(?:的说法|说的|来看)?"
    r"|(?:那|这)篇(?:文章|报道|报告)(?:里)?说"
)
"""A fact asked as a source states it ("according to the article", 按那篇文章的说法, 那篇文章说): the source
is named, not asked (:data:`_FIGURE_ASKED`)."""
_FIGURE_ASKED = re.compile(
    r"\bhow (?:many|much|long|fast|big)\b|\bwhat (?:is|was|are|were|will)\b|多少|几(?![乎])|多大|多快|多久"
)
"""A figure asked beside the source named: the figure, not where it comes from (no who, which, link)."""
_RUMOUR_CHECKED = re.compile(
    r"\b(?:confirmed|true|real|official|solid)\b.*\b(?:or|vs)\b.*\brumou?r"
    r"|\b(?:just|only|merely|still) (?:a )?rumou?r\b|\bis (?:it|this|that) (?:a |just a )?rumou?r\b"
    r"|\brumou?r\b.*\b(?:confirmed|true)\b"
    r"|(?:消息|传闻|说法)[^？?]*(?:确定吗|确定不|确认了吗|属实吗|是真的吗)|还是传闻|是不是传闻|是传闻吗|传闻吗|还是谣言"
)
"""Whether a statement is certain or only a rumour ("is the TPU v9t news confirmed or just a rumour", "TPU
v9i 這個消息確定嗎？還是傳聞？"): the certainty each source gives it."""


_PUBLISHED_WHEN = re.compile(
    r"\bwhen (?:was|were|did|is)\b.*\b(?:publish(?:ed)?|posted|put out|released|come out|came out)\b"
    r"|\bpublication date\b|\bwhat (?:day|date)\b.*\b(?:published|posted)\b"
    r"|\bpublished (?:on )?what (?:day|date)\b"
    r"|哪天发|哪一天发|什么时候发|几时发|哪天刊|发布日期|发表日期|发文日期|刊发日期"
)
"""A document's publication date asked ("when was the report … published", "那篇文章是哪天发的"): beside a
document word, a question about the document itself (:data:`_DOCUMENT_WORD`)."""
ENERGY_FROM_WORDS = ("电从哪来", "电从哪里来", "电力从哪来")
"""Where a site's electricity comes from (its energy supplier), whose 从哪来 is no provenance word."""
_DOCUMENT_WORD = re.compile(
    r"\b(?:article|report|post|story|piece|white ?paper|dataset)s?\b|篇|文章|报道|报告|快讯|白皮书|数据集"
)
_OWN_DOCUMENT = re.compile(r"\b(?:white ?papers?|datasets?)\b|白皮书|数据集")
"""Documents an organization puts out itself (a white paper, a dataset), asked by their publisher's name."""
SOURCE_ASKED: tuple[str, ...] = (
    "which dataset",
    "what dataset",
    "which epoch dataset",
    "come from",
    "comes from",
    "哪个数据集",
    "数据集里",
    "数据集来的",
    "来自",
    "出自",
)
"""Words asking which dataset or document a figure comes from ("which dataset does Meta AI's 700M MAU come
from"): the source of the figure, not the documents the organization named put out."""
DOCUMENTS = frozenset({AIKG + "SourceDocument", AIKG + "Report"})
"""The classes of documents a question may name as the source it asks about (an article, a report)."""
LINK_WORDS = ("url", "link", "链接", "网址", "原文")
"""Words asking a document's link: the document's own, not its statements'."""
OWNED_RATED = ("cluster", "datacenter", "run", "funding")
"""Classes of nodes Epoch rates that an organization named beside the class word owns."""
LINK_RATED = frozenset({"tenant", "operator", "operatedBy"})
"""A data center's links Epoch rates one by one (aikg:linkRating)."""
PRICE_COMPONENTS = {
    "input": "InputPrice",
    "输入": "InputPrice",
    "output": "OutputPrice",
    "输出": "OutputPrice",
    "training": "TrainingPrice",
    "训练": "TrainingPrice",
}
"""Words for a component of a price list (aikg:priceComponent): input, output and training prices."""
NAMED_FILTERS = ("round_name", "spend_category", "period", "product", "region", "price_components")
"""What a follow-up may name alone and replace of the question before (a funding round, a category of
compute spending, a period of usage figures, a product, a region, a component of a price list)."""
SITE_FIGURES = frozenset({"powerCapacity", "h100Equivalents"})
"""Figures both classes of sites (clusters, data centers) hold."""


_CHAT_LEAD = (
    r"(?:(?:(?:ok(?:ay)?|so|cool|right|alright|great|thanks|hmm+|well)\b|好的|好吧|好|嗯+|行)"
    r"\s*[,，.。!！、~]?\s*)*"
)
"""Chat before a follow-up's first word, which asks nothing ("ok and over 2 TB/s?", "okay, and …",
"ok so what about …", 好的，那 … 呢, 嗯，那 … 呢)."""
FOLLOW_UP = re.compile(
    rf"^\s*{_CHAT_LEAD}(?:and|also|then|(?:and\s+)?(?:wh?at|wht|waht|how)\s+(?:ab\w{{0,3}}t|bout|bou?t))\b"
    rf"|^\s*{_CHAT_LEAD}(?:only|just)\s+(?:the\s+)?ones\b|^\s*{_CHAT_LEAD}(?:那|只看|只要)|呢\s*[?？]?\s*$"
    rf"|^\s*{_CHAT_LEAD}(?:same\s+(?:for|with)|now\s+for)\b|^\s*{_CHAT_LEAD}(?:换成|改成|换做|换作)"
)
"""How a question says it goes on from the one before ("and over 300 MW?", "what abut the B200",
"wat about the MI355X", "how bout Japan", "only the ones above 4e26 FLOP?", "那德国呢",
"只看超过 3e26 的", "same for 2025?", 换成英特尔呢), after chat that asks nothing ("ok and over 2 TB/s?",
好的，那…呢)."""
SUBSET = re.compile(
    r"\b(?:of|among(?:st)?|out\s+of|from)\s+(?:those|these|them|thoes|theese|thse|thos|the\s+ones)\b"
    r"|其中|当中|(?:这些|那些|它们|他们|呢些|嗰些|这几[个款家])(?:里面|里头|之中|中)?"
    # the things before as a whole, counted or named: "how many is that?", "which ones are they?", "list
    # them", 总共有多少个 (總共有幾多個), 分别是哪几个
    rf"|^\s*{_CHAT_LEAD}(?:and\s+|so\s+)?how\s+many\s+(?:is\s+(?:that|it)|was\s+that|are\s+(?:there|they|those|these))\b"
    rf"|^\s*{_CHAT_LEAD}(?:and\s+|so\s+)?(?:which|what)\s+(?:ones\s+)?(?:are|were)\s+(?:they|those|these)\b"
    rf"|^\s*{_CHAT_LEAD}(?:and\s+|so\s+)?which\s+ones\b|\b(?:list|name|show)\s+(?:them|those|these)\b"
    r"|^\s*(?:那)?(?:一共|总共|总计|合计|加起来)(?:有|是)?(?:多少|几)\s*[个款家轮项台张颗]?\s*呢?\s*[?？]?\s*$"
    r"|^\s*(?:那)?(?:分别|具体)是(?:哪|什么)"
    # "which one has the most power?", 哪个最大, 哪款最省电, 邊款 (folded 哪款) after a list: one of those
    rf"|^\s*{_CHAT_LEAD}(?:and\s+|so\s+)?(?:which|what)\s+one\b|^\s*(?:那)?哪(?:一)?(?:个|款|家|台|张)"
)
"""Words asking about the things the answer before gave ("which of those is the biggest", "how many of
them", "which one has …", 其中, 这些里面, 它们当中, 哪款 …, and 佢哋 and 呢啲 as folded: 他们, 呢些): a
follow-up that keeps its filters and its threshold, whatever it asks of them."""
_RATING_NAMED = re.compile(r"\btdp\b|thermal design|热设计")
"""A chip's power rating named as such: no site's power, whatever the class before."""
_LIST_ASKED = re.compile(
    r"\bwhich\s+ones\b|\bwhat\s+(?:are|were)\s+(?:they|those|these)\b"
    r"|\b(?:list|name|show)\s+(?:them|those|these)\b|哪几|哪些|分别"
)
"""A follow-up asking which things a count before counted ("which ones are they?", 分别是哪几个)."""


_BARE_PERIOD = re.compile(
    r"\b(?P<half>first|second|1st|2nd)\s+half\b|\bh(?P<h>[12])\b|\bq(?P<q>[1-4])\b"
    r"|(?P<zhhalf>[上下])半年|第?(?P<zhq>[一二三四1-4])季度"
    rf"|\b(?P<month>{'|'.join(m for m in sorted(_MONTHS, key=len, reverse=True) if m != 'may')})\b"
    r"|(?:\b(?:in|and|about|for|of)\s+|^\s*)(?P<may>may)\b"
    r"|(?<![\d年])(?P<zhm>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])\s*月(?!\s*\d)"
)
"""A half, quarter or month named with no year ("and the second half?", "那下半年呢", "那第四季度呢",
"and in october?", 那九月呢, "what about may?"; "may" only after a preposition, not the verb)."""
_ZH_MONTHS = {"十": 10, "十一": 11, "十二": 12, **{c: i + 1 for i, c in enumerate("一二三四五六七八九")}}


def _period_of_year_before(current: Form, dates: tuple[str, str], text: str) -> None:
    """A half or quarter a follow-up names alone is of the year the question before was about (its
    period within one year): "xAI 2024年下半年完成了哪几轮融资" then "那上半年呢" is 2024's first half, and
    the words of it are read."""
    m = _BARE_PERIOD.search(text)
    year = dates[0][:4]
    if m is None or not year.isdigit() or dates[1][:4] != year:
        return
    month = m.group("month") or m.group("may") or m.group("zhm")
    if month:
        # "and in october?" after July 2025's figures: October 2025
        n = _MONTHS.get(month) or _ZH_MONTHS.get(month) or int(month if month.isdigit() else 0)
        current.dates = (f"{year}-{n:02d}-01", _end(int(year), n))
        current.period_said = m.group().casefold()
        return
    if m.group("half"):
        period = f"the {'first' if m.group('half') in ('first', '1st') else 'second'} half of {year}"
    elif m.group("h"):
        period = f"h{m.group('h')} {year}"
    elif m.group("q"):
        period = f"q{m.group('q')} {year}"
    elif m.group("zhhalf"):
        period = f"{year}年{m.group('zhhalf')}半年"
    else:
        period = f"{year}年第{m.group('zhq')}季度"
    read = read_dates(period)[0]
    if read is None:
        return
    current.dates, current.period_said = read, m.group().casefold()


def _elliptic(current: Form) -> bool:
    """True when a question asked after another names no class, thing or organization of its own: it can
    only be of the things before ("above 200 MW?", "ones above 200 GB?", 超過 200 兆瓦嘅有邊啲 after Tesla's
    clusters above 50 MW: Tesla's, not every cluster's — the class its property implies is the one before)."""
    return not current.class_named and not current.entities and not current.orgs


def merge(previous: Form, current: Form | None, text: str = "") -> Form | None:
    """A follow-up read with the question before it: what it names replaces what the earlier one named,
    and what it does not name is the earlier one's (``text``: the follow-up as folded)."""
    if current is None or not previous.op or previous.op == "refuse":
        return None
    if not current.dates and previous.dates:
        _period_of_year_before(current, previous.dates, text)
    if previous.op == "joint" and previous.apart is not None and not current.op:
        previous = previous.apart  # "英伟达 B200 的显存" then "GB300 的呢": the chip's figure, not NVIDIA's
    if (
        not current.class_named
        and current.carrier in SITES
        and previous.carrier in SITES
        and current.carrier != previous.carrier
        and current.prop in SITE_FIGURES
    ):
        # "which one has the most power?" after a ranking of data centers: still data centers (the
        # property implied clusters, the other class of sites, which the follow-up does not name)
        current.carrier = previous.carrier
    subset = SUBSET.search(text) is not None
    if (
        subset
        and not current.class_named
        and current.carrier != previous.carrier
        and (previous.carrier or "", current.prop or "") in RECLASS
        and not _RATING_NAMED.search(text)
    ):
        # "which of them draws the least power?" after Google's data centers: theirs, not chips' TDP
        current.carrier = previous.carrier
        current.prop = RECLASS[(previous.carrier or "", current.prop or "")]
    elliptic = _elliptic(current)
    if current.op and (current.entities or current.orgs or current.carrier) and current.prop:
        if (
            (FOLLOW_UP.search(text) or subset or elliptic)
            and current.carrier
            and current.carrier == previous.carrier
        ):
            # "and over 300 MW?" after "existing clusters drawing more than 140 MW": still existing ones
            current.status = current.status or previous.status
            current.country = current.country or previous.country
            current.dates = current.dates or previous.dates
            current.orgs = current.orgs or previous.orgs
            current.chips = current.chips or previous.chips
            if current.orgs is previous.orgs:
                # "ok and over 2 TB/s?" after "Google TPUs with more than 1 TB/s": still Google's TPUs,
                # the organization in the same role (the chips' maker) and of the same kind or line
                current.vendor = current.vendor or previous.vendor
                current.subsidiaries = current.subsidiaries or previous.subsidiaries
            current.kind = current.kind or previous.kind
            current.line = current.line or previous.line
            if (
                (subset or (elliptic and current.op == "top"))
                and not current.threshold
                and previous.threshold
            ):
                # "of those, which has the highest memory bandwidth?" after Huawei's chips above 60 GB:
                # still the chips above 60 GB (the bound on the property the list was by)
                current.threshold = previous.threshold
                bound = previous.threshold_prop or previous.prop
                current.threshold_prop = bound if bound != current.prop else None
        elif (
            subset
            and not current.class_named
            and current.carrier
            and previous.carrier
            and current.carrier != previous.carrier
        ):
            # "which of them has the highest TDP?" after clusters: chips are not among them, and every
            # chip ranked answers another question
            current.lost = [m.group().strip() for m in SUBSET.finditer(text)]
        return current
    # how sure the follow-up is read is the new question's affair: the one before it was answered
    form = replace(
        previous,
        lang=current.lang,
        unknown=current.unknown,
        sure=current.sure,
        period_said=current.period_said,
    )
    changed = False
    if current.prop and current.prop != previous.prop:
        form.prop, changed = current.prop, True
        if (
            previous.op == "series"
            and current.carrier in ORG_FIGURES
            and previous.carrier in ORG_FIGURES
            and current.carrier != previous.carrier
            and not any(getattr(previous, a) for a in NAMED_FILTERS)
        ):
            # "and revenue?" after Anthropic's staff: its revenue figures, not a revenue of staff rows
            form.carrier = current.carrier
    if current.country:
        form.country, form.countries, changed = current.country, current.countries, True
    if current.status and current.status != previous.status:
        form.status, changed = current.status, True
    if current.dates:
        form.dates, changed = current.dates, True
    if previous.prop == "price" and not current.prop and not current.price_components and _elliptic(current):
        # "那输出呢" after Tinker's training price: the component named alone, of the same price list
        current.price_components = tuple(
            dict.fromkeys(PRICE_COMPONENTS[w] for _, _, w in _find(text, PRICE_COMPONENTS))
        )
    for attr in NAMED_FILTERS:
        # "what about the series C?", "那推理呢": the round or category named replaces the earlier one
        value = getattr(current, attr)
        if value and value != getattr(previous, attr):
            setattr(form, attr, value)
            changed = True
            if attr == "round_name" and previous.orgs and not current.dates:
                # "那D轮呢" after Anthropic's C round of May 2023: the D round, whenever it was (the month
                # named the earlier round, as its name does)
                form.dates, form.period_said = None, ""
            if attr == "product" and not current.orgs and previous.orgs:
                # "那 Grok 呢" after DeepSeek's daily users: Grok's figures, whoever makes it (xAI), not
                # DeepSeek's under another product's name
                form.orgs, form.alternates = [], []
    if current.spend_category:
        form.spend_total = False
    if form.op == "sum" and form.prop != previous.prop and form.prop not in SUMMABLE:
        form.op = "series"  # "C 轮估值呢" after what a round raised: valuations are listed, not added
    if current.threshold and (previous.threshold or previous.op in ("list", "count", "top")):
        # "only the ones above 4e26 FLOP?": the same list with the new bound (on the property its unit
        # names, or the one the list was by)
        form.threshold, changed = current.threshold, True
        unit_prop = current.threshold_prop or current.prop
        if unit_prop and unit_prop != (previous.threshold_prop or previous.prop):
            if previous.prop and previous.op == "top":
                form.threshold_prop = unit_prop
            else:
                form.prop, form.threshold_prop = unit_prop, None
    if current.entities and previous.orgs and not previous.entities:
        orgs = [alt for alt in current.alternates if alt] or [[e] for e in current.entities]
        form.orgs, changed = orgs, True
    elif current.entities:
        # what the earlier names meant is not said of the new ones ("and Claude 3?" after "GPT-4")
        form.entities, form.ambiguous, form.alternates = (
            current.entities,
            current.ambiguous,
            current.alternates,
        )
        changed = True
    if current.orgs:
        if previous.entities and not previous.orgs:
            form.entities = [o[0] for o in current.orgs]
        else:
            form.orgs = current.orgs
        if previous.product and not current.product:
            # "那 Meta AI 呢" after Grok's daily users: Meta AI's figures, not Grok's under its name
            form.product, form.products = None, []
        changed = True
    if form.op == "compare" and len(form.entities) == 1 and not form.orgs and current.entities:
        form.op = "fact"  # "and the GB200's?" after comparing two chips: the figure of the one named
    if (
        current.carrier in (None, previous.carrier)
        and not current.prop
        and (subset or FOLLOW_UP.search(text) or elliptic)
    ):
        # "how many of those came out in 2024?" after Mistral's models listed: counted, in 2024
        changed = _operator_changed(form, previous, current, text) or changed
    if previous.op == "top" and not changed:
        # "and the lowest?", "那最小的呢": the same ranking the other way round
        if current.ascending and not previous.ascending:
            form.ascending, changed = True, True
        elif not current.ascending and previous.ascending and ops_top(text):
            form.ascending, changed = False, True
    return form if changed else None


def _operator_changed(form: Form, previous: Form, current: Form, text: str) -> bool:
    """A follow-up naming no class or property that asks another operator of the things before: which
    ones a count counted ("which ones are they?", 分别是哪几个), how many a list listed ("how many of
    those are there?", 这些一共有几款), the biggest or smallest of them ("其中最大的是哪个", "and the
    smallest of them?": by the list's property, else by what the class is ranked by). True when changed."""
    if _LIST_ASKED.search(text):
        if previous.op != "count":
            return False
        form.op = "list"
        return True
    if _has(f" {text} ", OPERATOR_WORDS["count"]) or re.search(r"多少|几", text):
        if previous.op != "list":
            return False
        # counted as a count of clusters is, with the totals' defaults (every row's count beside it)
        form.op, form.defaults = "count", form.defaults or form.carrier == "cluster"
        return True
    ranked = ops_top(text) or _has(f" {text} ", OPERATOR_WORDS["bottom"])
    if not ranked or previous.op not in ("count", "list"):
        return False
    prop = previous.prop if previous.op == "list" and previous.prop else RANK_BY.get(previous.carrier or "")
    if prop is None:
        return False  # "其中最大的是哪个" of chips: the biggest by what, the question does not say
    form.op, form.prop, form.ascending = "top", prop, current.ascending
    if previous.threshold and not previous.threshold_prop and previous.prop != prop:
        form.threshold_prop = previous.prop
    return True


# -- compiling -------------------------------------------------------------------------------------


def _iri(c: Candidate) -> str:
    return f"<{c.iri}>"


def _key(var: str, prop: str | None) -> str:
    if prop in ("releaseDate", "availableFrom", "date"):
        # dates are given to the day, the month or the year (xsd:date, gYearMonth, gYear), which SPARQL
        # does not order among each other; their ISO forms order as the dates do
        return f"STR({var})"
    return f"xsd:double(STR({var}))" if prop == "trainingCompute" else var


_CHIP_NAMED = "?chip (aikg:variantOf|^aikg:usesAccelerator)? ?named"
"""The chip named, a variant of it (H100: the H100 SXM5 80GB) or the chip of the system named (GB200
NVL72: the GB200 its racks hold), as the data links them."""


def _chip_values(form: Form) -> str:
    return " ".join(_iri(x) for x in form.chips)


def _counts_chips(form: Form) -> bool:
    """A total of the chips of one kind ("how many H100 does xAI have"), not of the clusters' chips."""
    return bool(form.chips) and form.prop == "acceleratorCount" and form.op in ("sum", "rank")


def _chip_count() -> str:
    """How many of the chips named a cluster has: its accelerator group of that chip (a cluster of
    several kinds gives each its count), or its whole count when that chip is its only kind. A cluster
    of several kinds with no count per kind is left out: its share is not known."""
    return (
        f"{{ ?x aikg:acceleratorGroup ?g . ?g aikg:accelerator ?chip ; aikg:acceleratorCount ?value . "
        f"{_CHIP_NAMED} }}\n    UNION {{ ?x aikg:accelerator ?chip ; aikg:acceleratorCount ?value . "
        f"{_CHIP_NAMED} FILTER NOT EXISTS {{ ?x aikg:accelerator ?other FILTER(?other != ?chip) }} }}"
    )


ORG_ROLES = frozenset({"energySupplier", "builder", "tenant", "facilityInvestor"})
"""A site's parties other than its owner (Epoch's "Owner", aikg:operator): the role a named organization
plays when the question's property is one of them ("how many data centers does AEP supply")."""


def org_role(form: Form, carrier: str) -> str | None:
    """The role a named organization plays for the sites counted or listed, when the question names one
    other than the owner; None: the carrier's own path (the owner, the developer, the maker)."""
    if carrier == "datacenter" and form.orgs and form.prop in ORG_ROLES and form.op in ("count", "list"):
        return form.prop
    return None


LINKED_CARRIERS = ("cluster", "run", "datacenter", "model", "hardware", "funding")


def org_link_query(form: Form) -> str | None:
    """A query for any node of the form's class that an organization named is linked to as the count links
    it, whatever the other filters: a count of 0 where there is none ("how many models does Trane make":
    Trane makes chillers, not AI models) is a reading that gave the name a role it does not play, not a
    count of nothing. None when the form counts no organization's things."""
    c = CARRIERS.get(form.carrier or "")
    if c is None or form.carrier not in LINKED_CARRIERS or not form.orgs or form.vendor:
        return None
    role = org_role(form, form.carrier or "")
    path = f"aikg:{role}" if role else (c.org[0] if c.org else "aikg:agent")
    values = " ".join(_iri(x) for group in form.orgs for x in group)
    return (
        f"{PREFIXES}SELECT ?x WHERE {{ ?x a aikg:{c.cls} ; {path}/aikg:parentOrganization* ?org . "
        f"VALUES ?org {{ {values} }} }} LIMIT 1"
    )


def location_probe(form: Form) -> str | None:
    """A query for any node of the form's class in the country named (or with a location, for a region or
    several countries): a count of 0 of a class with none there ("how many Chinese models": models have
    no location in aikg; "data centers in Japan": no address of the data names Japan) is a filter the class
    never takes, not a count of nothing."""
    c = CARRIERS.get(form.carrier or "")
    if c is None or not (form.country or form.countries or form.region):
        return None
    if form.country and len(form.countries) < 2:
        there = country_filter(form.carrier or "", form.country)
        return f"{PREFIXES}SELECT ?x WHERE {{ ?x a aikg:{c.cls} . {there} }} LIMIT 1"
    return f"{PREFIXES}SELECT ?x WHERE {{ ?x a aikg:{c.cls} ; aikg:locationName ?place }} LIMIT 1"


ADDRESSED = frozenset({"datacenter"})
"""Classes whose location is a postal address ("4800 90th St, Mount Pleasant, WI 53403"), not a country's
name: a country filter finds the country in the address."""
_US = "United States of America"


def country_filter(carrier: str, country: str) -> str:
    """The pattern keeping the nodes of ``carrier`` in ``country``: its location is the country's name, or,
    for a class located by its address, an address that names the country — in the United States, by its
    state in full or a state code and ZIP code, as an address writes it (an exact match found no data
    center in the United States, and a count of 0 was said sure)."""
    if carrier not in ADDRESSED:
        return f'?x aikg:locationName "{country}"'
    if country == _US:
        states = "|".join(US_STATES)
        return (
            f'?x aikg:locationName ?place FILTER(REGEX(?place, ", [A-Z][A-Z] [0-9]{{5}}") '
            f'|| REGEX(?place, "\\\\b({states})\\\\b"))'
        )
    return f'?x aikg:locationName ?place FILTER(CONTAINS(?place, "{country}"))'


def _threshold_prop(form: Form) -> str | None:
    """The property a threshold holds for when it is not the form's own (see ``Form.threshold_prop``)."""
    if form.threshold_prop and form.threshold_prop != form.prop:
        return RECLASS.get((form.carrier or "", form.threshold_prop), form.threshold_prop)
    return None


def _date_of(c: Any, form: Form, node: str = "?x") -> str:
    """The pattern binding ``?date`` of a node of carrier ``c``: its date, else — for one organization's
    node named by its month ("xAI's September 2025 round", "Anthropic 2025年11月那轮"), a funding round in
    talks, which has none — the day it was reported (:attr:`aikg.ask.words.Carrier.undated`). Rounds listed
    over a longer period ("funding rounds in the second half of 2025") keep to those dated: the rounds
    that happened then."""
    dated = f"{node} aikg:{c.date or 'date'} ?date"
    if not (c.undated and (form.orgs or form.owned) and _one_month(form.dates)):
        return dated
    sibling = ""
    if form.dates and form.stage != "Planned" and c.org:
        # a round that happened that month is the round the month names: "OpenAI 2025年3月那轮" is the
        # $10B closed on 31 March, not the $22.5B still in talks reported the same day (the rounds in
        # talks answer only when asked for, or when none closed then)
        lo, hi = form.dates
        sibling = (
            f" FILTER NOT EXISTS {{ {node} {c.org[0]} ?_org . ?_sibling {c.org[0]} ?_org ;"
            f" aikg:{c.date} ?_closed"
            f' FILTER(SUBSTR(STR(?_closed), 1, 10) >= "{lo}" && SUBSTR(STR(?_closed), 1, 10) <= "{hi}") }}'
        )
    return (
        f"{{ {dated} }} UNION {{ {node} aikg:{c.undated} ?date "
        f"FILTER NOT EXISTS {{ {node} aikg:{c.date} ?dated }}{sibling} }}"
    )


def _one_month(dates: tuple[str, str] | None) -> bool:
    """True when the period is one month or less (a month named: "September 2025", 2025年9月)."""
    if not dates or dates[0] == OPEN_START or dates[1] == OPEN_END:
        return False
    lo, hi = (datetime.date.fromisoformat(d) for d in dates)
    return (hi - lo).days < 31


def _in_period(form: Form, c: Any, node: str = "?x") -> str:
    """The filter keeping the nodes dated within the form's period, each date compared at its own
    precision ("2024" is after 2023 and since 2024-01-01, which its string alone is not)."""
    lo, hi = form.dates or (OPEN_START, OPEN_END)
    return (
        f"{_date_of(c, form, node)} BIND(STRLEN(STR(?date)) AS ?precision) "
        f'FILTER(STR(?date) >= SUBSTR("{lo}", 1, ?precision) '
        f'&& STR(?date) <= SUBSTR("{hi}", 1, ?precision))'
    )


def _filters(form: Form, carrier: str) -> list[str]:
    c = CARRIERS[carrier]
    out: list[str] = []
    groups = form.orgs
    if len(groups) > 1:
        # several organizations named: rows of any of them (one column, so a count groups by it)
        groups = [[g[0] for g in form.orgs]]
    tprop = _threshold_prop(form)
    if form.threshold and tprop:
        op, v = form.threshold
        out.append(f"?x aikg:{tprop} ?threshold FILTER({_key('?threshold', tprop)} {op} {v!r})")
    if form.kind and carrier == "hardware":
        out.append(f"?x a aikg:{form.kind}")
    if form.closed and carrier == "funding":
        out.append("?x aikg:status aikg:Closed")
    elif form.stage == "Planned" and carrier == "funding":
        out.append("?x aikg:status aikg:Planned")
    elif form.stage and carrier == "funding":
        out.append("?x aikg:status ?stage FILTER(?stage != aikg:Closed)")
    if form.epoch_rows and carrier in DATASET_ROWS:
        out.append("?x aikg:sourceRow ?epochRow")  # a row of Epoch's dataset, not a seed document's node
    if form.listed and carrier == "hardware":
        out.append(f"FILTER EXISTS {{ GRAPH <{HARDWARE_GRAPH}> {{ ?x ?listedAs ?listed }} }}")
    elif form.kind and carrier in SITES:
        out.append(f"?x aikg:accelerator ?kindChip . ?kindChip a aikg:{form.kind}")
    if form.chips and not _counts_chips(form):
        out.append(f"?x aikg:accelerator ?chip . {_CHIP_NAMED} . VALUES ?named {{ {_chip_values(form)} }}")
    if form.line and carrier == "hardware":
        out.append(f'?x rdfs:label ?lineName FILTER(CONTAINS(LCASE(STR(?lineName)), "{form.line}"))')
    if form.series and carrier in ("model", "run"):
        named = "?x rdfs:label" if carrier == "model" else "?x aikg:trainedModel/rdfs:label"
        out.append(f'{named} ?seriesName FILTER(REGEX(LCASE(STR(?seriesName)), "^{form.series}([^a-z]|$)"))')
    role = org_role(form, carrier)
    for i, cands in enumerate(groups):
        path = c.org[0] if c.org else "aikg:agent"
        if role:
            # "data centers Entergy powers", "Mortenson 承建了几个数据中心": the organization in the role the
            # question names (energy supplier, builder, tenant, investor), not the site's owner
            path = f"aikg:{role}"
        elif (form.vendor or line_word(cands[0])) and carrier in ("cluster", "run"):
            # clusters on Ascend chips: their chips' maker, never the maker as their operator
            path = "aikg:accelerator/aikg:manufacturer"
        elif ((form.defaults or form.every) and carrier == "cluster") or form.subsidiaries:
            # what an organization has includes its subsidiaries' and their divisions' (Meta: Meta AI's
            # clusters; Microsoft: Microsoft Research's and Microsoft Research Asia's models)
            path = f"{path}/aikg:parentOrganization*"
        values = " ".join(_iri(x) for x in cands)
        if carrier == "usage":
            names = " || ".join(f'CONTAINS(LCASE(STR(?product)), "{x.label.lower()}")' for x in cands[:1])
            out.append(
                f"?x aikg:agent ?org{i} . OPTIONAL {{ ?x aikg:product ?product }} "
                f"FILTER(?org{i} IN ({', '.join(_iri(x) for x in cands)}) || {names})"
            )
        elif carrier == "staff" and form.division:
            out.append(f"?x {path} ?org{i} . VALUES ?org{i} {{ {values} }}")  # the division's rows, below
        elif carrier == "staff":
            # the whole company's figures; or, for a division named as an organization (Google DeepMind,
            # part of Google), its parent's figures of that division
            kind = form.figure_kind or "Full company"
            whole = "" if form.records else f' ?x aikg:figureKind "{kind}" .'
            name = f"LCASE(STR(?name{i}))"
            division = f"LCASE(STR(?division{i}))"
            out.append(
                f"{{ ?x {path} ?org{i} . VALUES ?org{i} {{ {values} }}{whole} }} UNION "
                f"{{ VALUES ?org{i} {{ {values} }} ?org{i} aikg:parentOrganization ?parent{i} ; "
                f"rdfs:label ?name{i} . ?x aikg:agent ?parent{i} ; aikg:companyDivision ?division{i} "
                f"FILTER(CONTAINS({division}, {name}) || CONTAINS({name}, {division})) }}"
            )
        elif form.series and carrier in ("model", "run") and not role:
            # "LG 的 EXAONE 系列": the series of the organization, its divisions' too — a subsidiary, or
            # a division named by the organization's name and more (LG AI Research, linked to no parent)
            names = " || ".join(
                f'STRSTARTS(LCASE(STR(?devName{i})), "{x.label.casefold().replace(chr(34), "")} ")'
                for x in cands
            )
            out.append(
                f"?x {c.org[0]} ?dev{i} . VALUES ?org{i} {{ {values} }} ?dev{i} rdfs:label ?devName{i} "
                f"FILTER(?dev{i} = ?org{i} || EXISTS {{ ?dev{i} aikg:parentOrganization ?org{i} }}"
                f" || {names})"
            )
        else:
            out.append(f"?x {path} ?org{i} . VALUES ?org{i} {{ {values} }}")
    if carrier == "usage" and len(form.products) >= 2:
        named = " ".join('"' + p.replace('"', "") + '"' for p in form.products)
        out.append(f"?x aikg:product ?product . VALUES ?product {{ {named} }}")
        if form.latest:
            # each product's newest figure (of the period asked): no later one of the same product
            period = f'aikg:activeUsersPeriod "{form.period}" ; ' if form.period else ""
            prop = form.prop or "activeUsers"
            # ... of the period asked: a later figure outside it ("the end of May 2025") is no later one
            within = f' && STR(?laterDate) <= "{form.dates[1]}"' if form.dates else ""
            out.append(
                f"FILTER NOT EXISTS {{ ?later aikg:product ?product ; {period}aikg:{prop} ?laterValue ; "
                f"aikg:date ?laterDate . ?x aikg:date ?xDate FILTER(STR(?laterDate) > STR(?xDate){within}) }}"
            )
    elif carrier == "usage" and form.product and (not form.orgs or _product_of_org(form)):
        # a product named beside its company ("OpenAI API tokens per day"): that product's figures, as the
        # description says ("for API"); a product that is the company's own name (DeepSeek) filters nothing
        out.append(
            f'?x aikg:product ?product FILTER(CONTAINS(LCASE(STR(?product)), "{form.product.casefold()}"))'
        )
    elif carrier == "usage" and form.entities:
        names = " || ".join(f'CONTAINS(LCASE(STR(?product)), "{e.label.lower()}")' for e in form.entities)
        out.append(f"?x aikg:product ?product FILTER({names})")
    if len(form.countries) >= 2:
        # several countries named: rows of any of them (one column, so a total or count groups by it)
        named = " ".join(f'"{k}"' for k in form.countries)
        out.append(f"?x aikg:locationName ?country . VALUES ?country {{ {named} }}")
    elif form.country:
        out.append(country_filter(carrier, form.country))
    if form.region:
        # "Dallas, Texas" as a cluster's location is written, ", TX 79019" as a data center's address is
        code = REGION_CODES.get(form.region, form.region)
        out.append(
            f'?x aikg:locationName ?region FILTER(CONTAINS(?region, "{form.region}") '
            f'|| REGEX(?region, ", {code}( |$)"))'
        )
    ranked = form.op == "top" or form.defaults
    if c.status and (form.status or ranked):
        out.append(f'?x aikg:operationalStatus "{form.status or "Existing"}"')
    rated = ranked or form.reliable
    if form.rated_as and c.confidence:
        out.append(f'?x aikg:sourceConfidence "{form.rated_as}"')
    elif form.confirmed and c.confidence:
        out.append(f'?x aikg:sourceConfidence "{c.confidence[0]}"')
    elif rated and c.confidence and form.status != "Planned" or (ranked and c.key == "cluster"):
        tags = ", ".join(f'"{t}"' for t in c.confidence)
        out.append(f"?x aikg:sourceConfidence ?confidence FILTER(?confidence IN ({tags}))")
    if form.dates and c.date:
        out.append(_in_period(form, c))
    if form.figure_kind:
        out.append(f'?x aikg:figureKind "{form.figure_kind}"')
    elif form.run_rate and carrier == "revenue":
        kinds = ", ".join(f'"{k}"' for k in RUN_RATE_KINDS)
        out.append(f"?x aikg:figureKind ?runRate FILTER(?runRate IN ({kinds}))")
    if form.paying and carrier == "usage":
        out.append(f'?x rdfs:label ?paidLabel FILTER(CONTAINS(LCASE(STR(?paidLabel)), "{PAYING_LABEL}"))')
    if carrier == "staff" and form.division:
        # "Meta's FAIR": the rows of that division, as the data writes it
        division = form.division.casefold().replace('"', "")
        out.append(f'?x aikg:companyDivision ?division FILTER(LCASE(STR(?division)) = "{division}")')
    elif carrier == "staff" and not form.records and not groups:
        out.append('?x aikg:figureKind "Full company"')  # a company's staff, not one division's
    if form.period and carrier == "usage" and form.prop in (None, "activeUsers"):
        out.append(f'?x aikg:activeUsersPeriod "{form.period}"')
    if (
        carrier == "funding"
        and not form.stage
        and (
            (form.op in ("sum", "rank") and form.prop == "amount") or (form.op == "count" and not form.every)
        )
    ):
        out.append(FUNDING_COUNTED)
    if form.spend_total and carrier == "spend":
        out.append(SPEND_TOTAL)
    if form.spend_category and carrier == "spend":
        category = form.spend_category
        out.append(
            f'?x aikg:spendCategory "{category}" '
            f'FILTER NOT EXISTS {{ ?x aikg:spendCategory ?other FILTER(?other != "{category}") }}'
        )
    if form.round_name and carrier == "funding":
        # "Series A" as Epoch names it, "A 轮" as a Chinese source does (Groq's Series A)
        out.append(f"?x aikg:roundName ?roundName FILTER({_round_named(form.round_name)})")
    elif form.rounds_of and carrier == "funding":
        # each side's own round: xAI's Series C and Anthropic's Series E, not both companies' C; OpenAI's
        # round of October 2024 and Anthropic's of March 2025, not both of October 2024
        def side(cands: list[Candidate], name: str | None, period: tuple[str, str] | None) -> str:
            tests = [f"?investee IN ({', '.join(_iri(x) for x in cands)})"]
            tests += [_round_named(name)] if name else []
            tests += (
                [f'BOUND(?sideDate) && STR(?sideDate) >= "{period[0]}" && STR(?sideDate) <= "{period[1]}"']
                if period
                else []
            )
            return "(" + " && ".join(tests) + ")"

        either = " || ".join(side(*sides) for sides in form.rounds_of)
        out.append(
            "?x aikg:investee ?investee ; aikg:roundName ?roundName OPTIONAL { ?x aikg:date ?sideDate } "
            f"FILTER({either})"
        )
    return out


_SEED_ROUND = re.compile(r"\bseed(?:\s+funding)?\s+round\b|种子轮")
"""A seed round named ("Mistral's June 2023 seed round", 种子轮): the round Epoch's name calls Seed."""


def _round_named(name: str) -> str:
    """A SPARQL test that ?roundName is the round ``name`` ("Series A"), as Epoch or a Chinese source
    writes it ("A 轮")."""
    letter = name.rsplit(" ", 1)[-1]
    # case apart ("2019 LP seed (Khosla)" is a seed round as "June 2023 Seed" is)
    return (
        f'(CONTAINS(LCASE(?roundName), "{name.casefold()}") '
        f'|| STRSTARTS(REPLACE(?roundName, " ", ""), "{letter}轮"))'
    )


SPEND_TOTAL = (
    "FILTER EXISTS { ?x aikg:spendCategory ?category1 , ?category2 FILTER(?category1 != ?category2) }"
)
"""A compute-spending figure of several categories at once: Epoch's total (its "Total compute spend")."""
CLOUD_SPEND_WORDS = ("cloud compute", "云算力", "云计算", "云端算力")
"""A company's cloud compute asked as such ("spend on cloud compute", 云算力开支): Epoch's figure of both
cloud categories, R&D and inference (Anthropic's 2.5B of 2024, not its 1.5B for training), as a total is."""

SPEND_TOTAL_WORDS = (
    "total",
    "in total",
    "overall",
    "altogether",
    "all in",
    "总",
    "一共",
    "总共",
    "合计",
    "总计",
)


FUNDING_COUNTED = (
    "FILTER NOT EXISTS { ?x aikg:status aikg:Planned } "
    "OPTIONAL { ?x aikg:datasetConfidence ?level . ?level aikg:confidenceRank ?rank } "
    "FILTER(!BOUND(?rank) || ?rank <= 1)"
)
"""The rounds a total of money raised adds up, as funding-by-company counts them by default: rounds that
happened (not Epoch AI's "late discussions", aikg:Planned) and that their source rates at least Likely."""


_OVERLAPS = "aikg:supersededBy|aikg:possibleDuplicateOf"
"""Epoch's links from a cluster to another that holds the same chips (a later phase, a duplicate row)."""
OVERLAPS_LEFT_OUT = (
    "leaving out rows Epoch marks as superseded or possible duplicates",
    "不计 Epoch 标为已被取代或可能重复的条目",
)
"""What a total over clusters says it left out (English, Chinese)."""
ROUNDS_LEFT_OUT = ("a round listed twice counted once", "重复列出的轮次只计一次")
"""What a total or count of funding rounds says it left out: a round Epoch's CSV lists twice is linked
aikg:possibleDuplicateOf the other row (seeds/epoch/overrides.csv, docs/epoch.md), as for clusters."""


def _overlapping(form: Form) -> bool:
    """Whether a total or count over the form's rows leaves out rows linked as the same thing as another
    row it counts: clusters (Epoch's superseded and duplicate rows) when the totals' defaults apply, and
    funding rounds (a round listed twice) wherever the rounds that happened are counted."""
    if form.carrier == "funding":
        return (form.op in ("sum", "rank") and form.prop == "amount") or (
            form.op in ("count", "rank") and not form.every
        )
    return form.carrier == "cluster"


def _without_overlaps(where: list[str]) -> str:
    """Leave out of a total over clusters each one superseded by, or a possible duplicate of, another
    cluster the same total counts (docs/named-queries.md "Totals over clusters"): the other one meets
    every condition of the total (its own variables; the group a total is per shared: a ranking's
    ?group, the organization or country named)."""
    later = [re.sub(r"\?(?!(?:group|country|org\d+)\b)(\w+)", r"?\1_later", w) for w in where]
    # MINUS, not FILTER NOT EXISTS: the same rows left out (?x, and ?group, are the variables shared),
    # and Oxigraph 0.5 evaluates it once, where it ran NOT EXISTS for every cluster (over 30 s).
    return f"MINUS {{ ?x {_OVERLAPS} ?x_later . {' . '.join(later)} }}"


def _summed(form: Form, where: list[str], prop: str) -> str:
    """The inner body of a total (a sum, or a ranking by one): each thing's value once, and a cluster's
    chips counted kind by kind when the total is of chips; a cluster Epoch marks as superseded by or a
    possible duplicate of another cluster of the total is left out."""
    chips = _counts_chips(form)
    value = _chip_count() if chips else f"?x {prop} ?value"
    overlaps = [_without_overlaps(where)] if _overlapping(form) else []
    body = "\n    ".join(w + " ." for w in where + overlaps + [value])
    return body + (f"\n    VALUES ?named {{ {_chip_values(form)} }}" if chips else "")


def compile_form(form: Form) -> str:
    """The SPARQL query of a form (prefixes included)."""
    if form.op == "role":
        # the role's holder in an organization, or a person's positions (the role asked the other way
        # round: "Soumith Chintala is CTO of which company?")
        role = f"aikg:role aikg:{form.role}" if form.role else "aikg:role ?role"
        return PREFIXES + (
            "SELECT DISTINCT ?person ?position ?organization ?role WHERE {\n"
            f"  VALUES ?entity {{ {' '.join(_iri(e) for e in form.entities)} }}\n"
            "  { ?position aikg:inOrganization ?entity BIND(?entity AS ?organization) }\n"
            "  UNION { ?position aikg:heldBy ?entity BIND(?entity AS ?person) }\n"
            f"  ?position {role} ; aikg:heldBy ?person ; aikg:inOrganization ?organization .\n"
            + (f"  BIND(aikg:{form.role} AS ?role)\n" if form.role else "")
            + "}"
        )
    if form.op == "joint":
        p = _path(form)
        # linked to each thing named, or to a part of it: a round of the suite named ("MLPerf"), a
        # variant of the chip named, a system of that chip (the GB300 NVL72 of "the GB300")
        linked = " ".join(
            f"?node ?link{i} ?to{i} . ?to{i} {PART_OF}? {_iri(e)} ." for i, e in enumerate(form.entities)
        )
        order = "?node"
        if form.prop == "speedup":
            # the claim whose subject is named first ("X 比 Y 快", "X faster than Y"), on the measure
            # asked (per cost, cumulative) or, unasked, on speed: the others after
            subject = " ".join(f"IF(?subject = {_iri(e)}, {i}, " for i, e in enumerate(form.entities))
            subject += f"{len(form.entities)}" + ")" * len(form.entities)
            measures = [w for m, w in SPEEDUP_MEASURES if m != form.measure]
            asked = next((w for m, w in SPEEDUP_MEASURES if m == form.measure), None)
            first = f'IF(CONTAINS(STR(?metric), "{asked}"), 0, 1) ' if asked else ""
            others = " ".join(f'IF(CONTAINS(STR(?metric), "{w}"), 1, 0)' for w in measures)
            linked += " OPTIONAL { ?node aikg:subjectPlatform ?subject }"
            linked += " OPTIONAL { ?node aikg:metric ?metric }"
            if asked and len(form.entities) == 1:
                # one thing's speed-up on a measure: its claims on that measure only, none when it has none
                linked += f' FILTER(CONTAINS(STR(?metric), "{asked}"))'
            order = f"{subject} {first}{others} ?node"
        return PREFIXES + (
            f"SELECT DISTINCT ?node ?value WHERE {{\n  {linked}\n  ?node {p} ?value .\n}}\n"
            f"ORDER BY {order} LIMIT {LIST_LIMIT}"
        )
    if form.op == "founded":
        order = "ASC" if form.ascending else "DESC"
        return PREFIXES + (
            "SELECT DISTINCT ?x ?value WHERE {\n  ?x aikg:foundedIn ?value .\n}\n"
            f"ORDER BY {order}(STR(?value)) LIMIT {form.k}"
        )
    if form.op == "event":
        return PREFIXES + (
            "SELECT DISTINCT ?node ?value WHERE {\n"
            f"  VALUES ?entity {{ {' '.join(_iri(e) for e in form.entities)} }}\n"
            f"  ?node aikg:agent ?entity ; aikg:eventKind aikg:{form.event_kind} ;"
            " (aikg:date|aikg:announcedOn) ?value .\n"
            "}\nORDER BY ?value"
        )
    if form.op == "linked":
        named = form.entities + [o[0] for o in form.orgs]
        if len(named) >= 2:
            node = " ".join(
                f"?node ?link{i} ?to{i} . ?to{i} {PART_OF}? {_iri(e)} ." for i, e in enumerate(named)
            )
        else:
            node = f"VALUES ?node {{ {_iri(named[0])} }}"
        cls = LINKED_CLASSES[form.carrier or ""]
        others = ", ".join(_iri(e) for e in named)
        return PREFIXES + (
            f"SELECT DISTINCT ?node ?value WHERE {{\n  {node}\n  ?node ?p ?value .\n"
            f"  ?value a aikg:{cls} .\n  FILTER(?value NOT IN ({others}))\n}}\n"
            f"ORDER BY ?node LIMIT {LIST_LIMIT}"
        )
    if form.op == "fact" and form.claim is not None and not form.entities:
        tolerance = abs(form.claim) * 0.005
        return PREFIXES + (
            "SELECT DISTINCT ?entity ?value ?node WHERE {\n"
            "  ?entity aikg:speedup ?speedup\n"
            f"  FILTER(ABS(xsd:double(STR(?speedup)) - {form.claim}) <= {tolerance})\n"
            f"  ?entity {_path(form)} ?value BIND(?entity AS ?node)\n"
            "}\nORDER BY ?entity"
        )
    if form.op in ("fact", "compare", "provenance"):
        values = " ".join(_iri(e) for e in form.entities)
        links = "|".join(LINKS)  # one property path: looked up from the entity, not scanned
        p = _path(form) if form.op == "fact" else f"aikg:{form.prop}"
        if form.op != "fact" and form.prop in ALSO and not form.per_token:
            p = f"(aikg:{form.prop}|aikg:{ALSO[form.prop]})"
        if form.op == "provenance":
            return _provenance(form, values, links, p)
        # compared, a thing's own value stands for it: its phases' or runs' values only when it has none
        # (a data center's current power, not its planned phases')
        own = f"FILTER NOT EXISTS {{ ?entity {p} ?own }} " if form.op == "compare" else ""
        parts = " ".join(f"aikg:{c}" for c in form.price_components)
        component = (
            f"  FILTER EXISTS {{ ?node aikg:priceComponent ?component VALUES ?component {{ {parts} }} }}\n"
            if parts and form.op == "fact"
            else ""
        )
        return PREFIXES + (
            "SELECT DISTINCT ?entity ?value ?node WHERE {\n"
            f"  VALUES ?entity {{ {values} }}\n"
            f"  {{ ?entity {p} ?value BIND(?entity AS ?node) }}\n"
            f"  UNION {{ ?node {links} ?entity . ?node {p} ?value {own}}}\n"
            f"  UNION {{ ?mid {links} ?entity . ?mid {links} ?node . ?node {p} ?value {own}}}\n"
            # a figure aikg derives by a rule (HBM per scale-up domain: chips x memory per chip)
            f"  UNION {{ ?node aikg:derivedFor ?entity ; aikg:derivedProperty aikg:{form.prop} ; "
            f"aikg:value ?value {own}}}\n"
            f"{component}{_dated(form)}"
            "}\nORDER BY ?entity"
        )
    assert form.carrier is not None
    c = CARRIERS[form.carrier]
    where = [f"?x a aikg:{c.cls}"] + _filters(form, form.carrier)
    report = f" ?{c.report}" if c.report else ""
    if c.report:
        where.append(f"?x aikg:{c.report} ?{c.report}")
    if form.op == "rank":
        order = "ASC" if form.ascending else "DESC"
        where.append(f"?x {form.group} ?group")
        if form.group == COUNTRY_GROUP:
            # a location that is a country (Epoch's Country column), not the address beside it
            where.append(
                f"VALUES ?group {{ {' '.join(sorted({chr(34) + k + chr(34) for k in COUNTRIES.values()}))} }}"
            )
        if form.threshold and form.prop and not _threshold_prop(form):
            op, v = form.threshold
            where.append(f"?x aikg:{form.prop} ?t FILTER({_key('?t', form.prop)} {op} {v!r})")
        if form.prop in SUMMABLE:
            body = _summed(form, where, f"aikg:{form.prop}")
            return PREFIXES + (
                "SELECT ?group (SUM(?value) AS ?total) (COUNT(DISTINCT ?x) AS ?count) WHERE {\n"
                f"  SELECT DISTINCT ?x ?g ?group ?value WHERE {{\n    {body}\n  }}\n}}\n"
                f"GROUP BY ?group ORDER BY {order}(?total) LIMIT {form.k}"
            )
        if form.defaults and form.carrier == "cluster" or form.carrier == "funding" and _overlapping(form):
            where.append(_without_overlaps(where))  # the clusters (rounds) a total adds, each once
        body = "\n  ".join(w + " ." for w in where)
        return PREFIXES + (
            f"SELECT ?group (COUNT(DISTINCT ?x) AS ?count) WHERE {{\n  {body}\n}}\n"
            f"GROUP BY ?group ORDER BY {order}(?count) LIMIT {form.k}"
        )
    if form.op == "count":
        if form.threshold and form.prop and not _threshold_prop(form):
            op, v = form.threshold
            where.append(f"?x aikg:{form.prop} ?value FILTER({_key('?value', form.prop)} {op} {v!r})")
        if form.defaults and form.carrier == "cluster" or form.carrier == "funding" and _overlapping(form):
            where.append(_without_overlaps(where))  # the clusters (rounds) a total adds, each once
        body = "\n  ".join(w + " ." for w in where)
        if len(form.countries) >= 2:
            return PREFIXES + (
                f"SELECT ?country (COUNT(DISTINCT ?x) AS ?count) WHERE {{\n  {body}\n}}\n"
                "GROUP BY ?country ORDER BY DESC(?count)"
            )
        if form.per or len(form.orgs) >= 2:
            org = "?org0" if form.orgs else "?org"
            if not form.orgs:
                body += f"\n  ?x {c.org[0] if c.org else 'aikg:agent'} ?org ."
            return PREFIXES + (
                f"SELECT {org} (COUNT(DISTINCT ?x) AS ?count) WHERE {{\n  {body}\n}}\n"
                f"GROUP BY {org} ORDER BY DESC(?count) LIMIT 20"
            )
        counted = f"?{c.report}" if form.count_report and c.report else "?x"
        return PREFIXES + f"SELECT (COUNT(DISTINCT {counted}) AS ?count) WHERE {{\n  {body}\n}}"
    p = f"aikg:{form.prop}" if form.prop else ""
    if form.op == "sum":
        # a total of nothing is no answer (SUM of no rows is 0): HAVING leaves no row
        body = _summed(form, where, p)
        # the rows a total adds up, named for what they are ("rounds", "clusters"): a person reads the column
        rows = re.sub(r"[^a-z]+", "_", c.en).strip("_") if c else "items"
        if len(form.countries) >= 2:
            # "does China or the US have more H100-equivalents": each country's total
            return PREFIXES + (
                f"SELECT ?country (SUM(?value) AS ?total) (COUNT(?x) AS ?{rows}) WHERE {{\n"
                f"  SELECT DISTINCT ?x ?g ?country ?value WHERE {{\n    {body}\n  }}\n}}\n"
                "GROUP BY ?country ORDER BY DESC(?total)"
            )
        if len(form.orgs) >= 2:
            # "who raised more, Anthropic or OpenAI": each organization's total
            return PREFIXES + (
                f"SELECT ?org0 (SUM(?value) AS ?total) (COUNT(?x) AS ?{rows}) WHERE {{\n"
                f"  SELECT DISTINCT ?x ?g ?org0 ?value WHERE {{\n    {body}\n  }}\n}}\n"
                "GROUP BY ?org0 ORDER BY DESC(?total)"
            )
        if form.carrier == "funding":
            # the total with the rounds it adds up, each with its date (the rows a person checks it by)
            return PREFIXES + (
                "SELECT ?x ?value ?date ?total WHERE {\n"
                "  { SELECT (SUM(?value) AS ?total) WHERE {\n"
                f"    SELECT DISTINCT ?x ?g ?value WHERE {{\n    {body}\n  }} }} }}\n"
                f"  {{ SELECT DISTINCT ?x ?value WHERE {{\n    {body}\n  }} }}\n"
                "  OPTIONAL { ?x aikg:date ?date }\n"
                f"}}\nORDER BY DESC(?date) LIMIT {LIST_LIMIT}"
            )
        return PREFIXES + (
            f"SELECT (SUM(?value) AS ?total) (COUNT(?x) AS ?{rows}) WHERE {{\n"
            f"  SELECT DISTINCT ?x ?g ?value WHERE {{\n    {body}\n  }}\n}}\nHAVING (COUNT(?x) > 0)"
        )
    if p:
        where.append(f"?x {p} ?value")
    if form.threshold and p and not _threshold_prop(form):
        op, v = form.threshold
        where.append(f"FILTER({_key('?value', form.prop)} {op} {v!r})")
    date = ""
    if form.op == "series" or (c.date and form.op == "list" and not form.dates):
        date = " ?date"
        where.append(f"OPTIONAL {{ ?x aikg:{c.date or 'date'} ?date }}")
    elif c.date and form.op == "list" and form.dates:
        date = " ?date"  # bound by the period's filter: "events from 2019 until 2024" in the order they fell
    body = "\n  ".join(w if w.startswith(("FILTER", "OPTIONAL")) else w + " ." for w in where)
    value = " ?value" if p else ""
    if form.op == "top":
        return PREFIXES + (
            f"SELECT DISTINCT ?x{report}{value} WHERE {{\n  {body}\n}}\n"
            f"ORDER BY {'ASC' if form.ascending else 'DESC'}({_key('?value', form.prop)}) LIMIT {form.k}"
        )
    if form.op == "series":
        # the further figures asked beside ("融了多少钱，估值多少"): each a column of the same rows
        also = [q for q in form.also if q not in (form.prop, "date")]
        for q in also:
            body += f"\n  OPTIONAL {{ ?x aikg:{q} ?{q} }}"
        cols = "".join(f" ?{q}" for q in also)
        first = ""
        if form.carrier == "usage" and not form.paying:
            # paying users' rows after the others: "ChatGPT's weekly users in October 2025" is its 800M
            body += (
                "\n  BIND(IF(EXISTS { ?x rdfs:label ?paidLabel "
                f'FILTER(CONTAINS(LCASE(STR(?paidLabel)), "{PAYING_LABEL}")) }}, 1, 0) AS ?paid)'
            )
            first = "?paid "
        return PREFIXES + (
            f"SELECT DISTINCT ?x{value}{cols}{date} WHERE {{\n  {body}\n}}\n"
            f"ORDER BY {first}DESC(?date) LIMIT {LIST_LIMIT}"
        )
    order = f"DESC({_key('?value', form.prop)})" if p else ("STR(?date) ?x" if form.dates and date else "?x")
    whose = ""
    if form.carrier in FIGURES and c.org and not form.orgs:
        # a company's figures listed with no company named ("超过3000人的记录有哪些公司"): whose each is
        whose = " ?company"
        body += f"\n  OPTIONAL {{ ?x {c.org[0]} ?company }}"
    return PREFIXES + (
        f"SELECT DISTINCT ?x{report}{whose}{value}{date} WHERE {{\n  {body}\n}}\n"
        f"ORDER BY {order} LIMIT {LIST_LIMIT}"
    )


def _dated(form: Form) -> str:
    """For a fact asked of a period, the filter keeping the linked nodes dated within it ("Groq's capacity
    next year": its phase of 2027, not the 54 MW of now; 后年: none); the thing's own value stays."""
    if form.op != "fact" or not form.dates or form.now:
        return ""
    lo, hi = form.dates
    within = (
        f'STR(?when) >= SUBSTR("{lo}", 1, STRLEN(STR(?when))) '
        f'&& STR(?when) <= SUBSTR("{hi}", 1, STRLEN(STR(?when)))'
    )
    return (
        f"  FILTER(?node = ?entity || EXISTS {{ ?node aikg:date|aikg:announcedOn ?when FILTER({within}) }})\n"
    )


def _path(form: Form) -> str:
    """The property path of a fact: its property, the one :data:`ALSO` says the same with, and the
    further properties the question asks for beside it."""
    also = [ALSO[form.prop]] if form.prop in ALSO and not form.per_token else []
    props = [form.prop or "", *also, *form.also]
    props = list(dict.fromkeys(props))
    return f"aikg:{props[0]}" if len(props) == 1 else "(" + "|".join(f"aikg:{p}" for p in props) + ")"


MEMBERS_LIMIT = 2000
"""Most nodes a total's sources are looked up for."""


def members_query(form: Form) -> tuple[str, str | None] | None:
    """For a total, a count or a ranking by either, the query of the nodes it adds up (``?x``), with the
    column that groups them (``?group``, ``?org0``, ``?org``; None for one total), so that each row of
    the answer can cite the sources of the rows it sums; None for other forms."""
    if form.op not in ("sum", "count", "rank") or form.carrier is None:
        return None
    c = CARRIERS[form.carrier]
    where = [f"?x a aikg:{c.cls}"] + _filters(form, form.carrier)
    if c.report:
        where.append(f"?x aikg:{c.report} ?{c.report}")
    key: str | None = None
    if form.op == "rank":
        where.append(f"?x {form.group} ?group")
        key = "group"
    if form.threshold and form.prop and form.op in ("rank", "count"):
        op, v = form.threshold
        where.append(f"?x aikg:{form.prop} ?t FILTER({_key('?t', form.prop)} {op} {v!r})")
    if form.op == "sum" or (form.op == "rank" and form.prop in SUMMABLE):
        body = _summed(form, where, f"aikg:{form.prop}")
    else:
        if form.defaults and form.carrier == "cluster" or form.carrier == "funding" and _overlapping(form):
            where.append(_without_overlaps(where))  # the clusters the count counts, as compile_form
        body = "\n  ".join(w + " ." for w in where)
    if form.op == "count" and (form.per or len(form.orgs) >= 2) and len(form.countries) < 2:
        key = "org0" if form.orgs else "org"
        if not form.orgs:
            body += f"\n  ?x {c.org[0] if c.org else 'aikg:agent'} ?org ."
    if form.op == "sum" and len(form.orgs) >= 2:
        key = "org0"
    if form.op in ("sum", "count") and len(form.countries) >= 2:
        key = "country"  # each country's total or count
    head = f"?{key} ?x" if key else "?x"
    return PREFIXES + f"SELECT DISTINCT {head} WHERE {{\n  {body}\n}}\nLIMIT {MEMBERS_LIMIT}", key


def _provenance(form: Form, values: str, links: str, p: str) -> str:
    """Where a figure of the entities (or, with no property, the entities themselves) comes from: the
    source documents whose graphs state it, how sure each is (the certainty of the node in that graph,
    else the document's default: first-hand, reported, relayed, rumoured, estimated), the dataset's
    own rating of the row (Epoch's Confident, Likely, Speculative ...), the party a source names as
    having reported or relayed it, the report it was stated in, and the links a dataset row cites."""
    # a figure the source qualifies has the qualification's certainty (a cost the source estimates)
    figure = (
        "  OPTIONAL { GRAPH ?g { ?node aikg:qualifiedBy ?q . ?q aikg:onProperty "
        f"aikg:{form.prop} ; aikg:certainty ?figureCertainty }} }}\n"
        if form.prop
        else ""
    )
    order = "?entity ?node ?document"
    if form.prop is None:
        # the graph aikg's rules write (superclasses of its types) is no source of what is said of it
        where = f"  BIND(?entity AS ?node)\n  GRAPH ?g {{ ?node a ?type }} FILTER(?g != <{INFERRED_GRAPH}>)\n"
        value = ""
    else:
        value = " ?value"
        value_filter = ""
        if form.value is not None:
            # the value asked about first, then what other sources state of the same figure
            tolerance = abs(form.value) * 0.005
            near = f"ABS(xsd:double(STR(?value)) - {form.value}) <= {tolerance}"
            order = f"?entity IF({near}, 0, 1) ?node ?document"
            # the value names the figure (which of OpenAI's revenue figures); every source's value of
            # that figure is shown, each with its source (DeepSeek-V3's cost: 5.576M here, 5.39M there)
            value_filter = (
                f"  FILTER EXISTS {{ ?node ?stating ?stated FILTER(?stating != aikg:sourceRow && "
                f"isNumeric(?stated) && ABS(xsd:double(STR(?stated)) - {form.value}) <= {tolerance}) }}\n"
            )
        # a data center's ratings are per link (Microsoft owns Fairwater: confident; OpenAI uses it:
        # speculative), on its aikg:linkRating nodes
        rated = (
            f"  UNION {{ ?entity aikg:linkRating ?node . GRAPH ?g {{ ?node {p} ?value }} }}\n"
            if form.prop == "sourceConfidence"
            else ""
        )
        branches = []
        if form.rated_link:
            # the rating of one link of a data center, to the organizations named
            to = " ".join(_iri(o[0]) for o in form.orgs)
            branches = [
                f"{{ ?entity aikg:linkRating ?node . GRAPH ?g {{ ?node aikg:onProperty "
                f"aikg:{form.rated_link} ; aikg:onValue ?to ; {p} ?value }} VALUES ?to {{ {to} }} }}\n"
            ]
        elif values:
            branches = [
                f"{{ GRAPH ?g {{ ?entity {p} ?value }} BIND(?entity AS ?node) }}\n{rated}",
                # a source document named ("who says the NMediaLink article's 4.2x"): its own graph's
                f"{{ ?entity aikg:namedGraph ?g . GRAPH ?g {{ ?node {p} ?value }} }}\n",
                f"{{ ?node {links} ?entity . GRAPH ?g {{ ?node {p} ?value }} }}\n",
                f"{{ ?mid {links} ?entity . ?mid {links} ?node . GRAPH ?g {{ ?node {p} ?value }} }}\n",
            ]
            if form.value is not None:
                # the value names the statement when the word did not ("TPU v8t 的 9600 颗芯片": its
                # scale-up domain, not a count of chips it has not)
                branches.append(
                    f"{{ GRAPH ?g {{ ?entity ?stating ?value }} BIND(?entity AS ?node) "
                    f"FILTER(?stating != aikg:sourceRow && isNumeric(?value) && {near}) "
                    f"FILTER NOT EXISTS {{ ?entity {p} ?asked }} }}\n"
                )
        if not values and not form.product and form.value is not None:
            # no thing named, only the figure ("was the 276 GPU-hours measured or estimated?"): the
            # nodes that state that value of that property
            branches.append(f"{{ GRAPH ?g {{ ?node {p} ?value }} FILTER({near}) BIND(?node AS ?entity) }}\n")
        products = _usage_products(form)
        if products:
            # usage figures name their product in words ("ChatGPT", "Meta AI assistant"), not as a node
            users = form.period and form.prop == "activeUsers"
            period = f'aikg:activeUsersPeriod "{form.period}" ; ' if users else ""
            names = " || ".join(f'CONTAINS(LCASE(STR(?product)), "{n}")' for n in products)
            branches.append(
                f"{{ ?node a aikg:UsageFigure ; {period}aikg:product ?product FILTER({names}) "
                f"GRAPH ?g {{ ?node {p} ?value }} }}\n"
            )
        where = "  " + "  UNION ".join(branches) + value_filter
    if form.document:
        return PREFIXES + (
            "SELECT DISTINCT ?entity ?node ?document ?publisher ?url ?issued ?certainty WHERE {\n"
            + (
                f"  VALUES ?outlet {{ {values} }}\n  ?entity <{DCTERMS}publisher> ?outlet .\n"
                if form.outlet
                else f"  VALUES ?entity {{ {values} }}\n"
            )
            + "  BIND(?entity AS ?node) BIND(?entity AS ?document)\n"
            f"  OPTIONAL {{ ?document <{DCTERMS}publisher> ?publisher }}\n"
            "  OPTIONAL { ?document <https://schema.org/url> ?url }\n"
            + (
                f"  ?document <{DCTERMS}issued> ?issued\n"
                if form.dated
                else f"  OPTIONAL {{ ?document <{DCTERMS}issued> ?issued }}\n"
            )
            + "  OPTIONAL { ?document aikg:defaultCertainty ?certainty }\n"
            "}\nORDER BY ?entity"
        )
    if form.owned and form.carrier:
        # the organization's nodes of the class named ("Reliance 那个超算集群": its clusters)
        c = CARRIERS[form.carrier]
        path = "|".join(c.org)
        entities = f"  VALUES ?org {{ {values} }}\n  ?entity a aikg:{c.cls} ; ({path}) ?org .\n"
        if form.dates and c.date:
            # "how sure is Epoch about xAI's September 2025 round": its nodes of that period
            entities += f"  {_in_period(form, c, '?entity')}\n"
        if form.round_name and form.carrier == "funding":
            entities += f"  ?entity aikg:roundName ?roundName FILTER({_round_named(form.round_name)})\n"
    else:
        entities = f"  VALUES ?entity {{ {values} }}\n" if values else ""
    return PREFIXES + (
        f"SELECT DISTINCT ?entity ?node{value} ?document ?certainty ?confidence ?rating ?reportedBy"
        " ?relayedBy ?statedIn ?statedBy ?cited ?ratedLink ?ratedValue ?sourceType ?publisher ?url WHERE {\n"
        + entities
        + f"{where}"
        "  ?document aikg:namedGraph ?g .\n"
        f"{figure}"
        "  OPTIONAL { GRAPH ?g { ?node aikg:certainty ?nodeCertainty } }\n"
        "  OPTIONAL { ?document aikg:defaultCertainty ?defaultCertainty }\n"
        "  BIND(COALESCE(?figureCertainty, ?nodeCertainty, ?defaultCertainty) AS ?certainty)\n"
        "  OPTIONAL { GRAPH ?g { ?node aikg:sourceConfidence ?confidence } }\n"
        # the same rating as the term of aikg's one scale of confidence (aikg:Likely, aikg:Uncertain), which
        # the row carries beside Epoch's own word
        "  OPTIONAL { GRAPH ?g { ?node aikg:datasetConfidence ?rating } }\n"
        "  OPTIONAL { GRAPH ?g { ?node aikg:reportedBy ?reportedBy } }\n"
        "  OPTIONAL { GRAPH ?g { ?node aikg:relayedBy ?relayedBy } }\n"
        # the report it was stated in, and that report's outlet (InfoQ's item the relayed claim was in)
        "  OPTIONAL { GRAPH ?g { ?node aikg:statedIn ?statedIn }"
        f" OPTIONAL {{ ?statedIn <{DCTERMS}publisher> ?statedBy }} }}\n"
        "  OPTIONAL { GRAPH ?g { ?node <https://schema.org/url> ?cited } }\n"
        "  OPTIONAL { GRAPH ?g { ?node aikg:onProperty ?ratedLink ; aikg:onValue ?ratedValue } }\n"
        # how the dataset says its row was sourced (Epoch's "Media report", "Company disclosure"), and
        # the document's publisher and link
        "  OPTIONAL { GRAPH ?g { ?node aikg:sourceType ?sourceType } }\n"
        f"  OPTIONAL {{ ?document <{DCTERMS}publisher> ?publisher }}\n"
        "  OPTIONAL { ?document <https://schema.org/url> ?url }\n"
        f"}}\nORDER BY {order} LIMIT 200"
    )


DCTERMS = "http://purl.org/dc/terms/"


def _usage_products(form: Form) -> list[str]:
    """The product names a provenance question about usage figures may mean: the product it names, or
    the name of each thing it names (Meta AI's users are the "Meta AI assistant"'s)."""
    if PROPERTY_CARRIER.get(form.prop or "") != "usage":
        return []
    names = [form.product] if form.product else [e.label for e in form.entities]
    return [n.casefold().replace('"', "") for n in names if n and len(n) >= 3]


# -- saying what was done ----------------------------------------------------------------------------


def _names(cands: Iterable[Candidate]) -> str:
    return ", ".join(c.label for c in cands)


def describe(form: Form) -> str:
    """What the answer did, in words ("existing clusters rated at least Likely, ranked by ...")."""
    zh = form.lang == "zh"
    if form.op == "founded":
        if zh:
            return "组织，按成立时间排序（" + ("从早到晚" if form.ascending else "从晚到早") + "）"
        return "organizations by founding date, " + ("earliest" if form.ascending else "latest") + " first"
    prop = " & ".join(
        PROPERTY_LABELS.get(q, (q, q, ""))[1 if zh else 0] for q in [form.prop or "", *form.also]
    )
    c = CARRIERS.get(form.carrier or "")
    noun = (c.zh if zh else c.en) if c else ""
    if form.count_report and form.op == "count":
        noun = "模型" if zh else "models"
    parts: list[str] = []
    if c and c.status and (form.status or form.op == "top" or form.defaults):
        status = form.status or "Existing"
        parts.append(
            {
                "Existing": "现有" if zh else "existing",
                "Planned": "规划中" if zh else "planned",
                "Decommissioned": "已退役" if zh else "decommissioned",
            }[status]
        )
    if form.kind and form.carrier == "hardware":
        noun = form.kind
    parts.append(noun)
    quals: list[str] = []
    if form.kind and form.carrier in SITES:
        quals.append(("使用 " if zh else "using ") + form.kind)
    if form.closed and form.carrier == "funding":
        quals.append("已完成" if zh else "closed")
    elif form.stage and form.carrier == "funding":
        planned = form.stage == "Planned"
        quals.append(
            ("洽谈中（未完成）" if planned else "未完成") if zh else ("in talks" if planned else "not closed")
        )
    if form.listed and form.carrier == "hardware":
        quals.append("在 Epoch 的硬件列表中" if zh else "in Epoch's hardware list")
    if form.epoch_rows and form.carrier in DATASET_ROWS:
        quals.append("收录于 Epoch 的数据集" if zh else "in Epoch's dataset")
    if form.chips:
        quals.append(("使用 " if zh else "using ") + " / ".join(x.label for x in form.chips))
    if form.orgs:
        role = org_role(form, form.carrier or "")
        by = ("芯片来自 " if zh else "with chips made by ") if form.vendor else ("属于 " if zh else "of ")
        if role:
            en, cn, _ = PROPERTY_LABELS[role]
            by = f"{cn}为 " if zh else f"with {en} "
        subsidiaries = (
            ("（含子公司）" if zh else " (with its subsidiaries)")
            if form.defaults or form.subsidiaries
            else ""
        )
        quals.append(by + " / ".join(o[0].label for o in form.orgs) + subsidiaries)
    if form.line and form.carrier == "hardware":
        quals.append(f"名称含 {form.line}" if zh else f"named {form.line.title()} …")
    if form.series and form.carrier in ("model", "run"):
        quals.append(f"{form.series} 系列" if zh else f"the {form.series} series")
    if form.country or len(form.countries) >= 2:
        quals.append(("位于 " if zh else "in ") + " / ".join(form.countries or [form.country or ""]))
    if form.region:
        quals.append(("位于 " if zh else "in ") + form.region)
    if form.dates:
        lo, hi = form.dates
        if hi == OPEN_END:
            quals.append(f"{lo} 以来" if zh else f"since {lo}")
        elif lo == OPEN_START:
            quals.append(f"截至 {hi}" if zh else f"up to {hi}")
        else:
            quals.append(f"{lo} – {hi}")
    if len(form.products) >= 2:
        quals.append(("产品 " if zh else "for ") + " / ".join(form.products))
        if form.latest:
            quals.append("各自最新的数字" if zh else "each one's newest figure")
    elif form.product:
        quals.append(("产品 " if zh else "for ") + form.product)
    if form.period:
        quals.append(form.period.lower())
    if form.paying:
        quals.append("付费用户" if zh else "paying users")
    if form.run_rate:
        quals.append("年化（run-rate）" if zh else "run-rate figures")
    if form.round_name:
        quals.append(form.round_name)
    if form.division:
        quals.append(f"部门 {form.division}" if zh else f"division {form.division}")
    if form.rounds_of:
        quals.append(
            " / ".join(
                " ".join([cands[0].label, *([name] if name else []), *([f"{p[0]} – {p[1]}"] if p else [])])
                for cands, name, p in form.rounds_of
            )
        )
    if form.spend_category:
        quals.append(form.spend_category)
    if form.spend_total:
        quals.append(
            "各类别合计的总额（Epoch 的 Total）" if zh else "the total over all categories (Epoch's Total)"
        )
    if form.rated_as and c and c.confidence:
        quals.append(("可信度为 " if zh else "rated ") + form.rated_as)
    elif form.confirmed and c and c.confidence:
        quals.append(("可信度为 " if zh else "rated ") + c.confidence[0])
    elif (form.op == "top" or form.defaults or form.reliable) and c and c.confidence:
        quals.append(
            ("可信度至少 Likely" if zh else "rated at least Likely") + f" ({', '.join(c.confidence)})"
        )
    if form.every and form.op == "count" and form.carrier in ("cluster", "funding"):
        quals.append("不论状态的全部记录" if zh else "every row, whatever its status")
    if form.threshold:
        tprop = _threshold_prop(form)
        held = PROPERTY_LABELS.get(tprop, (tprop, tprop, ""))[1 if zh else 0] if tprop else prop
        quals.append(f"{held} {form.threshold[0]} {form.threshold[1]:g}")
    if (
        form.carrier == "funding"
        and not form.stage
        and (
            (form.op in ("sum", "rank") and form.prop == "amount") or (form.op == "count" and not form.every)
        )
    ):
        quals.append(
            "已完成且可信度至少 Likely 的轮次" if zh else "rounds that happened, rated at least Likely"
        )
        quals.append(ROUNDS_LEFT_OUT[1 if zh else 0])  # what _without_overlaps leaves out, said
    if form.carrier == "cluster" and (
        form.op == "sum"
        or (form.op == "rank" and form.prop in SUMMABLE)
        or (form.op in ("count", "rank") and form.defaults)
    ):
        quals.append(OVERLAPS_LEFT_OUT[1 if zh else 0])  # what _summed leaves out, said
    subject = " ".join(p for p in parts if p) + (" " + ", ".join(quals) if quals else "")
    if form.op == "rank":
        by = form.group.rsplit(":", 1)[-1] if form.group else ""
        by = GROUP_NAMES.get(by, (by, by))[1 if zh else 0]
        if form.group == COUNTRY_GROUP:
            by = "国家" if zh else "country"
        what = (
            (f"{prop}合计" if zh else f"total {prop}")
            if form.prop in SUMMABLE
            else ("数量" if zh else "count")
        )
        low = form.ascending
        return (
            f"{subject}按 {by} 分组，按{what}{'从低到高' if low else '从高到低'}（前 {form.k}）"
            if zh
            else f"{subject}, grouped by {by}, ranked by {what} "
            f"({'lowest' if low else 'highest'} first, top {form.k})"
        )
    if form.op == "top":
        order = ("从低到高" if zh else "lowest first") if form.ascending else ""
        return (
            f"{subject}，按{prop}排序{order}（前 {form.k}）"
            if zh
            else f"{subject}, ranked by {prop}{', ' + order if order else ''} (top {form.k})"
        )
    if form.op == "count":
        per = ("按组织分组" if zh else " per organization") if (form.per or len(form.orgs) > 1) else ""
        if len(form.countries) >= 2:
            per = "按国家分组" if zh else " per country"
        return f"统计{subject}的数量{per}" if zh else f"count of {subject}{per}"
    if form.op == "sum":
        each = ("，按组织分列" if zh else ", per organization") if len(form.orgs) >= 2 else ""
        if len(form.countries) >= 2:
            each = "，按国家分列" if zh else ", per country"
        return f"{subject}的{prop}合计{each}" if zh else f"total {prop} of {subject}{each}"
    if form.op == "series":
        return f"{subject}的{prop}，按日期从新到旧" if zh else f"{prop} of {subject}, newest first"
    if form.op == "list":
        return f"列出{subject}" if zh else f"{subject}" + (f", by {prop}" if form.prop else "")
    names = _names(form.entities) or (form.product or "")
    if not names and form.op == "provenance" and form.value is not None:
        names = f"{form.value:g}"  # the figure named by its value alone ("the 276 GPU-hours")
    if form.op == "event":
        said = {
            "IPO": ("上市", "went public"),
            "Pivot": ("转型", "pivoted"),
            "Founding": ("起家", "started out"),
            "Growth": ("起量", "took off"),
        }.get(form.event_kind or "IPO", ("", "had its event"))
        return f"{names} {said[0]}的时间" if zh else f"when {names} {said[1]}"
    if form.op == "linked":
        linked = _names(form.entities + [o[0] for o in form.orgs])
        return f"与 {linked} 关联的{noun}" if zh else f"the {noun} linked to {linked}"
    if form.op == "fact" and form.claim is not None and not form.entities:
        return (
            f"{form.claim:g} 倍提速这一说法的{prop}"
            if zh
            else f"{prop} of the {form.claim:g}× speed-up claim"
        )
    if form.op == "role" and any(PERSON in e.types for e in form.entities):
        what = form.role or ("职务" if zh else "positions")
        return f"{names} 担任的{what}及其机构" if zh else f"{names}'s {what}, and where"
    if form.op == "role":
        return f"{names} 的{form.role}" if zh else f"the {form.role} of {names}"
    if form.op == "compare" and form.ambiguous:
        typed = ", ".join(f"“{a}”" for a in form.ambiguous)
        return f"{typed} 对应多个：{names} 的{prop}" if zh else f"{prop} of {names} (all that {typed} names)"
    if form.op == "compare":
        return f"比较 {names} 的{prop}" if zh else f"{prop} of {names}, compared"
    if form.op == "joint":
        return f"同时关联 {names} 的记录的{prop}" if zh else f"{prop} of what links {names}"
    if form.owned and c:
        names = f"{names} 的{noun}" if zh else f"the {noun} of {names}"
    if form.rated_link:
        link = PROPERTY_LABELS.get(form.rated_link, (form.rated_link, form.rated_link, ""))[1 if zh else 0]
        to = _names(o[0] for o in form.orgs)
        return (
            f"Epoch 对 {names} 的{link}为 {to} 的评级"
            if zh
            else f"Epoch's rating of {to} as the {link} of {names}"
        )
    if form.op == "provenance" and form.document and form.outlet:
        return f"{names} 发布的文章：链接与日期" if zh else f"the documents {names} published: link and date"
    if form.op == "provenance" and form.document:
        return f"{names}：发布方、链接与日期" if zh else f"{names}: its publisher, link and date"
    if form.op == "provenance" and not form.prop:
        return (
            f"关于 {names} 的说法出自哪些来源、由谁报道或转述、可信度如何"
            if zh
            else f"where what is said of {names} comes from, who reported or relayed it, and how sure"
        )
    if form.op == "provenance":
        return (
            f"{names} 的{prop}出自哪些来源、可信度如何"
            if zh
            else f"where the {prop} of {names} comes from, and how sure"
        )
    return f"{names} 的{prop}" if zh else f"{prop} of {names}"
