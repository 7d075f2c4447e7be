"""Which column of an Epoch file each fact is read from, declared once per mapping function, and written
beside the dataset's catalogue entry so that any client can cite a fact's cell: the file
(``dcterms:source`` of the dataset), the row (``aikg:sourceRow`` of the row's node in the dataset's
graph) and the column (an ``aikg:DatasetColumn`` whose ``aikg:readInto`` is the fact's property).

A property several columns can give (a name from "Owner" or "Users", a note from any notes column) names
them all; a note read from an unreadable figure starts with its column's name. ``tests/test_epoch_citations``
checks that every property an import writes is cited, that each cited column is one the file is read
from, and that a row's node has a value in a cited column for each of its facts.
"""

from __future__ import annotations

import re

from rdflib import Literal, URIRef
from rdflib.namespace import RDF, RDFS, SKOS
from rdflib.term import Identifier

from aikg.epoch.context import SCHEMA_URL
from aikg.epoch.datasets import Dataset
from aikg.epoch.links import CLUSTER_LINKS
from aikg.epoch.mapping import CLUSTER_FLAGS, DATACENTER_ROLES, PERFORMANCE
from aikg.namespaces import AIKG

Columns = dict[URIRef, tuple[str, ...]]

_SOURCES = tuple(f"Source {i}" for i in range(1, 6))

HARDWARE: Columns = {
    RDF.type: ("Type", "Hardware name", "Manufacturer"),
    RDFS.label: ("Hardware name", "Manufacturer"),
    SKOS.altLabel: ("Hardware name", "Manufacturer"),
    AIKG.manufacturer: ("Manufacturer",),
    SCHEMA_URL: ("Link to datasheet",),
    AIKG.availableFrom: ("Release date",),
    **{prop: (column,) for column, prop in PERFORMANCE},
    AIKG.memoryPerChip: ("Memory size per board (Byte)",),
    AIKG.memoryBandwidth: ("Memory bandwidth (byte/s)",),
    AIKG.intranodeBandwidth: ("Intranode bandwidth (byte/s)",),
    AIKG.internodeBandwidth: ("Internode bandwidth (bit/s)",),
    AIKG.thermalDesignPower: ("TDP (W)",),
    AIKG.processNode: ("Process size (nm)",),
    AIKG.foundryName: ("Foundry",),
    AIKG.note: ("Notes", "Link to datasheet", "Memory size per board (Byte)"),
}

MODEL: Columns = {
    RDF.type: ("Model", "Organization", "Training hardware"),
    RDFS.label: ("Model", "Organization", "Training hardware"),
    SKOS.altLabel: ("Model", "Organization", "Training hardware"),
    AIKG.developer: ("Organization",),
    AIKG.totalParameters: ("Parameters",),
    AIKG.releaseDate: ("Publication date",),
    AIKG.modelDomain: ("Domain",),
    AIKG.trainedModel: ("Model",),
    AIKG.sourceConfidence: ("Confidence",),
    AIKG.datasetConfidence: ("Confidence",),
    SCHEMA_URL: ("Link",),
    AIKG.trainingCompute: ("Training compute (FLOP)",),
    AIKG.accelerator: ("Training hardware",),
    AIKG.acceleratorCount: ("Hardware quantity",),
    AIKG.durationDays: ("Training time (hours)",),
    AIKG.gpuHours: ("Training chip-hours",),
    AIKG.cost: ("Training compute cost (2023 USD)",),
    AIKG.currency: ("Training compute cost (2023 USD)",),
    AIKG.costYear: ("Training compute cost (2023 USD)",),
    AIKG.note: (
        "Parameters notes",
        "Training compute notes",
        "Training time notes",
        "Compute cost notes",
        "Link",
        "Parameters",
    ),
}

CLUSTER: Columns = {
    RDF.type: (
        "Name",
        "Owner",
        "Users",
        "GPU Supplier (primary)",
        "Chip type (primary)",
        "Chip type (secondary)",
    ),
    RDFS.label: (
        "Name",
        "Owner",
        "Users",
        "GPU Supplier (primary)",
        "Chip type (primary)",
        "Chip type (secondary)",
    ),
    SKOS.altLabel: (
        "Owner",
        "Users",
        "GPU Supplier (primary)",
        "Chip type (primary)",
        "Chip type (secondary)",
    ),
    AIKG.operator: ("Owner",),
    **{prop: (column,) for column, prop in CLUSTER_FLAGS},
    AIKG.capacityUser: ("Users",),
    AIKG.userCategory: ("Users",),
    AIKG.accelerator: ("Chip type (primary)", "Chip type (secondary)"),
    AIKG.manufacturer: ("GPU Supplier (primary)",),
    AIKG.acceleratorVendor: ("GPU Supplier (primary)",),
    AIKG.acceleratorCount: (
        "Total number of AI chips",
        "Chip quantity (primary)",
        "Chip quantity (secondary)",
    ),
    AIKG.acceleratorGroup: ("Chip type (primary)", "Chip type (secondary)"),
    AIKG.h100Equivalents: ("H100 equivalents",),
    AIKG.powerCapacity: ("Power Capacity (MW)",),
    AIKG.operationalStatus: ("Status",),
    AIKG.date: ("First Operational Date",),
    AIKG.endDate: ("Decommissioned Date (if applicable)",),
    AIKG.locationName: ("Location", "Country"),
    AIKG.sourceConfidence: ("Certainty",),
    AIKG.datasetConfidence: ("Certainty",),
    SCHEMA_URL: _SOURCES,
    AIKG.note: ("Note", "Hardware note", "Certainty Note", "First Operational Date Note", *_SOURCES),
    **{prop: (column,) for column, prop in CLUSTER_LINKS},
}

