#!/usr/bin/env bash
# The dependency rules of the architecture (Documentation/Decisions, the
# apps' READMEs), beyond what the build checks with
# --explicit-target-dependency-import-check: infrastructure never imports a
# feature or an app, a feature never imports an adapter or infrastructure
# below it, the web front ends know no storage, nothing imports an app's
# injector, and shipped programs link no test library.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
fail() { echo "dependency rule broken: $*" >&2; status=1; }
check() {
    # check "why" path... -- pattern: fail for every import matching the pattern under the paths.
    local why=$1 pattern=$2
    shift 2
    while IFS= read -r hit; do
        fail "$hit ($why)"
    done < <(grep -rnE --include=*.swift --exclude-dir=.build "$pattern" "$@" || true)
}

# --- AppSupport: the infrastructure every app plugs into.
apps='Comics|Standups'
app_modules='ComicsScene|FavouritesScene|MainScene|Services|WebServer|API|Persistence|PostgresPersistence|FixtureServer|App|PostgresStandups'
check "infrastructure must not import an app's module" \
    "^(@testable )?import ($app_modules|Standups[A-Za-z]*)\b" Examples/AppSupport/Sources Examples/AppSupport/Tests
check "infrastructure must not reach into an app's package" "\.\./($apps)/" Examples/AppSupport/Package.swift
check "a shipped module must not import a test library" \
    '^import (OakTesting|Testing|XCTest|TerminalTesting|WebTesting|PostgresTesting)\b' \
    Examples/AppSupport/Sources/Common Examples/AppSupport/Sources/TerminalUI Examples/AppSupport/Sources/WebUI \
    Examples/AppSupport/Sources/WebHost Examples/AppSupport/Sources/HTTPClient Examples/AppSupport/Sources/ServerSupport \
    Examples/AppSupport/Sources/SQLiteSupport Examples/AppSupport/Sources/PostgresSupport

# --- Comics.
cd Examples/Comics
check "a scene must not import adapters or infrastructure below it" \
    '^(@testable )?import (Services|API|HTTPClient|Persistence|PostgresPersistence|PostgresSupport|PostgresNIO|FixtureServer|Hummingbird|HummingbirdCore|NIOCore|GRDB|WebServer|WebHost|ServerSupport|App)\b' \
    Scenes
check "infrastructure must not import a feature or an adapter" \
    '^import (ComicsScene|FavouritesScene|MainScene|Services|WebServer|App)\b' API Persistence PostgresPersistence \
    FixtureServer
check "the adapters know the store's port, never an engine's adapter" \
    '^import (PostgresPersistence|PostgresSupport|PostgresNIO|GRDB)\b' Services
check "the web front end must not import adapters or storage" \
    '^import (Services|API|HTTPClient|Persistence|PostgresPersistence|PostgresSupport|PostgresNIO|FixtureServer|GRDB|TerminalUI|App)\b' WebServer
check "nothing imports App" '^(@testable )?import App\b' .
check "the shipped program must not link a test library" \
    '^import (OakTesting|Testing|XCTest|TerminalTesting|WebTesting|PostgresTesting)\b' App Scenes Services API \
    Persistence PostgresPersistence FixtureServer WebServer
if awk '/executableTarget\(/,/path: "App"\)/' Package.swift | grep -qE 'OakTesting|TerminalTesting|WebTesting|PostgresTesting'; then
    fail "Examples/Comics/Package.swift: the comics executable depends on a test library"
fi
cd ../..

# --- Standups (decision 0027): Core models know nothing else; providers know
# models and Oak; modules (features) never import an adapter or a store;
# nothing imports the injector.
cd Examples/Standups
standups_adapters='StandupsStore|PostgresStandups|PostgresSupport|Speech|SpeechRecognizer|CPocketsphinx|LiveProviders|GRDB|Hummingbird|HummingbirdCore|NIOCore|PostgresNIO|WebHost|ServerSupport|App'
check "the models must not import anything of the app" \
    '^(@testable )?import (Devices|StandupsProvider|StandupForm|StandupsList|StandupDetail|RecordMeeting|AppFeature|Components|Oak|'"$standups_adapters"')\b' \
    Core/Models
check "a provider must not import a feature or an adapter" \
    '^(@testable )?import (StandupForm|StandupsList|StandupDetail|RecordMeeting|AppFeature|Components|'"$standups_adapters"')\b' \
    Providers/StandupsProvider Providers/Devices
check "the speech recogniser (an adapter) must not import Oak, the models or anything above them" \
    '^(@testable )?import (Oak|Models|Devices|StandupsProvider|LiveProviders|StandupForm|StandupsList|StandupDetail|RecordMeeting|AppFeature|Components|App)\b' \
    Core/SpeechRecognizer
# Providers/Live is the adapter side of the providers (their live()): it may
# import the Core adapters, never a feature; so may the PostgreSQL adapter.
check "the providers' live dependencies must not import a feature" \
    '^(@testable )?import (StandupForm|StandupsList|StandupDetail|RecordMeeting|AppFeature|Components|App)\b' \
    Providers/Live Providers/Postgres
check "a feature must not import an adapter or a store" \
    '^(@testable )?import ('"$standups_adapters"')\b' Modules
check "the intents and the SwiftUI views must not import a terminal library" \
    '^(@testable )?import (TerminalUI|CNcurses|Components|StandupsTerminal)\b' Modules/Intents Modules/SwiftUI
check "a component must not import a feature, a provider or an adapter" \
    '^(@testable )?import (Oak|Devices|StandupsProvider|StandupForm|StandupsList|StandupDetail|RecordMeeting|AppFeature|StandupsTerminal|'"$standups_adapters"')\b' \
    Components
check "nothing imports App" '^(@testable )?import App\b' .
check "the shipped program must not link a test library" \
    '^import (OakTesting|Testing|XCTest|TerminalTesting|WebTesting)\b' Core Providers Modules Components Web App
check "the web front end must not import the store, the recogniser or the terminal" \
    '^(@testable )?import (StandupsStore|SpeechRecognizer|CPocketsphinx|LiveProviders|GRDB|TerminalUI|StandupsTerminal|App)\b' Web
cd ../..

# --- The template of a new app (Templates/App, made by Scripts/new-app): the
# feature knows only Oak and Common; its views know no store; its store knows
# no front end; nothing imports the program.
cd Templates/App
check "the template's feature must not import its views, its store, the program or infrastructure below it" \
    '^(@testable )?import (__Name__Views|__Name__Store|__name__|GRDB|SQLiteSupport|TerminalUI|WebUI|WebHost|AppCommands)\b' \
    Sources/Feature
check "the template's views must not import its store or the program" \
    '^(@testable )?import (__Name__Store|__name__|GRDB|SQLiteSupport|AppCommands)\b' Sources/Views
check "the template's store must not import a front end" \
    '^(@testable )?import (__Name__Views|__name__|TerminalUI|WebUI|WebHost|AppCommands)\b' Sources/Store
cd ../..

if [ "$status" -eq 0 ]; then echo "dependency rules hold"; fi
exit "$status"
