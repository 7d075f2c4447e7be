"""The forms a question is read in: folded text, tokens with their offsets, language, stopwords.

Everything downstream (dates, names, properties, features) works on the folded text, so offsets found by
one step mean the same characters to the next.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from aikg.ask.words import CHIP_LINE_NAMES, PLACE_NAMES
from aikg.lookup.hanzi import simplified

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_CHAR = re.compile(f"[{_CJK}]")
_LATIN = "a-z0-9\u00df-\u00f6\u00f8-\u024f"
"""Letters and digits of a Latin word, accented ones too ("Jülich", "Fênix" are one word each)."""
_TOKEN = re.compile(rf"[{_LATIN}]+(?:\.[{_LATIN}]+)*|[{_CJK}]|⟨[a-z]⟩")

ENTITY, DATE, PROPERTY = "⟨e⟩", "⟨d⟩", "⟨p⟩"
"""Placeholders that stand for a linked name, a date and a property word in masked text."""

_STOPWORDS = """
a an the of in on at for to by with and or is are was were be been being what which who whom whose where
when how many much does do did has have had me my show list tell give about s all only that this these
those it its from between per each every any other same as like than there their them they i we you your
please can could would will should some one ones get find see
"""
STOPWORDS = frozenset(_STOPWORDS.split())
"""English function words: never the start or end of a name to link."""

CJK_STOP = frozenset("的了是有哪些什么吗呢和与及在用把被对从到给让我你他她它们个这那谁")
"""Chinese function characters: a Chinese name to link never starts or ends with one."""


def fold(text: str) -> str:
    """NFKC and case-folded: full-width forms, case and compatibility characters made one; Chinese
    written in traditional characters read as simplified (:func:`simplified`), and the Chinese names of
    places the data writes in English read as those English words (:data:`~aikg.ask.words.PLACE_NAMES`)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if not CJK_CHAR.search(folded):
        return folded
    folded = _PLACE.sub(lambda m: f" {PLACE_NAMES[m.group()]} ", mandarin(simplified(folded)))
    folded = _LINE_NUMBER.sub(lambda m: f" {CHIP_LINE_NAMES[m.group(1)]} ", folded)
    folded = _PHASE.sub(lambda m: f" phase {_CN_DIGITS.get(m.group(1), m.group(1))} ", folded)
    return _CN_NUMERAL.sub(_arabic, folded)


_LINE_NUMBER = re.compile(f"({'|'.join(CHIP_LINE_NAMES)})\\s*(?=\\d)")
"""A chip line's Chinese name before a model number ("昇腾310", "昇騰 920"): read as the line's English
word ("ascend 310"), as the labels write it (Huawei Ascend 310); a number alone links nothing."""

_PHASE = re.compile(r"第?([一二三四五六七八九]|\d)期")
"""A phase of a cluster or site ("Alps 二期", "第一期"): read "phase 2", as Epoch's names write it."""


_SIDE = "(?<![旁这那两一左右东西南北身周外里上下前后海岸天无半])"
"""边 after a word of place or side (旁边, 这边, 两边, 海边: "nearby", "this side") is Mandarin's 边, not
Cantonese's "which"."""
_CANTONESE_MARK = re.compile(
    "[嘅嘢咗喺佢哋啲冇唔咩乜畀㗎嗰睇咁啩喎嘞囉嚟]|几多|几时|而家|点样|点解|旧年|琴日|啱啱|系咪|入面|加埋"
    # a follow-up's Cantonese: "B200 又點？" (what about), 仲有 (and also), 如果係 (what if it is)
    "|又点|仲有|如果系"
    f"|{_SIDE}边[个间度啲款张家种部位只台样几轮次条]"
)
_CANTONESE = {
    "边个": "哪个",
    # is it or not (係咪: 是不是), a yes or no asked (有冇 reads 有没有 through 冇)
    "系咪": "是不是",
    "边间": "哪家",
    "边度": "哪里",
    "边啲": "哪些",
    "几多": "多少",
    "乜嘢": "什么",
    "咩": "什么",
    "乜": "什么",  # 乜 alone, as 乜嘢 ("係乜": 是什么)
    "畀": "给",  # give ("Epoch 畀嘅可信度": Epoch 给的可信度)
    "嚟": "来",  # come ("係邊度嚟㗎": 是哪里来的, "爆出嚟": 爆出来)
    "呢个": "这个",  # this ("192人呢个员工数"); 呢 alone is Mandarin's particle too
    "嘅": "的",
    "咗": "了",
    "喺度": "在",  # 喺度 + verb: in the middle of doing it ("喺度运行紧": 在运行)
    "喺": "在",
    "佢哋": "他们",
    "佢": "他",
    "啲": "些",
    "冇": "没有",
    "唔": "不",
    # words, not only function words, that Hong Kong's written questions use: now, when, how, why, that,
    # look, so, last year, yesterday, just now, a thing
    "而家": "现在",
    "几时": "什么时候",
    "点样": "怎样",
    "点解": "为什么",
    "嗰": "那",
    "睇": "看",
    "咁": "这么",
    "旧年": "去年",
    "琴日": "昨天",
    "啱啱": "刚刚",
    "嘢": "东西",
    # inside (資料入面: 数据里面), added together (加埋: 加起来, a total), still (仲有: 还有)
    "入面": "里面",
    "加埋": "加起来",
    "仲": "还",
    # "what about …?" of a follow-up ("B200 又點？", 德國又點): its 呢 ("B200 呢？")
    "又点": "呢",
    "又点样": "呢",
    # sentence-final particles that ask nothing (㗎 of "几时发布㗎", 啩, 喎, 嘞, 喇, 啰)
    "㗎": "",
    "啩": "",
    "喎": "",
    "嘞": "",
    "喇": "",
    "啰": "",
}
_CANTONESE_WORD = re.compile(
    "|".join(sorted(_CANTONESE, key=len, reverse=True))
    # 系 is the copula "is" in Cantonese ("系边个"), but a word's part in Mandarin (系列, 关系, 体系)
    + "|(?<![关体联派谱直])系(?![列统数])"
    # 边 before a measure word is "which" (边款, 边张, 边家: 哪款, 哪张, 哪家), and before 几 "which ones"
    # (边几款, 边几轮: 哪几款, 哪几轮, a list) or a round (边轮: 哪轮)
    + f"|{_SIDE}边(?=[款张家种部位只台样几轮次条])"
    # 紧 after a verb is Cantonese's "-ing" (运行紧, 用紧, 建紧: 运行中), not Mandarin's 紧急, 要紧, 赶紧
    + "|(?<=[\u4e00-\u9fff])(?<![要抓赶加收拉绷])紧(?![急张密凑缺])"
)
_CANTONESE_SPOKEN = {"边": "哪", "紧": "中"}


