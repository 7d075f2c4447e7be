"""A lexical model of questions: TF-IDF over character n-grams, compared by cosine.

Latin words give the word, its neighbour pair and its character 3- and 4-grams (so "rumours" meets
"rumors" and "corewave" half meets "coreweave"); Chinese text, which has no spaces, gives each character
and each pair of neighbouring characters. Placeholders (⟨e⟩, ⟨d⟩, ⟨p⟩) are features of their own.

A feature no example has still counts in the question's length, at the highest weight: words the
examples never use make a question less like all of them, which is what abstention needs.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from aikg.ask.text import tokens

Vector = dict[str, float]


def features(masked: str) -> Counter[str]:
    """The features of a folded, masked question."""
    out: Counter[str] = Counter()
    toks = tokens(masked)
    previous_word: str | None = None
    previous = None
    for t in toks:
        if t.text.startswith("⟨"):
            out[t.text] += 1
            previous_word = t.text
        elif t.cjk:
            out["c:" + t.text] += 1
            if previous is not None and previous.cjk and previous.end == t.start:
                out["b:" + previous.text + t.text] += 1
            previous_word = None
        else:
            out["w:" + t.text] += 1
            if previous_word is not None:
                out["p:" + previous_word + " " + t.text] += 1
            padded = f"<{t.text}>"
            for n in (3, 4):
                for k in range(len(padded) - n + 1):
                    out["g:" + padded[k : k + n]] += 1
            previous_word = t.text
        previous = t
    return out


class TfIdf:
    """Inverse document frequencies learnt from the examples; vectors are L2-normalized."""

    def __init__(self, documents: Iterable[Counter[str]]) -> None:
        """Count in how many examples each feature occurs."""
        df: Counter[str] = Counter()
        n = 0
        for doc in documents:
            n += 1
            df.update(doc.keys())
        self.idf = {f: math.log((1 + n) / (1 + c)) + 1.0 for f, c in df.items()}
        self.unseen = math.log(1 + n) + 1.0

    def vector(self, counts: Counter[str]) -> Vector:
        """The weighted, normalized vector of some features (unseen ones weigh in the norm only)."""
        weights = {f: (1.0 + math.log(c)) * self.idf.get(f, self.unseen) for f, c in counts.items()}
        norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
        return {f: w / norm for f, w in weights.items() if f in self.idf}


def cosine(a: Vector, b: Vector) -> float:
    """Cosine of two normalized vectors."""
    if len(a) > len(b):
        a, b = b, a
    return sum(w * b.get(f, 0.0) for f, w in a.items())
