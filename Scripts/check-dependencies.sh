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
app_modules='ComicsFeature|FavouritesFeature|ComicsMain|ComicsTerminal|ComicsWebViews|ComicsSwiftUI|ComicsWeb|ComicsApp|Services|API|Persistence|PostgresPersistence|FixtureServer|PostgresStandups|StandupsMain|StandupForm|StandupsList|StandupDetail|RecordMeeting|MeetingRooms|Models|Devices|LiveProviders|SpeechRecognizer|Components'
check "infrastructure must not import an app's module" \
    "^(@testable )?import ($app_modules|Standups[A-Za-z]*)\b" AppSupport/Sources AppSupport/Tests
check "infrastructure must not reach into an app's package" "(Examples|\.\.)/($apps)/" AppSupport/Package.swift
check "a shipped module must not import a test library" \
    '^import (OakTesting|Testing|XCTest|TerminalTesting|WebTesting|PostgresTesting)\b' \
    AppSupport/Sources/Common AppSupport/Sources/TerminalUI AppSupport/Sources/WebUI \
    AppSupport/Sources/WebHost AppSupport/Sources/HTTPClient AppSupport/Sources/ServerSupport \
    AppSupport/Sources/SQLiteSupport AppSupport/Sources/PostgresSupport

# --- The apps share one layout (decision 0053): Features/ (transducers and
# their ports, no front end's library), Views/ (a module a front end),
# Services/ (the ports' live side), Persistence/ (storage), Web/ (the web
# host's configuration), App/ (the injector). The rules that hold in both:
front_ends='TerminalUI|CNcurses|WebUI|WebHost|SwiftUI'
infrastructure='HTTPClient|SQLiteSupport|PostgresSupport|PostgresNIO|GRDB|Hummingbird|HummingbirdCore|NIOCore|ServerSupport|AppCommands'
for app in Comics Standups; do
    cd "Examples/$app"
    check "a feature must not import a front end's library, a view, a service, storage or the program" \
        "^(@testable )?import ($front_ends|$infrastructure|ComicsTerminal|ComicsWebViews|ComicsSwiftUI|ComicsWeb|Services|API|Persistence|PostgresPersistence|FixtureServer|StandupsTerminal|StandupsWebViews|StandupsSwiftUI|StandupsWeb|StandupsIntents|Components|StandupsStore|PostgresStandups|LiveProviders|SpeechRecognizer|CPocketsphinx|ComicsApp|StandupsApp)\b" \
        Features
    check "a view must not import a service, storage or the program" \
        "^(@testable )?import ($infrastructure|Services|API|Persistence|PostgresPersistence|FixtureServer|StandupsStore|PostgresStandups|LiveProviders|SpeechRecognizer|CPocketsphinx|ComicsApp|StandupsApp)\b" \
        Views
    check "the web front end must not import storage, a service's adapter or the terminal" \
        "^(@testable )?import (Services|API|HTTPClient|Persistence|PostgresPersistence|PostgresSupport|PostgresNIO|FixtureServer|GRDB|StandupsStore|PostgresStandups|SpeechRecognizer|CPocketsphinx|LiveProviders|TerminalUI|ComicsTerminal|StandupsTerminal|ComicsApp|StandupsApp)\b" \
        Web
    check "storage must not import a feature, a view or a front end" \
        "^(@testable )?import ($front_ends|ComicsMain|ComicsFeature|FavouritesFeature|StandupsMain|StandupForm|StandupsList|StandupDetail|RecordMeeting|MeetingRooms|ComicsTerminal|ComicsWebViews|StandupsTerminal|StandupsWebViews|Services|ComicsWeb|StandupsWeb|ComicsApp|StandupsApp)\b" \
        Persistence
    check "nothing imports the program" '^(@testable )?import (ComicsApp|StandupsApp)\b' .
    check "the shipped program must not link a test library" \
        '^import (OakTesting|Testing|XCTest|TerminalTesting|WebTesting|PostgresTesting)\b' \
        $(ls -d App Features Views Services Persistence Web Models FixtureServer 2>/dev/null)
    cd ../..
