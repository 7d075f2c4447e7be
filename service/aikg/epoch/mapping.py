"""Epoch's CSV files mapped onto aikg's ontology, one function per file.

Each row becomes the node it describes (an accelerator, a deployment, a data center, a funding round,
a capacity phase) or, for model rows, a training run of the model: Epoch's figures sit on that row
node with the row's confidence tag, line number and source links, so a value another source gives
differently stays beside it instead of overwriting it. Names of organizations, models and
accelerators are reconciled with what the graph already holds (see ``reconcile``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from rdflib import Literal, URIRef
from rdflib.namespace import RDF, RDFS, SKOS, XSD

from aikg.epoch.reconcile import Match, Reconciler
from aikg.epoch.rows import Quads, RowKey
from aikg.epoch.values import (
    date_literal,
    decimal_literal,
    integer_literal,
    normalize,
    number,
    parameters_in_notes,
    plain,
    slugify,
    tagged_list,
    text,
)
from aikg.namespaces import AIKG, ID

SCHEMA_URL = URIRef("https://schema.org/url")

CERTAINTY = {
    "confident": AIKG.Reported, "confirmed": AIKG.Reported,
    "likely": AIKG.Estimated,
    "speculative": AIKG.Rumoured, "unlikely": AIKG.Rumoured, "uncertain": AIKG.Rumoured,
}
"""Epoch's confidence words read as aikg certainty; the word itself is kept as aikg:sourceConfidence."""

_WEAKNESS = {AIKG.Reported: 0, AIKG.Estimated: 1, AIKG.Rumoured: 2}

USER_CATEGORIES = frozenset({"cloud", "academia", "researchers", "government", "industry", "various",
                             "military", "public", "enterprise", "enterprises", "startups", "internal"})
"""Words Epoch writes in user lists that name a kind of user, not an organization."""

SUPPLIER_UNKNOWN = frozenset({"anonymized", "unknown", ""})


@dataclass
class Flag:
    """A suspicious value found while mapping: where, what, why."""

    file: str
    row: int
    node: str
    flag: str
    note: str


@dataclass
class Context:
    """What every mapping function shares: the quads, the reconciler and the flags raised."""

    quads: Quads
    reconciler: Reconciler
    flags: list[Flag] = field(default_factory=list)
    row_ids: set[str] = field(default_factory=set)
    described: set[str] = field(default_factory=set)
    """New models whose own figures (parameters, release date) one file has already given."""

    def row_node(self, base: str) -> URIRef:
        """A fresh, deterministic IRI for a row node: the slug, or the slug with -2, -3 … when taken."""
        slug, n = base, 2
        while slug in self.row_ids or slug in self.reconciler.taken:
            slug, n = f"{base}-{n}", n + 1
        self.row_ids.add(slug)
        return URIRef(ID[slug])

    def entity(self, row: RowKey, graph: str, kind: str, name: str, cls: URIRef) -> URIRef:
        """The reconciled node for a name; new nodes get their type and label, merged ones an altLabel."""
        match: Match = self.reconciler.resolve(kind, name)
        node = URIRef(match.iri)
        q = self.quads
        if match.status == "matched":
            if normalize(name) not in self.reconciler.names_of(match.kind, match.iri):
                q.add(row, graph, node, SKOS.altLabel, Literal(name))
        else:
            q.add(row, graph, node, RDF.type, cls)
            q.add(row, graph, node, RDFS.label, Literal(match.label, lang="en"))
            if normalize(name) != normalize(match.label):
                q.add(row, graph, node, SKOS.altLabel, Literal(name))
        return node

    def provenance(self, row: RowKey, graph: str, node: URIRef, confidence: str | None,
                   links: Iterable[str] = ()) -> None:
        """The row's line number, its confidence tag (verbatim and as certainty) and its source links."""
        q = self.quads
        q.add(row, graph, node, AIKG.sourceRow, Literal(row[1], datatype=XSD.integer))
        word = (confidence or "").strip()
        if word:
            q.add(row, graph, node, AIKG.sourceConfidence, Literal(word))
            q.add(row, graph, node, AIKG.certainty, CERTAINTY.get(word.lower()))
        for link in links:
            iri = _url(link)
            if iri is not None:
                q.add(row, graph, node, SCHEMA_URL, iri)

    def figure(self, row: RowKey, graph: str, node: URIRef, prop: URIRef, value: Decimal | None,
               scale: Decimal = Decimal(1)) -> None:
        """A decimal figure (scaled into the property's unit), when known."""
        if value is not None:
            self.quads.add(row, graph, node, prop, decimal_literal(value * scale))

    def flag(self, row: RowKey, graph: str, node: URIRef, flag: str, note: str) -> None:
        """Flag a suspicious value as data (aikg:flag, aikg:note) and for the report."""
        self.quads.add(row, graph, node, AIKG.flag, Literal(flag))
        self.quads.add(row, graph, node, AIKG.note, Literal(note, lang="en"))
        self.flags.append(Flag(row[0], row[1], str(node), flag, note))


