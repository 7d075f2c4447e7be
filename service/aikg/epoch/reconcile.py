"""Entity resolution: which entity an outside dataset's name denotes, decided by rules and reviewed
overrides, never by a guess, and every decision kept for the report.

One node per real thing, across the seeds, every Epoch file and later snapshots. For each kind of
thing (organization, model, accelerator, data center, facility equipment), in order:

1. **override** — a line of the reviewed overrides file (:mod:`aikg.epoch.overrides`) decides;
2. **same name** — the name, normalized (ASCII-folded, lower case, punctuation as spaces: "GLM 4.6" and
   "GLM-4.6" are one name), is a name (label or alternative name) of exactly one entity;
3. **same name without qualifiers** — with what does not identify the thing dropped (legal suffixes of
   organizations, parenthesized remarks, an accelerator's vendor and brand words: "NVIDIA GB300
   (Blackwell Ultra)" is the GB300), the name equals that of exactly one entity another source holds.
   Two rows of one Epoch file are two records and are never merged this way;
4. **variant** (accelerators) — the name is a product family's name plus form factor or memory words
   ("NVIDIA H100 SXM5 80GB" = H100 + SXM5 80GB): its own node, linked ``aikg:variantOf`` the family;
5. **resembling name** (models, data centers) — the name is a stored entity's but for a remark in
   parentheses one of them has and the other lacks ("GPT-4" in an older file, "GPT-4 (Mar 2023)" in the
   store; Epoch qualifies a name once a second version needs telling apart), or a data center's name
   with words dropped ("Colossus 2" for "xAI Colossus 2"): the same entity when Epoch's stable columns
   say so (the same organization and publication date; the same address); a model name with words
   added to or dropped from one an earlier snapshot of the dataset held ("Grok 3 Beta" / "Grok 3"), of
   the same organization and date, is always an ambiguity (renamed, or another release?); otherwise an
   **ambiguity** with its candidates, and the row is left out (rejected with the reason) until an
   override decides it: never a new node beside the one it may be;
6. **prefix** (organizations) — another organization's name is a word-prefix of this one ("Google" /
   "Google Cloud"): a unit, a subsidiary or an unrelated company; kept as its own node and reported as
   an **ambiguity** with its candidates until an override decides it;
7. otherwise a new entity.

A name an earlier import already resolved finds the same entity again by rule 2, so ids stay the same
from one snapshot to the next. Training runs are resolved per model: the Epoch rows of a model (one
per model file) describe one run, the model's only training run in the documents if it has one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

import pyoxigraph as ox

from aikg.epoch.history import value_of
from aikg.epoch.overrides import Override
from aikg.epoch.values import normalize, slugify
from aikg.knowledge.derive import GENERATED_GRAPHS
from aikg.namespaces import AIKG, GRAPH, ID
from aikg.namespaces import IMPORTS_GRAPH as _IMPORTS
from aikg.namespaces import RESOLUTION_GRAPH as _RESOLUTION
from aikg.store import Store

EPOCH_PREFIX = str(GRAPH["epoch/"])
"""Every graph of an Epoch file starts with this."""
RESOLUTION_GRAPH = str(_RESOLUTION)
"""aikg's resolution links (variants, parents, a system's chip), written by the import."""
IMPORTS_GRAPH = str(_IMPORTS)
"""aikg's record of every import."""

KINDS = {
    "organization": str(AIKG.Organization),
    "model": str(AIKG.AIModel),
    "accelerator": str(AIKG.Hardware),
    "datacenter": str(AIKG.DataCenter),
    "equipment": str(AIKG.FacilityEquipment),
}
"""Kinds of thing resolved, and the aikg class whose instances (any subclass) are candidates."""

LINKS = {
    "variant-of": str(AIKG.variantOf),
    "subsidiary-of": str(AIKG.parentOrganization),
    "part-of": str(AIKG.partOfSite),
}
USES_ACCELERATOR = str(AIKG.usesAccelerator)

_BRANDS = frozenset({"nvidia", "amd", "intel", "google", "huawei", "tesla", "geforce", "quadro"})
_LEGAL = re.compile(r"\b(inc|ltd|llc|corp|corporation|co|plc|gmbh|sa|limited|company)\b")
_QUALIFIER = re.compile(r"^(sxm\d*|pcie|nvl|oam|dgxs|pci|\d+gb|hbm\d*e?)$")

