#!/usr/bin/env python3
"""The async frames of a Swift binary, the largest first.

Every async function's frame (its "context") is allocated on its task's
allocator when it is called; a task keeps the slabs of its deepest stack
for as long as it lives. A long-lived task (a run's loop, an operation that
follows something, a connection's handler) therefore costs at least the
frames it ever reached. This lists the frame size the compiler recorded for
each async function (its async function pointer: a relative offset and the
context size, 8 bytes), so that a change can be checked against it:

    swift build -c release --package-path Examples/Standups --product standups
    python3 Scripts/async-frames.py Examples/Standups/.build/release/standups [--top 40] [--match StandupDetail] [--full]

ELF binaries (Linux) only; needs readelf, nm and `swift demangle`.
"""

import argparse
import struct
import subprocess


def sections(binary):
    found = []
    listing = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        parts = line.replace("[ ", "[").split()
        if len(parts) > 6 and parts[0].startswith("[") and parts[0] != "[Nr]":
            try:
                found.append((int(parts[3], 16), int(parts[4], 16), int(parts[5], 16), parts[1]))
            except ValueError:
                pass
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--match", help="only functions whose demangled name contains this")
    parser.add_argument("--full", action="store_true", help="full demangled names (generic arguments)")
    arguments = parser.parse_args()

    places = sections(arguments.binary)
    symbols = subprocess.run(["nm", arguments.binary], capture_output=True, text=True, check=True).stdout
    pointers = []
    for line in symbols.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2].endswith("Tu"):
            pointers.append((int(fields[0], 16), fields[2]))
    with open(arguments.binary, "rb") as file:
        data = file.read()
    sizes = []
    for address, name in pointers:
        for start, offset, size, section in places:
            if start <= address < start + size and section != ".bss":
                at = offset + (address - start)
                _, context = struct.unpack("<iI", data[at:at + 8])
                sizes.append((context, name))
                break
    demangle = ["swift", "demangle"] + ([] if arguments.full else ["--simplified"])
    names = subprocess.run(demangle, input="\n".join(name for _, name in sizes), capture_output=True, text=True,
                           check=True).stdout.splitlines()
    rows = sorted(((size, name.replace("async function pointer to ", "")) for (size, _), name in zip(sizes, names)),
                  reverse=True)
    if arguments.match:
        rows = [row for row in rows if arguments.match in row[1]]
    for size, name in rows[:arguments.top]:
        print(f"{size:7d}  {name}")


if __name__ == "__main__":
    main()