def _url(link: str) -> URIRef | None:
    link = link.strip()
    if not link.startswith(("http://", "https://")) or any(c in link for c in ' <>"{}|\\^`\n'):
        return None
    return URIRef(link)


def _weakest(tags: Iterable[str | None]) -> str | None:
    """The least certain confidence word among a row's tags."""
    known = [t for t in tags if t and t in CERTAINTY]
    return max(known, key=lambda t: _WEAKNESS[CERTAINTY[t]]) if known else None


def _links(row: dict[str, str], *columns: str) -> list[str]:
    return [row.get(c, "") for c in columns]


BYTES_PER_GB = Decimal(10) ** -9
HOURS_PER_DAY = Decimal(1) / Decimal(24)


# --- ml_hardware.csv ----------------------------------------------------------------------------------

HARDWARE_CLASSES = {"gpu": AIKG.GPU, "tpu": AIKG.TPU, "lpu": AIKG.LPU}
PERFORMANCE = (
    ("FP64 (double precision) performance (FLOP/s)", AIKG.fp64Performance),
    ("FP32 (single precision) performance (FLOP/s)", AIKG.fp32Performance),
    ("FP16 (half precision) performance (FLOP/s)", AIKG.fp16Performance),
    ("TF32 (TensorFloat-32) performance (FLOP/s)", AIKG.tf32Performance),
    ("Tensor-FP16/BF16 performance (FLOP/s)", AIKG.tensorFp16Performance),
    ("FP8 performance (FLOP/s)", AIKG.fp8Performance),
    ("FP4 performance (FLOP/s)", AIKG.fp4Performance),
    ("INT8 performance (OP/s)", AIKG.int8Performance),
)


def hardware_names(rows: Iterable[dict[str, str]]) -> dict[str, set[str]]:
    """Names this file asks the reconciler about."""
    return {"accelerator": {r["Hardware name"].strip() for r in rows if r.get("Hardware name", "").strip()},
            "organization": {r["Manufacturer"].strip() for r in rows if r.get("Manufacturer", "").strip()}}


def map_hardware(ctx: Context, graph: str, key: RowKey, r: dict[str, str]) -> None:
    """One accelerator: maker, kind, release date, FLOP/s per precision, memory, bandwidths, TDP, process."""
    name = (r.get("Hardware name") or "").strip()
    if not name:
        return
    cls = HARDWARE_CLASSES.get((r.get("Type") or "").strip().lower(), AIKG.Accelerator)
    chip = ctx.entity(key, graph, "accelerator", name, cls)
    q = ctx.quads
    q.add(key, graph, chip, RDF.type, cls)
    maker = (r.get("Manufacturer") or "").strip()
    if maker:
        vendor = ctx.entity(key, graph, "organization", maker, AIKG.HardwareVendor)
        q.add(key, graph, chip, AIKG.manufacturer, vendor)
        q.add(key, graph, vendor, RDF.type, AIKG.HardwareVendor)
    ctx.provenance(key, graph, chip, None, _links(r, "Link to datasheet"))
    release = date_literal(r.get("Release date"))
    if release is not None and ctx.reconciler.resolve("accelerator", name).status != "matched":
        q.add(key, graph, chip, AIKG.availableFrom, release)
    for column, prop in PERFORMANCE:
        ctx.figure(key, graph, chip, prop, number(r.get(column)))
    memory = number(r.get("Memory size per board (Byte)"))
    if memory is not None:
        if ctx.reconciler.resolve("accelerator", name).status != "matched":
            ctx.figure(key, graph, chip, AIKG.memoryPerChip, memory, BYTES_PER_GB)
        if memory < Decimal(10) ** 9:
            ctx.flag(key, graph, chip, "memory-under-1-gb",
                     f"memory per board is {plain(memory)} bytes (under 1 GB): possibly a unit slip")
    ctx.figure(key, graph, chip, AIKG.memoryBandwidth, number(r.get("Memory bandwidth (byte/s)")),
               BYTES_PER_GB)
    ctx.figure(key, graph, chip, AIKG.intranodeBandwidth, number(r.get("Intranode bandwidth (byte/s)")),
               BYTES_PER_GB)
    ctx.figure(key, graph, chip, AIKG.internodeBandwidth, number(r.get("Internode bandwidth (bit/s)")),
               BYTES_PER_GB)
    ctx.figure(key, graph, chip, AIKG.thermalDesignPower, number(r.get("TDP (W)")))
    ctx.figure(key, graph, chip, AIKG.processNode, number(r.get("Process size (nm)")))
    q.text(key, graph, chip, AIKG.foundryName, text(r.get("Foundry")))
    q.text(key, graph, chip, AIKG.note, text(r.get("Notes")))


