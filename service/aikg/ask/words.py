"""The analyst's words the compositional reader knows (issue 44), in English and Chinese.

Properties are named by the ontology's own labels in both languages (read at run time from the store's
vocabulary) and by the words below, which say how analysts speak of them ("HBM", "月活", "raised"). Each
property knows the class of the node that carries it, and whether its value is reached from the node a
question names through another node (a model's training compute is stated on its training run).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from aikg import namespaces

AIKG = str(namespaces.AIKG)


@dataclass(frozen=True)
class Carrier:
    """A class whose nodes a question can rank, filter, count or list."""

    key: str
    cls: str
    en: str
    zh: str
    org: tuple[str, ...] = ()
    """Paths from the node to the organization a name in the question filters on."""
    date: str | None = None
    """The property (path) holding the node's date (for a date range): a training run's is its model's
    release ("the model released in 2024 that used the most compute")."""
    report: str | None = None
    """A property whose value the answer names instead of the node (a run's model)."""
    confidence: tuple[str, ...] = ()
    """The confidence tags a ranking counts by default (Epoch's own tags)."""
    status: bool = False
    """True when rankings count existing nodes only unless the question says otherwise."""
    undated: str | None = None
    """The property dating a node that has no :attr:`date`: a funding round Epoch lists as in talks
    ("Late discussions") has no closing date, only the day it was reported ("xAI's September 2025 round")."""


CARRIERS: dict[str, Carrier] = {
    c.key: c
    for c in (
        Carrier(
            "cluster",
            "Deployment",
            "clusters",
            "集群",
            org=("aikg:operator",),
            date="date",
            confidence=("Confirmed", "Likely"),
            status=True,
        ),
        Carrier(
            "run",
            "TrainingRun",
            "training runs",
            "训练任务",
            org=("aikg:trainedModel/aikg:developer",),
            date="trainedModel/aikg:releaseDate",
            report="trainedModel",
            confidence=("Confident", "Likely"),
        ),
        Carrier("datacenter", "DataCenter", "data centers", "数据中心", org=("aikg:operator",)),
        Carrier("model", "AIModel", "models", "模型", org=("aikg:developer",), date="releaseDate"),
        Carrier(
            "hardware", "Hardware", "accelerators", "加速器", org=("aikg:manufacturer",), date="availableFrom"
        ),
        Carrier("revenue", "RevenueFigure", "revenue figures", "收入数据", org=("aikg:agent",), date="date"),
        Carrier("usage", "UsageFigure", "usage figures", "用户数据", org=("aikg:agent",), date="date"),
        Carrier(
            "funding",
            "FundingRound",
            "funding rounds",
            "融资",
            org=("aikg:investee",),
            date="date",
            undated="reportedOn",
        ),
        Carrier("staff", "StaffFigure", "staff figures", "员工数据", org=("aikg:agent",), date="date"),
        Carrier(
            "spend",
            "ComputeSpendFigure",
            "compute spending figures",
            "算力支出数据",
            org=("aikg:agent",),
            date="date",
        ),
        Carrier("event", "Event", "events", "事件", date="date"),
        # Epoch's facility equipment: product models of data-center cooling plant, by their maker
        Carrier("chiller", "Chiller", "chillers", "冷水机组", org=("aikg:manufacturer",)),
        Carrier("tower", "CoolingTower", "cooling towers", "冷却塔", org=("aikg:manufacturer",)),
    )
}

CLASS_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "cluster",
        (
            "cluster",
            "clusters",
            "supercomputer",
            "supercomputers",
            "集群",
            "超算",
            "算力中心",
            "算力集群",
        ),
    ),
    (
        "datacenter",
        (
            "data center",
            "data centers",
            "data centre",
            "data centres",
            "datacenter",
            "datacenters",
            "data-center",
            "data-centers",
            "数据中心",
            "数据中心园区",
            # Epoch's dataset of them is "Frontier Data Centers": every one it holds is one
            "frontier data center",
            "frontier data centers",
            "frontier ai data center",
            "frontier ai data centers",
            "前沿数据中心",
            "机房",
        ),
    ),
    ("model", ("model", "models", "llm", "llms", "模型", "大模型")),
    # a run named by what it did, with 的/过 between ("用 TPU v4 训练的任务"): the class of runs
    ("run", ("training run", "training runs", "训练任务", "训练运行", "训练的任务", "训练过的任务")),
    (
        "hardware",
        (
            "accelerator",
            "accelerators",
            "chip",
            "chips",
            "gpu",
            "gpus",
            "card",
            "cards",
            "hardware",
            # "Ascend parts": chips (the singular "part" is "part of" too: not a class word)
            "parts",
            "芯片",
            "加速器",
            "显卡",
            "硬件",
        ),
    ),
    ("funding", ("funding round", "funding rounds", "rounds", "round", "融资", "轮融资")),
    # the cooling plant Epoch lists (its chiller and cooling-tower tables): "chiller models" is the class,
    # never AI models
    (
        "chiller",
        ("chiller", "chillers", "chiller model", "chiller models", "冷水机组", "冷水机", "冷机", "制冷机组"),
    ),
    ("tower", ("cooling tower", "cooling towers", "cooling tower model", "cooling tower models", "冷却塔")),
    ("event", ("happened", "events", "发生了什么", "事件")),
)

BANDWIDTH_WORDS = ("memory bandwidth", "mem bandwidth", "bandwidth", "显存带宽", "内存带宽", "带宽")
"""Words for a chip's memory bandwidth, read by both readers (the router's facts, :mod:`aikg.ask.lexicon`,
and the composer's properties here), each adding its own."""
MEMORY_WORDS = (
    "memory per chip",
    "memory",
    "mem",  # the analysts' short form ("mem bandwidth", "most mem")
    "hbm",
    "vram",
    "显存",
    "内存",
    "单卡显存",
    # Epoch's column is "Memory size per board": the memory on the card
    "on-board memory",
    "onboard memory",
    "memory per board",
)
"""Words for a chip's memory size, read by both readers (as :data:`BANDWIDTH_WORDS`)."""

EVERYDAY_SUPPLIER_WORDS = (
    # who gives a site its electricity, said in everyday words (电是谁供的, 谁给供电, 电由谁来供, 电从哪来,
    # "gives … its electricity"; never "provides": two edits from "province"): the energy supplier's
    # words for a question's property (PROPERTY_WORDS) and for a fact (aikg.ask.lexicon) alike
    "电是谁供",
    "电是谁给供",
    "电是哪个供",
    "电是哪家供",
    "谁给供电",
    "给供电",
    "谁来供电",
    "电由谁来供",
    "电由谁供",
    "由谁来供",
    "谁供的电",
    "电从哪来",
    "电从哪里来",
    "电力从哪来",
    "its electricity",
    "the electricity for",
)

ACTIVE_PER_TOKEN_WORDS: tuple[str, ...] = (
    "parameters are active",
    "parameters active",
    "params are active",
    "params active",
    "active per token",
    "active for each token",
    "激活多少参数",
    "激活了多少参数",
    "激活的参数",
    "每个 token 激活",
    "每个token激活",
)
"""The parameters a mixture of experts uses per token, said around the word ("how many parameters are
*active per token*", 每个 token *激活多少参数*): its active parameters, not its total (the word "token" there
is no count of training tokens)."""


