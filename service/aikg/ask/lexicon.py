"""What the router knows besides the named queries' examples: the words for an entity's properties, the
questions that ask for one fact, and the class each kind of entity parameter takes.

Property words map to candidate properties in order: "architecture" is the architecture generation of a
chip, else the architecture (dense / MoE) of a model; the answer takes the first the entity has.
"""

from __future__ import annotations

from aikg import namespaces
from aikg.ask.words import ACTIVE_PER_TOKEN_WORDS, BANDWIDTH_WORDS, EVERYDAY_SUPPLIER_WORDS, MEMORY_WORDS

AIKG = str(namespaces.AIKG)

PROPERTY_WORDS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    # (words, properties); longer words win where two overlap ("memory bandwidth" over "memory").
    ((*BANDWIDTH_WORDS, "hbm bandwidth"), ("memoryBandwidth",)),
    ((*MEMORY_WORDS, "memory per gpu", "gpu memory"), ("memoryPerChip", "hbmPerScaleUpDomain")),
    (
        ("active parameters", "activated parameters", "激活参数", *ACTIVE_PER_TOKEN_WORDS),
        ("activeParameters",),
    ),
    (("parameters", "parameter count", "params", "参数量", "参数", "总参数"), ("totalParameters",)),
    (("training tokens", "tokens", "训练 token", "token 数", "token"), ("trainingTokens",)),
    (("founded", "established", "founding year", "成立", "创立", "创办"), ("foundedIn",)),
    (
        ("released", "release date", "come out", "came out", "launched", "发布", "推出"),
        ("releaseDate", "availableFrom"),
    ),
    (("developed", "developer", "created", "开发", "研发"), ("developer",)),
    (
        (
            "manufacturer",
            "manufactures",
            "manufactured",
            "makes",
            "made by",
            "maker",
            "produces",
            "designed",
            "designs",
            "designer",
            "设计",
            "制造商",
            "制造",
            "生产",
            "厂商",
        ),
        ("manufacturer",),
    ),
    # "谁做的" / "哪家公司做的": who made it, the maker of a chip or the developer of a model
    (("谁做的", "家做的", "公司做的", "谁造的", "家造的", "谁家的"), ("manufacturer", "developer")),
    # "who made X", "X 是谁家出的": the party that made it, as 谁做的 (a chip's maker, a model's developer);
    # the verb alone stays no property word ("how many chips has Intel made" counts)
    (
        ("who made", "who created", "who built", "谁家出的", "哪家出的", "谁出的", "家推出的"),
        ("manufacturer", "developer", "builder"),
    ),
    # "whose is it", "是谁的": a model's developer, a chip's maker, else the owner of a site or cluster
    # (Epoch's "Owner", aikg:operator): the first the entity has
    (("whose", "是谁的"), ("developer", "manufacturer", "operator", "operatedBy")),
    # "深算一号是哪家公司的芯片": whose chip (or model) it is, its maker's (or developer's)
    (("家公司的芯片", "家的芯片", "个公司的芯片"), ("manufacturer",)),
    (("家公司的模型", "家的模型", "个公司的模型"), ("developer",)),
    (
        ("thermal design power", "tdp", "power draw", "power consumption", "watts", "热设计功耗", "功耗"),
        ("thermalDesignPower",),
    ),
    (
        (
            "located",
            "location",
            "where is",
            # the place asked by its kind ("which city is Yandex's Galushkin supercomputer in")
            "which city",
            "what city",
            "哪个城市",
            "哪座城市",
            "address",
            "street address",
            "在哪里",
            "在哪",
            "位于",
            "位置",
            "地址",
            "街道地址",
        ),
        ("location", "locationName"),
    ),
    (
        (
            "built",
            "builder",
            "constructed",
            "construction company",
            "builds",
            "build",
            "建设",
            "建造",
            "承建",
            "谁建",
            "建的",
        ),
        ("builder",),
    ),
    # 营运 (營運) is how Taiwan and Hong Kong write 运营 ("由誰營運", "營運方係邊個")
    (
        # 运营商 / 營運商 (the operating company) as 运营方
        ("operated by", "operates", "operator", "运营方", "运营", "营运方", "营运", "运营商", "营运商"),
        ("operatedBy", "operator"),
    ),
    # "who runs MareNostrum 5": its operator (Epoch's "Owner"); "runs" alone is a noun of training runs
    (
        (
            "who runs",
            "who run",
            "who is running",
            "who's running",
            "run by",
            "谁在管",
            "谁管",
            # the party asked by its kind ("which company runs the Tinker platform")
            "company runs",
            "organization runs",
            "organisation runs",
            "firm runs",
        ),
        ("operatedBy", "operator"),
    ),
    # a person's positions ("Soumith's role"): the role of each position that the person holds
    (("role", "roles", "position", "positions", "job title", "职务", "职位", "担任", "头衔"), ("role",)),
    # Epoch's "Owner" of a data center or cluster is the aikg:operator (epoch/mapping.py)
    (
        ("owns", "owner", "owned by", "belongs to", "所有者", "业主", "拥有者", "属于谁", "归谁所有", "归属"),
        ("operator", "operatedBy"),
    ),
    (
        (
            "tenant",
            "tenants",
            "users",
            # one organization as a site's user, Epoch's "Users" column ("is Anthropic a user of …")
            "user of",
            "used by",
            "who uses",
            "who leases",
            "lessee",
            "leased by",
            "租户",
            "使用方",
            "用户是",
            "承租",
            "租用",
        ),
        ("tenant", "capacityUser"),
    ),
    (
        (
            # "who powers X", "X is powered by": who supplies its electricity, never its power capacity
            "who powers",
            "powers it",
            "powered by",
            "gets its power",
            "get their power",
            "gets its electricity",
            "supplies power",
            "supply power",
            "supplies electricity",
            "power supplier",
            "power suppliers",
            "energy supplier",
            "energy suppliers",
            "energy company",
            "energy companies",
            "utility",
            "电力供应商",
            "电力供应方",
            "能源供应方",
            "能源供应商",
            "供电",
            "电力由谁供应",
            "电力来自",
            *EVERYDAY_SUPPLIER_WORDS,
        ),
        ("energySupplier",),
    ),
    (("architecture", "generation", "架构"), ("architectureGeneration", "architecture")),
    (
        (
            "how many gpus",
            "how many accelerators",
            "how many chips",
            "gpus per",
            "accelerators per system",
            "多少张卡",
            "几张卡",
            "多少卡",
            "卡数",
        ),
        ("acceleratorsPerSystem", "scaleUpDomainSize", "acceleratorCount"),
    ),
    (
        ("origin business", "started out", "start out", "began as", "起家", "最早做", "最初做"),
        ("originBusiness",),
    ),
    (("process node", "制程", "工艺", "nm"), ("processNode",)),
    # a cluster's or site's status (Existing, Planned, Decommissioned …), else a deal's (Signed, Announced …)
    (("status", "operational status", "运行状态"), ("operationalStatus", "status")),
    (
        (
            "what gpu",
            "which gpu",
            "what gpus",
            "which gpus",
            "what accelerator",
            "what chips",
            "which chips",
            "what chip",
            "which chip",
            "what hardware",
            "which hardware",
            "用什么卡",
            "用的什么卡",
            "什么芯片",
            "什么硬件",
        ),
        ("accelerator",),
    ),
    (("training compute", "how much compute", "flop", "训练算力", "训练计算量"), ("trainingCompute",)),
    (("open weights", "open source", "open-weight", "开源", "开放权重"), ("openWeights",)),
    (("fp8 performance", "fp8"), ("fp8Performance",)),
    (("fp4 performance", "fp4"), ("fp4Performance",)),
    (
        (
            "fp16 performance",
            "bf16",
            "fp16",
            "tensor throughput",
            "tensor performance",
            "张量算力",
            "张量性能",
        ),
        ("tensorFp16Performance", "fp16Performance"),
    ),
    (("int8", "tops"), ("int8Performance",)),
    (("foundry", "代工"), ("foundryName",)),
    (("scale-up domain", "nvlink domain", "domain size", "纵向扩展域"), ("scaleUpDomainSize",)),
    (("successor", "后继"), ("successor", "successorOf")),
    (("predecessor",), ("predecessor",)),
    # 跟 … 竞争 ("Groq 跟哪几家 neocloud 竞争"): the verb, the ontology's own Chinese label
    (("competitors", "compete", "rivals", "竞争对手", "竞争"), ("competesWith",)),
    (("h100 equivalents", "h100 等效", "h100 当量", "h100当量"), ("h100Equivalents",)),
    (("power capacity", "megawatts", "电力容量", "兆瓦"), ("powerCapacity",)),
    (("worst-case hops", "hops", "跳数"), ("worstCaseHops",)),
)