# --- ai_models/*.csv ---------------------------------------------------------------------------------

def model_names(rows: Iterable[dict[str, str]]) -> dict[str, set[str]]:
    """Names this file asks the reconciler about."""
    rows = list(rows)
    return {"model": {r["Model"].strip() for r in rows if r.get("Model", "").strip()},
            "organization": {t.name for r in rows for t in tagged_list(r.get("Organization"))},
            "accelerator": {t.name for r in rows for t in tagged_list(r.get("Training hardware"))}}


def map_model(ctx: Context, graph: str, key: RowKey, r: dict[str, str], *, short: str) -> None:
    """A model and Epoch's training run of it: compute, hardware and count, time, cost with its year."""
    name = (r.get("Model") or "").strip()
    if not name:
        return
    q = ctx.quads
    model = ctx.entity(key, graph, "model", name, AIKG.AIModel)
    new_model = ctx.reconciler.resolve("model", name).status != "matched"
    for org in tagged_list(r.get("Organization")):
        q.add(key, graph, model, AIKG.developer, ctx.entity(key, graph, "organization", org.name,
                                                            AIKG.Organization))
    params = number(r.get("Parameters"))
    published = date_literal(r.get("Publication date"))
    if new_model and str(model) not in ctx.described:
        ctx.described.add(str(model))
        ctx.figure(key, graph, model, AIKG.totalParameters, params)
        q.add(key, graph, model, AIKG.releaseDate, published)
    run = ctx.row_node(f"training-run-{slugify(name)}-epoch-{short}")
    q.add(key, graph, run, RDF.type, AIKG.TrainingRun)
    q.add(key, graph, run, RDFS.label, Literal(f"{name} training run (Epoch AI, {short} models)", lang="en"))
    q.add(key, graph, run, AIKG.trainedModel, model)
    q.add(key, graph, run, AIKG.announcedOn, published)
    ctx.provenance(key, graph, run, r.get("Confidence"), _links(r, "Link"))
    ctx.figure(key, graph, run, AIKG.trainedParameters, params)
    ctx.figure(key, graph, run, AIKG.trainingCompute, number(r.get("Training compute (FLOP)")))
    chips = tagged_list(r.get("Training hardware"))
    for chip in chips:
        q.add(key, graph, run, AIKG.accelerator, ctx.entity(key, graph, "accelerator", chip.name,
                                                            AIKG.Accelerator))
    count = number(r.get("Hardware quantity"))
    if count is not None:
        if count == count.to_integral_value():
            q.add(key, graph, run, AIKG.acceleratorCount, integer_literal(count))
        else:
            ctx.flag(key, graph, run, "fractional-hardware-quantity",
                     f"hardware quantity {plain(count)} is not a whole number; left out")
    hours = number(r.get("Training time (hours)"))
    ctx.figure(key, graph, run, AIKG.durationDays, hours, HOURS_PER_DAY)
    ctx.figure(key, graph, run, AIKG.gpuHours, number(r.get("Training chip-hours")))
    cost = number(r.get("Training compute cost (2023 USD)"))
    if cost is not None:
        ctx.figure(key, graph, run, AIKG.cost, cost)
        q.add(key, graph, run, AIKG.currency, Literal("USD"))
        q.add(key, graph, run, AIKG.costYear, Literal("2023", datatype=XSD.gYear))
    for column in ("Parameters notes", "Training compute notes", "Training time notes", "Compute cost notes"):
        note = text(r.get(column))
        if note:
            q.add(key, graph, run, AIKG.note, Literal(f"{column}: {note}", lang="en"))
    stated = parameters_in_notes(r.get("Parameters notes"))
    if params is not None and params > 0 and stated:
        closest = min(stated, key=lambda s: abs((s / params).ln()) if s > 0 else Decimal(99))
        if closest > 0 and abs((closest / params).log10()) >= 2:
            ctx.flag(key, graph, run, "parameters-disagree-with-notes",
                     f"Parameters column says {plain(params)}, the row's notes say {plain(closest)}: "
                     "orders of magnitude apart, probably a unit slip")


