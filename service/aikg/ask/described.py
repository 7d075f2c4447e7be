"""Statements of the source documents found by the words of their description (issue 44).

A question may name what a source says not by an entity but by the words of the statement itself: "who
relayed that a model was pre-trained in under 3 days", "4096 颗芯片组成 6D Torus 最坏只要 12 跳是谁说的",
"which article says NVFP4 training is 1.4x faster". The graph holds each such statement as a node of the
document's graph (a claim, a training run, a topology, a deal, a rumour, a cited report) with its names,
descriptions, figures and the sentences quoted as its evidence. :class:`Statements` keeps those words per
node and finds the node whose words the question uses most, weighing each word by how few nodes say it
(rare words — 不足, torus, 975b — tell more than 训练 or platform). No node is chosen when two are nearly as
good, or when the question names a thing the node neither is nor links to ("who relayed that *GPT-5* was
pre-trained in under 3 days": the relayed claim is of an unnamed model).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from aikg.ask.text import CJK_STOP, STOPWORDS
from aikg.ask.words import OPERATOR_WORDS, PUBLISHER_WORDS

AIKG = "https://w3id.org/aikg/ontology#"
SOURCES = "https://w3id.org/aikg/graph/sources/"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_ALT = "http://www.w3.org/2004/02/skos/core#altLabel"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

STATEMENTS_QUERY = (
    f"SELECT ?x ?t ?o ?own WHERE {{ ?doc <{AIKG}namedGraph> ?g"
    f' FILTER(STRSTARTS(STR(?g), "{SOURCES}"))'
    f" GRAPH ?g {{ ?x <{RDFS_LABEL}> ?name"
    f" FILTER NOT EXISTS {{ ?x a <{AIKG}Quotation> }} }}"
    f" {{ GRAPH ?g {{ ?x ?p ?t FILTER(isLiteral(?t) && ?p != <{AIKG}sourceRow>) }} BIND(true AS ?own) }}"
    f" UNION {{ GRAPH ?g {{ ?q <{AIKG}evidenceFor> ?x ; <{AIKG}quotedText> ?t }} }}"
    f" UNION {{ GRAPH ?g {{ ?x ?p ?o FILTER(isIRI(?o) && ?p != <{RDF_TYPE}>) }}"
    f" OPTIONAL {{ ?o <{RDFS_LABEL}>|<{SKOS_ALT}> ?t }} }}"
    f" UNION {{ GRAPH ?g {{ ?o ?p ?x FILTER(?p != <{AIKG}evidenceFor>) }} }} }}"
)
"""Each node a source document's graph names (a label of its own, not a quotation): its literals, the
sentences quoted as its evidence, the names of the things it links to, and every node linked to it either
way (the things a question may name beside it)."""

ASKED = frozenset(
    (
        "who",
        "whom",
        "whose",
        "says",
        "said",
        "say",
        "reported",
        "reports",
        "report",
        "reporter",
        "relayed",
        "relay",
        "relays",
        "passed",
        "put",
        "out",
        "claim",
        "claims",
        "news",
        "rumour",
        "rumours",
        "rumor",
        "rumors",
        "source",
        "sources",
        "article",
        "articles",
        "outlet",
        "outlets",
        "media",
        "link",
        "url",
        "published",
        "publish",
        "publishes",
        "publisher",
        "first",
        "hand",
        "firsthand",
        "second",
        "how",
        "sure",
        "certain",
        "reliable",
        "confident",
        "confirmed",
        "true",
        "real",
        "measured",
        "estimated",
        "estimate",
        "which",
        "what",
        "where",
        "when",
        "from",
        "come",
        "comes",
        "came",
        "carried",
        "carry",
        "originally",
    )
)
"""English words that ask about a statement's source, never words of the statement itself."""
ASKED_ZH = frozenset("谁吗呢么哪啥")
"""Chinese characters of the question's own (who, which, a question's end): no pair holding one is a word
of the statement."""
ASKED_PAIRS = frozenset(
    (
        "发布",
        "发的",
        "报道",
        "报的",
        "来源",
        "出自",
        "文章",
        "媒体",
        "转述",
        "转发",
        "爆料",
        "消息",
        "传闻",
        "靠谱",
        "可信",
        "链接",
        "网址",
        "快讯",
        "说法",
        "结论",
        "报告",
        "这个",
        "这条",
        "那篇",
        "这篇",
        "是说",
        "确定",
        "定了",
        "哪份",
        "报出",
        "放出",
    )
)
"""Pairs of Chinese characters that ask about a statement's source (or point at it), never its words."""
LEAST = 6.0
"""Least weight (the sum of the words' rarity, ln of nodes over nodes saying it) a node's words the
question uses must reach: two rare words, or three common ones."""
TOLD = 0.5
"""What a word weighs, of its rarity, when only a node's quotations or linked names say it."""
MOST = 3
"""Most nodes found alike: more means the question's words fit no one statement."""
MARGIN = 1.3
"""How much more the best node must weigh than the next one: statements alike (the 3.2x and the 1.9x
claims share platform, Llama 3.1 405B, 512 GPUs) are told apart only by a word one of them has."""

