"""The Ray backend against a local Ray instance started here: same results as the pool."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mextrain.bots import register_bot
from mextrain.cli import main
from mextrain.rules import Action, Rules, SeatView
from mextrain.sim import SimConfig, SimulationError, game_rules, run_games, simulate

ray: Any = pytest.importorskip("ray")

pytestmark = pytest.mark.slow


def test_the_cli_starts_and_stops_its_own_ray() -> None:
    args = ["simulate", "--players", "2", "--bots", "planner,greedy", "--games", "4"]
    args += ["--seed", "3", "--rounds", "1", "--json", "--jobs", "2"]
    runner = CliRunner()
    on_ray = runner.invoke(main, [*args, "--backend", "ray"], catch_exceptions=False)
    assert on_ray.exit_code == 0, on_ray.output
    assert not ray.is_initialized()
    local = runner.invoke(main, args, catch_exceptions=False)
    assert json.loads(on_ray.stdout)["entries"] == json.loads(local.stdout)["entries"]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # the workers find this folder's modules, as a cluster's nodes find a bot's module
    here = str(Path(__file__).parent)
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)
    env = {"env_vars": {"PYTHONPATH": path}}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env=env)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_gives_the_same_games_as_the_process_pool(local_ray: None) -> None:
    cfg = SimConfig(
        game_rules(Rules.preset("classic"), 2),
        3,
        ("planner", "greedy", "random"),
        9,
        21,
        keep_records=True,
    )
    on_ray = run_games(cfg, jobs=2, backend="ray")
    local = run_games(cfg, jobs=1)
    assert on_ray == local
    seen: list[int] = []
    run_games(cfg, jobs=2, backend="ray", progress=seen.append)
    assert sum(seen) == 9


def test_simulate_on_ray_reports_the_same_statistics(local_ray: None) -> None:
    args: dict[str, Any] = {"rounds": 1, "records": None}
    on_ray = simulate("classic", 2, ["planner", "greedy"], 8, 4, backend="ray", jobs=2, **args)
    local = simulate("classic", 2, ["planner", "greedy"], 8, 4, jobs=2, **args)
    assert on_ray.to_dict()["entries"] == local.to_dict()["entries"]
    assert ray.is_initialized()  # a Ray the caller started is left running


def test_a_bot_registered_in_the_callers_module_plays_on_ray(local_ray: None) -> None:
    # the workers import the module that registered it (this one: the tests' folder is on
    # their path, as a bot's module must be on every node's)
    args: dict[str, Any] = {"rounds": 1, "jobs": 2}
    on_ray = simulate("classic", 2, ["ray-first-legal", "greedy"], 4, 2, backend="ray", **args)
    local = simulate("classic", 2, ["ray-first-legal", "greedy"], 4, 2, **args)
    assert on_ray.to_dict()["entries"] == local.to_dict()["entries"]


def test_a_bots_failure_on_ray_is_its_own_words_not_rays(local_ray: None) -> None:
    with pytest.raises(SimulationError) as failed:
        simulate("classic", 2, ["ray-breaks", "greedy"], 2, 2, rounds=1, backend="ray", jobs=2)
    message = str(failed.value)
    assert message.startswith("bot 'ray-breaks' at seat"), message
    assert message.endswith("failed: RuntimeError: a bug"), message
    assert "\x1b[" not in message  # no remote traceback in colours
    assert "Traceback" not in message


class FirstLegal:
    name = "ray-first-legal"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        return view.legal_actions[0]


class Breaks:
    name = "ray-breaks"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        raise RuntimeError("a bug")


# registered on import: what a worker runs of this module
register_bot("ray-first-legal", FirstLegal)
register_bot("ray-breaks", Breaks)


@pytest.mark.skipif(os.name != "posix", reason="sends SIGTERM")
def test_sigterm_stops_a_ray_run_as_it_stops_the_process_pool(tmp_path: Path) -> None:
    """Ray put its own SIGTERM handler in place of the command's: ``kill`` ended the run
    with exit 1 and nothing said. It stops as Ctrl-C does, on Ray too: exit 143, the
    finished games' records kept and counted, Ray shut down."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "recs"
    args = ["simulate", "--players", "3", "--bots", "planner,greedy,random", "--seed", "9"]
    args += ["--games", "3000", "--jobs", "2", "--backend", "ray", "--records", str(out)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "mextrain", *args, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 180
        while not (out.is_dir() and any(out.glob("game-*.json"))):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no game finished in three minutes"
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 128 + signal.SIGTERM, stderr[-2000:]
    saved = len(list(out.glob("game-*.json")))
    reason = json.loads(stdout)["error"]["reason"]
    assert reason.startswith(f"terminated ({saved} finished game"), reason
