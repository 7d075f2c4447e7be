"""The Epoch files aikg imports: where each is, its graph and title, how its rows are mapped, which
columns it reads and which it leaves out, and why (the README's table is this one, in words).

All fifteen CSV files of the snapshot are imported. A column a file has that is neither read nor left
out on purpose is reported by name on import, as is a column read that the file lacks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aikg.epoch import mapping as m
from aikg.namespaces import AIKG

OWN_WORDS = "Epoch's own chart and bookkeeping settings, not facts"
COMPUTED = "computed by Epoch from other columns aikg imports"
NOT_MODELLED = "no aikg term yet (a candidate for a later ontology change)"


@dataclass(frozen=True)
class Dataset:
    """One Epoch file aikg imports."""

    path: str
    stem: str
    title: str
    url: str
    names: Callable[[list[dict[str, str]]], dict[str, list[str]]]
    mapper: Callable[..., None]
    reads: tuple[str, ...]
    ignores: dict[str, str] = field(default_factory=dict)
    """Columns left out on purpose, with the reason."""
    options: tuple[tuple[str, Any], ...] = ()
    published: str | None = None
    """The column dating each row's publication or report (a row dated after the file's snapshot date
    means the snapshot date is too early); planned dates (a campus's future phases) are not."""


def _without(columns: tuple[str, ...], *absent: str) -> tuple[str, ...]:
    """The columns a file of the family has (the three model files differ a little)."""
    return tuple(c for c in columns if c not in absent)


MODEL_READS = (
    "Model",
    "Organization",
    "Publication date",
    "Parameters",
    "Parameters notes",
    "Training compute (FLOP)",
    "Training compute notes",
    "Confidence",
    "Link",
    "Training hardware",
    "Hardware quantity",
    "Training time (hours)",
    "Training time notes",
    "Training compute cost (2023 USD)",
    "Compute cost notes",
    "Domain",
    "Training chip-hours",
)
_MODEL_IGNORES: dict[str, str] = {
    **{
        c: "bibliographic detail of the paper or release (aikg links the row's URL)"
        for c in ("Authors", "Abstract", "Reference", "Citations", "Archived links", "Documents")
    },
    **{
        c: OWN_WORDS
        for c in (
            "Exclude",
            "Created",
            "Created By",
            "Last modified",
            "Notability criteria",
            "Notability criteria notes",
            "Frontier model",
            "Foundation model",
            "Organization categorization",
            "Compute sponsor categorization",
            "Possibly over 1e23 FLOP",
            "Estimated over 1e25 FLOP",
            "Maybe over 1e25 FLOP",
            "WikiText and Penn Treebank data",
            "Model versions (benchmarks)",
            "Hugging Face developer id",
        )
    },
    **{
        c: COMPUTED
        for c in (
            "FLOP/$",
            "Hardware age",
            "Hardware release date",
            "Hardware FP32",
            "Hardware TF32",
            "Hardware TF16",
            "Hardware FP16",
            "Hardware count",
            "Hardware maker",
            "Total compute - (base + finetune)",
            "Base model compute",
            "Power per GPU",
            "Training compute lower bound",
            "Training compute upper bound",
            "Assumed hardware performance (FLOP/s)",
            "Assumed precision",
            "Training compute estimation method",
        )
    },
    **{
        c: NOT_MODELLED
        for c in (
            "Task",
            "Training dataset",
            "Training dataset notes",
            "Dataset size notes",
            "Training dataset size",
            "Training dataset size (gradients)",
            "(DEPRECATED) Training dataset size (datapoints)",
            "Updated dataset size",
            "Epochs",
            "Inference compute (FLOP)",
            "Inference compute notes",
            "Approach",
            "Base model",
            "Finetune compute (FLOP)",
            "Finetune compute notes",
            "Post-training compute (FLOP)",
            "Post-training compute notes",
            "Hardware utilization (MFU)",
            "Hardware utilization (HFU)",
            "Utilization notes",
            "Batch size",
            "Batch size notes",
            "Model accessibility",
            "Training code accessibility",
            "Inference code accessibility",
            "Accessibility notes",
            "Numerical format",
            "Training power draw (W)",
            "Hardware acquisition cost",
            "Training compute cost (cloud)",
            "Training compute cost (upfront)",
            "Sparsity",
            "API prices",
            "Knowledge cutoff",
            "Context window",
            "Distillation or synthetic data",
            "Distillation or synthetic data compute",
            "Distillation or synthetic data compute notes",
            "Training cloud compute vendor",
            "Training data center",
            "Country (of organization)",
        )
    },
}

HARDWARE_READS = (
    "Hardware name",
    "Manufacturer",
    "Type",
    "Notes",
    "Release date",
    *(c for c, _ in m.PERFORMANCE),
    "Memory size per board (Byte)",
    "Memory bandwidth (byte/s)",
    "Intranode bandwidth (byte/s)",
    "Internode bandwidth (bit/s)",
    "TDP (W)",
    "Process size (nm)",
    "Foundry",
    "Link to datasheet",
)
_HARDWARE_IGNORES = {
    **{
        c: NOT_MODELLED
        for c in (
            "Release price (USD)",
            "Source for the price",
            "INT16 performance (OP/s)",
            "INT4 performance (OP/s)",
            "Die Size (mm^2)",
            "Base clock (MHz)",
            "Boost clock (MHz)",
            "Memory clock (MHz)",
            "Memory bus (bit)",
            "Tensor cores",
            "Transistors (millions)",
        )
    },
    "ML models": "the models trained on a chip come from the model files' Training hardware column",
    "Last modified": OWN_WORDS,
    **{
        c: COMPUTED
        for c in (
            "Max performance",
            "Energy efficiency",
            "Total processing performance (bit-OP/s)",
            "Price-performance",
            "ML OP/s",
        )
    },
}

CLUSTER_READS = (
    "Name",
    "Status",
    "Certainty",
    "H100 equivalents",
    "Chip type (primary)",
    "Chip quantity (primary)",
    "Chip type (secondary)",
    "Chip quantity (secondary)",
    "Total number of AI chips",
    "Owner",
    "Users",
    "First Operational Date",
    "Decommissioned Date (if applicable)",
    "Note",
    "Hardware note",
    "Certainty Note",
    "First Operational Date Note",
    "Power Capacity (MW)",
    "GPU Supplier (primary)",
    "Country",
    "Location",
    *(f"Source {i}" for i in range(1, 6)),
    "Superseded by",
    "Builds Upon",
    "Possible Duplicate Of",
    *(column for column, _ in m.CLUSTER_FLAGS),
)
_CLUSTER_IGNORES = {
    **{
        c: COMPUTED
        for c in (
            "Max OP/s (log)",
            "16-bit OP/s (log)",
            "Max OP/s",
            "8-bit OP/s",
            "16-bit OP/s",
            "32-bit OP/s",
            "Energy Efficiency (log)",
            "Energy Efficiency",
            "Calculated Power Capacity (MW)",
            "Calculated Cost",
            "Rank when first operational",
            "Largest existing cluster when first operational",
            "% of largest cluster when first operational",
        )
    },
    **{
        c: OWN_WORDS
        for c in (
            "Exclude",
            "Noteworthy",
        )
    },
    **{
        c: NOT_MODELLED
        for c in (
            "Sector",
            "Hardware Cost",
            "Reported Power Capacity (MW)",
            "Reported Cost",
            "Reported Cost (Inflation adjusted)",
            "Cost Quote",
            "Quote",
            "GPU supplier (secondary)",
        )
    },
}

DATACENTER_READS = (
    "Handle",
    "Title",
    "Project",
    "Address",
    "Owner",
    "Users",
    "Investors",
    "Construction companies",
    "Energy companies",
    "Current H100 equivalents",
    "Current power (MW)",
    "Current total capital cost (2025 USD billions)",
)
_DATACENTER_IGNORES = {
    "Sentinel satellite timelapse": "a link to satellite imagery, not a fact",
    "Latitude": NOT_MODELLED + "; the address is kept",
    "Longitude": NOT_MODELLED,
}

TIMELINE_READS = (
    "Date",
    "Data center",
    "Construction status",
    "Power (MW)",
    "H100 equivalents",
    "Total capital cost (2025 USD billions)",
)
_TIMELINE_IGNORES = {
    c: NOT_MODELLED
    for c in (
        "Buildings operational",
        "Compute cost (2025 USD billions)",
        "Construction cost (2025 USD billions)",
        "Building area (square feet)",
        "Site area (square feet)",
        "Water use (MGD)",
        "Performance (8-bit OP/s)",
    )
}

CHILLER_READS = (
    "Model",
    "Manufacturer",
    "Type",
    "Cooling capacity (kW)",
    "Number of fans",
    "Length (m)",
    "Width (m)",
    "Area (m^2)",
    "Source",
    "Link",
    "Spot check",
    "Notes",
)
TOWER_READS = (
    "Model",
    "Manufacturer",
    "Length (m)",
    "Width (m)",
    "Height (m)",
    "Area (m^2)",
    "Cooling capacity (stated, kW)",
    "Cooling capacity (central estimate, kW)",
    "Source",
    "Link",
    "Spot check",
    "Notes",
    "Fan Diameter (m)",
    "Number of Fans",
    "Fan estimate diameter (m)",
    "Type",
    "Motor Horsepower",
)

_SOURCES = tuple(f"Source {i}" for i in range(1, 4))
FUNDING_READS = (
    "Id",
    "Company",
    "Close date",
    "Status",
    "Funding (equity)",
    "Funding (debt)",
    "Valuation (post-money)",
    "Report date",
    *_SOURCES,
    "Graph note",
    "Notes",
    "Type",
    "Confidence",
)
COMPANY_READS = (
    "Name",
    "Organization (from Organizations)",
    "Company type",
    "Product Domain(s)",
    "Founding date",
    "Founding source/notes",
)
SPEND_READS = (
    "Id",
    "Notes",
    "Company",
    "Amount",
    "Category",
    "Period type",
    *_SOURCES,
    "Date",
    "Report date",
    "Confidence",
    "Source Type",
)
REVENUE_READS = (
    "Id",
    "Company",
    "Date",
    "Revenue amount (normalize to annual)",
    "Type",
    "Revenue info (non-annualized)",
    "Confidence",
    *_SOURCES,
    "Notes",
    "Report date",
    "Source type",
    "Graph note",
)
STAFF_READS = (
    "Id",
    "Company",
    "Staff count",
    "Date",
    "Report date",
    "Source 1",
    "Source 2",
    "Notes",
    "Type",
    "Division name",
    "Source type",
    "Confidence",
    "Graph note",
)
USAGE_READS = (
    "Id",
    "Company",
    "Active users",
    "Active users time period",
    "Daily tokens",
    "Daily messages",
    "Date",
    "Report date",
    "Source 1",
    "Source 2",
    "Graph note",
    "Notes",
    "Source type",
    "Product",
    "Confidence",
)

_MODELS_URL = "https://epoch.ai/data/ai-models"
_COMPANIES_URL = "https://epoch.ai/data/ai-companies"
_DATACENTERS_URL = "https://epoch.ai/data/data-centers"

DATASETS: tuple[Dataset, ...] = (
    Dataset(
        "ml_hardware/ml_hardware.csv",
        "ml-hardware",
        "Epoch AI: Machine Learning Hardware",
        "https://epoch.ai/data/machine-learning-hardware",
        m.hardware_names,
        m.map_hardware,
        HARDWARE_READS,
        _HARDWARE_IGNORES,
    ),
    Dataset(
        "ai_models/notable_ai_models.csv",
        "notable-ai-models",
        "Epoch AI: Notable AI Models",
        _MODELS_URL,
        m.model_names,
        m.map_model,
        _without(MODEL_READS, "Training chip-hours"),
        _MODEL_IGNORES,
        published="Publication date",
    ),
    Dataset(
        "ai_models/large_scale_ai_models.csv",
        "large-scale-ai-models",
        "Epoch AI: Large-Scale AI Models",
        _MODELS_URL,
        m.model_names,
        m.map_model,
        _without(
            MODEL_READS, "Training chip-hours", "Training compute cost (2023 USD)", "Compute cost notes"
        ),
        _MODEL_IGNORES,
        published="Publication date",
    ),
    Dataset(
        "ai_models/frontier_ai_models.csv",
        "frontier-ai-models",
        "Epoch AI: Frontier AI Models",
        _MODELS_URL,
        m.model_names,
        m.map_model,
        MODEL_READS,
        _MODEL_IGNORES,
        published="Publication date",
    ),
    Dataset(
        "gpu_clusters/gpu_clusters.csv",
        "gpu-clusters",
        "Epoch AI: GPU Clusters",
        "https://epoch.ai/data/gpu-clusters",
        m.cluster_names,
        m.map_cluster,
        CLUSTER_READS,
        _CLUSTER_IGNORES,
    ),
    Dataset(
        "data_centers/data_centers.csv",
        "data-centers",
        "Epoch AI: Frontier Data Centers",
        _DATACENTERS_URL,
        m.datacenter_names,
        m.map_datacenter,
        DATACENTER_READS,
        _DATACENTER_IGNORES,
    ),
    Dataset(
        "data_centers/data_center_timelines.csv",
        "data-center-timelines",
        "Epoch AI: Frontier Data Centers (timelines)",
        _DATACENTERS_URL,
        m.timeline_names,
        m.map_timeline,
        TIMELINE_READS,
        _TIMELINE_IGNORES,
    ),
    Dataset(
        "data_centers/data_center_chillers.csv",
        "data-center-chillers",
        "Epoch AI: Frontier Data Centers (chillers)",
        _DATACENTERS_URL,
        m.equipment_names,
        m.map_equipment,
        CHILLER_READS,
        {},
        (("cls", AIKG.Chiller),),
    ),
    Dataset(
        "data_centers/data_center_cooling_towers.csv",
        "data-center-cooling-towers",
        "Epoch AI: Frontier Data Centers (cooling towers)",
        _DATACENTERS_URL,
        m.equipment_names,
        m.map_equipment,
        TOWER_READS,
        {},
        (("cls", AIKG.CoolingTower),),
    ),
    Dataset(
        "ai_companies/ai_companies.csv",
        "ai-companies",
        "Epoch AI: AI Companies",
        _COMPANIES_URL,
        m.company_names,
        m.map_company,
        COMPANY_READS,
    ),
    Dataset(
        "ai_companies/ai_companies_funding_rounds.csv",
        "ai-companies-funding-rounds",
        "Epoch AI: AI Companies (funding rounds)",
        _COMPANIES_URL,
        m.company_names,
        m.map_funding,
        FUNDING_READS,
        {"Exclude from graph view": OWN_WORDS},
        published="Report date",
    ),
    Dataset(
        "ai_companies/ai_companies_compute_spend.csv",
        "ai-companies-compute-spend",
        "Epoch AI: AI Companies (compute spending)",
        _COMPANIES_URL,
        m.company_names,
        m.map_compute_spend,
        SPEND_READS,
        {
            "Exclude from graph view": OWN_WORDS,
            **{
                c: "the Amount split by its category (the Category column says which)"
                for c in ("Inference compute spend", "R&D compute spend", "Total compute spend")
            },
        },
        published="Report date",
    ),
    Dataset(
        "ai_companies/ai_companies_revenue_reports.csv",
        "ai-companies-revenue-reports",
        "Epoch AI: AI Companies (revenue)",
        _COMPANIES_URL,
        m.company_names,
        m.map_revenue,
        REVENUE_READS,
        {
            "Annualized revenue (USD)": "the same figure as Revenue amount (normalize to annual), "
            "given only for annualized figures"
        },
        published="Report date",
    ),
    Dataset(
        "ai_companies/ai_companies_staff_reports.csv",
        "ai-companies-staff-reports",
        "Epoch AI: AI Companies (staff)",
        _COMPANIES_URL,
        m.company_names,
        m.map_staff,
        STAFF_READS,
        published="Report date",
    ),
    Dataset(
        "ai_companies/ai_companies_usage_reports.csv",
        "ai-companies-usage-reports",
        "Epoch AI: AI Companies (usage)",
        _COMPANIES_URL,
        m.company_names,
        m.map_usage,
        USAGE_READS,
        {"Exclude from graph view": OWN_WORDS},
        published="Report date",
    ),
)
"""The files imported, in the order their rows are mapped (hardware first, so chips keep its names;
companies before their figures)."""

BY_PATH = {d.path: d for d in DATASETS}
