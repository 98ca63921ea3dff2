#!/usr/bin/env bash
# The dependency rules of the architecture (Documentation in
# Examples/Comics/README.md), beyond what the build checks: a feature never
# imports an adapter or infrastructure, infrastructure never imports a
# feature, and nothing imports the App.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
fail() { echo "dependency rule broken: $*" >&2; status=1; }

# Scenes import Oak, Common, TerminalUI and other scenes only.
while IFS= read -r hit; do
    fail "$hit (a scene must not import adapters or infrastructure)"
done < <(grep -rnE '^(@testable )?import (Services|API|HTTPClient|Persistence|FixtureServer|Hummingbird|GRDB|App)\b' Scenes || true)

# Infrastructure knows no feature.
while IFS= read -r hit; do
    fail "$hit (infrastructure must not import a feature or an adapter)"
done < <(grep -rnE '^import (ComicsScene|FavouritesScene|MainScene|Services|App)\b' \
    API HTTPClient Persistence TerminalUI FixtureServer Common || true)

# Nothing imports the injector.
while IFS= read -r hit; do
    fail "$hit (nothing imports App)"
done < <(grep -rnE '^(@testable )?import App\b' --include=*.swift . --exclude-dir=.build || true)

if [ "$status" -eq 0 ]; then echo "dependency rules hold"; fi
exit "$status"
