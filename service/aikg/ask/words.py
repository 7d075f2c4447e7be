"""The analyst's words the compositional reader knows (issue 44), in English and Chinese.

Properties are named by the ontology's own labels in both languages (read at run time from the store's
vocabulary) and by the words below, which say how analysts speak of them ("HBM", "月活", "raised"). Each
property knows the class of the node that carries it, and whether its value is reached from the node a
question names through another node (a model's training compute is stated on its training run).
"""

from __future__ import annotations

from dataclasses import dataclass

AIKG = "https://w3id.org/aikg/ontology#"


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
    """The property holding the node's date (for a date range)."""
    report: str | None = None
    """A property whose value the answer names instead of the node (a run's model)."""
    confidence: tuple[str, ...] = ()
    """The confidence tags a ranking counts by default (Epoch's own tags)."""
    status: bool = False
    """True when rankings count existing nodes only unless the question says otherwise."""


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
            report="trainedModel",
            confidence=("Confident", "Likely"),
        ),
        Carrier("model", "AIModel", "models", "模型", org=("aikg:developer",), date="releaseDate"),
        Carrier(
            "hardware", "Hardware", "accelerators", "加速器", org=("aikg:manufacturer",), date="availableFrom"
        ),
        Carrier("revenue", "RevenueFigure", "revenue figures", "收入数据", org=("aikg:agent",), date="date"),
        Carrier("usage", "UsageFigure", "usage figures", "用户数据", org=("aikg:agent",), date="date"),
        Carrier("funding", "FundingRound", "funding rounds", "融资", org=("aikg:investee",), date="date"),
        Carrier("event", "Event", "events", "事件", date="date"),
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
            "data center",
            "datacenter",
            "集群",
            "超算",
            "算力中心",
            "数据中心",
        ),
    ),
    ("model", ("model", "models", "llm", "llms", "模型", "大模型")),
    ("run", ("training run", "training runs", "训练任务", "训练运行")),
    (
        "hardware",
        (
            "accelerator",
            "accelerators",
            "chip",
            "chips",
            "gpu",
            "gpus",
            "hardware",
            "芯片",
            "加速器",
            "显卡",
            "硬件",
        ),
    ),
    ("funding", ("funding round", "funding rounds", "rounds", "round", "融资", "轮融资")),
    ("event", ("happened", "events", "发生了什么", "事件")),
)

PROPERTY_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("memoryBandwidth", ("memory bandwidth", "bandwidth", "显存带宽", "内存带宽", "带宽", "tb/s")),
    ("memoryPerChip", ("memory per chip", "memory", "hbm", "vram", "显存", "内存", "单卡显存")),
    ("thermalDesignPower", ("tdp", "thermal design power", "power draw", "功耗", "热设计功耗")),
    ("processNode", ("process node", "制程", "工艺")),
    ("fp16Performance", ("fp16 performance", "fp16", "fp16 算力")),
    ("activeParameters", ("active parameters", "激活参数")),
    ("totalParameters", ("parameters", "parameter count", "params", "参数量", "参数")),
    ("trainingTokens", ("training tokens", "tokens", "训练 token")),
    ("trainingCompute", ("training compute", "compute", "flop", "训练算力", "算力", "计算量")),
    ("releaseDate", ("released", "release date", "release", "发布", "推出")),
    ("h100Equivalents", ("h100 equivalents", "h100-equivalents", "h100 等效", "等效", "h100e")),
    ("powerCapacity", ("power capacity", "power", "capacity", "gw", "mw", "功率", "电力", "容量", "兆瓦")),
    ("annualRevenue", ("revenue", "revenues", "annualized revenue", "arr", "收入", "营收", "年化收入")),
    ("trainingPrecision", ("precision", "number format", "精度", "训练精度")),
    ("usesTopology", ("topology", "拓扑")),
    ("activeUsers", ("usage", "active users", "users", "mau", "wau", "dau", "月活", "周活", "日活", "用户")),
    ("postMoneyValuation", ("valuation", "valued", "估值")),
    ("amount", ("raised", "funding", "融资", "融了", "一轮融资")),
    ("scaleUpDomainSize", ("scale-up domain", "scale up domain", "scale-up", "scale-up 域", "互联芯片")),
    ("worstCaseHops", ("worst-case hops", "hops", "跳数", "最坏跳数")),
    ("timeToTrain", ("time to train", "how long", "多长时间", "耗时", "用时")),
    ("acceleratorCount", ("how many gpus", "gpus", "how many chips", "张 gpu", "多少张", "卡数")),
    ("gpuHours", ("gpu hours", "gpu-hours", "gpu 小时", "卡时")),
    ("price", ("price", "prices", "charge", "cost per", "价格", "单价", "定价")),
    ("cost", ("cost", "training cost", "成本", "训练成本")),
)
"""Analyst words for properties, longest matched first; the ontology's labels are added at run time."""

