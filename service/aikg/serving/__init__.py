"""Serving: gunicorn with several HTTP worker processes reading snapshots, and one writer process.

RocksDB lets one process write an on-disk store. So ``aikg serve`` runs that process apart — the
*writer*, a gunicorn "dirty" worker that gunicorn supervises and restarts — and every HTTP worker reads
the snapshot (a RocksDB checkpoint) the writer published last: both cores answer requests, a worker
never waits for a write, and a reader never sees a half-applied one. Writes received by an HTTP worker
are forwarded to the writer, which validates and commits them through the gate and publishes the next
snapshot before it answers, so a client reads its own write on its next request, whichever worker
takes it.
"""