_SKIP = frozenset({*GENERATED_GRAPHS, RESOLUTION_GRAPH, IMPORTS_GRAPH})


def loose_key(kind: str, name: str, vendors: frozenset[str] = frozenset()) -> str:
    """The key of rule 3: parenthesized remarks dropped; legal suffixes (organizations) or leading
    vendor and brand words (accelerators) dropped."""
    key = normalize(re.sub(r"\([^)]*\)", " ", name))
    if kind == "accelerator":
        words = key.split()
        while len(words) > 1 and words[0] in vendors | _BRANDS:
            words = words[1:]
        key = " ".join(words)
    elif kind == "organization":
        key = " ".join(_LEGAL.sub(" ", key).split())
    return key


def families(key: str) -> list[tuple[str, str]]:
    """(shorter key, qualifiers dropped) for each trailing form-factor or memory word of an accelerator
    key, shortest qualifier first: "h100 sxm5 80 gb" -> ("h100 sxm5", "80 gb"), ("h100", "sxm5 80 gb")."""
    words = key.split()
    out = []
    dropped: list[str] = []
    while len(words) > 1:
        if words[-1] == "gb" and len(words) > 2 and words[-2].isdigit():
            dropped[:0] = words[-2:]
            words = words[:-2]
        elif _QUALIFIER.match(words[-1]):
            dropped[:0] = words[-1:]
            words = words[:-1]
        else:
            break
        out.append((" ".join(words), " ".join(dropped)))
    return out


@dataclass
class Known:
    """An entity the store holds: its kind, names (normalized), English label and where it comes from."""

    iri: str
    kind: str
    names: set[str] = field(default_factory=set)
    label: str | None = None
    seed_born: bool = False
    """True when a graph outside Epoch's gives it its English label (a document's entity)."""
    files: set[str] = field(default_factory=set)
    """Epoch graphs that name it (for an entity made by this import, the graph of its first file)."""
    spellings: set[str] = field(default_factory=set)
    """Its names as written."""


@dataclass
class Decision:
    """What one name was resolved to, by which rule, and the links the decision makes."""

    kind: str
    name: str
    iri: str
    status: str
    """``matched`` (another source's entity), ``kept`` (the same entity an earlier import made),
    ``created`` (a new entity), ``ambiguous`` (a new entity, with candidates it might be) or
    ``unresolved`` (no entity: the name may be one of the candidates, and its rows are left out)."""
    rule: str = ""
    candidates: list[str] = field(default_factory=list)
    label: str = ""
    """The entity's English label (an existing entity keeps its own)."""
    links: list[tuple[str, str, str]] = field(default_factory=list)
    """(subject, property, object) links this decision makes."""
    spellings: set[str] = field(default_factory=set)
    """Every spelling of the name the import met."""
    file: str = ""
    """The graph of the first file that used the name."""
    seed_born: bool = False

    @property
    def epoch_born(self) -> bool:
        """True when no document holds the entity: Epoch's graphs carry its label."""
        return not self.seed_born


