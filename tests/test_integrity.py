"""A damaged store is never overwritten and never loops; checks, backups and restores; the CLI beside a
running server; a stopped service releases its store before it exits (issue #42).
A plain stop-then-start: tests/test_store.py."""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest
import requests

from aikg.cli import main
from aikg.errors import DamagedStore, InsufficientStorage
from aikg.knowledge.load import load_seeds
from aikg.store import OxigraphStore, in_use
from conftest import LiveServer, free_port


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A seeded store on disk, closed cleanly; tests damage copies of it."""
    path = tmp_path_factory.mktemp("pristine") / "store"
    store = OxigraphStore(path)
    load_seeds(store)
    store.close()
    return path


def _copy(pristine: Path, folder: Path) -> Path:
    target = folder / "store"
    shutil.copytree(pristine, target)
    return target


def _files(path: Path) -> dict[str, str]:
    """Every file of a folder, by name, with a digest of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.iterdir())}


def _biggest_table(path: Path) -> Path:
    return max(path.glob("*.sst"), key=lambda p: p.stat().st_size)


def _garble(path: Path, start: int, end: int) -> None:
    data = bytearray(path.read_bytes())
    data[start:end] = random.Random(42).randbytes(end - start)
    path.write_bytes(bytes(data))


def _truncate(store: Path) -> None:
    table = _biggest_table(store)
    table.write_bytes(table.read_bytes()[:1000])


def _garbage_in_index(store: Path) -> None:
    # the table's index and meta blocks, before its footer: what the engine reads at every open
    table = _biggest_table(store)
    size = table.stat().st_size
    _garble(table, size - 600, size - 60)


def _empty_manifest(store: Path) -> None:
    next(store.glob("MANIFEST-*")).write_bytes(b"")


DAMAGE: dict[str, Callable[[Path], None]] = {
    "CURRENT removed": lambda store: (store / "CURRENT").unlink(),
    "table truncated": _truncate,
    "garbage in a table": _garbage_in_index,
    "empty MANIFEST": _empty_manifest,
}


