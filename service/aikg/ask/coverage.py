"""Which words of a question a reading accounts for, and which it does not (issue 44).

A reading is trusted only when it explains the question: every word is a name it linked, a date or
number it read, a word of the vocabulary it was built from (property, class, operator, status,
comparison, country, unit words; a named query's own examples), or a word that asks nothing by itself
(:data:`FILLER`: "how much", "trained", "数据", "多少"). A word left over is a part of the question the
reading did not understand — "company" in "which company raised the most", "entire fleet", a misspelt
"贷宽" — and an answer built without it may be confidently wrong, so aikg abstains instead.

Latin text is read word by word (with light stemming: "trains", "operated"); Chinese text, which has no
spaces, character by character: the known phrases are taken out, and each run of characters left
(without function characters) is one unexplained word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import OSA

from aikg.ask.text import CJK_CHAR, CJK_STOP, STOPWORDS, tokens

_FILLER_EN = """
about actually also any anything ask been currently data did does ever exactly figure figures find give
graph happen have info information know known latest list look money much name number numbers please
recorded say show tell than then there thing things total use used uses using want would yet value values
train trained trains training take took taken make made makes making run runs ran record
kind sort type lot lots amount how what which who when where many
curious wondering quick question roughly approximately approx just hey hi thanks
pre pretraining original full unit according assumed comparison
got behind far
row rows titled
u
need needs needed require requires required
r asking friend
"""
FILLER_EN = frozenset(_FILLER_EN.split()) | {
    # what a plan is meant to do ("when is PORTS-Pike *supposed* to be fully up"): the plan itself, whose
    # date the answer gives (a forecast aikg does not make is asked with "will", "expected to")
    "supposed",
}
"""English words that ask nothing by themselves (the question's shape, generic verbs of the domain, chat's
"u" for you: "newest cambricon chip u have", "r" for are: "how many clusters r there", "asking for a
friend")."""

FILLER_ZH: tuple[str, ...] = (
    # what an organization holds, said of it: its own filter says as much ("智谱名下有几个模型"); 拥有
    # is 有 (has) in writing ("微软拥有多少个集群")
    "名下",
    "拥有",
    # the field a figure is of, said as its side ("研发方面的算力支出", 推理方面: the R&D or the inference
    # spend): the category or property named before it, nothing more
    "方面",
    # figures "made public" (公布的用户数据): the figures themselves, dated as the data dates them
    "公布的",
    "公布了",
    # the end of a month the date reader took ("2025年10月底"): that month, as 年底 is that year
    "月底",
    "月末",
    # chips that make up a topology ("4096 颗芯片组成 3D Torus"): the configuration named, nothing more
    "组成",
    "做成",
    "连成",
    # a figure said as what it comes to ("那次折合多少 GPU 小时"): the figure itself
    "折合",
    # inside one system or rack ("一台 HGX H100 里面装几张卡"): the thing named, nothing more
    "里面",
    "里头",
    # the things named, pointed at again ("H100 和 B200 这两款芯片"): nothing more is asked
    "这两个",
    "这两款",
    "这两家",
    "这两",
    # those several, pointed at ("Epoch 收录的那几家 AI 公司里"): nothing more is asked
    "那几家",
    "这几家",
    "那几个",
    "这几个",
    "那几款",
    "这几款",
    "请问",
    "一下",
    "帮我",
    "帮忙",
    "查查",
    "查一下",
    "麻烦",
    "且",
    "并且",
    "而且",
    "大概",
    "大约",
    "谢谢",
    "告诉",
    "知道",
    "想",
    "多少",
    "多大",
    "多高",
    "多长",
    "多",
    "少",
    "大",
    "高",
    "更",
    "较",
    "比",
    "跟",
    "同",
    "训练",
    "数据",
    "数字",
    "信息",
    "情况",
    "以来",
    "之间",
    "之后",
    "之前",
    "以后",
    "以前",
    "时候",
    "时间",
    "一共",
    "总共",
    "钱",
    "美元",
    "元",
    "万",
    "亿",
    "款",
    "颗",
    "张",
    "卡",
    "次",
    "过",
    "将",
    "这条",
    "条",
    "这项",
    "这几年",
    "几年",
    "这些年",
    "用了",
    "做",
    "如何",
    "怎么样",
    "怎样",
    "哪里",
    "哪儿",
    "哪",
    "里",
    # inside, whole (数据里面, 資料入面 read as 里面): 面 alone is no word left over
    "里面",
    "里头",
    "年",
    "月",
    "日",
    "号",
    "一个",
    "一",
    "差",
    "说法",
    "目前",
    "当前",
    "现在",
    "到底",
    "具体",
    "分别",
    "各",
    "都",
    "还",
    "已经",
    "曾经",
    "能",
    "会",
    "可以",
    "所有",
    "全部",
    "情形",
    "吗",
    "呢",
    "啊",
    "吧",
    "呀",
    "如",
    "何",
    "么",
    "怎",
    # colloquial words that ask nothing by themselves: 啥 (什么), 咋 (怎么), what one has in hand
    # (手里 / 手上 / 手头 / 手中), "per" (每), spent (花了, of a figure the question names), the end of a
    # year the date reader took (截至 2024 年底), a measure word of chips (块), "lower" / "smaller" of a
    # comparison (both values are shown), the product word 助手 (Meta AI 助手: the assistant)
    "啥",
    "咋",
    # "in terms of" (研发方面的算力支出): the category named, nothing more
    "方面",
    # a follow-up put as a case ("如果是日本呢", 要是换成 AMD 呢): what is asked is the thing named
    "如果是",
    "要是",
    "手里",
    "手上",
    "手头",
    "手中",
    "每",
    "花了",
    "花费",
    "花在",
    "年底",
    "年末",
    "块",
    "低",
    "小",
    "助手",
    "出了",
    # put out, released (出过, 发了 哪些卡): the release a date range or a ranking by date applies to
    "出过",
    "发了",
    "发过",
    # 出的 (Cantonese 出嘅): put out, as 出过 ("边几款系 2020 年之前出嘅")
    "出的",
    # the years of a range said with 间 ("2024年到2025年间"), taking part in building (Crusoe 参与建设:
    # the builder's role; 参与 alone, "谷歌参与了 F 轮吗", asks a part the data does not record), "just"
    # of "光 X 就 …" (X alone: the filter X is)
    "年间",
    "期间",
    "参与建设",
    "参与建造",
    "就",
    # a yes or no asked (是不是超过, 是否, 有没有, Cantonese 系咪, 有冇): the figure asked answers it
    # (compose.YES_NO: a bound beside one thing's figure is weighed, not filtered on)
    "是不是",
    "是否",
    "有没有",
    "有无",
    "对不对",
    # a duration's unit and words around a relayed claim (不足 3 天, 这个消息)
    "天",
    "倍",
    "不足",
    "不到",
    "花",
    "相对",
    "出来",
    "这个消息",
    "消息",
    # a run said done (训完, 跑完: the run itself, its figures as stated), "at the time" (当初: the thing's
    # own first event, as "original" in English), the matter pointed at again (这事, 这件事, as 这个消息)
    "训完",
    "跑完",
    "训练完",
    "当初",
    "这事",
    "这件事",
    # a ranking "only over those with the figure" (只看有功耗数据的, 只算有显存数据的): a ranking ranks
    # only what has the figure anyway; 只看 alone ("只看英伟达的") may name a filter, and stays unexplained
    "只看有",
    "只算有",
    "只统计有",
    "只考虑有",
    # 得 between a verb and how it went (发布得最早, 成立得最晚, 涨得更快): the comparison is read from 最,
    # 更 or 比 themselves
    "得最",
    "得更",
    "得比",
)
"""Chinese words and characters that ask nothing by themselves ("多少", "数据", "一共", "年" after a
year the date reader took)."""


@dataclass(frozen=True)
class Vocabulary:
    """Phrases a reading knows (matched as words in Latin text, anywhere in Chinese text)."""

    latin: frozenset[str]
    cjk: tuple[str, ...]

    @classmethod
    def of(cls, phrases: Iterable[str]) -> Vocabulary:
        """The vocabulary of these phrases (case-folded; longest Chinese phrases first)."""
        latin: set[str] = set()
        cjk: set[str] = set()
        for p in phrases:
            p = p.strip().casefold()
            if not p:
                continue
            if CJK_CHAR.search(p):
                cjk.add(p)
            else:
                latin.add(p)
        return cls(frozenset(latin), tuple(sorted(cjk, key=len, reverse=True)))

    @classmethod
    def of_examples(cls, texts: Iterable[str]) -> Vocabulary:
        """The words of a named query's examples: each Latin word, and each pair of neighbouring Chinese
        characters (Chinese has no spaces: a question's run is explained where such pairs cover it)."""
        phrases: list[str] = []
        for text in texts:
            folded = text.casefold()
            phrases += re.findall(r"[a-z][a-z0-9-]*", folded)
            for run in re.findall(f"{CJK_CHAR.pattern}+", folded):
                phrases += [run[i : i + 2] for i in range(len(run) - 1)]
        return cls.of(phrases)

    def __or__(self, other: Vocabulary) -> Vocabulary:
        return Vocabulary(
            self.latin | other.latin, tuple(sorted(set(self.cjk) | set(other.cjk), key=len, reverse=True))
        )


def stems(word: str) -> list[str]:
    """The word and its light stems ("trains" → "train", "operated" → "operate", "rounds" → "round")."""
    w = word.strip("'’-")
    out = [w]
    for suffix, repl in (
        ("ies", "y"),
        ("es", ""),
        ("s", ""),
        ("ed", ""),
        ("ed", "e"),
        ("ing", ""),
        ("ing", "e"),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            out.append(w[: -len(suffix)] + repl)
    if w.endswith("'s") or w.endswith("’s"):
        out.append(w[:-2])
    return out


def _latin_phrases(text: str, vocab: Vocabulary) -> list[tuple[int, int]]:
    """Spans of the vocabulary's multi-word Latin phrases in the text."""
    spans = []
    for p in vocab.latin:
        if " " in p or not p.isalnum():
            start = 0
            while (i := text.find(p, start)) >= 0:
                before = text[i - 1] if i else " "
                after = text[i + len(p)] if i + len(p) < len(text) else " "
                if not (before.isalnum() and p[0].isalnum()) and not (after.isalnum() and p[-1].isalnum()):
                    spans.append((i, i + len(p)))
                start = i + 1
    return spans


def _misspelt(word: str, vocab: Vocabulary) -> bool:
    """True when a word of five letters or more is one edit (two, past seven letters) from a word the
    vocabulary or the fillers know ("trainig", "whcih"): a typo of a known word explains as that word."""
    if len(word) < 5 or not word.isalpha():
        return False
    known = [w for w in vocab.latin if " " not in w and abs(len(w) - len(word)) <= 2] + [
        w for w in FILLER_EN if abs(len(w) - len(word)) <= 2
    ]
    cutoff = 2 if len(word) > 7 else 1
    return process.extractOne(word, known, scorer=OSA.distance, score_cutoff=cutoff) is not None


def unexplained(text: str, taken: Iterable[tuple[int, int]], vocab: Vocabulary) -> list[str]:
    """The words of ``text`` (folded) outside the ``taken`` spans that neither ``vocab`` nor the
    fillers explain, in order; neighbouring Chinese characters left over are one word."""
    spans = list(taken) + _latin_phrases(text, vocab)
    for p in (*vocab.cjk, *FILLER_ZH):
        start = 0
        while (i := text.find(p, start)) >= 0:
            spans.append((i, i + len(p)))
            start = i + 1
    covered = bytearray(len(text))
    for s, e in spans:
        covered[max(0, s) : max(0, e)] = b"\1" * (min(len(text), e) - max(0, s))
    out: list[tuple[int, int, str]] = []
    for t in tokens(text):
        if t.text.startswith("⟨") or all(covered[t.start : t.end]):
            continue
        if t.cjk:
            if t.text in CJK_STOP:
                continue
            if out and CJK_CHAR.match(out[-1][2]) and out[-1][1] == t.start:
                s0, _, word = out.pop()
                out.append((s0, t.end, word + t.text))
            else:
                out.append((t.start, t.end, t.text))
            continue
        if t.text[0].isdigit() or t.text in STOPWORDS:
            continue
        if any(s in vocab.latin or s in FILLER_EN or s in STOPWORDS for s in stems(t.text)):
            continue
        if _misspelt(t.text, vocab):
            continue
        out.append((t.start, t.end, t.text))
    return [w for _, _, w in out]


# -- which words left over carry meaning (issue 44: calibrated tolerance) ---------------------------------

_UNAPPLIED_EN = """
average averages avg mean median mode typical sum sums combined cumulative aggregate
per capita ratio ratios share shares percent percentage proportion fraction rate rates growth grew grow
growing increase increased decrease decreased decline change changed changes delta difference gap
excluding exclude excluded except besides outside without not non no none neither nor never minus
other others else instead rather
only entire entirely whole exclusively solely purely mainly mostly partly partially fully majority
second third fourth fifth sixth seventh eighth ninth tenth penultimate bottom
previous prior former old older oldest new newer newest next upcoming future forecast projected
expected estimate estimated planned cheapest cheaper cheap expensive pricier efficient efficiency
minimum minimal min
why
"""
UNAPPLIED_EN = frozenset(_UNAPPLIED_EN.split())
"""English operator words the composer never applies (an aggregate, a ratio, an exclusion, an ordinal, a
qualifier of time or of price, a reason asked — "why"): a question that says one and is read without it is
another question."""

UNAPPLIED_ZH: tuple[str, ...] = (
    "平均",
    "均",
    "中位",
    "合计",
    "累计",
    "人均",
    "每",
    "比例",
    "占比",
    "份额",
    "百分",
    "增长",
    "增速",
    "增幅",
    "下降",
    "减少",
    "差距",
    "除",
    "以外",
    "之外",
    "不含",
    "不包括",
    "不算",
    "排除",
    "剔除",
    "非",
    "不是",
    "没有",
    "只",
    "仅",
    "唯一",
    "全部",
    "第二",
    "第三",
    "倒数",
    "上一",
    "下一",
    "前代",
    "新",
    "旧",
    "老款",
    "未来",
    "预计",
    "便宜",
    "贵",
    "二手",
    "租",
    "效率",
)
"""Chinese operator words and characters the composer never applies (平均, 除了 … 以外, 每, 第二, 二手)."""


def operators(folded: str) -> list[str]:
    """The Latin words of the question that are operators the composer never applies
    (:data:`UNAPPLIED_EN`: "excluding", "average", "second"), as written, in order: a named query applies
    none either, unless its own examples say the word (checked by the caller)."""
    out: list[str] = []
    # a hyphenated word is one word ("second-hand" is no ordinal); a stem shorter than five letters is
    # another word ("news" is no "new")
    for w in re.findall(r"[a-z]+(?:-[a-z]+)*", folded):
        if w not in out and any(s in UNAPPLIED_EN for s in stems(w) if s == w or len(s) >= 5):
            out.append(w)
    return out


RATIO = re.compile(
    r"(?:\bper\s+|每\s*)(?:watts?\b|w\b|kw\b|kilowatts?\b|dollars?\b|usd\b|\$|employees?\b|staff\b|capita\b"
    r"|persons?\b|heads?\b|瓦|千瓦|美元|美金|块钱|元|员工|人)|人均"
)
"""A ratio to a quantity no figure of aikg is divided by ("memory *per watt*", "每美元带宽", "人均收入"):
the answer without it (the memory, the bandwidth, the revenue) would be another question's."""


def ratios(folded: str) -> list[str]:
    """The ratios of :data:`RATIO` the question asks for, as written."""
    return [m.group().strip() for m in RATIO.finditer(folded)]


_ARGUMENT_AFTER = """
in by per for from within without among across outside excluding except
"""
ARGUMENT_AFTER = frozenset(_ARGUMENT_AFTER.split())
"""Words after which a word is the argument of a restriction or a grouping ("by province", "in the
cloud"): never a word that asks nothing."""
_ARTICLES = frozenset({"the", "a", "an", "its", "their", "each", "every"})
_LATIN_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")


@dataclass(frozen=True)
class Domain:
    """The words of the whole domain: the graph's names, the ontology's labels, the lexicon and every
    named query's title and examples (Latin words; Chinese as pairs of characters), and its content words
    (classes, properties, units, places, names) a modifier may stand before."""

    latin: frozenset[str]
    cjk: frozenset[str]
    content: frozenset[str]
    cjk_content: tuple[str, ...]
    lexicon: frozenset[str]
    """The Latin words of the vocabulary (not of the graph's names)."""
    cjk_names: frozenset[str] = frozenset()
    """The Chinese runs of the graph's names, whole ("配备升级版GPU的平台": 配备升级版, 的平台)."""

    @classmethod
    def of(cls, names: Iterable[str], words: Iterable[str], content: Iterable[str]) -> Domain:
        """The domain of the graph's ``names`` and the vocabulary's ``words`` (``content``: the words
        that name things: classes, properties, units, places)."""
        latin: set[str] = set()
        cjk: set[str] = set()
        content_latin: set[str] = set()
        content_cjk: set[str] = set()
        lexicon: set[str] = set()
        cjk_names: set[str] = set()
        for phrases, into, into_cjk in (
            (names, latin, cjk),
            (words, lexicon, cjk),
            (content, content_latin, content_cjk),
        ):
            for p in phrases:
                folded = p.casefold()
                # the words of a name, not the parts of its compounds ("wise" of "layer-wise")
                words_of = folded.split() if into is latin else re.findall(r"[a-z][a-z0-9]*", folded)
                into.update(
                    w for t in words_of for w in re.findall(r"^[a-z][a-z0-9]*$", t.strip("()[],.:;'\""))
                )
                if into is not latin:
                    into.update(w for w in re.findall(r"[a-z][a-z0-9]*", folded) if len(w) >= 2)
                for run in re.findall(f"{CJK_CHAR.pattern}+", folded):
                    if into_cjk is content_cjk:
                        into_cjk.add(run)
                    if into is latin:
                        cjk_names.add(run)
                    cjk.update(run[i : i + 2] for i in range(len(run) - 1))
        lexicon |= content_latin
        content_latin -= STOPWORDS
        return cls(
            frozenset(latin | lexicon),
            frozenset(cjk),
            frozenset(content_latin),
            tuple(sorted(content_cjk, key=len)),
            frozenset(lexicon),
            frozenset(cjk_names),
        )

    def names_part(self, word: str) -> bool:
        """True when a Chinese word of three characters or more is part of a name or alias of the graph
        ("升级版" of "配备升级版GPU的平台"): the question names a thing the reading did not link."""
        return len(word) >= 3 and bool(CJK_CHAR.match(word)) and any(word in n for n in self.cjk_names)


def meaning(folded: str, word: str, domain: Domain, taken: Iterable[tuple[int, int]] = ()) -> str | None:
    """Why a word the reading did not use may change the answer, or None when it asks nothing a
    knowledge graph of this domain could use (an analyst's filler, slang, a typo of a common word):

    - ``name``: a model number (letters and digits) no name of the graph has, a part of a name the
      reading linked ("海光*深*算一号"), the subject of the question ("*沐曦*有几款芯片", "how many chips
      does *metax* make"): in Chinese no capital letter says it is a name;
    - ``operator``: an operator the composer does not apply (:data:`UNAPPLIED_EN`, :data:`UNAPPLIED_ZH`)
      or a superlative ("cheapest");
    - ``domain``: a word of the domain's names, labels, lexicon or named queries, or a typo of a word
      that names a class, property, unit or place (a typo of the composer's own words explains as
      that word before: :func:`unexplained`);
    - ``argument``: the word stands after a preposition ("by province", "in the cloud");
    - ``predicate``: it is the verb of the question, right after its subject ("has Intel
      *discontinued*", "英特尔*停产*了"): the relation asked, which the reading replaced by its own;
    - ``modifier``: it stands right before a content word or a name ("retail price", "二手价格")."""
    spans = list(taken)
    if CJK_CHAR.match(word):
        if any(op in word for op in UNAPPLIED_ZH):
            return "operator"
        if any(word[i : i + 2] in domain.cjk for i in range(len(word) - 1)):
            return "domain"
        start = 0
        while (i := folded.find(word, start)) >= 0:
            start = i + 1
            end = i + len(word)
            if any(e == i or s == end for s, e in spans) or _cjk_subject(folded, i, end):
                return "name"  # part of a name linked ("海光*深*算"), or the subject ("*沐曦*有几款")
            if not _cjk_chat(folded, i, end):
                return "content"  # inside a clause ("推理*速度*最快", "*利*用率"), not chat around it
            verb = folded[i + len(word) : i + len(word) + 2]
            if verb[:1] in ("了", "过") or (verb[:1] in CJK_STOP and verb[1:] in ("了", "过")):
                return "predicate"  # a verb ("停产了", "参与了"): the relation asked, not the reading's
            after = folded[i + len(word) :].lstrip()
            if any(after.startswith(c) for c in domain.cjk_content) or _starts_span(
                folded, i + len(word), spans
            ):
                return "modifier"
        return None
    if _swapped(word):
        return None  # "teh", "dose": two letters of a function word swapped
    if any(c.isdigit() for c in word):
        return "name"  # a model number the graph does not hold ("H300", "Blackwell Ultra 2")
    forms = stems(word)
    if any(s in UNAPPLIED_EN for s in forms) or (len(word) >= 7 and word.endswith("est")):
        return "operator"
    if any(s in domain.latin for s in forms if s == word or len(s) >= 4) or _near(word, domain.content):
        return "domain"
    for m in re.finditer(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", folded):
        before = [t for t in _LATIN_WORD.findall(folded[: m.start()])]
        while before and before[-1] in _ARTICLES:
            before.pop()
        if before and before[-1] in ARGUMENT_AFTER:
            return "argument"
        if _after_subject(folded, m.start(), spans):
            return "predicate"
        if before and before[-1] in ("does", "did", "do"):
            return "name"  # the subject of "does *metax* make": a name the graph does not hold
        if before and before[-1] in _MEASURED_AFTER:
            return "argument"  # what is measured: "uses the most *water*"
        rest = folded[m.end() :]
        nxt = re.match(r"[ \t]*([a-z0-9]+)", rest)
        if nxt and (nxt.group(1) in domain.content or _starts_span(folded, m.end() + nxt.start(1), spans)):
            return "modifier"
    return None


_AUXILIARIES = frozenset(
    ["has", "have", "had", "did", "does", "do", "is", "are", "was", "were", "will", "would", "can", "could"]
)


def _after_subject(folded: str, at: int, spans: list[tuple[int, int]]) -> bool:
    """True when the word at ``at`` follows a name that follows an auxiliary ("has Intel *discontinued*",
    "did AMD *put* out"): it is the verb of the question, the relation it asks for."""
    for s, e in spans:
        if not folded[e:at].strip() and e <= at:
            before = _LATIN_WORD.findall(folded[:s])
            return bool(before) and before[-1] in _AUXILIARIES
    return False


_MEASURED_AFTER = frozenset(
    [
        "most",
        "least",
        "fewest",
        "highest",
        "lowest",
        "largest",
        "biggest",
        "smallest",
        "top",
        "more",
        "less",
        "fewer",
    ]
)
_CLAUSE_EDGE = " \t,.?!;:，。？！、；：…~～"
_PARTICLES = "吗呢吧啊呀嘛啦哈哦喔么咧"
_FILLER_CHARS = frozenset(f for f in FILLER_ZH if len(f) == 1) | frozenset(_PARTICLES)


def _cjk_chat(folded: str, start: int, end: int) -> bool:
    """True when a Chinese word stands where chat does: at an edge of a clause (the start or end of
    the question, beside punctuation or a final particle: "*话*说", "，*求告知*", "*厉害点儿*"), or, one
    character long, beside a filler character ("里*面*", "大*致*", "咋*样*"). A word of two characters
    or more inside a clause, or one character beside a word of the domain, is part of what is asked."""
    before = folded[:start].rstrip(" \t")
    after = folded[end:].lstrip(" \t")
    if not before or before[-1] in _CLAUSE_EDGE or not after or after[0] in _CLAUSE_EDGE + _PARTICLES:
        return True
    if end - start > 1:
        return False
    return folded[start - 1] in _FILLER_CHARS or folded[end : end + 1] in _FILLER_CHARS


def _cjk_subject(folded: str, start: int, end: int) -> bool:
    """True when a Chinese word opens the question and another character follows it ("*沐曦*有几款芯片",
    not "*话*说", "*顺便问问*，"): the subject, a name the reading does not know."""
    if folded[:start].strip(" \t,.?!，。？！、"):
        return False
    nxt = folded[end : end + 1]
    return bool(CJK_CHAR.match(nxt)) and nxt != "说"


def _swapped(word: str) -> bool:
    """True when swapping two neighbouring letters of the word gives a function word or a filler."""
    for i in range(len(word) - 1):
        w = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        if w != word and (w in STOPWORDS or w in FILLER_EN):
            return True
    return False


def _starts_span(folded: str, at: int, spans: list[tuple[int, int]]) -> bool:
    while at < len(folded) and folded[at] in " \t":
        at += 1
    return any(s == at for s, _ in spans)


def _near(word: str, known: frozenset[str]) -> bool:
    """True when a word of five letters or more is one edit (two, past seven letters) from a known one
    with the same first letter (a typo keeps it: "ahead" is no "head")."""
    if len(word) < 5 or not word.isalpha():
        return False
    cutoff = 2 if len(word) > 7 else 1
    near = [w for w in known if abs(len(w) - len(word)) <= cutoff and w[:1] == word[:1]]
    return process.extractOne(word, near, scorer=OSA.distance, score_cutoff=cutoff) is not None
