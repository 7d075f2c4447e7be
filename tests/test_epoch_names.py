"""Names of Epoch's organizations in Chinese, as data (seeds/epoch/names.csv): the import gives each to
the node it resolved Epoch's name to, citing its reference, without declaring or matching anything."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from aikg.epoch.importer import default_names
from aikg.epoch.names import name_quads, read_names
from aikg.epoch.values import normalize
from aikg.errors import BadRequest
from aikg.namespaces import AIKG, RESOLUTION_GRAPH, SKOS

ALT = ox.NamedNode(str(SKOS.altLabel))
LABEL = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
RESOLUTION = ox.NamedNode(str(RESOLUTION_GRAPH))


def test_each_name_goes_to_the_node_the_import_resolved_its_epoch_name_to(epoch_import):
    """Every line of the file ends up on the one node Epoch's name was resolved to (Facebook's 脸书 on
    Meta's node, 亚马逊云 on Amazon AWS's, not on Amazon's), in graph/resolution."""
    store, report = epoch_import
    names = read_names(default_names())
    assert len(names) >= 25
    for n in names:
        nodes = {
            d.iri
            for d in report.decisions
            if d.kind == n.kind and normalize(n.name) in {normalize(s) for s in d.spellings}
        }
        assert len(nodes) == 1, (n.name, nodes)
        label = ox.Literal(n.label, language=n.lang)
        assert list(store.quads(ox.NamedNode(nodes.pop()), ALT, label, str(RESOLUTION_GRAPH))), n
    given = {q.object.value for q in store.quads(None, ALT, None, str(RESOLUTION_GRAPH))}
    assert given == {n.label for n in names}
    assert {"华为", "脸书", "亚马逊云"} <= given


def test_a_name_rests_on_its_reference_and_declares_no_node(epoch_store):
    """Each name has a curation rationale in its graph naming its node, skos:altLabel and the name with
    its reference; every node named has its English name from the seeds or Epoch's files (the file
    makes no node of its own)."""
    names = list(epoch_store.quads(None, ALT, None, str(RESOLUTION_GRAPH)))
    assert names
    for q in names:
        [why] = [
            e.subject
            for e in epoch_store.quads(
                None, ox.NamedNode(str(AIKG.evidenceFor)), q.subject, str(RESOLUTION_GRAPH)
            )
        ]
        assert list(
            epoch_store.quads(why, ox.NamedNode(str(AIKG.supportsProperty)), ALT, str(RESOLUTION_GRAPH))
        )
        texts = [
            r.object.value for r in epoch_store.quads(why, ox.NamedNode(str(AIKG.rationale)), None, None)
        ]
        assert any(t.startswith(q.object.value + " (names.csv line ") for t in texts), texts
        english = [r for r in epoch_store.quads(q.subject, LABEL, None, None) if r.graph_name != RESOLUTION]
        assert english, q.subject


def _names(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "names.csv"
    path.write_text("# a comment\nkind,name,label,lang,reference\n" + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("organization,Huawei,华为,zh,", "needs its reference"),
        ("company,Huawei,华为,zh,ref", "kind must be"),
        ("organization,Huawei,华为,chinese!,ref", "lang must be"),
        ("organization,,华为,zh,ref", "the name and the label are required"),
        ("organization,Huawei,华为,zh,ref\norganization,huawei,华为,zh,ref", "already given"),
    ],
)
def test_a_malformed_line_stops_the_import_with_its_line_number(tmp_path, line, said):
    with pytest.raises(BadRequest, match=f"names.csv line 3: .*{said}|names.csv line 4: .*{said}"):
        read_names(_names(tmp_path, line + "\n"))


def test_a_name_of_two_entities_is_given_to_neither_and_reported(tmp_path):
    names = read_names(
        _names(tmp_path, "organization,Lambda,兰布达,zh,ref\norganization,Nowhere,无,zh,ref\n")
    )
    two = {"https://w3id.org/aikg/id/lambda", "https://w3id.org/aikg/id/lambda-2"}
    quads, problems = name_quads(names, lambda kind, name: two if name == "Lambda" else set())
    assert quads == set()
    assert problems == [
        "names.csv line 3: organization 'Lambda' names 2 entities (lambda, lambda-2): "
        "'兰布达' was given to none"
    ]
