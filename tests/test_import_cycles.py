"""No import cycle in bot/ (nor rules/, storage/ or between them), and no class whose base classes'
modules import the class's module back.

Read from the source (the AST), not by importing: every module-level import counts, those under
`if TYPE_CHECKING:` too (a cycle the type checker needs is the same knot in the design). Imports inside
functions do not: they run later, when both modules are loaded.

Nothing is allowed today: the lists below are empty, and may only stay so.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

KNOWN_CYCLES: set[frozenset[str]] = set()
KNOWN_BASES_IMPORTING_BACK: set[tuple[str, str]] = set()


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of `package` (a folder under `root`) by dotted name."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run when the module loads: the body, and inside its `if`/`try` blocks."""
    out: list[ast.stmt] = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, ast.If):
            out += _top_level(stmt.body) + _top_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            out += _top_level(stmt.body) + _top_level(stmt.orelse) + _top_level(stmt.finalbody)
            for handler in stmt.handlers:
                out += _top_level(handler.body)
    return out


def imported_names(name: str, path: Path, known: dict[str, Path]) -> dict[str, str]:
    """Each name a module binds by a module-level import -> the module (of `known`) it comes from.
    `from p import m` of a submodule m imports p.m; of anything else, p."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: dict[str, str] = {}
    for stmt in _top_level(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                out[alias.asname or alias.name] = alias.name
        elif isinstance(stmt, ast.ImportFrom):
            if stmt.level:
                base = package.split(".")[: len(package.split(".")) - stmt.level + 1]
                source = ".".join(base + ([stmt.module] if stmt.module else []))
            else:
                source = stmt.module or ""
            for alias in stmt.names:
                sub = f"{source}.{alias.name}"
                out[alias.asname or alias.name] = sub if sub in known else source
    return {bound: source for bound, source in out.items() if source in known}


def import_graph(known: dict[str, Path]) -> dict[str, set[str]]:
    return {name: set(imported_names(name, path, known).values()) - {name} for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def bases_importing_back(known: dict[str, Path]) -> set[tuple[str, str]]:
    """(class, base) for each module-level class with a base class whose module imports the class's module."""
    graph = import_graph(known)
    out = set()
    for name, path in known.items():
        names = imported_names(name, path, known)
        for stmt in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(stmt, ast.ClassDef):
                continue
            for base in stmt.bases:
                if isinstance(base, ast.Name) and base.id in names:
                    source, base_name = names[base.id], base.id
                elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id in names:
                    source, base_name = names[base.value.id], base.attr
                else:
                    continue  # defined here, or outside the package
                if name in graph.get(source, set()):
                    out.add((f"{name}.{stmt.name}", f"{source}.{base_name}"))
    return out


def parts_by_inheritance(known: dict[str, Path], package: str) -> set[str]:
    """Classes of `package` split across files: those with a base class from another module of
    `package`, and those declaring what a host class provides (`if TYPE_CHECKING:` in the class body)."""
    out = set()
    for name, path in known.items():
        if not (name == package or name.startswith(package + ".")):
            continue
        names = imported_names(name, path, known)
        for stmt in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(stmt, ast.ClassDef):
                continue
            for base in stmt.bases:
                if isinstance(base, ast.Name) and names.get(base.id, "").startswith(package + "."):
                    out.add(f"{name}.{stmt.name}")
            for inner in stmt.body:
                if isinstance(inner, ast.If) and "TYPE_CHECKING" in ast.unparse(inner.test):
                    out.add(f"{name}.{stmt.name}")
    return out


def _ours() -> dict[str, Path]:
    return {**modules(ROOT, "bot"), **modules(ROOT, "rules"), **modules(ROOT, "storage")}


def test_no_new_import_cycle_in_bot() -> None:
    found = cycles(import_graph(_ours()))
    new = [sorted(c) for c in found - KNOWN_CYCLES]
    gone = [sorted(c) for c in KNOWN_CYCLES - found]
    assert not new, f"new import cycles in bot/ (break them; a listed one that shrank: list what is left): {new}"
    assert not gone, f"these listed cycles are gone or changed: update KNOWN_CYCLES to what is left: {gone}"


def test_no_new_class_whose_bases_import_it_back() -> None:
    found = bases_importing_back(_ours())
    new = sorted(found - KNOWN_BASES_IMPORTING_BACK)
    gone = sorted(KNOWN_BASES_IMPORTING_BACK - found)
    assert not new, f"classes whose base's module imports the class's module: {new}"
    assert not gone, f"gone: delete them from KNOWN_BASES_IMPORTING_BACK: {gone}"


def test_the_table_service_is_composed_not_inherited() -> None:
    """bot/core: no import cycle at all (none may be listed), and no class made of parts in other files
    (the table service's lobby, ledger, automatic moves and clock work are collaborators it builds)."""
    known = _ours()
    core_cycles = [sorted(c) for c in cycles(import_graph(known)) if any(m.startswith("bot.core.") for m in c)]
    assert not core_cycles, f"import cycles through bot/core: {core_cycles}"
    assert not parts_by_inheritance(known, "bot.core"), parts_by_inheritance(known, "bot.core")


def test_the_checks_find_a_cycle_and_a_base_importing_back(tmp_path: Path) -> None:
    """The detectors on a made-up package: a cycle through a TYPE_CHECKING import and a relative one,
    a host class whose part imports it back, an import inside a function (no cycle), and a chain."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "host.py": "from pkg.part import Part\n\nclass Host(Part):\n    pass\n",
        "part.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.host import Host\n\n"
                   "class Part:\n    pass\n",
        "late.py": "def f():\n    from pkg import chain\n",
        "chain.py": "import pkg.late\nfrom pkg.sub import leaf\n\nclass Chain(leaf.Leaf):\n    pass\n",
        "sub/__init__.py": "",
        "sub/leaf.py": "class Leaf:\n    pass\n",
        "sub/a.py": "from . import b\n",
        "sub/b.py": "from .a import x\n",
    }
    for rel, text in files.items():
        (pkg / rel).write_text(text, encoding="utf-8")
    known = modules(tmp_path, "pkg")
    assert cycles(import_graph(known)) == {frozenset({"pkg.host", "pkg.part"}), frozenset({"pkg.sub.a", "pkg.sub.b"})}
    assert bases_importing_back(known) == {("pkg.host.Host", "pkg.part.Part")}
    assert parts_by_inheritance(known, "pkg") == {"pkg.host.Host"}


def test_parts_by_inheritance_finds_a_host_class_convention(tmp_path: Path) -> None:
    """A mixin declaring what its host provides, under `if TYPE_CHECKING:` in its body, is found
    even when nothing in the package inherits it yet."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "mixin.py").write_text("from typing import TYPE_CHECKING\n\nclass Mixin:\n    if TYPE_CHECKING:\n"
                                  "        def get(self) -> int: ...\n", encoding="utf-8")
    (pkg / "plain.py").write_text("class Plain(Exception):\n    pass\n", encoding="utf-8")
    assert parts_by_inheritance(modules(tmp_path, "pkg"), "pkg") == {"pkg.mixin.Mixin"}
