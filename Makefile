# Developer entry points. CI runs .ci/run; these are the same commands by hand.

.PHONY: test test-template bench bench-smoke

# Every test of every package of the repository: the library (Oak,
# OakTesting), the app-support package, the Comics app and the Standups
# app, and of a new app made from the template. CI runs this (.ci/run), plus
# the checks that are not tests (format, dependency rules, SwiftUI stand-in,
# DocC of the library and of AppSupport, benchmark smoke, TSan).

test:
	swift test
	swift test --package-path AppSupport
	swift test --package-path Examples/Comics
	swift test --package-path Examples/Standups
	$(MAKE) test-template

# A new app made by Scripts/new-app in a temporary folder, and its tests.
# Built in AppSupport's build folder: its dependencies are AppSupport's,
# already built there, so only the app's own modules are compiled (its
# module names are its own: nothing of AppSupport's is overwritten).
test-template:
	@dir=$$(mktemp -d /tmp/oak-new-app.XXXXXX) && trap 'rm -rf "$$dir"' EXIT && \
	Scripts/new-app notes "$$dir/notes" && \
	swift test --package-path "$$dir/notes" --scratch-path "$(CURDIR)/AppSupport/.build"

# The benchmark suite (Benchmarks/, package-benchmark, release build): runs
# W1-W6 next to their plain-Swift floors, prints the ratio table and writes it
# into Benchmarks/README.md. About 6-8 minutes on 2 cores, build included.
bench:
	python3 Benchmarks/compare.py --readme

# Builds the benchmark package and runs every benchmark once, briefly, with
# no target judged: a check that the suite still builds and runs.
bench-smoke:
	python3 Benchmarks/compare.py --smoke
