"""The operations of a SPARQL 1.1 Update request, read from its tokens: which graphs each one writes, reads,
creates or removes, so a write can be decided from its text before anything is copied or run.

:func:`read_update` gives an :class:`UpdatePlan`. The gate uses it three ways:

- :meth:`UpdatePlan.refusals` — what must be refused at once: an operation that is not ``SILENT`` and
  would change a graph aikg maintains (``DROP GRAPH <catalog>``, ``MOVE <catalog> TO …``, ``INSERT DATA
  { GRAPH <ontology> … }``);
- :meth:`UpdatePlan.graphs_to_stage` — which graphs the staging copy needs;
- :meth:`UpdatePlan.steps` — the operations as the staging store runs them, one after the other
  (:mod:`aikg.write.staging`), so each sees what the ones before it did: written with aikg's meaning of
  the default graph (below), and the protocol's ``using-graph-uri`` / ``using-named-graph-uri`` written in
  as ``USING`` clauses (Protocol §2.2.3).

The default graph, as aikg defines it (README "Writing data"): what an operation *reads* from the default
graph (a ``WHERE`` without ``USING``/``WITH``) is the union of all named graphs, as for queries
(``sd:UnionDefaultGraph``); what it *writes* to the default graph (triples outside ``GRAPH`` in ``INSERT
DATA``, in templates without ``WITH``, ``CLEAR DEFAULT``, ``COPY … TO DEFAULT``…) goes to one named graph,
:data:`aikg.namespaces.DEFAULT_GRAPH`, the same graph the Graph Store Protocol's ``?default`` names.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from aikg.errors import QuerySyntaxError
from aikg.rdf.tokens import Prologue, Token, closing, tokenize

DEFAULT = "DEFAULT"
"""Stands for the default graph in :attr:`Operation.target` / :attr:`Operation.source`."""

MANAGEMENT = frozenset({"CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "LOAD"})
_TERMS = frozenset({"var", "iri", "pname", "string", "number", "bnode", "anon", "nil"})
UNION = "\x00union\x00"
"""Marks, while a step's text is written, where the union of the staging graphs goes as USING clauses."""


@dataclass
class Block:
    """A ``{ … }`` of quads (a DATA block or a template): its triples outside ``GRAPH``, and its graphs."""

    open: Token
    close: Token
    segments: list[tuple[Token, Token]] = field(default_factory=list)
    """First and last token of each run of triples outside a ``GRAPH`` block (default-graph triples)."""
    graphs: set[str] = field(default_factory=set)
    any_graph: bool = False
    """A ``GRAPH ?var`` block: which graph it reaches is known only when the update runs."""


@dataclass
class Operation:
    """One operation of the request."""

    verb: str
    """INSERT DATA, DELETE DATA, DELETE WHERE, MODIFY (DELETE/INSERT … WHERE), or a management verb."""
    first: Token
    last: Token
    silent: bool = False
    target: str | None = None
    """The graph a management operation changes (an IRI, DEFAULT, NAMED or ALL)."""
    source: str | None = None
    """The graph ADD/MOVE/COPY read from, the document LOAD reads."""
    with_graph: str | None = None
    using: bool = False
    using_graphs: list[str] = field(default_factory=list)
    using_named: list[str] = field(default_factory=list)
    """The graphs of its ``USING`` and ``USING NAMED`` clauses, in order."""
    templates: list[Block] = field(default_factory=list)
    where: Token | None = None
    """The ``WHERE`` keyword of a DELETE/INSERT … WHERE (the dataset goes before it)."""
    pattern: Block | None = None
    """The block a DELETE WHERE matches (and deletes)."""
    deletes: Block | None = None
    inserts: Block | None = None
    """The DELETE and INSERT templates of a DELETE/INSERT … WHERE (a DELETE WHERE's pattern deletes)."""
    body: tuple[Token, Token] | None = None
    """The braces of the group a DELETE/INSERT … WHERE or a DELETE WHERE matches."""
    reads_default: bool = False
    """The pattern reads the default graph (triples outside any ``GRAPH`` block)."""
    reads: set[str] = field(default_factory=set)
    reads_any: bool = False
    prologue: str = ""
    """The BASE and PREFIX declarations before the operation (they hold for every operation after them)."""

    def writes(self, default: str) -> tuple[set[str], bool]:
        """The graphs this operation may change (the default graph as ``default``), and whether it may
        also change graphs its text does not name (``GRAPH ?var`` in a template, ``NAMED``, ``ALL``)."""
        if self.verb in MANAGEMENT:
            targets = {self.target} if self.target else set()
            if self.verb == "MOVE" and self.source:
                targets.add(self.source)
            if self.verb == "LOAD":
                targets = {self.target or DEFAULT}
            named = {default if t == DEFAULT else t for t in targets if t not in ("NAMED", "ALL")}
            return named, bool(targets & {"NAMED", "ALL"})
        out: set[str] = set()
        open_ended = False
        for block in self.templates:
            out |= block.graphs
            open_ended |= block.any_graph
            if block.segments:
                out.add(self.with_graph or default)
        return out, open_ended


