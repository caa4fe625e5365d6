#!/usr/bin/env python3
"""Computes the numbers of docs/architecture.md and README.md from the tree and writes them in.

    python3 scripts/architecture-facts.py            rewrite the generated parts, print the tables
    python3 scripts/architecture-facts.py --check    exit 1 with a diff when a file is not up to date
    python3 scripts/architecture-facts.py --print    print the figures, change nothing

Standard library only. Everything comes from Package.swift (`swift package dump-package`, about
half a second) and the files under the targets' folders; no module, product or program is named
here. CI runs `--check` (.ci/run, docs/architecture.md section 9).

Generated parts of docs/architecture.md and README.md sit between two HTML comments, which
Markdown does not show:

    <!-- generated: NAME [ARGUMENT ...] -->...<!-- end generated -->

on lines of their own around a table or paragraph, or inline around a number in a sentence.
NAME is one of:

  module-sizes          table of every Swift target that is not a test target (libraries, test
                        support, programs): files, lines, public declarations, and the "owns"
                        column, which stays hand-written: the script keeps each module's text,
                        writes a placeholder for a new module (and --check fails until someone
                        replaces it) and drops the row of a module that is gone
  size-totals           the paragraph of totals under it (libraries, test support, programs, C
                        targets, tests, the largest library files)
  product-declarations  table of the public declarations of every library product
  target-dependencies   table of every target's declared dependencies, in Package.swift's order
  library-products      "twelve library products are A, B ... and L"
  library-modules       number of Swift targets of the library products (what scripts/docs.sh
                        documents)
  programs              number of executable products
  error-types           number of public error types (below)
  fuzz-targets          number of executable targets of FuzzTesting/Package.swift
  task-blocks MODULE... number of unstructured tasks (`Task {`, `Task.detached {`) in the modules

An inline number keeps the style it has in the file: digits stay digits, a word stays a word (a
capital first letter stays capital).

Definitions (one method each, so that the numbers can be compared from one commit to the next):

  - A library is a Swift target that some product (library or executable) reaches through the
    declared dependencies and is not itself an executable; test support is a Swift target no
    product reaches and that is not a test target; a program is an executable target; C targets
    are the system-library targets and the targets without Swift files.
  - Files and lines: the `.swift` files under the target's folder (`Sources/NAME` unless
    Package.swift gives a path; `exclude` honoured), lines as `wc -l` counts them. C targets
    count `.c` and `.h` files. Tests: the `.swift` files of the test targets, and the `.py` files
    under the folders that hold the test targets.
  - Public declarations (a source count, not a compiler's: fast, deterministic and needing no
    build, so CI runs it before building anything). Comments and string literals are removed
    first; then counted: (1) every declaration written with `public` or `open` (func, init,
    subscript, var, let, struct, enum, class, actor, protocol, typealias, associatedtype, macro,
    operator, precedencegroup; `public var a, b` counts once; `public import` does not count);
    (2) every requirement of a public protocol (func, init, subscript, var, let,
    associatedtype, typealias at the top of its body); (3) every case name of a public enum
    (`case a, b` counts two); (4) every member of a `public extension` without an access
    modifier of its own. Both branches of an `#if` count; a `public` member of an internal type
    counts. A product's figure is the sum over its targets; a re-exported module
    (`@_exported import`) is named, not counted.
  - Error types: public types of the library targets (test support and programs left out) that
    conform, in their declaration or in an extension, to `Error` or to a protocol of the
    sources that refines `Error` (`CodedError`), directly or through another such protocol.
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join("docs", "architecture.md")
# Every file with generated parts; the module table's placeholder is looked for in DOC.
DOCS = [DOC, "README.md"]
PLACEHOLDER = "**(new module: say what it owns)**"

MARKER = re.compile(r"<!-- generated: ([\w-]+)((?: [\w.-]+)*) -->(.*?)<!-- end generated -->", re.S)

WORDS = ["none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen", "twenty"]


def fail(message):
    sys.exit(f"architecture-facts: {message}")


# Package.swift


def dump_package(path):
    try:
        output = subprocess.run(["swift", "package", "--package-path", path, "dump-package"],
                                check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", "") or str(error)
        fail(f"swift package dump-package failed in {path}: {detail.strip()}")
    return json.loads(output)


class Target:
    def __init__(self, raw):
        self.name = raw["name"]
        self.type = raw["type"]  # regular, executable, test, system, macro, plugin, binary
        default = "Tests" if self.type == "test" else "Sources"
        self.path = raw.get("path") or os.path.join(default, self.name)
        self.exclude = [os.path.normpath(os.path.join(self.path, e)) for e in raw.get("exclude") or []]
        self.dependencies = []  # (name, is a target of this package)
        for dependency in raw["dependencies"]:
            kind, value = next(iter(dependency.items()))
            if kind == "product":
                self.dependencies.append((value[0], False))
            else:  # byName, target
                self.dependencies.append((value[0], True))

    def files(self, extensions):
        found = []
        for folder, folders, names in os.walk(os.path.join(ROOT, self.path)):
            relative = os.path.relpath(folder, ROOT)
            folders[:] = sorted(f for f in folders if os.path.normpath(os.path.join(relative, f)) not in self.exclude)
            for name in sorted(names):
                path = os.path.normpath(os.path.join(relative, name))
                if name.endswith(extensions) and path not in self.exclude:
                    found.append(path)
        return found


class Package:
    def __init__(self, raw):
        self.targets = [Target(t) for t in raw["targets"]]
        self.by_name = {t.name: t for t in self.targets}
        for target in self.targets:
            # A by-name dependency that is no target of this package is a product of another.
            target.dependencies = [(n, local and n in self.by_name) for n, local in target.dependencies]
        self.libraries = [(p["name"], p["targets"]) for p in raw["products"] if "library" in p["type"]]
        self.executables = [(p["name"], p["targets"]) for p in raw["products"] if "executable" in p["type"]]
        reached = set()
        stack = [t for _, targets in self.libraries + self.executables for t in targets]
        while stack:
            name = stack.pop()
            if name in reached or name not in self.by_name:
                continue
            reached.add(name)
            stack.extend(n for n, local in self.by_name[name].dependencies if local)
        self.swift = {t.name for t in self.targets if t.type not in ("system", "binary") and t.files((".swift",))}
        self.library_targets = [t for t in self.targets if t.type == "regular" and t.name in self.swift and t.name in reached]
        self.support_targets = [t for t in self.targets if t.type == "regular" and t.name in self.swift and t.name not in reached]
        self.program_targets = [t for t in self.targets if t.type == "executable"]
        self.test_targets = [t for t in self.targets if t.type == "test"]
        self.c_targets = [t for t in self.targets if t.type == "system" or (t.type == "regular" and t.name not in self.swift)]


# Reading Swift


def lines_of(path):
    with open(os.path.join(ROOT, path), "rb") as file:
        return file.read().count(b"\n")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        return file.read()


def strip_swift(text):
    """The code of a Swift file with comments and string literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    # A stack of string delimiters: (quote, hashes, interpolation paren depth).
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if text[i] == "\n":
                        out.append("\n")
                    i += 1
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            i = skip_string(text, i, out)
            out.append('""')
        else:
            out.append(c)
            i += 1
    return "".join(out)


