#!/usr/bin/env bash
# The dependency rules of the architecture (Documentation in
# Examples/Comics/README.md), beyond what the build checks: a feature never
# imports an adapter or infrastructure, infrastructure never imports a
# feature, and nothing imports the App.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
fail() { echo "dependency rule broken: $*" >&2; status=1; }

# Scenes import Oak, Common, TerminalUI, WebUI and other scenes only.
while IFS= read -r hit; do
    fail "$hit (a scene must not import adapters or infrastructure)"
done < <(grep -rnE '^(@testable )?import (Services|API|HTTPClient|Persistence|FixtureServer|Hummingbird|HummingbirdCore|NIOCore|GRDB|WebServer|App)\b' Scenes || true)

# Infrastructure knows no feature.
while IFS= read -r hit; do
    fail "$hit (infrastructure must not import a feature or an adapter)"
done < <(grep -rnE '^import (ComicsScene|FavouritesScene|MainScene|Services|WebServer|App)\b' \
    API HTTPClient Persistence TerminalUI WebUI FixtureServer Common || true)

# The web front end renders and routes; it knows no adapter or storage.
while IFS= read -r hit; do
    fail "$hit (the web front end must not import adapters or infrastructure other than WebUI)"
done < <(grep -rnE '^import (Services|API|HTTPClient|Persistence|FixtureServer|GRDB|TerminalUI|App)\b' WebServer || true)

# Nothing imports the injector.
while IFS= read -r hit; do
    fail "$hit (nothing imports App)"
done < <(grep -rnE '^(@testable )?import App\b' --include=*.swift . --exclude-dir=.build || true)

if [ "$status" -eq 0 ]; then echo "dependency rules hold"; fi
exit "$status"
