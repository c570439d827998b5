"""A real server process is killed mid-round and started again on the same database: the
same game carries on where it stopped, and its final record replays legally."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from mextrain.records import load_record, replay_record

SHORT = {"max_pip": 6, "rounds": 2, "hand_size": {"2": 7, "3": 7, "4": 6}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    def __init__(self, db: Path, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"
        cmd = [
            sys.executable,
            "-m",
            "mextrain",
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-delay",
            "0",
            "--round-pause",
            "0",
            "--takeover-after",
            "600",
            "--log-level",
            "warning",
        ]
        self.proc = subprocess.Popen(cmd)
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/api/options", timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("the server exited at start") from None
                time.sleep(0.05)
        self.kill()
        raise RuntimeError("the server did not start")

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=10) as res:
            data: dict[str, Any] = json.load(res)
            return data

    def get_text(self, path: str) -> str:
        with urllib.request.urlopen(self.base + path, timeout=10) as res:
            text: str = res.read().decode()
            return text

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def hello(stack: ExitStack, server: Server, code: str, token: str) -> ClientConnection:
    ws = stack.enter_context(connect(f"{server.ws}/ws/{code}", open_timeout=10))
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def latest(ws: ClientConnection, wait: float) -> dict[str, Any] | None:
    """The newest state message that arrives within ``wait`` seconds of quiet."""
    last = None
    while True:
        try:
            message = json.loads(ws.recv(timeout=wait))
        except TimeoutError:
            return last
        assert message["type"] != "error", message
        if message["type"] == "state":
            last = message


def play(
    conns: dict[int, ClientConnection],
    rng: random.Random,
    stop: Any,
    lasts: dict[int, dict[str, Any]],
    limit: float = 60,
) -> dict[str, Any]:
    """Play random legal moves for the human seats until ``stop(state)``; ``lasts`` keeps
    each seat's newest state."""
    deadline = time.monotonic() + limit
    sent: dict[int, int] = {}
    while time.monotonic() < deadline:
        for seat, ws in conns.items():
            fresh = latest(ws, 0.02)
            if fresh is not None:
                lasts[seat] = fresh
            m = lasts.get(seat)
            if m is None:
                continue
            if stop(m):
                return m
            r = m["round"]
            mine = r and r["current_seat"] == seat and r["legal_moves"]
            if mine and sent.get(seat) != m["version"]:
                sent[seat] = m["version"]
                move = rng.choice(r["legal_moves"])
                ws.send(json.dumps({"type": "action", "move": move, "version": m["version"]}))
    raise AssertionError("the game did not reach the expected point in time")


@pytest.mark.slow
def test_a_killed_server_restores_the_game_mid_round(tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite3"
    rng = random.Random(3)
    first = Server(db, _free_port())
    try:
        made = first.post(
            "/api/tables", {"name": "Ana", "options": SHORT, "seats": ["bot:greedy", "open"]}
        )
        code = made["code"]
        ben = first.post(f"/api/tables/{code}/join", {"name": "Ben"})
        stack = ExitStack()
        conns = {
            0: hello(stack, first, code, made["token"]),
            2: hello(stack, first, code, ben["token"]),
        }
        lasts: dict[int, dict[str, Any]] = {}
        play(conns, rng, lambda m: m["round"] and len(m["round"]["history"]) >= 8, lasts)
        # the table now waits for a person (bots move at once): Ana's last view before the kill
        before = latest(conns[0], 0.5) or lasts[0]
        stack.close()
    finally:
        first.kill()  # no clean shutdown: as if the machine lost power to the process

    second = Server(db, _free_port())
    try:
        stack = ExitStack()
        conns = {
            0: hello(stack, second, code, made["token"]),
            2: hello(stack, second, code, ben["token"]),
        }
        resumed = latest(conns[0], 1.0)
        assert resumed is not None
        assert resumed["you"] == 0
        assert resumed["round"]["round"] == before["round"]["round"] == 0
        # every acknowledged action survived, in order: the very same position and hand
        assert resumed["version"] == before["version"]
        assert resumed["round"] == before["round"]
        assert resumed["sheet"] == before["sheet"]
        # the states received so far were read above: start from them (the table now waits
        # for a person, so no new state comes until someone moves)
        final = play(conns, rng, lambda m: m["sheet"].get("complete"), {0: resumed})
        stack.close()
        game_id = final["table"]["game_id"]
        record_text = second.get_text(f"/api/games/{game_id}/record")
    finally:
        second.kill()

    replayed = replay_record(load_record(record_text))
    assert replayed.complete
    assert replayed.players == ("Ana", "Bot 2 (beginner)", "Ben")
    assert replayed.totals == final["sheet"]["totals"]
    first_round = [a.notation() for a in load_record(record_text).rounds[0].actions]
    assert first_round[: len(before["round"]["history"])] == before["round"]["history"]
