"""Chinese written in traditional characters read as simplified: the one conversion the search box and
the plain-words reader share (the graph's Chinese names are simplified: 英伟达, 辉达; people in Taipei and
Hong Kong write 英偉達, 輝達)."""

from __future__ import annotations

import functools
import re

import opencc

KEPT_CHARACTERS = re.compile("([昇])")
"""Characters that are already simplified but that OpenCC takes for variants of others (昇腾, Huawei's
Ascend, would become 升腾): never converted."""
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@functools.cache
def _converter() -> opencc.OpenCC:
    # tw2sp: Taiwan's characters *and* words (記憶體 -> 内存, 晶片 -> 芯片, 資料中心 -> 数据中心), so a
    # question asked as in Taipei or Hong Kong reads the lexicon's simplified words
    return opencc.OpenCC("tw2sp")


def has_han(text: str) -> bool:
    """Whether ``text`` holds a Chinese character (only such text is converted)."""
    return _HAN.search(text) is not None


def simplified(text: str) -> str:
    """The text in simplified characters and mainland words (OpenCC's tw2sp phrase tables)."""
    parts = KEPT_CHARACTERS.split(text)
    return "".join(p if KEPT_CHARACTERS.fullmatch(p) else _converter().convert(p) for p in parts if p)
