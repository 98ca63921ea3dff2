# Developer entry points. CI runs .ci/run; these are the same commands by hand.

.PHONY: test test-template bench bench-smoke

# Every test of every package of the repository: the library (Oak,
# OakTesting), the app-support package, the Comics app and the Standups
# app, and of a new app made from the template. CI runs this (.ci/run), plus
# the checks that are not tests (format, dependency rules, SwiftUI stand-in,
# DocC of the library and of AppSupport, benchmark smoke, TSan).

#
# AppSupport, the two apps and the template's app share one build folder,
# APPS_BUILD: their dependencies (GRDB, Hummingbird, postgres-nio, NIO…)
# are the same, and built once there instead of once per package (about
# nine minutes each on two cores). Each `swift test` builds its own package
# first, so it runs its own tests. Nothing of one package overwrites
# another's: SwiftPM refuses a module name twice in one package graph, and
# each app's own modules carry its name (decision 0053).
APPS_BUILD ?= $(CURDIR)/.build-apps

test:
	swift test
	swift test --package-path AppSupport --scratch-path "$(APPS_BUILD)"
	swift test --package-path Examples/Comics --scratch-path "$(APPS_BUILD)"
	swift test --package-path Examples/Standups --scratch-path "$(APPS_BUILD)"
	$(MAKE) test-template

# A new app made by Scripts/new-app in a temporary folder, and its tests,
# built in APPS_BUILD: its dependencies are AppSupport's, already built
# there, so only the app's own modules are compiled.
test-template:
	@dir=$$(mktemp -d /tmp/oak-new-app.XXXXXX) && trap 'rm -rf "$$dir"' EXIT && \
	Scripts/new-app notes "$$dir/notes" && \
	swift test --package-path "$$dir/notes" --scratch-path "$(APPS_BUILD)"

# The benchmark suite (Benchmarks/, package-benchmark, release build): runs
# W1-W6 next to their plain-Swift floors, prints the ratio table and writes it
# into Benchmarks/README.md. About 6-8 minutes on 2 cores, build included.
bench:
	python3 Benchmarks/compare.py --readme

# Builds the benchmark package and runs every benchmark once, briefly, with
# no target judged: a check that the suite still builds and runs.
bench-smoke:
	python3 Benchmarks/compare.py --smoke
