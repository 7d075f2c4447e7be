"""``aikg serve`` as clients meet it: several HTTP workers over one writer, pooled keep-alive clients,
slow clients, and what the HTTP server itself refuses — always in the JSON error envelope."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from pathlib import Path

import pytest
import requests

from conftest import LiveServer, free_port
from helpers import children, command_line, cpu_seconds, descendants, kill_hard, proc_stat

TOKEN = {"Authorization": "Bearer serving-token"}
GRAPH = "https://w3id.org/aikg/graph/sources/test-serving"
CLOUD = (
    "<https://w3id.org/aikg/id/serving-cloud> a <https://w3id.org/aikg/ontology#Neocloud> ; "
    '<http://www.w3.org/2000/01/rdf-schema#label> "Serving Cloud"@en .'
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Two HTTP workers and the writer over an on-disk store; a short read deadline."""
    live = LiveServer(
        str(tmp_path_factory.mktemp("serving") / "store"),
        # a time limit a busy machine does not trip, short enough for the hung views process's test
        env={"AIKG_TOKEN": "serving-token", "AIKG_READ_TIMEOUT": "2", "AIKG_QUERY_TIMEOUT": "10"},
        args=["--workers", "2"],
    )
    yield live
    live.stop()


def raw(server: LiveServer, data: bytes) -> bytes:
    """Send bytes as they are and read the whole answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(data)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def envelope_of(answer: bytes) -> tuple[int, dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"content-type: application/json" in head.lower()
    import json

    return status, json.loads(body)


def test_a_started_server_readies_the_first_answers_before_any_request(tmp_path):
    """At boot, before any request but the health check, the search index (which named queries and
    lookups need) is built and kept: the first answers after a restart do not wait for it (issue 15's
    cold start)."""
    store = tmp_path / "store"
    live = LiveServer(str(store), env={"AIKG_TOKEN": "serving-token"}, args=["--workers", "1"])
    folder = store.with_name(store.name + ".serving")
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end and not list(folder.glob("search-*.pickle")):
            time.sleep(0.2)
        assert list(folder.glob("search-*.pickle")), "no search index was built at boot"
    finally:
        live.stop()


def test_a_first_start_after_a_bulk_load_loads_the_index_the_load_kept(tmp_path):
    """``aikg load --bulk`` builds the loaded data's search index and keeps it where ``aikg serve``
    looks: the first start loads it (at 1M quads a build at the first start took ~10 s, during which
    searches, lookups and named queries answered 503), and keeps no other."""
    import subprocess
    import sys

    from aikg_bench.generate import generate

    data = tmp_path / "data.nq"
    generate(data, 20_000)
    store = tmp_path / "store"
    done = subprocess.run(
        [sys.executable, "-m", "aikg", "load", "--bulk", str(data), "--store", str(store)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "search index built and kept" in done.stdout
    folder = store.with_name(store.name + ".serving")
    kept = _kept(folder)
    assert len(kept) == 1
    live = LiveServer(str(store), env={"AIKG_LOAD_SEEDS": "false"}, args=["--workers", "1"])
    try:
        assert _first_hit(live, "nvidia") == "nvidia"
        r = requests.get(
            live.url + "/api/queries/deals-of-organization", params={"org": "nvidia"}, timeout=30
        )
        assert r.status_code == 200, r.text
        assert _kept(folder) == kept  # loaded, not built and kept again
    finally:
        live.stop()
    assert _kept(folder) == kept


def _kept(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.glob("search-*.pickle")}


def _first_hit(live: LiveServer, text: str) -> str | None:
    r = requests.get(live.url + "/api/search", params={"q": text}, timeout=30)
    assert r.status_code == 200, r.text
    hits = r.json()["results"]
    return hits[0]["id"] if hits else None


def _put(live: LiveServer, graph: str, turtle: str) -> requests.Response:
    """One gated write: ``graph`` replaced by ``turtle``."""
    return requests.put(
        live.url + "/data",
        params={"graph": graph},
        data=turtle,
        headers={**TOKEN, "Content-Type": "text/turtle"},
        timeout=60,
    )


def _put_cloud(live: LiveServer) -> None:
    """One gated write: the test graph replaced by the serving cloud."""
    r = _put(live, GRAPH, CLOUD)
    assert r.status_code == 201, r.text


def _written(store: Path) -> tuple[LiveServer, Path]:
    """A server on a new store that has built its index at boot, then taken one gated write."""
    live = LiveServer(str(store), env={"AIKG_TOKEN": "serving-token"}, args=["--workers", "1"])
    folder = store.with_name(store.name + ".serving")
    end = time.monotonic() + 30
    while time.monotonic() < end and not _kept(folder):
        time.sleep(0.1)
    assert _kept(folder), "no search index was built at boot"
    _put_cloud(live)
    return live, folder


def test_a_restart_after_writes_loads_the_search_index_kept_at_shutdown(tmp_path):
    """Stopped cleanly after a write, the service keeps its index as it stands and the store the
    identity of its data: the next start loads that index (nothing built: no new or rewritten file)
    and finds the written entity at once. Before, the reopened store's files had new names, so the
    index was built again on every start after writes (8-11 s at 1M quads). No request follows the
    write before the stop: the worker brings its index up to the write as it closes."""
    store = tmp_path / "store"
    live, folder = _written(store)
    live.stop()
    kept = _kept(folder)
    again = LiveServer(str(store), env={"AIKG_TOKEN": "serving-token"}, args=["--workers", "1"])
    try:
        assert _first_hit(again, "serving cloud") == "serving-cloud"
        assert _first_hit(again, "coreweave") == "coreweave"
        assert _kept(folder) == kept
    finally:
        again.stop()


def test_a_store_killed_after_a_write_is_not_taken_for_the_data_it_held_before(tmp_path):
    """Killed with SIGKILL after a write, the store names no identity for its data, so no index kept
    for an earlier state is trusted: the next start builds one and finds the written entity."""
    store = tmp_path / "store"
    live, folder = _written(store)
    assert _first_hit(live, "serving cloud") == "serving-cloud"  # the write, followed by the index
    before = _kept(folder)
    kill_hard(live)
    again = LiveServer(str(store), env={"AIKG_TOKEN": "serving-token"}, args=["--workers", "1"])
    try:
        assert _first_hit(again, "serving cloud") == "serving-cloud"
        assert set(_kept(folder)) - set(before), "no index was built for the data after the kill"
    finally:
        again.stop()


def test_a_writer_over_its_memory_allowance_empties_its_caches_when_idle_and_goes_on_writing(tmp_path):
    """Regression: the soak's writer grew 49 % in 10 minutes, RocksDB's block caches filling with blocks
    of files deleted since (a snapshot per write makes new files). Past ``writer_memory`` it reopens
    the store between two actions; writes before and after are read back."""
    live = LiveServer(
        str(tmp_path / "store"),
        env={"AIKG_TOKEN": "serving-token", "AIKG_WRITER_MEMORY": "1"},
        args=["--workers", "1"],
    )
    try:
        n = 0
        # Rounds of writes, each read back, until the writer has grown by more than 1 MB (6 to 16
        # writes) and emptied its caches in the idle second after a round.
        for _ in range(4):
            for _ in range(6):
                n += 1
                body = " ".join(CLOUD.replace("serving-cloud", f"serving-cloud-{n}-{i}") for i in range(50))
                r = _put(live, GRAPH + "-memory", body)
                assert r.status_code in (200, 201), r.text
                hit = requests.get(live.url + f"/api/entities/serving-cloud-{n}-1", timeout=10)
                assert hit.status_code == 200, hit.text
            end = time.monotonic() + 8  # the writer looks every 5 s
            while time.monotonic() < end and "emptied the store's caches" not in live.log_tail(100_000):
                time.sleep(0.5)
            if "emptied the store's caches" in live.log_tail(100_000):
                break
        assert "emptied the store's caches" in live.log_tail(100_000)
        _put_cloud(live)
        hit = requests.get(live.url + "/api/entities/serving-cloud", timeout=10)
        assert hit.status_code == 200 and hit.json()["label"] == "Serving Cloud"
        kept = requests.get(live.url + f"/api/entities/serving-cloud-{n}-1", timeout=10)
        gone = requests.get(live.url + f"/api/entities/serving-cloud-{n - 1}-1", timeout=10)
        assert (kept.status_code, gone.status_code) == (200, 404)  # the last PUT replaced the one before
    finally:
        live.stop()


def test_a_write_is_read_back_by_every_worker_at_once(server):
    kids = children(server.proc.pid)
    assert len(kids) >= 3  # two HTTP workers and the dirty arbiter (which runs the writer)
    _put_cloud(server)
    seen = set()
    for _ in range(12):  # a new connection each time: the kernel spreads them over both workers
        hits = requests.get(server.url + "/api/search", params={"q": "serving cloud"}, timeout=10).json()
        seen.add(tuple(h["id"] for h in hits["results"][:1]))
    assert seen == {("serving-cloud",)}


def test_every_worker_tags_an_answer_alike_so_revalidation_is_a_304_whichever_answers(server):
    # Each HTTP worker made up its own token for the cache keys, so the ETag of one answer differed
    # from worker to worker and a client's revalidation was a full 200 whenever the other one answered.
    first = requests.get(server.url + "/api/entities/nvidia", timeout=10)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    statuses = [
        requests.get(
            server.url + "/api/entities/nvidia", headers={"If-None-Match": etag}, timeout=10
        ).status_code
        for _ in range(16)  # a new connection each time: the kernel spreads them over both workers
    ]
    assert statuses == [304] * 16


def test_readers_of_one_writer_share_its_run_and_a_new_run_is_another_lineage(tmp_path):
    from aikg.serving import publication
    from aikg.serving.follower import FollowerStore
    from aikg.store import OxigraphStore

    store = OxigraphStore(tmp_path / "store")
    store.update('INSERT DATA { <urn:x:a> <urn:x:p> "1" }')
    folder = publication.folder_for(tmp_path / "store")
    snapshot = store.snapshot()
    assert snapshot is not None
    publication.publish(folder, snapshot, "run-one")
    readers = [FollowerStore(folder, wait=5), FollowerStore(folder, wait=5)]
    assert [r.lineage for r in readers] == ["run-one", "run-one"]
    publication.publish(folder, snapshot, "run-two")  # a restarted writer: the same version, counted anew
    assert [r.lineage for r in readers] == ["run-two", "run-two"]
    assert store.lineage is None  # read by one process alone: the caches make a token up


def test_a_read_after_a_write_was_answered_waits_for_its_snapshot(tmp_path, monkeypatch):
    """The writer answers a write once it is committed and publishes its snapshot after: a reader that
    begins after the answer waits for that snapshot and reads the write; a snapshot that never comes
    (the writer died) is waited for a bounded time, then the last one is read."""
    from aikg.serving import publication
    from aikg.serving.follower import FollowerStore
    from aikg.store import OxigraphStore

    store = OxigraphStore(tmp_path / "store")
    store.update('INSERT DATA { GRAPH <urn:x:g> { <urn:x:a> <urn:x:p> "1" } }')
    folder = publication.folder_for(tmp_path / "store")
    first = store.snapshot()
    assert first is not None
    publication.publish(folder, first, "run")
    reader = FollowerStore(folder, wait=5)
    assert reader.count("urn:x:g") == 1
    store.update('INSERT DATA { GRAPH <urn:x:g> { <urn:x:b> <urn:x:p> "2" } }')
    publication.publish(folder, first, "run", latest=store.version)  # answered; its snapshot to come
    second = store.snapshot()
    assert second is not None
    later = threading.Timer(0.3, publication.publish, (folder, second, "run"))
    later.start()
    assert reader.count("urn:x:g") == 2
    later.join()
    assert publication.wanted(folder)  # the reader asked the writer for the snapshot it waited for
    assert not publication.wanted(folder)  # once
    store.update('INSERT DATA { GRAPH <urn:x:g> { <urn:x:c> <urn:x:p> "3" } }')
    monkeypatch.setattr(publication, "SETTLE_WAIT", 0.2)
    publication.publish(folder, reader.snapshot(), "run", latest=store.version)  # never published
    assert reader.count("urn:x:g") == 2
    reader.close()
    store.close()


def test_the_publisher_makes_a_snapshot_when_a_reader_asks_or_the_writes_pause(tmp_path, monkeypatch):
    """The writer's publisher does not checkpoint after every write (at 1M each checkpoint's compactions
    cost ~85 ms of CPU that the next writes waited behind, #49): it waits until a reader asks for the
    newest snapshot, or the writes pause, or the oldest unpublished write has waited long enough."""
    from aikg.serving import publication
    from aikg.serving.writer import Writer

    monkeypatch.setattr("aikg.serving.writer.PUBLISH_MOST", 30.0)
    writer = Writer.__new__(Writer)  # the publisher's wait alone: no store, no gunicorn
    writer.folder, writer._closing, writer._turns = tmp_path, False, threading.Condition()
    writer._actions, writer._last_action = 1, time.monotonic()  # a write under way
    asking = threading.Timer(0.2, publication.want, (tmp_path,))
    asking.start()
    writer._until_wanted()  # returns: a reader asked
    asking.join()
    assert not publication.wanted(tmp_path)  # the request was taken
    writer._actions, writer._last_action = 0, time.monotonic() - 1.0  # the writes paused
    writer._until_wanted()  # returns with nobody asking
    writer._actions, writer._closing = 1, True
    writer._until_wanted()  # returns: the writer closes, publishing what it has


def test_a_refused_write_comes_back_with_its_report(server):
    bad = "<https://w3id.org/aikg/id/serving-bad> a <https://w3id.org/aikg/ontology#Neocloud> ."
    r = requests.put(
        server.url + "/data",
        params={"graph": GRAPH + "-bad"},
        data=bad,
        headers={**TOKEN, "Content-Type": "text/turtle"},
        timeout=60,
    )
    assert r.status_code == 422, (r.text, server.log_tail())
    assert r.json()["errors"][0]["focus_node"] == "https://w3id.org/aikg/id/serving-bad"
    r = requests.put(
        server.url + "/data",
        params={"graph": GRAPH + "-bad"},
        data=bad,
        timeout=60,
        headers={**TOKEN, "Content-Type": "text/turtle", "Accept": "text/turtle"},
    )
    assert r.status_code == 422 and "sh:ValidationReport" in r.text


def test_a_pooled_keep_alive_client_with_pauses_never_hangs(server):
    """Regression: forked query workers held idle keep-alive sockets open, so a reused one hung."""
    session = requests.Session()
    for _ in range(3):
        r = session.get(
            server.url + "/sparql",
            params={"query": "ASK { ?s ?p ?o }"},
            headers={"Accept": "application/sparql-results+json"},
            timeout=20,
        )
        assert r.status_code == 200 and r.json()["boolean"] is True, (r.text, server.log_tail())
        time.sleep(3)  # past the server's keep-alive of 2 s: it closes the idle connection
        assert session.get(server.url + "/api/health", timeout=20).status_code == 200


def test_slow_clients_hold_no_worker_and_are_cut_off_with_408(server):
    slow = []
    for _ in range(40):  # more than all the threads of both workers
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        slow.append(s)
    for _ in range(5):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(
            b"POST /sparql HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\n"
            b"Content-Length: 500\r\n\r\nSELECT"
        )
        slow.append(s)
    r = requests.get(server.url + "/api/health", timeout=1.5)  # well within the slow clients' deadline
    assert r.status_code == 200
    time.sleep(3.5)
    cut = 0
    for s in slow:
        s.settimeout(2)
        try:
            answer = s.recv(4096)
        except OSError:
            answer = b""
        cut += answer.startswith(b"HTTP/1.1 408") or answer == b""
        s.close()
    assert cut == len(slow)


def test_a_request_that_has_partly_arrived_costs_no_cpu_while_it_waits(server):
    """A connection holding part of a request waits on the poller, not in a loop: polled again at once
    while its bytes sat unread in the socket, each slow sender kept a worker's main loop and a thread
    busy (a CPU core for four of them) and cheap requests waited for the GIL they held."""
    workers = children(server.proc.pid)
    slow = []
    for _ in range(4):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        slow.append(s)
    time.sleep(0.2)
    before = sum(cpu_seconds(p) for p in workers)
    time.sleep(1.5)  # within the read deadline (2 s): they are still waiting
    spent = sum(cpu_seconds(p) for p in workers) - before
    for s in slow:
        s.close()
    assert spent < 0.5, f"{spent:.2f} CPU-seconds in 1.5 s for 4 idle slow senders"


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET /api/health?" + b"q" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n", 431),
        (b"GET /api/health HTTP/9.9\r\nHost: x\r\n\r\n", 400),
        (b"G@T /api/health HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        (
            b"POST /sparql HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n-5\r\nabc\r\n0\r\n\r\n",
            400,
        ),
    ],
)
def test_what_the_http_server_refuses_is_in_the_envelope(server, request_bytes, status):
    got, body = envelope_of(raw(server, request_bytes))
    assert got == status
    assert body["ok"] is False and body["status"] == status and body["message"]


def test_a_body_over_the_limit_is_refused_before_it_is_read(server):
    head = (
        b"POST /sparql HTTP/1.1\r\nHost: x\r\nContent-Type: application/sparql-query\r\n"
        b"Content-Length: 999999999\r\n\r\n"
    )
    got, body = envelope_of(raw(server, head))
    assert got == 413 and "max_body" in body["message"]


def test_the_writer_warms_up_below_the_readers_priority_and_stays_at_its_own():
    """The writer's warm-up (~1 s of CPU that only the first write needs) ran at the readers' priority
    while a restarted server's HTTP workers loaded their indexes and answered their first requests.
    It runs on a thread of lower priority now, and the writer's own threads keep theirs."""
    import os
    import threading

    from aikg.serving.writer import WARM_UP_NICENESS, _behind_readers

    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    before = niceness()
    seen: list[int] = []
    _behind_readers(lambda: seen.append(niceness()))
    assert seen == [min(19, before + WARM_UP_NICENESS)]
    assert niceness() == before


