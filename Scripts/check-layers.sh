#!/usr/bin/env bash
# The dependency rule of Sources/HeatMap: each folder belongs to one layer
# (the LAYERS list below, lowest first, as in README's Development section
# and docs/architecture.md), and a file may use only names declared in its
# own folder, in a lower layer, or in a folder of its own layer that does
# not use it back (folders within a layer must form an order: no cycles).
#
# How: every top-level type, typealias, function and global declared in a
# folder is that folder's; each file's identifiers (comments and string
# literals skipped, interpolations read) are looked up in that table. A
# use of a higher layer, or each use along a cycle within a layer, is
# printed as file:line and fails the check. Members added by extensions
# are not tracked; the extended type's own name is.
#
# Needs only bash and python3's standard library (CI has nothing else).
# Usage: Scripts/check-layers.sh [SOURCES]   (default Sources/HeatMap)
#        Scripts/check-layers.sh --self-test  (plants violations in a temp
#        copy and expects each to be caught, so the check cannot pass
#        vacuously)
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import os, re, shutil, subprocess, sys, tempfile

LAYERS = [
    ("core values and geometry", ["Text", "Model", "Projection", "Pipeline"]),
    ("point readers", ["Input"]),
    ("density", ["Density", "Engines"]),
    ("contours", ["Levels", "Contouring", "Smoothing", "Assembly", "HitTesting"]),
    ("the public result", ["Facade"]),
    ("formats and pictures", ["Binning", "H3", "GeoJSON", "Simplification",
                              "Raster", "Rendering", "Tiles"]),
]
LAYER_OF = {f: i for i, (_, folders) in enumerate(LAYERS) for f in folders}

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
    """Top-level names a file declares: (exported, file-private)."""
    exported, private = set(), set()
    for k, (word, _, off, depth, _) in enumerate(toks):
        if depth or word not in DECL or k + 1 >= len(toks):
            continue
        name, _, _, ndepth, _ = toks[k + 1]
        if ndepth or not IDENT.fullmatch(name) or name in DECL:
            continue
        mods, j = set(), k - 1
        while j >= 0 and toks[j][0] in MODIFIERS and toks[j][3] == 0:
            mods.add(toks[j][0]); j -= 1
        (private if mods & {"private", "fileprivate"} else exported).add(name)
    return exported, private


def check(root):
    tree = read_tree(root)
    problems = [f"{os.path.join(root, f)}: folder {f} is not in the layer map of "
                "Scripts/check-layers.sh (add it to a layer)"
                for f in sorted(tree) if f not in LAYER_OF]
    problems += [f"{os.path.join(root, f)}: folder {f} of the layer map has no Swift files "
                 "(update Scripts/check-layers.sh)" for f in LAYER_OF if f not in tree]
    owner, private_of = {}, {}
    for folder, files in tree.items():
        for path, toks in files.items():
            exported, private = declarations(toks)
            private_of[path] = private
            for name in exported:
                owner.setdefault(name, set()).add(folder)
    # uses[(a, b)] = [(path, line, name)], first line per file and name
    uses, count = {}, 0
    for folder, files in tree.items():
        for path, toks in files.items():
            seen = set()
            for name, line, _, _, prev in toks:
                if prev == "." or name in private_of[path] or name in seen:
                    continue
                homes = owner.get(name, set())
                if not homes or folder in homes:
                    continue
                seen.add(name)
                for home in homes:
                    uses.setdefault((folder, home), []).append((path, line, name))
                    count += 1
    for (a, b), where in sorted(uses.items()):
        if a in LAYER_OF and b in LAYER_OF and LAYER_OF[b] > LAYER_OF[a]:
            for path, line, name in where:
                problems.append(f"{path}:{line}: {name} is declared in {b} "
                                f"({LAYERS[LAYER_OF[b]][0]}), a higher layer than "
                                f"{a} ({LAYERS[LAYER_OF[a]][0]})")
    orders = []
    for title, folders in LAYERS:
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
                        problems.append(f"{path}:{line}: {name} is declared in {b}, "
                                        f"and {b} reaches {a} back: a cycle within "
                                        f"layer {title}")
        if not cyclic:
            orders += [f"{f} uses {', '.join(g for g in present if (f, g) in uses)}"
                       for f in present if any((f, g) in uses for g in present)]
    return problems, count, sum(len(v) for v in tree.values()), orders, uses


def self_test():
    problems, _, _, _, uses = check("Sources/HeatMap")
    if problems:
        print("self-test needs a clean tree; run the check first"); return 1
    owner = {}
    tree = read_tree("Sources/HeatMap")
    for folder, files in tree.items():
        for path, toks in files.items():
            for name in declarations(toks)[0]:
                owner.setdefault(folder, set()).add(name)
    def pick(folder):
        return sorted(n for n in owner[folder] if n[0].isupper())[0]
    top = LAYERS[-1][1][-1]
    # b uses a today, within one layer: a use of b planted in a closes a cycle.
    b, a = next((x, y) for (x, y) in sorted(uses)
                if x in LAYER_OF and LAYER_OF.get(y) == LAYER_OF[x])
    cases = [
        ("an upward use", "Model", f"func planted() {{ _ = {pick(top)}.self }}\n", True),
        ("an upward use inside an interpolation", "Projection",
         f'func planted() -> String {{ "x\\(String(describing: {pick(top)}.self))" }}\n', True),
        ("a cycle within a layer", a, f"func planted() {{ _ = {pick(b)}.self }}\n", True),
        ("names only in comments and strings", "Model",
         f'// {pick(top)}\n/* {pick(top)} /* nested */ */\n'
         f'let plantedText = "{pick(top)}" + #"\\({pick(top)})"#\n', False),
    ]
    failed = 0
    for what, folder, text, should_fail in cases:
        with tempfile.TemporaryDirectory() as tmp:
            root = os.path.join(tmp, "HeatMap")
            shutil.copytree("Sources/HeatMap", root)
            planted = os.path.join(root, folder, "Planted.swift")
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
root = sys.argv[1] if len(sys.argv) > 1 else "Sources/HeatMap"
problems, count, files, orders, _ = check(root)
for p in problems:
    print(p)
if problems:
    print(f"layer check FAILED: {len(problems)} uses break the layer rule "
          "(layers in Scripts/check-layers.sh, README's Development section)")
    sys.exit(1)
print(f"layers hold: {files} files, {count} uses across folders, all downward; "
      "within layers (no cycles): " + "; ".join(orders))
PY