done

# --- Comics: the live services know the store's port, never an engine's
# adapter; xkcd's API and the fixture server know no feature.
cd Examples/Comics
check "the live services know the store's port, never an engine's adapter" \
    '^import (PostgresPersistence|PostgresSupport|PostgresNIO|GRDB)\b' Services/Live
check "xkcd's API, the fixture server and storage must not import a feature or a service" \
    '^import (ComicsFeature|FavouritesFeature|ComicsMain|Services|ComicsWeb|ComicsApp)\b' Services/API FixtureServer \
    Persistence
if awk '/executableTarget\(/,/path: "App"\)/' Package.swift | grep -qE 'OakTesting|TerminalTesting|WebTesting|PostgresTesting'; then
    fail "Examples/Comics/Package.swift: the comics executable depends on a test library"
fi
cd ../..

# --- Standups (decisions 0027, 0053): the models know nothing else; the
# ports shared by features (Services/StandupsProvider, Services/Devices) know
# the models and Oak; the speech recogniser (an adapter) knows nothing of
# the app; the live services never import a feature.
cd Examples/Standups
features='StandupForm|StandupsList|StandupDetail|RecordMeeting|MeetingRooms|StandupsMain'
check "the models must not import anything of the app" \
    "^(@testable )?import (Devices|StandupsProvider|$features|Components|Oak|StandupsStore|PostgresStandups|SpeechRecognizer|LiveProviders|GRDB|StandupsApp)\b" \
    Models
check "a port shared by features must not import a feature, a view or an adapter" \
    "^(@testable )?import ($features|Components|StandupsIntents|StandupsStore|PostgresStandups|PostgresSupport|SpeechRecognizer|CPocketsphinx|LiveProviders|GRDB|$front_ends|$infrastructure|StandupsApp)\b" \
    Services/StandupsProvider Services/Devices
check "the speech recogniser (an adapter) must not import Oak, the models or anything above them" \
    '^(@testable )?import (Oak|Models|Devices|StandupsProvider|LiveProviders|StandupForm|StandupsList|StandupDetail|RecordMeeting|StandupsMain|Components|StandupsApp)\b' \
    Services/SpeechRecognizer
check "the live services must not import a feature" \
    "^(@testable )?import ($features|Components|StandupsIntents|StandupsApp)\b" Services/Live Persistence/Postgres
check "the intents and the SwiftUI views must not import a terminal library" \
    '^(@testable )?import (TerminalUI|CNcurses|Components|StandupsTerminal)\b' Views/Intents Views/SwiftUI
check "a component must not import a feature, a provider or an adapter" \
    "^(@testable )?import (Oak|Devices|StandupsProvider|$features|StandupsTerminal|StandupsStore|PostgresStandups|SpeechRecognizer|LiveProviders|GRDB|StandupsApp)\b" \
    Views/Components
cd ../..

# --- The template of a new app (Templates/App, made by Scripts/new-app): the
# feature knows only Oak and Common; its views know no store; its store knows
# no front end; nothing imports the program.
cd Templates/App
check "the template's feature must not import its views, its store, the program or infrastructure below it" \
    '^(@testable )?import (__Name__Views|__Name__Store|__name__|GRDB|SQLiteSupport|TerminalUI|WebUI|WebHost|AppCommands)\b' \
    Features
check "the template's views must not import its store or the program" \
    '^(@testable )?import (__Name__Store|__name__|GRDB|SQLiteSupport|AppCommands)\b' Views
check "the template's store must not import a front end" \
    '^(@testable )?import (__Name__Views|__name__|TerminalUI|WebUI|WebHost|AppCommands)\b' Persistence
cd ../..

if [ "$status" -eq 0 ]; then echo "dependency rules hold"; fi
exit "$status"