def _serve(store: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``aikg serve`` on ``store`` until it exits by itself; its whole process group is killed if it
    has not within ``timeout`` (a service that loops would never exit)."""
    cmd = [sys.executable, "-m", "aikg", "serve", "--host", "127.0.0.1", "--port", str(free_port())]
    proc = subprocess.Popen(
        [*cmd, "--store", str(store)],
        env={**os.environ, "AIKG_IMPORT_EPOCH": "false"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        pytest.fail(f"aikg serve did not exit on a damaged store: {err[-3000:]}")
    return subprocess.CompletedProcess(proc.args, proc.returncode, "", err)


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_serve_refuses_a_damaged_store_once_and_leaves_every_file(pristine, tmp_path, damage):
    store = _copy(pristine, tmp_path)
    DAMAGE[damage](store)
    before = _files(store)
    done = _serve(store)
    assert done.returncode == 3, done.stderr[-3000:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"aikg: the store at {store} cannot be opened"), last
    assert f"aikg restore BACKUP --store {store}" in last
    if damage != "CURRENT removed":
        assert "Corruption" in last  # the engine's own words
    assert done.stderr.count("Spawned dirty worker") <= 1  # never started again
    assert "Traceback" not in done.stderr
    assert _files(store) == before  # nothing created, removed or changed


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_no_command_opens_a_damaged_store(pristine, tmp_path, damage, runner):
    store = _copy(pristine, tmp_path)
    DAMAGE[damage](store)
    before = _files(store)
    with pytest.raises(DamagedStore):
        OxigraphStore(store)
    out = runner.invoke(main, ["dump", "--store", str(store)])
    assert out.exit_code == 3
    assert "cannot be opened" in out.output and out.exception is None or isinstance(out.exception, SystemExit)
    assert _files(store) == before


def test_a_new_or_empty_folder_is_created_and_seeded(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for folder in (empty, tmp_path / "absent" / "store"):
        store = OxigraphStore(folder)
        assert store.count() == 0
        store.close()
        assert (folder / "CURRENT").is_file()


def test_check_reads_every_index_and_finds_damage_in_a_data_block(pristine, tmp_path, runner):
    good = runner.invoke(main, ["check", "--store", str(pristine)])
    assert good.exit_code == 0, good.output
    counts = [line.rsplit(":", 1)[1] for line in good.output.splitlines() if line.startswith("  index ")]
    assert len(counts) == 6 and len(set(counts[:4])) == 1 and len(set(counts[4:])) == 1
    store = _copy(pristine, tmp_path)
    table = _biggest_table(store)
    middle = table.stat().st_size // 2
    _garble(table, middle, middle + 512)  # a data block: the engine sees it only when it reads it
    before = _files(store)
    bad = runner.invoke(main, ["check", "--store", str(store)])
    assert bad.exit_code == 3
    assert "PROBLEM" in bad.output and "checksum mismatch" in bad.output
    assert _files(store) == before


def test_backup_shares_no_file_and_restore_fills_only_a_new_folder(pristine, tmp_path, runner):
    backup = tmp_path / "backup"
    out = runner.invoke(main, ["backup", str(backup), "--store", str(pristine)])
    assert out.exit_code == 0, out.output
    inodes = {p.stat().st_ino for p in pristine.iterdir()}
    assert not inodes & {p.stat().st_ino for p in backup.iterdir()}  # copies, not hard links
    occupied = _copy(pristine, tmp_path)
    before = _files(occupied)
    refused = runner.invoke(main, ["restore", str(backup), "--store", str(occupied)])
    assert refused.exit_code == 3 and "never replaces" in refused.output
    assert _files(occupied) == before
    target = tmp_path / "restored"
    assert runner.invoke(main, ["restore", str(backup), "--store", str(target)]).exit_code == 0
    original, restored = OxigraphStore(pristine, read_only=True), OxigraphStore(target, read_only=True)
    assert set(restored.quads()) == set(original.quads()) and original.count() > 5000


# -- beside a running server -------------------------------------------------------------------------


def _served_count(server: LiveServer) -> int:
    """Quads in the server's named graphs, as its /api/stats counts them (retried while its search index
    is still being built: 503)."""
    until = time.monotonic() + 120
    while True:
        answer = requests.get(server.url + "/api/stats", timeout=60)
        if answer.status_code == 200 or time.monotonic() > until:
            break
        time.sleep(0.5)
    assert answer.status_code == 200, answer.text
    return int(answer.json()["triples"])


def test_the_cli_reads_beside_a_running_server_and_refuses_writes_in_one_line(live_server, tmp_path, runner):
    store = live_server.store
    count = _served_count(live_server)
    query = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
    read = runner.invoke(
        main, ["query", "--sparql", query, "-f", "csv", "--store", store, "--query-timeout", "60"]
    )
    assert read.exit_code == 0, read.output
    assert read.output.split()[1] == str(count)
    exported = runner.invoke(main, ["export", "-f", "nquads", "--store", store])
    assert exported.exit_code == 0, exported.output
    assert len([line for line in exported.output.splitlines() if line.strip()]) > 1000
    write = runner.invoke(main, ["load", "--seeds", "--store", store])
    assert write.exit_code == 3
    assert write.output.strip().count("\n") == 0 and "HTTP API" in write.output
    backup = tmp_path / "backup"
    assert runner.invoke(main, ["backup", str(backup), "--store", store]).exit_code == 0
    assert OxigraphStore(backup, read_only=True).count() == count


def test_serve_exits_only_once_its_writer_released_the_store(pristine, tmp_path, monkeypatch):
    """A writer stuck past gunicorn's graceful time (here: one that ignores SIGTERM) is stopped by
    ``aikg serve`` before it exits, and a process not started by this service is left alone."""
    from aikg.cli import serve
    from aikg.serving.app import SERVER_PID

    store = _copy(pristine, tmp_path)
    holder = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "from aikg.store import OxigraphStore\n"
        "store = OxigraphStore(sys.argv[1])\n"
        "print('open', flush=True)\n"
        "time.sleep(600)\n"
    )

    def hold(server_pid: str) -> subprocess.Popen[str]:
        env = {**os.environ, SERVER_PID: server_pid}
        proc = subprocess.Popen(
            [sys.executable, "-c", holder, str(store)], env=env, stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
        return proc

    monkeypatch.setattr(serve, "RELEASE_WAIT", 1.0)
    stranger = hold("1")  # not this service's writer
    try:
        serve.release_store(str(store), stranger.pid)
        assert stranger.poll() is None and in_use(str(store))
    finally:
        stranger.kill()
        stranger.wait()
    writer = hold(str(os.getpid()))
    try:
        releasing = threading.Thread(target=serve.release_store, args=(str(store), writer.pid), daemon=True)
        releasing.start()
        releasing.join(60)
        assert not releasing.is_alive() and not in_use(str(store))
        assert writer.wait(10) == -signal.SIGKILL
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()


# -- readiness and a full disk ----------------------------------------------------------------------

TOKEN = {"Authorization": "Bearer t", "Content-Type": "text/turtle"}
NOTE = b'<https://w3id.org/aikg/id/disk-note> <http://www.w3.org/2000/01/rdf-schema#comment> "a note" .'


def _put(server: LiveServer, name: str) -> requests.Response:
    graph = f"https://w3id.org/aikg/graph/client/{name}"
    return requests.put(server.url + "/data", params={"graph": graph}, data=NOTE, headers=TOKEN, timeout=120)


@pytest.fixture()
def small_disk(tmp_path) -> Iterator[Path]:
    """A 48 MiB tmpfs mounted for the test (the suite runs as root, as CI does)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", str(mount)], capture_output=True
    )
    assert done.returncode == 0, f"mounting a tmpfs needs root: {done.stderr.decode()}"
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_writes_wait_for_the_writer_and_a_full_disk_is_507_until_space_is_freed(small_disk):
    """One server on a 48 MiB tmpfs. Its writer is held just after it published the seeds (reads work)
    and before it takes writes: health says so, and a write gets 503 with Retry-After and changes
    nothing. Then the disk is filled: a write is 507 naming the store and its free space, reads go on,
    and once the space is freed the next write succeeds, without a restart."""
    store = small_disk / "store"
    cmd = [sys.executable, "-m", "aikg", "serve", "--host", "127.0.0.1", "--port", str(free_port())]
    env = {**os.environ, "AIKG_IMPORT_EPOCH": "false", "AIKG_TOKEN": "t"}
    proc = subprocess.Popen(
        [*cmd, "--store", str(store)], env=env, stderr=subprocess.DEVNULL, start_new_session=True
    )
    server = LiveServer.__new__(LiveServer)  # started here, to be held as it starts: only its URL is used
    server.url = f"http://127.0.0.1:{cmd[cmd.index('--port') + 1]}"
    serving = store.with_name("store.serving")
    try:
        until = time.monotonic() + 120
        while not (serving / "current.json").exists():  # the seeds are published: warm-up is next
            assert time.monotonic() < until and proc.poll() is None
            time.sleep(0.002)
        writer = int((serving / "writer.pid").read_text())
        os.kill(writer, signal.SIGSTOP)
        try:
            while True:
                try:
                    health = requests.get(server.url + "/api/health", timeout=5)
                    break
                except requests.ConnectionError:
                    assert time.monotonic() < until
                    time.sleep(0.1)
            assert health.json()["reads"] == "ready" and health.json()["writes"] == "starting", health.json()
            early = _put(server, "early")
            assert early.status_code == 503 and early.headers["Retry-After"] == "2", early.text
            assert "starting" in early.json()["message"]
        finally:
            os.kill(writer, signal.SIGCONT)
        while requests.get(server.url + "/api/health", timeout=5).json()["writes"] != "ready":
            assert time.monotonic() < until
            time.sleep(0.1)
        assert _put(server, "later").status_code == 201
        graph = "https://w3id.org/aikg/graph/client/early"
        assert requests.get(server.url + "/data", params={"graph": graph}, timeout=30).status_code == 404

        filler = small_disk / "filler"
        with open(filler, "wb") as fh, contextlib.suppress(OSError):
            while True:
                fh.write(b"\0" * 2**20)
        full = _put(server, "on-a-full-disk")
        assert full.status_code == 507, full.text
        message = full.json()["message"]
        assert str(store) in message and "MiB free" in message
        assert requests.get(server.url + "/api/stats", timeout=60).status_code == 200  # reads go on
        filler.unlink()
        assert _put(server, "after-freeing").status_code == 201
        graph = "https://w3id.org/aikg/graph/client/on-a-full-disk"
        assert requests.get(server.url + "/data", params={"graph": graph}, timeout=30).status_code == 404
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(60)


