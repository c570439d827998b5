"""The Python examples in the README and the docs run as written."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_blocks(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


CASES = [(path, i, code) for path in DOCS for i, code in enumerate(python_blocks(path))]


@pytest.mark.parametrize(
    ("path", "index", "code"), CASES, ids=[f"{p.name}-{i}" for p, i, _ in CASES]
)
def test_python_example_runs(
    path: Path, index: int, code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    namespace: dict[str, object] = {"__name__": f"doc_example_{path.stem.lower()}"}
    exec(compile(code, f"{path.name}[{index}]", "exec"), namespace)


def test_readme_quick_start_has_exactly_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", quick, flags=re.DOTALL)
    assert block is not None
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert len(commands) == 2
    assert commands[1].split()[0] == "./scripts/test"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "./scripts/test" in ci, "CI must run the README's test command"


def test_the_quick_start_says_it_is_installing_then_runs_the_game(tmp_path: Path) -> None:
    """The first run installs quietly for a minute: it says so first, then runs
    mextrain with the arguments given (here with a stand-in venv, nothing installed)."""
    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts" / "mextrain"
    script.write_bytes((ROOT / "scripts" / "mextrain").read_bytes())
    script.chmod(0o755)
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name, body in (("python", "exit 0"), ("mextrain", 'echo "ran $*"')):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    done = subprocess.run(
        [str(script), "play"], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stderr.startswith("Installing mextrain into ")
    assert "Installed." in done.stderr
    assert done.stdout == "ran play\n"
    again = subprocess.run(
        [str(script), "play"], capture_output=True, text=True, timeout=60, check=True
    )
    assert again.stderr == ""  # installed: straight to the game
    assert again.stdout == "ran play\n"


def documented_simulations() -> list[tuple[str, str]]:
    """Every ``mextrain simulate`` command the README and the docs write out in full (not
    a template such as ``--bots BOT,planner``, nor one that needs a module of the
    reader's own, ``--import mybots``): the runs behind the figures, to be repeated."""
    found = []
    for path in DOCS:
        for line in path.read_text(encoding="utf-8").splitlines():
            command = line.strip().removeprefix("$ ").removeprefix("./scripts/")
            if not command.startswith("mextrain simulate "):
                continue
            if re.search(r"\b[A-Z][A-Z0-9]*\b", command) or "--import" in command:
                continue
            found.append((path.name, command))
    return found


def test_every_documented_simulation_is_a_job_the_simulator_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The docs give the command of every figure (BOTS.md has over a hundred): each is
    still one the simulator accepts as written -- its options, every bot and its
    parameters, the rules, the players and the games -- checked as `simulate` checks a
    job before it plays a game, so an option renamed or a bot parameter dropped cannot
    leave a figure nobody can reproduce. (Nothing is played: the run itself is cut off
    once the job is checked.)"""
    import shlex

    from click.testing import CliRunner

    import mextrain.sim
    from mextrain.cli import main

    class Checked(Exception):
        pass

    def played(*args: object, **kwargs: object) -> None:
        raise Checked

    monkeypatch.setattr(mextrain.sim, "simulate", played)
    commands = documented_simulations()
    assert len(commands) > 100
    refused = []
    for name, command in commands:
        result = CliRunner().invoke(main, shlex.split(command)[1:])
        if not isinstance(result.exception, Checked):
            refused.append(f"{name}: {command}\n  {result.output.strip()}")
    assert not refused, "\n".join(refused)


def documented_benchmarks() -> list[tuple[str, str, str]]:
    """Every ``python benchmarks/SCRIPT.py ARGS`` the README and the docs write out in
    full (no template such as ``--players N``): the script and its arguments."""
    found = set()
    for path in DOCS:
        for line in path.read_text(encoding="utf-8").splitlines():
            for script, args in re.findall(r"python benchmarks/([a-z_]+\.py)([^`#\n]*)", line):
                if not re.search(r"\b[A-Z][A-Z0-9/]*\b|\[", args):
                    found.add((path.name, script, args.strip()))
    return sorted(found)


def test_every_documented_benchmark_command_is_one_its_script_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each benchmark the docs run is a script there, and its arguments as written are
    ones the script reads (its options read, then the run cut off before any work)."""
    import argparse
    import runpy
    import sys

    class Checked(Exception):
        pass

    real = argparse.ArgumentParser.parse_args

    def parse_args(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        real(self, *args, **kwargs)  # (a usage error: SystemExit 2)
        raise Checked

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_args)
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))  # (as running the script would)
    commands = documented_benchmarks()
    assert len(commands) > 15
    refused = []
    for name, script, args in commands:
        monkeypatch.setattr(sys, "argv", [script, *args.split()])
        try:
            runpy.run_path(str(ROOT / "benchmarks" / script), run_name="__main__")
        except Checked:
            continue
        except SystemExit as err:
            refused.append(f"{name}: python benchmarks/{script} {args}: exit {err.code}")
        else:
            refused.append(f"{name}: python benchmarks/{script} {args}: read no options")
    assert not refused, "\n".join(refused)