def _views_processes(live: LiveServer) -> dict[int, int]:
    """The views processes of ``live``'s HTTP workers: pid -> niceness."""
    out = {}
    for pid in descendants(live.proc.pid):
        if "aikg.serving.views" in command_line(pid):
            with contextlib.suppress(OSError):
                out[pid] = int(proc_stat(f"/proc/{pid}/stat")[16])
    return out


def _wait_for_views(live: LiveServer, count: int, seconds: float = 30) -> dict[int, int]:
    end = time.monotonic() + seconds
    while len(found := _views_processes(live)) < count and time.monotonic() < end:
        time.sleep(0.1)
    return found


def test_graph_views_are_answered_by_a_views_process_as_heavy_work(server):
    """A hub's deep neighbourhood held its HTTP worker's GIL for seconds, and cheap requests beside it
    waited: each HTTP worker now hands graph views and exports to a process of its own, off one core
    and never at the lowest priority, where other load on the host starved it (aikg.placement.Share),
    and relays its answers, errors included."""
    import os

    from aikg.placement import LONG_NICENESS, YIELDING_NICENESS, heavy_cores

    views = _wait_for_views(server, 4)
    assert len(views) == 4  # two per HTTP worker: the heavy views' and the cheap lane's
    assert set(views.values()) <= {0, YIELDING_NICENESS} and LONG_NICENESS not in views.values()
    for pid in views:
        assert os.sched_getaffinity(pid) == heavy_cores()
    with requests.Session() as s:
        r = s.get(server.url + "/api/entities/coreweave/neighbors", params={"depth": "2"}, timeout=30)
        assert r.status_code == 200, r.text
        assert r.headers["Content-Type"] == "application/json"
        assert r.json()["focus"] == "https://w3id.org/aikg/id/coreweave"
        assert r.json()["shown"] > 1 and r.headers["ETag"]  # the HTTP worker's cache tags it
        assert (
            s.get(
                server.url + "/api/entities/coreweave/neighbors",
                params={"depth": "2"},
                headers={"If-None-Match": r.headers["ETag"]},
                timeout=30,
            ).status_code
            == 304
        )
        export = s.get(server.url + "/export/turtle", params={"focus": "coreweave"}, timeout=30)
        assert export.status_code == 200 and "coreweave" in export.text
        assert export.headers["Content-Disposition"].startswith("attachment")
        missing = s.get(server.url + "/api/entities/no-such-entity/neighbors", timeout=30)
        assert missing.status_code == 404 and missing.json()["error"] == "not found"
        bad = s.get(server.url + "/api/graph", params={"limit": "0"}, timeout=30)
        assert bad.status_code == 400 and bad.json()["errors"][0]["parameter"] == "limit"


