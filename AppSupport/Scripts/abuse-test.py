#!/usr/bin/env python3
"""The web host against the abuse of issue 35, from the outside: silent
sockets, a flood of first visits, a burst of connections, foreign Host
headers and requests the parser refuses. Runs against a server already
listening on 127.0.0.1 (any app's `serve`), and prints what it measured.

    swift build -c release --package-path Examples/Standups --product standups
    Examples/Standups/.build/release/standups serve --port 8080 --max-sessions 20 &
    python3 AppSupport/Scripts/abuse-test.py --port 8080 --pid $!

Every loop is bounded in count and time; it sends to 127.0.0.1 only."""

import argparse
import asyncio
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from oakweb import request, rss_kib  # noqa: E402


async def open_silent(port, count):
    """`count` connections that send nothing."""
    sockets = []
    for _ in range(count):
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
            sockets.append((reader, writer))
        except (OSError, asyncio.TimeoutError):
            break
    return sockets


def still_open(connections):
    """How many of `connections` the server has not closed (the event loop
    reads continuously: a closed one has seen the end of its stream)."""
    return sum(1 for reader, _ in connections if not reader.at_eof())


async def timed_get(port, timeout=60.0):
    started = time.monotonic()
    try:
        status, head, _ = await asyncio.wait_for(request(port, "GET", "/"), timeout)
    except (asyncio.TimeoutError, OSError, IndexError, ValueError):
        return None, time.monotonic() - started, ""
    return status, time.monotonic() - started, head


async def raw(port, data, timeout=15.0):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    try:
        answer = await asyncio.wait_for(reader.read(), timeout)
    except asyncio.TimeoutError:
        answer = b"(no answer)"
    writer.close()
    return answer.split(b"\r\n", 1)[0].decode(errors="replace") or "(closed, no status)"


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, help="the server's process, for its resident memory")
    parser.add_argument("--silent", type=int, default=300, help="silent sockets held open")
    parser.add_argument("--flood", type=int, default=1_000, help="cookie-less GET / sent")
    parser.add_argument("--burst", type=int, default=2_000, help="connections opened and closed at once")
    args = parser.parse_args()
    port = args.port
    rows = []

    # Silent sockets: how many the server still holds, and how long a
    # normal client waits meanwhile.
    opened = time.monotonic()
    silent = await open_silent(port, args.silent)
    status, waited, _ = await timed_get(port)
    rows.append((f"{len(silent)} silent sockets: a normal GET /", f"{status}, after {waited:.2f} s"))
    for mark in (5, 11, 15):
        await asyncio.sleep(max(0.0, opened + mark - time.monotonic()))
        rows.append((f"silent sockets still open {mark} s after opening", f"{still_open(silent)} of {len(silent)}"))
    for _, writer in silent:
        writer.close()

    # A flood of first visits, then a browser.
    started = time.monotonic()
    statuses = {}

    async def flood(worker):
        for _ in range(worker, args.flood, 8):
            status, _, _ = await timed_get(port, timeout=30)
            statuses[status] = statuses.get(status, 0) + 1

    await asyncio.gather(*(flood(worker) for worker in range(8)))
    rows.append((f"{args.flood} cookie-less GET /", f"{statuses} in {time.monotonic() - started:.1f} s"))
    status, _, head = await timed_get(port)
    cookie = next((line.split(":", 1)[1].split(";")[0].strip() for line in head.split("\r\n")
                   if line.lower().startswith("set-cookie:")), None)
    confirmed = None
    if cookie:
        confirmed, _, _ = await asyncio.wait_for(request(port, "GET", "/app.js", cookie=cookie), 30)
    rows.append(("a browser after the flood: GET /, then its script", f"{status} (cookie: {bool(cookie)}), {confirmed}"))

    # A burst of connections, and the memory it leaves.
    before = rss_kib(args.pid) if args.pid else 0
    burst = await open_silent(port, args.burst)
    during = rss_kib(args.pid) if args.pid else 0
    for _, writer in burst:
        writer.close()
    await asyncio.sleep(40)  # past the host's next sweep (every 30 s at most), which trims the heap
    after = rss_kib(args.pid) if args.pid else 0
    rows.append((f"resident memory: before, with {len(burst)} connections, 40 s after they closed",
                 f"{before / 1024:.1f} / {during / 1024:.1f} / {after / 1024:.1f} MB"))

    # Names and requests the server must refuse.
    for host in (f"attacker.example:{port}", f"localhost:{port}"):
        answer = await raw(port, f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        rows.append((f"GET / with Host: {host}", answer))
    rows.append(("GET / with two Host fields, the second foreign", await raw(
        port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n")))
    rows.append(("BREW / HTTP/1.1", await raw(port, b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")))
    rows.append(("a 100 kB request line", await raw(
        port, b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")))
    rows.append(("a 100 kB header", await raw(
        port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n")))

    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")


if __name__ == "__main__":
    asyncio.run(main())