FACT_EXAMPLES: tuple[str, ...] = (
    "what is the memory per chip of {GB300}?",
    "how much memory does {GB200 NVL72} have?",
    "how many parameters does {DeepSeek-V3} have?",
    "what is the TDP of {B200}?",
    "memory bandwidth of {MI300X}",
    "{DeepSeek-V3} parameters",
    "when was {CoreWeave} founded?",
    "when was {DeepSeek-V3} released?",
    "who makes the {H800}?",
    "who developed {DeepSeek-V3}?",
    "where is {PORTS-Pike}?",
    "who operates {Tinker}?",
    "who built {PORTS-Pike}?",
    "what architecture is the {H100}?",
    "how many GPUs are in a {GB200 NVL72}?",
    "which company manufactures {TPU v9i}?",
    "what process node is {TPU v4} made on?",
    "what does {CoreWeave} do?",
    "tell me about {CoreWeave}",
    "what is {Groq}?",
    "who is {Soumith Chintala}?",
    "{GB300}的显存是多少？",
    "{DeepSeek-V3}有多少参数？",
    "{CoreWeave}哪年成立的？",
    "{H800}是谁生产的？",
    "{DeepSeek-V3}是谁开发的？",
    "{PORTS-Pike}在哪里？",
    "{B200}的功耗是多少",
    "{TPU v4}的制程",
    "{DeepSeek-V3}什么时候发布的？",
    "{MI300X}的显存带宽",
    "{GB300 NVL72}有多少张卡",
    "{Groq}是什么？",
    "介绍一下{CoreWeave}",
    "{Tinker}是什么平台",
    "how much compute did {GPT-4} take to train?",
    "{GPT-4}的训练算力是多少",
)
"""Questions about one fact of one entity (braces mark the entity), the fact intent's examples."""