SOURCE_WORDS = (
    *OPERATOR_WORDS["provenance"],
    *PUBLISHER_WORDS,
    "which article",
    "which report",
    "what report",
    "url",
    "link",
    "链接",
    "网址",
    "哪篇",
    "哪份",
    "哪家媒体",
    "哪个媒体",
    "who passed on",
    "who put out",
    "carried the news",
    "转发",
)
"""Words asking where a statement comes from: who said, reported or relayed it, in which document, how
sure (the composer's provenance words and the publisher's)."""
_SOURCE = re.compile(
    "|".join(
        rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])" if re.search(r"[a-z]", w) else re.escape(w)
        for w in sorted(set(SOURCE_WORDS), key=len, reverse=True)
    )
)


_PARTY = re.compile(r"\bwho\b|\bwhich\b|\burl\b|\blink\b|谁|哪家|哪篇|哪份|哪个媒体|哪一家|链接|网址|原文")


_DOCUMENT = re.compile(r"\b(?:article|report|post|story|piece|paper)s?\b|篇|文章|报道|报告|快讯|白皮书")


def names_document(folded: str) -> bool:
    """True when the question names a document (an article, a report): a report a source cites may be
    what it asks about."""
    return _DOCUMENT.search(folded) is not None


def asking(word: str) -> bool:
    """True when a word of the question asks about a statement's source (:data:`ASKED`, a pair of
    :data:`ASKED_PAIRS`, a character of :data:`ASKED_ZH`, 份 of 哪份): no word of the statement."""
    w = word.casefold()
    if w in ASKED or _stem(w) in ASKED or w in {"putting", "into", "out"}:
        return True
    if _CJK_RUN.fullmatch(w):
        pairs = [w[i : i + 2] for i in range(len(w) - 1)]
        if len(w) == 1:
            return w in ASKED_ZH or w == "份"
        return all(p in ASKED_PAIRS for p in pairs)
    return False


def asks_party(folded: str) -> bool:
    """True when the question asks who or which document ("who reported", 哪家媒体, the URL): the party
    or document of a statement, not the certainty of one of its figures."""
    return _PARTY.search(folded) is not None


def has_words(folded: str, words: Iterable[str]) -> bool:
    """True when the question holds one of ``words``: a Latin word whole, Chinese anywhere (as the
    composer reads its words)."""
    for w in words:
        if w in folded and (
            not re.search(r"[a-z]", w) or re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", folded)
        ):
            return True
    return False


def asks_source(folded: str) -> bool:
    """True when the question asks where something comes from (:data:`SOURCE_WORDS`)."""
    return _SOURCE.search(folded) is not None


def source_words(folded: str) -> list[str]:
    """The words of the question that ask where something comes from (:data:`SOURCE_WORDS`)."""
    return [m.group() for m in _SOURCE.finditer(folded)]


