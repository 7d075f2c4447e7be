"""Epoch's CSV files mapped onto aikg's ontology, one function per file.

Each row becomes the node it describes (an accelerator, a deployment, a data center, a funding round, a
company figure, a chiller) or, for model rows, the model and its training run. Every fact goes into
the graph of its file, so a figure another source gives differently stays beside it: a merge never
drops a value. Names are resolved by :mod:`aikg.epoch.reconcile`. A row without the cell that
identifies it is rejected with that reason; every other cell is known when known.
"""

from __future__ import annotations

from decimal import Decimal

from rdflib import Literal, URIRef
from rdflib.namespace import RDF, RDFS, SKOS, XSD

from aikg.epoch.context import Context, Rejected, Row
from aikg.epoch.links import CLUSTER_LINKS
from aikg.epoch.values import normalize, parameters_in_notes, plain, slugify, unit_slip
from aikg.namespaces import AIKG

BYTES_PER_GB = Decimal(10) ** -9
HOURS_PER_DAY = Decimal(1) / Decimal(24)
BILLION = Decimal(10) ** 9

USER_CATEGORIES = frozenset(
    {
        "cloud",
        "academia",
        "researchers",
        "government",
        "industry",
        "various",
        "military",
        "public",
        "enterprise",
        "enterprises",
        "startups",
        "internal",
    }
)
"""Words Epoch writes in user lists that name a kind of user, not an organization."""

SUPPLIER_UNKNOWN = frozenset({"anonymized", "unknown", ""})


def _require(row: Row, column: str) -> str:
    value = row.text(column)
    if value is None:
        raise Rejected(f"the row has no {column!r}: nothing identifies what it describes")
    return value


def _money(
    ctx: Context,
    row: Row,
    node: URIRef,
    prop: URIRef,
    value: Decimal | None,
    year: str | None = None,
    scale: Decimal = Decimal(1),
) -> None:
    if value is None:
        return
    ctx.figure(row, node, prop, value, scale)
    ctx.quads.add(row.key, row.graph, node, AIKG.currency, Literal("USD"))
    if year:
        ctx.quads.add(row.key, row.graph, node, AIKG.costYear, Literal(year, datatype=XSD.gYear))


def _notes(ctx: Context, row: Row, node: URIRef, *columns: str, prefixed: bool = True) -> None:
    for column in columns:
        note = row.text(column)
        if note:
            ctx.quads.add(
                row.key,
                row.graph,
                node,
                AIKG.note,
                Literal(f"{column}: {note}" if prefixed else note, lang="en"),
            )


# --- ml_hardware.csv ----------------------------------------------------------------------------------

HARDWARE_CLASSES = {"gpu": AIKG.GPU, "gpgpu": AIKG.GPU, "tpu": AIKG.TPU, "lpu": AIKG.LPU}
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


