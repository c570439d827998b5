"""A record a page sends to be replayed (`POST /api/replay`): checked as `mextrain replay`
checks it, replayed for the viewer as a kept game is, and kept nowhere."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mextrain.records import load_record, replay_record
from mextrain.web import Settings, create_app

RECORDS = Path(__file__).parent / "records"
COMPLETE = (RECORDS / "double6_complete.json").read_text(encoding="utf-8")
#: a record of a game with no round dealt yet
NO_ROUND = {k: v for k, v in json.loads(COMPLETE).items() if k != "result"} | {"rounds": []}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(replays_per_minute=600.0, max_record_bytes=20_000)
    with TestClient(create_app(tmp_path / "sent.sqlite3", settings)) as tc:
        yield tc


def sent(client: TestClient, body: str | bytes) -> tuple[int, dict[str, object]]:
    res = client.post("/api/replay", content=body, headers={"Content-Type": "application/json"})
    data: dict[str, object] = res.json()
    return res.status_code, data


def test_a_record_sent_replays_as_a_kept_game_does(client: TestClient) -> None:
    status, data = sent(client, COMPLETE)
    assert status == 200, data
    replayed = replay_record(COMPLETE)
    assert data["players"] == list(replayed.players)
    assert data["totals"] == replayed.totals
    assert data["winners"] == replayed.winners
    assert data["complete"] is True
    assert data["bots"] == [None, None]
    assert data["left"] == [False, False]
    assert data["open_doubles_block"] is True
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    record = load_record(COMPLETE)
    assert len(rounds) == len(record.rounds)
    for shown, kept in zip(rounds, record.rounds, strict=True):
        assert shown["engine"] == kept.engine
        # the deal, then one position per action, every hand face up
        assert len(shown["frames"]) == len(kept.actions) + 1
        dealt = [sorted(map(str, hand)) for hand in kept.hands]
        assert [sorted(hand) for hand in shown["frames"][0]["hands"]] == dealt
        assert [f["action"] for f in shown["frames"][1:]] == [a.text for a in kept.actions]
        assert shown["frames"][-1]["ended"] in ("out", "blocked")
    assert [r["scores"] for r in rounds] == [r.scores for r in replayed.rounds]
    # nothing of it is kept: no game to list, no statistics
    assert client.get("/api/games").json() == []
    assert client.get("/api/stats").json()["players"] == []
    # (bytes and a byte order mark read as a file does)
    assert sent(client, b"\xef\xbb\xbf" + COMPLETE.encode())[0] == 200


def test_a_game_in_progress_stops_where_its_record_does(client: TestClient) -> None:
    text = (RECORDS / "double6_in_progress.json").read_text(encoding="utf-8")
    status, data = sent(client, text)
    assert status == 200, data
    assert data["complete"] is False
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    last = rounds[-1]
    assert last["scores"] is None  # (still in play)
    assert last["frames"][-1]["ended"] is None


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ("{not json", "record_damaged", "not JSON"),
        ("[1, 2]", "record_damaged", ""),
        ('{"format": "chess"}', "record_damaged", "format"),
        (COMPLETE.replace('"version": 1', '"version": 2'), "record_version", "version"),
        (
            COMPLETE.replace('"engine": 6,', '"engine": 6, "engine": 6,', 1),
            "record_damaged",
            "twice",
        ),
        ((RECORDS / "unreadable_tile.json").read_text(encoding="utf-8"), "record_damaged", ""),
        (
            (RECORDS / "illegal_draw_with_a_play.json").read_text(encoding="utf-8"),
            "record_illegal",
            "round 0, action",
        ),
        (json.dumps(NO_ROUND), "record_empty", "no round"),
    ],
    ids=["not-json", "not-an-object", "format", "version", "key-twice", "tile", "illegal", "empty"],
)
def test_what_is_no_record_or_breaks_the_rules_is_refused_clearly(
    client: TestClient, body: str, code: str, words: str
) -> None:
    status, data = sent(client, body)
    assert status == 422, data
    detail = data["detail"]
    assert isinstance(detail, dict)
    assert detail["code"] == code
    assert words in detail["message"]
    if code == "record_illegal":
        illegal = json.loads(body)
        assert detail["round"] == 0
        assert isinstance(detail["action"], int)
        assert detail["action"] < len(illegal["rounds"][0]["actions"])


def test_a_record_too_large_is_refused_before_it_is_read(client: TestClient) -> None:
    status, data = sent(client, COMPLETE + " " * 20_000)
    assert status == 413
    detail = data["detail"]
    assert isinstance(detail, dict)
    assert detail["code"] == "record_too_large"
    assert "20,000 bytes" in detail["message"]


def test_a_record_larger_than_any_other_request_is_read(tmp_path: Path) -> None:
    """Other requests are refused past 64 KiB (a table's settings take a few hundred
    bytes); a long game's record, written out with its indents, is larger than that."""
    big = json.dumps({**json.loads(COMPLETE), "comment": "x" * 200_000}, indent=2)
    with TestClient(create_app(tmp_path / "big.sqlite3", Settings())) as tc:
        status, data = sent(tc, big)
        assert status == 200, data
        assert data["complete"] is True
        assert tc.post("/api/tables", content=big).status_code == 413  # (as before)
        status, data = sent(tc, big + " " * 1_000_000)  # (past a megabyte: too large)
        assert status == 413
        assert isinstance(data["detail"], dict)
        assert data["detail"]["code"] == "record_too_large"
        # sent in chunks, with no length said: refused before it is read, as elsewhere
        chunked = tc.post("/api/replay", content=iter([COMPLETE.encode()]))
        assert chunked.status_code == 411
        assert chunked.json()["detail"]["code"] == "length_required"