# --- gpu_clusters.csv --------------------------------------------------------------------------------

def cluster_names(rows: Iterable[dict[str, str]]) -> dict[str, set[str]]:
    """Names this file asks the reconciler about."""
    rows = list(rows)
    orgs = {t.name for r in rows for t in tagged_list(r.get("Owner"))}
    orgs |= {t.name for r in rows for t in tagged_list(r.get("Users"))
             if normalize(t.name) not in USER_CATEGORIES}
    orgs |= {r.get("GPU Supplier (primary)", "").strip() for r in rows} - {"", "Anonymized", "Unknown"}
    return {"organization": orgs,
            "accelerator": {r.get(c, "").strip() for r in rows
                            for c in ("Chip type (primary)", "Chip type (secondary)")} - {""}}


def map_cluster(ctx: Context, graph: str, key: RowKey, r: dict[str, str]) -> None:
    """A GPU cluster as a deployment: owners run it, users use it; chips, count, H100e, power, status."""
    name = (r.get("Name") or "").strip()
    if not name:
        return
    q = ctx.quads
    node = ctx.row_node(f"cluster-{slugify(name)}")
    q.add(key, graph, node, RDF.type, AIKG.Deployment)
    q.add(key, graph, node, RDFS.label, Literal(name, lang="en"))
    owners = tagged_list(r.get("Owner"))
    users = tagged_list(r.get("Users"))
    for owner in owners:
        q.add(key, graph, node, AIKG.operator, ctx.entity(key, graph, "organization", owner.name,
                                                          AIKG.Organization))
    for user in users:
        if normalize(user.name) in USER_CATEGORIES:
            q.add(key, graph, node, AIKG.userCategory, Literal(user.name))
        else:
            q.add(key, graph, node, AIKG.capacityUser, ctx.entity(key, graph, "organization", user.name,
                                                                  AIKG.Organization))
    supplier = (r.get("GPU Supplier (primary)") or "").strip()
    vendor = None
    if supplier.lower() not in SUPPLIER_UNKNOWN:
        vendor = ctx.entity(key, graph, "organization", supplier, AIKG.HardwareVendor)
        q.add(key, graph, vendor, RDF.type, AIKG.HardwareVendor)
    chips = [c for c in (r.get("Chip type (primary)", "").strip(), r.get("Chip type (secondary)", "").strip())
             if c]
    for i, chip_name in enumerate(chips):
        chip = ctx.entity(key, graph, "accelerator", chip_name, AIKG.Accelerator)
        q.add(key, graph, node, AIKG.accelerator, chip)
        new_chip = ctx.reconciler.resolve("accelerator", chip_name).status != "matched"
        if i == 0 and vendor is not None and new_chip:
            q.add(key, graph, chip, AIKG.manufacturer, vendor)
    if not chips and vendor is not None:
        q.add(key, graph, node, AIKG.acceleratorVendor, vendor)
    count = number(r.get("Total number of AI chips")) or number(r.get("Chip quantity (primary)"))
    if count is not None and count == count.to_integral_value():
        q.add(key, graph, node, AIKG.acceleratorCount, integer_literal(count))
    ctx.figure(key, graph, node, AIKG.h100Equivalents, number(r.get("H100 equivalents")))
    ctx.figure(key, graph, node, AIKG.powerCapacity, number(r.get("Power Capacity (MW)")))
    q.text(key, graph, node, AIKG.operationalStatus, text(r.get("Status")))
    q.add(key, graph, node, AIKG.date, date_literal(r.get("First Operational Date")))
    ctx.provenance(key, graph, node, r.get("Certainty"),
                   _links(r, "Source 1", "Source 2", "Source 3", "Source 4", "Source 5"))
    for column in ("Note", "Hardware note", "Certainty Note", "First Operational Date Note"):
        note = text(r.get(column))
        if note:
            q.add(key, graph, node, AIKG.note, Literal(f"{column}: {note}", lang="en"))


# --- data_centers.csv and data_center_timelines.csv ---------------------------------------------------

