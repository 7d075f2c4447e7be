"""SHACL validation of data against ``ontology/shapes/*.ttl``, with a readable and a machine report.

The ontology is mixed into the data seen by the validator (never into the caller's graph), so
``sh:targetClass`` and ``sh:class`` follow ``rdfs:subClassOf``: ``sh:class aikg:Organization``
accepts an ``aikg:Neocloud``. Shapes and ontology are parsed once per process.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

import pyoxigraph as ox
from pyshacl.errors import ValidationFailure
from pyshacl.graph_abstraction import OxigraphDataGraph
from pyshacl.shape import Shape
from pyshacl.shapes_graph import ShapesGraph
from pyshacl.validator import Validator
from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.namespace import RDF, RDFS, SH, XSD
from rdflib.term import Node

from aikg.errors import AikgError
from aikg.namespaces import BASE, ONTOLOGY_GRAPH, PREFIXES, SHAPES_GRAPH, curie
from aikg.resources import ontology_dir, shapes_dir
from aikg.store import Store
from aikg.store.terms import graph_to_ox

log = logging.getLogger(__name__)

_PYSHACL = threading.Lock()
"""pySHACL adds triples to the shapes graph it is given, and the shared cached graph must not change
under a concurrent run; validation is CPU-bound Python, so the lock costs no parallelism."""


@dataclass(frozen=True)
class Violation:
    """One result of the report: which node, which property, what is wrong, and which shape said so."""

    focus_node: str
    path: str | None
    message: str
    severity: str
    shape: str
    value: str | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready fields."""
        return asdict(self)


@dataclass
class ValidationResult:
    """The outcome: conforms or not, the violations in a stable order, and the sh:ValidationReport graph."""

    conforms: bool
    violations: list[Violation]
    report: Graph

    def to_json(self) -> dict[str, Any]:
        """The report as JSON: ``{"conforms", "count", "violations": [...]}``."""
        return {
            "conforms": self.conforms,
            "count": len(self.violations),
            "violations": [v.to_dict() for v in self.violations],
        }

    def to_turtle(self) -> str:
        """The sh:ValidationReport graph in Turtle."""
        return self.report.serialize(format="turtle")

    def text(self) -> str:
        """A readable listing, one violation per paragraph, for terminals and test failures."""
        if self.conforms:
            return "Conforms: no violations."
        lines = [f"Does not conform: {len(self.violations)} violation(s)."]
        for v in self.violations:
            where = _short(v.focus_node) + (f"  {_short(v.path)}" if v.path else "")
            lines.append(f"- [{v.severity}] {where}")
            lines.append(f"    {v.message}")
            if v.value is not None and v.value != v.focus_node:
                lines.append(f"    value: {_short(v.value)}")
            lines.append(f"    shape: {_short(v.shape)}")
        return "\n".join(lines)


SHAPES_NS = BASE + "shapes#"
"""Namespace of the shapes in ``ontology/shapes/*.ttl``."""


_REPORT_PREFIXES = {**PREFIXES, "shape": SHAPES_NS}
"""aikg's prefixes and the shapes' own, for readable reports."""


def _short(iri: str) -> str:
    return curie(iri, _REPORT_PREFIXES)


def _parse_folder(files: Iterable[Any]) -> Graph:
    g = Graph()
    for p in sorted(files):
        g.parse(p, format="turtle")
    for prefix, ns in PREFIXES.items():
        g.bind(prefix, ns, override=True)
    return g


@lru_cache(maxsize=1)
def load_shapes() -> Graph:
    """The SHACL shapes, parsed once per process (treat the result as read-only)."""
    return _parse_folder(shapes_dir().glob("*.ttl"))


@lru_cache(maxsize=1)
def inverse_path_predicates() -> frozenset[str]:
    """The predicates the shapes follow backwards (``sh:inversePath``): validating a node alone needs
    its incoming triples of these, not only its own."""
    return frozenset(str(p) for p in load_shapes().objects(None, SH.inversePath) if isinstance(p, URIRef))


