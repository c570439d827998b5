"""Load on the web server: many tables at once, played by bot-driven websocket clients.

    python benchmarks/web_load.py [--tables 8] [--seconds 10]

Starts ``mextrain serve`` on a free loopback port with a fresh database (bots move at once,
no round pause), creates ``--tables`` tables of four seats — two websocket clients that
pick a random legal move from their own view, and two random bots on the server — and lets
them play for ``--seconds``; a finished match is replaced by a new table. It prints the
actions per second the server applied, the p50/p99 round trip of a client's action (send
to the state that shows it), and the server's resident memory per table.

For scale, the same four random seats are then played in this process straight through
the engine for the same time, and the ratio is printed: the server's cost over the bare
rules (persistence, views for every connection, JSON, websockets).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from mextrain.rules import RoundState, Rules

RULES = {"preset": "classic"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    """Resident memory of a process (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as res:
        data: dict[str, Any] = json.load(res)
        return data


class Load:
    def __init__(self, base: str, ws: str, deadline: float) -> None:
        self.base = base
        self.ws = ws
        self.deadline = deadline
        self.round_trips: list[float] = []
        self.client_actions = 0
        self.tables = 0
        self.versions: dict[str, int] = {}

    async def table(self, rng: random.Random) -> None:
        """Tables one after another in one slot until the deadline."""
        while time.monotonic() < self.deadline:
            made = await asyncio.to_thread(
                post,
                self.base,
                "/api/tables",
                {"name": "A", "options": {}, "seats": ["open", "bot:random", "bot:random"]},
            )
            code = made["code"]
            joined = await asyncio.to_thread(
                post, self.base, f"/api/tables/{code}/join", {"name": "B"}
            )
            self.tables += 1
            async with (
                connect(f"{self.ws}/ws/{code}") as a,
                connect(f"{self.ws}/ws/{code}") as b,
            ):
                await asyncio.gather(
                    self.seat(a, made["token"], 0, code, rng),
                    self.seat(b, joined["token"], 1, code, rng),
                )

    async def seat(
        self, ws: ClientConnection, token: str, seat: int, code: str, rng: random.Random
    ) -> None:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: tuple[int, float] | None = None
        while time.monotonic() < self.deadline:
            try:
                async with asyncio.timeout(max(0.01, self.deadline - time.monotonic())):
                    raw = await ws.recv()
            except TimeoutError:
                return
            m = json.loads(raw)
            if m["type"] == "error":
                raise RuntimeError(f"the server refused a move: {m}")
            if m["type"] != "state":
                continue
            self.versions[code] = max(self.versions.get(code, 0), m["version"])
            if pending is not None and m["version"] > pending[0]:
                self.round_trips.append(time.perf_counter() - pending[1])
                pending = None
            if m["sheet"].get("complete"):
                return
            r = m["round"]
            if r and r["current_seat"] == seat and r["legal_moves"] and pending is None:
                move = rng.choice(r["legal_moves"])
                pending = (m["version"], time.perf_counter())
                await ws.send(json.dumps({"type": "action", "move": move, "version": m["version"]}))
                self.client_actions += 1


def engine_peer(seconds: float) -> float:
    """Actions per second of the same random four seats straight through the engine."""
    rules = Rules.from_spec(RULES)
    rng = random.Random(1)
    actions = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = RoundState.new(rules, 4, rounds % rules.round_count, rng)
        while state.ended is None:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        rounds += 1
    return actions / (time.perf_counter() - start)


async def run(tables: int, seconds: float) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-m",
            "mextrain",
            "serve",
            "--port",
            str(port),
            "--db",
            str(Path(tmp) / "load.sqlite3"),
            "--bot-delay",
            "0",
            "--round-pause",
            "0",
            "--log-level",
            "warning",
            "--messages-per-second",
            "100000",
            "--tables-per-minute",  # (every table is made and joined from this address)
            "10000",
            "--joins-per-minute",
            "10000",
        ]
        proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
        base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/options", timeout=1).close()
                    break
                except OSError:
                    await asyncio.sleep(0.05)
            idle = rss_kib(proc.pid)
            load = Load(base, ws, time.monotonic() + seconds)
            start = time.perf_counter()
            await asyncio.gather(*(load.table(random.Random(i)) for i in range(tables)))
            elapsed = time.perf_counter() - start
            busy = rss_kib(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    applied = sum(load.versions.values())  # every event: joins, deals, all seats' actions
    trips = sorted(load.round_trips)
    p50 = statistics.median(trips) * 1000 if trips else float("nan")
    p99 = trips[min(len(trips) - 1, int(len(trips) * 0.99))] * 1000 if trips else float("nan")
    rate = applied / elapsed
    print(f"{tables} concurrent tables for {elapsed:.1f} s, {load.tables} tables in all")
    print(f"server events applied: {applied} ({rate:,.0f}/s); client actions {load.client_actions}")
    print(f"action round trip: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(trips)} actions)")
    print(
        f"server memory: {idle / 1024:.1f} MiB idle, {busy / 1024:.1f} MiB after, "
        f"{(busy - idle) / max(load.tables, 1):,.0f} KiB per table"
    )
    peer = engine_peer(min(seconds, 3.0))
    print(
        f"peer: the engine alone, same seats: {peer:,.0f} actions/s; "
        f"server/engine ratio {rate / peer:.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.seconds))


if __name__ == "__main__":
    main()