@dataclass(frozen=True)
class Matching:
    """A lone DELETE/INSERT … WHERE (or DELETE WHERE) as texts that decide its change where the data is:
    the query that finds its solutions over its dataset, and each template as an ``INSERT`` to run on an
    empty scratch store once a ``WHERE`` with the solutions is appended (see :mod:`aikg.write.matched`)."""

    select: str
    """The pattern as a ``SELECT *`` over the operation's dataset (none written: the union)."""
    deletes: str | None
    inserts: str | None


@dataclass(frozen=True)
class Step:
    """One operation as the staging store runs it (:mod:`aikg.write.staging`)."""

    verb: str
    silent: bool = False
    target: str | None = None
    """The graph a management operation changes: an IRI (the default graph as its IRI), ALL or NAMED."""
    source: str | None = None
    """The graph ADD/MOVE/COPY read (the default graph as its IRI), the document LOAD names."""
    text: str = ""
    """INSERT/DELETE DATA, DELETE WHERE, DELETE/INSERT … WHERE: the operation with its prologue, its
    default-graph templates written into the default graph's IRI and the protocol's dataset written in."""
    union_at: int | None = None
    """Where in ``text`` the union of the staging store's graphs goes, as USING and USING NAMED clauses,
    when the pattern reads the default graph (known only as the step runs)."""


