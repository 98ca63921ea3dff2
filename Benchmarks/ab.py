#!/usr/bin/env python3
"""Compares Oak with itself across two builds: runs OakProfile binaries in
alternation (A, B, A, B, ...) on the same workloads and prints each side's
median and range in ns per item.

Ratios to floors from different `make bench` runs move with the machine's
load; alternating two binaries within one minute does not. Build each side's
OakProfile first, for example the committed state in a worktree:

    git worktree add /tmp/oak-base HEAD
    swift build --package-path /tmp/oak-base/Benchmarks -c release --product OakProfile
    swift build --package-path Benchmarks -c release --product OakProfile
    python3 Benchmarks/ab.py /tmp/oak-base/Benchmarks/.build/release/OakProfile \\
        Benchmarks/.build/release/OakProfile w1:2000000 w2:2000000 w4:2000000

Each workload is `name:n` (OakProfile's workload names, Oak's side only).
"""

import argparse
import re
import statistics
import subprocess
import sys


def run(binary, workload, n, repeats):
    out = subprocess.run(
        [binary, workload, "oak", str(n), str(repeats)], capture_output=True, text=True, check=True
    ).stdout
    match = re.search(r"([0-9.]+) ns per item", out)
    if not match:
        sys.exit(f"{binary} {workload}: no 'ns per item' in its output:\n{out}")
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", help="OakProfile binary of side A (before)")
    parser.add_argument("b", help="OakProfile binary of side B (after)")
    parser.add_argument("workloads", nargs="+", help="name:n, e.g. w2:2000000")
    parser.add_argument("--rounds", type=int, default=5, help="alternations per workload (default 5)")
    parser.add_argument("--repeats", type=int, default=1, help="OakProfile's repeat argument (default 1)")
    args = parser.parse_args()

    print(f"| workload | n | A median (min–max) | B median (min–max) | B / A |")
    print(f"| --- | ---: | ---: | ---: | ---: |")
    for spec in args.workloads:
        name, _, count = spec.partition(":")
        n = int(count or "100000")
        samples = {"a": [], "b": []}
        for _ in range(args.rounds):
            samples["a"].append(run(args.a, name, n, args.repeats))
            samples["b"].append(run(args.b, name, n, args.repeats))
        a, b = samples["a"], samples["b"]
        ma, mb = statistics.median(a), statistics.median(b)
        print(
            f"| {name} | {n:,} | {ma:.1f} ({min(a):.1f}–{max(a):.1f}) | {mb:.1f} ({min(b):.1f}–{max(b):.1f}) "
            f"| {mb / ma:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
