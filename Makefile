# Developer entry points. CI runs .ci/run; these are the same commands by hand.

.PHONY: test bench bench-smoke

# Every test of every package of the repository: the library (Oak,
# OakTesting), the app-support package, the Comics app and the Standups
# app. CI runs this (.ci/run), plus the checks that are not tests (format, dependency rules,
# SwiftUI stand-in, DocC, benchmark smoke, TSan).

test:
	swift test
	swift test --package-path Examples/AppSupport
	swift test --package-path Examples/Comics
	swift test --package-path Examples/Standups

# The benchmark suite (Benchmarks/, package-benchmark, release build): runs
# W1-W6 next to their plain-Swift floors, prints the ratio table and writes it
# into Benchmarks/README.md. About 6-8 minutes on 2 cores, build included.
bench:
	python3 Benchmarks/compare.py --readme

# Builds the benchmark package and runs every benchmark once, briefly, with
# no target judged: a check that the suite still builds and runs.
bench-smoke:
	python3 Benchmarks/compare.py --smoke