def test_an_address_sending_records_without_end_is_told_to_wait(tmp_path: Path) -> None:
    settings = Settings(replays_per_minute=3.0)
    with TestClient(create_app(tmp_path / "rate.sqlite3", settings)) as tc:
        assert [sent(tc, COMPLETE)[0] for _ in range(3)] == [200, 200, 200]
        status, data = sent(tc, COMPLETE)
        assert status == 429
        detail = data["detail"]
        assert isinstance(detail, dict)
        assert detail["code"] == "too_many_replays"


ILLEGAL = (RECORDS / "illegal_draw_with_a_play.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Ben has a tile that fits and must play it."),
        ("fr", "Ben a un domino qui convient et doit le jouer."),
        ("fi", "Ben: kädessä on sopiva domino, joten se on pelattava."),
    ],
)
def test_the_rule_a_record_breaks_is_said_in_the_pages_language(
    client: TestClient, lang: str, said: str
) -> None:
    """The rule was given in the checker's English only ("seat 1 can't draw: it has a
    legal play and must play"), under words of the page's own: where the engine refused
    one of the record's moves, the refusal says it in the page's language too, its seats
    by the record's names, with the move as the record writes it."""
    res = client.post(
        f"/api/replay?lang={lang}", content=ILLEGAL, headers={"Content-Type": "application/json"}
    )
    assert res.status_code == 422
    detail = res.json()["detail"]
    assert (detail["code"], detail["round"], detail["action"]) == ("record_illegal", 0, 1)
    assert detail["text"] == "1:draw"
    assert detail["reason"] == "seat 1 can't draw: it has a legal play and must play"
    assert detail["said"] == said
    assert detail["message"].startswith('round 0, action 1 "1:draw": ')  # (as replay says it)


def test_without_a_language_asked_the_rule_is_said_in_the_readers(client: TestClient) -> None:
    """No ``lang`` (or one not ours): the language the page's cookie keeps, else the one
    the browser asks for first."""
    headers = {"Content-Type": "application/json", "Accept-Language": "it-IT,it;q=0.9"}
    res = client.post("/api/replay?lang=xx", content=ILLEGAL, headers=headers)
    assert res.json()["detail"]["said"] == "Ben ha una tessera che si attacca e deve giocarla."
    client.cookies.set("mextrain_lang", "fr")
    res = client.post("/api/replay", content=ILLEGAL, headers=headers)
    assert res.json()["detail"]["said"] == "Ben a un domino qui convient et doit le jouer."


def test_a_fault_of_the_record_itself_is_given_in_the_checkers_words(client: TestClient) -> None:
    """Scores that do not add up are no move the engine refused: nothing to say in the
    page's language but where (``said`` null), the checker's words in ``reason``."""
    wrong = json.loads(COMPLETE)
    wrong["result"]["scores"][0][0] += 1
    res = client.post(
        "/api/replay?lang=fr",
        content=json.dumps(wrong),
        headers={"Content-Type": "application/json"},
    )
    assert res.status_code == 422
    detail = res.json()["detail"]
    assert (detail["code"], detail["round"], detail["action"]) == ("record_illegal", 0, None)
    assert detail["said"] is None
    assert detail["reason"]
    assert detail["text"] is None
