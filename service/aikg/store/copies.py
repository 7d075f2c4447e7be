"""An N-Quads file's statements without their graph names, as N-Triples, read like a file.

The embedded store keeps the merge of the named graphs in its default graph (see
:class:`aikg.store.oxigraph.OxigraphStore`). After a bulk load, writing that merge from Python objects
read back from the store cost twice the load itself (13 s of 20 s for 300k statements); handing the
engine's bulk loader the same file's lines with the graph name cut off costs about as much as a third
of a load. Only lines in the canonical form (``S P O G .``, one space apart, as Oxigraph and aikg write
them) are cut; the rest is counted for the caller to merge another way:

- a statement with a blank node as subject or object: the engine names the blank nodes of each load
  afresh, so its copy would be about another node; its graph is remembered instead;
- anything else but comments and empty lines (a statement in the default graph, other spacing, a
  triple term, a blank graph name).

Read line by line in Python that cost ~5-8 s of a 1M-statement load (its bulk load ~25-30 s). A caller
that knows the file states nothing in the default graph (its first load left that graph empty) passes
``quads_only``: a block with no blank node and no triple term then has its graph names cut by one
regular expression (~1 s at 1M), the same bytes the line-by-line cut makes for such lines.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

BLOCK = 1 << 22
"""Bytes read from the file at a time (cut at the last line end)."""

_GRAPH_NAME = re.compile(rb" <[^\s<>\"\\\\]*> \.\n")
"""A line's last term, an IRI (as the line-by-line cut takes it), and its end: where a quad's graph is."""


class DefaultCopies(io.RawIOBase):
    """A readable binary stream of the copies; ``blank_graphs`` and ``other`` once it is read."""

    def __init__(self, path: Path, *, quads_only: bool = False) -> None:
        super().__init__()
        self._quads_only = quads_only
        self._file = open(path, "rb")  # noqa: SIM115 - closed with this stream
        self._block = io.BytesIO()
        self._rest = b""
        self._done = False
        self.blank_graphs: set[str] = set()
        self.other = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = self._block.readinto(buffer)
        while n == 0 and not self._done:
            self._block = io.BytesIO(self._next())
            n = self._block.readinto(buffer)
        return n

    def close(self) -> None:
        self._file.close()
        super().close()

    def _next(self) -> bytes:
        data = self._file.read(BLOCK)
        if data:
            lines, _, self._rest = (self._rest + data).rpartition(b"\n")
        else:
            lines, self._rest, self._done = self._rest, b"", True
        if self._quads_only:
            copied = self._cut_block(lines + b"\n")
            if copied is not None:
                return copied
        out: list[bytes] = []
        for line in lines.split(b"\n"):
            cut = self._cut(line)
            if cut:
                out.append(line[:cut])
                out.append(b" .\n")
        return b"".join(out)

    @staticmethod
    def _cut_block(lines: bytes) -> bytes | None:
        """The copies of a block of quads whose every line ends with an IRI graph name, or None.

        With no statement in the default graph, each line's last ``<IRI> .`` is its graph name. A
        blank node (renamed by each load) or a triple term sends the block line by line, as does a
        line without such an end (a comment, an empty line, other spacing: counted there)."""
        if b"_:" in lines or b"<<" in lines:
            return None
        out, cuts = _GRAPH_NAME.subn(b" .\n", lines)
        return out if cuts == lines.count(b"\n") else None

    def _cut(self, line: bytes) -> int:
        """Where the graph name of a canonical line starts (0: not copied, and counted)."""
        if not line.endswith(b"> ."):
            if line.strip() and not line.lstrip().startswith(b"#"):
                self.other += 1
            return 0
        cut = line.rfind(b" ", 0, -2)
        graph = line[cut + 1 : -2]
        if line.startswith(b"<"):
            subject_end = line.find(b"> ") + 2
        elif line.startswith(b"_:"):
            subject_end = line.find(b" ") + 1
        else:
            subject_end = 0
        predicate_end = (
            line.find(b"> ", subject_end) + 2 if line[subject_end : subject_end + 1] == b"<" else 0
        )
        if (
            subject_end < 2
            or predicate_end < 2
            or predicate_end >= cut  # no object before the last name: a statement in the default graph
            or not graph.startswith(b"<")  # the last name is no plain IRI: not a graph name
            or graph.count(b"<") != 1
            or b'"' in graph
            or b"\\" in graph
            or line.startswith(b"<<")
            or line[predicate_end : predicate_end + 2] == b"<<"
        ):
            self.other += 1
            return 0
        if line.startswith(b"_:") or line[predicate_end : predicate_end + 2] == b"_:":
            self.blank_graphs.add(graph[1:-1].decode("utf-8"))
            return 0
        return cut