PROPERTY_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("memoryBandwidth", (*BANDWIDTH_WORDS, "tb/s")),
    # the heat a chiller or cooling tower removes (Epoch's "Cooling capacity (kW)")
    ("coolingCapacity", ("cooling capacity", "cooling power", "制冷量", "制冷能力", "冷却能力", "散热能力")),
    (
        "memoryPerChip",
        (
            *MEMORY_WORDS,
            # the size of the memory, not a power capacity ("HBM capacity of the MI355X")
            "memory capacity",
            "hbm capacity",
            "memory size",
            "显存容量",
            "内存容量",
        ),
    ),
    (
        "thermalDesignPower",
        (
            "tdp",
            "thermal design power",
            "power draw",
            "draw",
            "draws",
            "drawing",
            "power-hungry",
            "power hungry",
            "功耗",
            "热设计功耗",
            "耗电",
            "费电",
            "省电",
            "吃电",
            "hungrier",
            "hungry for power",
            "耗能",
            "电老虎",
        ),
    ),
    # "几纳米" asks the node in its unit (nm)
    ("processNode", ("process node", "制程", "工艺", "几纳米", "多少纳米", "纳米", "nm")),
    # on tensor (matrix) units, Epoch's "Tensor-FP16/BF16 performance": the word tensor / 张量 says so
    # Epoch has one tensor figure, so "tensor throughput" and 张量算力 / 张量性能 are it, and BF16 is named in
    # it; the longer phrase wins over "fp16 throughput" (the FP16 figure on vector units)
    (
        "tensorFp16Performance",
        (
            "tensor fp16",
            "fp16 tensor",
            "tensor fp16 throughput",
            "tensor fp16 performance",
            "fp16 tensor throughput",
            "fp16 tensor performance",
            "tensor bf16",
            "bf16 tensor",
            "tensor throughput",
            "tensor performance",
            "bf16",
            "张量 fp16",
            "fp16 张量",
            "张量fp16",
            "张量算力",
            "张量性能",
        ),
    ),
    ("fp16Performance", ("fp16 performance", "fp16 throughput", "fp16", "fp16 算力")),
    ("fp8Performance", ("fp8 performance", "fp8 throughput", "fp8", "fp8 算力")),
    ("fp4Performance", ("fp4 performance", "fp4 throughput", "fp4", "fp4 算力")),
    ("int8Performance", ("int8 performance", "int8 throughput", "int8", "int8 算力")),
    ("fp32Performance", ("fp32 performance", "fp32 throughput", "fp32", "fp32 算力")),
    ("fp64Performance", ("fp64 performance", "fp64 throughput", "fp64", "fp64 算力")),
    # Epoch's "TF32 (TensorFloat-32) performance": the precision's name, as the others ("TF32 perf")
    ("tf32Performance", ("tf32 performance", "tf32 throughput", "tf32 perf", "tf32", "tf32 算力")),
    # Epoch's chip-to-chip bandwidth inside a node (NVLink) and the network's between nodes: the
    # longer phrase wins over "bandwidth" (the memory's)
    (
        "intranodeBandwidth",
        ("intra-node bandwidth", "intranode bandwidth", "intra-node", "intranode", "节点内带宽", "节点内"),
    ),
    (
        "internodeBandwidth",
        ("inter-node bandwidth", "internode bandwidth", "inter-node", "internode", "节点间带宽", "节点间"),
    ),
    ("usesInterconnect", ("interconnect", "interconnects", "互联", "互连")),
    (
        "durationDays",
        (
            "训了多少天",
            "训了几天",
            "训练了多少天",
            "how many days",
            "duration",
            "took the longest",
            "took longest",
            "lasted the longest",
            "lasted",
            "last",
            "持续",
            "ran the longest",
            "days",
            "训练时间",
            "训练时长",
            "时长",
            "多少天",
            "几天",
        ),
    ),
    (
        "staffCount",
        (
            "staff",
            "employees",
            "employee",
            "headcount",
            "head count",
            "people work",
            # "how many ppl worked at OpenAI", 多少号人 (a colloquial head count): the staff
            "people worked",
            "people working",
            "ppl work",
            "ppl worked",
            "ppl working",
            # people in or at a company or a division of it, or employed by it ("how many people were in
            # Google's AI division", "how many people does Anthropic employ"): its staff, never its users
            "people were in",
            "people are in",
            "people at",
            "employ",
            "employs",
            "employed",
            "号人",
            "员工",
            "名员工",
            "员工数",
            "人数",
        ),
    ),
    (
        "computeSpend",
        (
            "spend on compute",
            "spent on compute",
            "compute spend",
            "compute spending",
            # what a company pays its cloud for compute, said as its bill (Epoch's categories are all
            # cloud compute: "R&D cloud compute", "Inference cloud compute")
            "compute bill",
            "compute bills",
            "cloud compute bill",
            "cloud compute spend",
            "cloud compute spending",
            # the cloud compute asked as such (Epoch's figure filed under both cloud categories, R&D and
            # inference: compose.CLOUD_SPEND_WORDS)
            "spend on cloud compute",
            "spent on cloud compute",
            "cloud compute",
            "云算力",
            "云计算",
            "云端算力",
            "算力账单",
            "算力年化开支",
            "年化算力开支",
            "算力支出",
            "算力总支出",
            "总算力支出",
            "算力开支",
            "算力花费",
            "算力上花",
            "算力上一共花",
            "算力上总共花",
            "算力花",
            "算力花了多少钱",
            "算力花了多少",
            "算力上花了多少",
            "算力钱",
            "算力开销",
            "算力花费",
            "算力成本",
            "训练算力支出",
            "推理算力支出",
            "研发算力支出",
        ),
    ),
    ("foundryName", ("foundry", "silicon", "fab", "fabs", "代工", "代工厂", "晶圆厂")),
    ("debtAmount", ("debt financing", "debt", "borrowed", "borrow", "债务融资", "债务", "借了", "借款")),
    (
        "dailyTokens",
        (
            "tokens per day",
            # "tokens/day": the slash joins the words (a word boundary never opens "/day")
            "tokens/day",
            "token/day",
            "tokens a day",
            "tokens daily",
            "daily tokens",
            "tokens processed daily",
            "process per day",
            "processes per day",
            "processed per day",
            "每天处理",
            # "一日處理幾多 token", 一天要处理多少: processed in one day, as 每天处理
            "每日处理",
            "一天处理",
            "一日处理",
            "一天要处理",
            "一日要处理",
            "每日 token",
            "日均 token",
        ),
    ),
    (
        "dailyMessages",
        (
            "messages per day",
            "messages/day",
            "messages a day",
            "messages daily",
            "daily messages",
            "messages",
            "每天消息",
            "每日消息",
            "日消息量",
            "消息量",
            "条消息",
            "多少消息",
            "发多少消息",
        ),
    ),
    (
        "termYears",
        (
            "lease term",
            "term of the lease",
            "years is the lease",
            "year lease",
            "租约期限",
            "租约多少年",
        ),
    ),
    (
        "facilityInvestor",
        (
            "invested in",
            "investors",
            "who is investing",
            "who invested",
            "backers",
            "投资方",
            "投资人",
            "参投",
            "参与投资",
            "谁投资",
        ),
    ),
    ("tenant", ("tenant", "tenants", "租户")),
    ("competesWith", ("competes with", "compete with", "competitors", "rivals", "竞争对手", "竞争")),
    (
        "date",
        (
            "reach full operation",
            "full operation",
            "全面投运",
            "全面运营",
            "全面运行",
            "首次供电",
            # a site's phases said in everyday words ("fully up and running", "its first power")
            "fully up and running",
            "fully operational",
            "first power",
        ),
    ),
    (
        "energySupplier",
        (
            # who powers a site: its electricity supplier ("who powers X", "get their power from Entergy",
            # "does AEP supply"), never its power capacity
            "who powers",
            "powers it",
            "powered by",
            "get their power",
            "gets its power",
            "get its power",
            "gets their power",
            "supply",
            "supplies",
            "supplies power",
            "energy company",
            "energy companies",
            "energy supplier",
            "energy suppliers",
            "power utility",
            "utility",
            "utilities",
            "supply power",
            "supplies electricity",
            "power supplier",
            "power company",
            "electricity supplier",
            "电力供应商",
            "电力供应方",
            "电力公司",
            "供电",
            "电力由谁供应",
            "电力来自",
            *EVERYDAY_SUPPLIER_WORDS,
        ),
    ),
    # a site's builder: "who builds", "who built", 承建 (the verb of a data center's construction)
    ("builder", ("building", "who builds", "who built", "谁来建", "建设运营", "承建", "谁建")),
    (
        "activeParameters",
        (
            "active parameter",
            "active params",
            "active parameters",
            "激活参数",
            "每次激活",
            "激活的参数",
            "activated parameters",
            *ACTIVE_PER_TOKEN_WORDS,
        ),
    ),
    ("totalParameters", ("parameters", "parameter count", "params", "参数量", "参数")),
    ("trainingTokens", ("喂了多少", "喂了", "training tokens", "tokens", "训练 token")),
    (
        "trainingCompute",
        (
            "training compute",
            "compute",
            "compute-intensive",
            "compute intensive",
            "flop",
            "训练算力",
            "算力",
            "计算量",
        ),
    ),
    (
        "releaseDate",
        (
            "released",
            "release date",
            "release",
            "发布",
            "推出",
            "上市",
            "问世",
            "came out",
            "come out",
            # a chip's first availability, said as an event ("chips that became available in 2024")
            "became available",
            "become available",
        ),
    ),
    (
        "h100Equivalents",
        (
            "h100 equivalents",
            "h100-equivalents",
            "h100 equivalent",
            "h100-equivalent",
            "h100 等效",
            "等效数",
            "等效卡数",
            "等效",
            "h100e",
            # 当量 is "equivalent" as 等效 is ("H100 当量", with or without the space); never alone,
            # which a one-character slip would make of 当初 ("at the time")
            "h100 当量",
            "h100当量",
            # converted to H100s (折合多少张 H100, 折合成 H100): the H100-equivalents
            "折合多少张 h100",
            "折合成多少张 h100",
            "折合多少块 h100",
            "折合多少 h100",
            "折合 h100",
            "折合成 h100",
            "相当于多少张 h100",
        ),
    ),
    (
        "powerCapacity",
        (
            "power capacity",
            "footprint",
            "lock up",
            "locked up",
            "lock in",
            "locked in",
            "megawatts",
            "power",
            "capacity",
            "gw",
            "mw",
            "功率",
            "电力",
            "容量",
            "兆瓦",
            "万千瓦",
            "装机",
            "装机容量",
            "首期供电",
            "供电多少",
        ),
    ),
    (
        "annualRevenue",
        (
            "run-rate",
            "run rate",
            "revenue",
            "revenues",
            "annualized revenue",
            "arr",
            # a run-rate said in full ("annual recurring revenue", 年度经常性收入): compose.RUN_RATE_WORDS
            "annual recurring revenue",
            "recurring revenue",
            "经常性收入",
            "收入",
            "营收",
            "年化收入",
            "年化营收",
            "年营收",
        ),
    ),
    ("trainingPrecision", ("precision", "number format", "精度", "训练精度")),
    ("usesTopology", ("topology", "network topology", "拓扑", "网络拓扑")),
    (
        "activeUsers",
        (
            "usage",
            "active users",
            "users",
            # users said before the figure ("monthly-user figures", "user numbers", "user count")
            "user figures",
            "user figure",
            "user numbers",
            "user count",
            "user counts",
            # "monthly actives", "weekly actives": active users said as a noun of their own
            "actives",
            "mau",
            "wau",
            "dau",
            "月活",
            "周活",
            "日活",
            "用户",
            "用户数",
            "用户数量",
        ),
    ),
    # "above $100B post-money": the valuation named by its kind alone
    (
        "postMoneyValuation",
        ("valuation", "valued", "post-money", "post money", "估值", "投后估值", "融资后估值", "融资后的估值"),
    ),
    (
        "amount",
        (
            "raised",
            "raise",
            "raises",
            "raising",
            "funding",
            # money raised for shares: Epoch's amount (debt is a figure of its own, aikg:debtAmount)
            "equity",
            "股权融资",
            "股权",
            "invest",
            "invests",
            "investing",
            "put into",
            "putting into",
            "putting in",
            "注资",
            "融资",
            "融资额",
            "融资金额",
            # the funds raised ("谁融到的股权资金更多", 融到的资金): the money, as 融资额 (资金 alone is no
            # word of it: one character off 资料, "materials", it would read "资料出处" as the money's source)
            "股权资金",
            "融到的资金",
            "融得的资金",
            "融资资金",
            "筹集的资金",
            "筹到的资金",
            "融了",
            "融得",  # "谁融得多": who raised more
            # money a company was given for its shares, said plainly ("那一轮拿了多少钱", 拿到多少钱): the
            # amount raised (拿 alone is no word of it: 拿下 a contract, 拿第一 a benchmark)
            "拿了多少钱",
            "拿到多少钱",
            "拿到了多少钱",
            "一轮融资",
            "投了多少",
            "投资多少",
        ),
    ),
    (
        "scaleUpDomainSize",
        (
            "nvlink domain",
            "nvlink 域",
            "scale-up domain",
            "scale up domain",
            "scale-up",
            "scale-up 域",
            "互联芯片",
            "能连多少",
            "连接多少",
            "连多少",
        ),
    ),
    # the hops a topology needs at worst, asked with "worst case" or with 跳 as the measure word
    (
        "worstCaseHops",
        (
            "worst-case hops",
            "worst case hops",
            "hops",
            "in the worst case",
            "worst case",
            "worst-case",
            "跳数",
            "最坏跳数",
            "最坏情况",
            "最坏",
            "要几跳",
            "要多少跳",
            "几跳",
            "多少跳",
            "跳",
        ),
    ),
    (
        "timeToTrain",
        (
            "how many minutes",
            "minutes",
            # the chat shorthand of minutes ("how many mins did that run take")
            "how many mins",
            "mins",
            "分钟",
            "time to train",
            "how long",
            "how fast",
            "how quickly",
            "多长时间",
            "耗时",
            "用时",
            "用了多久",
            "多久",
            "多快",
            "几分钟",
            "多少分钟",
        ),
    ),
    (
        "acceleratorCount",
        (
            "how many gpus",
            "how many of them",
            "gpus",
            "how many chips",
            "on the most chips",
            "on the most gpus",
            "with the most chips",
            "with the most gpus",
            "张 gpu",
            "多少张",
            "几张",
            "多少块",
            "几块",
            "多少颗",
            "几颗",
            "卡数",
            "用卡",
            # the chips of a cluster or run named as a figure ("芯片数量最多的集群")
            "芯片数量",
            "芯片数",
            "卡的数量",
            "显卡数量",
            "加速器数量",
        ),
    ),
    ("gpuHours", ("gpu hours", "gpu-hours", "gpu 小时", "卡时")),
    (
        "price",
        (
            "price",
            "prices",
            "pricing",
            "收多少",
            "怎么收费",
            "收多少钱",
            "charge",
            "charges",
            "charging",
            "charged",
            "cost per",
            "价格",
            "单价",
            "定价",
            "收费",
            "输入多少钱",
            "输出多少钱",
            # a price asked in the unit a token price is quoted in ("price per token"; "per million tokens"
            # is read by compose._PER_TOKEN: "million" here would respell "trillion")
            "price per token",
            "per-token price",
        ),
    ),
    (
        "cost",
        # what a thing cost to build ("the price tag of a data center", 造价): not a price list's price
        (
            "cost",
            "training cost",
            "expensive",
            "costliest",
            "price tag",
            "成本",
            "训练成本",
            "花了多少钱",
            "花多少钱",
            "造价",
        ),
    ),
    # facts the seed documents state on claims, runs, deals and chips (each property's own labels in
    # ontology/*.ttl are read too); a bare "faster" or "rank" stays a comparison's or a ranking's word
    (
        "speedup",
        (
            "speedup",
            "speed-up",
            "speed up",
            "how much faster",
            "times faster",
            "x faster",
            "快几倍",
            "提速",
            "加速比",
            "性能提升",
            "提升多少",
            "提升了多少",
            "累计提升",
            "cumulative speedup",
            "cumulative gain",
            "performance gain",
            "performance per cost",
            "perf per cost",
            "单位成本性能",
            "几倍",
            # a claim's margin said as one side winning ("by how much did X *beat* Y", "how much
            # *better* per dollar"): the speed-up of the claim linking them
            "beat",
            "outperform",
            "outperformed",
            "how much better",
            # a claim's factor said as what one side gained (the seed documents' 性能增益, "cumulative
            # gain"): "what gain did NVFP4 training bring", 相对新一代平台的性能增益
            "gain",
            "gains",
            "增益",
            "快多少",
            "快了多少",
            "快了几倍",
            # the per-cost claim said in dollars: its measure (compose.MEASURE_WORDS) is cost
            "performance per dollar",
            "perf per dollar",
            "performance-per-dollar",
        ),
    ),
    (
        "attributedTo",
        (
            "attributed to",
            "credit for",
            "credits",
            "explains",
            "explain",
            "due to",
            "the reason",
            "reasons for",
            "what drove",
            "原因",
            "归因",
            "得益于",
            "归功于",
            # the cause a claim credits, said with the verb ("what is the 1.9x speed-up *credited to*",
            # "what does the article *credit* the gain to", 主要*靠的是*什么)
            "credited to",
            "credit",
            "credited",
            "靠的是",
            "靠什么",
            "主要靠",
        ),
    ),
    ("basis", ("based on", "basis", "calculated", "computed from", "计算依据", "依据", "根据什么", "怎么算")),
    (
        "designedFor",
        (
            "training or inference",
            "inference or training",
            "训练还是推理",
            "推理还是训练",
            "训练芯片还是推理芯片",
            "designed for",
            "meant for",
            "intended for",
            "purpose",
            "用途",
            "用来做什么",
            "做什么用",
        ),
    ),
    (
        "triggeredBy",
        ("triggered", "sparked", "kicked off", "set off", "引发", "挑起", "引起", "触发", "掀起"),
    ),
    (
        "rank",
        ("what rank", "which rank", "what place", "which place", "ranked", "名次", "第几名", "排名第几"),
    ),
    ("customer", ("customer", "customers", "client", "clients", "客户")),
    (
        "pricePerGpuHour",
        (
            "price per gpu hour",
            "price per gpu-hour",
            "gpu price per hour",
            "per gpu hour",
            "per gpu-hour",
            # the price named after its unit ("DeepSeek-V3's $2 per GPU-hour price")
            "per gpu-hour price",
            "per gpu hour price",
            "gpu-hour price",
            "每卡小时",
            "每卡每小时",
        ),
    ),
    (
        "baselinePrecision",
        ("baseline precision", "compared against", "基线精度", "跟什么精度比", "和什么精度比"),
    ),
    ("currency", ("currency", "currencies", "币种", "什么货币", "美元还是人民币", "人民币还是美元")),
    # the chip a run, result or deployment used: a weak word, read only beside a name and no ranking
    (
        "accelerator",
        (
            "which chip",
            "what chip",
            "what hardware",
            "which hardware",
            "which gpu",
            "what gpu",
            "which accelerator",
            "what accelerator",
            # the same in the plural ("What GPUs is IBM's Vela cluster built on": its chip, not how many)
            "which gpus",
            "what gpus",
            "which chips",
            "what chips",
            "什么卡",
            "哪种卡",
            "哪款卡",
            "什么芯片",
            "哪种芯片",
            "哪款芯片",
            "什么 gpu",
            "哪款 gpu",
        ),
    ),
    # more facts the seed documents state (each property's ontology labels, EN and ZH, are read too)
    (
        "baseline",
        (
            "against what baseline",
            "what baseline",
            "baseline",
            "measured against",
            "relative to what",
            "compared to what",
            "compared with what",
            "跟谁比",
            "和谁比",
            "与谁比",
            "相对谁",
            "相对于谁",
            "比的是谁",
            "对比基线",
            "基线",
            # the baseline asked as which platform or generation the figure was measured against
            # (和哪个平台比出来的, 是和哪一代平台比的)
            "和哪个平台比",
            "跟哪个平台比",
            "与哪个平台比",
            "和哪一代平台比",
            "跟哪一代平台比",
            "和哪一代比",
            "跟哪一代比",
        ),
    ),
    ("submitter", ("submitter", "submitted", "submitted by", "who submitted", "提交方", "谁提交", "提交的")),
    (
        "workload",
        ("workload", "workload model", "benchmark model", "基准负载", "训练负载", "负载", "跑的是什么模型"),
    ),
    (
        "introducedWorkload",
        ("introduced", "introduce", "introduces", "新引入", "引入了什么", "引入的负载", "引入了哪个"),
    ),
    ("successor", ("successor", "came after", "comes after", "what came next", "后继", "接班", "继任")),
    ("predecessor", ("predecessor", "came before", "前代模型", "上一代模型")),
    (
        "originBusiness",
        (
            "origin business",
            "started out",
            "start out",
            "started as",
            "before it was",
            "originally",
            "起家",
            "起家业务",
            "最早做",
            "前身",
        ),
    ),
    ("tradeOff", ("trade-off", "tradeoff", "trade off", "downside", "the catch", "代价", "副作用")),
    (
        "costDriver",
        (
            "extra hardware",
            "cost driver",
            "cost drivers",
            "成本来源",
            "额外硬件",
            # what a design choice's cost comes down to ("what drives the cost of the 6D torus", "main
            # driver of cost", 成本主要花在什么上, 多出来的成本)
            "drives the cost",
            "drive the cost",
            "driver of cost",
            "drivers of cost",
            "driver of the cost",
            "成本主要花在",
            "成本花在",
            "多出来的成本",
            "额外成本",
        ),
    ),
    ("purpose", ("what is it for", "used for", "拿来干什么", "拿来做什么", "用来干什么", "主要用来", "定位")),
    (
        "architectureGeneration",
        (
            "architecture generation",
            "which generation",
            "what generation",
            "属于哪一代",
            "哪一代架构",
            "哪代架构",
            "哪一代",
            "架构代际",
        ),
    ),
    (
        "announcedOn",
        (
            "announcement date",
            "date announced",
            "哪天公布",
            "哪天宣布",
            "什么时候公布",
            "何时公布",
            "什么时候宣布",
            "何时宣布",
            "公布日期",
        ),
    ),
    ("ordersOfMagnitude", ("orders of magnitude", "order of magnitude", "数量级", "几个数量级")),
    # the tier a source places a company in, whether a rack is liquid-cooled, a model's weights open
    ("marketTier", ("tier", "which tier", "what tier", "梯队", "第几梯队", "哪个梯队", "哪一梯队")),
    ("liquidCooled", ("liquid-cooled", "liquid cooled", "liquid cooling", "液冷")),
    (
        "openWeights",
        ("open weights", "open-weight", "open-weights", "weights open", "开权重", "开放权重", "权重开放"),
    ),
    (
        "hardwareVendorPolicy",
        ("tied to", "locked to", "only runs", "runs only", "只跑", "只用", "只跑哪家", "只用哪家"),
    ),
    # the chips one system or scale-up domain holds, said as what goes in it ("how many GPUs go into one
    # HGX H100", 机柜里装了多少张卡; "link into one domain", 连成一个域, 一个 NVLink 域里接了几张)
    (
        "acceleratorsPerSystem",
        (
            "go into one",
            "goes into one",
            "fit into one",
            "fit in one",
            "装几张",
            "装了几张",
            "装多少",
            "装了多少",
        ),
    ),
    (
        "scaleUpDomainSize",
        (
            "into one domain",
            "into one scale-up domain",
            "in one domain",
            "连成一个域",
            "一个域",
            "域里接了",
            # the chips one scale-up domain links, said as a pod (a TPU pod) or 超节点 (a supernode)
            "pod",
            "pod size",
            "超节点",
            "超级节点",
        ),
    ),
    # whether a deal is done: its status (planned, announced, signed)
    (
        "status",
        ("is it final", "deal status", "确定了吗", "敲定", "落实", "落实了没有", "这事落实", "定了没有"),
    ),
)
"""Analyst words for properties, longest matched first; the ontology's labels are added at run time."""

