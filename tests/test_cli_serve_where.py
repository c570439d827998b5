"""`mextrain serve` says where to open it: on this machine, and from the phones and
computers on its network, whose address it also draws as a QR code in a terminal."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from mextrain.cli import main
from mextrain.cli import serve as serve_cli
from qr_reading import read_qr_modules

pytest.importorskip("fastapi")


@pytest.mark.parametrize(
    ("host", "port", "here", "other"),
    [
        ("0.0.0.0", 8000, "http://127.0.0.1:8000", "http://10.1.2.3:8000"),
        ("", 8000, "http://127.0.0.1:8000", "http://10.1.2.3:8000"),
        ("::", 8080, "http://[::1]:8080", "http://10.1.2.3:8080"),
        ("127.0.0.1", 8000, "http://127.0.0.1:8000", None),
        ("127.0.0.2", 8000, "http://127.0.0.2:8000", None),
        ("localhost", 8000, "http://localhost:8000", None),
        ("::1", 8000, "http://[::1]:8000", None),
        ("192.168.1.5", 8000, "http://192.168.1.5:8000", "http://192.168.1.5:8000"),
        ("fd00::5", 8000, "http://[fd00::5]:8000", "http://[fd00::5]:8000"),
        ("box.lan", 9000, "http://box.lan:9000", "http://box.lan:9000"),
        ("0.0.0.0", 0, None, None),  # (the port chosen as the server starts: not known yet)
    ],
)
def test_where_to_open_the_server(host: str, port: int, here: str, other: str | None) -> None:
    assert serve_cli.addresses(host, port, lan=lambda: "10.1.2.3") == (here, other)


def test_listening_everywhere_on_a_machine_with_no_network_gives_no_other_address() -> None:
    assert serve_cli.addresses("0.0.0.0", 8000, lan=lambda: None) == (
        "http://127.0.0.1:8000",
        None,
    )


def test_this_machines_address_on_its_network_is_one_it_has() -> None:
    found = serve_cli.lan_address()
    if found is None:
        pytest.skip("this machine has no network address but loopback")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((found, 0))  # (an address this machine does not have cannot be bound)
    assert not found.startswith("127.")


def read_terminal_qr(text: str) -> str:
    """What a QR code drawn by `qr_text` says, read by an independent reader (zxing-cpp):
    each character is two modules, one over the other, drawn where light."""
    halves = {"\u2588": (0, 0), "\u2580": (0, 1), "\u2584": (1, 0), " ": (1, 1)}
    lines = text.split("\n")
    assert len({len(line) for line in lines}) == 1, "ragged lines"
    return read_qr_modules([[halves[c][half] for c in line] for line in lines for half in (0, 1)])


@pytest.mark.parametrize(
    "url", ["http://192.168.1.5:8000", "http://10.0.0.17:80", "http://[fd00::5]:8000"]
)
def test_the_terminals_qr_code_reads_as_the_address(url: str) -> None:
    drawn = serve_cli.qr_text(url)
    assert read_terminal_qr(drawn) == url
    lines = drawn.split("\n")
    # the quiet zone: four light modules all round (two lines above and below)
    assert lines[0] == lines[1] == lines[-2] == "\u2588" * len(lines[0])
    assert all(line.startswith("\u2588" * 4) for line in lines)
    assert all(line.endswith("\u2588" * 4) for line in lines)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_serve_says_where_to_open_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, it said only where its database was, and uvicorn's "running on
    http://0.0.0.0:8000", an address a phone cannot open."""
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    monkeypatch.setattr(serve_cli, "lan_address", lambda: "10.1.2.3")
    db = tmp_path / "x.sqlite3"
    port = free_port()
    result = CliRunner().invoke(main, ["serve", "--port", str(port), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert f"on this machine, open http://127.0.0.1:{port}" in result.stderr
    assert "--host 0.0.0.0 lets the phones and computers on your network in" in result.stderr
    assert "10.1.2.3" not in result.stderr
    port = free_port()
    args = ["serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(db)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    said = result.stderr
    assert f"on this machine, open http://127.0.0.1:{port}" in said
    assert f"on your network, open http://10.1.2.3:{port}" in said
    assert "--host 0.0.0.0" not in said
    assert "\u2588" not in said  # (no QR code where no one reads it: not a terminal)


def render_terminal(text: str, fg: str, bg: str) -> list[list[str]]:
    """The colours a terminal shows for ``text``, two pixels a character (its upper and
    lower halves), with ``fg`` and ``bg`` its own colours (its theme): the few SGR codes
    the QR code may use (0 reset, 30/97 black/white text, 40/47 black/white ground)."""
    codes = {"30": ("fg", "black"), "97": ("fg", "white"), "40": ("bg", "black")}
    codes["47"] = ("bg", "white")
    halves = {"\u2588": (1, 1), "\u2580": (1, 0), "\u2584": (0, 1), " ": (0, 0)}
    pixels: list[list[str]] = []
    for line in text.split("\n"):
        now = {"fg": fg, "bg": bg}
        upper: list[str] = []
        lower: list[str] = []
        for token in re.split(r"(\x1b\[[0-9;]*m)", line):
            if token.startswith("\x1b["):
                for code in token[2:-1].split(";"):
                    if code in ("", "0"):
                        now = {"fg": fg, "bg": bg}
                    else:
                        key, colour = codes[code]
                        now[key] = colour
                continue
            for char in token:
                top, bottom = halves[char]
                upper.append(now["fg"] if top else now["bg"])
                lower.append(now["fg"] if bottom else now["bg"])
        pixels += [upper, lower]
    return pixels


@pytest.mark.parametrize("theme", [("white", "black"), ("black", "white")], ids=["dark", "light"])
def test_the_terminals_qr_code_has_its_own_colours(theme: tuple[str, str]) -> None:
    """Drawn in the terminal's own colours, the code came out inverted on a terminal with
    a light background (dark modules light), which not every phone reads."""
    import segno

    url = "http://192.168.1.5:8000"
    modules = [list(row) for row in segno.make(url, error="m").matrix_iter(border=4)]
    seen = render_terminal(serve_cli.qr_text(url, colours=True), *theme)
    dark = [[pixel == "black" for pixel in row] for row in seen[: len(modules)]]
    assert dark == [[bool(module) for module in row] for row in modules]
    assert read_qr_modules(dark) == url
    plain = render_terminal(serve_cli.qr_text(url), *theme)
    inverted = [[pixel == "black" for pixel in row] for row in plain[: len(modules)]]
    assert (inverted == dark) is (theme == ("white", "black"))


def test_a_person_at_the_terminal_gets_the_qr_code(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    serve_cli._say_where("192.168.1.5", 8000, terminal=True)
    said = capsys.readouterr().err
    assert "open http://192.168.1.5:8000" in said
    drawn = said[said.index(serve_cli.QR_COLOURS[0]) :].rstrip("\n")
    assert all(line.startswith(serve_cli.QR_COLOURS[0]) for line in drawn.split("\n"))
    plain = re.sub(r"\x1b\[[0-9;]*m", "", drawn)
    assert read_terminal_qr(plain) == "http://192.168.1.5:8000"
    monkeypatch.setenv("NO_COLOR", "1")  # (https://no-color.org: the terminal's own colours)
    serve_cli._say_where("192.168.1.5", 8000, terminal=True)
    said = capsys.readouterr().err
    assert "\x1b[" not in said
    assert read_terminal_qr(said[said.index("\u2588") :].rstrip("\n")) == "http://192.168.1.5:8000"
    serve_cli._say_where("127.0.0.1", 8000, terminal=True)  # (for this machine: no code)
    assert "\u2588" not in capsys.readouterr().err


def test_serve_says_where_to_open_it_in_the_language_of_lang_or_the_locale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What `serve` says as it starts, and what it refuses, were English whatever the
    language of the person starting it, where every other command speaks theirs."""
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    monkeypatch.setattr(serve_cli, "lan_address", lambda: "10.1.2.3")
    db = tmp_path / "x.sqlite3"
    port = free_port()
    args = ["serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(db), "--lang", "fr"]
    said = CliRunner().invoke(main, args).stderr
    assert f"mextrain\u00a0: base de données {db}" in said
    assert f"sur cette machine, ouvrez http://127.0.0.1:{port}" in said
    assert (
        f"depuis les téléphones et ordinateurs de votre réseau, ouvrez http://10.1.2.3:{port}"
        in said
    )
    assert ", open" not in said
    # without --lang, the locale's; a refusal too, the words around it as well
    missing = tmp_path / "nosuch" / "x.sqlite3"
    env = {"LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": "", "LANG": "fi_FI.UTF-8"}
    refused = CliRunner().invoke(main, ["serve", "--port", "0", "--db", str(missing)], env=env)
    assert refused.exit_code == 1
    assert f"tietokantaa {missing} ei voi avata: kansiota {missing.parent} ei ole" in refused.output
    assert refused.output.startswith("Virhe: ")
    empty = CliRunner().invoke(main, ["serve", "--host", " ", "--lang", "it"])
    assert empty.exit_code == 2
    assert "indica un indirizzo (0.0.0.0 per tutti quelli IPv4)" in empty.output