class Reconciler:
    """Decides, name by name, the entity each name denotes; remembers every decision for the report."""

    def __init__(
        self,
        store: Store,
        overrides: dict[tuple[str, str], Override],
        names: dict[str, list[tuple[str, str]]],
        vendors: frozenset[str] = frozenset(),
        stable: dict[tuple[str, str], set[tuple[frozenset[str], str]]] | None = None,
    ) -> None:
        """``names``: per kind, every (name, origin graph) this import will ask about, in import order;
        ``stable``: (origin graph, normalized model name) -> the (organizations, publication date) its
        rows give (Epoch's stable columns, which tell whether a resembling name is the same model)."""
        self.store = store
        self.stable = stable or {}
        self.overrides = overrides
        self.vendors = vendors
        self.known: dict[str, list[Known]] = {k: [] for k in KINDS}
        self.by_iri: dict[str, Known] = {}
        self.exact: dict[str, dict[str, set[str]]] = {k: defaultdict(set) for k in KINDS}
        self.loose: dict[str, dict[str, set[str]]] = {k: defaultdict(set) for k in KINDS}
        self.bare: dict[str, dict[str, set[str]]] = {k: defaultdict(set) for k in KINDS}
        """Per kind: a spelling without its remarks in parentheses -> entities (for rule 5)."""
        self.taken: set[str] = set()
        """Slugs of every node the store holds outside the generated graphs, and those made now."""
        self.outside: set[str] = set()
        """Slugs of nodes described outside Epoch's graphs (a row node must not take one)."""
        self._load(store)
        self.existing = set(self.taken)
        """Slugs the store held before this import."""
        self.runs = _documented_runs(store)
        self.asked: dict[str, dict[str, tuple[str, str]]] = {k: {} for k in KINDS}
        self.spelled: dict[str, dict[str, set[str]]] = {k: defaultdict(set) for k in KINDS}
        self.named_in: dict[tuple[str, str], set[str]] = defaultdict(set)
        """(kind, origin graph) -> the normalized names that file uses."""
        for kind, pairs in names.items():
            for name, origin in pairs:
                self.asked[kind].setdefault(normalize(name), (name, origin))
                self.spelled[kind][normalize(name)].add(name.strip())
                self.named_in[(kind, origin)].add(normalize(name))
        self.decisions: dict[tuple[str, str], Decision] = {}
        self.run_decisions: dict[str, Decision] = {}
        self._resolving: set[tuple[str, str]] = set()
        self.problems: list[str] = []
        """Overrides that could not be applied, in plain words."""

    # -- what the store holds ---------------------------------------------------------------------

    def _load(self, store: Store) -> None:
        skip = ", ".join(f"<{g}>" for g in sorted(_SKIP))
        kinds = " ".join(f'("{k}" <{c}>)' for k, c in KINDS.items())
        typed = store.query(f"""
            PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
            SELECT DISTINCT ?e ?kind WHERE {{
              VALUES (?kind ?cls) {{ {kinds} }}
              GRAPH ?g {{ ?e a ?t }} FILTER (?g NOT IN ({skip}))
              ?t rdfs:subClassOf* ?cls .
            }}""")
        kind_of: dict[str, set[str]] = defaultdict(set)
        for e, kind in typed.values():
            if e is not None and kind is not None:
                kind_of[e].add(kind)
        named = store.query(f"""
            PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
            PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
            SELECT ?e ?p ?name ?g WHERE {{
              GRAPH ?g {{ ?e ?p ?name }} VALUES ?p {{ rdfs:label skos:altLabel }}
              FILTER (?g NOT IN ({skip}))
            }}""")
        labels: dict[str, dict[bool, set[str]]] = defaultdict(lambda: defaultdict(set))
        entries: dict[tuple[str, str], Known] = {}
        for entity, p, name, in_graph in named.rows:
            if entity is None or p is None or not isinstance(name, ox.Literal) or in_graph is None:
                continue
            iri, graph = entity.value, in_graph.value
            for kind in kind_of.get(iri, ()):
                known = entries.get((iri, kind))
                if known is None:
                    known = entries[(iri, kind)] = Known(iri, kind)
                known.names.add(normalize(name.value))
                known.spellings.add(name.value.strip())
                if graph.startswith(EPOCH_PREFIX):
                    known.files.add(graph)
            if p.value.endswith("#label") and name.language == "en":
                labels[iri][graph.startswith(EPOCH_PREFIX)].add(name.value)
        for known in entries.values():
            outside = labels[known.iri][False]
            known.seed_born = bool(outside)
            pool = outside or labels[known.iri][True]
            known.label = min(pool) if pool else None
            self._index(known)
        prefix = str(ID[""])
        subjects = store.query(f"""
            SELECT DISTINCT ?s (STRSTARTS(STR(?g), "{EPOCH_PREFIX}") AS ?epoch) WHERE {{
              GRAPH ?g {{ ?s ?p ?o }} FILTER (?g NOT IN ({skip}))
            }}""")
        for s, epoch in subjects.values():
            if s is not None and s.startswith(prefix):
                slug = s[len(prefix) :]
                self.taken.add(slug)
                if epoch != "true":
                    self.outside.add(slug)

    def _index(self, known: Known) -> None:
        self.known[known.kind].append(known)
        self.by_iri.setdefault(known.iri, known)
        for n in known.names:
            self.exact[known.kind][n].add(known.iri)
            self.loose[known.kind][loose_key(known.kind, n, self.vendors)].add(known.iri)
        for spelling in known.spellings:
            self.bare[known.kind][loose_key(known.kind, spelling, self.vendors)].add(known.iri)

    def is_named(self, kind: str, name: str) -> bool:
        """True when the store or another column of this import names ``name`` as a ``kind``."""
        norm = normalize(name)
        return norm in self.asked[kind] or bool(self.exact[kind].get(norm))

    # -- deciding ---------------------------------------------------------------------------------

    def resolve(self, kind: str, name: str, origin: str = "") -> Decision:
        """The entity ``name`` of ``kind`` denotes; the same name always gets the same answer.

        ``origin`` is the graph of the dataset whose row uses the name."""
        norm, spelled = normalize(name), name.strip()
        key, use_override = (kind, norm), True
        override = self.overrides.get(key)
        if override is not None and override.decision == "separate" and len(self._spellings(kind, norm)) > 1:
            # Spellings that differ only in case can be two things (CaLM is not CALM): a "separate"
            # override keeps its own spelling apart; the other spellings are resolved by the rules.
            if spelled == override.name:
                key = (kind, f"{norm}\x00{spelled}")
            else:
                use_override = False
        decision = self.decisions.get(key)
        if decision is None:
            self._resolving.add(key)
            try:
                origin = origin or self.asked[kind].get(norm, ("", ""))[1]
                decision = self._decide(kind, name, norm, origin, use_override=use_override)
            finally:
                self._resolving.discard(key)
            self.decisions[key] = decision
            known = self.by_iri.get(decision.iri)
            if key[1] != norm:
                self.exact[kind][norm].discard(decision.iri)
                self.loose[kind][loose_key(kind, name, self.vendors)].discard(decision.iri)
            elif known is not None:
                known.names.add(norm)
                self.exact[kind][norm].add(decision.iri)
        decision.spellings.add(spelled)
        return decision

    def _spellings(self, kind: str, norm: str) -> set[str]:
        return self.spelled[kind].get(norm, set())

    def _decide(self, kind: str, name: str, norm: str, origin: str, *, use_override: bool = True) -> Decision:
        file = origin
        override = self.overrides.get((kind, norm)) if use_override else None
        if override is not None:
            decision = self._apply(override, kind, name, norm, file)
            if decision is not None:
                return decision
        exact = sorted(self.exact[kind].get(norm, set()))
        if len(exact) == 1 and kind == "model":
            doubt = self._redated(name, norm, exact[0], file)
            if doubt is not None:
                return doubt
        if len(exact) == 1:
            decision = self._found(kind, name, exact[0], "same name", file)
            if kind == "accelerator" and decision.status == "kept":
                # An earlier import's variant is still a variant of its family.
                family = self._family(norm, loose_key(kind, name, self.vendors), own=decision.iri)
                if family is not None and len(family[1]) == 1:
                    decision.links.append((decision.iri, LINKS["variant-of"], family[1][0]))
                    decision.rule = f"same name; variant: the family's name plus {family[0]!r}"
            return decision
        if len(exact) > 1:
            spelled = [iri for iri in exact if name.strip() in self.by_iri[iri].spellings]
            if len(spelled) == 1:
                return self._found(kind, name, spelled[0], "same name", file)
            return self._create(kind, name, file, "ambiguous", "several entities have this name", exact)
        loose = loose_key(kind, name, self.vendors)
        if loose and loose != norm:
            allowed = sorted(
                iri for iri in self.loose[kind].get(loose, set()) if self._other_source(iri, file)
            )
            if len(allowed) == 1:
                return self._found(kind, name, allowed[0], "same name without qualifiers", file)
            if len(allowed) > 1:
                return self._create(
                    kind,
                    name,
                    file,
                    "ambiguous",
                    "several entities have the same name without qualifiers",
                    allowed,
                )
        if kind == "organization":
            renamed = self._renamed_organization(name, file)
            if renamed is not None:
                return renamed
        if kind in ("model", "datacenter"):
            decision = self._resembling(kind, name, norm, file)
            if decision is not None:
                return decision
        if kind == "accelerator":
            decision = self._variant(name, norm, loose, file)
            if decision is not None:
                return decision
        if kind == "organization":
            words = norm.split()
            own = str(ID[slugify(name)])
            prefixes = sorted(
                {iri for i in range(1, len(words)) for iri in self._named(kind, " ".join(words[:i]))} - {own}
            )
            if prefixes:
                return self._create(
                    kind,
                    name,
                    file,
                    "ambiguous",
                    "another organization's name is a word-prefix of this one "
                    "(a unit, a subsidiary, or unrelated?)",
                    prefixes,
                )
        return self._create(kind, name, file, "created", "new")

    def _resembling(self, kind: str, name: str, norm: str, origin: str) -> Decision | None:
        """Rule 5: a name that is a stored entity's but for a remark in parentheses one of them lacks
        (models, data centers), or a data center's name with words dropped ("Colossus 2" for "xAI
        Colossus 2"); Epoch's stable columns decide whether it is that entity."""
        own = _qualifier(name)
        loose = loose_key(kind, name, self.vendors)
        ours = self.named_in.get((kind, origin), set())
        found = set(self.bare[kind].get(loose, set()))
        if kind == "datacenter" and len(norm.split()) >= 2:
            found |= {k.iri for k in self.known[kind] if any(_within(norm, n) for n in k.names)}
        candidates = []
        for iri in sorted(found):
            known = self.by_iri.get(iri)
            if known is None or iri[len(str(ID[""])) :] not in self.existing or known.names & ours:
                continue  # made by this import, or named by this very file too: another record
            theirs = {_qualifier(s) for s in known.spellings}
            same_bare = loose in {loose_key(kind, s, self.vendors) for s in known.spellings}
            if same_bare and ((own and "" not in theirs) or (not own and theirs == {""})):
                continue  # both qualified (two versions Epoch tells apart), or neither (not this rule)
            candidates.append(iri)
        if not candidates:
            return self._renamed(kind, name, norm, origin) if kind == "model" else None
        facts = self.stable.get((origin, norm), set())
        confirmed = [iri for iri in candidates if self._same_record(kind, iri, facts)]
        rule = (
            "same name but for a remark in parentheses, same organization and publication date"
            if kind == "model"
            else "one of its names with words dropped or a remark in parentheses, at the same address"
        )
        if len(confirmed) > 1:
            # Epoch dates two versions alike ("GPT-4 (Mar 2023)" and "(Jun 2023)" are both 2023-03-15):
            # the one the same dataset holds is the row this one became.
            confirmed = [
                iri for iri in confirmed if any(_same_dataset(f, origin) for f in self.by_iri[iri].files)
            ]
            rule += ", the one this dataset holds"
        if len(confirmed) == 1:
            return self._found(kind, name, confirmed[0], rule, origin)
        given = "; ".join(
            f"{', '.join(sorted(orgs)) or 'no organization'}, {date or 'no date'}"
            if kind == "model"
            else date or "no address"
            for orgs, date in facts
        )
        what = "organization and publication date" if kind == "model" else "address"
        return Decision(
            kind,
            name,
            "",
            "unresolved",
            f"the name resembles {len(candidates)} stored {kind}(s), and Epoch's {what} "
            f"({given or 'none given'}) do not tell which it is: its rows are left out until an override "
            "(same or separate) decides",
            candidates,
            file=origin,
        )

    def _renamed_organization(self, name: str, origin: str) -> Decision | None:
        """Epoch's "Z.ai (Zhipu AI)" in a later snapshot of a dataset whose earlier one named "Zhipu AI":
        a new name with the one the dataset knew in parentheses is that organization (listed as a merge,
        for review). A remark also gives an acronym, a parent or a backer ("Stargate (OpenAI)", "Moore
        Threads (Tencent)"), so only an organization the same dataset already named qualifies."""
        remark = _qualifier(name)
        named = sorted(self.exact["organization"].get(remark, set())) if remark else []
        if len(named) != 1 or named[0][len(str(ID[""])) :] not in self.existing:
            return None
        if not any(_same_dataset(f, origin) for f in self.by_iri[named[0]].files):
            return None
        return self._found(
            "organization", name, named[0], "a new name with the one this dataset knew in parentheses", origin
        )

    def _redated(self, name: str, norm: str, iri: str, origin: str) -> Decision | None:
        """A name without a remark that an earlier import gave a model Epoch tells apart by one ("GPT-4"
        for "GPT-4 (Mar 2023)", rule 5, because its organization and publication date agreed) is that
        model only while they still agree: "GPT-4" dated 2023-06-13 is not "GPT-4 (Mar 2023)" (published
        2023-03-15) by its name alone, but an ambiguity with every model of that bare name."""
        known = self.by_iri.get(iri)
        if known is None or _qualifier(name) or not any(_qualifier(s) for s in known.spellings):
            return None
        if iri[len(str(ID[""])) :] not in self.existing:
            return None  # made by this import
        facts = self.stable.get((origin, norm), set())
        if not facts or self._same_record("model", iri, facts):
            return None
        loose = loose_key("model", name, self.vendors)
        candidates = sorted(self.bare["model"].get(loose, set()) | {iri})
        given = "; ".join(
            f"{', '.join(sorted(orgs)) or 'no organization'}, {date or 'no date'}" for orgs, date in facts
        )
        return Decision(
            "model",
            name,
            "",
            "unresolved",
            f"the name was matched to id:{iri[len(str(ID[''])) :]} by an earlier import; its organization "
            f"and publication date differ from this row's ({given}): the same model redated, or another "
            "version? Its rows are left out until an override (same or separate) decides",
            candidates,
            file=origin,
        )

    def _renamed(self, kind: str, name: str, norm: str, origin: str) -> Decision | None:
        """Rule 5 for a model renamed with words added or dropped ("Grok 3 Beta" where this dataset held
        "Grok 3"): a model an earlier snapshot of the same dataset holds, which this file does not name,
        whose name is a word-prefix of this one (or this one of its) and which has the organization and
        publication date the row gives, may be this model renamed or another release: an ambiguity with
        its candidates, never a new node beside it (different dates: another model, rule 7)."""
        ours = self.named_in.get((kind, origin), set())
        facts = self.stable.get((origin, norm), set())
        words = norm.split()
        candidates = []
        for known in self.known[kind]:
            if known.iri[len(str(ID[""])) :] not in self.existing or known.names & ours:
                continue
            if not any(_same_dataset(f, origin) for f in known.files):
                continue  # only a rename within one dataset: another source's name is rule 3's
            if not any(_word_prefix(words, n.split()) for n in known.names):
                continue
            if self._same_record(kind, known.iri, facts):
                candidates.append(known.iri)
        if not candidates:
            return None
        return Decision(
            kind,
            name,
            "",
            "unresolved",
            f"the name is a stored model's with words added or dropped, with the same organization and "
            f"publication date ({len(candidates)} candidate(s)): the same model renamed, or another? Its "
            "rows are left out until an override (same or separate) decides",
            sorted(candidates),
            file=origin,
        )

    def _same_record(self, kind: str, iri: str, facts: set[tuple[frozenset[str], str]]) -> bool:
        """Whether a stored model has the organization and the publication date a row gives, or a stored
        data center its address (``facts``: (organizations, the date or the normalized address))."""
        node = ox.NamedNode(iri)
        if kind == "datacenter":
            where = ox.NamedNode(str(AIKG.locationName))
            places = {normalize(value_of(q.object)) for q in self.store.quads(node, where)}
            return any(address and address in places for _, address in facts)
        dates = {value_of(q.object)[:10] for q in self.store.quads(node, ox.NamedNode(str(AIKG.releaseDate)))}
        orgs: set[str] = set()
        for q in self.store.quads(node, ox.NamedNode(str(AIKG.developer))):
            known = self.by_iri.get(value_of(q.object))
            orgs |= known.names if known else {normalize(value_of(q.object).rsplit("/", 1)[-1])}
        return any(date and date in dates and row_orgs & orgs for row_orgs, date in facts)

    def _named(self, kind: str, norm: str) -> set[str]:
        """Entities with this exact name, resolving a name of this import first if it is one."""
        override = self.overrides.get((kind, norm))
        if override is not None and override.decision == "same" and override.target:
            return {str(ID[override.target])}
        found = set(self.exact[kind].get(norm, set()))
        pending = self.asked[kind].get(norm)
        if not found and pending is not None and (kind, norm) not in self._resolving:
            found.add(self.resolve(kind, pending[0], pending[1]).iri)
        return found

    def _other_source(self, iri: str, origin: str) -> bool:
        """True when an entity comes from a document, or from a file other than ``origin`` (two rows of
        one file are two records: they are never merged by a loose rule)."""
        known = self.by_iri.get(iri)
        if known is None:
            return False
        return known.seed_born or not any(_same_dataset(f, origin) for f in known.files)

    def _family(self, norm: str, loose: str, own: str | None = None) -> tuple[str, list[str]] | None:
        """(qualifier words dropped, families) for the first shorter key naming any entity; None when
        no shorter form of the name is an entity's."""
        for shorter, dropped in families(loose):
            found = set(self.loose["accelerator"].get(shorter, set()))
            if not found:
                for n, (other, other_origin) in list(self.asked["accelerator"].items()):
                    if (
                        n != norm
                        and ("accelerator", n) not in self._resolving
                        and loose_key("accelerator", other, self.vendors) == shorter
                    ):
                        found.add(self.resolve("accelerator", other, other_origin).iri)
            found.discard(own or "")
            if found:
                return dropped, sorted(found)
        return None

    def _variant(self, name: str, norm: str, loose: str, origin: str) -> Decision | None:
        family = self._family(norm, loose)
        if family is None:
            return None
        dropped, found = family
        if len(found) > 1:
            return self._create(
                "accelerator", name, origin, "ambiguous", f"a variant ({dropped!r}) of which family?", found
            )
        decision = self._create(
            "accelerator", name, origin, "created", f"variant: the family's name plus {dropped!r}"
        )
        decision.links.append((decision.iri, LINKS["variant-of"], found[0]))
        return decision

    def _apply(self, override: Override, kind: str, name: str, norm: str, origin: str) -> Decision | None:
        rule = override.describe()
        target = str(ID[override.target]) if override.target else None
        if target is not None and target not in self.by_iri:
            # The target may be a name of this import not met yet: resolve it first.
            for n, (other, other_origin) in list(self.asked[kind].items()):
                if slugify(other) == override.target and (kind, n) not in self._resolving and n != norm:
                    self.resolve(kind, other, other_origin)
        if target is not None and target not in self.by_iri:
            self.problems.append(
                f"{rule}: the target {override.target!r} is not an entity of the store; "
                f"{kind} {name!r} was resolved by the rules instead"
            )
            return None
        if override.decision == "same" and target is not None:
            return self._found(kind, name, target, rule, origin)
        if override.decision == "separate":
            return self._create(kind, name, origin, "created", rule)
        if override.decision == "chip-of" and target is not None:
            del self.overrides[(kind, norm)]
            try:
                decision = self._decide(kind, name, norm, origin)
            finally:
                self.overrides[(kind, norm)] = override
            decision.links.append((target, USES_ACCELERATOR, decision.iri))
            decision.rule += f"; {rule}"
            return decision
        if target is not None and override.decision in LINKS:
            decision = self._create(kind, name, origin, "created", rule)
            decision.links.append((decision.iri, LINKS[override.decision], target))
            return decision
        return None

    def _found(self, kind: str, name: str, iri: str, rule: str, origin: str) -> Decision:
        known = self.by_iri[iri]
        status = "matched"
        if not known.seed_born and rule == "same name" and any(_same_dataset(f, origin) for f in known.files):
            status = "kept"  # the entity this file's earlier import (or an earlier row) made
        return Decision(
            kind, name, iri, status, rule, label=known.label or name, file=origin, seed_born=known.seed_born
        )

    def _create(
        self, kind: str, name: str, origin: str, status: str, rule: str, candidates: Iterable[str] = ()
    ) -> Decision:
        # An entity an earlier import made for this very spelling keeps its id (a snapshot later, the
        # same override or rule decides the same way).
        spelled = name.strip()
        earlier = [
            k
            for k in self.known[kind]
            if not k.seed_born and spelled in k.spellings and k.iri not in candidates
        ]
        if len(earlier) == 1:
            known = earlier[0]
            return Decision(
                kind,
                name,
                known.iri,
                "kept" if status == "created" else status,
                rule,
                list(candidates),
                label=known.label or name,
                file=origin,
            )
        base = slugify(name)
        slug = base if base not in self.taken else f"epoch-{kind}-{base}"
        n = 2
        while slug in self.taken:
            slug = f"epoch-{kind}-{base}-{n}"
            n += 1
        self.taken.add(slug)
        iri = str(ID[slug])
        known = Known(iri, kind, {normalize(name)}, name, False, {origin}, {spelled})
        self._index(known)
        return Decision(kind, name, iri, status, rule, list(candidates), label=name, file=origin)

    # -- training runs ----------------------------------------------------------------------------

    def run_for(self, model: Decision, name: str, origin: str) -> Decision:
        """The training run Epoch's rows of ``model`` describe: one per model, whichever files say it."""
        decision = self.run_decisions.get(model.iri)
        if decision is not None:
            return decision
        override = self.overrides.get(("training-run", normalize(name)))
        documented = sorted(self.runs.get(model.iri, set()))
        model_slug = model.iri[len(str(ID[""])) :]
        own = f"training-run-{model_slug}"
        if own in self.outside and own not in {r[len(str(ID[""])) :] for r in documented}:
            own += "-epoch"
        if override is not None and override.decision == "same" and override.target:
            decision = Decision(
                "training-run",
                name,
                str(ID[override.target]),
                "matched",
                override.describe(),
                file=origin,
                seed_born=True,
            )
        elif override is not None and override.decision == "separate":
            decision = Decision(
                "training-run", name, str(ID[own]), "created", override.describe(), file=origin
            )
        elif len(documented) == 1:
            decision = Decision(
                "training-run",
                name,
                documented[0],
                "matched",
                "the model's only training run in the documents",
                file=origin,
                seed_born=True,
            )
        elif documented:
            decision = Decision(
                "training-run",
                name,
                str(ID[own]),
                "ambiguous",
                "the documents describe several training runs of this model",
                documented,
                file=origin,
            )
        else:
            status = "kept" if own in self.existing else "created"
            decision = Decision("training-run", name, str(ID[own]), status, "one run per model", file=origin)
        decision.label = f"{model.label} training run"
        decision.spellings.add(name)
        self.taken.add(decision.iri[len(str(ID[""])) :])
        self.run_decisions[model.iri] = decision
        return decision

    def all_decisions(self) -> list[Decision]:
        """Every decision of the import, names first, then training runs, in a stable order."""
        names = sorted(self.decisions.values(), key=lambda d: (d.kind, d.name))
        return names + sorted(self.run_decisions.values(), key=lambda d: d.name)


