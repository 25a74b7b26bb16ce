#!/usr/bin/env bash
# The dependency rule inside each library target. The targets themselves
# (HeatMapCore <- HeatMapDensity <- HeatMapContouring <- HeatMapFormats)
# are ordered by Package.swift, and the compiler refuses an upward import.
# Inside a target, each folder has a rank (TARGETS below, lowest first, as
# in docs/architecture.md): a file may use only names declared in its own
# folder, in a folder of lower rank, or in a folder of its own rank that
# does not use it back (no cycles).
#
# How: every top-level type, typealias, function and global declared in a
# folder is that folder's, and so is every member declared in an
# `extension` block there (a method added to a lower type from a higher
# folder is a use of that folder). Each file's identifiers (comments and
# string literals skipped, interpolations read) are looked up in those
# tables: a name after a dot in the member table, when no folder of the
# same or lower rank declares a member of that name. A use of a higher
# folder, or each use along a cycle, is printed as file:line and fails.
#
# Needs only bash and python3's standard library (CI has nothing else).
# Usage: Scripts/check-layers.sh            (every target under Sources)
#        Scripts/check-layers.sh --self-test (plants violations in a temp
#        copy and expects each to be caught, so the check cannot pass
#        vacuously)
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os, re, shutil, subprocess, sys, tempfile

TARGETS = [
    ("HeatMapCore", [["Text", "Model", "Projection", "Pipeline"]]),
    ("HeatMapDensity", [["Input"], ["Density", "Engines"]]),
    ("HeatMapContouring", [["Levels", "Contouring", "Smoothing", "Assembly", "HitTesting",
                            "Rings", "Simplification"], ["Facade"]]),
    ("HeatMapFormats", [["Binning", "H3", "Rendering", "GeoJSON", "Raster", "Tiles"]]),
]

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NUMBER = re.compile(r"[0-9][0-9A-Za-z_]*")
RAW_OPEN = re.compile(r'(#*)("""|")')
DECL = {"struct", "enum", "class", "protocol", "typealias", "actor",
        "func", "let", "var"}
MODIFIERS = {"public", "internal", "package", "private", "fileprivate",
             "final", "open", "indirect", "nonisolated", "inlinable",
             "usableFromInline", "frozen", "discardableResult"}


def tokens(src):
    """Identifiers of Swift source outside comments and string literals
    (interpolated expressions included), as (name, line, offset, depth,
    previous code character)."""
    out, n = [], len(src)
    state = {"i": 0, "line": 1, "depth": 0, "prev": ""}

    def code(interp):
        parens = 0
        while state["i"] < n:
            i = state["i"]; c = src[i]
            if c == "\n":
                state["line"] += 1; state["i"] += 1; continue
            if c in " \t\r":
                state["i"] += 1; continue
            if src.startswith("//", i):
                j = src.find("\n", i); state["i"] = n if j < 0 else j; continue
            if src.startswith("/*", i):
                nest, i = 1, i + 2
                while i < n and nest:
                    if src.startswith("/*", i): nest += 1; i += 2
                    elif src.startswith("*/", i): nest -= 1; i += 2
                    else:
                        if src[i] == "\n": state["line"] += 1
                        i += 1
                state["i"] = i; continue
            m = RAW_OPEN.match(src, i) if c in '#"' else None
            if m:
                state["i"] = m.end(); string(len(m.group(1)), m.group(2))
                state["prev"] = '"'; continue
            if c == "`":
                j = src.find("`", i + 1)
                if j > i:
                    out.append((src[i + 1:j], state["line"], i, state["depth"], state["prev"]))
                    state["prev"] = "a"; state["i"] = j + 1; continue
            m = IDENT.match(src, i)
            if m:
                out.append((m.group(0), state["line"], i, state["depth"], state["prev"]))
                state["prev"] = "a"; state["i"] = m.end(); continue
            m = NUMBER.match(src, i)
            if m:
                state["prev"] = "0"; state["i"] = m.end(); continue
            if c == "(": parens += 1
            elif c == ")":
                if interp and parens == 0:
                    state["i"] += 1; return
                parens -= 1
            elif c == "{": state["depth"] += 1
            elif c == "}": state["depth"] -= 1
            state["prev"] = c; state["i"] += 1

    def string(hashes, quote):
        close = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        while state["i"] < n:
            i = state["i"]
            if src.startswith(close, i):
                state["i"] = i + len(close); return
            if src.startswith(escape, i):
                j = i + len(escape)
                if j < n and src[j] == "(":
                    state["i"] = j + 1; code(True); continue
                state["i"] = j + 1; continue
            if src[i] == "\n": state["line"] += 1
            state["i"] = i + 1

    code(False)
    return out


