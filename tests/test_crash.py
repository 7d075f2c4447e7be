"""Durability: a server killed with SIGKILL in the middle of a burst of writes keeps exactly what it
acknowledged; no write is lost, none is half-applied."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time

import requests
from rdflib import Graph, URIRef
from rdflib.namespace import RDF, RDFS

from conftest import LiveServer, free_port
from helpers import descendants, kill_hard, running

G = "https://w3id.org/aikg/graph/sources/test-crash"
ID = "https://w3id.org/aikg/id/"
AUTH = {"Authorization": "Bearer crash-token", "Content-Type": "text/turtle"}


def entity(i: int) -> str:
    """One write: a neocloud and its label (two triples that must land together)."""
    return (
        f"<{ID}crash-cloud-{i}> a <https://w3id.org/aikg/ontology#Neocloud> ; "
        f'<http://www.w3.org/2000/01/rdf-schema#label> "Crash cloud {i}"@en .'
    )


def test_sigkill_mid_burst_keeps_exactly_the_acknowledged_writes(tmp_path):
    store_dir = str(tmp_path / "store")
    env = {"AIKG_TOKEN": "crash-token"}
    server = LiveServer(store_dir, env=env)
    acked: list[int] = []
    sent: list[int] = []
    refused: list[str] = []
    enough = threading.Event()

    def burst() -> None:
        session = requests.Session()
        for i in range(10_000):
            sent.append(i)
            try:
                r = session.post(
                    f"{server.url}/data",
                    params={"graph": G},
                    data=entity(i).encode(),
                    headers=AUTH,
                    timeout=120,  # a ceiling: only the kill ends a request here
                )
            except requests.RequestException:
                return  # the server died under this request
            if r.status_code not in (200, 201):
                refused.append(f"{r.status_code} {r.text[:300]}")
                enough.set()
                return
            acked.append(i)
            if len(acked) >= 8:
                enough.set()

    writer = threading.Thread(target=burst)
    writer.start()
    assert enough.wait(600), "the server did not acknowledge writes: " + server.log_tail()
    assert not refused, refused
    kill_hard(server)
    writer.join()

    restarted = LiveServer(store_dir, env=env)
    try:
        r = requests.get(
            f"{restarted.url}/data",
            params={"graph": G},
            headers={"Accept": "application/n-triples"},
            timeout=30,
        )
        assert r.status_code == 200
        g = Graph().parse(data=r.text, format="nt")
    finally:
        restarted.stop()
    typed = {int(str(s).rsplit("-", 1)[1]) for s in g.subjects(RDF.type, None)}
    labelled = {int(str(s).rsplit("-", 1)[1]) for s in g.subjects(RDFS.label, None)}
    assert typed == labelled  # no write half-applied
    assert set(acked) <= typed  # no acknowledged write lost
    assert typed <= set(sent)  # at most the one in flight landed without its acknowledgement
    assert len(typed - set(acked)) <= 1
    assert (URIRef(f"{ID}crash-cloud-{acked[-1]}"), RDF.type, None) in g


def test_a_writer_whose_arbiter_dies_while_it_starts_lets_the_store_go(tmp_path):
    """The master and the dirty arbiter killed while the writer is still opening the store and
    loading the seeds: the writer must stop by itself, or it holds the store's lock and the next
    ``aikg serve`` refuses the store as open in another process."""
    store_dir = str(tmp_path / "store")
    log = tmp_path / "serve.log"
    env = {**os.environ, "AIKG_IMPORT_EPOCH": "false", "AIKG_TOKEN": "crash-token"}
    cmd = [sys.executable, "-m", "aikg", "serve", "--host", "127.0.0.1", "--port", str(free_port())]
    with open(log, "wb") as out:
        proc = subprocess.Popen([*cmd, "--store", store_dir], env=env, stdout=subprocess.DEVNULL, stderr=out)
    found = None
    try:
        spawned = re.compile(r"\[(\d+)\] \[INFO\] Spawned dirty worker \(pid: (\d+)\)")
        deadline = time.monotonic() + 60
        while not (found := spawned.search(log.read_text())):
            assert time.monotonic() < deadline and proc.poll() is None, log.read_text()
            time.sleep(0.01)
        arbiter, writer = int(found[1]), int(found[2])
        os.kill(writer, signal.SIGSTOP)  # held in its init, before it could do anything about it
        assert "Initialized dirty app" not in log.read_text()
        for pid in (proc.pid, arbiter):
            os.kill(pid, signal.SIGKILL)
        proc.wait()
        while running(arbiter):
            time.sleep(0.05)
        os.kill(writer, signal.SIGCONT)
        deadline = time.monotonic() + 60
        while running(writer):
            assert time.monotonic() < deadline, "the orphaned writer did not stop: " + log.read_text()[-3000:]
            time.sleep(0.1)
    finally:
        for pid in [*descendants(proc.pid), proc.pid, *(found and [int(found[2])] or [])]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    restarted = LiveServer(store_dir, env={"AIKG_TOKEN": "crash-token"})
    try:
        r = requests.get(f"{restarted.url}/api/entities/coreweave", timeout=30)
        assert r.status_code == 200, r.text
    finally:
        restarted.stop()
