"""The explorer's type families and their colours, shared by the pages and the graph exports, so a
node has the same colour in the browser, in Gephi (GEXF) and in yEd or Cytoscape (GraphML).

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