def datacenter_names(rows: Iterable[dict[str, str]]) -> dict[str, set[str]]:
    """Names this file asks the reconciler about."""
    rows = list(rows)
    orgs = {t.name for r in rows for c in ("Owner", "Users", "Investors", "Energy companies")
            for t in tagged_list(r.get(c))}
    return {"organization": orgs, "datacenter": {r.get("Handle", "").strip() for r in rows} - {""}}


def map_datacenter(ctx: Context, graph: str, key: RowKey, r: dict[str, str]) -> None:
    """A data center: owner (operator), users (tenants), investors, energy companies, power, capital cost."""
    handle = (r.get("Handle") or "").strip()
    if not handle:
        return
    q = ctx.quads
    site = ctx.entity(key, graph, "datacenter", handle, AIKG.DataCenter)
    title = text(r.get("Title"))
    if title and normalize(title) != normalize(handle):
        q.add(key, graph, site, SKOS.altLabel, Literal(title))
    tags: list[str | None] = []
    roles = (("Owner", AIKG.operator), ("Users", AIKG.tenant), ("Investors", AIKG.facilityInvestor),
             ("Energy companies", AIKG.energySupplier))
    notes = []
    for column, prop in roles:
        for who in tagged_list(r.get(column)):
            q.add(key, graph, site, prop, ctx.entity(key, graph, "organization", who.name, AIKG.Organization))
            tags.append(who.tag)
            if who.tag:
                notes.append(f"{column}: {who.name} #{who.tag}")
    for project in tagged_list(r.get("Project")):
        q.add(key, graph, site, AIKG.project, Literal(project.name))
        tags.append(project.tag)
    if notes:
        q.add(key, graph, site, AIKG.note, Literal("Epoch AI's tags: " + "; ".join(notes), lang="en"))
    ctx.provenance(key, graph, site, _weakest(tags))
    ctx.figure(key, graph, site, AIKG.h100Equivalents, number(r.get("Current H100 equivalents")))
    ctx.figure(key, graph, site, AIKG.powerCapacity, number(r.get("Current power (MW)")))
    cost = number(r.get("Current total capital cost (2025 USD billions)"))
    if cost is not None:
        ctx.figure(key, graph, site, AIKG.cost, cost, Decimal(10) ** 9)
        q.add(key, graph, site, AIKG.currency, Literal("USD"))
        q.add(key, graph, site, AIKG.costYear, Literal("2025", datatype=XSD.gYear))


def timeline_names(rows: Iterable[dict[str, str]]) -> dict[str, set[str]]:
    """Names this file asks the reconciler about."""
    return {"datacenter": {r.get("Data center", "").strip() for r in rows} - {""}}


def map_timeline(ctx: Context, graph: str, key: RowKey, r: dict[str, str]) -> None:
    """One step of a data center's timeline: a capacity phase with date, power, H100e and capital cost."""
    site_name = (r.get("Data center") or "").strip()
    when = date_literal(r.get("Date"))
    if not site_name:
        return
    q = ctx.quads
    site = ctx.entity(key, graph, "datacenter", site_name, AIKG.DataCenter)
    stamp = str(when) if when is not None else "undated"
    phase = ctx.row_node(f"phase-{slugify(site_name)}-{slugify(stamp)}")
    q.add(key, graph, phase, RDF.type, AIKG.CapacityPhase)
    q.add(key, graph, phase, RDFS.label, Literal(f"{site_name} on {stamp}", lang="en"))
    q.add(key, graph, phase, AIKG.phaseOf, site)
    q.add(key, graph, phase, AIKG.date, when)
    q.text(key, graph, phase, AIKG.description, text(r.get("Construction status")))
    ctx.provenance(key, graph, phase, None)
    ctx.figure(key, graph, phase, AIKG.powerCapacity, number(r.get("Power (MW)")))
    ctx.figure(key, graph, phase, AIKG.h100Equivalents, number(r.get("H100 equivalents")))
    cost = number(r.get("Total capital cost (2025 USD billions)"))
    if cost is not None:
        ctx.figure(key, graph, phase, AIKG.cost, cost, Decimal(10) ** 9)
        q.add(key, graph, phase, AIKG.currency, Literal("USD"))
        q.add(key, graph, phase, AIKG.costYear, Literal("2025", datatype=XSD.gYear))


# --- ai_companies_funding_rounds.csv -----------------------------------------------------------------

