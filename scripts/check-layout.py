#!/usr/bin/env python3
"""The house rules that a compiler does not check (ARCHITECTURE.md, "Invariants"):

- no import circle between two files of the workspace (a file uses another through a
  `crate::` path, `super::` or a sibling `mod`; a circle is two files using each other,
  directly or through others);
- no source file over 700 lines and no function over 100 lines, tests aside, unless the
  file's or the function's doc comment says why ("kept whole because").

Prints each breach and exits 1 when there is one. Run by .ci/run.
"""
import re
import sys
from pathlib import Path

MAX_FILE = 700
MAX_FN = 100
EXCUSE = "kept whole because"
ROOT = Path(__file__).resolve().parent.parent


def crate_roots():
    for lib in sorted((ROOT / "crates").glob("*/src")):
        yield lib


def module_path(src: Path, file: Path):
    """The module path of a file (`["store", "games"]`) below its crate's `src`."""
    rel = file.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts in (["lib"], ["main"]):
        return []
    if parts[-1] == "mod":
        parts = parts[:-1]
    return parts


def strip_tests(text: str) -> str:
    """The file without its `#[cfg(test)]` modules (tests aside)."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]" and i + 1 < len(lines) and re.match(
            r"\s*(pub(\(crate\))? )?mod \w+\s*\{", lines[i + 1]
        ):
            depth = 0
            j = i + 1
            while j < len(lines):
                depth += lines[j].count("{") - lines[j].count("}")
                if depth <= 0 and "{" in "".join(lines[i + 1 : j + 1]):
                    break
                j += 1
            i = j + 1
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def code_only(text: str) -> str:
    """Comments and string and character literals blanked (line breaks kept), so braces
    and paths in them do not count."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r(#*)"', text[i:]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            close = '"' + hashes
            j = text.find(close, i + 2 + len(hashes))
            j = n if j < 0 else j + len(close)
            out.append('""' + "\n" * text[i:j].count("\n"))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text[i : j + 1].count("\n"))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^'\\])'", text[i:])
            if m:
                out.append("' '")
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def uses(src: Path, file: Path, modules: dict):
    """The files of the same crate that `file` uses."""
    me = module_path(src, file)
    text = code_only(strip_tests(file.read_text()))
    found = set()

    def resolve(path):
        # The longest prefix of the path that names a file of the crate; the crate's root
        # too, so an item reached through the root's re-exports counts as using the root.
        for n in range(len(path), -1, -1):
            key = tuple(path[:n])
            if key in modules:
                return modules[key]
        return None

    def absolute(segments):
        if segments[0] == "crate":
            return segments[1:]
        if segments[0] == "super":
            base = me[:-1] if file.name not in ("mod.rs",) else me[:-1]
            rest = segments[1:]
            while rest and rest[0] == "super":
                base = base[:-1]
                rest = rest[1:]
            return base + rest
        if segments[0] == "self":
            return me + segments[1:]
        return None

    # `use` trees, expanded one level of braces at a time.
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        for path in expand(m.group(1).replace("\n", " ")):
            segs = [s for s in path.split("::") if s]
            if segs and segs[0] in ("crate", "super", "self"):
                p = absolute(segs)
                if p:
                    t = resolve(p)
                    if t:
                        found.add(t)
    # Paths written in full in the code.
    # `$crate::` in a macro names the crate for its callers, not a use of the root.
    for m in re.finditer(r"(?<!\$)\b((?:crate|super)(?:::\w+)+)", text):
        p = absolute(m.group(1).split("::"))
        if p:
            t = resolve(p)
            if t:
                found.add(t)
    # Paths through a child module the file declares (`mod store;` … `store::Store`).
    for child in re.findall(r"\bmod\s+(\w+)\s*;", text):
        if re.search(r"(?<![:\w])" + child + r"::", text):
            t = modules.get(tuple(me + [child]))
            if t:
                found.add(t)
    found.discard(file)
    return found


def expand(tree: str):
    tree = tree.strip()
    depth = 0
    for i, c in enumerate(tree):
        if c == "{":
            prefix = tree[:i]
            inner = tree[i + 1 : tree.rindex("}")]
            parts, cur, d = [], "", 0
            for ch in inner:
                if ch == "," and d == 0:
                    parts.append(cur)
                    cur = ""
                    continue
                d += ch == "{"
                d -= ch == "}"
                cur += ch
            parts.append(cur)
            out = []
            for p in parts:
                p = p.strip()
                if not p:
                    continue
                if p == "self":
                    out.append(prefix.rstrip(":"))
                else:
                    out.extend(prefix + q for q in expand(p))
            return out
    return [re.sub(r"\s+as\s+\w+$", "", tree)]


def cycles(graph):
    """Strongly connected components of more than one file."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in graph:
        if v not in index:
            visit(v)
    return out


def long_functions(file: Path):
    lines = strip_tests(file.read_text()).split("\n")
    code = code_only("\n".join(lines)).split("\n")
    for i, line in enumerate(code):
        if not re.match(r"\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+\w+", line):
            continue
        depth, opened, end = 0, False, None
        for j in range(i, len(code)):
            if not opened and ";" in code[j] and "{" not in code[j]:
                break
            depth += code[j].count("{") - code[j].count("}")
            opened = opened or "{" in code[j]
            if opened and depth <= 0:
                end = j
                break
        if end is None or end - i + 1 <= MAX_FN:
            continue
        doc = []
        k = i - 1
        while k >= 0 and (lines[k].strip().startswith(("///", "#[")) or not lines[k].strip()):
            doc.append(lines[k])
            k -= 1
        if EXCUSE not in " ".join(" ".join(doc).split()).lower():
            name = re.search(r"fn\s+(\w+)", line).group(1)
            yield name, i + 1, end - i + 1


def main():
    breaches = []
    for src in crate_roots():
        files = sorted(src.rglob("*.rs"))
        modules = {tuple(module_path(src, f)): f for f in files}
        graph = {f: uses(src, f, modules) for f in files}
        for comp in cycles(graph):
            names = ", ".join(str(f.relative_to(ROOT)) for f in sorted(comp))
            breaches.append(f"import circle: {names}")
        for f in files:
            text = f.read_text()
            n = len(strip_tests(text).rstrip("\n").split("\n"))
            head = " ".join(" ".join(l.lstrip("/! ") for l in text.split("\n")[:12] if l.startswith("//!")).split())
            if n > MAX_FILE and EXCUSE not in head.lower():
                breaches.append(f"{f.relative_to(ROOT)}: {n} lines (tests aside) over {MAX_FILE}")
            for name, line, length in long_functions(f):
                breaches.append(
                    f"{f.relative_to(ROOT)}:{line}: fn {name} is {length} lines, over {MAX_FN}"
                )
    for b in breaches:
        print(b)
    if breaches:
        print(f"{len(breaches)} breach(es) of the layout rules (scripts/check-layout.py)")
        return 1
    print("layout: no import circle, no file over 700 lines, no function over 100 lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