DATACENTER: Columns = {
    RDF.type: ("Handle", *(c for c, _ in DATACENTER_ROLES)),
    RDFS.label: ("Handle", *(c for c, _ in DATACENTER_ROLES)),
    SKOS.altLabel: ("Title", "Handle", *(c for c, _ in DATACENTER_ROLES)),
    **{prop: (column,) for column, prop in DATACENTER_ROLES},
    AIKG.project: ("Project",),
    AIKG.locationName: ("Address",),
    AIKG.sourceConfidence: tuple(c for c, _ in DATACENTER_ROLES) + ("Project",),
    AIKG.datasetConfidence: tuple(c for c, _ in DATACENTER_ROLES) + ("Project",),
    # a link's own rating (Epoch's "#tag" after a name of a role list)
    AIKG.linkRating: tuple(c for c, _ in DATACENTER_ROLES) + ("Project",),
    AIKG.onProperty: tuple(c for c, _ in DATACENTER_ROLES) + ("Project",),
    AIKG.onValue: tuple(c for c, _ in DATACENTER_ROLES) + ("Project",),
    AIKG.h100Equivalents: ("Current H100 equivalents",),
    AIKG.powerCapacity: ("Current power (MW)",),
    AIKG.cost: ("Current total capital cost (2025 USD billions)",),
    AIKG.currency: ("Current total capital cost (2025 USD billions)",),
    AIKG.costYear: ("Current total capital cost (2025 USD billions)",),
    AIKG.note: tuple(c for c, _ in DATACENTER_ROLES),
}

TIMELINE: Columns = {
    RDF.type: ("Data center", "Date"),
    RDFS.label: ("Data center", "Date"),
    SKOS.altLabel: ("Data center",),
    AIKG.phaseOf: ("Data center",),
    AIKG.date: ("Date",),
    AIKG.description: ("Construction status",),
    AIKG.powerCapacity: ("Power (MW)",),
    AIKG.h100Equivalents: ("H100 equivalents",),
    AIKG.cost: ("Total capital cost (2025 USD billions)",),
    AIKG.currency: ("Total capital cost (2025 USD billions)",),
    AIKG.costYear: ("Total capital cost (2025 USD billions)",),
    AIKG.note: ("Power (MW)", "H100 equivalents"),
}

EQUIPMENT: Columns = {
    RDF.type: ("Model", "Manufacturer"),
    RDFS.label: ("Model", "Manufacturer"),
    SKOS.altLabel: ("Model", "Manufacturer"),
    AIKG.manufacturer: ("Manufacturer",),
    SCHEMA_URL: ("Link",),
    AIKG.coolingType: ("Type",),
    AIKG.coolingCapacity: ("Cooling capacity (kW)", "Cooling capacity (stated, kW)"),
    AIKG.coolingCapacityEstimate: ("Cooling capacity (central estimate, kW)",),
    AIKG.fanCount: ("Number of fans", "Number of Fans"),
    AIKG.fanDiameter: ("Fan Diameter (m)", "Fan estimate diameter (m)"),
    AIKG.lengthMetres: ("Length (m)",),
    AIKG.widthMetres: ("Width (m)",),
    AIKG.heightMetres: ("Height (m)",),
    AIKG.footprintArea: ("Area (m^2)",),
    AIKG.motorPower: ("Motor Horsepower",),
    AIKG.note: ("Source", "Spot check", "Notes", "Link", "Fan estimate diameter (m)"),
}

COMPANY: Columns = {
    RDF.type: ("Name", "Organization (from Organizations)"),
    RDFS.label: ("Name", "Organization (from Organizations)"),
    SKOS.altLabel: ("Name", "Organization (from Organizations)"),
    SCHEMA_URL: ("Founding source/notes",),
    AIKG.companyType: ("Company type",),
    AIKG.productDomain: ("Product Domain(s)",),
    AIKG.foundedIn: ("Founding date",),
    AIKG.parentOrganization: ("Organization (from Organizations)",),
    AIKG.note: ("Founding source/notes",),
}