PROPERTY_CARRIER: dict[str, str] = {
    "coolingCapacity": "chiller",
    "memoryBandwidth": "hardware",
    "memoryPerChip": "hardware",
    "thermalDesignPower": "hardware",
    "processNode": "hardware",
    "fp16Performance": "hardware",
    "availableFrom": "hardware",
    "totalParameters": "model",
    "activeParameters": "model",
    "releaseDate": "model",
    "trainingCompute": "run",
    "h100Equivalents": "cluster",
    "powerCapacity": "cluster",
    "annualRevenue": "revenue",
    "activeUsers": "usage",
    "amount": "funding",
    "postMoneyValuation": "funding",
    "fp8Performance": "hardware",
    "fp4Performance": "hardware",
    "int8Performance": "hardware",
    "fp32Performance": "hardware",
    "fp64Performance": "hardware",
    "tf32Performance": "hardware",
    "intranodeBandwidth": "hardware",
    "internodeBandwidth": "hardware",
    "staffCount": "staff",
    "computeSpend": "spend",
    "durationDays": "run",
    "debtAmount": "funding",
    "dailyTokens": "usage",
    "dailyMessages": "usage",
}

LABELS_NOT_WORDS = frozenset(
    {"rank", "status", "customer", "basis", "predecessor", "hardwareVendorPolicy", "accelerator"}
)
"""Properties whose ontology labels are everyday words of other questions ("排名" ranks, "status" filters):
only their analyst words of :data:`PROPERTY_WORDS` name them."""