def skip_string(text, i, out):
    """Index after the string literal starting at i (raw, multi-line and interpolated)."""
    n = len(text)
    hashes = 0
    while text[i] == "#":
        hashes, i = hashes + 1, i + 1
    quote = '"""' if text.startswith('"""', i) else '"'
    i += len(quote)
    close = quote + "#" * hashes
    escape = "\\" + "#" * hashes
    while i < n:
        if text.startswith(close, i):
            return i + len(close)
        if text.startswith(escape, i):
            i += len(escape)
            if i < n and text[i] == "(":
                depth, i = 1, i + 1
                while i < n and depth:
                    if text[i] == '"':
                        i = skip_string(text, i, out)
                        continue
                    depth += {"(": 1, ")": -1}.get(text[i], 0)
                    i += 1
            else:
                i += 1
        else:
            if text[i] == "\n":
                if quote == '"':
                    return i  # an unterminated one-line string ends with its line
                out.append("\n")
            i += 1
    return i


def body_after(code, start):
    """The text inside the braces opening at or after start, with nested braces' and parentheses'
    contents blanked: what lies at the top level of the body."""
    i = code.find("{", start)
    if i < 0:
        return ""
    depth, out = 0, []
    for j in range(i + 1, len(code)):
        c = code[j]
        if c in "{([":
            depth += 1
        elif c in "})]":
            if depth == 0:
                break
            depth -= 1
            continue
        out.append(c if depth == 0 or c == "\n" else " ")
    return "".join(out)


