#!/usr/bin/env python3
"""Checks that every public type of the Oak module has a member of the same
name in `enum Oak` (Sources/Oak/Oak.swift).

`enum Oak` has the module's name, so in code that imports Oak, `Oak.Name`
resolves to a member of the enum, never to the module: a public type without a
member there cannot be written `Oak.Name`. Reads the DocC archive that
`swift package generate-documentation --target Oak` writes (run it first).

Usage: python3 Tools/Scripts/check-oak-namespace.py [ARCHIVE]
Exit status 1 lists the missing members.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ARCHIVE = ROOT / ".build/plugins/Swift-DocC/outputs/Oak.doccarchive"


def main() -> int:
    archive = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_ARCHIVE
    module = archive / "data/documentation/oak"
    if not module.is_dir():
        print(f"error: no DocC archive at {archive}; build the documentation first.", file=sys.stderr)
        return 1
    types = {}
    for page in sorted(module.glob("*.json")):
        metadata = json.loads(page.read_text()).get("metadata", {})
        if metadata.get("role") != "symbol" or page.stem == "oak":
            continue
        types[metadata["title"]] = metadata.get("symbolKind")
    members = {page.stem for page in (module / "oak").glob("*.json")}
    missing = sorted(name for name in types if name.lower() not in members)
    if missing:
        print("error: these public types of Oak have no member in `enum Oak` (Sources/Oak/Oak.swift),", file=sys.stderr)
        print("so `Oak.<name>` does not compile for them:", file=sys.stderr)
        for name in missing:
            print(f"  {name} ({types[name]})", file=sys.stderr)
        return 1
    print(f"enum Oak names all {len(types)} public types of the module.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