PROPERTY_LABELS: dict[str, tuple[str, str, str]] = {
    # property: (English words, Chinese words, unit)
    "memoryBandwidth": ("memory bandwidth", "显存带宽", "GB/s"),
    "memoryPerChip": ("memory per chip", "单卡显存", "GB"),
    "thermalDesignPower": ("TDP", "功耗", "W"),
    "processNode": ("process node", "制程", "nm"),
    "fp16Performance": ("FP16 performance", "FP16 算力", "FLOP/s"),
    "tensorFp16Performance": ("tensor FP16/BF16 performance", "张量 FP16/BF16 算力", "FLOP/s"),
    "totalParameters": ("parameters", "参数量", ""),
    "activeParameters": ("active parameters", "激活参数", ""),
    "trainingTokens": ("training tokens", "训练 token", ""),
    "trainingCompute": ("training compute", "训练算力", "FLOP"),
    "releaseDate": ("release date", "发布日期", ""),
    "h100Equivalents": ("H100-equivalents", "H100 等效卡数", ""),
    "powerCapacity": ("power", "功率", "MW"),
    "annualRevenue": ("annualized revenue", "年化收入", ""),
    "activeUsers": ("active users", "活跃用户", ""),
    "postMoneyValuation": ("post-money valuation", "投后估值", ""),
    "amount": ("amount raised", "融资额", ""),
    "scaleUpDomainSize": ("scale-up domain size", "scale-up 域规模", "chips"),
    "worstCaseHops": ("worst-case hops", "最坏跳数", ""),
    "timeToTrain": ("time to train", "训练用时", "min"),
    "acceleratorCount": ("accelerator count", "加速器数量", ""),
    "price": ("price", "价格", ""),
    "cost": ("cost", "成本", ""),
    "gpuHours": ("GPU-hours", "GPU 小时", ""),
    "trainingPrecision": ("training precision", "训练精度", ""),
    "usesTopology": ("topology", "拓扑", ""),
    "availableFrom": ("available from", "上市时间", ""),
    "fp8Performance": ("FP8 performance", "FP8 算力", "FLOP/s"),
    "fp4Performance": ("FP4 performance", "FP4 算力", "FLOP/s"),
    "int8Performance": ("INT8 performance", "INT8 算力", "OP/s"),
    "fp32Performance": ("FP32 performance", "FP32 算力", "FLOP/s"),
    "fp64Performance": ("FP64 performance", "FP64 算力", "FLOP/s"),
    "tf32Performance": ("TF32 performance", "TF32 算力", "FLOP/s"),
    "intranodeBandwidth": ("intra-node bandwidth", "节点内带宽", "GB/s"),
    "internodeBandwidth": ("inter-node bandwidth", "节点间带宽", "Gbit/s"),
    "usesInterconnect": ("interconnect", "互联", ""),
    "durationDays": ("duration", "训练时长", "days"),
    "staffCount": ("staff", "员工人数", ""),
    "computeSpend": ("compute spending", "算力支出", ""),
    "termYears": ("term", "期限", "years"),
    "energySupplier": ("energy supplier", "能源供应方", ""),
    "coolingCapacity": ("cooling capacity", "制冷量", "kW"),
    "operator": ("operator", "运营方", ""),
    "operatedBy": ("operator", "运营方", ""),
    "tenant": ("tenant", "租户", ""),
    "builder": ("builder", "建设方", ""),
    "facilityInvestor": ("investors", "投资方", ""),
    "sourceConfidence": ("confidence", "可信度", ""),
    "foundryName": ("foundry", "代工厂", ""),
    "debtAmount": ("debt", "债务融资", ""),
    "dailyTokens": ("tokens per day", "每日 token", ""),
    "dailyMessages": ("messages per day", "每日消息", ""),
    "speedup": ("speed-up", "加速倍数", "×"),
    "attributedTo": ("attributed to", "归因于", ""),
    "basis": ("basis", "计算依据", ""),
    "designedFor": ("designed for", "用途", ""),
    "triggeredBy": ("triggered by", "引发者", ""),
    "rank": ("rank", "排名", ""),
    "customer": ("customer", "客户", ""),
    "pricePerGpuHour": ("price per GPU-hour", "每卡小时价格", ""),
    "baselinePrecision": ("baseline precision", "基线精度", ""),
    "currency": ("currency", "币种", ""),
    "status": ("status", "状态", ""),
    "accelerator": ("accelerator", "加速器", ""),
    "baseline": ("baseline", "对比基线", ""),
    "submitter": ("submitter", "提交方", ""),
    "workload": ("workload model", "基准负载", ""),
    "introducedWorkload": ("introduced workload", "引入负载", ""),
    "successor": ("successor", "后继", ""),
    "predecessor": ("predecessor", "前代", ""),
    "originBusiness": ("origin business", "起家业务", ""),
    "tradeOff": ("trade-off", "代价", ""),
    "costDriver": ("cost driver", "成本来源", ""),
    "purpose": ("purpose", "定位", ""),
    "architectureGeneration": ("architecture generation", "架构代际", ""),
    "announcedOn": ("announced on", "宣布日期", ""),
    "ordersOfMagnitude": ("orders of magnitude", "数量级差距", ""),
    "marketTier": ("market tier", "梯队", ""),
    "liquidCooled": ("liquid-cooled", "液冷", ""),
    "openWeights": ("open weights", "开权重", ""),
    "hardwareVendorPolicy": ("runs only hardware of", "只跑…算力", ""),
}

SPEND_CATEGORIES: dict[str, str] = {
    "r&d": "R&D cloud compute",
    "research": "R&D cloud compute",
    "training": "R&D cloud compute",
    "研发": "R&D cloud compute",
    "训练": "R&D cloud compute",
    "inference": "Inference cloud compute",
    "serving": "Inference cloud compute",
    "推理": "Inference cloud compute",
}
"""Words for the category of a compute-spending figure (Epoch AI's spend categories: training is part of
R&D compute)."""

COUNTRIES: dict[str, str] = {
    "china": "China",
    "中国": "China",
    "国内": "China",
    "japan": "Japan",
    "日本": "Japan",
    "united states": "United States of America",
    "usa": "United States of America",
    "us": "United States of America",
    "america": "United States of America",
    "美国": "United States of America",
    "france": "France",
    "法国": "France",
    "korea": "Korea (Republic of)",
    "south korea": "Korea (Republic of)",
    "韩国": "Korea (Republic of)",
    "india": "India",
    "印度": "India",
    "germany": "Germany",
    "德国": "Germany",
    "saudi arabia": "Saudi Arabia",
    "沙特": "Saudi Arabia",
    "brazil": "Brazil",
    "巴西": "Brazil",
    "uk": "United Kingdom of Great Britain and Northern Ireland",
    "united kingdom": "United Kingdom of Great Britain and Northern Ireland",
    "英国": "United Kingdom of Great Britain and Northern Ireland",
    "uae": "United Arab Emirates",
    "united arab emirates": "United Arab Emirates",
    "阿联酋": "United Arab Emirates",
    "canada": "Canada",
    "加拿大": "Canada",
    "singapore": "Singapore",
    "新加坡": "Singapore",
    "sweden": "Sweden",
    "瑞典": "Sweden",
    "italy": "Italy",
    "意大利": "Italy",
    "沙特阿拉伯": "Saudi Arabia",
    "switzerland": "Switzerland",
    "瑞士": "Switzerland",
    "spain": "Spain",
    "西班牙": "Spain",
    "netherlands": "Netherlands",
    "荷兰": "Netherlands",
    "norway": "Norway",
    "挪威": "Norway",
    "finland": "Finland",
    "芬兰": "Finland",
    "australia": "Australia",
    "澳大利亚": "Australia",
    "澳洲": "Australia",
    "taiwan": "Taiwan",
    "台湾": "Taiwan",
    "russia": "Russia",
    "俄罗斯": "Russia",
    "thailand": "Thailand",
    "泰国": "Thailand",
    "israel": "Israel",
    "以色列": "Israel",
    "qatar": "Qatar",
    "卡塔尔": "Qatar",
    "malaysia": "Malaysia",
    "马来西亚": "Malaysia",
    "indonesia": "Indonesia",
    "印度尼西亚": "Indonesia",
    "印尼": "Indonesia",
    "vietnam": "Vietnam",
    "越南": "Vietnam",
    "poland": "Poland",
    "波兰": "Poland",
    "denmark": "Denmark",
    "丹麦": "Denmark",
    "ireland": "Ireland",
    "爱尔兰": "Ireland",
    "mexico": "Mexico",
    "墨西哥": "Mexico",
    "chile": "Chile",
    "智利": "Chile",
    "argentina": "Argentina",
    "阿根廷": "Argentina",
    "美利坚": "United States of America",
    "united states of america": "United States of America",
    "the us": "United States of America",
    "u.s.": "United States of America",
    "britain": "United Kingdom of Great Britain and Northern Ireland",
    "great britain": "United Kingdom of Great Britain and Northern Ireland",
    # the other countries and territories Epoch's clusters are in, as its location names write them
    "iceland": "Iceland",
    "冰岛": "Iceland",
    "hong kong": "Hong Kong",
    "香港": "Hong Kong",
    "philippines": "Philippines (the)",
    "the philippines": "Philippines (the)",
    "菲律宾": "Philippines (the)",
    "luxembourg": "Luxembourg",
    "卢森堡": "Luxembourg",
    "czechia": "Czechia",
    "czech republic": "Czechia",
    "捷克": "Czechia",
    "slovenia": "Slovenia",
    "斯洛文尼亚": "Slovenia",
    # a country said by its adjective ("Japanese clusters", "the largest Saudi cluster"): where the thing is
    "chinese": "China",
    "japanese": "Japan",
    "american": "United States of America",
    "french": "France",
    "korean": "Korea (Republic of)",
    "south korean": "Korea (Republic of)",
    "indian": "India",
    "german": "Germany",
    "saudi": "Saudi Arabia",
    "brazilian": "Brazil",
    "british": "United Kingdom of Great Britain and Northern Ireland",
    "emirati": "United Arab Emirates",
    "canadian": "Canada",
    "singaporean": "Singapore",
    "swedish": "Sweden",
    "italian": "Italy",
    "swiss": "Switzerland",
    "spanish": "Spain",
    "dutch": "Netherlands",
    "norwegian": "Norway",
    "finnish": "Finland",
    "australian": "Australia",
    "taiwanese": "Taiwan",
    "russian": "Russia",
    "thai": "Thailand",
    "israeli": "Israel",
    "qatari": "Qatar",
    "malaysian": "Malaysia",
    "indonesian": "Indonesia",
    "vietnamese": "Vietnam",
    "polish": "Poland",
    "danish": "Denmark",
    "irish": "Ireland",
    "mexican": "Mexico",
    "chilean": "Chile",
    "argentine": "Argentina",
    "argentinian": "Argentina",
    "icelandic": "Iceland",
    "czech": "Czechia",
    "slovenian": "Slovenia",
}
"""Country words, as Epoch's location names spell the countries."""
COUNTRY_PAIRS: dict[str, tuple[str, ...]] = {
    "中美": ("China", "United States of America"),
    "美中": ("United States of America", "China"),
    "中日": ("China", "Japan"),
    "日韩": ("Japan", "Korea (Republic of)"),
    "中日韩": ("China", "Japan", "Korea (Republic of)"),
}
"""Chinese words that name two countries at once ("中美": China and the United States)."""
REGIONS: dict[str, str] = {
    "texas": "Texas",
    "得州": "Texas",
    "德州": "Texas",
    "得克萨斯": "Texas",
    "德克萨斯": "Texas",
    "california": "California",
    "加州": "California",
    "加利福尼亚": "California",
    "virginia": "Virginia",
    "弗吉尼亚": "Virginia",
    "ohio": "Ohio",
    "俄亥俄": "Ohio",
    "arizona": "Arizona",
    "亚利桑那": "Arizona",
    "tennessee": "Tennessee",
    "田纳西": "Tennessee",
    "wisconsin": "Wisconsin",
    "威斯康星": "Wisconsin",
    "indiana": "Indiana",
    "印第安纳": "Indiana",
    "louisiana": "Louisiana",
    "路易斯安那": "Louisiana",
}
"""Regions within a country (US states), as the clusters' locations write them ("Dallas, Texas"): a
cluster is in one when its location, as written, names it."""
US_STATES = (
    "Alabama",
    "Alaska",
    "Arizona",
    "Arkansas",
    "California",
    "Colorado",
    "Connecticut",
    "Delaware",
    "Florida",
    "Georgia",
    "Hawaii",
    "Idaho",
    "Illinois",
    "Indiana",
    "Iowa",
    "Kansas",
    "Kentucky",
    "Louisiana",
    "Maine",
    "Maryland",
    "Massachusetts",
    "Michigan",
    "Minnesota",
    "Mississippi",
    "Missouri",
    "Montana",
    "Nebraska",
    "Nevada",
    "New Hampshire",
    "New Jersey",
    "New Mexico",
    "New York",
    "North Carolina",
    "North Dakota",
    "Ohio",
    "Oklahoma",
    "Oregon",
    "Pennsylvania",
    "Rhode Island",
    "South Carolina",
    "South Dakota",
    "Tennessee",
    "Texas",
    "Utah",
    "Vermont",
    "Virginia",
    "Washington",
    "West Virginia",
    "Wisconsin",
    "Wyoming",
)
"""The states of the United States as a postal address writes them in full ("1626 County Line Road Ridgeland,
Mississippi"): a data center's address names its state, never the country (an address with a two-letter
state code and a ZIP code, ", WI 53403", is one too)."""
REGION_CODES = {
    "Texas": "TX",
    "California": "CA",
    "Virginia": "VA",
    "Ohio": "OH",
    "Arizona": "AZ",
    "Tennessee": "TN",
    "Wisconsin": "WI",
    "Indiana": "IN",
    "Louisiana": "LA",
}
"""How a postal address writes a region ("10001 Lima Rd, Claude, TX 79019": a data center's address)."""