PROPERTY_CARRIER: dict[str, str] = {
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
}

PROPERTY_LABELS: dict[str, tuple[str, str, str]] = {
    # property: (English words, Chinese words, unit)
    "memoryBandwidth": ("memory bandwidth", "显存带宽", "GB/s"),
    "memoryPerChip": ("memory per chip", "单卡显存", "GB"),
    "thermalDesignPower": ("TDP", "功耗", "W"),
    "processNode": ("process node", "制程", "nm"),
    "fp16Performance": ("FP16 performance", "FP16 算力", "FLOP/s"),
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
}

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
    "阿联酋": "United Arab Emirates",
    "canada": "Canada",
    "加拿大": "Canada",
    "singapore": "Singapore",
    "新加坡": "Singapore",
    "sweden": "Sweden",
    "瑞典": "Sweden",
    "italy": "Italy",
    "意大利": "Italy",
}
"""Country words, as Epoch's location names spell the countries."""

OPERATOR_WORDS: dict[str, tuple[str, ...]] = {
    "provenance": (
        "who says",
        "who said",
        "who reported",
        "who reports",
        "where does",
        "come from",
        "comes from",
        "source of",
        "sources of",
        "source for",
        "how sure",
        "how certain",
        "how reliable",
        "谁说",
        "是谁说",
        "出自",
        "来源",
        "可信度",
        "可信",
        "哪里来",
        "谁报道",
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
        "各有",
        "have more",
        "has more",
        "更多",
    ),
    "top": (
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
        "前五",
        "前十",
        "排名",
        "最快",
    ),
    "count": (
        "how many",
        "number of",
        "count of",
        "多少个",
        "几个",
        "几款",
        "几轮",
        "的数量",
        "数量是",
        "多少款",
    ),
    "sum": ("in total", "total", "altogether", "一共", "总共", "合计", "总额"),
    "series": ("over time", "history", "trend", "历年", "变化", "历史", "趋势"),
    "latest": ("latest", "current", "now", "most recent", "最新", "目前", "现在"),
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
    ),
    "Planned": ("planned", "announced", "future", "规划", "计划中", "规划中"),
}

COMPARATORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (">=", ("at least", "no less than", "or more", "至少", "不少于", "不低于", "以上")),
    (">", ("more than", "over", "above", "greater than", "exceeding", "超过", "大于", "高于", "多于")),
    ("<=", ("at most", "no more than", "至多", "不超过", "以下")),
    ("<", ("less than", "under", "below", "fewer than", "低于", "少于", "小于")),
)

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
    "h100": ("h100Equivalents", 1.0),
}

OUT_OF_SCOPE: tuple[str, ...] = (
    "stock",
    "share price",
    "股价",
    "股票",
    "market cap",
    "市值",
    "weather",
    "天气",
    "poem",
    "joke",
    "笑话",
    "gaming",
    "recommend",
    "推荐",
    "employees",
    "员工",
)
"""Words of questions aikg cannot answer from its facts (prices of the day, predictions, advice), taken
from the out-of-scope questions of the development part only."""

ALIASES: dict[str, str] = {
    "英伟达": "nvidia",
    "辉达": "nvidia",
    "华为": "huawei",
    "谷歌": "google",
    "微软": "microsoft",
    "阿里巴巴": "alibaba",
    "阿里": "alibaba",
    "甲骨文": "oracle",
    "亚马逊": "amazon",
    "百度": "baidu",
    "腾讯": "tencent",
    "字节跳动": "bytedance",
    "字节": "bytedance",
    "苹果": "apple",
    "特斯拉": "tesla",
    "深度求索": "deepseek",
    "月之暗面": "moonshot",
    "智谱": "zhipu-ai",
    "超威": "amd",
}
"""Chinese names of organizations, as the Chinese press writes them, to the node they name."""

ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "CTO": ("cto", "chief technology officer", "首席技术官", "技术负责人"),
    "CEO": ("ceo", "chief executive", "首席执行官", "总裁"),
    "CoFounder": (
        "co-founder",
        "cofounder",
        "co-founded",
        "founder",
        "founders",
        "founded",
        "联合创始人",
        "创始人",
        "创办人",
    ),
}
"""Words for the roles of aikg:Position (the ontology's aikg:Role individuals, and CEO, which aikg has none
of yet: asked, it abstains)."""
