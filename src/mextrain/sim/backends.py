"""Where games run: in this process, on a pool of local processes, or on a Ray cluster.

Workers receive the job's `SimConfig` and a range of game indices — seeds, never state —
and send back one `GameResult` per game. Results are put back in game order, so the
merged outcome is the same whatever the backend, the number of jobs or the order in which
workers finish.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any
from urllib.parse import urlsplit

from mextrain.bots import BotSpecError, bot_names, registered_by
from mextrain.bots.base import parse_bot_spec
from mextrain.rules import show_text

from .games import GameResult, SimConfig, SimulationError, play_games

__all__ = [
    "BACKENDS",
    "ProgressFn",
    "ResultsFn",
    "check_address",
    "check_cluster",
    "chunk_games",
    "cluster_address",
    "max_jobs",
    "run_games",
]

#: called with the number of games just finished
ProgressFn = Callable[[int], None]
#: called with each batch of results as it comes back (in the order batches finish)
ResultsFn = Callable[[list[GameResult]], None]

BACKENDS = ("process", "ray")


def max_jobs() -> int:
    """The most processes a run may start on this machine: 4 per core it may use (the
    games are all computing; past the cores, more processes only cost memory, ~30 MB
    each). The cores this process may run on, where the system says (a container's)."""
    return 4 * usable_cores()


def usable_cores() -> int:
    """The cores this process may run on (all of the machine's where the system cannot
    say)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def chunk_games(games: int, jobs: int, per_job: int = 4, most: int | None = None) -> list[range]:
    """Split ``range(games)`` into about ``per_job`` chunks per job, in order, of at most
    ``most`` games each if given."""
    size = max(1, math.ceil(games / (max(1, jobs) * per_job)))
    if most is not None:
        size = min(size, max(1, most))
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def _chunk_most(config: SimConfig) -> int | None:
    """A job that keeps records sends back each game as it ends (its record is saved at
    once: a run that stops keeps every game it finished); others, in bigger chunks."""
    return 1 if config.keep_records else None


def _in_order(results: list[GameResult], games: int) -> list[GameResult]:
    results.sort(key=lambda r: r.game)
    if [r.game for r in results] != list(range(games)):  # pragma: no cover - a backend bug
        raise SimulationError("a backend lost or repeated games")
    return results


def _unknown_in_workers(err: BotSpecError, config: SimConfig, backend: str) -> BotSpecError:
    """A worker's "unknown bot" for a bot of the job that this process knows, said with
    why: the workers import modules afresh, and whatever registered it here (code under
    ``if __name__ == "__main__":``, a notebook cell, a function called) did not run
    there. Any other error is returned as it is."""
    if err.code != "unknown_bot":
        return err
    here = set(bot_names())
    for spec in config.bots:
        name = parse_bot_spec(spec)[0]
        if show_text(name) != err.params.get("name") or name not in here:
            continue
        by = registered_by(name)
        where = f" (by {by})" if by else ""
        if backend == "ray":
            advice = (
                "register it at the top level of a module the nodes can import (not the "
                "script you run), or play it with backend='process'"
            )
        else:
            advice = (
                "register it at the top level of a module (the script itself will do, not "
                'under `if __name__ == "__main__":`), or use jobs=1'
            )
        return BotSpecError(
            f"unknown bot {show_text(name)} in the worker processes, though registered in this "
            f"one{where}: the workers import modules afresh and do not run the code that "
            f"registered it here; {advice}",
            code=err.code,
            **err.params,
        )
    return err


def run_games(
    config: SimConfig,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: ProgressFn | None = None,
    sink: ResultsFn | None = None,
) -> list[GameResult]:
    """Play every game of ``config``; the results in game order. ``sink`` sees each batch
    as it comes back (a caller saves records as they come), ``progress`` its size."""

    def arrived(batch: list[GameResult]) -> None:
        if sink:
            sink(batch)
        if progress:
            progress(len(batch))

    if backend == "process":
        return _run_local(config, jobs, arrived)
    if backend == "ray":
        return _run_ray(config, jobs, address, arrived)
    raise SimulationError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


def _run_local(
    config: SimConfig, jobs: int, arrived: Callable[[list[GameResult]], None]
) -> list[GameResult]:
    chunks = chunk_games(config.games, jobs, most=_chunk_most(config))
    results: list[GameResult] = []
    if jobs <= 1:
        for chunk in chunks:
            batch = play_games(config, chunk)
            results.extend(batch)
            arrived(batch)
        return _in_order(results, config.games)
    # "spawn": workers start clean (no copied threads or locks) and import mextrain anew.
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), mp_context=context)
    try:
        futures = [pool.submit(play_games, config, chunk) for chunk in chunks]
        for future in as_completed(futures):
            try:
                batch = future.result()
            except BotSpecError as err:
                raise _unknown_in_workers(err, config, "process") from None
            results.extend(batch)
            arrived(batch)
    except BaseException:
        _stop_now(pool)
        raise
    pool.shutdown()
    return _in_order(results, config.games)


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once (Ctrl-C, a bot's failure): its queued chunks dropped and its
    workers ended mid-game, where a plain shutdown would let them play their chunks out.

    A worker ended while it was sending a result back leaves half a message in the results
    pipe, and the pool's manager thread waited for the rest for ever: the process then hung
    at exit, where Python joins that thread (about one SIGTERM in 150, a game's record being
    tens of kilobytes). Once the workers are gone this process's own copy of the pipe's
    writing end, which it never writes to, is closed too: the manager thread then reads the
    end of the pipe, takes the pool for broken and ends."""
    workers = list((pool._processes or {}).values())  # (no public way before Python 3.14)
    results = getattr(pool, "_result_queue", None)  # (the shutdown forgets it)
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    for worker in workers:
        worker.join(timeout=5)
    if results is not None and not any(worker.is_alive() for worker in workers):
        with contextlib.suppress(AttributeError, OSError):  # (a Python that keeps it otherwise)
            results._writer.close()


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Ray's own lines (a raylet's warnings, its workers' output) go to standard error
    while it runs: standard output is the command's (one JSON object with ``--json``).
    Both Python's ``sys.stdout`` and the process's descriptor 1 are sent there."""
    sys.stdout.flush()
    with contextlib.redirect_stdout(sys.stderr):
        try:
            saved = os.dup(1)
        except OSError:  # no descriptor 1 (a host without one)
            yield
            return
        try:
            os.dup2(2, 1)
            yield
        finally:
            with contextlib.suppress(OSError):
                sys.stderr.flush()
            os.dup2(saved, 1)
            os.close(saved)


def _run_ray(
    config: SimConfig, jobs: int, address: str | None, arrived: Callable[[list[GameResult]], None]
) -> list[GameResult]:
    try:
        import ray
    except ImportError:
        raise SimulationError(
            "the ray backend needs Ray: install mextrain with the 'ray' extra"
        ) from None
    with _stdout_to_stderr():
        return _on_ray(ray, config, jobs, address, arrived)


def _on_ray(
    ray: Any,
    config: SimConfig,
    jobs: int,
    address: str | None,
    arrived: Callable[[list[GameResult]], None],
) -> list[GameResult]:
    started = False
    joining = cluster_address("ray", address)
    if joining is not None and not ray.is_initialized():
        # (Ray itself would retry for minutes)
        check_cluster(joining, source=address_source(address))
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if joining is None:  # a local Ray of --jobs CPUs (a cluster joined takes no count)
            options["num_cpus"] = max(1, jobs)
        main = threading.current_thread() is threading.main_thread()
        caller_sigterm = signal.getsignal(signal.SIGTERM) if main else None
        try:
            ray.init(address=address, **options)
        except (ConnectionError, RuntimeError, ValueError) as err:
            where = "here" if joining is None else f"at {joining}"
            if joining is not None and address is None:
                where += " (the RAY_ADDRESS variable)"
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise SimulationError(f"cannot start or reach Ray {where}: {first}") from None
        started = True
        if callable(caller_sigterm):
            # Ray put its own SIGTERM handler in place of the caller's (`mextrain simulate`
            # stops the run as Ctrl-C does): the caller's stands, and Ray is shut down below
            signal.signal(signal.SIGTERM, caller_sigterm)
    try:
        remote = ray.remote(num_cpus=1)(play_games)
        resources: dict[str, float] = ray.cluster_resources()
        cpus = int(resources.get("CPU", jobs))
        chunks = chunk_games(config.games, max(1, cpus), most=_chunk_most(config))
        pending = [remote.remote(config, list(chunk)) for chunk in chunks]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    batch: list[GameResult] = ray.get(ref)
                except ray.exceptions.RayTaskError as err:
                    # the worker's own error (a bot's failure, an unknown bot), not Ray's
                    # wrapping of it: a remote traceback in colours
                    cause = getattr(err, "cause", None)
                    if isinstance(cause, BotSpecError):
                        raise _unknown_in_workers(cause, config, "ray") from None
                    if isinstance(cause, Exception):
                        raise cause from None
                    raise
                results.extend(batch)
                arrived(batch)
        return _in_order(results, config.games)
    finally:
        if started:
            ray.shutdown()


def cluster_address(backend: str, address: str | None) -> str | None:
    """The Ray cluster a run joins: ``address``, or with the ray backend and none given,
    the ``RAY_ADDRESS`` variable (as `ray job submit` sets it); None for a run here."""
    if backend != "ray":
        return None
    if address is not None:  # (an empty one too: to be refused for its shape)
        return address
    return os.environ.get("RAY_ADDRESS") or None


def address_source(address: str | None, given: str = "address") -> str:
    """Where `cluster_address` found the cluster's address, as a message names it: ``given``
    (the argument ``address``; a command says its option, ``--address``), or the
    ``RAY_ADDRESS`` variable."""
    return given if address is not None else "RAY_ADDRESS"


def check_cluster(address: str, timeout: float = 10.0, source: str = "address") -> None:
    """A Ray cluster's address, checked before anything runs: written ``HOST:PORT``,
    ``ray://HOST:PORT`` or ``auto`` (a `SimulationError` in words otherwise), and with
    something answering at ``HOST:PORT`` (Ray itself would retry for minutes). ``source``
    names where the address came from, for the message (`address_source`): the argument
    ``address``, the option ``--address`` or the variable ``RAY_ADDRESS``."""
    where = check_address(address, source)
    if where is not None:  # (None: ``auto``, Ray looks for a cluster on this machine)
        _check_reachable(*where, address, timeout, source)


def check_address(address: str, source: str = "address") -> tuple[str, int] | None:
    """A Ray cluster's address checked for its shape alone, asking nothing of the network
    (`check_job` does): ``HOST:PORT`` or ``ray://HOST:PORT``, whose host and port it
    gives, or ``auto`` (None); a `SimulationError` in words otherwise, ``source`` naming
    where the address came from, as for `check_cluster`."""
    if address == "auto":
        return None
    shape = f"{source} is written HOST:PORT, ray://HOST:PORT or auto, not {show_text(address)}"
    named = _named(source)
    scheme, sep, _ = address.partition("://")
    if sep and scheme != "ray":
        raise SimulationError(shape, **named)
    parts = urlsplit(address if sep else f"//{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:  # a port that is no number
        raise SimulationError(shape, **named) from None
    if not host or port is None or parts.path or parts.query:
        raise SimulationError(shape, **named)
    return host, port


def _check_reachable(host: str, port: int, address: str, timeout: float, source: str) -> None:
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as err:
        reason = err.strerror or str(err) or type(err).__name__
        instead = f"unset {source}" if source == "RAY_ADDRESS" else f"leave out {source}"
        raise SimulationError(
            f"no Ray cluster answers at {show_text(address, str)} ({reason}); start one with "
            f"`ray start --head`, or {instead} for a local Ray",
            **_named(source),
        ) from None


def _named(source: str) -> dict[str, str | None]:
    """The option and the argument a refusal of the cluster's address is about (a
    `SimulationError`'s ``option`` and ``parameter``): ``--address`` and ``address``,
    or none for an address from the ``RAY_ADDRESS`` variable."""
    if source == "RAY_ADDRESS":
        return {"option": None, "parameter": None}
    return {"option": "--address", "parameter": "address"}