RATING_WORDS: tuple[str, ...] = (
    "rating",
    # Epoch's confidence named as a noun ("Epoch's confidence for DeepSeek's 160-employee figure"): its
    # rating of the row, as "how confident" asks it
    "confidence",
    "评级",
    "评的",
    "is real",
    "are real",
    "是真的",
    "真的吗",
    "属实",
)
"""Words asking Epoch's rating of a row, or whether a thing is real at all: provenance (the router's
operator words) and the source's confidence (the composer's CONFIDENCE_WORDS)."""

DIVISION_WORDS: dict[str, str] = {
    # other words for a division Epoch names in its staff rows (aikg:companyDivision, "Research and
    # development"): its initials and the Chinese word, which its own name does not say
    "r&d": "research and development",
    "r & d": "research and development",
    "研发": "research and development",
    "研发部门": "research and development",
    "研发团队": "research and development",
}
"""Words naming a division of a company's staff figures other than the division's own name (read from
the data, :func:`aikg.ask.compose.divisions_named`)."""

PUBLISHER_WORDS = (
    "who published",
    "who publishes",
    "published by",
    "publisher",
    "who put out",
    "谁发布的",
    "是谁发布",
    "谁发的",
    "哪家媒体发",
    "谁发表",
    # 谁家 is 谁 of a firm ("那篇报告是谁家发的")
    "谁家发",
)
"""Words asking who published a document: answered only of a document the question names."""

OPERATOR_WORDS: dict[str, tuple[str, ...]] = {
    "provenance": (
        "who says",
        "who said",
        "who reported",
        "who reports",
        "come from",
        "comes from",
        "source of",
        "sources of",
        "source for",
        "how sure",
        "how certain",
        "how reliable",
        "how confident",
        "置信度",
        "谁说",
        "是谁说",
        "出自",
        "来源",
        "可信度",
        "可信",
        "哪里来",
        "谁报道",
        "谁透露",
        "谁放出",
        "放出来",
        "传出",
        "透露",
        "把握",
        "多可靠",
        "who relayed",
        "relayed by",
        "reported by",
        "who leaked",
        "how trustworthy",
        "谁转述",
        "谁给出",
        "给出的",
        "转述",
        "出处",
        "可靠吗",
        "靠谱吗",
        # which source, by what it is: an article, a dataset, the link it cites; and how first-hand
        "which article",
        "what article",
        "article says",
        "which outlet",
        "what outlet",
        "which publication",
        "which report",
        "which dataset does",
        "what dataset does",
        "which dataset is",
        "in which dataset",
        "which epoch dataset",
        "source link",
        "source url",
        "original link",
        "link to the source",
        "url",
        "measured or estimated",
        "estimated or measured",
        "measured or an estimate",
        "first-hand",
        "firsthand",
        "first hand",
        "second-hand",
        "passed on",
        "passed along",
        "who leaked",
        "leaked",
        "哪篇文章",
        "哪篇报道",
        "哪篇",
        # where from, said with 来 ("这个数字是从哪个数据集来的", "月活数据是从哪来的")
        "数据集来的",
        "哪来的",
        "从哪来",
        "从哪里来",
        "哪个数据集里",
        "哪个数据集的",
        "来自哪个数据集",
        "数据集里",
        "链接",
        "网址",
        "实测还是估算",
        "实测的还是估算",
        "估算还是实测",
        "是估算的",
        # the same asked in other words: spent or estimated, real or an estimate ("actually spent or just
        # estimated", "actual or estimated", 实打实的还是估出来的, 是估的吗): the certainty the source gives
        "or just estimated",
        "or estimated",
        "or an estimate",
        "just an estimate",
        "real or",
        "actual or",
        "实打实",
        "估出来",
        "估的",
        "估算的吗",
        "估算出来",
        # how sure, said 多肯定 / 幾肯定 / 有多确定: Epoch's rating, as 可信度
        "多肯定",
        "几肯定",
        "有多确定",
        "多确定",
        # which report, counted with 份 ("出自哪份报告")
        "哪份",
        "假设的还是",
        "一手",
        "二手",
        "爆料",
        "爆的料",
        # broke the news ("TPU v9t 的消息是谁爆出来的", 係邊間公司爆出嚟): who reported it
        "爆出",
        "靠谱不",
        "靠不靠谱",
        # the article or report referred to ("那篇文章的原文链接", "那篇报道是谁发布的")
        "那篇文章",
        "这篇文章",
        "篇文章",
        "篇报道",
        "篇报告",
        # how a dataset's row was sourced (Epoch's source type): a media report or the company's own
        "媒体报道",
        "公司披露",
        "自己披露",
        "media report",
        "company disclosure",
        "disclosed",
        "disclose",
        # the same asked as who said it: the company or the media ("from the company or from the media",
        # "media-reported", 公司自己说的, 官方公布的)
        "from the media",
        "from the company or",
        "company or the media",
        "company or media",
        "media-reported",
        "company-disclosed",
        # or as the kind of source it is ("what kind of source is that from", "the source type", 来源类型)
        "kind of source",
        "type of source",
        "sort of source",
        "source type",
        "来源类型",
        "类型的来源",
        "哪种来源",
        "自己说的",
        "官方公布",
        "官方披露",
        "官方说",
        "媒体说的",
        # who published a document ("who published the … article", 是谁发布的)
        *PUBLISHER_WORDS,
        "who first reported",
        "first reported",
        # where a figure was reported (係邊度報道嘅: 是哪里报道的, "where was it reported"): its source
        "哪里报道",
        "哪里报的",
        "在哪报道",
        "哪儿报道",
        "where was it reported",
        "where was this reported",
        "where was that reported",
        "哪家媒体",
        "最早报道",
        "谁最早报",
        # Epoch's rating of a row ("Epoch's rating", 评级), and whether a thing is real at all
        *RATING_WORDS,
    ),
    "compare": (
        " vs ",
        " vs. ",
        "versus",
        "compare",
        "compared",
        "which has more",
        "which has less",
        "which is bigger",
        "which is larger",
        "higher than",
        "more than the",
        "who has more",
        "which was released first",
        "比较",
        "对比",
        "相比",
        "哪个",
        "谁的",
        "谁更",
        "谁先",
        "哪边",
        "哪一边",
        "哪方",
        "各有",
        "have more",
        "has more",
        "更多",
    ),
    "top": (
        "longest",
        "最长",
        "最久",
        "largest",
        "biggest",
        "most",
        "highest",
        "top",
        "best",
        "fastest",
        "most powerful",
        "greatest",
        "最大",
        "最高",
        "最多",
        "最强",
        "最费电",
        "最耗电",
        "最吃电",
        "前五",
        "前十",
        "排名",
        "最快",
        "排行",
        "排行榜",
        # the most of what a thing uses ("谷歌最耗算力的模型", "最费电的芯片")
        "最耗",
        "最费",
    ),
    "count": (
        "how many",
        "number of",
        "count of",
        "多少个",
        "几个",
        "几款",
        "几轮",
        "多少轮",
        # "融过几轮资", "融了几次资": the rounds of 融资 with the count between its characters
        "几轮资",
        "多少轮资",
        "几次资",
        "多少次资",
        "的数量",
        "数量是",
        "多少款",
        "数量",
        "how much of",
        # a count asked with the measure word of chips and machines ("多少张 GPU", "几块卡", "几台")
        "多少张",
        "几张",
        "多少块",
        "几块",
        "多少颗",
        "几颗",
        "多少台",
        "几台",
        # rows of the data counted ("有几条员工人数的记录", "how many revenue records"): the figures
        "几条",
        "多少条",
    ),
    "sum": (
        "in total",
        "total",
        "altogether",
        "combined",
        "一共",
        "总共",
        "合计",
        "总额",
        "总量",
        "总和",
        "累计",
        "累积",
        "加起来",
        "加在一起",
        "加一块",
        "加一块儿",
        "加到一起",
        # what things "add up to" ("whose existing clusters add up to more H100-equivalents"): their total
        # ("up to" is otherwise the end of a period or a bound)
        "add up to",
        "adds up to",
        "added up to",
        "add up",
        "adds up",
        "added up",
    ),
    "bottom": (
        "lowest",
        "least",
        "smallest",
        "fewest",
        "shortest",
        "earliest",
        "oldest",
        "came out first",
        "released first",
        "launched first",
        "first released",
        "first launched",
        "cheapest",
        "最低",
        "最少",
        "最小",
        "最短",
        "最早",
        "最先",
        "最便宜",
        "最省电",
        "最老",
    ),
    "series": (
        "over time",
        "history",
        "trend",
        "changed",
        "change",
        "grow",
        "grew",
        "growth",
        "evolved",
        "历年",
        "变化",
        "历史",
        "趋势",
        "增长",
        "走势",
    ),
    "latest": ("latest", "current", "now", "most recent", "recent", "最新", "目前", "现在", "最近"),
    "per": (
        "per ",
        "each ",
        "by operator",
        "by owner",
        "owner",
        "owners",
        "owns",
        "who has",
        "who owns",
        "每个",
        "各个",
        "各公司",
        "每家",
        "各机构",
        "谁拥有",
        "都是谁的",
        "属于谁",
    ),
    "yearly": ("per year", "each year", "by year", "a year", "每年", "逐年", "未来几年", "按年"),
    "only": (
        "only",
        "solely",
        "exclusive",
        "exclusively",
        "100%",
        "纯",
        "全是",
        "只用",
        "只使用",
        "全部用",
    ),
}