ROUND_STATUS = {"closed": AIKG.Closed, "late discussions": AIKG.Planned, "announced": AIKG.Announced}


def funding_names(rows: Iterable[dict[str, str]]) -> dict[str, set[str]]:
    """Names this file asks the reconciler about."""
    return {"organization": {r.get("Company", "").strip() for r in rows} - {""}}


def map_funding(ctx: Context, graph: str, key: RowKey, r: dict[str, str]) -> None:
    """A funding round: company, close date, equity (amount), debt, post-money valuation, status."""
    company_name = (r.get("Company") or "").strip()
    round_id = (r.get("Id") or "").strip()
    if not company_name:
        return
    q = ctx.quads
    company = ctx.entity(key, graph, "organization", company_name, AIKG.Organization)
    node = ctx.row_node(f"funding-round-{slugify(company_name)}-{slugify(round_id)}")
    q.add(key, graph, node, RDF.type, AIKG.FundingRound)
    q.add(key, graph, node, RDFS.label, Literal(f"{company_name} funding round: {round_id}", lang="en"))
    q.add(key, graph, node, AIKG.investee, company)
    q.text(key, graph, node, AIKG.roundName, round_id or None)
    q.add(key, graph, node, AIKG.date, date_literal(r.get("Close date")))
    q.add(key, graph, node, AIKG.status, ROUND_STATUS.get((r.get("Status") or "").strip().lower()))
    equity = number(r.get("Funding (equity)"))
    debt = number(r.get("Funding (debt)"))
    valuation = number(r.get("Valuation (post-money)"))
    ctx.figure(key, graph, node, AIKG.amount, equity)
    ctx.figure(key, graph, node, AIKG.debtAmount, debt)
    ctx.figure(key, graph, node, AIKG.postMoneyValuation, valuation)
    if equity is not None or debt is not None or valuation is not None:
        q.add(key, graph, node, AIKG.currency, Literal("USD"))
    ctx.provenance(key, graph, node, r.get("Confidence"), _links(r, "Source 1", "Source 2", "Source 3"))
    for column in ("Notes", "Graph note"):
        note = text(r.get(column))
        if note:
            q.add(key, graph, node, AIKG.note, Literal(note, lang="en"))


@dataclass(frozen=True)
class Dataset:
    """One Epoch file aikg imports: where it is, its graph, title, and how its rows are mapped."""

    path: str
    stem: str
    title: str
    url: str
    names: Callable[[Iterable[dict[str, str]]], dict[str, set[str]]]
    mapper: Callable[..., None]
    options: tuple[tuple[str, object], ...] = ()


DATASETS: tuple[Dataset, ...] = (
    Dataset("ml_hardware/ml_hardware.csv", "ml-hardware", "Epoch AI: Machine Learning Hardware",
            "https://epoch.ai/data/machine-learning-hardware", hardware_names, map_hardware),
    Dataset("ai_models/notable_ai_models.csv", "notable-ai-models", "Epoch AI: Notable AI Models",
            "https://epoch.ai/data/ai-models", model_names, map_model,
            (("short", "notable"),)),
    Dataset("ai_models/large_scale_ai_models.csv", "large-scale-ai-models", "Epoch AI: Large-Scale AI Models",
            "https://epoch.ai/data/ai-models", model_names, map_model,
            (("short", "large-scale"),)),
    Dataset("ai_models/frontier_ai_models.csv", "frontier-ai-models", "Epoch AI: Frontier AI Models",
            "https://epoch.ai/data/ai-models", model_names, map_model,
            (("short", "frontier"),)),
    Dataset("gpu_clusters/gpu_clusters.csv", "gpu-clusters", "Epoch AI: GPU Clusters",
            "https://epoch.ai/data/gpu-clusters", cluster_names, map_cluster),
    Dataset("data_centers/data_centers.csv", "data-centers", "Epoch AI: Frontier Data Centers",
            "https://epoch.ai/data/data-centers", datacenter_names, map_datacenter),
    Dataset("data_centers/data_center_timelines.csv", "data-center-timelines",
            "Epoch AI: Frontier Data Centers (timelines)", "https://epoch.ai/data/data-centers",
            timeline_names, map_timeline),
    Dataset("ai_companies/ai_companies_funding_rounds.csv", "ai-companies-funding-rounds",
            "Epoch AI: AI Companies (funding rounds)", "https://epoch.ai/data/ai-companies",
            funding_names, map_funding),
)
"""The files imported, in the order their rows are mapped (hardware first, so chips keep its names)."""