def test_a_store_closed_on_a_full_disk_closes_in_order_and_loses_nothing(small_disk):
    """A write refused for want of space is a 507 (InsufficientStorage); closing the store then must not
    flush onto the full disk and raise (it turned `aikg load`'s one-line refusal into a traceback and exit
    1). Every statement is there at the next open, once space is freed, and the store takes writes again."""
    path = small_disk / "store"
    store = OxigraphStore(path)
    load_seeds(store)
    before = store.count()
    note = ox.Quad(
        ox.NamedNode("https://w3id.org/aikg/id/disk-note"),
        ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#comment"),
        ox.Literal("a note"),
        ox.NamedNode("https://w3id.org/aikg/graph/sources/disk-note"),
    )
    filler = small_disk / "filler"
    with open(filler, "wb") as fh, contextlib.suppress(OSError):
        while True:
            fh.write(b"\0" * 2**20)
    many = [  # more than the space the engine keeps ahead for its log (a single note fits in it)
        ox.Quad(
            ox.NamedNode(f"https://w3id.org/aikg/id/disk-note-{i}"),
            note.predicate,
            ox.Literal("x" * 200),
            note.graph_name,
        )
        for i in range(50_000)
    ]
    with pytest.raises(InsufficientStorage):
        store.apply(add=many)
    store.close()  # raised OSError (No space left on device) from the engine's flush before
    filler.unlink()
    again = OxigraphStore(path)
    try:
        assert again.count() == before
        again.apply(add=[note])
        assert again.count() == before + 1  # the note, in its named graph
    finally:
        again.close()