@lru_cache(maxsize=1)
def far_inverse_predicates() -> frozenset[str]:
    """The predicates the shapes follow backwards from a node other than the one validated: an inverse
    step that is not a path's first (``( aikg:namedGraph [ sh:inversePath aikg:namedGraph ] )``: who
    else names the graph a source names). A change of such a statement can change the result of the
    nodes pointing at its object, not only of the object (see :func:`aikg.write.gate.focus_nodes`)."""
    shapes = load_shapes()
    first = {
        p
        for path in shapes.objects(None, SH.path)
        for p in shapes.objects(path, SH.inversePath)
        if isinstance(p, URIRef)
    }
    every = {p for p in shapes.objects(None, SH.inversePath) if isinstance(p, URIRef)}
    nested = {
        p
        for path in shapes.objects(None, SH.path)
        if (path, RDF.first, None) in shapes
        for step in list(Collection(shapes, path))[1:]
        for p in _inverse_steps(shapes, step)
    }
    return frozenset(str(p) for p in (every - first) | nested)


def _inverse_steps(shapes: Graph, step: Node) -> set[URIRef]:
    """Every predicate followed backwards anywhere inside a path step."""
    found: set[URIRef] = set()
    todo, seen = [step], set()
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        for p, o in shapes.predicate_objects(node):
            if p == SH.inversePath and isinstance(o, URIRef):
                found.add(o)
            if isinstance(o, BNode):
                todo.append(o)
    return found


@lru_cache(maxsize=1)
def load_ontology() -> Graph:
    """The ontology, parsed once per process (treat the result as read-only)."""
    return _parse_folder(ontology_dir().glob("*.ttl"))


def _path_text(report: Graph, path: Node | None) -> str | None:
    """A result path as text: an IRI, or a SHACL property path written in SPARQL syntax."""
    if path is None:
        return None
    if isinstance(path, URIRef):
        return str(path)
    inverse = report.value(path, SH.inversePath)
    if inverse is not None:
        return f"^{_path_text(report, inverse)}"
    if (path, RDF.first, None) in report:
        return "/".join(_path_text(report, p) or "" for p in Collection(report, path))
    return str(path)


def _node_text(report: Graph, node: Node | None) -> str | None:
    """IRIs as they are; literals in Turtle form with prefixed datatypes (``"-1"^^xsd:integer``)."""
    if node is None:
        return None
    if isinstance(node, Literal):
        if node.datatype == XSD.string:
            node = Literal(str(node))
        return node.n3(report.namespace_manager)
    return str(node)


def _violations(report: Graph) -> list[Violation]:
    out = []
    for result in report.subjects(RDF.type, SH.ValidationResult):
        severity = report.value(result, SH.resultSeverity)
        messages = sorted(str(m) for m in report.objects(result, SH.resultMessage))
        out.append(
            Violation(
                focus_node=_focus_text(report.value(result, SH.focusNode)),
                path=_path_text(report, report.value(result, SH.resultPath)),
                message="; ".join(messages) or "does not conform",
                severity=str(severity).rsplit("#", 1)[-1] if severity is not None else "Violation",
                shape=_shape_name(report, report.value(result, SH.sourceShape)),
                value=_node_text(report, report.value(result, SH.value)),
            )
        )
    out.sort(key=lambda v: (v.focus_node, v.path or "", v.message, v.value or ""))
    return out


def _focus_text(node: Node | None) -> str:
    """An IRI as it is; a blank node as ``_:label``, so it is not read as a relative IRI."""
    return node.n3() if isinstance(node, BNode) else str(node)


def _shape_name(report: Graph, shape: Node | None) -> str:
    """The shape's IRI; a blank property shape is named by the node shape that holds it."""
    if isinstance(shape, BNode):
        parent = next(iter(load_shapes().subjects(SH.property, shape)), None)
        if parent is None:
            parent = next(iter(load_shapes().subjects(SH.sparql, shape)), None)
        return str(parent) if parent is not None else "anonymous shape"
    return str(shape) if shape is not None else "unknown shape"


@lru_cache(maxsize=1)
def _ontology_quads() -> tuple[ox.Quad, ...]:
    """The ontology's statements, parsed once: copied into each scratch store, where parsing its
    N-Triples again cost about twice the copy (5.5 against 3 ms, of a small write's ~50)."""
    text = load_ontology().serialize(format="nt", encoding="utf-8")
    return tuple(ox.parse(text, format=ox.RdfFormat.N_TRIPLES))


def _validation_store(chunks: Iterable[bytes]) -> ox.Store:
    """A scratch in-memory Oxigraph store holding the data and the ontology in its default graph.

    pyshacl runs SPARQL constraints on Oxigraph far faster than on rdflib (no per-node query parse),
    and the caller's data is never touched: inference-free validation reads this copy only.
    """
    scratch = ox.Store()
    for chunk in chunks:
        if chunk:
            scratch.bulk_load(chunk, format=ox.RdfFormat.N_TRIPLES)
    scratch.extend(_ontology_quads())
    return scratch


