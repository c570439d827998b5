"""The layers point one way: nothing imports upward, and the rules core is pure."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "mextrain"

# Lower number = lower layer. A module may import its own package and lower layers only;
# bots and search form one layer (the registry finds the search bots by name).
LAYERS = {
    "rules": 0,
    "intervals": 0,  # a module at the top (pure arithmetic: search and sim share it)
    "records": 1,
    "planner": 1,
    "i18n": 1,
    "bots": 2,
    "search": 2,
    "sim": 3,
    "store": 3,
    "tui": 4,
    "web": 4,
    "rl": 4,
    "cli": 5,
}
SAME_LAYER_OK = {frozenset({"bots", "search"})}


# Modules at the top that are not a layer of their own: the package's marker and
# ``python -m mextrain`` (the command line's entry, above everything).
ENTRY_MODULES = {"__init__.py", "__main__.py"}


def package_of(path: Path) -> str | None:
    """The layer a module belongs to: its package, or a top-level module's own name."""
    parts = path.relative_to(SRC).parts
    if len(parts) > 1:
        return parts[0]
    return None if parts[0] in ENTRY_MODULES else path.stem


def mextrain_imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level mextrain package) for every import of mextrain in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = path.relative_to(SRC).parts[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "mextrain" and len(parts) > 1:
                    found.append((node.lineno, parts[1]))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(here[: len(here) - node.level + 1])
                mod = base + (node.module.split(".") if node.module else [])
                if mod:
                    found.append((node.lineno, mod[0]))
                else:  # "from .. import x" at the package root
                    found.extend((node.lineno, a.name) for a in node.names)
            elif node.module and node.module.split(".")[0] == "mextrain":
                parts = node.module.split(".")
                if len(parts) > 1:
                    found.append((node.lineno, parts[1]))
                else:
                    found.extend((node.lineno, a.name) for a in node.names)
    return found


MODULES = sorted(p for p in SRC.rglob("*.py") if package_of(p) is not None)


def test_every_top_level_module_is_placed() -> None:
    """A new module at the top must be given a layer, as a new package must."""
    top = sorted(p.name for p in SRC.glob("*.py") if p.name not in ENTRY_MODULES)
    assert top, "the layer check would miss modules at the top"
    for name in top:
        assert Path(name).stem in LAYERS, f"add the module {name!r} to the layer table"


def test_shared_arithmetic_uses_only_the_standard_library() -> None:
    """``intervals`` sits at the bottom with the rules: it imports nothing of mextrain."""
    assert mextrain_imports(SRC / "intervals.py") == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_no_upward_imports(path: Path) -> None:
    pkg = package_of(path)
    assert pkg in LAYERS, f"add the package {pkg!r} to the layer table"
    for line, target in mextrain_imports(path):
        if target == pkg or target not in LAYERS:
            continue
        ok = LAYERS[target] < LAYERS[pkg] or frozenset({pkg, target}) in SAME_LAYER_OK
        assert ok, f"{path.relative_to(SRC)}:{line} imports mextrain.{target} (upward)"


def test_rules_core_uses_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for path in (SRC / "rules").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in stdlib, f"{path.name} imports {name}: the rules core is pure"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("print", "open", "input"), (
                    f"{path.name}:{node.lineno} does I/O in the rules core"
                )


def test_rules_core_has_no_global_randomness() -> None:
    for path in (SRC / "rules").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for banned in ("random.random(", "random.shuffle(", "random.choice(", "random.seed("):
            assert banned not in text, f"{path.name} uses the global RNG ({banned})"