_OVERVIEW = "what is are who tell me about the a an do does company platform model chip thing kind of"
_OVERVIEW_ZH = "是什么介绍一下公司平台模型芯片谁做的请吗呢哪家个讲说"
OVERVIEW_WORDS = frozenset(_OVERVIEW.split()) | frozenset(_OVERVIEW_ZH)
"""Words an overview question ("what is Groq?") may have besides the name; any other word asks for
something aikg was not told how to find, so the answer abstains instead of guessing."""

PARAMETER_CLASSES: dict[str, str | None] = {
    "org": AIKG + "Organization",
    "company": AIKG + "Organization",
    "vendor": AIKG + "Organization",
    "investor": AIKG + "Organization",
    "accelerator": AIKG + "Hardware",
    "hardware": AIKG + "Hardware",
    "model": AIKG + "AIModel",
    "entity": None,
}
"""The class an entity parameter's value must have, by parameter name (None: any entity)."""

_AMBIGUOUS = """
align arctic aria boosting calm core curl defense delight devise ditto eve fast firefly glee goat golem
impala infinity kepler liquid luke magic marin mercury opera plug realm runway seer surf swift switch
together unicorn viking whisper writer williams
"""
AMBIGUOUS_NAMES = frozenset(_AMBIGUOUS.split())
"""Everyday English words that are also names in aikg's data (models such as FAST, CORE or Whisper,
organizations such as Together or Writer): written in lower case they are read as words, not names."""