def hardware_names(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    """Names this file asks the resolver about."""
    return {
        "accelerator": [r.get("Hardware name", "") for r in rows],
        "organization": [r.get("Manufacturer", "") for r in rows],
    }


def map_hardware(ctx: Context, row: Row) -> None:
    """One accelerator: maker, kind, release date, FLOP/s per precision, memory, bandwidths, TDP, process."""
    name = _require(row, "Hardware name")
    cls = HARDWARE_CLASSES.get((row.text("Type") or "").lower(), AIKG.Accelerator)
    chip = ctx.entity(row, "accelerator", name, cls)
    q, key, g = ctx.quads, row.key, row.graph
    maker = row.text("Manufacturer")
    if maker:
        vendor = ctx.entity(row, "organization", maker, AIKG.HardwareVendor)
        q.add(key, g, chip, AIKG.manufacturer, vendor)
    ctx.provenance(row, chip, None, [row.raw("Link to datasheet")])
    q.add(key, g, chip, AIKG.availableFrom, row.date("Release date"))
    for column, prop in PERFORMANCE:
        ctx.figure_cell(row, chip, prop, column)
    memory = row.number("Memory size per board (Byte)")
    if memory is not None:
        ctx.figure(row, chip, AIKG.memoryPerChip, memory, BYTES_PER_GB)
        if memory < Decimal(10) ** 9:
            ctx.flag(
                row,
                chip,
                "memory-under-1-gb",
                f"memory per board is {plain(memory)} bytes (under 1 GB): possibly a unit slip",
            )
    ctx.figure_cell(row, chip, AIKG.memoryBandwidth, "Memory bandwidth (byte/s)", BYTES_PER_GB)
    ctx.figure_cell(row, chip, AIKG.intranodeBandwidth, "Intranode bandwidth (byte/s)", BYTES_PER_GB)
    ctx.figure_cell(row, chip, AIKG.internodeBandwidth, "Internode bandwidth (bit/s)", BYTES_PER_GB)
    ctx.figure_cell(row, chip, AIKG.thermalDesignPower, "TDP (W)")
    ctx.figure_cell(row, chip, AIKG.processNode, "Process size (nm)")
    q.text(key, g, chip, AIKG.foundryName, row.text("Foundry"))
    _notes(ctx, row, chip, "Notes", prefixed=False)


# --- ai_models/*.csv ---------------------------------------------------------------------------------


def model_names(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    """Names this file asks the resolver about."""
    from .values import tagged_list

    return {
        "model": [r.get("Model", "") for r in rows],
        "organization": [t.name for r in rows for t in tagged_list(r.get("Organization"))],
        "accelerator": [t.name for r in rows for t in tagged_list(r.get("Training hardware"))],
    }


def map_model(ctx: Context, row: Row) -> None:
    """A model and its training run: compute, hardware and count, time, chip-hours, cost with its year.

    The model's own figures (parameters, publication date, developer, domain) go on the model, the
    training's on the run; both in this file's graph, next to what other sources say of them.
    """
    name = _require(row, "Model")
    q, key, g = ctx.quads, row.key, row.graph
    model_decision = ctx.reconciler.resolve("model", name, g)
    model = ctx.entity(row, "model", name, AIKG.AIModel)
    q.owns(key, model)
    q.add(key, g, model, AIKG.sourceRow, Literal(row.line, datatype=XSD.integer))
    for org in row.names("Organization"):
        q.add(key, g, model, AIKG.developer, ctx.entity(row, "organization", org.name, AIKG.Organization))
    params = row.number("Parameters")
    published = row.date("Publication date")
    ctx.figure(row, model, AIKG.totalParameters, params)
    q.add(key, g, model, AIKG.releaseDate, published)
    for domain in row.names("Domain"):
        q.add(key, g, model, AIKG.modelDomain, Literal(domain.name))
    run = ctx.run(row, model_decision, name)
    q.add(key, g, run, AIKG.trainedModel, model)
    ctx.provenance(row, run, row.raw("Confidence"), [row.raw("Link")])
    ctx.figure_cell(row, run, AIKG.trainingCompute, "Training compute (FLOP)")
    for chip in row.names("Training hardware"):
        q.add(key, g, run, AIKG.accelerator, ctx.entity(row, "accelerator", chip.name, AIKG.Accelerator))
    q.add(key, g, run, AIKG.acceleratorCount, row.whole("Hardware quantity"))
    # Hours to days: six decimals (under a tenth of a second), so rules multiplying days stay exact.
    ctx.figure_cell(row, run, AIKG.durationDays, "Training time (hours)", HOURS_PER_DAY, places=6)
    ctx.figure_cell(row, run, AIKG.gpuHours, "Training chip-hours")
    _money(ctx, row, run, AIKG.cost, row.number("Training compute cost (2023 USD)"), "2023")
    _notes(
        ctx,
        row,
        run,
        "Parameters notes",
        "Training compute notes",
        "Training time notes",
        "Compute cost notes",
    )
    slip = unit_slip(params, parameters_in_notes(row.raw("Parameters notes"))) if params else None
    if slip is not None and params:
        ctx.flag(
            row,
            model,
            "parameters-disagree-with-notes",
            f"Parameters column says {plain(params)}, the row's notes say {plain(slip)}: the same "
            f"digits {plain(slip / params)} times apart, probably a unit slip",
        )


# --- gpu_clusters.csv --------------------------------------------------------------------------------


def cluster_names(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    """Names this file asks the resolver about."""
    from .values import tagged_list

    orgs = [t.name for r in rows for t in tagged_list(r.get("Owner"))]
    orgs += [
        r.get("GPU Supplier (primary)", "")
        for r in rows
        if r.get("GPU Supplier (primary)", "").strip().lower() not in SUPPLIER_UNKNOWN
    ]
    return {
        "organization": orgs,
        "accelerator": [r.get(c, "") for r in rows for c in ("Chip type (primary)", "Chip type (secondary)")],
    }


CLUSTER_FLAGS = (
    ("Single cluster?", AIKG.singleCluster),
    ("Possible Duplicate", AIKG.flaggedPossibleDuplicate),
    ("Include in Standard Analysis", AIKG.inStandardAnalysis),
)
"""Epoch's yes/no columns of a cluster row, and the property each is read into. An empty cell states
nothing (every fact cites a cell that holds it): a row Epoch leaves unchecked has no value."""


def map_cluster(ctx: Context, row: Row) -> None:
    """A GPU cluster as a deployment: owners run it, users use it; chips, count, H100e, power, status.

    Epoch names no owner for planned campuses and anonymized systems: their owner is unknown, and the
    cluster is kept with what is known of it.
    """
    name = _require(row, "Name")
    q, key, g = ctx.quads, row.key, row.graph
    node = ctx.row_node(
        f"cluster-{slugify(name)}",
        [
            row.raw(c)
            for c in (
                "Country",
                "Location",
                "First Operational Date",
                "Chip type (primary)",
                "Chip quantity (primary)",
                "H100 equivalents",
                "Status",
                "Owner",
                "Users",
            )
        ],
    )
    q.add(key, g, node, RDF.type, AIKG.Deployment)
    q.add(key, g, node, RDFS.label, Literal(name, lang="en"))
    for owner in row.names("Owner"):
        q.add(key, g, node, AIKG.operator, ctx.entity(row, "organization", owner.name, AIKG.Organization))
    # Users is free text ("Cloud", "Researchers in academia and industry"): a user is linked as an
    # organization when the store or another column names that organization; otherwise it is kept in
    # Epoch's words, never turned into an organization of its own.
    for user in row.names("Users"):
        if normalize(user.name) not in USER_CATEGORIES and ctx.reconciler.is_named("organization", user.name):
            q.add(
                key, g, node, AIKG.capacityUser, ctx.entity(row, "organization", user.name, AIKG.Organization)
            )
        else:
            q.add(key, g, node, AIKG.userCategory, Literal(user.name))
    supplier = row.text("GPU Supplier (primary)") or ""
    vendor = None
    if supplier.lower() not in SUPPLIER_UNKNOWN:
        vendor = ctx.entity(row, "organization", supplier, AIKG.HardwareVendor)
    kinds = [
        (name, column)
        for name, column in (
            (row.text("Chip type (primary)"), "Chip quantity (primary)"),
            (row.text("Chip type (secondary)"), "Chip quantity (secondary)"),
        )
        if name
    ]
    chips = [name for name, _ in kinds]
    for i, (chip_name, quantity) in enumerate(kinds):
        chip = ctx.entity(row, "accelerator", chip_name, AIKG.Accelerator)
        q.add(key, g, node, AIKG.accelerator, chip)
        if i == 0 and vendor is not None:
            q.add(key, g, chip, AIKG.manufacturer, vendor)
        if len(kinds) > 1:
            # Two kinds of chips: each keeps its own count (the node keeps the total).
            group = ctx.row_node(f"{node.rsplit('/', 1)[-1]}-chips-{chip.rsplit('/', 1)[-1]}")
            q.owns(key, group)
            q.add(key, g, group, RDF.type, AIKG.AcceleratorGroup)
            q.add(key, g, node, AIKG.acceleratorGroup, group)
            q.add(key, g, group, AIKG.accelerator, chip)
            q.add(key, g, group, AIKG.acceleratorCount, row.whole(quantity))
    if not chips and vendor is not None:
        q.add(key, g, node, AIKG.acceleratorVendor, vendor)
    count = (
        row.whole("Total number of AI chips")
        if row.text("Total number of AI chips")
        else row.whole("Chip quantity (primary)")
    )
    q.add(key, g, node, AIKG.acceleratorCount, count)
    ctx.figure_cell(row, node, AIKG.h100Equivalents, "H100 equivalents")
    ctx.figure_cell(row, node, AIKG.powerCapacity, "Power Capacity (MW)")
    q.text(key, g, node, AIKG.operationalStatus, row.text("Status"))
    q.add(key, g, node, AIKG.date, row.date("First Operational Date"))
    q.add(key, g, node, AIKG.endDate, row.date("Decommissioned Date (if applicable)"))
    for column in ("Location", "Country"):
        q.text(key, g, node, AIKG.locationName, row.text(column))
    ctx.provenance(row, node, row.raw("Certainty"), [row.raw(f"Source {i}") for i in range(1, 6)])
    _notes(ctx, row, node, "Note", "Hardware note", "Certainty Note", "First Operational Date Note")
    # Epoch's own judgement of the row, kept as the source's values: whether it is one cluster (a cloud's
    # fleet is not), whether it may list chips another row lists (named or not), and whether Epoch's
    # standard analysis counts it. Totals do not read them (named-queries.md, "Totals over clusters").
    for column, prop in CLUSTER_FLAGS:
        q.add(key, g, node, prop, row.flag(column))
    # The clusters this one is superseded by, builds upon or may duplicate: linked by name once every
    # row is mapped (the row is named last, so a row rejected above is no link's target).
    ctx.row_names.name(row, name, node)
    for column, prop in CLUSTER_LINKS:
        ctx.row_names.link_later(row, node, prop, column)


# --- data_centers.csv and data_center_timelines.csv ---------------------------------------------------


def datacenter_names(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    """Names this file asks the resolver about."""
    from .values import tagged_list

    return {
        "organization": [
            t.name
            for r in rows
            for c in ("Owner", "Users", "Investors", "Energy companies", "Construction companies")
            for t in tagged_list(r.get(c))
        ],
        "datacenter": [r.get("Handle", "") for r in rows],
    }


DATACENTER_ROLES = (
    ("Owner", AIKG.operator),
    ("Users", AIKG.tenant),
    ("Investors", AIKG.facilityInvestor),
    ("Energy companies", AIKG.energySupplier),
    ("Construction companies", AIKG.builder),
)


def map_datacenter(ctx: Context, row: Row) -> None:
    """A data center: owner (operator), users (tenants), investors, energy and construction companies,
    power, H100-equivalents, capital cost; Epoch's #confident / #likely / #speculative tags kept."""
    handle = _require(row, "Handle")
    q, key, g = ctx.quads, row.key, row.graph
    site = ctx.entity(row, "datacenter", handle, AIKG.DataCenter)
    title = row.text("Title")
    if title and normalize(title) != normalize(handle):
        q.add(key, g, site, SKOS.altLabel, Literal(title))
    # Each link keeps Epoch's own tag (Microsoft #confident as owner, OpenAI #speculative as user): the
    # site has no confidence of its own, the row rates its links one by one.
    for column, prop in DATACENTER_ROLES:
        for who in row.names(column):
            target = ctx.entity(row, "organization", who.name, AIKG.Organization)
            q.add(key, g, site, prop, target)
            ctx.rate(row, site, prop, target, who.tag)
    for project in row.names("Project"):
        q.add(key, g, site, AIKG.project, Literal(project.name))
        ctx.rate(row, site, AIKG.project, Literal(project.name), project.tag)
    q.text(key, g, site, AIKG.locationName, row.text("Address"))
    ctx.provenance(row, site, None)
    ctx.figure_cell(row, site, AIKG.h100Equivalents, "Current H100 equivalents")
    ctx.figure_cell(row, site, AIKG.powerCapacity, "Current power (MW)")
    _money(
        ctx,
        row,
        site,
        AIKG.cost,
        row.number("Current total capital cost (2025 USD billions)"),
        "2025",
        BILLION,
    )


def timeline_names(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    """Names this file asks the resolver about."""
    return {"datacenter": [r.get("Data center", "") for r in rows]}


def map_timeline(ctx: Context, row: Row) -> None:
    """One step of a data center's timeline: a capacity phase with date, power, H100e and capital cost."""
    site_name = _require(row, "Data center")
    when = row.date("Date")
    q, key, g = ctx.quads, row.key, row.graph
    site = ctx.entity(row, "datacenter", site_name, AIKG.DataCenter)
    stamp = str(when) if when is not None else "undated"
    phase = ctx.row_node(f"phase-{slugify(site_name)}-{slugify(stamp)}", [row.raw("Construction status")])
    q.add(key, g, phase, RDF.type, AIKG.CapacityPhase)
    q.add(key, g, phase, RDFS.label, Literal(f"{site_name} on {stamp}", lang="en"))
    q.add(key, g, phase, AIKG.phaseOf, site)
    q.add(key, g, phase, AIKG.date, when)
    q.text(key, g, phase, AIKG.description, row.text("Construction status"))
    ctx.provenance(row, phase, None)
    ctx.figure_cell(row, phase, AIKG.powerCapacity, "Power (MW)")
    ctx.figure_cell(row, phase, AIKG.h100Equivalents, "H100 equivalents")
    _money(ctx, row, phase, AIKG.cost, row.number("Total capital cost (2025 USD billions)"), "2025", BILLION)


# --- data_center_chillers.csv and data_center_cooling_towers.csv --------------------------------------


def equipment_names(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    """Names this file asks the resolver about."""
    return {
        "organization": [r.get("Manufacturer", "") for r in rows],
        "equipment": [
            f"{r.get('Manufacturer', '').strip()} {r.get('Model', '').strip()}".strip() for r in rows
        ],
    }


def map_equipment(ctx: Context, row: Row, *, cls: URIRef) -> None:
    """A chiller or cooling-tower model: maker, cooling type and capacity, fans, size, motor."""
    model = _require(row, "Model")
    maker = row.text("Manufacturer")
    name = f"{maker} {model}" if maker else model
    q, key, g = ctx.quads, row.key, row.graph
    node = ctx.entity(row, "equipment", name, cls)
    if maker:
        q.add(key, g, node, AIKG.manufacturer, ctx.entity(row, "organization", maker, AIKG.Organization))
    ctx.provenance(row, node, None, [row.raw("Link")])
    q.text(key, g, node, AIKG.coolingType, row.text("Type"))
    ctx.figure_cell(
        row,
        node,
        AIKG.coolingCapacity,
        "Cooling capacity (kW)" if "Cooling capacity (kW)" in row.cells else "Cooling capacity (stated, kW)",
    )
    ctx.figure_cell(row, node, AIKG.coolingCapacityEstimate, "Cooling capacity (central estimate, kW)")
    count = row.whole("Number of fans") if "Number of fans" in row.cells else row.whole("Number of Fans")
    q.add(key, g, node, AIKG.fanCount, count)
    ctx.figure_cell(row, node, AIKG.fanDiameter, "Fan Diameter (m)")
    if row.text("Fan Diameter (m)") is None and row.text("Fan estimate diameter (m)"):
        ctx.figure_cell(row, node, AIKG.fanDiameter, "Fan estimate diameter (m)")
        q.add(key, g, node, AIKG.note, Literal("The fan diameter is Epoch AI's estimate.", lang="en"))
    ctx.figure_cell(row, node, AIKG.lengthMetres, "Length (m)")
    ctx.figure_cell(row, node, AIKG.widthMetres, "Width (m)")
    ctx.figure_cell(row, node, AIKG.heightMetres, "Height (m)")
    ctx.figure_cell(row, node, AIKG.footprintArea, "Area (m^2)")
    ctx.figure_cell(row, node, AIKG.motorPower, "Motor Horsepower")
    _notes(ctx, row, node, "Source", "Spot check", "Notes")


# --- ai_companies/*.csv -------------------------------------------------------------------------------

ROUND_STATUS = {"closed": AIKG.Closed, "late discussions": AIKG.Planned, "announced": AIKG.Announced}


def company_names(rows: list[dict[str, str]]) -> dict[str, list[str]]:
    """Names this file asks the resolver about."""
    return {
        "organization": [
            r.get(c, "") for r in rows for c in ("Name", "Company", "Organization (from Organizations)")
        ]
    }


def map_company(ctx: Context, row: Row) -> None:
    """An AI company: its kind, product domains, founding date; Epoch's organization for it, when that
    is another name (Google's is Google DeepMind), as a unit of the company."""
    name = _require(row, "Name")
    q, key, g = ctx.quads, row.key, row.graph
    company = ctx.entity(row, "organization", name, AIKG.Organization)
    ctx.provenance(row, company, None, [row.raw("Founding source/notes")])
    q.text(key, g, company, AIKG.companyType, row.text("Company type"))
    for domain in row.names("Product Domain(s)"):
        q.add(key, g, company, AIKG.productDomain, Literal(domain.name))
    q.add(key, g, company, AIKG.foundedIn, row.date("Founding date"))
    note = row.text("Founding source/notes")
    if note and not note.startswith(("http://", "https://")):
        q.add(key, g, company, AIKG.note, Literal(f"Founding source/notes: {note}", lang="en"))
    for org in row.names("Organization (from Organizations)"):
        if normalize(org.name) != normalize(name):
            unit = ctx.entity(row, "organization", org.name, AIKG.Organization)
            if unit != company:
                q.add(key, g, unit, AIKG.parentOrganization, company)


def map_funding(ctx: Context, row: Row) -> None:
    """A funding round: company, close date, equity (amount), debt, post-money valuation, status."""
    company_name = _require(row, "Company")
    round_id = row.text("Id") or ""
    q, key, g = ctx.quads, row.key, row.graph
    company = ctx.entity(row, "organization", company_name, AIKG.Organization)
    node = ctx.row_node(f"funding-round-{slugify(company_name)}-{slugify(round_id)}", [row.raw("Close date")])
    q.add(key, g, node, RDF.type, AIKG.FundingRound)
    q.add(
        key, g, node, RDFS.label, Literal(f"{company_name} funding round: {round_id}".rstrip(": "), lang="en")
    )
    q.add(key, g, node, AIKG.investee, company)
    q.text(key, g, node, AIKG.roundName, round_id or None)
    q.add(key, g, node, AIKG.date, row.date("Close date"))
    q.add(key, g, node, AIKG.reportedOn, row.date("Report date"))
    status = (row.text("Status") or "").lower()
    if status and status not in ROUND_STATUS:
        row.problem(
            "unreadable-value",
            "Status",
            row.raw("Status"),
            f"Status {row.raw('Status')!r} is not one aikg knows (Closed, Late discussions, Announced): "
            "kept as a note",
        )
        q.add(key, g, node, AIKG.note, Literal(f"Status: {row.raw('Status')}", lang="en"))
    q.add(key, g, node, AIKG.status, ROUND_STATUS.get(status))
    equity, debt = row.number("Funding (equity)"), row.number("Funding (debt)")
    valuation = row.number("Valuation (post-money)")
    ctx.figure(row, node, AIKG.amount, equity)
    ctx.figure(row, node, AIKG.debtAmount, debt)
    ctx.figure(row, node, AIKG.postMoneyValuation, valuation)
    raised = (equity or 0) + (debt or 0)
    if valuation is not None and raised > 0 and valuation <= raised:
        # A company is worth more after a round than the money the round brought: a post-money
        # valuation not above it looks like the round's size entered as its valuation. Kept, flagged.
        ctx.flag(
            row,
            node,
            "valuation-not-above-round-size",
            f"post-money valuation {plain(valuation)} is not above the money the round raised "
            f"({plain(equity or Decimal(0))} equity + {plain(debt or Decimal(0))} debt): possibly the "
            "round's size entered as its valuation; the value is kept as the file gives it",
        )
    if equity is not None or debt is not None or valuation is not None:
        q.add(key, g, node, AIKG.currency, Literal("USD"))
    kind = row.text("Type")
    if kind:
        q.add(key, g, node, AIKG.note, Literal(f"Round type: {kind}", lang="en"))
    ctx.provenance(row, node, row.raw("Confidence"), [row.raw(f"Source {i}") for i in range(1, 4)])
    _notes(ctx, row, node, "Notes", "Graph note", prefixed=False)


def _figure_node(ctx: Context, row: Row, prefix: str, cls: URIRef, what: str) -> URIRef:
    company_name = _require(row, "Company")
    figure_id = row.text("Id") or ""
    q, key, g = ctx.quads, row.key, row.graph
    company = ctx.entity(row, "organization", company_name, AIKG.Organization)
    node = ctx.row_node(
        f"{prefix}-{slugify(company_name)}-{slugify(figure_id)}", [row.raw("Date"), row.raw("Report date")]
    )
    q.add(key, g, node, RDF.type, cls)
    q.add(key, g, node, RDFS.label, Literal(f"{company_name} {what}: {figure_id}".rstrip(": "), lang="en"))
    q.add(key, g, node, AIKG.agent, company)
    q.add(key, g, node, AIKG.date, row.date("Date"))
    q.add(key, g, node, AIKG.reportedOn, row.date("Report date"))
    q.text(key, g, node, AIKG.sourceType, row.text("Source type") or row.text("Source Type"))
    ctx.provenance(row, node, row.raw("Confidence"), [row.raw(f"Source {i}") for i in range(1, 4)])
    _notes(ctx, row, node, "Notes", "Graph note", prefixed=False)
    return node


def map_revenue(ctx: Context, row: Row) -> None:
    """A revenue figure: revenue normalized to a year (USD), what kind of figure, the text as reported."""
    node = _figure_node(ctx, row, "revenue", AIKG.RevenueFigure, "revenue")
    q, key, g = ctx.quads, row.key, row.graph
    _money(ctx, row, node, AIKG.annualRevenue, row.number("Revenue amount (normalize to annual)"))
    q.text(key, g, node, AIKG.figureKind, row.text("Type"))
    q.text(key, g, node, AIKG.description, row.text("Revenue info (non-annualized)"))


def map_staff(ctx: Context, row: Row) -> None:
    """A staff figure: how many people, in the whole company or one division."""
    node = _figure_node(ctx, row, "staff", AIKG.StaffFigure, "staff")
    q, key, g = ctx.quads, row.key, row.graph
    q.add(key, g, node, AIKG.staffCount, row.whole("Staff count"))
    q.text(key, g, node, AIKG.figureKind, row.text("Type"))
    q.text(key, g, node, AIKG.companyDivision, row.text("Division name"))


def map_usage(ctx: Context, row: Row) -> None:
    """A usage figure: active users over a period, tokens and messages per day, for which product."""
    node = _figure_node(ctx, row, "usage", AIKG.UsageFigure, "usage")
    q, key, g = ctx.quads, row.key, row.graph
    q.add(key, g, node, AIKG.activeUsers, row.whole("Active users"))
    q.text(key, g, node, AIKG.activeUsersPeriod, row.text("Active users time period"))
    ctx.figure_cell(row, node, AIKG.dailyTokens, "Daily tokens")
    ctx.figure_cell(row, node, AIKG.dailyMessages, "Daily messages")
    q.text(key, g, node, AIKG.product, row.text("Product"))


def map_compute_spend(ctx: Context, row: Row) -> None:
    """A compute-spending figure: the amount (USD) over a period, and what it went on."""
    node = _figure_node(ctx, row, "compute-spend", AIKG.ComputeSpendFigure, "compute spending")
    q, key, g = ctx.quads, row.key, row.graph
    _money(ctx, row, node, AIKG.computeSpend, row.number("Amount"))
    for category in row.names("Category"):
        q.add(key, g, node, AIKG.spendCategory, Literal(category.name))
    q.text(key, g, node, AIKG.periodType, row.text("Period type"))
