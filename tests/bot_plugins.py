"""Installed packages that offer bots, made for a test: a folder put on ``sys.path`` with
each package's metadata (``NAME-VERSION.dist-info``, its ``entry_points.txt``) and
modules, found by `importlib.metadata` as an installed package's are. The registry is
read afresh on entering and put back as it was on leaving."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from mextrain.bots import base


@dataclass(frozen=True)
class Package:
    """One package: its bots (``name = module:factory`` lines of ``mextrain.bots``) and
    its modules' source by module name (``pkg/inner`` for a module of a package's
    folder, ``pkg/__init__`` its own)."""

    name: str
    bots: tuple[str, ...]
    modules: dict[str, str] = field(default_factory=dict)
    version: str = "1.0"


def write_packages(site: Path, *packages: Package) -> None:
    for package in packages:
        folder = package.name.replace("-", "_")  # (as a wheel writes it)
        info = site / f"{folder}-{package.version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {package.name}\nVersion: {package.version}\n"
        )
        lines = "\n".join(package.bots)
        (info / "entry_points.txt").write_text(f"[{base.PLUGIN_GROUP}]\n{lines}\n")
        for module, source in package.modules.items():
            path = site / f"{module}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(source))


@contextmanager
def installed(site: Path, *packages: Package) -> Iterator[None]:
    """The packages installed (in ``site``) while inside; the registry as it was after."""
    write_packages(site, *packages)
    base._load_builtin()  # (the built-in bots first, as any first use does)
    saved = (
        dict(base._REGISTRY),
        dict(base._REGISTERED_BY),
        dict(base._PLUGINS),
        base._plugins_read,
    )
    tops = {m.split("/")[0] for p in packages for m in p.modules}
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    base._plugins_read = False
    try:
        yield
    finally:
        sys.path.remove(str(site))
        for module in [m for m in sys.modules if m.split(".")[0] in tops]:
            sys.modules.pop(module, None)
        base._REGISTRY.clear()
        base._REGISTRY.update(saved[0])
        base._REGISTERED_BY.clear()
        base._REGISTERED_BY.update(saved[1])
        base._PLUGINS.clear()
        base._PLUGINS.update(saved[2])
        base._plugins_read = saved[3]
        base._SIGNATURES.clear()