def test_a_view_for_a_gzip_client_is_relayed_compressed_and_decodes_to_the_plain_answer(server):
    """The views process compresses a view for a client that takes gzip (a hub's deep neighbourhood is
    megabytes: copied into the HTTP worker it held up cheap requests on their core) and the HTTP worker
    relays it with its Content-Encoding: neither sent plain under a gzip header nor compressed twice."""
    import gzip

    for path, params in (
        ("/api/entities/nvidia/neighbors", {"depth": "3", "fold": "true"}),
        ("/export/turtle", {"focus": "nvidia", "depth": "2"}),
    ):
        url = server.url + path
        gzip_ok = {"Accept-Encoding": "gzip"}
        packed = requests.get(url, params=params, headers=gzip_ok, stream=True, timeout=30)
        body = packed.raw.read(decode_content=False)
        plain = requests.get(url, params=params, headers={"Accept-Encoding": "identity"}, timeout=30)
        assert packed.status_code == plain.status_code == 200
        assert packed.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
        assert int(packed.headers["Content-Length"]) == len(body) < len(plain.content) / 2
        assert gzip.decompress(body) == plain.content


def test_a_views_process_that_dies_or_hangs_is_replaced(server):
    """Killed, the next view starts another; stopped (SIGSTOP: a view stuck in native code), the
    request waiting for it ends in 503 at the time limit plus a grace, and the next one is answered."""
    import os
    import signal

    before = _wait_for_views(server, 4)
    for pid in before:
        os.kill(pid, signal.SIGKILL)
    with requests.Session() as s:
        for _ in range(4):  # whichever worker answers, its views process was killed
            r = s.get(server.url + "/api/graph", params={"limit": "5", "n": str(time.time())}, timeout=60)
            assert r.status_code == 200, r.text
        now = _views_processes(server)
        assert now and not set(now) & set(before)
        for pid in now:
            os.kill(pid, signal.SIGSTOP)
        # given up on at the server's query_timeout (10 s) and its grace, well within the client's own
        # 60 s, and answered in the envelope
        r = s.get(server.url + "/api/graph", params={"limit": "6"}, timeout=60)
        assert r.status_code == 503 and r.json()["error"] == "query timeout", r.text
        for pid in now:  # the other worker's, not replaced yet: it goes on
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        r = s.get(server.url + "/api/graph", params={"limit": "7"}, timeout=60)
        assert r.status_code == 200, r.text