class _ScratchDataGraph(OxigraphDataGraph):
    """pyshacl's Oxigraph data graph, minus a full triple count each time a result asks ``if graph``."""

    def __bool__(self) -> bool:
        return True


class _FocusSetValidator(Validator):
    """pyshacl's validator with its focus nodes in a set: it asks whether each node a shape reaches is a
    focus node, and with them in a list (as pyshacl keeps them) a write of n nodes cost n² comparisons:
    a PUT of 13,500 quads (4,500 nodes linked to one hub) took 30.9 s, now 6.4 s; of 39,000 quads over
    10 minutes, now 16.8 s."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # One shapes graph for every validation of the process (the shapes never change while it runs):
        # pyshacl builds a Shape per shape again for each new one, ~70 ms of a small write's ~110 ms.
        self.shacl_graph = _shapes_graph()

    def make_executor(self) -> Any:
        executor = super().make_executor()
        if executor.focus_nodes:
            # pyshacl only tests membership and length: a set serves it (its annotation says list)
            executor.focus_nodes = frozenset(executor.focus_nodes)  # type: ignore[assignment]
        return executor

    @classmethod
    def create_validation_report(cls, sg: Any, conforms: bool, results: list[Any]) -> Any:
        """pyshacl's report; with no result at all (most writes) the bare report, without binding the
        shapes graph's ~35 prefixes into a new graph (and aikg's ~20 again after it): ~0.15 ms of CPU of
        a small write's ~1.4 ms of SHACL."""
        if results:
            return super().create_validation_report(sg, conforms, results)
        return _empty_report(), f"Validation Report\nConforms: {conforms}\n"


@lru_cache(maxsize=1)
def _shapes_graph() -> ShapesGraph:
    """pyshacl's view of the shapes, with its cache of parsed shapes, shared by every validation (they
    run one at a time: ``_PYSHACL``); each shape finds its targets among the focus nodes when there are
    some (:class:`_TargetIndex`)."""
    graph = ShapesGraph(load_shapes())
    shapes = list(graph.shapes)  # parses every shape once
    _INDEX[:] = [_TargetIndex(shapes)]
    for shape in shapes:
        shape.__class__ = _TargetedShape  # a Shape has __slots__: no attribute can be set on one
    return graph


class _TargetedShape(Shape):
    """A shape that finds its targets among the focus nodes when there are some (:class:`_TargetIndex`)."""

    __slots__ = ()

    def focus_nodes(self, data_graph: Any, debug: bool = False) -> Any:
        if _FOCUS is None or self._advanced:
            return super().focus_nodes(data_graph, debug=debug)  # type: ignore[no-untyped-call]
        return set(_targeted(data_graph).get(id(self), ()))

    def validate(
        self, executor: Any, target_graph: Any, focus: Any = None, _evaluation_path: Any = None
    ) -> Any:
        # A shape with no target among the focus nodes ends here: pyshacl's own way there formats
        # debug messages for each of the ~500 shapes, ~5 ms of a small write, to find nothing to do.
        targets_itself = focus is None and _FOCUS is not None and not self._advanced
        if targets_itself and id(self) not in _targeted(target_graph):
            return True, []
        return super().validate(executor, target_graph, focus, _evaluation_path)


_FOCUS: frozenset[Node] | None = None
"""The focus nodes of the validation under way (None: every target), set by :func:`_run` under
``_PYSHACL``."""