STATUS_WORDS: dict[str, tuple[str, ...]] = {
    "Existing": (
        "existing",
        "operating",
        "operational",
        "today",
        "running",
        "online",
        "现有",
        "运行中",
        "在运行",
        # in service, as the Chinese press says it (現役/運營中 fold to these)
        "现役",
        "在役",
        "运营中",
        # 運作中 (Taiwan's "in operation"), as 运营中
        "运作中",
        "在运作",
        "在运营的",
        "已投入使用",
        "投入使用",
        "在跑",
        "正在跑",
        "正在运行",
        "已投运",
        "已经投运",
        # put into operation already (投入运营 alone, with a period, dates the start: STARTED_WORDS)
        "已投入运营",
        "已经投入运营",
        "已投入运行",
        "已经投入运行",
        "在用的",
        # built already (a forecast word beside it makes it Planned: "预计 2026 年建成")
        "建成",
        "已建成",
        "建好",
        "已建好",
        # "now" beside a site: the ones running ("biggest cluster actually running in Japan right now")
        "right now",
        "currently",
        "at the moment",
        "up and running",
        "in operation",
        "in service",
        "正在运行",
    ),
    "Planned": (
        "planned",
        "announced",
        "future",
        "规划",
        "计划中",
        "规划中",
        "under construction",
        "在建",
        "筹建",
        "拟建",
        "还没建成",
        "尚未建成",
        # what is to come ("Amazon's largest cluster in the pipeline", "upcoming clusters")
        "in the pipeline",
        "in the works",
        "upcoming",
    ),
    "Decommissioned": (
        "decommissioned",
        "retired",
        "shut down",
        "退役",
        "已退役",
        "关停",
        "停用",
        # 停用 as the fold writes it: the traditional-to-simplified tables (OpenCC tw2sp) turn 停用 into
        # 禁用, in simplified text too ("已经停用了": 已经禁用了)
        "禁用",
        "已禁用",
        "下线",
    ),
}

ANY_STATUS_WORDS: tuple[str, ...] = (
    "any status",
    "every status",
    "all statuses",
    "whatever the status",
    "whatever their status",
    "whatever its status",
    "regardless of status",
    "regardless of the status",
    "regardless of their status",
    "regardless of its status",
    "irrespective of status",
    "不管状态",
    "不管什么状态",
    "不管是什么状态",
    "不论状态",
    "不论什么状态",
    "不论是什么状态",
    "无论状态",
    "无论什么状态",
    "无论是什么状态",
    "不分状态",
    "所有状态",
    "全部状态",
)
"""Words asking a count of every row whatever its status ("how many clusters does Epoch list for Amazon,
*any status*", Anthropic 一共有几条融资记录（*不管状态*）): the totals' defaults (existing, rated at least
Likely, rounds that happened) are not the count asked."""

COMPARATORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        ">=",
        (
            "at least",
            "no less than",
            "not less than",
            "no fewer than",
            "or more",
            # a bound said after its number, the number itself included ("450 W and up", "8 TB/s or
            # higher", "288 GB and above", 192GB 或更高): at least, never "above" alone (more than)
            "and up",
            "and above",
            "or above",
            "and higher",
            "or higher",
            "or greater",
            "或更高",
            "及更高",
            "或更多",
            "或以上",
            "至少",
            "不少于",
            "不低于",
            "不小于",
            "以上",
        ),
    ),
    (
        ">",
        (
            "more than",
            "over",
            "above",
            "greater than",
            "bigger than",
            "larger than",
            "exceeding",
            "exceed",
            "exceeds",
            "超过",
            "大于",
            "高于",
            "多于",
            # Cantonese's comparative, the adjective then 过 ("多過 3 TB/s", "大過 100 兆瓦", "高過 1000 瓦"):
            # more than
            "多过",
            "大过",
            "高过",
        ),
    ),
    # "not above": at most ("不高于 700 瓦", "no greater than"), never the "above" inside it
    (
        "<=",
        (
            "at most",
            "no more than",
            "not more than",
            "no greater than",
            "至多",
            "不超过",
            "不高于",
            "不大于",
            "不多于",
            "以下",
            # within (700 瓦以内, 24GB 之内): at most
            "以内",
            "之内",
        ),
    ),
    # Cantonese's 少過, 低過, 細過 (folded 细过): less than
    (
        "<",
        (
            "less than",
            "under",
            "below",
            "fewer than",
            "低于",
            "少于",
            "小于",
            "不到",
            "不足",
            "少过",
            "低过",
            "细过",
        ),
    ),
)

STARTED_WORDS: tuple[str, ...] = (
    "投入运营",
    "投入运行",
    "开始运营",
    "开始运行",
    "投运",
    "went into operation",
    "entered operation",
    "began operating",
    "started operating",
    "became operational",
    "came online",
    "went online",
    "went live",
    "entered service",
    "went operational",
    "became active",
    # 启用 (put into use: "2023 年日本启用了哪些集群") and 投入使用; Taiwan's and Hong Kong's 啟用, which
    # the mainland word tables (OpenCC tw2sp) write 激活 ("啟用咗": 激活了; never 激活参数, active parameters)
    "启用",
    "投入使用",
    "激活了",
    # 運作 (Taiwan's and Hong Kong's "operation", 投入運作 / 開始運作) as 运营
    "投入运作",
    "开始运作",
    "put into use",
    "put into service",
    "put into operation",
)
"""A cluster going into operation ("2023 年投入运营的集群", "clusters that went into operation in 2024"):
with a period, the date a range of clusters applies to (their first operational date), not their status
now nor their operator (运营)."""
USE_WORDS: tuple[str, ...] = (
    "被用在",
    "被用于",
    "用在",
    "用于",
    "用到",
    "用了",
    "用的",
    "使用",
    "采用",
    "搭载",
    "配备",
    "装有",
    "上运行",
    "在用",
    "uses",
    "used in",
    "used by",
    "used for",
    "runs on",
    "run on",
    "built on",
    "built with",
    "powered by",
    "equipped with",
)
"""Words that link a chip to what uses it ("clusters *using* the GB200", "哪款芯片*被用在*最多的集群里"):
the chip filters or groups the nodes; never read as a property word misspelt (用在 is not 用户)."""

PERFORMANCE = "Performance"
"""What a unit of FLOP per second implies: the performance at some precision (fp16Performance,
fp8Performance …), which the question's own words name."""

UNITS: dict[str, tuple[str, float]] = {
    # unit word: (property it implies, factor to the property's own unit)
    "tb/s": ("memoryBandwidth", 1000.0),
    "gb/s": ("memoryBandwidth", 1.0),
    "gw": ("powerCapacity", 1000.0),
    "mw": ("powerCapacity", 1.0),
    "gb": ("memoryPerChip", 1.0),
    "tb": ("memoryPerChip", 1000.0),
    "flop": ("trainingCompute", 1.0),
    "flops": ("trainingCompute", 1.0),
    # a rate of FLOP per second, with its prefix (2 PFLOP/s, 1000 TFLOPS, 1.5 petaflops): a chip's
    # performance at the precision the question names (FP16 算力), none when it names none
    "flop/s": (PERFORMANCE, 1.0),
    "gflop/s": (PERFORMANCE, 1e9),
    "gflops": (PERFORMANCE, 1e9),
    "tflop/s": (PERFORMANCE, 1e12),
    "tflops": (PERFORMANCE, 1e12),
    "teraflop/s": (PERFORMANCE, 1e12),
    "teraflops": (PERFORMANCE, 1e12),
    "pflop/s": (PERFORMANCE, 1e15),
    "pflops": (PERFORMANCE, 1e15),
    "petaflop/s": (PERFORMANCE, 1e15),
    "petaflops": (PERFORMANCE, 1e15),
    "eflop/s": (PERFORMANCE, 1e18),
    "eflops": (PERFORMANCE, 1e18),
    "exaflop/s": (PERFORMANCE, 1e18),
    "exaflops": (PERFORMANCE, 1e18),
    # integer operations per second with their prefix ("INT8 算力超过 200 TOPS"): a rate as FLOP/s are,
    # at the precision named (was: the bare 200, every chip with an INT8 figure over it)
    "gops": (PERFORMANCE, 1e9),
    "tops": (PERFORMANCE, 1e12),
    "top/s": (PERFORMANCE, 1e12),
    "pops": (PERFORMANCE, 1e15),
    "h100": ("h100Equivalents", 1.0),
    "w": ("thermalDesignPower", 1.0),
    "watts": ("thermalDesignPower", 1.0),
    "瓦": ("thermalDesignPower", 1.0),
    "kw": ("thermalDesignPower", 1000.0),
    "千瓦": ("thermalDesignPower", 1000.0),
    "兆瓦": ("powerCapacity", 1.0),
    "吉瓦": ("powerCapacity", 1000.0),
    "chips": ("acceleratorCount", 1.0),
    "gpus": ("acceleratorCount", 1.0),
    "accelerators": ("acceleratorCount", 1.0),
    "张卡": ("acceleratorCount", 1.0),
    "张 gpu": ("acceleratorCount", 1.0),
    # the size of a team ("a 300-person headcount", "3400 人团队"): staff, never users ("8 亿人")
    "person": ("staffCount", 1.0),
    "-person": ("staffCount", 1.0),
    "人团队": ("staffCount", 1.0),
    "人的团队": ("staffCount", 1.0),
    # the counter of cards alone ("用的卡超过两万张"): chips counted
    "张": ("acceleratorCount", 1.0),
}

