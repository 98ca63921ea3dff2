#!/usr/bin/env python3
"""Load test of `standups serve`'s meeting rooms, on loopback only, bounded.

Starts the release build of `standups serve` (a fresh data directory, the
meeting's clock SPEED times as fast, meetings not recorded: `--no-speech`,
since the figures are the rooms' and their pushes'), adds ROOMS stand-ups, then for each
one opens VIEWERS browser sessions that all open the stand-up and start its
meeting: the first starts the room, the others join it. While the meetings
run (MEETING seconds of wall time each), it measures:

- tick to push: when each viewer receives each tick's push (the page's
  parts that changed, or the whole page). The room's
  ticks come every 1/SPEED s from its start; the start is estimated as the
  earliest arrival of any tick of that room minus its elapsed time, so the
  figure is the time above the room's fastest push (a lower bound of the
  true latency by that fastest push, well under a millisecond on loopback);
  it includes how late the room's timer wakes;
- tick fan-out: for each tick, each viewer's page after the first viewer's
  (what pushing one tick to a room's viewers costs);
- Next to push: one viewer of each room posts Next; the time from the post
  to the page with the new speaker on each of the room's viewers (exact);
- resident memory per room (one viewer each) and per viewer beyond the
  first, and the server's CPU per room while the meetings run. The
  viewers join JOIN_BATCH at a time (32, as sessions open): what a viewer
  keeps, not the passing peak of a thousand joins at one instant, which
  the process's heap keeps as resident (`--join-batch 0` measures that
  burst);
- bytes on the wire per viewer per tick (the SSE event as sent);
- from the server's own stamps on each push (OAK_WEB_PUSH_TIMING=1): the
  time from the session's state changing to the push being written, and to
  its receipt by the generator (the generator's lateness separated out);
- with --stalled N, N more viewers of the first room whose event streams
  are open and never read (a receive buffer of 4 KiB): the server's
  resident memory when they stop reading and when the meetings end.

    swift build -c release --package-path Examples/Standups --product standups
    python3 Examples/Standups/Scripts/load-test.py [--rooms 100] [--viewers 10] [--meeting 60]

Only the standard library; nothing is asserted (the numbers go in notes).
"""

import argparse
import asyncio
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.join(HERE, "..", ".build", "release", "standups")
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "AppSupport", "Scripts"))
from oakweb import Session, open_all, percentile, rss_kib, timing, without_stamp  # noqa: E402

# A tick's push: the whole page (data-speaker on the meeting) or, once the
# page is open, only the parts that changed (the clock part, data-elapsed).
ELAPSED = re.compile(r'data-elapsed="(\d+)"')
SPEAKER = re.compile(r'data-speaker="(\d+)"')


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def add_standup(session: Session, title: str) -> str:
    """Adds a stand-up of thirty minutes with three attendees (a turn of 600
    s each, two minutes of wall time at x5: no turn ends by itself while it
    is measured, so the only change of speaker is the posted Next, which the
    tick figures leave out); returns its id."""
    await session.post("list.add")
    await session.next_page(lambda page: 'id="standup-form"' in page)
    for count in (2, 3):
        await session.post("form.addAttendee")
        _, form = await session.next_page(lambda page: page.count('name="attendee.') == count)
    names = dict(zip(re.findall(r'name="(attendee\.[0-9A-F-]+)"', form), ["Ann", "Bo", "Cy"]))
    await session.post("form.done", {"title": title, "minutes": "30", **names})
    _, page = await session.next_page(lambda page: title in page and 'id="standups"' in page)
    # The card whose title is `title` (a match never crosses a card's end).
    return re.findall(r'data-standup="([0-9A-F-]+)">(?:(?!</li>).)*<strong>' + re.escape(title) + '</strong>', page)[0]


async def join(session: Session, standup: str):
    """Opens the stand-up and starts (or joins) its meeting."""
    await session.post(f"list.open:{standup}", {})
    await session.next_page(lambda page: 'id="detail"' in page)
    await session.post("detail.start")
    await session.next_page(lambda page: 'id="question"' in page)
    await session.post("detail.continue")
    await session.next_page(lambda page: 'id="meeting"' in page)


async def watch(session: Session, room: int, until: float, arrivals: dict, sizes: list):
    """Records when each tick's push of `room` arrives, and its size on
    the wire, until `until`."""
    while time.perf_counter() < until:
        try:
            arrived, page = await asyncio.wait_for(session.pages.get(), timeout=max(until - time.perf_counter(), 0.01))
        except asyncio.TimeoutError:
            break
        speaker = SPEAKER.search(page)
        if speaker:
            session.speaker = int(speaker.group(1))
        match = ELAPSED.search(page)
        if match:
            arrivals.setdefault((room, int(match.group(1))), []).append((arrived, getattr(session, "speaker", 0), session))
            # Without the server's stamp (a diagnostic line, not sent
            # unless asked for): the bytes a browser is sent.
            sent = without_stamp(page)
            sizes.append((room, int(match.group(1)), "event: page" not in page, len(sent.encode()) + 2))


