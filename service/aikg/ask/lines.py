"""Chip lines: the word a maker's accelerators are named by after the maker's own name (Huawei *Ascend*,
Amazon *Trainium*, Baidu *Kunlun*, Cambricon *MLU*, Google *TPU*, Intel Habana *Gaudi*), read from the
graph's labels, never listed by hand (issue 44).

"Which Kunlun chip has the lowest TDP?", "Ascend parts launched since 2024", "Trainium's newest chip":
the question names the chips by their line, which no node is named by alone, so the linker left the word
(or, worse, respelt "Trainium" as "training"). A line word is read as its maker, and the answer keeps
only the chips whose name holds the word (:attr:`aikg.ask.compose.Form.line`): Trainium is Amazon AWS's
Trainium1–3, not its Inferentia2.

A word is a line of one maker when it begins the name of that maker's chips (the first one or two words
after the maker's own, up to the model number: "Intel Habana Gaudi2" gives habana and gaudi), no other
maker's chip is named so, it has three letters or more, and it is not a word the composer reads
("Intel Data Center GPU Max": data, center, gpu are other words).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

from aikg.ask.linking import Candidate, Mention
from aikg.ask.words import CHIP_LINE_NAMES

AIKG = "https://w3id.org/aikg/ontology#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SKOS = "http://www.w3.org/2004/02/skos/core#"

LINES_QUERY = (
    f"SELECT DISTINCT ?x ?label ?maker ?makerLabel ?makerName WHERE {{ ?x <{AIKG}manufacturer> ?maker ;"
    f" a ?type ; <{RDFS}label> ?label . ?type <{RDFS}subClassOf>* <{AIKG}Accelerator> ."
    f" ?maker <{RDFS}label> ?makerLabel ; <{RDFS}label>|<{SKOS}altLabel> ?makerName }}"
)
"""Every accelerator's name with its maker's (the maker's label and every name of it, to leave out)."""

WORDS_AFTER_MAKER = 2
"""How many words after the maker's name may be a line ("Intel Habana Gaudi2": habana, gaudi)."""
_WORD = re.compile(r"[a-z]+")

PART_OF_NAME = frozenset({"word", "fuzzy"})
"""How a mention links that is only a word of a name, or a misspelling of one (:mod:`aikg.ask.linking`)."""
LINE = "line:"
"""The ``how`` of a maker candidate read from a line word: ``line:ascend``."""


def chip_lines(rows: Iterable[tuple[str, ...]], known: Callable[[str], bool]) -> dict[str, Candidate]:
    """The line words of the rows (chip IRI, chip label, maker IRI, maker label, a name of the maker),
    each with its maker as a candidate; ``known(word)`` is true for a word the composer reads."""
    names: dict[str, set[str]] = defaultdict(set)
    chips: dict[str, set[tuple[str, str]]] = defaultdict(set)
    makers: dict[str, str] = {}
    for chip, label, maker, maker_label, maker_name in rows:
        names[maker] |= set(_WORD.findall(maker_name.casefold()))
        chips[maker].add((chip, label))
        if maker not in makers or (maker_label.isascii() and not makers[maker].isascii()):
            makers[maker] = maker_label  # the name as Epoch writes it ("NVIDIA", not 英伟达)
    found: dict[str, set[str]] = defaultdict(set)
    for maker, labelled in chips.items():
        for _, label in labelled:
            taken = 0
            for token in label.casefold().split():
                head = _WORD.match(token)
                if head is None or head.group() in names[maker]:
                    if taken:
                        break
                    continue
                if known(head.group()):
                    break  # "Intel Data Center GPU Max": a description, not a line
                found[head.group()].add(maker)
                taken += 1
                if head.end() < len(token) or taken == WORDS_AFTER_MAKER:
                    break  # the model number ("MLU370", "Trainium2") ends the line
    out: dict[str, Candidate] = {}
    for word, owners in found.items():
        if len(owners) != 1 or len(word) < 3:
            continue
        maker = next(iter(owners))
        slug = maker.rsplit("/", 1)[-1]
        out[word] = Candidate(maker, slug, makers[maker], (AIKG + "Organization",), LINE + word, 1.0)
    # an acronym in a maker's name that the linker does not take alone ("AWS" of Amazon AWS): the maker
    for maker, label in makers.items():
        for acronym in re.findall(r"\b[A-Z]{3,}\b", label):
            key = acronym.casefold()
            if key != label.casefold() and key not in out:
                owners = {m for m, ws in names.items() if key in ws}
                if owners == {maker}:
                    slug = maker.rsplit("/", 1)[-1]
                    out[key] = Candidate(maker, slug, label, (AIKG + "Organization",), "exact", 1.0)
    return out


def line_word(candidate: Candidate) -> str | None:
    """The line word a maker candidate was read from, or None."""
    return candidate.how[len(LINE) :] if candidate.how.startswith(LINE) else None


def with_lines(folded: str, mentions: list[Mention], lines: Mapping[str, Candidate]) -> list[Mention]:
    """The mentions with each line word the linker left read as its maker: joined to the maker's own
    name written right before it ("Huawei Ascend"), else a mention of its own."""
    if not lines:
        return mentions
    out = list(mentions)
    pattern = re.compile(
        r"(?<![a-z0-9])("
        + "|".join(map(re.escape, sorted(lines, key=len, reverse=True)))
        + r")s?(?![a-z0-9])"
    )
    found = [(m.start(), m.end(), m.group(1)) for m in pattern.finditer(folded)]
    found += [
        (m.start(), m.end(), CHIP_LINE_NAMES[m.group()])
        for m in re.finditer(f"(?:{'|'.join(CHIP_LINE_NAMES)})(?!\\s*[0-9a-z])", folded)
        if CHIP_LINE_NAMES[m.group()] in lines  # "昇腾910B": a chip's name, not its line
    ]
    for start, end, word in sorted(found):
        # a chip whose name alone holds the word ("GAUDI" of the Habana GAUDI HL-205) is not the line
        out = [o for o in out if not (o.start == start and o.end == end and o.how in PART_OF_NAME)]
        if any(o.start < end and start < o.end for o in out):
            continue
        candidate = lines[word]
        before = next(
            (
                o
                for o in out
                if o.best.iri == candidate.iri
                and o.end <= start
                and re.fullmatch(r"(?:'s|的)?\s*", folded[o.end : start])
            ),
            None,
        )
        if before is not None:
            # "Huawei Ascend": the maker named, and its line
            before.end, before.text = end, folded[before.start : end]
            before.candidates = [candidate, *before.candidates[1:]]
            continue
        out.append(Mention(start, end, folded[start:end], "exact", [candidate]))
    return sorted(out, key=lambda o: o.start)


_GENERATION = (
    r"\s*v?(\d{1,2})(?![\d.,%])(?=\s*(?:(?:chips?|gpus?|accelerators?|processors?|clusters?|superclusters?"
    r"|supercomputers?|pods?|systems?|racks?)\b|[?？!！,，。]|$|的|芯片|这款|那款|集群|超算|超级计算机))"
)
"""A bare generation number after a line's word, before the end or a chip or cluster word ("TPU 9
supercomputer", "Trainium 4 cluster"; never an amount: units, 张, 倍 … are not among what may follow)."""


def unlinked_generation(folded: str, words: Iterable[str], names: Iterable[tuple[int, int]]) -> str | None:
    """A line or kind of chip written with a bare generation number that no name the question links
    covers ("Google's TPU 9 supercomputer", "AWS's Trainium 4 cluster", 谷歌 TPU 9 超算), else None: the line
    word alone reads every chip of the line, or its maker ("Trainium" is Amazon's), and the number is
    dropped — a chip the data does not hold, or one the reading did not link, answered as every one of
    its line. A generation linked with the word ("Trainium 2": Amazon Trainium2) is not such a number."""
    kinds = sorted({w for w in words if w}, key=len, reverse=True)
    if not kinds:
        return None
    spans = list(names)
    pattern = re.compile(rf"(?<![a-z0-9])({'|'.join(map(re.escape, kinds))}){_GENERATION}")
    for m in pattern.finditer(folded):
        if not any(s <= m.start(2) and m.end(2) <= e for s, e in spans):
            return m.group().strip()
    return None