def mandarin(text: str) -> str:
    """Chinese written in Cantonese (嘅, 系边个, 几多: Hong Kong's written questions) with its function
    words read as Mandarin's (的, 是哪个, 多少), so the reader's words and fillers apply; only where a
    character or word found in Cantonese alone says so (系 alone is also Mandarin's 系列, 关系)."""
    if not _CANTONESE_MARK.search(text):
        return text
    return _CANTONESE_WORD.sub(
        lambda m: _CANTONESE.get(m.group(), _CANTONESE_SPOKEN.get(m.group(), "是")), text
    )


_CN_DIGITS = {
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_CN_NUMERAL = re.compile(
    "(?<![零一二两三四五六七八九十百千])([一二两三四五六七八九十百千][零一二两三四五六七八九十百千]*)(万亿|万|亿)?"
)
"""A number written in Chinese numerals ("十万", "五千", "一百二十"), read as digits ("10万", "5000",
"120") so thresholds and counts read it as they read "10万"; a lone character ("百度", "千瓦", "一共",
"三星") is a word, not a number, unless 万 or 亿 follows it ("一万")."""


def _arabic(m: re.Match[str]) -> str:
    numeral, scale = m.group(1), m.group(2) or ""
    if len(numeral) < 2 and not scale:
        return m.group()
    if len(numeral) >= 2 and not any(c in _CN_UNITS for c in numeral) and not scale:
        return m.group()  # "一二线": not a number
    total = digit = 0
    for c in numeral:
        if c in _CN_DIGITS:
            digit = _CN_DIGITS[c]
        else:
            total += (digit or 1) * _CN_UNITS[c]
            digit = 0
    return f"{total + digit}{scale}"


_PLACE = re.compile("|".join(sorted(map(re.escape, PLACE_NAMES), key=len, reverse=True)))


@dataclass(frozen=True, slots=True)
class Token:
    """A word (Latin letters and digits, dots inside numbers) or one Chinese character, with offsets."""

    text: str
    start: int
    end: int

    @property
    def cjk(self) -> bool:
        """True for a Chinese character."""
        return bool(CJK_CHAR.match(self.text))

    @property
    def stop(self) -> bool:
        """True for a function word or character."""
        return self.text in CJK_STOP if self.cjk else self.text in STOPWORDS


def tokens(folded: str) -> list[Token]:
    """The tokens of folded text (placeholders such as ⟨e⟩ are one token each)."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(folded)]


def language(text: str) -> str:
    """``zh`` when the text has a Chinese character, else ``en``."""
    return "zh" if CJK_CHAR.search(text) else "en"


def replace_spans(text: str, spans: list[tuple[int, int, str]]) -> str:
    """The text with each (start, end) span replaced by its placeholder, spaced so it stays a token."""
    out, pos = [], 0
    for start, end, mark in sorted(spans):
        if start < pos:
            continue
        out.append(text[pos:start])
        out.append(f" {mark} ")
        pos = end
    out.append(text[pos:])
    return "".join(out)
