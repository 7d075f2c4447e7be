"""The request-CPU measure (aikg_bench.request_cpu) reads the right processes and their CPU from /proc."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from aikg_bench.request_cpu import children, cpu_ms, http_workers

SPIN = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\ntime.sleep(30)"


def test_a_busy_childs_cpu_is_counted_and_only_gunicorns_http_workers_are_taken():
    # a stand-in for gunicorn's master: one child with a query worker (an HTTP worker), one without
    master = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys, time\n"
            'code = \'import subprocess, sys, time; subprocess.Popen([sys.executable, "-c", '
            '"import time; time.sleep(30)", "aikg.query.workers"]); time.sleep(30)\'\n'
            "subprocess.Popen([sys.executable, '-c', code])\n"
            f"subprocess.Popen([sys.executable, '-c', {SPIN!r}])\n"
            "time.sleep(30)",
        ]
    )
    try:
        for _ in range(200):
            kids = children(master.pid)
            workers = http_workers(master.pid)
            if len(kids) == 2 and workers:
                break
            time.sleep(0.05)
        assert len(kids) == 2 and len(workers) == 1
        spinner = next(k for k in kids if k not in workers)
        for _ in range(200):
            if cpu_ms([spinner]) >= 250:
                break
            time.sleep(0.05)
        assert cpu_ms([spinner]) >= 250  # its 0.3 s of CPU, at the clock's resolution
        assert cpu_ms([os.getpid(), 999_999_999]) > 0  # a process gone counts nothing
    finally:
        for pid in [*children(master.pid), *(k for c in children(master.pid) for k in children(c))]:
            os.kill(pid, 9)
        master.kill()
        master.wait()
