"""``bench/load.py``'s CPU by thread: the event loop's thread is ``loop``
(the process's main thread), the others go by their names, and what they
spend together is what the process spends."""

from __future__ import annotations

import os
import threading
import time

from bench.load import cpu_seconds, thread_cpu


def _busy(cpu_s: float) -> None:
    """Spend ``cpu_s`` of this thread's CPU."""
    start = time.thread_time()
    while time.thread_time() - start < cpu_s:
        pass


def test_threads_by_name_sum_to_the_process() -> None:
    stop = threading.Event()
    worker = threading.Thread(target=lambda: stop.wait(30), name="bench-worker")
    worker.start()
    try:
        before, whole_before = thread_cpu([os.getpid()]), cpu_seconds(os.getpid())
        _busy(0.3)
        by_thread, whole = thread_cpu([os.getpid()]), cpu_seconds(os.getpid())
    finally:
        stop.set()
        worker.join()
    assert "loop" in by_thread and len(by_thread) >= 2  # the waiting thread too
    # the kernel counts CPU in clock ticks, by sampling: a few either way
    assert by_thread["loop"] - before["loop"] >= 0.2
    # what the process spent meanwhile is what its threads spent (a thread
    # that ended earlier counts in the process's CPU, not in any thread's)
    assert abs((sum(by_thread.values()) - sum(before.values()))
               - (whole - whole_before)) < 0.05
