"""The Ray backend against a local Ray instance started here: same results as the pool."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from mextrain.cli import main
from mextrain.rules import Rules
from mextrain.sim import SimConfig, game_rules, run_games, simulate

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
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
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
