# Developer entry points. CI runs .ci/run; these are the same commands by hand.

.PHONY: test bench bench-smoke

# Every test of every package of the repository: the library (Oak,
# OakTesting), the app-support package, the Comics app and the Standups
# app. CI runs this (.ci/run), plus the checks that are not tests (format, dependency rules,
# SwiftUI stand-in, DocC, benchmark smoke, TSan).
#
# The three example packages share one build folder (Examples/.build): they
# depend on the same packages (SwiftNIO, Hummingbird, postgres-nio, GRDB),
# which are then compiled once instead of three times. Each `swift test`
# builds its package first; do not add --skip-build here: with a shared
# folder, SwiftPM then runs the test bundle of the package built last.
EXAMPLES_BUILD = --scratch-path Examples/.build

test:
	swift test
	swift test --package-path Examples/AppSupport $(EXAMPLES_BUILD)
	swift test --package-path Examples/Comics $(EXAMPLES_BUILD)
	swift test --package-path Examples/Standups $(EXAMPLES_BUILD)

# The benchmark suite (Benchmarks/, package-benchmark, release build): runs
# W1-W6 next to their plain-Swift floors, prints the ratio table and writes it
# into Benchmarks/README.md. About 6-8 minutes on 2 cores, build included.
bench:
	python3 Benchmarks/compare.py --readme

# Builds the benchmark package and runs every benchmark once, briefly, with
# no target judged: a check that the suite still builds and runs.
bench-smoke:
	python3 Benchmarks/compare.py --smoke