def stall(session: Session, port: int) -> socket.socket:
    """Closes the session's stream and opens another that is never read."""
    session.close()
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect(("127.0.0.1", port))
    stalled.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {session.cookie}\r\n\r\n".encode())
    return stalled


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--viewers", type=int, default=10)
    parser.add_argument("--meeting", type=float, default=60, help="seconds of wall time the meetings are measured")
    parser.add_argument("--speed", type=float, default=5, help="the meeting clock's speed (5: a 5-minute meeting in a minute)")
    parser.add_argument("--stalled", type=int, default=0, help="viewers of the first room that never read their stream")
    parser.add_argument("--join-batch", type=int, default=32,
                        help="viewers that join at once, as sessions open (0: all at once, a burst)")
    arguments = parser.parse_args()
    if not os.path.exists(BINARY):
        sys.exit("build it first: swift build -c release --package-path Examples/Standups --product standups")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))

    data_dir = tempfile.mkdtemp(prefix="oak-standups-load-")
    log = open(os.path.join(data_dir, "server.log"), "w+")
    sessions_needed = arguments.rooms * arguments.viewers + arguments.stalled + 10
    server = subprocess.Popen(
        [BINARY, "serve", "--port", "0", "--max-sessions", str(sessions_needed), "--data-dir", data_dir,
         "--speed", str(arguments.speed), "--no-speech"],
        stdout=subprocess.PIPE, stderr=log, text=True, env={**os.environ, "OAK_WEB_PUSH_TIMING": "1"})
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        baseline = rss_kib(server.pid)
        admin = Session(port)
        await admin.open()
        ids = []
        for index in range(arguments.rooms):
            ids.append(await add_standup(admin, f"Room {index:03d}"))
        admin.close()
        assert len(set(ids)) == len(ids), "every room is a stand-up of its own"

        # One viewer per room: the rooms start.
        firsts = [Session(port) for _ in ids]
        await open_all(firsts)
        before_rooms = rss_kib(server.pid)
        await asyncio.gather(*(join(session, standup) for session, standup in zip(firsts, ids)))
        with_rooms = rss_kib(server.pid)
        # The other viewers join.
        others = [[Session(port) for _ in range(arguments.viewers - 1)] for _ in ids]
        await open_all([session for group in others for session in group])
        before_viewers = rss_kib(server.pid)
        joining = [(session, standup) for group, standup in zip(others, ids) for session in group]
        batch = arguments.join_batch or len(joining) or 1
        for start in range(0, len(joining), batch):
            await asyncio.gather(*(join(session, standup) for session, standup in joining[start:start + batch]))
        with_viewers = rss_kib(server.pid)
        # Viewers of the first room that stop reading.
        stalled_sessions = [Session(port) for _ in range(arguments.stalled)]
        await open_all(stalled_sessions)
        for session in stalled_sessions:
            await join(session, ids[0])
        stalled_sockets = [stall(session, port) for session in stalled_sessions]
        with_stalled = rss_kib(server.pid)

        # The meetings run: every viewer records its pages; halfway, one
        # viewer of each room posts Next.
        arrivals = {}
        sizes = []
        viewers = [[first] + group for first, group in zip(firsts, others)]
        # The stamps of the meetings alone: not those of the pages pushed
        # while a thousand viewers opened and joined.
        for group in viewers:
            for session in group:
                session.stamps.clear()
        cpu_start = cpu_seconds(server.pid)
        wall_start = time.perf_counter()
        until = wall_start + arguments.meeting
        watchers = [asyncio.create_task(watch(session, room, until, arrivals, sizes))
                    for room, group in enumerate(viewers) for session in group]
        await asyncio.sleep(arguments.meeting / 2)
        next_posted = {}
        for room, group in enumerate(viewers):
            next_posted[room] = time.perf_counter()
            await group[0].post("meeting.next")
        await asyncio.gather(*watchers)
        cpu = cpu_seconds(server.pid) - cpu_start
        wall = time.perf_counter() - wall_start
        after_run = rss_kib(server.pid)

        # Tick to push, above each room's fastest push; before and after
        # Next apart (Next moves the meeting's time to the next speaker's
        # start).
        interval = 1 / arguments.speed
        starts = {}
        ticks = []
        # The page Next makes is not a tick: the first of each room after it.
        jumps = {}
        for (room, elapsed), received in arrivals.items():
            if any(speaker >= 1 for _, speaker, _ in received):
                jumps[room] = min(jumps.get(room, elapsed), elapsed)
        for (room, elapsed), received in arrivals.items():
            for arrived, speaker, _ in received:
                if speaker >= 1 and elapsed == jumps.get(room):
                    continue
                key = (room, speaker >= 1)
                start = arrived - elapsed * interval
                starts[key] = min(starts.get(key, start), start)
                ticks.append((key, elapsed, arrived))
        tick_latencies = [arrived - (starts[key] + elapsed * interval) for key, elapsed, arrived in ticks]
        # Fan-out: each viewer's page of a tick after the first viewer's.
        fan_out = []
        for (room, elapsed), received in arrivals.items():
            if elapsed == jumps.get(room):
                continue
            first = min(arrived for arrived, _, _ in received)
            fan_out += [arrived - first for arrived, _, _ in received]
        # Next to push: the first page of each viewer showing speaker 1
        # after the post.
        next_latencies = []
        for room, posted in next_posted.items():
            seen = {}
            for (r, _), received in arrivals.items():
                if r != room:
                    continue
                for arrived, speaker, session in received:
                    if speaker >= 1 and arrived >= posted:
                        seen[id(session)] = min(seen.get(id(session), arrived), arrived)
            next_latencies += [arrived - posted for arrived in seen.values()]

        per_room = (with_rooms - before_rooms) * 1024 / arguments.rooms
        viewers_beyond = arguments.rooms * (arguments.viewers - 1)
        per_viewer = (with_viewers - with_rooms) * 1024 / max(viewers_beyond, 1)
        per_join = (with_viewers - before_viewers) * 1024 / max(viewers_beyond, 1)
        print(f"rooms: {arguments.rooms}, viewers per room: {arguments.viewers}, meeting clock x{arguments.speed:g} "
              f"(a tick every {interval * 1000:.0f} ms), measured for {wall:.1f} s")
        print(f"pages received: {len(tick_latencies)}")
        print(f"resident memory: {baseline / 1024:.1f} MiB at start, {with_rooms / 1024:.1f} MiB with the rooms, "
              f"{with_viewers / 1024:.1f} MiB with every viewer")
        print(f"per room (its run and its first viewer's join): {per_room / 1024:.1f} KiB; "
              f"per viewer beyond the first (its session, page and join): {per_viewer / 1000:.1f} kB, "
              f"of which joining the meeting: {per_join / 1000:.1f} kB")
        print(f"server CPU while the meetings ran: {cpu:.2f} s over {wall:.1f} s "
              f"({cpu / wall * 100:.0f} % of a core; {cpu / wall / arguments.rooms * 1000:.2f} ms per second per room)")
        if tick_latencies:
            print(f"tick to push (above the room's fastest push): p50 {statistics.median(tick_latencies) * 1000:.2f} ms, "
                  f"p99 {percentile(tick_latencies, 0.99) * 1000:.2f} ms, max {max(tick_latencies) * 1000:.2f} ms")
        if fan_out:
            print(f"tick fan-out (each viewer's page after the room's first): p50 {statistics.median(fan_out) * 1000:.2f} ms, "
                  f"p99 {percentile(fan_out, 0.99) * 1000:.2f} ms")
        if sizes:
            partial = [size for _, _, is_parts, size in sizes if is_parts]
            whole = [size for _, _, is_parts, size in sizes if not is_parts]
            print(f"bytes on the wire per viewer per tick: mean {statistics.mean(size for *_, size in sizes):.0f} "
                  f"({len(partial)} pushes of parts, mean {statistics.mean(partial) if partial else 0:.0f} B; "
                  f"{len(whole)} whole pages, mean {statistics.mean(whole) if whole else 0:.0f} B)")
        stamped = timing([session for group in viewers for session in group])
        if stamped:
            (written50, written99), (received50, received99), count = stamped
            print(f"from the server's stamps while the meetings ran ({count} pushes; from the session being told "
                  f"that what its page "
                  f"shows changed, the room's publication): written p50 {written50:.2f} ms, p99 {written99:.2f} ms; "
                  f"received p50 {received50:.2f} ms, p99 {received99:.2f} ms")
        if next_latencies:
            print(f"Next to push on every viewer ({len(next_latencies)} pages): "
                  f"p50 {statistics.median(next_latencies) * 1000:.2f} ms, p99 {percentile(next_latencies, 0.99) * 1000:.2f} ms")
        if arguments.stalled:
            print(f"{arguments.stalled} viewers of room 0 never reading: {with_stalled / 1024:.1f} MiB when they "
                  f"stopped, {after_run / 1024:.1f} MiB after {wall:.0f} s of meetings "
                  f"({(after_run - with_stalled) / max(arguments.stalled, 1):.1f} KiB more per stalled viewer)")
        else:
            print(f"resident memory after the meetings ran: {after_run / 1024:.1f} MiB")
        for stalled in stalled_sockets:
            stalled.close()
        for group in viewers:
            for session in group:
                session.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    asyncio.run(main())