MODIFIERS = (r"(?:static|class|final|override|mutating|nonmutating|convenience|required|lazy|dynamic|"
             r"nonisolated(?:\(unsafe\))?|indirect|weak|unowned(?:\(\w+\))?|optional|distributed|"
             r"prefix|postfix|infix|(?:private|fileprivate|internal|package)\(set\)|@[\w.]+(?:\([^()]*\))?)")
DECLS = r"(?:func|init|subscript|var|let|struct|enum|class|actor|protocol|typealias|associatedtype|macro|operator|precedencegroup)"
EXPLICIT = re.compile(rf"\b(?:public|open)\s+(?:{MODIFIERS}\s+)*{DECLS}\b")
PUBLIC_PROTOCOL = re.compile(rf"\b(?:public|open)\s+(?:{MODIFIERS}\s+)*protocol\s+\w+")
PUBLIC_ENUM = re.compile(rf"\b(?:public|open)\s+(?:{MODIFIERS}\s+)*enum\s+\w+")
PUBLIC_EXTENSION = re.compile(rf"\bpublic\s+(?:{MODIFIERS}\s+)*extension\b")
REQUIREMENT = re.compile(r"\b(?:func|init|subscript|var|let|associatedtype|typealias)\b")
CASE = re.compile(r"\bcase\b([^\n;]*)")
MEMBER = re.compile(rf"^[ \t]*((?:[\w@()]+[ \t]+)*){DECLS}\b", re.M)
ACCESS = re.compile(r"\b(?:public|open|private|fileprivate|internal|package)\b(?!\()")
EXPORTED = re.compile(r"@_exported[ \t]+(?:public[ \t]+)?import[ \t]+(?:(?:struct|class|enum|protocol|typealias|func|var|let)[ \t]+)?(\w+)")


def public_declarations(code):
    count = len(EXPLICIT.findall(code))
    for match in PUBLIC_PROTOCOL.finditer(code):
        count += len(REQUIREMENT.findall(body_after(code, match.end())))
    for match in PUBLIC_ENUM.finditer(code):
        for case in CASE.finditer(body_after(code, match.end())):
            count += len([name for name in case.group(1).split(",") if name.strip()])
    for match in PUBLIC_EXTENSION.finditer(code):
        for member in MEMBER.finditer(body_after(code, match.end())):
            if not ACCESS.search(member.group(1)):
                count += 1
    return count


class Sources:
    """What is read from the files of one target."""

    def __init__(self, target):
        self.target = target
        self.files = target.files((".swift",))
        self.lines = {path: lines_of(path) for path in self.files}
        self.code = {path: strip_swift(read(path)) for path in self.files}
        self.public = sum(public_declarations(code) for code in self.code.values())
        self.exported = sorted({m for code in self.code.values() for m in EXPORTED.findall(code)})

    def total_lines(self):
        return sum(self.lines.values())


