"""The analysis of a replay's position in the browser: the search bot's best moves for the
seat to move, from its own tiles only, and the move the game made there
(`GET /api/games/ID/analysis`, `POST /api/replay/analysis` for a record file)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mextrain.records import load_record, replay_record
from mextrain.rules import RoundState, SeatView
from mextrain.store import Store
from mextrain.web import Settings, create_app
from mextrain.web import app as app_module
from mextrain.web.tables import page_move
from test_web import settings as web_settings

RECORDS = Path(__file__).parent / "records"
COMPLETE = (RECORDS / "double6_complete.json").read_text(encoding="utf-8")
RECORD = load_record(COMPLETE)
RESULT = replay_record(RECORD)


def settings(**changes: Any) -> Settings:
    """The web tests' settings, analyses thinking by an iteration budget and no clock (the
    same position, the same analysis, anywhere) and not held back."""
    return web_settings(
        **{"hint_iterations": 60, "hint_time_ms": 0, "analyses_per_minute": 600.0, **changes}
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "analysis.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, settings())) as tc:
        yield tc


def kept(db: Path) -> int:
    """The record kept as a finished game of the server's, as a table keeps one."""
    store = Store(db)
    try:
        table = store.create_table("KEPT01", {}, "seed")
        players = list(RECORD.players)
        return store.save_game(
            table, COMPLETE, players, [True] * len(players), RESULT.totals, RESULT.winners
        )
    finally:
        store.close()


def position(k: int, step: int) -> RoundState:
    rnd = RECORD.rounds[k]
    state = RoundState.from_deal(
        RECORD.rules,
        len(RECORD.players),
        k,
        rnd.hands,
        rnd.boneyard,
        RESULT.match.rounds[k].starter,
    )
    for recorded in rnd.actions[:step]:
        state.apply(recorded.action, recorded.seat)
    return state


def sent(client: TestClient, k: int, step: int, body: str = COMPLETE) -> Any:
    return client.post(
        f"/api/replay/analysis?round={k}&step={step}",
        content=body,
        headers={"Content-Type": "application/json"},
    )


def test_a_position_is_analysed_for_the_seat_to_move(client: TestClient) -> None:
    res = sent(client, 0, 2)
    assert res.status_code == 200, res.text
    answer = res.json()
    state = position(0, 2)
    legal = {page_move(a) for a in state.legal_actions()}
    assert answer["seat"] == state.current_seat
    assert answer["forced"] is False
    assert 1 <= len(answer["moves"]) <= 3
    for move in answer["moves"]:
        assert move["move"] in legal
        assert 0 <= move["win_probability"] <= 1
    assert answer["played"] == page_move(RECORD.rounds[0].actions[2].action)
    played = answer["played_win_probability"]
    assert played is None or 0 <= played <= 1


def test_a_forced_move_and_positions_that_are_none_are_said_so(client: TestClient) -> None:
    forced = sent(client, 0, 3).json()  # (a double to follow up: one legal move)
    (only,) = position(0, 3).legal_actions()
    assert forced["forced"] is True
    assert forced["moves"] == [{"move": page_move(only)}]
    last = len(RECORD.rounds[0].actions)
    for k, step in ((0, last), (0, last + 1), (1, 0), (0, -1)):
        res = sent(client, k, step)
        assert res.status_code == 422, (k, step)
        assert res.json()["detail"]["code"] == "no_position"


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[SeatView]:
    """The views the server's analyses are asked of, as it asks them."""
    views: list[SeatView] = []
    real = app_module.analyze

    def spy(view: SeatView, *args: Any, **kwargs: Any) -> Any:
        views.append(view)
        return real(view, *args, **kwargs)

    monkeypatch.setattr(app_module, "analyze", spy)
    return views


def test_the_analysis_sees_the_seat_to_moves_own_tiles_only(
    client: TestClient, seen: list[SeatView]
) -> None:
    assert sent(client, 0, 4).status_code == 200
    state = position(0, 4)
    (view,) = seen
    assert view == state.view(state.current_seat)


def test_a_kept_games_position_is_analysed_as_its_record_file_is_and_once(
    db: Path, seen: list[SeatView]
) -> None:
    game_id = kept(db)
    with TestClient(create_app(db, settings())) as tc:
        first = tc.get(f"/api/games/{game_id}/analysis?round=0&step=2")
        assert first.status_code == 200, first.text
        assert first.json() == sent(tc, 0, 2).json()
        again = tc.get(f"/api/games/{game_id}/analysis?round=0&step=2")
        assert again.json() == first.json()
        assert len(seen) == 2  # (the kept game's second answer was kept, not worked out)
        missing = tc.get("/api/games/999/analysis?round=0&step=2")
        assert missing.status_code == 404
        assert missing.json()["detail"]["code"] == "no_game"


def test_a_kept_games_analysis_is_kept_across_a_restart_at_the_same_budget(
    db: Path, seen: list[SeatView]
) -> None:
    game_id = kept(db)
    asked = f"/api/games/{game_id}/analysis?round=0&step=2"
    with TestClient(create_app(db, settings())) as tc:
        first = tc.get(asked)
        assert first.status_code == 200, first.text
    assert len(seen) == 1
    with TestClient(create_app(db, settings())) as tc:  # (the server restarted)
        again = tc.get(asked)
        assert again.json() == first.json()
        assert len(seen) == 1  # (read back, not worked out again)
        # a position kept nowhere, at a step SQLite cannot hold, is refused as any other
        far = tc.get(f"/api/games/{game_id}/analysis?round=0&step={2**70}")
        assert far.status_code == 422
        assert far.json()["detail"]["code"] == "no_position"
    with TestClient(create_app(db, settings(hint_iterations=80))) as tc:
        assert tc.get(asked).status_code == 200
        assert len(seen) == 2  # (another budget, another analysis)
    plain = sqlite3.connect(db)
    try:
        budgets = plain.execute("SELECT budget FROM analyses WHERE game_id = ?", (game_id,))
        assert sorted(b for (b,) in budgets) == [
            "iterations=60,time_ms=0",
            "iterations=80,time_ms=0",
        ]
    finally:
        plain.close()


def test_an_analysis_the_database_cannot_keep_is_answered_all_the_same(
    db: Path, seen: list[SeatView], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = kept(db)

    def refused(*args: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(Store, "keep_analysis", refused)
    asked = f"/api/games/{game_id}/analysis?round=0&step=2"
    with TestClient(create_app(db, settings())) as tc:
        first = tc.get(asked)
        assert first.status_code == 200, first.text
        assert first.json() == sent(tc, 0, 2).json()
        assert tc.get(asked).json() == first.json()
        assert len(seen) == 2  # (the kept game's answer, kept in memory, and the file's)


def test_analyses_are_limited_per_address(db: Path) -> None:
    with TestClient(create_app(db, settings(analyses_per_minute=1.0))) as tc:
        assert sent(tc, 0, 2).status_code == 200
        refused = sent(tc, 0, 4)
        assert refused.status_code == 429
        assert refused.json()["detail"]["code"] == "too_many_analyses"


def test_a_broken_record_sent_for_analysis_is_refused_as_for_a_replay(
    client: TestClient,
) -> None:
    res = sent(client, 0, 2, body='{"format": "mexican-train-record"')
    assert res.status_code == 422
    assert res.json()["detail"]["code"] == "record_damaged"
    big = json.dumps({**json.loads(COMPLETE), "comment": "x" * 2_000_000})
    assert sent(client, 0, 2, body=big).status_code == 413
