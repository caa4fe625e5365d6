#!/usr/bin/env python3
"""Fails when a public symbol of the given modules has no doc comment.

Reads the symbol graphs swift-docc-plugin extracted (.build/*/extracted-symbols/*/MODULE/) and
lists every public or open symbol declared in the project's sources without a `///` comment.
Symbols with no source location are synthesized by the compiler (hashValue, hash(into:)) or
inherited from a standard protocol, those located outside the project's Sources/ are default
implementations inherited from a dependency's protocol (SwiftNIO's ByteToMessageDecoder), and
extension blocks carry no comment of their own.
"""
import glob
import json
import os
import sys


def undocumented(module):
    paths = glob.glob(f".build/*/extracted-symbols/*/{module}/*.symbols.json")
    if not paths:
        sys.exit(f"check-doc-comments: no symbol graph for {module}; run scripts/docs.sh")
    for path in sorted(paths):
        with open(path) as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "docComment" in symbol or symbol["kind"]["identifier"] == "swift.extension":
                continue
            location = symbol.get("location")
            if not location:
                continue
            if not location["uri"].startswith(f"file://{os.getcwd()}/Sources/"):
                continue
            source = location["uri"].split("/Sources/", 1)[-1]
            yield f"Sources/{source}:{location['position']['line'] + 1}: {module}." + ".".join(symbol["pathComponents"])


def main(modules):
    missing = [line for module in modules for line in undocumented(module)]
    for line in missing:
        print(f"{line}: public symbol without a doc comment", file=sys.stderr)
    if missing:
        sys.exit(f"check-doc-comments: {len(missing)} public symbols without a doc comment")
    print(f"check-doc-comments: every public symbol of {', '.join(modules)} is documented")


if __name__ == "__main__":
    main(sys.argv[1:])