_REPORTED: Columns = {
    RDF.type: ("Company", "Id"),
    RDFS.label: ("Company", "Id"),
    SKOS.altLabel: ("Company",),
    AIKG.agent: ("Company",),
    AIKG.date: ("Date",),
    AIKG.reportedOn: ("Report date",),
    AIKG.sourceType: ("Source type", "Source Type"),
    AIKG.sourceConfidence: ("Confidence",),
    AIKG.datasetConfidence: ("Confidence",),
    SCHEMA_URL: _SOURCES[:3],
    AIKG.note: ("Notes", "Graph note", *_SOURCES[:3]),
}
"""What every company figure (revenue, staff, usage, compute spending) reads alike."""

FUNDING: Columns = {
    RDF.type: ("Company", "Id"),
    RDFS.label: ("Company", "Id"),
    SKOS.altLabel: ("Company",),
    AIKG.investee: ("Company",),
    AIKG.roundName: ("Id",),
    AIKG.date: ("Close date",),
    AIKG.reportedOn: ("Report date",),
    AIKG.status: ("Status",),
    AIKG.amount: ("Funding (equity)",),
    AIKG.debtAmount: ("Funding (debt)",),
    AIKG.postMoneyValuation: ("Valuation (post-money)",),
    AIKG.currency: ("Funding (equity)", "Funding (debt)", "Valuation (post-money)"),
    AIKG.sourceConfidence: ("Confidence",),
    AIKG.datasetConfidence: ("Confidence",),
    SCHEMA_URL: _SOURCES[:3],
    AIKG.note: ("Notes", "Graph note", "Type", "Status", *_SOURCES[:3]),
}

REVENUE: Columns = {
    **_REPORTED,
    AIKG.annualRevenue: ("Revenue amount (normalize to annual)",),
    AIKG.currency: ("Revenue amount (normalize to annual)",),
    AIKG.figureKind: ("Type",),
    AIKG.description: ("Revenue info (non-annualized)",),
}

STAFF: Columns = {
    **_REPORTED,
    AIKG.staffCount: ("Staff count",),
    AIKG.figureKind: ("Type",),
    AIKG.companyDivision: ("Division name",),
}

USAGE: Columns = {
    **_REPORTED,
    AIKG.activeUsers: ("Active users",),
    AIKG.activeUsersPeriod: ("Active users time period",),
    AIKG.dailyTokens: ("Daily tokens",),
    AIKG.dailyMessages: ("Daily messages",),
    AIKG.product: ("Product",),
}

SPEND: Columns = {
    **_REPORTED,
    AIKG.computeSpend: ("Amount",),
    AIKG.currency: ("Amount",),
    AIKG.spendCategory: ("Category",),
    AIKG.periodType: ("Period type",),
}

BY_MAPPER: dict[str, Columns] = {
    "map_hardware": HARDWARE,
    "map_model": MODEL,
    "map_cluster": CLUSTER,
    "map_datacenter": DATACENTER,
    "map_timeline": TIMELINE,
    "map_equipment": EQUIPMENT,
    "map_company": COMPANY,
    "map_funding": FUNDING,
    "map_revenue": REVENUE,
    "map_staff": STAFF,
    "map_usage": USAGE,
    "map_compute_spend": SPEND,
}
"""Property -> the columns it is read from, per mapping function (the files a function maps alike)."""

NOT_CITED = frozenset({AIKG.sourceRow, AIKG.flag})
"""Properties that cite no cell: the row itself, and a data-quality flag (aikg's own finding about a row,
whose note names the values and rows it is about)."""


def columns_of(dataset: Dataset) -> dict[str, tuple[URIRef, ...]]:
    """Column -> the properties read from it, for the columns this dataset's file is read from."""
    cited = BY_MAPPER.get(dataset.mapper.__name__, {})
    out: dict[str, list[URIRef]] = {}
    for prop, columns in cited.items():
        for column in columns:
            if column in dataset.reads:
                out.setdefault(column, []).append(prop)
    return {c: tuple(ps) for c, ps in out.items()}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def column_triples(dataset: Dataset, doc: URIRef) -> list[tuple[URIRef, URIRef, Identifier]]:
    """The ``aikg:DatasetColumn`` nodes of a dataset's catalogue entry ``doc``: one per column read."""
    out: list[tuple[URIRef, URIRef, Identifier]] = []
    for column, props in columns_of(dataset).items():
        node = URIRef(f"{doc}-column-{_slug(column)}")
        out += [
            (node, RDF.type, AIKG.DatasetColumn),
            (node, AIKG.columnOf, doc),
            (node, AIKG.columnName, Literal(column)),
            *((node, AIKG.readInto, p) for p in props),
        ]
    return out
