#!/usr/bin/env python3
"""Load test of `comics serve`, on loopback only, bounded in count and time.

Starts the release build of `comics serve` (offline catalog, a fresh data
directory), opens SESSIONS browser sessions at once (each: GET /, its event
stream, its token), sends INTENTS intents from every session, and measures
for each the time from posting it to the pushed page that follows, first
with every session sending at once, then one intent at a time. Reports
resident memory per live session (beyond the first), latency p50/p99, and
resident memory and heap in use after the sessions have expired.

    swift build -c release --package-path Examples/Comics --product comics
    python3 Examples/Comics/Scripts/load-test.py [--sessions 1000] [--intents 5]

Only the standard library; nothing is asserted (the numbers go in notes).
"""

import argparse
import asyncio
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.join(HERE, "..", ".build", "release", "comics")
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "AppSupport", "Scripts"))
from oakweb import Session, open_all, rss_kib, write_smaps  # noqa: E402


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--intents", type=int, default=5)
    parser.add_argument("--idle-minutes", type=float, default=0.25)
    parser.add_argument("--sequential", type=int, default=500, help="intents sent one at a time afterwards")
    parser.add_argument("--smaps", help="after expiry, write the server's memory map (resident kB per mapping) here")
    arguments = parser.parse_args()
    if not os.path.exists(BINARY):
        sys.exit(f"build it first: swift build -c release --package-path Examples/Comics --product comics")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))

    data_dir = tempfile.mkdtemp(prefix="oak-load-")
    log = open(os.path.join(data_dir, "server.log"), "w+")
    server = subprocess.Popen(
        [BINARY, "serve", "--port", "0", "--max-sessions", str(arguments.sessions + 10),
         "--idle-minutes", str(arguments.idle_minutes), "--data-dir", data_dir],
        stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        line = server.stdout.readline()
        port = int(re.search(r":(\d+)/", line).group(1))
        baseline = rss_kib(server.pid)

        first = Session(port)
        await first.open(ready=lambda page: 'id="comic-title"' in page)
        one = rss_kib(server.pid)

        started = time.perf_counter()
        sessions = [Session(port) for _ in range(arguments.sessions - 1)]
        await open_all(sessions, ready=lambda page: 'id="comic-title"' in page)
        opened = time.perf_counter() - started
        sessions.append(first)
        live = rss_kib(server.pid)

        names = ["comics.previous", "comics.next"]
        latencies = []
        failures = 0
        started = time.perf_counter()
        for round_number in range(arguments.intents):
            results = await asyncio.gather(*(s.intent(names[round_number % 2]) for s in sessions))
            latencies += [r for r in results if r is not None]
            failures += sum(1 for r in results if r is None)
        busy = time.perf_counter() - started
        after_intents = rss_kib(server.pid)

        # One intent at a time, from sessions in turn, all of them live: the
        # latency without the queue that a burst of every session builds
        # (after a second for the burst's last loads and pushes to finish).
        await asyncio.sleep(1)
        single = []
        for index in range(min(arguments.sequential, len(sessions))):
            result = await sessions[index].intent(names[index % 2])
            if result is not None:
                single.append(result)

        for session in sessions:
            session.close()
        # Idle time, a sweep that notices the closed pages, one that ends the
        # sessions and one that returns their memory.
        await asyncio.sleep(arguments.idle_minutes * 60 * 2 + 2)
        expired = rss_kib(server.pid)
        if arguments.smaps:
            write_smaps(server.pid, arguments.smaps)
        log.seek(0)
        # The server logs its heap in use (glibc) after each sweep that ends sessions.
        logged = log.read()
        heaps = re.findall(r"heap_in_use_bytes=(\d+)", logged)
        lives = re.findall(r"live=(\d+)", logged)

        latencies.sort()
        per_session = (live - one) * 1024 / max(1, arguments.sessions - 1)
        print(f"sessions: {arguments.sessions} (opened in {opened:.1f} s), intents: {len(latencies)} answered, "
              f"{failures} refused, in {busy:.1f} s")
        print(f"resident memory: {baseline / 1024:.1f} MiB at start, {one / 1024:.1f} MiB with one session, "
              f"{live / 1024:.1f} MiB with {arguments.sessions}, {after_intents / 1024:.1f} MiB after the intents, "
              f"{expired / 1024:.1f} MiB after expiry")
        print(f"per live session beyond the first: {per_session / 1024:.1f} KiB ({per_session / 1000:.1f} kB)")
        if heaps:
            print(f"after expiry: heap in use {int(heaps[-1]) / 1048576:.1f} MiB with {lives[-1]} sessions live "
                  f"(the server's last sweep log)")
        if latencies:
            p50 = statistics.median(latencies) * 1000
            p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
            print(f"intent to pushed page, every session at once ({arguments.intents} rounds): "
                  f"p50 {p50:.2f} ms, p99 {p99:.2f} ms")
        if single:
            single.sort()
            p50 = statistics.median(single) * 1000
            p99 = single[min(len(single) - 1, int(len(single) * 0.99))] * 1000
            print(f"intent to pushed page, one at a time ({len(single)} intents, {arguments.sessions} sessions live): "
                  f"p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    asyncio.run(main())