TYPE_DECLARATION = re.compile(r"\b(?:public|open)\s+(?:(?:final|indirect)\s+)*(?:struct|enum|class|actor)\s+(\w+)(?:<[^>{]*>)?\s*(?::\s*([^{]*))?\{")
EXTENSION = re.compile(r"\bextension\s+([\w.]+)\s*:\s*([^{]*)\{")
PROTOCOL = re.compile(r"\bprotocol\s+(\w+)\s*:\s*([^{]*)\{")


def conformances(clause):
    clause = re.split(r"\bwhere\b", clause)[0]
    return {name.strip().split(".")[-1] for part in clause.split(",") for name in part.split("&") if name.strip()}


def error_types(package, sources):
    code = [c for t in package.targets if t.name in sources for c in sources[t.name].code.values()]
    refining = {"Error"}
    protocols = [(m.group(1), conformances(m.group(2))) for c in code for m in PROTOCOL.finditer(c)]
    while True:
        more = {name for name, parents in protocols if parents & refining} - refining
        if not more:
            break
        refining |= more
    library = [c for t in package.library_targets for c in sources[t.name].code.values()]
    public = {m.group(1): conformances(m.group(2) or "") for c in library for m in TYPE_DECLARATION.finditer(c)}
    for c in library:
        for m in EXTENSION.finditer(c):
            name = m.group(1).split(".")[-1]
            if name in public:
                public[name] |= conformances(m.group(2))
    return sorted(name for name, parents in public.items() if parents & refining)


TASK = re.compile(r"\bTask(?:\.detached)?\s*(?:\([^()]*\))?\s*\{")


# Rendering


def number(n):
    return f"{n:,}"


def word(n):
    return WORDS[n] if n < len(WORDS) else number(n)


def styled(n, old):
    """n in the style of the text it replaces: digits, or a word with old's capitalisation."""
    old = old.strip()
    if re.fullmatch(r"[\d,]+", old):
        return number(n)
    text = word(n)
    return text[:1].upper() + text[1:] if old[:1].isupper() else text