OUT_OF_SCOPE: tuple[str, ...] = (
    "stock",
    "share price",
    "股价",
    "股票",
    "market cap",
    "ipo",
    "go public",
    "going public",
    "public offering",
    "市值",
    "weather",
    "天气",
    "poem",
    "joke",
    "笑话",
    "gaming",
    "recommend",
    "推荐",
    "biggest customers",
    "largest customers",
    "top customers",
    "大客户",
    "最大客户",
    "profitable",
    "profit",
    "lost money",
    "lose money",
    "盈利",
    "亏损",
    "亏钱",
    # The price of renting a chip for an hour, today ("an hour of H100 on Lambda"): no source gives one;
    # a run's assumed price per GPU-hour (a seed fact) is asked "per hour", never "an hour of".
    "an hour of",
    "one hour of",
)
"""Words of questions aikg cannot answer from its facts (prices of the day, predictions, advice), taken
from the out-of-scope questions of the development part only."""

OPINION_WORDS: tuple[str, ...] = (
    "should i",
    "should we",
    "worth buying",
    "worth it",
    "worth investing",
    "good investment",
    "better investment",
    "what do you think",
    "do you think",
    "your opinion",
    "in your view",
    "overrated",
    "underrated",
    "你觉得",
    "你认为",
    "你怎么看",
    "值得买",
    "值得投资",
    "该不该",
    "应该买",
    "看好",
    "前景",
)
"""Words asking for an opinion or advice: aikg holds facts, not views (out of scope, as OUT_OF_SCOPE)."""

DOUBT = re.compile(
    r"\b(?:will|going to|gonna)\b.{0,40}\b(?:actually|really|truly)\b"
    r"|\b(?:actually|really|truly) (?:going to|gonna|hit|reach|make it|get to|achieve|deliver|build)\b"
    r"|真的能|真能|真的会|真会|真的可以|能否如期|能不能如期|会不会真的|能不能真的"
)
"""Words asking whether a plan or claim will really come true ("will Groq actually hit 200 MW", "is it
really going to", 真的能建成吗): a judgement of likelihood, which no source's figure answers (the plan
itself is asked without them: "how big does Groq plan to be next year"); out of scope, as OPINION_WORDS.
"Is it real" (是真的吗, a rating) is not such a word."""

TASK = re.compile(
    r"\b(?:write|draft|compose)\b (?:me |us |up )?(?:a|an|some|the|my|our)\b"
    r"|\b(?:write|draft|compose)\b.{0,60}\b(?:post|tweet|blog|article|essay|email|e-mail|letter|poem"
    r"|press release|summary|paragraph|copy|speech|pitch|slide|caption)s?\b"
    r"|帮我写|给我写|替我写|帮忙写|写一[段篇封首份个则条]|写个|写篇|写段|写首|起草|拟一[份封篇]|文案|公众号文章|作一首"
)
"""A request to write something (a post, a tweet, an email, 文案, 写一段介绍): a writing task, not a
question of fact, out of scope even when it names what the graph holds ("帮我写一段介绍 Gemini 用户增长的
宣传文案" was answered with Gemini's usage rows). "Who wrote" (the author of a source) is a question of
provenance, and "write bandwidth" no request: the English words need an article or a kind of text."""

ADVICE = re.compile(
    r"\bbest\b.*\bfor\b|\bbest (?:value|deal|choice|option|buy)\b|最适合|最好用|哪个好|哪家好|哪款好|最划算"
)
"""A question asking which thing suits a purpose best ("the best GPU for training LLMs"): advice, which no
figure answers (a ranking by a figure the question names is asked with that figure: "the highest FP16")."""

FORECAST = re.compile(
    r"\bwill\b|\bgoing to\b|\bpredict|\bforecast|\bexpected to\b|\bprojected\b|\blikely to\b"
    r"|\bnext (?:round|quarter|funding|generation|model|chip|gpu|release|version|flagship)|\bin the future\b"
    r"|\bupcoming\b|\bplan(?:s|ned to|ning to)?\b|\bintends?\b|\bintending\b|计划|打算"
    r"|预计|预测|预期|将会|下一轮|下轮|下个季度|下一季度|下一代|下一个|下一款|下一次|下个(?!月)|未来"
    r"|(?<![社机大学开议体晚聚约协理])会(?![议员计所长场谈面见])"
)
"""Words of a question about what will be: aikg answers them only from planned or dated figures it holds
(planned clusters and capacity, "Groq will have 200 MW next year"); a forecast of anything else (the next
round's valuation, a revenue in 2030) is not in the graph."""

PLACE_NAMES: dict[str, str] = {
    # US states and cities where the data centers and clusters are (their labels name them in English)
    "德克萨斯": "texas",
    "得克萨斯": "texas",
    "德州": "texas",
    "德州仪器": "texas instruments",  # the chip maker, no place (compose._NOT_A_PLACE)
    "得州": "texas",
    "佐治亚": "georgia",
    "亚特兰大": "atlanta",
    "俄亥俄": "ohio",
    "新奥尔巴尼": "new albany",
    "田纳西": "tennessee",
    "孟菲斯": "memphis",
    "威斯康星": "wisconsin",
    "威斯康辛": "wisconsin",
    "密西西比": "mississippi",
    "印第安纳": "indiana",
    "俄克拉荷马": "oklahoma",
    "路易斯安那": "louisiana",
    "内布拉斯加": "nebraska",
    "奥马哈": "omaha",
    "弗吉尼亚": "virginia",
    "维吉尼亚": "virginia",
    "亚利桑那": "arizona",
    "怀俄明": "wyoming",
    "阿比林": "abilene",
    "阿布扎比": "abu dhabi",
    "加利福尼亚": "california",
    "加州": "california",
    "纽约": "new york",
    "新泽西": "new jersey",
    # the projects the press names in Chinese
    "星际之门": "stargate",
    "星门": "stargate",
    "巨像": "colossus",
    # chips the Chinese press names in Chinese, whose labels the data writes in pinyin
    "深算一号": "shensuan-1",
    "深算1号": "shensuan-1",
    "深算-1": "shensuan-1",
    # 神 for 深, the same sound (shen): how people type Hygon's DCU by ear ("神算-1 的显存带宽")
    "神算一号": "shensuan-1",
    "神算1号": "shensuan-1",
    "神算-1": "shensuan-1",
    # research bodies the Chinese press names by their Chinese names, whose labels the data writes in
    # English: Japan's 产业技术综合研究所 (产总研, ABCI's operator), by the acronym its label gives (AIST)
    # Alibaba's cloud (阿里云, 阿里雲): Epoch files its clusters under Alibaba ("Alibaba Cloud in Japan")
    "阿里云": "alibaba",
    "产业技术综合研究所": "aist",
    "产总研": "aist",
    "天垓": "tiangai",
    "智铠": "zhikai",
    # places of the data centers and clusters, as Chinese maps and the Chinese press write them (the
    # labels write them in English: "Jupiter, Jülich", "Google Mayes County Oklahoma" whose title is
    # "Google Pryor", "Microsoft Fairwater Mount Pleasant Wisconsin", "Anthropic-Amazon Project
    # Rainier New Carlisle Indiana", "Alibaba Zhangbei Zhangjiakou Hebei")
    "于利希": "jülich",  # Forschungszentrum Jülich, 于利希研究中心
    "梅斯县": "mayes county",
    "普赖尔": "pryor",
    "芒特普莱森特": "mount pleasant",
    "新卡莱尔": "new carlisle",
    "费耶特维尔": "fayetteville",
    "张北": "zhangbei",
    "张家口": "zhangjiakou",
    "河北": "hebei",
    # the other towns of Epoch's data centers as the Chinese press writes them ("Amazon Canton
    # Mississippi", "Amazon Ridgeland Mississippi", "Crusoe Goodnight Texas", "Meta Hyperion Holly Ridge
    # Louisiana", "Coreweave Helios Afton Texas")
    "坎顿": "canton",
    "里奇兰": "ridgeland",
    "古德奈特": "goodnight",
    "霍利里奇": "holly ridge",
    "阿夫顿": "afton",
    "雷尼尔计划": "project rainier",  # Amazon's Project Rainier for Anthropic, 雷尼尔计划 in the press
    "雷尼尔项目": "project rainier",
    # Meta's two gigawatt sites as the Chinese press names them (普罗米修斯 Prometheus in New Albany, 亥伯龙
    # Hyperion in Louisiana: the labels "Meta Prometheus New Albany Ohio", "Meta Hyperion Holly Ridge
    # Louisiana"), and Amazon's Madison Mega Site (麦迪逊, the Mississippi county)
    "普罗米修斯": "prometheus",
    "亥伯龙": "hyperion",
    "麦迪逊": "madison",
    # the US national laboratories as Chinese reports name them; Epoch's cluster labels write them
    # "Lawrence Livermore NL Sierra", "Argonne NL Aurora", "Los Alamos NL Venado", "Oak Ridge NL
    # Frontier", "Sandia NL El Dorado" (NL: national laboratory); Oak Ridge's and Lawrence Berkeley's
    # organizations are in the data by their full names
    "劳伦斯利弗莫尔国家实验室": "lawrence livermore nl",
    "劳伦斯利弗莫尔": "lawrence livermore",
    "利弗莫尔": "livermore",
    "劳伦斯伯克利国家实验室": "lawrence berkeley national laboratory",
    "劳伦斯伯克利": "lawrence berkeley",
    "洛斯阿拉莫斯国家实验室": "los alamos nl",
    "洛斯阿拉莫斯": "los alamos",
    "阿贡国家实验室": "argonne nl",
    "阿贡": "argonne",
    "橡树岭国家实验室": "oak ridge national laboratory",
    "橡树岭": "oak ridge",
    "桑迪亚国家实验室": "sandia nl",
    "桑迪亚": "sandia",
    # China's Sunway processors (神威, the line of the National Research Centre of Parallel Computer
    # Engineering: 神威·太湖之光), whose maker and chips the labels write Sunway ("Sunway SW26010-Pro")
    "神威": "sunway",
    # companies whose Chinese name the fold reads as the label's words: 百川智能 is Baichuan (百川 alone is
    # its models' name, below)
    "百川智能": "baichuan",
    # chips and their makers, in the names their makers use in China: T-Head (平头哥半导体, Alibaba's
    # chip company) names the Hanguang 800 含光800; Cambricon names its MLU cards 思元 (思元370 is the
    # MLU370); MetaX names the MXC500 曦云C500 and the MXN100 曦思N100; Kunlunxin calls the Kunlun II
    # 昆仑芯2代 (the second generation, 2021) and the first Kunlun 昆仑芯1代
    "平头哥": "t-head",
    "含光": "hanguang",
    "思元270": "mlu270",
    "思元290": "mlu290",
    "思元370": "mlu370",
    "曦云c500": "mxc500",
    "曦思n100": "mxn100",
    "昆仑芯一代": "kunlun i",
    "昆仑芯1代": "kunlun i",
    "第一代昆仑芯": "kunlun i",
    "昆仑芯二代": "kunlun ii",
    "昆仑芯2代": "kunlun ii",
    "第二代昆仑芯": "kunlun ii",
    # models in the names their developers give them in Chinese (the labels write the pinyin or the
    # English brand): Huawei's 盘古 (Pangu), Tencent's 混元 (Hunyuan), ByteDance's 豆包 (Doubao),
    # SenseTime's 日日新 (SenseNova), the Chinese Academy of Sciences' 紫东太初 (Zidong Taichu),
    # Baichuan's 百川, China Mobile's 九天 (Jiutian), Alibaba's 通义千问 (Tongyi Qianwen)
    "盘古": "pangu",
    "混元": "hunyuan",
    "豆包": "doubao",
    "日日新": "sensenova",
    "紫东太初": "zidong taichu",
    "百川": "baichuan",
    "九天": "jiutian",
    "通义千问": "tongyi qianwen",
    # organizations' divisions named in Chinese whose labels are English: Google Cloud (谷歌云)
    "谷歌云": "google cloud",
    # US government departments as the Chinese press names them (Epoch's owners "US Department of
    # Energy", the national laboratories' department, and "US Department of Defense"); 能源部 / 国防部
    # alone are the US ones too: the data holds no other country's
    "美国能源部": "us department of energy",
    "能源部": "us department of energy",
    "美国国防部": "us department of defense",
    "国防部": "us department of defense",
}
"""Chinese names of places, projects, chips, models and divisions that the data's labels write in English
or pinyin: a question reads them as the English words (text.fold), so "德州 Abilene 的星际之门" links as
"Texas Abilene Stargate" does and "平头哥含光800" as "T-Head Hanguang 800". Each is the name the thing
itself, its maker or the Chinese press uses (the comments say which); a name the data does not hold
("昆仑芯三代") is left as written, so it links to nothing and the answer abstains."""