class _TargetIndex:
    """Which shapes target which focus nodes, found from the focus nodes.

    pyshacl finds a shape's targets over the whole data graph (every instance of each target class and
    its subclasses, every subject of each ``sh:targetSubjectsOf`` predicate) and only then keeps the
    focus nodes among them: for a small write, 460 shapes each asked the graph a dozen questions, ~70 %
    of the write's SHACL time. Asking each of the 516 shapes in turn about each focus node was still 516
    questions a node (84 shapes have targets at all: 87 classes, 110 predicates). Here the
    shapes are indexed by what targets them (a node, a class, a predicate), each focus node's types
    (with their superclasses) and predicates are read once, and the shapes that target it are looked
    up: a 5-triple write's validation went from 2.3 to 1.3 ms of CPU (issue 49). The same targets
    either way (tests/test_gate.py compares them); a shape with SHACL-AF targets is left to pyshacl."""

    def __init__(self, shapes: Iterable[Any]) -> None:
        self.by_node: dict[Node, list[int]] = defaultdict(list)
        self.by_class: dict[Node, list[int]] = defaultdict(list)
        self.by_subject_of: dict[Node, list[int]] = defaultdict(list)
        self.by_object_of: dict[Node, list[int]] = defaultdict(list)
        for shape in shapes:
            nodes, classes, implicit, objects_of, subjects_of = shape.target()
            for index, keys in (
                (self.by_node, nodes),
                (self.by_class, {*classes, *implicit}),
                (self.by_subject_of, subjects_of),
                (self.by_object_of, objects_of),
            ):
                for key in keys:
                    index[key].append(id(shape))

    def among(self, focus: Iterable[Node], data_graph: Any) -> dict[int, set[Node]]:
        """The targets among ``focus`` in ``data_graph`` of every shape that has some, by the shape's id."""
        found: dict[int, set[Node]] = defaultdict(set)
        for node in focus:
            shapes = list(self.by_node.get(node, ()))
            for cls in _classes_of(data_graph, node):
                shapes += self.by_class.get(cls, ())
            for p in set(data_graph.predicates(node, None)):
                shapes += self.by_subject_of.get(p, ())
            for p, keys in self.by_object_of.items():  # none in aikg's shapes: asked per predicate
                if next(iter(data_graph.subjects(p, node)), None) is not None:
                    shapes += keys
            for key in shapes:
                found[key].add(node)
        return found


_INDEX: list[_TargetIndex] = []
"""The index of the process's shapes (made with :func:`_shapes_graph`, kept for good)."""

_FOUND: list[dict[int, set[Node]]] = []
"""The targets among the focus nodes of the validation under way, by shape id, once found."""


def _targeted(data_graph: Any) -> dict[int, set[Node]]:
    """Every shape's targets among the focus nodes of the validation under way (found once for it)."""
    if not _FOUND:
        assert _FOCUS is not None
        _FOUND.append(_INDEX[0].among(_FOCUS, data_graph))
    return _FOUND[0]


def _classes_of(data_graph: Any, node: Node) -> set[Node]:
    """The node's types and their superclasses (the ontology is in the data graph)."""
    found: set[Node] = set()
    for t in data_graph.objects(node, RDF.type):
        found.add(t)
        found.update(data_graph.transitive_objects(t, RDFS.subClassOf))
    return found


def _forget() -> None:
    """Clear what one validation learnt about its focus nodes."""
    _FOUND.clear()


SHARED_MOST = 20_000
"""Quads of data validated at most in the process's kept scratch store (:func:`_shared`); a larger data
graph gets a new one (adding and removing its quads would cost more than loading the ontology)."""

_SHARED: list[tuple[ox.Store, int]] = []
"""The kept scratch store, holding the ontology alone between validations, and its size then (guarded
by ``_PYSHACL``)."""


@contextlib.contextmanager
def _shared(data: list[ox.Quad]) -> Iterator[ox.Store]:
    """The kept scratch store with ``data`` in it for the time of one validation (the caller holds
    ``_PYSHACL``). A new store with the ontology copied in was ~4-7 ms of a small write's validation;
    here only the data's quads are added, and removed again after: those the ontology already holds
    stay. Should the store then not hold the ontology alone (pyshacl wrote into it), it is dropped and
    the next validation makes a new one."""
    if not _SHARED:
        _SHARED.append((_validation_store([]), len(_ontology_quads())))
    scratch, size = _SHARED[0]
    added = [q for q in dict.fromkeys(data) if q not in scratch]
    scratch.extend(added)
    try:
        yield scratch
    finally:
        for q in added:
            scratch.remove(q)
        if len(scratch) != size:
            _SHARED.clear()


def _run(scratch: ox.Store | list[ox.Quad], focus: list[str] | None) -> ValidationResult:
    """Validate a scratch store, or ``data`` quads in the kept scratch store (:func:`_shared`)."""
    if focus is not None and not focus:
        return ValidationResult(True, [], _empty_report())
    options = {
        "inference": "none",
        "inplace": True,
        "advanced": False,
        "allow_warnings": True,
        "focus_nodes": focus,
    }
    global _FOCUS
    with (
        _PYSHACL,
        _shared(scratch) if isinstance(scratch, list) else contextlib.nullcontext(scratch) as store,
    ):
        try:  # what pyshacl.validate does for a data graph and a shapes graph already loaded
            data = _ScratchDataGraph(store)
            validator = _FocusSetValidator(data, shacl_graph=load_shapes(), options=options)
            _FOCUS = None if focus is None else frozenset(URIRef(f) for f in focus)
            _forget()
            conforms, report, _ = validator.run()  # type: ignore[no-untyped-call]
        except ValidationFailure as exc:
            conforms, report = False, exc
        finally:
            _FOCUS = None
            _forget()
    if not isinstance(report, Graph):
        log.error("SHACL validation could not run: %s", report)
        raise AikgError("validation could not run: the SHACL shapes are not usable")
    if not conforms or len(report) > 2:  # results to read: with aikg's prefixes
        for prefix, ns in PREFIXES.items():
            report.bind(prefix, ns, override=True)
    return ValidationResult(bool(conforms), _violations(report), report)


