"""Organizations named by the initials of their names: "the DOE" (US Department of Energy), "NUDT's
MT-3000" (National University of Defense Technology), "the US DOD" (issue 44).

People write a government body or a university by its acronym, and the data's labels spell the name
out, so the word linked nothing and the answer was not sure ("How many clusters does the DOE operate?":
"doe" not understood). The acronyms are read from the graph's own labels — the first letters of the
name's words, with and without its function words ("of", "and") and a leading country ("US") — and an
acronym two organizations share names neither. A word is read so only when the question writes it in
capitals ("DOE", "DoD": never the word "doe") and the linker found no name there.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

from aikg.ask.linking import Candidate, Mention

AIKG = "https://w3id.org/aikg/ontology#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"

ACRONYMS_QUERY = (
    f"SELECT DISTINCT ?x ?label WHERE {{ ?x a ?type ; <{RDFS}label> ?label ."
    f" ?type <{RDFS}subClassOf>* <{AIKG}Organization> }}"
)
"""Every organization's label (the name the acronym abbreviates)."""

FUNCTION_WORDS = frozenset({"of", "and", "the", "for", "at", "on", "in", "&"})
"""Words an acronym may leave out (National University of Defense Technology: NUDT) or keep (DOE)."""
COUNTRY_WORDS = frozenset({"US", "UK", "EU"})
"""A country written before a body's name ("US Department of Energy"), which its acronym may leave out."""
SHORTEST = 3
"""Fewer letters name too many things to be read as one organization."""
_BRACKETED = re.compile(r"\s*\([^()]*\)\s*$")
_LATIN = re.compile(r"(?<![a-z0-9])[a-z]{3,6}(?![a-z0-9])")
"""A word of Latin letters as long as an acronym."""
_OWN_ACRONYM = re.compile(r"[A-Z][A-Za-z]*[A-Z]")
"""A name's own acronym in brackets: capitals first and last ("AIST", "GENCI", "DoE")."""
_NAME_WORD = re.compile(r"[A-Za-z][A-Za-z'.-]*|&")
_WRITTEN = re.compile(r"(?<![A-Za-z0-9])(?=(?:[a-z]*[A-Z]){2})[A-Za-z]{3,6}(?![A-Za-z0-9])")
"""A word written with two capitals or more ("DOE", "NUDT", "DoD"), as an acronym is."""


def initials(label: str) -> set[str]:
    """The acronyms of a name, casefolded: the first letters of its words, with and without function
    words and a leading country word; none for a name of one word."""
    words = _NAME_WORD.findall(_BRACKETED.sub("", label))
    out: set[str] = set()
    bracketed = _BRACKETED.search(label)
    if bracketed and _OWN_ACRONYM.fullmatch(bracketed.group().strip(" ()")):
        # the acronym the name gives itself ("National Institute of Advanced Industrial Science and
        # Technology (AIST)"), which its initials need not spell
        out.add(bracketed.group().strip(" ()").casefold())
    for ws in (words, words[1:] if words and words[0] in COUNTRY_WORDS else []):
        if len(ws) < 2:
            continue
        out.add("".join(w[0] for w in ws).casefold())
        out.add("".join(w[0] for w in ws if w.casefold() not in FUNCTION_WORDS).casefold())
    return {a for a in out if len(a) >= SHORTEST and a.isalpha()}


def acronyms(rows: Iterable[tuple[str, str]], known: Callable[[str], bool]) -> dict[str, Candidate]:
    """Each acronym of one organization only (rows: IRI, label), with that organization as a candidate;
    ``known(word)`` is true for a word the reader already reads (never an acronym)."""
    owners: dict[str, dict[str, str]] = defaultdict(dict)
    for iri, label in rows:
        for acronym in initials(label):
            owners[acronym][iri] = label
    out: dict[str, Candidate] = {}
    for acronym, named in owners.items():
        if len(named) != 1 or known(acronym):
            continue
        iri, label = next(iter(named.items()))
        out[acronym] = Candidate(iri, iri.rsplit("/", 1)[-1], label, (AIKG + "Organization",), "exact", 1.0)
    return out


def with_acronyms(
    original: str, folded: str, mentions: list[Mention], table: Mapping[str, Candidate]
) -> list[Mention]:
    """The mentions with each acronym the question writes in capitals, where no mention is, read as its
    organization."""
    written = {m.group().casefold() for m in _WRITTEN.finditer(original)} & table.keys()
    # an acronym the folding wrote for a name given in Chinese (产总研: AIST), which the question as typed
    # does not hold in any case
    typed = set(_LATIN.findall(original.casefold()))
    written |= {w for w in _LATIN.findall(folded) if w not in typed} & table.keys()
    if not written:
        return mentions
    out = list(mentions)
    for word in sorted(written):
        for m in re.finditer(f"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", folded):
            if any(o.start < m.end() and m.start() < o.end for o in out):
                continue
            out.append(Mention(m.start(), m.end(), word, "exact", [table[word]]))
    return sorted(out, key=lambda o: o.start)
