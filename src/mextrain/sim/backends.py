"""Where games run: in this process, on a pool of local processes, or on a Ray cluster.

Workers receive the job's `SimConfig` and a range of game indices — seeds, never state —
and send back one `GameResult` per game. Results are put back in game order, so the
merged outcome is the same whatever the backend, the number of jobs or the order in which
workers finish.
"""

from __future__ import annotations

import math
import multiprocessing
import socket
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any
from urllib.parse import urlsplit

from .games import GameResult, SimConfig, SimulationError, play_games

__all__ = ["BACKENDS", "ProgressFn", "check_cluster", "chunk_games", "run_games"]

#: called with the number of games just finished
ProgressFn = Callable[[int], None]

BACKENDS = ("process", "ray")


def chunk_games(games: int, jobs: int, per_job: int = 4) -> list[range]:
    """Split ``range(games)`` into about ``per_job`` chunks per job, in order."""
    size = max(1, math.ceil(games / (max(1, jobs) * per_job)))
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def _in_order(results: list[GameResult], games: int) -> list[GameResult]:
    results.sort(key=lambda r: r.game)
    if [r.game for r in results] != list(range(games)):  # pragma: no cover - a backend bug
        raise SimulationError("a backend lost or repeated games")
    return results


def run_games(
    config: SimConfig,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: ProgressFn | None = None,
) -> list[GameResult]:
    """Play every game of ``config``; the results in game order."""
    if backend == "process":
        return _run_local(config, jobs, progress)
    if backend == "ray":
        return _run_ray(config, jobs, address, progress)
    raise SimulationError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


def _run_local(config: SimConfig, jobs: int, progress: ProgressFn | None) -> list[GameResult]:
    chunks = chunk_games(config.games, jobs)
    results: list[GameResult] = []
    if jobs <= 1:
        for chunk in chunks:
            results.extend(play_games(config, chunk))
            if progress:
                progress(len(chunk))
        return _in_order(results, config.games)
    # "spawn": workers start clean (no copied threads or locks) and import mextrain anew.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(play_games, config, chunk) for chunk in chunks]
        try:
            for future in as_completed(futures):
                done = future.result()
                results.extend(done)
                if progress:
                    progress(len(done))
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return _in_order(results, config.games)


def _run_ray(
    config: SimConfig, jobs: int, address: str | None, progress: ProgressFn | None
) -> list[GameResult]:
    try:
        import ray
    except ImportError:
        raise SimulationError(
            "the ray backend needs Ray: install mextrain with the 'ray' extra"
        ) from None
    started = False
    if address is not None and not ray.is_initialized():
        check_cluster(address)
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            options["num_cpus"] = max(1, jobs)
        try:
            ray.init(address=address, **options)
        except (ConnectionError, RuntimeError, ValueError) as err:
            where = f"at {address}" if address else "here"
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise SimulationError(f"cannot start or reach Ray {where}: {first}") from None
        started = True
    try:
        remote = ray.remote(num_cpus=1)(play_games)
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = int(resources.get("CPU", jobs))
        chunks = chunk_games(config.games, max(1, cpus))
        pending = [remote.remote(config, list(chunk)) for chunk in chunks]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                batch: list[GameResult] = ray.get(ref)
                results.extend(batch)
                if progress:
                    progress(len(batch))
        return _in_order(results, config.games)
    finally:
        if started:
            ray.shutdown()


def check_cluster(address: str, timeout: float = 10.0) -> None:
    """A Ray cluster's ``--address``, checked before anything runs: written ``HOST:PORT``,
    ``ray://HOST:PORT`` or ``auto`` (a `SimulationError` in words otherwise), and with
    something answering at ``HOST:PORT`` (Ray itself would retry for minutes)."""
    if address == "auto":
        return  # Ray looks for a cluster started on this machine
    shape = f"--address is written HOST:PORT, ray://HOST:PORT or auto, not {address!r}"
    scheme, sep, _ = address.partition("://")
    if sep and scheme != "ray":
        raise SimulationError(shape)
    parts = urlsplit(address if sep else f"//{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is no number
        raise SimulationError(shape) from None
    if not host or port is None or parts.path or parts.query:
        raise SimulationError(shape)
    _check_reachable(host, port, address, timeout)


def _check_reachable(host: str, port: int, address: str, timeout: float) -> None:
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as err:
        reason = err.strerror or str(err) or type(err).__name__
        raise SimulationError(
            f"no Ray cluster answers at {address} ({reason}); start one with `ray start "
            "--head`, or leave out --address for a local Ray"
        ) from None
