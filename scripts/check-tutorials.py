#!/usr/bin/env python3
"""Fails when a DocC article's program listing differs from the file it shows.

An article marks a listing with `<!-- code: PATH -->` on the line before its fenced code block;
PATH is relative to the repository's root. The block must be that file, byte for byte, so the
code a tutorial shows is the code CI builds and runs (scripts/examples.sh).
"""
import glob
import re
import sys

MARK = re.compile(r"^<!-- code: (\S+) -->$")


def listings(article):
    lines = open(article, encoding="utf-8").read().split("\n")
    for number, line in enumerate(lines):
        mark = MARK.match(line)
        if not mark:
            continue
        fence = lines[number + 1] if number + 1 < len(lines) else ""
        if not fence.startswith("```"):
            yield mark.group(1), None, number + 1
            continue
        end = next((i for i in range(number + 2, len(lines)) if lines[i] == "```"), None)
        if end is None:
            yield mark.group(1), None, number + 1
            continue
        yield mark.group(1), "\n".join(lines[number + 2:end]) + "\n", number + 1


def main():
    failures = []
    count = 0
    for article in sorted(glob.glob("Sources/*/Docs.docc/*.md")):
        for path, shown, line in listings(article):
            count += 1
            if shown is None:
                failures.append(f"{article}:{line}: the code mark for {path} is not followed by a fenced block")
                continue
            try:
                actual = open(path, encoding="utf-8").read()
            except OSError as error:
                failures.append(f"{article}:{line}: {path}: {error.strerror}")
                continue
            if actual != shown:
                failures.append(f"{article}:{line}: the listing differs from {path}; copy the file into the article")
    for failure in failures:
        print(f"check-tutorials: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"check-tutorials: {count} listings match their files")


if __name__ == "__main__":
    main()
