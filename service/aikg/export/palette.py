"""The explorer's type families and their colours, shared by the pages and the graph exports, so a
node has the same colour in the browser, in Gephi (GEXF), in yEd or Cytoscape (GraphML, Cytoscape JSON)
and in Graphviz (DOT).

A class belongs to the first family (most specific first) whose root class it is, or is a subclass of.
"""

from __future__ import annotations

from collections.abc import Iterable

from aikg.lookup.vocabulary import Vocabulary
from aikg.namespaces import AIKG

FAMILIES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("deal", "Deals", ("Deal",)),
    (
        "benchmark",
        "Benchmarks & results",
        ("BenchmarkResult", "BenchmarkRound", "BenchmarkSuite", "SpeedupClaim", "TrainingRun"),
    ),
    ("facility", "Facilities & capacity", ("DataCenter", "CapacityPhase", "Deployment")),
    (
        "hardware",
        "Hardware",
        (
            "Hardware",
            "ChipArchitecture",
            "InterconnectTechnology",
            "NetworkTopology",
            "TopologyConfiguration",
        ),
    ),
    ("model", "AI models", ("AIModel", "ModelArchitecture", "ArchitectureFeature", "NumericPrecision")),
    ("organization", "Organizations", ("Organization",)),
    ("person", "People", ("Person", "Position", "Role")),
    ("platform", "Platforms & prices", ("Platform", "SoftwareProject", "PriceList", "Price")),
    ("source", "Sources & provenance", ("SourceDocument", "Report", "Derivation", "Rule")),
    ("place", "Places", ("Place",)),
    ("event", "Other events", ("Event",)),
    ("concept", "Factors & other concepts", ("Factor", "Entity")),
)
"""(key, label, root classes) of each family, most specific first."""

COLORS: dict[str, str] = {
    "deal": "#d1495b",
    "benchmark": "#00798c",
    "facility": "#e09f3e",
    "hardware": "#3f9d5b",
    "model": "#7b5ea7",
    "organization": "#2e6fd8",
    "person": "#d35fb7",
    "platform": "#1fa9b8",
    "source": "#8a8f98",
    "place": "#9c6644",
    "event": "#a3a32a",
    "concept": "#b0a18a",
    "other": "#5f6b7a",
}
"""Colour of each family (and of ``other``: a class outside the ontology)."""


def family_of(vocab: Vocabulary, types: Iterable[str]) -> str:
    """The family of a node from its classes: the first family any of them falls under."""
    classes = set(types)
    for key, _, roots in FAMILIES:
        for root in roots:
            if classes & vocab.descendants(str(AIKG[root])):
                return key
    return "other"


def rgb(family: str) -> tuple[int, int, int]:
    """A family's colour as red, green, blue (0-255)."""
    hexa = COLORS.get(family, COLORS["other"]).lstrip("#")
    return int(hexa[0:2], 16), int(hexa[2:4], 16), int(hexa[4:6], 16)


class Palette:
    """The family of each node of one export, looked up once per set of classes (a few dozen sets
    among thousands of nodes)."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.vocab = vocab
        self._families: dict[tuple[str, ...], str] = {}

    def family(self, types: Iterable[str]) -> str:
        """The node's family (:func:`family_of`)."""
        key = tuple(types)
        found = self._families.get(key)
        if found is None:
            found = self._families[key] = family_of(self.vocab, key)
        return found

    def colour(self, types: Iterable[str]) -> tuple[str, str]:
        """The node's family and that family's colour (``#rrggbb``)."""
        family = self.family(types)
        return family, COLORS[family]


def tint(family: str, share: float = 0.8) -> str:
    """A family's colour mixed with ``share`` white: a fill dark text stays readable on."""
    return "#" + "".join(f"{round(c + (255 - c) * share):02x}" for c in rgb(family))
