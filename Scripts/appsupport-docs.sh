#!/usr/bin/env bash
# Builds the documentation of every AppSupport module with DocC and fails on
# any warning (a link DocC cannot resolve, an undocumented parameter).
#
# AppSupport has no swift-docc-plugin (its dependency would be every app's),
# so this takes the modules' symbol graphs from `swift package
# dump-symbol-graph` and gives each, with its catalogue where it has one
# (`Sources/NAME/NAME.docc`), to the toolchain's `docc convert`.
#
#   Scripts/appsupport-docs.sh [OUTPUT-DIR]
#
# OUTPUT-DIR (default: a temporary folder, removed afterwards) receives one
# `NAME.doccarchive` per module. AppSupport is built in APPS_BUILD (default
# `.build-apps`, the build folder `make test` shares among AppSupport and
# the apps).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
package="$root/AppSupport"
work=$(mktemp -d /tmp/oak-appsupport-docs.XXXXXX)
trap 'rm -rf "$work"' EXIT
output=${1:-$work/archives}
mkdir -p "$output"

docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
    docc="$toolchain/docc"
fi
[ -x "$docc" ] || { echo "error: docc is not beside swift ($docc); install a Swift toolchain that has it." >&2; exit 1; }

swift package --package-path "$package" --scratch-path "${APPS_BUILD:-$root/.build-apps}" dump-symbol-graph --minimum-access-level public > "$work/dump.log" 2>&1 \
    || { cat "$work/dump.log" >&2; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$work/dump.log")
[ -d "$graphs" ] || { cat "$work/dump.log" >&2; echo "error: no symbol graphs were written." >&2; exit 1; }

warned=0
for module_dir in "$package"/Sources/*/; do
    module=$(basename "$module_dir")
    [ -f "$graphs/$module.symbols.json" ] || continue  # a C module, or one with no public symbols
    mkdir -p "$work/graphs/$module"
    cp "$graphs/$module.symbols.json" "$work/graphs/$module/"
    cp "$graphs/$module"@*.symbols.json "$work/graphs/$module/" 2>/dev/null || true
    catalogue="$module_dir$module.docc"
    if [ ! -d "$catalogue" ]; then
        catalogue="$work/empty/$module.docc"
        mkdir -p "$catalogue"
    fi
    "$docc" convert "$catalogue" --additional-symbol-graph-dir "$work/graphs/$module" \
        --output-path "$output/$module.doccarchive" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.oak.appsupport.$module" > "$work/$module.log" 2>&1 \
        || { cat "$work/$module.log" >&2; exit 1; }
    if grep -q -E "^(warning|error):" "$work/$module.log"; then
        echo "== $module" >&2
        cat "$work/$module.log" >&2
        warned=1
    else
        echo "$module: documentation builds"
    fi
done

if [ "$warned" -ne 0 ]; then
    echo "error: DocC printed warnings for AppSupport (see above)." >&2
    exit 1
fi
