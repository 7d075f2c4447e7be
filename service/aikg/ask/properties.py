"""Property words in a question ("显存", "how many parameters", "founded"): which facts it asks for."""

from __future__ import annotations

import re
from dataclasses import dataclass

from aikg.ask.lexicon import PROPERTY_WORDS
from aikg.ask.text import CJK_CHAR


@dataclass(frozen=True, slots=True)
class PropertyMention:
    """A span of the folded question that names a property, and the properties it may mean, in order."""

    start: int
    end: int
    properties: tuple[str, ...]


def _pattern(word: str) -> re.Pattern[str]:
    if CJK_CHAR.search(word):
        return re.compile(re.escape(word))
    # "who runs X" asks X's operator; "who runs *only* Google accelerators", "who runs NVIDIA-*only*
    # capacity" ask which parties keep to one vendor, a question of its own (the named query of
    # NVIDIA-only capacity), not a fact of a thing
    only = r"(?!.*(?:\bonly|\bjust|\bexclusively|\bsolely)\b)" if word.startswith("who ") else ""
    return re.compile(rf"(?<![a-z0-9]){re.escape(word)}s?(?![a-z0-9]){only}")


_PATTERNS: tuple[tuple[re.Pattern[str], int, tuple[str, ...]], ...] = tuple(
    sorted(
        ((_pattern(w), len(w), props) for words, props in PROPERTY_WORDS for w in words), key=lambda p: -p[1]
    )
)


def find_properties(folded: str, taken: list[tuple[int, int]]) -> list[PropertyMention]:
    """The property words of the text outside the ``taken`` spans, longest first where two overlap."""
    found: list[PropertyMention] = []
    for pattern, _, props in _PATTERNS:
        for m in pattern.finditer(folded):
            spans = [(f.start, f.end) for f in found] + list(taken)
            if any(m.start() < e and s < m.end() for s, e in spans):
                continue
            found.append(PropertyMention(m.start(), m.end(), props))
    return sorted(found, key=lambda p: p.start)