def read_tree(root):
    """{folder: {path: tokens}} for the Swift files of root."""
    tree = {}
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(dirpath, name)
            folder = os.path.relpath(dirpath, root).split(os.sep)[0]
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if text not in TOKENS:
                TOKENS[text] = tokens(text)
            tree.setdefault(folder, {})[path] = TOKENS[text]
    return tree


TOKENS = {}  # by file text: the self-test reads the same files again


def declarations(toks):
    """Names a file declares: (top-level exported, file-private, members of
    its extension blocks, every member or local name)."""
    exported, private, extension, members = set(), set(), set(), set()
    in_extension = False
    for k, (word, _, off, depth, _) in enumerate(toks):
        if depth == 0 and word == "extension":
            in_extension = True
        if word not in DECL or k + 1 >= len(toks):
            continue
        name, _, _, ndepth, _ = toks[k + 1]
        if not IDENT.fullmatch(name) or name in DECL:
            continue
        if depth == 0 and ndepth == 0:
            in_extension = False
            mods, j = set(), k - 1
            while j >= 0 and toks[j][0] in MODIFIERS and toks[j][3] == 0:
                mods.add(toks[j][0]); j -= 1
            (private if mods & {"private", "fileprivate"} else exported).add(name)
        elif depth > 0:
            members.add(name)
            if depth == 1 and in_extension and word in {"func", "var", "let"}:
                extension.add(name)
    return exported, private, extension, members


def check(root):
    """Problems, uses counted, files read, orders, uses, for the targets under root."""
    problems, count, files, orders, all_uses = [], 0, 0, [], {}
    for target, ranks in TARGETS:
        rank = {f: i for i, folders in enumerate(ranks) for f in folders}
        tree = read_tree(os.path.join(root, target))
        files += sum(len(v) for v in tree.values())
        problems += [f"{os.path.join(root, target, f)}: folder {f} is not in the layer map of "
                     "Scripts/check-layers.sh (add it to a rank of its target)"
                     for f in sorted(tree) if f not in rank and f != "."]
        problems += [f"{os.path.join(root, target, f)}: folder {f} of the layer map has no Swift files "
                     "(update Scripts/check-layers.sh)" for f in rank if f not in tree]
        owner, private_of, ext_owner, member_folders = {}, {}, {}, {}
        for folder, fs in tree.items():
            for path, toks in fs.items():
                exported, private, extension, members = declarations(toks)
                private_of[path] = private
                for name in exported:
                    owner.setdefault(name, set()).add(folder)
                for name in extension:
                    ext_owner.setdefault(name, set()).add(folder)
                for name in members:
                    member_folders.setdefault(name, set()).add(folder)
        uses = {}
        for folder, fs in tree.items():
            for path, toks in fs.items():
                seen = set()
                for name, line, _, _, prev in toks:
                    if name in private_of[path] or (name, prev == ".") in seen:
                        continue
                    if prev == ".":
                        # A member: a use of a higher folder only when no folder
                        # at or below this one declares a member of that name.
                        homes = ext_owner.get(name, set())
                        if not homes or folder in homes or folder not in rank:
                            continue
                        if any(rank.get(g, 99) <= rank[folder] for g in member_folders.get(name, ())):
                            continue
                    else:
                        homes = owner.get(name, set())
                        if not homes or folder in homes:
                            continue
                    seen.add((name, prev == "."))
                    for home in homes:
                        uses.setdefault((folder, home), []).append((path, line, name))
                        count += 1
        for (a, b), where in sorted(uses.items()):
            if a in rank and b in rank and rank[b] > rank[a]:
                for path, line, name in where:
                    problems.append(f"{path}:{line}: {name} is declared in {target}/{b}, "
                                    f"a higher folder than {a}")
        for folders in ranks:
            present = [f for f in folders if f in tree]
            reach = {f: {g for g in present if (f, g) in uses} for f in present}
            changed = True
            while changed:
                changed = False
                for f in present:
                    more = set().union(*(reach[g] for g in reach[f])) - reach[f]
                    if more:
                        reach[f] |= more; changed = True
            cyclic = [f for f in present if f in reach[f]]
            for a in cyclic:
                for b in cyclic:
                    if a != b and (a, b) in uses and a in reach[b]:
                        for path, line, name in uses[(a, b)]:
                            problems.append(f"{path}:{line}: {name} is declared in {target}/{b}, "
                                            f"and {b} reaches {a} back: a cycle")
            if not cyclic:
                orders += [f"{f} uses {', '.join(g for g in present if (f, g) in uses)}"
                           for f in present if any((f, g) in uses for g in present)]
        all_uses[target] = (uses, tree, owner, ext_owner, member_folders, rank)
    return problems, count, files, orders, all_uses