_LATIN = re.compile(r"[a-z]+(?:\d+[a-z]*)*|\d+(?:\.\d+)?")
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def _stem(word: str) -> str:
    for end in ("ing", "ed", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 4:
            return word[: -len(end)]
    return word


def words_of(text: str, *, question: bool = False) -> set[str]:
    """The words of a text as the finder compares them: Latin words (stemmed) and numbers (without the
    commas of thousands: 4,096 is 4096), and each pair of Chinese characters in a row; in a question,
    not the words that ask about a source (:data:`ASKED`) or pairs with a function character."""
    t = re.sub(r"(?<=\d),(?=\d{3})", "", text.casefold())
    found = {
        w if w[0].isdigit() else _stem(w)
        for w in _LATIN.findall(t)
        if not (question and (w in STOPWORDS or w in ASKED)) and (len(w) >= 3 or w[0].isdigit())
    }
    for run in _CJK_RUN.findall(t):
        for a, b in zip(run, run[1:], strict=False):
            if question and (
                a in CJK_STOP or b in CJK_STOP or a in ASKED_ZH or b in ASKED_ZH or a + b in ASKED_PAIRS
            ):
                continue
            found.add(a + b)
    return found


@dataclass(frozen=True, slots=True)
class Found:
    """The node a question describes, how much its words weigh, and the words it matched."""

    iri: str
    weight: float
    words: tuple[str, ...]


class Statements:
    """The words of every node the source documents' graphs name, to find one by its description."""

    def __init__(self, rows: Iterable[tuple[str, str | None, str | None, bool]]) -> None:
        """``rows``: (node, a text of it or None, a node linked to it or None, whether the text is the
        node's own — a name, title, description, figure — rather than a quotation or a linked name)."""
        own: dict[str, list[str]] = {}
        told: dict[str, list[str]] = {}
        self.linked: dict[str, set[str]] = {}
        for node, text, other, mine in rows:
            own.setdefault(node, [])
            told.setdefault(node, [])
            self.linked.setdefault(node, set())
            if text:
                (own if mine else told)[node].append(text)
            if other:
                self.linked[node].add(other)
        self.own = {node: words_of(" ".join(ts)) for node, ts in own.items()}
        self.words = {node: self.own[node] | words_of(" ".join(told[node])) for node in own}
        counts = Counter(w for ws in self.words.values() for w in ws)
        n = max(1, len(self.words))
        self.rarity: Mapping[str, float] = {w: math.log(n / c) for w, c in counts.items()}

    def weigh(self, folded: str) -> list[tuple[float, str, frozenset[str]]]:
        """Every node the question shares words with, heaviest first: each word weighs its rarity, half of
        it when only the node's quotations or linked names say it (a sentence quoted for several nodes)."""
        asked = words_of(folded, question=True)
        scored = []
        for node, ws in self.words.items():
            common = asked & ws
            if common:
                weight = sum(self.rarity[w] * (1.0 if w in self.own[node] else TOLD) for w in common)
                scored.append((weight, node, frozenset(common)))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return scored

    def find(self, folded: str, named: Iterable[tuple[str, Iterable[str]]] = ()) -> list[Found]:
        """The nodes whose words the question uses most: the heaviest and those nearly as heavy
        (:data:`MARGIN`), at most :data:`MOST` of them (statements of one passage: a relayed claim's model
        and its run); none when the heaviest is under :data:`LEAST`, when more are alike, or when a thing
        the question names (each given as its words and the IRIs it may be) is neither the node, nor linked
        to it, nor said by its words."""
        scored = self.weigh(folded)
        if not scored or scored[0][0] < LEAST:
            return []
        # a thing named is the node, linked to it, or said by its words (Google of the TPU v9 rumour);
        # a bare number linked as a name ("3.5": GPT-3.5) is a figure, checked as one
        things = [
            (words_of(text), set(iris)) for text, iris in named if not re.fullmatch(r"[\d.,\s%]+", text)
        ]
        # every figure the question gives is one the statement says ("a $2 billion Series B" is not
        # Groq's 3.5 亿美元 A 轮), and every thing it names is the statement or linked to it
        numbers = {w for w in words_of(folded, question=True) if w[0].isdigit()}
        alike = [s for s in scored if s[0] * MARGIN >= scored[0][0] and numbers <= self.words[s[1]]]
        alike = [
            s
            for s in alike
            if all(
                iris & (self.linked.get(s[1], set()) | {s[1]}) or ws <= self.words[s[1]]
                for ws, iris in things
            )
        ]
        if not alike or alike[0][1] != scored[0][1] or len(alike) > MOST:
            return []
        # the other nodes of the same statement: linked to the heaviest and weighing half of it (the
        # relayed pre-training's model and run, each holding part of what the source says)
        best, taken = alike[0][1], {s[1] for s in alike}
        near = self.linked.get(best, set())
        alike += [
            s
            for s in scored
            if s[1] not in taken and s[1] in near and s[0] * 2 >= scored[0][0] and numbers <= self.words[s[1]]
        ][: MOST - len(alike)]
        return [Found(node, round(weight, 2), tuple(sorted(common))) for weight, node, common in alike]