def _within(short: str, long: str) -> bool:
    """Whether the words of ``short`` are a run of the words of ``long`` (and fewer of them)."""
    a, b = short.split(), long.split()
    return len(a) < len(b) and any(b[i : i + len(a)] == a for i in range(len(b) - len(a) + 1))


def _word_prefix(a: list[str], b: list[str]) -> bool:
    """Whether one list of words is a proper prefix of the other."""
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return 0 < len(short) < len(long) and long[: len(short)] == short


def _qualifier(name: str) -> str:
    """The remark in parentheses a name carries, normalized ("GPT-4 (Mar 2023)" -> "mar 2023"), or ""."""
    return " ".join(normalize(" ".join(re.findall(r"\(([^)]*)\)", name))).split())


def _same_dataset(graph: str, origin: str) -> bool:
    """True when ``graph`` is the dataset graph ``origin`` or one of its partial-update graphs."""
    return graph == origin or graph.startswith(origin + "/")


def _documented_runs(store: Store) -> dict[str, set[str]]:
    """model IRI -> the training runs a graph outside Epoch's describes for it."""
    skip = ", ".join(f"<{g}>" for g in sorted(_SKIP))
    result = store.query(f"""
        PREFIX aikg: <https://w3id.org/aikg/ontology#>
        SELECT DISTINCT ?run ?model WHERE {{
          GRAPH ?g {{ ?run aikg:trainedModel ?model }}
          FILTER (?g NOT IN ({skip}) && !STRSTARTS(STR(?g), "{EPOCH_PREFIX}"))
        }}""")
    out: dict[str, set[str]] = defaultdict(set)
    for run, model in result.values():
        if run is not None and model is not None:
            out[model].add(run)
    return out