@dataclass
class UpdatePlan:
    """A request as its operations."""

    text: str
    operations: list[Operation]
    default: str
    """The named graph that stands for the default graph when writing."""

    def matches_patterns(self) -> bool:
        """Whether an operation evaluates a pattern (DELETE/INSERT … WHERE, DELETE WHERE): only those can
        run away; DATA and graph-management operations cost what the data they name costs."""
        return any(op.verb in ("MODIFY", "DELETE WHERE") for op in self.operations)

    def matching(
        self, known: Collection[str], *, using: Sequence[str] = (), using_named: Sequence[str] = ()
    ) -> Matching | None:
        """The request as a :class:`Matching` when it is one DELETE/INSERT … WHERE or DELETE WHERE; None
        for anything else (several operations see each other's changes, so they run on a staging copy)."""
        if len(self.operations) != 1:
            return None
        op = self.operations[0]
        if op.verb not in ("MODIFY", "DELETE WHERE") or op.body is None:
            return None
        prologue = self.text[: op.first.start]
        if using or using_named:
            default, named = list(using), list(using_named)
        elif op.using:
            default, named = op.using_graphs, op.using_named
        elif op.with_graph:  # WITH names the default graph only; GRAPH ?g still reaches every graph
            default, named = [op.with_graph], sorted(known)
        else:
            default, named = [], []  # the union, as for queries
        dataset = " ".join([*(f"FROM <{g}>" for g in default), *(f"FROM NAMED <{g}>" for g in named)])
        where = self.text[op.body[0].start : op.body[1].end]
        d = f"<{self.default}>"

        def template(block: Block | None) -> str | None:
            if block is None:
                return None
            if op.with_graph:
                raw = self.text[block.open.start : block.close.end]
                return f"{prologue} WITH <{op.with_graph}> INSERT {raw}"
            return f"{prologue} INSERT {_wrapped(self.text, block, d)}"

        select = f"{prologue} SELECT * {dataset} WHERE {where}"
        return Matching(select, template(op.deletes), template(op.inserts))

    def dataset_clause_used(self) -> bool:
        """Whether any operation names its own dataset (USING, USING NAMED or WITH)."""
        return any(op.using or op.with_graph for op in self.operations)

    def refusals(self, check_writable: Callable[[str, str], object]) -> None:
        """Raise the first refusal the text decides: an operation that is not SILENT and would change a
        graph aikg maintains (403). A SILENT one is skipped when it runs, as Update §3 has a failed
        silent operation succeed; ``GRAPH ?var`` templates are checked on their result."""
        for op in self.operations:
            if op.silent:
                continue
            named, _ = op.writes(self.default)
            for g in sorted(named):
                check_writable(g, op.verb)

    def graphs_to_stage(
        self, known: Collection[str], using: Collection[str], client: Callable[[Collection[str]], list[str]]
    ) -> list[str]:
        """The existing graphs the staging copy must hold for the request to mean what it means here:
        every graph when a pattern without a dataset of its own reads the default graph (the union) or
        ``GRAPH ?var``, or a DELETE template has ``GRAPH ?var``; every client graph (``client``) for
        ``CLEAR``/``DROP`` ``ALL``/``NAMED``; else the graphs the request names (and the protocol's
        ``using`` graphs: with them, or with ``USING``, a pattern reads only those)."""
        names: set[str] = {self.default, *using}
        for op in self.operations:
            if not (using or op.using) and (op.reads_any or (op.reads_default and not op.with_graph)):
                return sorted(known)
            if op.deletes is not None and op.deletes.any_graph:
                return sorted(known)
            named, open_ended = op.writes(self.default)
            if open_ended and op.verb in MANAGEMENT:
                names |= set(client(known))
            names |= named | op.reads
            if op.source and op.source != DEFAULT:
                names.add(op.source)
            if op.with_graph:
                names.add(op.with_graph)
        return sorted(g for g in names if g in known)

    def steps(self, *, using: Sequence[str] = (), using_named: Sequence[str] = ()) -> list[Step]:
        """The operations as the staging store runs them (see the module docstring)."""
        d = f"<{self.default}>"
        protocol = _dataset(using, using_named) if (using or using_named) else ""
        out: list[Step] = []
        for op in self.operations:
            if op.verb in MANAGEMENT:
                target = self.default if op.target == DEFAULT else op.target
                if op.verb == "LOAD":
                    target = op.target or self.default
                source = self.default if op.source == DEFAULT else op.source
                out.append(Step(op.verb, op.silent, target, source))
                continue
            union = op.reads_default and not op.with_graph and not op.using and not protocol
            dataset = protocol or (UNION if union else "")
            if op.verb == "DELETE WHERE" and op.pattern is not None and dataset:
                template = _wrapped(self.text, op.pattern, d)
                pattern = self.text[op.pattern.open.start : op.pattern.close.end]
                text = f"DELETE {template} {dataset} WHERE {pattern}"
            else:
                edits: list[tuple[int, int, str]] = []
                if not op.with_graph:
                    for block in op.templates:
                        edits.extend(_wrap_edits(block, d))
                if op.where is not None and dataset:
                    edits.append((op.where.start, op.where.start, dataset + " "))
                start = op.first.start
                body = self.text[start : op.last.end]
                text = _apply(body, [(s - start, e - start, r) for s, e, r in edits])
            text = f"{op.prologue}\n{text}" if op.prologue else text
            at = text.find(UNION)
            out.append(Step(op.verb, text=text.replace(UNION, ""), union_at=at if at >= 0 else None))
        return out


def _dataset(default: Sequence[str], named: Sequence[str]) -> str:
    return " ".join([*(f"USING <{g}>" for g in default), *(f"USING NAMED <{g}>" for g in named)])


def _wrap_edits(block: Block, graph: str) -> list[tuple[int, int, str]]:
    out = []
    for first, last in block.segments:
        out.append((first.start, first.start, f"GRAPH {graph} {{ "))
        out.append((last.end, last.end, " }"))
    return out


def _wrapped(text: str, block: Block, graph: str) -> str:
    base = block.open.start
    edits = [(s - base, e - base, r) for s, e, r in _wrap_edits(block, graph)]
    return _apply(text[block.open.start : block.close.end], edits)


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    out, last = [], 0
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1])):
        out.append(text[last:start])
        out.append(replacement)
        last = end
    out.append(text[last:])
    return "".join(out)