def test_a_store_not_closed_cleanly_is_read_whole_before_it_is_opened(pristine, tmp_path):
    """Damage inside a data block is seen only when the block is read: a store without its generation
    marker (killed, or crashed on a file system without a journal) is read whole first."""
    store = _copy(pristine, tmp_path)
    table = _biggest_table(store)
    middle = table.stat().st_size // 2
    _garble(table, middle, middle + 512)
    (store / "aikg-generation").unlink()
    before = _files(store)
    with pytest.raises(DamagedStore, match="not closed cleanly.*checksum mismatch"):
        OxigraphStore(store)
    assert _files(store) == before


def test_a_pattern_with_an_integer_object_matches_that_integer_alone_on_disk(tmp_path):
    """pyoxigraph 0.5.13 on disk answered a pattern whose object is an integer ending in byte 0xFF with
    every quad after it in the index (255 matched 256, 257 …): aikg checks each match; and ``aikg check``
    found the store unsound because of it."""
    import pyoxigraph as ox

    integer = ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")
    graph = "https://w3id.org/aikg/graph/client/integers"
    store = OxigraphStore(tmp_path / "store")
    store.apply(
        add=[
            ox.Quad(
                ox.NamedNode(f"https://w3id.org/aikg/id/n{v}"),
                ox.NamedNode("http://example.org/v"),
                ox.Literal(str(v), datatype=integer),
                ox.NamedNode(graph),
            )
            for v in (255, 256, 257, 300, 511, 512)
        ]
    )
    for v in (255, 511):
        found = [q.object.value for q in store.quads(obj=ox.Literal(str(v), datatype=integer))]
        assert found == [str(v)]
        assert [
            q.object.value for q in store.quads(obj=ox.Literal(str(v), datatype=integer), graph=graph)
        ] == [str(v)]
    store.close()
    from aikg.store import integrity

    assert integrity.check(tmp_path / "store").sound


def _damaged_object(store: Path) -> str:
    """An object whose quads lie in the damaged data block (read with every object's pattern)."""
    import pyoxigraph as ox

    s = ox.Store.read_only(str(store))
    objects = {
        q.object for q in s.quads_for_pattern(None, None, None, None) if isinstance(q.object, ox.NamedNode)
    }
    for o in sorted(objects, key=str):
        try:
            list(s.quads_for_pattern(None, None, o, None))
        except RuntimeError:
            return o.value
    raise AssertionError("no read meets the damaged block")