def series(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def table(header, alignments, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(alignments) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def owns_column(old):
    owns = {}
    for line in old.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and not set(cells[0]) <= set("-: ") and cells[0] != "module":
            owns[cells[0].strip("`")] = " | ".join(cells[4:]) if len(cells) >= 5 else cells[-1]
    return owns


class Facts:
    def __init__(self):
        self.package = Package(dump_package(ROOT))
        p = self.package
        self.sources = {t.name: Sources(t) for t in p.targets if t.name in p.swift and t.type != "test"}
        self.test_lines = sum(lines_of(f) for t in p.test_targets for f in t.files((".swift",)))
        test_roots = sorted({os.path.dirname(t.path) for t in p.test_targets})
        python = []
        for root in test_roots:
            for folder, folders, names in os.walk(os.path.join(ROOT, root)):
                folders[:] = sorted(f for f in folders if not f.startswith(".") and f != "__pycache__")
                python += [os.path.relpath(os.path.join(folder, n), ROOT) for n in sorted(names) if n.endswith(".py")]
        self.python_lines = sum(lines_of(f) for f in python)
        self.python_folders = sorted({"/".join(f.split("/")[:2]) for f in python})
        self.c_lines = sum(lines_of(f) for t in p.c_targets for f in t.files((".c", ".h")))
        self.errors = error_types(p, self.sources)
        self._fuzz = None

    def fuzz_targets(self):
        if self._fuzz is None:
            fuzz = os.path.join(ROOT, "FuzzTesting")
            raw = dump_package(fuzz)
            self._fuzz = len([t for t in raw["targets"] if t["type"] == "executable"])
        return self._fuzz

    def lines(self, targets):
        return sum(self.sources[t.name].total_lines() for t in targets)

    # The generated parts.

    def module_sizes(self, old):
        owns = owns_column(old)
        rows = []
        p = self.package
        for target in p.library_targets + p.support_targets + p.program_targets:
            s = self.sources[target.name]
            name = f"`{target.name}`" if target.type == "executable" else target.name
            rows.append([name, number(len(s.files)), number(s.total_lines()), number(s.public),
                         owns.get(target.name) or PLACEHOLDER])
        return "\n" + table(["module", "files", "lines", "public", "owns"], ["---", "---:", "---:", "---:", "---"], rows) + "\n"

    def size_totals(self, old):
        p = self.package
        libraries = [t.name for t in p.library_targets]
        largest = sorted(((n, path, t.name) for t in p.library_targets for path, n in self.sources[t.name].lines.items()),
                         key=lambda x: (-x[0], x[1]))[:3]
        largest = [f"`{os.path.relpath(path, t.path)}` ({t.name}, {number(n)})"
                   for n, path, t in ((n, path, p.by_name[name]) for n, path, name in largest)]
        python_where = ", ".join(f"`{f}`" for f in self.python_folders)
        return "\n" + textwrap.fill(
                f"Libraries ({libraries[0]} to {libraries[-1]}, {word(len(libraries))} modules): "
                f"{number(self.lines(p.library_targets))} lines of Swift; test support "
                f"({', '.join(t.name for t in p.support_targets)}): {number(self.lines(p.support_targets))}; "
                f"programs ({word(len(p.program_targets))}): {number(self.lines(p.program_targets))}; "
                f"the C targets ({word(len(p.c_targets))}): {number(self.c_lines)} lines of C and headers. "
                f"Tests ({word(len(p.test_targets))} targets): {number(self.test_lines)} lines of Swift and "
                f"{number(self.python_lines)} of Python ({python_where}). The largest library files are "
                f"{series(largest)}.", width=100, break_long_words=False, break_on_hyphens=False) + "\n"

    def product_rows(self):
        rows = []
        for name, targets in self.package.libraries:
            count = sum(self.sources[t].public for t in targets if t in self.sources)
            notes = []
            if targets != [name]:
                notes.append("targets " + ", ".join(targets))
            exported = sorted({m for t in targets if t in self.sources for m in self.sources[t].exported})
            if exported:
                notes.append("re-exports " + ", ".join(exported))
            rows.append([name + (f" ({'; '.join(notes)})" if notes else ""), number(count)])
        distinct = {t for _, targets in self.package.libraries for t in targets if t in self.sources}
        rows.append([f"all {word(len(self.package.libraries))} library products",
                     number(sum(self.sources[t].public for t in distinct))])
        return rows

    def product_declarations(self, old):
        return "\n" + table(["library product", "public declarations"], ["---", "---:"], self.product_rows()) + "\n"

    def target_dependencies(self, old):
        p = self.package

        def shown(target):
            names = []
            for name, local in target.dependencies:
                names.append(f"`{name}`" if local and p.by_name[name].type == "executable" else name)
            return ", ".join(names) or "(none)"

        groups = [p.library_targets, p.support_targets, p.program_targets, p.c_targets, p.test_targets]
        rows = []
        for group in groups:
            merged = {}
            for target in group:
                name = f"`{target.name}`" if target.type == "executable" else target.name
                merged.setdefault(shown(target), []).append(name)
            rows += [[", ".join(names), dependencies] for dependencies, names in merged.items()]
        return "\n" + table(["target", "declared dependencies (Package.swift)"], ["---", "---"], rows) + "\n"

    def library_products(self, old):
        names = [name for name, _ in self.package.libraries]
        count = styled(len(names), old.split()[0] if old.split() else "a")
        return f"{count} library products are {series(names)}"

    def library_modules(self, old):
        modules = {t for _, targets in self.package.libraries for t in targets if t in self.package.swift}
        return styled(len(modules), old)

    def programs(self, old):
        return styled(len(self.package.executables), old)

    def error_types(self, old):
        return styled(len(self.errors), old)

    def fuzz_targets_count(self, old):
        return styled(self.fuzz_targets(), old)

    def task_blocks(self, old, modules):
        for module in modules:
            if module not in self.sources:
                fail(f"task-blocks names {module}, which is no Swift target of Package.swift")
        count = sum(len(TASK.findall(code)) for m in modules for code in self.sources[m].code.values())
        return styled(count, old)

    def render(self, name, arguments, old):
        simple = {
            "module-sizes": self.module_sizes, "size-totals": self.size_totals,
            "product-declarations": self.product_declarations, "target-dependencies": self.target_dependencies,
            "library-products": self.library_products, "library-modules": self.library_modules,
            "programs": self.programs, "error-types": self.error_types, "fuzz-targets": self.fuzz_targets_count,
        }
        if name == "task-blocks":
            if not arguments:
                fail("task-blocks needs the modules to count in, e.g. <!-- generated: task-blocks MdocBLE -->")
            return self.task_blocks(old, arguments)
        if name not in simple:
            fail(f"a generated part is named {name!r}, which this script does not know")
        return simple[name](old)


def regenerate(text, facts, path):
    def replace(match):
        name, arguments, old = match.group(1), match.group(2).split(), match.group(3)
        new = facts.render(name, arguments, old)
        return f"<!-- generated: {name}{match.group(2)} -->{new}<!-- end generated -->"

    opened = text.count("<!-- generated:")
    if opened != len(MARKER.findall(text)) or text.count("<!-- end generated -->") != opened:
        fail(f"{path}: a '<!-- generated: NAME -->' without its '<!-- end generated -->' (or the reverse)")
    return MARKER.sub(replace, text)


def summary(facts):
    p = facts.package
    print("module sizes (files, lines, public declarations):")
    for target in p.library_targets + p.support_targets + p.program_targets:
        s = facts.sources[target.name]
        print(f"  {target.name:<20} {len(s.files):>4} {s.total_lines():>7,} {s.public:>6,}")
    print("public declarations per library product:")
    for product, count in facts.product_rows():
        print(f"  {product:<40} {count:>7}")
    print(f"error types ({len(facts.errors)}): {', '.join(facts.errors)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when a file is not up to date")
    parser.add_argument("--print", action="store_true", help="print the figures; change nothing")
    arguments = parser.parse_args()
    os.chdir(ROOT)
    facts = Facts()
    if arguments.print:
        summary(facts)
        return
    texts = {path: read(path) for path in DOCS}
    news = {path: regenerate(text, facts, path) for path, text in texts.items()}
    problems = []
    for path in DOCS:
        if news[path] != texts[path]:
            diff = difflib.unified_diff(texts[path].splitlines(True), news[path].splitlines(True), f"a/{path}", f"b/{path}")
            problems.append((path, "".join(diff)))
    undescribed = [line.split("|")[1].strip() for line in news[DOC].splitlines() if PLACEHOLDER in line]
    if arguments.check:
        for path, diff in problems:
            sys.stderr.write(diff)
            sys.stderr.write(f"architecture-facts: {path} does not match the tree (diff above: - the file, + the tree); "
                             f"run `python3 scripts/architecture-facts.py` and commit the result\n")
        if undescribed:
            sys.stderr.write(f"architecture-facts: {DOC} does not say what {', '.join(undescribed)} owns: "
                             f"replace {PLACEHOLDER} in the module table (section 2)\n")
        if problems or undescribed:
            sys.exit(1)
        print(f"architecture-facts: the numbers of {' and '.join(DOCS)} match the tree")
        return
    for path in DOCS:
        if news[path] != texts[path]:
            with open(path, "w", encoding="utf-8") as file:
                file.write(news[path])
            print(f"architecture-facts: {path} updated")
        else:
            print(f"architecture-facts: {path} already up to date")
    summary(facts)
    if undescribed:
        print(f"architecture-facts: say what {', '.join(undescribed)} owns in {DOC} (module table, section 2)", file=sys.stderr)


if __name__ == "__main__":
    main()
