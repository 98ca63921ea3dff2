#!/usr/bin/env python3
"""Two `comics serve` processes on one PostgreSQL database, on loopback only.

Starts two release builds of `comics serve --database URL` (offline
catalog), opens SESSIONS browser sessions on the second, each showing its
favourites, and one session on the first, which keeps and lets go of the
latest comic as a favourite CHANGES times, one change at a time. For each
change it measures, for every session of the second process, the time from
posting the intent to the first process to the page the second one pushes
with the change. Reports p50/p99 of that time; per change, from the second
process's own stamps (OAK_WEB_PUSH_TIMING=1, the time the change was
published there — its favourites list's publication — and the time each
push was written), the crossing (posted → published), the fan-out
(published → written to the last session), both (posted → written to the
last session: the change on every session, the generator's lateness left
out), and the fan-out to the last receipt (which adds the client's own
lateness on the same cores); and each process's resident memory and CPU
time.

    swift build -c release --package-path Examples/Comics --product comics
    Scripts/postgres-cluster.sh start /tmp/oak-pg 55433   # or any server
    python3 Examples/Comics/Scripts/two-process-load-test.py \\
        --database postgres://oak@127.0.0.1:55433/oak [--sessions 1000] [--changes 50]

Only the standard library; nothing is asserted (the numbers go in notes).
The favourite of the latest comic (#420) is toggled in that database.
"""

import argparse
import asyncio
import os
import re
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.join(HERE, "..", ".build", "release", "comics")
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "AppSupport", "Scripts"))
from oakweb import Session, percentile, rss_kib  # noqa: E402

LATEST = 'data-number="420"'


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(arguments):
    server = subprocess.Popen(
        [BINARY, "serve", "--port", "0", "--max-sessions", str(arguments.sessions + 10),
         "--database", arguments.database],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "OAK_WEB_PUSH_TIMING": "1"})
    line = server.stdout.readline()
    match = re.search(r":(\d+)/", line)
    if not match:
        server.kill()
        sys.exit(f"comics serve did not start: {line!r}")
    return server, int(match.group(1))


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default=os.environ.get("OAK_TEST_POSTGRES"),
                        help="a postgres:// URL (default: $OAK_TEST_POSTGRES)")
    parser.add_argument("--sessions", type=int, default=1000, help="sessions on the second process")
    parser.add_argument("--changes", type=int, default=50)
    arguments = parser.parse_args()
    if not arguments.database:
        sys.exit("give --database postgres://user@127.0.0.1:PORT/db (or set OAK_TEST_POSTGRES)")
    if not os.path.exists(BINARY):
        sys.exit("build it first: swift build -c release --package-path Examples/Comics --product comics")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))

    first, first_port = start(arguments)
    second, second_port = start(arguments)
    try:
        baseline = (rss_kib(first.pid), rss_kib(second.pid))
        writer = Session(first_port)
        await writer.open(ready=lambda page: 'id="comic-title"' in page)

        def favourites(page):
            return 'id="favourites-list"' in page or 'id="favourites-empty"' in page

        async def reader():
            session = Session(second_port)
            await session.open(ready=lambda page: 'id="comic-title"' in page)
            if await session.post("main.showFavourites") != 204:
                raise RuntimeError("the favourites could not be shown")
            _, page = await session.next_page(favourites)
            return session, LATEST in page

        started = time.perf_counter()
        # In batches: a client holds at most 64 sessions not yet confirmed
        # (the host's limit on first visits per address).
        opened = []
        for first_of_batch in range(0, arguments.sessions, 32):
            batch = min(32, arguments.sessions - first_of_batch)
            opened += await asyncio.gather(*(reader() for _ in range(batch)))
        readers = [session for session, _ in opened]
        kept = opened[0][1]
        print(f"{arguments.sessions} sessions on the second process, opened in {time.perf_counter() - started:.1f} s")
        cpu_before = (cpu_seconds(first.pid), cpu_seconds(second.pid))
        for session in readers:
            session.stamps.clear()

        latencies = []
        fastest = []
        # Per change, from the second's stamps: posted -> published there,
        # published -> written to the last session, and -> received by it.
        crossings, fan_outs, receipts, ends = [], [], [], []
        missed = 0
        for _ in range(arguments.changes):
            for session in readers + [writer]:
                while not session.pages.empty():
                    session.pages.get_nowait()
            kept = not kept
            posted = time.perf_counter()
            posted_at = int(time.time() * 1_000_000)
            for session in readers:
                session.stamps.clear()
            status = await writer.post("comics.toggleFavourite")
            if status != 204:
                raise RuntimeError(f"the change was refused: {status}")

            async def pushed(session, kept=kept):
                arrived, _ = await session.next_page(lambda page: favourites(page) and (LATEST in page) == kept)
                return arrived - posted

            results = await asyncio.gather(*(pushed(session) for session in readers), return_exceptions=True)
            pushes = [result for result in results if isinstance(result, float)]
            latencies += pushes
            if pushes:
                fastest.append(min(pushes))
            missed += sum(1 for result in results if not isinstance(result, float))
            stamps = [stamp for session in readers for stamp in session.stamps[-1:]]
            if stamps:
                published = min(changed for changed, _, _ in stamps)
                crossings.append((published - posted_at) / 1000)
                fan_outs.append((max(written for _, written, _ in stamps) - published) / 1000)
                ends.append((max(written for _, written, _ in stamps) - posted_at) / 1000)
                receipts.append((max(received for _, _, received in stamps) - published) / 1000)
            # The writer's own page settles before the next change.
            await writer.next_page(lambda page: 'id="comic-title"' in page, timeout=10)

        cpu_after = (cpu_seconds(first.pid), cpu_seconds(second.pid))
        live = (rss_kib(first.pid), rss_kib(second.pid))
        latencies.sort()
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
        print(f"{arguments.changes} changes through the first process, {len(latencies)} pushes on the second, "
              f"{missed} missed")
        print(f"change on the first to page pushed by the second: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
              f"max {latencies[-1] * 1000:.1f} ms")
        fastest.sort()
        print(f"the same, the first session of the second to get each change (the crossing, without the fan-out): "
              f"p50 {statistics.median(fastest) * 1000:.1f} ms, "
              f"p99 {fastest[min(len(fastest) - 1, int(len(fastest) * 0.99))] * 1000:.1f} ms")
        if crossings:
            print(f"per change, from the second's stamps ({len(crossings)} changes): posted to the first → the list "
                  f"published on the second p50 {percentile(crossings, 0.5):.1f} ms, "
                  f"p99 {percentile(crossings, 0.99):.1f} ms; published → written to every session p50 "
                  f"{percentile(fan_outs, 0.5):.1f} ms, p99 {percentile(fan_outs, 0.99):.1f} ms; → received by "
                  f"every session p50 {percentile(receipts, 0.5):.1f} ms, p99 {percentile(receipts, 0.99):.1f} ms")
            print(f"change → page written to every session (posted to the first → the last push written by the "
                  f"second, the generator's lateness left out): p50 {percentile(ends, 0.5):.1f} ms, "
                  f"p99 {percentile(ends, 0.99):.1f} ms")
        print(f"resident memory: first {baseline[0] / 1024:.1f} → {live[0] / 1024:.1f} MiB, "
              f"second {baseline[1] / 1024:.1f} → {live[1] / 1024:.1f} MiB")
        print(f"CPU during the changes: first {cpu_after[0] - cpu_before[0]:.2f} s, "
              f"second {cpu_after[1] - cpu_before[1]:.2f} s")
        for session in readers + [writer]:
            session.close()
    finally:
        for server in (first, second):
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    asyncio.run(main())