def test_a_read_that_meets_a_damaged_block_is_refused_as_damage_and_health_says_so(pristine, tmp_path):
    """The engine opens a store whose data block is damaged (it reads such blocks only when asked for
    them), so the service starts and /health is ok; a read that meets the block is refused in the
    error shape naming the cause and what to do (503 'store damaged', not 'store unavailable' or a
    500), through the query workers and in the serving process alike, and /health says so from then
    on. Reads that do not meet the block still answer."""
    from aikg.store import integrity
    from aikg.web import create_app

    store = _copy(pristine, tmp_path)
    table = _biggest_table(store)
    middle = table.stat().st_size // 2
    _garble(table, middle, middle + 512)
    hit = _damaged_object(store)
    opened = OxigraphStore(store)
    try:
        app = create_app({"store": "memory", "load_seeds": False, "query_timeout": 5}, store=opened)
        client = app.test_client()
        assert client.get("/api/health").status_code == 200
        query = f"SELECT ?s ?p ?g WHERE {{ GRAPH ?g {{ ?s ?p <{hit}> }} }}"
        # ASK gathers before it answers: the engine runs on the damaged block until the time limit,
        # and the probe after the timeout reads the pattern, which meets it
        ask = f"ASK {{ GRAPH ?g {{ ?s ?p <{hit}> }} }}"
        for resp in (
            client.get("/sparql", query_string={"query": query}),  # a query worker's read
            client.get("/sparql", query_string={"query": ask}),  # ran out of time on the block
            client.get("/id/" + hit.rsplit("/", 1)[1], headers={"Accept": "text/turtle"})
            if hit.startswith("https://w3id.org/aikg/id/")
            else client.get("/sparql", query_string={"query": query}),  # a read in this process
        ):
            body = resp.get_json()
            assert resp.status_code == 503, body
            assert body["error"] == "store damaged"
            assert body["message"].startswith("the store is damaged: reading it hit a damaged block")
            assert f"aikg check --store {store}" in body["message"] and "checksum mismatch" in body["message"]
        health = client.get("/api/health")
        assert health.status_code == 503 and health.get_json()["error"] == "store damaged"
        fine = client.get("/sparql", query_string={"query": "ASK { ?s ?p ?o }"})
        assert fine.status_code == 200
        # Another process serving the store (a second HTTP worker, a restarted server) says so too,
        # before any read of its own meets the block: the damage is noted in the store's folder.
        other = OxigraphStore(store, read_only=True)
        try:
            app2 = create_app({"store": "memory", "load_seeds": False}, store=other)
            health2 = app2.test_client().get("/api/health")
            assert health2.status_code == 503, health2.get_json()
            assert health2.get_json()["message"].startswith("the store is damaged: reading it hit")
        finally:
            other.close()
    finally:
        opened.close()
    # The note goes with the folder: a sound store put in its place is healthy.
    moved = tmp_path / "damaged-store"
    store.rename(moved)
    assert (moved / integrity.DAMAGE_NOTE).is_file()
    sound = OxigraphStore(_copy(pristine, tmp_path), read_only=True)
    try:
        app3 = create_app({"store": "memory", "load_seeds": False}, store=sound)
        assert app3.test_client().get("/api/health").status_code == 200
    finally:
        sound.close()
    # An ordinary failure is not taken for damage: only the engine's Corruption status is.
    assert integrity.damaged_read(store, RuntimeError("the query ran past its time limit")) is None
    assert integrity.store_of(tmp_path / "store.snapshots" / "123-abc") == tmp_path / "store"


def test_an_ordinary_timeout_is_not_taken_for_damage(pristine, tmp_path):
    """A query that runs out of time on a sound store is still a timeout after the probe."""
    from aikg.web import create_app

    opened = OxigraphStore(_copy(pristine, tmp_path))
    try:
        app = create_app({"store": "memory", "load_seeds": False, "query_timeout": 1}, store=opened)
        slow = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
        resp = app.test_client().get("/sparql", query_string={"query": slow})
        assert resp.status_code == 503 and resp.get_json()["error"] == "query timeout", resp.get_json()
        assert app.test_client().get("/api/health").status_code == 200
    finally:
        opened.close()