class _Reader:
    """A cursor over the significant tokens of one request."""

    def __init__(self, text: str, base: str) -> None:
        self.toks = tokenize(text)
        self.i = 0
        self.prologue = Prologue(base=base, prefixes={})

    def peek(self, offset: int = 0) -> Token | None:
        j = self.i + offset
        return self.toks[j] if j < len(self.toks) else None

    def take(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise _Unreadable("the update ends too early")
        self.i += 1
        return tok

    def keyword(self, *words: str) -> Token | None:
        tok = self.peek()
        if tok is not None and tok.is_keyword(*words):
            self.i += 1
            return tok
        return None

    def iri(self) -> tuple[str, Token]:
        tok = self.take()
        iri = self.prologue.resolve(tok)
        if iri is None:
            raise _Unreadable(f"expected an IRI, found {tok.text[:40]!r}")
        return iri, tok

    def block(self) -> tuple[int, int]:
        """Indices of a ``{`` at the cursor and of its matching ``}``; the cursor moves past it."""
        start = self.i
        if self.take().text != "{":
            raise _Unreadable("expected '{'")
        depth = 1
        while depth:
            tok = self.take()
            if tok.text == "{":
                depth += 1
            elif tok.text == "}":
                depth -= 1
        return start, self.i - 1


class _Unreadable(Exception):
    """The request does not have the shape of SPARQL 1.1 Update operations."""


def read_update(text: str, *, base: str, default: str) -> UpdatePlan:
    """The operations of an update request whose syntax Oxigraph has accepted.

    A text this reader cannot follow is refused (400) rather than guessed at.
    """
    r = _Reader(text, base)
    ops: list[Operation] = []
    declarations: list[str] = []
    try:
        while (tok := r.peek()) is not None:
            after = r.prologue.declare(r.toks, r.i)
            if after != r.i:
                declarations.append(text[tok.start : r.toks[after - 1].end])
                r.i = after
                continue
            if tok.text == ";":
                r.i += 1
                continue
            op = _operation(r)
            op.prologue = " ".join(declarations)
            ops.append(op)
    except _Unreadable as exc:
        raise QuerySyntaxError(f"the update could not be read: {exc}") from None
    return UpdatePlan(text, ops, default)


def _operation(r: _Reader) -> Operation:
    first = r.take()
    verb = first.value if first.kind == "keyword" else ""
    op = Operation(verb, first, first)
    if verb in ("CLEAR", "DROP", "CREATE"):
        op.silent = r.keyword("SILENT") is not None
        tok = r.peek()
        if tok is not None and tok.is_keyword("DEFAULT", "NAMED", "ALL") and verb != "CREATE":
            op.target = r.take().value
        else:
            if r.keyword("GRAPH") is None:
                raise _Unreadable(f"{verb} takes GRAPH <iri>")
            op.target = r.iri()[0]
    elif verb in ("ADD", "MOVE", "COPY"):
        op.silent = r.keyword("SILENT") is not None
        op.source = _graph_or_default(r)[0]
        if r.keyword("TO") is None:
            raise _Unreadable(f"{verb} takes … TO …")
        op.target = _graph_or_default(r)[0]
    elif verb == "LOAD":
        op.silent = r.keyword("SILENT") is not None
        op.source = r.iri()[0]
        if r.keyword("INTO"):
            r.keyword("GRAPH")
            op.target = r.iri()[0]
    elif verb in ("INSERT", "DELETE") and (tok := r.peek()) is not None and tok.is_keyword("DATA", "WHERE"):
        kind = r.take().value
        op.verb = f"{verb} {kind}"
        block = _quads(r, *r.block())
        if kind == "DATA":
            op.templates.append(block)
        else:
            op.templates.append(block)
            op.pattern = op.deletes = block
            op.body = (block.open, block.close)
            op.reads_default = bool(block.segments)
            op.reads = set(block.graphs)
            op.reads_any = block.any_graph
    elif verb in ("WITH", "INSERT", "DELETE"):
        op.verb = "MODIFY"
        if verb == "WITH":
            op.with_graph, _ = r.iri()
            verb_tok = r.keyword("INSERT", "DELETE")
            if verb_tok is None:
                raise _Unreadable("WITH <iri> is followed by DELETE or INSERT")
            verb = verb_tok.value
        first_template = _quads(r, *r.block())
        op.templates.append(first_template)
        if verb == "DELETE":
            op.deletes = first_template
            if r.keyword("INSERT"):
                op.inserts = _quads(r, *r.block())
                op.templates.append(op.inserts)
        else:
            op.inserts = first_template
        while r.keyword("USING"):
            op.using = True
            named = r.keyword("NAMED") is not None
            iri, _ = r.iri()
            op.reads.add(iri)
            (op.using_named if named else op.using_graphs).append(iri)
        op.where = r.keyword("WHERE")
        if op.where is None:
            raise _Unreadable("DELETE/INSERT takes a WHERE clause")
        start, end = r.block()
        op.body = (r.toks[start], r.toks[end])
        _reads(r, start, end, op)
    else:
        raise _Unreadable(f"{first.text[:40]!r} does not start an update operation")
    op.last = r.toks[r.i - 1]
    return op


def _graph_or_default(r: _Reader) -> tuple[str, Token]:
    tok = r.peek()
    if tok is not None and tok.is_keyword("DEFAULT"):
        r.i += 1
        return DEFAULT, tok
    r.keyword("GRAPH")
    return r.iri()


def _quads(r: _Reader, start: int, end: int) -> Block:
    """A quad block: runs of triples outside GRAPH, and the graphs of its GRAPH blocks."""
    toks = r.toks
    block = Block(toks[start], toks[end])
    run: list[Token] = []
    k = start + 1
    while k < end:
        tok = toks[k]
        if tok.is_keyword("GRAPH") and k + 2 < end and toks[k + 2].text == "{":
            _close_run(block, run)
            run = []
            name = toks[k + 1]
            if name.kind == "var":
                block.any_graph = True
            else:
                iri = r.prologue.resolve(name)
                if iri is None:
                    raise _Unreadable(f"GRAPH takes an IRI or a variable, not {name.text[:40]!r}")
                block.graphs.add(iri)
            k = _matching(toks, k + 2) + 1
            continue
        run.append(tok)
        k += 1
    _close_run(block, run)
    return block


def _close_run(block: Block, run: list[Token]) -> None:
    while run and run[0].text == ".":
        run = run[1:]
    if run:
        block.segments.append((run[0], run[-1]))


def _matching(toks: list[Token], k: int) -> int:
    """Index of the ``}`` closing the first ``{`` from ``toks[k]`` on."""
    start = next((j for j in range(k, len(toks)) if toks[j].kind == "punct" and toks[j].text == "{"), None)
    end = None if start is None else closing(toks, start)
    if end is None:
        raise _Unreadable("unbalanced braces")
    return end


def _reads(r: _Reader, start: int, end: int, op: Operation) -> None:
    """What a WHERE pattern reads: terms outside GRAPH (the default graph), GRAPH <iri>, GRAPH ?var.

    Terms inside parentheses are expressions (FILTER, BIND) or collections, not patterns of their own;
    VALUES data and SERVICE blocks read no local graph. Over-approximating only costs staging time.
    """
    toks = r.toks
    stack: list[str] = []  # "default" or "graph" for braces, "paren" for parentheses
    pending = "default"
    k = start
    while k <= end:
        tok = toks[k]
        if tok.text == "{":
            inside = stack[-1] if stack and stack[-1] != "paren" else "default"
            stack.append(pending if inside == "default" else inside)
            pending = "default"
        elif tok.text == "}":
            if stack:
                stack.pop()
        elif tok.text == "(":
            stack.append("paren")
        elif tok.text == ")":
            if stack and stack[-1] == "paren":
                stack.pop()
        elif tok.is_keyword("GRAPH") and k + 1 <= end:
            name = toks[k + 1]
            if name.kind == "var":
                op.reads_any = True
            else:
                iri = r.prologue.resolve(name)
                if iri:
                    op.reads.add(iri)
            pending = "graph"
            k += 2
            continue
        elif tok.is_keyword("VALUES", "SERVICE"):
            # Inline data and remote patterns read no local graph: jump over their block.
            j = k + 1
            while j <= end and toks[j].text != "{":
                j += 1
            k = _matching(toks, j) + 1 if j <= end else end + 1
            continue
        elif (
            (tok.kind in _TERMS or tok.is_keyword("A", "TRUE", "FALSE")) and stack and stack[-1] == "default"
        ):
            op.reads_default = True
        k += 1