def self_test():
    problems, _, _, _, all_uses = check("Sources")
    if problems:
        print("self-test needs a clean tree; run the check first"); return 1
    uses, tree, owner, ext_owner, member_folders, rank = all_uses["HeatMapContouring"]
    top = "Facade"
    top_type = sorted(n for n, homes in owner.items() if top in homes and n[0].isupper())[0]
    # A member added by an extension in a higher folder and declared nowhere lower.
    ext_name = sorted(n for n, homes in ext_owner.items()
                      if any(rank[h] > rank["Levels"] for h in homes)
                      and all(rank.get(g, 0) > rank["Levels"] for g in member_folders.get(n, ())))[0]
    b, a = next((x, y) for (x, y) in sorted(uses) if rank.get(x) == rank.get(y) and x in rank)
    cases = [
        ("an upward use", "Levels", f"func planted() {{ _ = {top_type}.self }}\n", True),
        ("an upward use inside an interpolation", "Assembly",
         f'func planted() -> String {{ "x\\(String(describing: {top_type}.self))" }}\n', True),
        ("an upward use through an extension method", "Levels",
         f"func planted(_ x: Never) {{ _ = x.{ext_name} }}\n", True),
        ("a cycle within a rank", a, f"func planted() {{ _ = {sorted(n for n, h in owner.items() if b in h and n[0].isupper())[0]}.self }}\n", True),
        ("names only in comments and strings", "Levels",
         f'// {top_type}\n/* {top_type} /* nested */ */\n'
         f'let plantedText = "{top_type}" + #"\\({top_type})"#\n', False),
    ]
    failed = 0
    for what, folder, text, should_fail in cases:
        with tempfile.TemporaryDirectory() as tmp:
            root = os.path.join(tmp, "Sources")
            shutil.copytree("Sources", root)
            planted = os.path.join(root, "HeatMapContouring", folder, "Planted.swift")
            with open(planted, "w") as f:
                f.write(text)
            problems = check(root)[0]
            caught = any(p.startswith(planted + ":") for p in problems)
            ok = caught == should_fail and (should_fail or not problems)
            print(f"self-test {'ok ' if ok else 'FAILED'}: {what} in {folder}: "
                  + (problems[0].replace(root, "<copy>") if problems else "passes"))
            failed += not ok
    print("self-test passes" if not failed else "self-test FAILED")
    return 1 if failed else 0


if sys.argv[1:] == ["--self-test"]:
    sys.exit(self_test())
problems, count, files, orders, _ = check(sys.argv[1] if len(sys.argv) > 1 else "Sources")
for p in problems:
    print(p)
if problems:
    print(f"layer check FAILED: {len(problems)} uses break the layer rule "
          "(ranks in Scripts/check-layers.sh, docs/architecture.md)")
    sys.exit(1)
print(f"layers hold: {files} files, {count} uses across folders, all downward; "
      "within ranks (no cycles): " + "; ".join(orders))
PY