def _focus_list(focus_nodes: Iterable[URIRef] | None) -> list[str] | None:
    # Plain strings: pyshacl reads a focus node whose IRI scheme is not http, https, urn or file as a
    # CURIE and raises TypeError for anything but a str (a write of <a:x> ended in a 503).
    return None if focus_nodes is None else [str(n) for n in focus_nodes]


def validate_graph(data: Graph, *, focus_nodes: Iterable[URIRef] | None = None) -> ValidationResult:
    """Validate ``data`` (never changed) against the shapes; with ``focus_nodes`` only those nodes.

    A Dataset is validated as the union of its graphs. Linked nodes that focus nodes point to must be
    in ``data`` with their types, or ``sh:class`` rules cannot see them.
    """
    if isinstance(data, Dataset):
        chunk = b"".join(g.serialize(format="nt", encoding="utf-8") for g in data.contexts())
    else:
        chunk = data.serialize(format="nt", encoding="utf-8")
    focus = _focus_list(focus_nodes)
    if focus and chunk.count(b"\n") <= SHARED_MOST:  # a write's nodes: in the kept scratch store
        return _run(list(ox.parse(chunk, format=ox.RdfFormat.N_TRIPLES)), focus)
    return _run(_validation_store([chunk]), focus)


def validate_about(data: Graph, nodes: Iterable[URIRef | BNode]) -> ValidationResult:
    """Validate ``nodes`` of ``data``, blank nodes included, and report on them alone.

    pyshacl keeps only IRIs among the focus nodes it is given (``Shape.validate`` filters them with
    ``isinstance(node, URIRef)``), so a write's blank nodes were never validated. Here every target in
    ``data`` is validated and the results about other nodes are dropped: a neighbour without its own
    neighbourhood may fail a shape, which says nothing about the nodes asked about."""
    wanted = set(nodes)
    if not wanted:
        return ValidationResult(True, [], _empty_report())
    scratch = _validation_store([])
    # by term, not through a loader: Oxigraph's loaders give blank nodes new labels
    scratch.extend(ox.Quad(t.subject, t.predicate, t.object) for t in graph_to_ox(data))
    whole = _run(scratch, None)
    root = whole.report.value(predicate=RDF.type, object=SH.ValidationReport)
    kept = [r for r in whole.report.objects(root, SH.result) if whole.report.value(r, SH.focusNode) in wanted]
    report = _empty_report()
    for prefix, ns in whole.report.namespaces():
        report.bind(prefix, ns, override=True)
    conforms = not any(whole.report.value(r, SH.resultSeverity) == SH.Violation for r in kept)
    top = report.value(predicate=RDF.type, object=SH.ValidationReport)
    assert top is not None  # _empty_report made it
    report.set((top, SH.conforms, Literal(conforms)))
    for r in kept:
        report.add((top, SH.result, r))
        report += whole.report.cbd(r)
    names = {_focus_text(n) for n in wanted}
    return ValidationResult(conforms, [v for v in whole.violations if v.focus_node in names], report)


def _empty_report() -> Graph:
    g = Graph(bind_namespaces="core")
    node = BNode()
    g.add((node, RDF.type, SH.ValidationReport))
    g.add((node, SH.conforms, Literal(True)))
    g.bind("sh", str(SH))
    return g


def _store_chunks(store: Store) -> list[bytes]:
    """Every named graph of the store but the shapes and the ontology (added from the files)."""
    skip = {str(SHAPES_GRAPH), str(ONTOLOGY_GRAPH)}
    return [store.dump(mime="application/n-triples", graph=g) for g in store.graphs() if g not in skip]


def validate_store(store: Store, *, focus_nodes: Iterable[URIRef] | None = None) -> ValidationResult:
    """Validate the store: every named graph but the shapes, as one union; optionally only some nodes."""
    return _run(_validation_store(_store_chunks(store)), _focus_list(focus_nodes))