CHIP_LINE_NAMES: dict[str, str] = {"昇腾": "ascend", "思元": "mlu"}
"""Chinese names of chip lines, as their makers write them (Huawei's 昇腾 is its Ascend line, Cambricon's
思元 its MLU cards): the line the graph's labels name in English (:mod:`aikg.ask.lines`)."""

ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "CTO": ("cto", "chief technology officer", "首席技术官", "技术负责人"),
    "CEO": ("ceo", "chief executive", "首席执行官", "总裁"),
    "CoFounder": (
        "co-founder",
        "cofounder",
        "co-founded",
        "co-found",
        "cofound",
        "founder",
        "founders",
        "founded",
        "联合创始人",
        "创始人",
        "创办人",
        "联合创办",
        "联合创立",
    ),
}
"""Words for the roles of aikg:Position (the ontology's aikg:Role individuals, and CEO, which aikg has none
of yet: asked, it abstains)."""

POSITION_WORDS: tuple[str, ...] = (
    "positions",
    "position",
    "roles",
    "role",
    "job title",
    "titles",
    "职务",
    "职位",
    "头衔",
    "担任",
    "任职",
)
"""Words for the positions a person holds, whatever the role: each position's role and organization."""

EVENT_WORDS: dict[str, tuple[str, ...]] = {
    "IPO": ("go public", "went public", "gone public", "ipo", "ipo'd", "listed on", "stock market debut"),
    "Pivot": (
        "pivot",
        "pivoted",
        "pivots",
        "switch from",
        "switched from",
        "switch to",
        "switched to",
        "转型",
        "转向",
        "转做",
        # the turn said as a move or a becoming ("its move from LPU chips to a neocloud", "turn into a
        # GPU cloud", 从以太坊矿场转成 GPU 云)
        "move from",
        "moved from",
        "moves from",
        "its move",
        "turn into",
        "turned into",
        "转成",
        "转到",
        "转为",
    ),
    # how a company started out ("start out as an Ethereum miner", 起家, "begin as", 起步) and when it took
    # off (起量)
    "Founding": ("start out", "started out", "starts out", "begin as", "began as", "起家", "起步"),
    "Growth": ("took off", "take off", "起量"),
}
"""Words for the kinds of corporate event (aikg:eventKind) a question may ask the date of. 上市 is not one:
of a company it is its listing, of a chip or model its release; the fact reader answers it."""

SOURCE_HEDGES = ("约", "大约", "只要", "算", "要", "总", "actually", "just")
"""The hedges and verbs of a statement a provenance question names it by ("最坏*只要* 12 跳",
"*约* 557.6 万美元", "按每卡小时 2 美元*算*", "TPUv9 *要*上 6D Torus", "*actually* spent"): they say what
the statement says, and the answer is its source whatever they are."""
RESTATED: dict[str, tuple[str, ...]] = {
    # the things compared are shown side by side, each with its value: a comparative, or a word pitting
    # them against each other, says which side is asked for and nothing the answer leaves out
    # ("who's got the *edge*", "*against*", "the *smaller* process node", 制程更*先进*, 发布*得*更*晚*)
    "compare": (
        "against",
        "edge",
        "smaller",
        "larger",
        "bigger",
        "higher",
        "lower",
        "greater",
        "better",
        "faster",
        "slower",
        "advanced",
        "先进",
        "得",
        "晚",
        # which came out earlier (早啲出, 先发布): the dates compared, the earlier first
        "早",
        "出",
        "得早",
        "得晚",
        # the two sides' figures asked for together ("give me *both* FLOP numbers", *两*个数都给): each side
        # is shown
        "both",
        "两",
    ),
    # an organization's clusters or sites said as what it owns, or runs itself: the organization's own
    # ("how many clusters does Tesla *own*", 英伟达*自己*运营的集群)
    "holds": ("own", "owns", "owned", "自己"),
    # an organization's models or chips said by their release ("*shipped*", "*put* out", "*rolled* out")
    "makes": ("ship", "ships", "shipped", "put", "puts", "rolled", "unveiled"),
    # a site's location said as the kind of place asked (Epoch's Location holds the city, the street or
    # the country as its source wrote it): "which *city* is Hut 8's H100 cluster in", 在哪个*城市*
    "place": ("city", "town", "城市"),
    # an organization's funding rounds said as done ("how many rounds has Anthropic *done*"): those that
    # closed, as "completed" (compose reads them so)
    "rounds": ("done",),
    # training runs said as done on a chip ("runs *done* / *carried* out / *conducted* / *performed* on TPU
    # v3"): the runs that used it
    "runs": ("done", "carried", "conducted", "performed", "out"),
    # the data itself as what holds the things counted ("has Intel got in *here*")
    "data": ("here",),
    # the rest of 先进 (advanced) when 先 ("first") was read as the comparison's lower side (制程更先*进*)
    "compare_zh": ("进",),
    # usage figures said as the volume a company or product handles ("tokens a day Google was
    # *handling*", 谷歌全部 AI *产品*: Epoch's "Google (all AI products)")
    "usage": (
        "handle",
        "handles",
        "handled",
        "handling",
        "process",
        "processes",
        "processed",
        "processing",
        "serve",
        "serves",
        "served",
        "serving",
        "产品",
        # the volume handled said in Chinese ("一天要处理多少 token"): the usage figure itself
        "处理",
        "要处理",
        # a product said as its app ("the Gemini *app*", "ChatGPT *app* weekly users"): the product's figures
        "app",
        "apps",
    ),
    # compute spending of several categories said as added up ("training *plus* inference", 训练*加*推理): the
    # figure Epoch files under them all
    "spend_total": ("加", "加上", "plus", "combined", "together", "both"),
    # one spending category said as that one alone ("*光*研发算力花了多少", just R&D): the category the form
    # filters on, nothing more
    "category": ("光",),
    # a status said with its stage ("还在规划*阶段*": planned)
    "status": ("阶段",),
    # a count of every row said as whatever the status (:data:`ANY_STATUS_WORDS`: "*any* status",
    # "*regardless* of status", *不管*什么状态, *不论*状态)
    "every": (
        "any",
        "every",
        "all",
        "whatever",
        "regardless",
        "irrespective",
        "不管",
        "不论",
        "无论",
        "不分",
        "所有",
        "全部",
    ),
    # the unit a token price is quoted in ("price per *million* tokens"): the price's own unit
    "per_token": ("million", "thousand", "token", "tokens"),
    # the class a thing is put in, said with the verb of membership ("which generation does the TPU v9t
    # *belong* to", Nebius *算*哪一梯队): the architecture generation or market tier asked
    "belongs": ("belong", "belongs", "算"),
    # a period the date reader took, said with "*back* in" (Jan 2025), or a year said as the calendar's
    # ("in *calendar* 2024": January to December, which a year read is; "fiscal" stays not understood)
    "dated": ("back", "calendar"),
    # a chip's memory said as what it has on board ("the most *on-board* memory"), a performance figure
    # as its throughput ("tensor FP16/BF16 *throughput*"), a run's or model's training compute as how
    # heavy it is ("the most compute-*heavy* model", "compute-*intensive*"): the property read
    "memory": ("board", "onboard", "on-board"),
    "performance": ("throughput",),
    "compute": ("heavy", "intensive", "hungry"),
    # a series of models said as one ("Qwen *系列*", "the Granite *family*"): the models its word names
    "series": ("系列", "家族", "series", "family", "line"),
    # Epoch's rating named as what the rows are rated ("*rate* as *Unlikely*", *评为* Unlikely, 可信度*为*)
    "rating": ("rate", "rated", "rates", "unlikely", "speculative", "评为", "为"),
    # a company's staff said as its people ("how many *people* does Anthropic employ")
    "staff": ("people", "ppl"),
    # a source said as the company's own word or the media's ("did OpenAI disclose it *itself*", "or
    # *something* the company disclosed", 公司*自己*说的, *官方*公布的): the source type a provenance row
    # shows; whether it is certain (这个消息*确定*吗, *确认*了吗): the certainty each source gives it
    "source": (
        "itself",
        "something",
        "officially",
        "official",
        "自己",
        "官方",
        *SOURCE_HEDGES,
        "确定",
        "确认",
    ),
    # a document's publication asked beside the document ("what *date* was the article published", 那篇报告
    # 是哪天*发*的): the answer gives its date with its publisher and link
    # 份: a document's measure word (那份白皮书)
    "document": ("date", "day", "发", "published", "posted", "关于", "白皮书", "数据集", "dataset", "份"),
    # a deal named by what it is beside its status ("is NVIDIA's *investment* in Groq confirmed", "the
    # *lease* … *signed*", 英伟达*参投* Groq 那*笔投资*, 租约*签*了*没*有): the deal linking the things named
    "deal": (
        "investment",
        "investing",
        "participation",
        "deal",
        "done",
        "lease",
        "contract",
        "only",
        "投资",
        "参投",
        "参与",
        "参",
        "笔",
        "租",
        "签",
        "没",
        "定",
        "合同",
        "合约",
        "合",
    ),
}
"""Words that restate what a form already applies, by what it applies (:func:`aikg.ask.compose.restated`):
left over by the vocabulary, they ask nothing the answer does not give — but only beside that part of
the form (an "own" beside a chip's figure, a "handling" beside no usage figure still counts)."""