def _sockets_on(port: int) -> dict[str, str]:
    """TCP sockets on 127.0.0.1:``port`` (the server's end): inode -> state (0A listening, 01 open)."""
    out = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state, inode = fields[1], fields[3], fields[9]
        if int(local.split(":")[1], 16) == port:
            out[inode] = state
    return out


def _socket_inodes(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            link = os.readlink(fd)
            if link.startswith("socket:["):
                found.add(link[8:-1])
    return found


def test_new_connections_are_spread_over_both_http_workers(server):
    """Regression (#49): both HTTP workers polled one shared listening socket, and whichever woke first
    took the whole backlog: in 18 of 25 wrk runs all 8 keep-alive connections landed on one worker, so
    one core served them. Each worker now listens on a socket of its own (SO_REUSEPORT) and the kernel
    spreads new connections over them."""
    sockets = _sockets_on(server.port)
    listening = {inode for inode, state in sockets.items() if state == "0A"}
    workers = {pid: _socket_inodes(pid) & listening for pid in children(server.proc.pid)}
    workers = {pid: inodes for pid, inodes in workers.items() if inodes}
    assert len(workers) == 2 and all(len(inodes) == 1 for inodes in workers.values())
    assert len(set.union(*workers.values())) == 2  # a socket each, not one shared
    clients = []
    try:
        for _ in range(16):  # kept open: each stays with the worker that accepted it
            s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert s.recv(4096).startswith(b"HTTP/1.1 200")
            clients.append(s)
        open_ones = {inode for inode, state in _sockets_on(server.port).items() if state == "01"}
        held = {pid: len(_socket_inodes(pid) & open_ones) for pid in workers}
        assert sum(held.values()) == 16 and min(held.values()) > 0, held
    finally:
        for s in clients:
            s.close()


def test_a_second_serve_on_a_port_in_use_exits_2_and_says_why(server, runner, tmp_path, monkeypatch):
    """Regression (#49): with SO_REUSEPORT a second ``aikg serve`` on the same port would have shared
    it with the first silently (each answering half the connections, over another store). It exits 2
    before touching its store, naming the port."""
    from aikg.cli import main
    from aikg.cli import serve as serve_module

    def past_the_check(settings):
        raise AssertionError("went on to open the store")

    monkeypatch.setattr(serve_module, "check_store", past_the_check)
    store = tmp_path / "second"
    result = runner.invoke(
        main, ["serve", "--host", "127.0.0.1", "--port", str(server.port), "--store", str(store)]
    )
    assert result.exit_code == 2, result.output
    assert f"cannot listen on 127.0.0.1:{server.port}" in result.output and "in use" in result.output
    assert not store.exists()
    assert serve_module.port_in_use("127.0.0.1", free_port()) is None


def test_an_upload_to_the_served_imports_goes_through_the_writer_as_a_new_snapshot(server):
    """POST /api/imports on a served store: the HTTP worker hands the files to the writer, which owns
    the store (an upload answered 503 before the writer took the action). The token is required; a dry
    run writes nothing; an older and then a newer release of Epoch's ML hardware file (real rows,
    tests/data/epoch_versions) become the dataset's first graph and a dated snapshot graph beside it."""
    versions = Path(__file__).parent / "data" / "epoch_versions"
    hardware = "https://w3id.org/aikg/graph/epoch/ml-hardware"

    def upload(folder: str, as_of: str, headers: dict[str, str], **form: str) -> requests.Response:
        body = (versions / folder / "ml_hardware" / "ml_hardware.csv").read_bytes()
        return requests.post(
            server.url + "/api/imports",
            data={"as_of": as_of, **form},
            files={"file": ("ml_hardware/ml_hardware.csv", body, "text/csv")},
            headers=headers,
            timeout=120,
        )

    def graphs() -> set[str]:
        query = "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), STR(<%s>))) }"
        r = requests.get(
            server.url + "/sparql",
            params={"query": query % hardware},
            headers={"Accept": "application/sparql-results+json"},
            timeout=60,
        )
        return {b["g"]["value"] for b in r.json()["results"]["bindings"]}

    refused = upload("hardware_older", "2025-12-14", {})
    assert refused.status_code == 401 and refused.json()["error"]
    dry = upload("hardware_older", "2025-12-14", TOKEN, dry_run="true")
    assert dry.status_code == 200 and dry.json()["dry_run"] and not dry.json()["written"], dry.text
    assert graphs() == set()
    first = upload("hardware_older", "2025-12-14", TOKEN)
    assert first.status_code == 200 and first.json()["written"], first.text
    newer = upload("hardware_newer", "2026-04-01", TOKEN)
    body = newer.json()
    assert newer.status_code == 200 and body["written"], newer.text
    [file] = body["files"]
    assert (file["graph"], file["snapshot"], file["rows"], file["rejected"]) == (
        hardware + "/2026-04-01",
        "2026-04-01",
        4,
        0,
    )
    assert graphs() == {hardware, hardware + "/2026-04-01"}
    latest = requests.get(server.url + "/api/imports/latest", timeout=60).json()
    assert latest["directory"] == "uploaded: ml_hardware/ml_hardware.csv"
    assert [f["graph"] for f in latest["files"]] == [hardware + "/2026-04-01"]
