"""What the load tests of the apps' web front ends share: HTTP on loopback
with the standard library only, a browser session (its cookie, token and
event stream), and a process's resident memory."""

import asyncio
import re
import time
import urllib.parse


# The server's stamp on a push (OAK_WEB_PUSH_TIMING=1), a comment line.
# An event's name ("page"; parts go unnamed, "stopping" is not a page).
EVENT_NAME = re.compile(r"^event: (.*)$", re.M)
STAMP = re.compile(r"^: changed (\d+) written (\d+)\n", re.MULTILINE)


def without_stamp(text):
    """`text` without the server's stamp: what a browser is sent."""
    return STAMP.sub("", text, count=1)


def timing(sessions):
    """From the server's stamps on every push (OAK_WEB_PUSH_TIMING=1):
    state changed -> written and state changed -> received, in ms, as
    (p50, p99) pairs; None without stamps."""
    written = [(w - c) / 1000 for s in sessions for c, w, _ in s.stamps]
    received = [(r - c) / 1000 for s in sessions for c, _, r in s.stamps]
    if not written:
        return None
    return ((percentile(written, 0.5), percentile(written, 0.99)),
            (percentile(received, 0.5), percentile(received, 0.99)), len(written))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def write_smaps(pid: int, path: str):
    """The resident kB of each mapping of `pid`, largest first: what holds
    the memory a process keeps (heap arenas, thread stacks, libraries)."""
    mappings = []
    current = None
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            fields = line.split()
            if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                current = [line.strip(), 0]
                mappings.append(current)
            elif fields and fields[0] == "Rss:" and current is not None:
                current[1] = int(fields[1])
    mappings.sort(key=lambda mapping: -mapping[1])
    with open(path, "w") as output:
        for header, rss in mappings:
            output.write(f"{rss:8d} kB  {header}\n")


async def request(port, method, path, cookie=None, body=None, headers=None):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    data = body.encode() if body else b""
    if body is not None:
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(data)}"]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
    await writer.drain()
    response = await reader.read()
    writer.close()
    head, _, content = response.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, head.decode(errors="replace"), content.decode(errors="replace")


class Session:
    def __init__(self, port):
        self.port = port
        self.cookie = None
        self.token = None
        self.pages = asyncio.Queue()
        self.reader = None
        self.writer = None
        # With OAK_WEB_PUSH_TIMING=1 in the server's environment: for each
        # push, (changed, written, received) in microseconds since 1970.
        self.stamps = []

    async def open(self, ready=lambda page: True):
        """Opens a session as a browser does (GET /, then its event
        stream) and waits for a pushed page for which `ready` holds."""
        status, head, page = await request(self.port, "GET", "/")
        if status != 200:
            raise RuntimeError(f"GET / answered {status}")
        match = re.search(r"Set-Cookie: (oak_session=[0-9a-f]+)", head)
        self.cookie = match.group(1)
        # The page's token, for its intents (pushed content carries none).
        self.token = re.search(r'<meta name="oak-token" content="([0-9a-f]+)"', page).group(1)
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(
            (f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nCookie: {self.cookie}\r\n\r\n").encode())
        await self.writer.drain()
        asyncio.get_running_loop().create_task(self.read_events())
        while True:
            # A stream that never brings a page (the session was refused
            # or ended) fails here rather than hanging the load test.
            _, page = await asyncio.wait_for(self.pages.get(), timeout=30)
            if ready(page):
                break

    async def read_events(self):
        buffer = b""
        try:
            while True:
                chunk = await self.reader.read(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    text = event.decode(errors="replace")
                    # Whole pages and parts pushed alone alike (a page is
                    # "event: page", parts go unnamed; a comment such as
                    # ": ping" has no data), and its length (with the blank
                    # line) is what the wire carried.
                    name = EVENT_NAME.search(text)
                    if "\ndata: " in "\n" + text and (name is None or name.group(1) == "page"):
                        self.pages.put_nowait((time.perf_counter(), text))
                        # (The stream is chunked: a chunk's size may lead.)
                        stamp = STAMP.search(text)
                        if stamp:
                            self.stamps.append(
                                (int(stamp.group(1)), int(stamp.group(2)), int(time.time() * 1_000_000)))
        except (ConnectionError, asyncio.CancelledError):
            pass

    async def post(self, name, fields=None):
        """Posts intent `name` (with `fields`) as the page's script does;
        returns the status."""
        body = f"token={self.token}&intent={urllib.parse.quote(name)}"
        for key, value in (fields or {}).items():
            body += f"&{urllib.parse.quote(key)}={urllib.parse.quote(value)}"
        status, _, _ = await request(self.port, "POST", "/intent", self.cookie, body, {"X-Oak-Intent": "fetch"})
        return status

    async def next_page(self, condition, timeout=30):
        """The next pushed page for which `condition` holds, and when it
        arrived."""
        while True:
            arrived, page = await asyncio.wait_for(self.pages.get(), timeout=timeout)
            if condition(page):
                return arrived, page

    async def intent(self, name):
        """Posts `name`; returns seconds until the next pushed page."""
        while not self.pages.empty():
            self.pages.get_nowait()
        started = time.perf_counter()
        status, _, _ = await request(
            self.port, "POST", "/intent", self.cookie, f"token={self.token}&intent={name}",
            {"X-Oak-Intent": "fetch"})
        if status != 204:
            return None
        arrived, _ = await asyncio.wait_for(self.pages.get(), timeout=30)
        return arrived - started

    def close(self):
        if self.writer:
            self.writer.close()


async def open_all(sessions, ready=lambda page: True, batch=32):
    """Opens `sessions` (see `Session.open`), at most `batch` at a time: the
    host keeps at most 64 sessions of one client address provisional (made,
    their cookie not yet back), and a load generator is one address."""
    for start in range(0, len(sessions), batch):
        await asyncio.gather(*(session.open(ready) for session in sessions[start:start + batch]))
