"""Textual's command palette (Ctrl+P) in the player's language.

Textual names its own commands in English ("Theme", "Quit", ...) and its search boxes
too; the terminal game and the replay viewer say them in the player's words. Its "Keys"
panel is left out: it lists bindings by their English descriptions, and both programs
have their own key bar (the game its help, ``?``, too)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import cast

from textual.app import App, SystemCommand
from textual.command import CommandPalette
from textual.screen import Screen
from textual.theme import ThemeProvider

from mextrain.i18n import Translator, os_error_text
from mextrain.store import data_dir

__all__ = ["PaletteInWords", "screenshot_folders"]

#: Textual's commands, told by their help text (two share the title "Keys"), and our key
#: for each (None: left out)
_COMMANDS: dict[str, str | None] = {
    "Change the current theme": "theme",
    "Quit the application as soon as possible": "quit",
    "Minimize the widget and restore to normal size": "minimize",
    "Maximize the focused widget": "maximize",
    "Save an SVG 'screenshot' of the current screen": "screenshot",
    "Hide the keys and widget help panel": None,
    "Show help for the focused widget and a summary of available keys": None,
}


def screenshot_folders() -> list[Path]:
    """Where a screenshot may go, in order: the user's Downloads folder if there is one
    (as Textual would), then ``screenshots`` in mextrain's data folder."""
    import platformdirs

    downloads = Path(platformdirs.user_downloads_dir())
    fallback = data_dir() / "screenshots"
    return [downloads, fallback] if downloads.is_dir() else [fallback]


class PaletteInWords(App[None]):
    """An app whose command palette speaks the player's language (`words`)."""

    def words(self) -> Translator:
        return Translator(str(getattr(self, "lang", "en")))

    def quit_command(self) -> None:
        """What the palette's Quit does (the game saves first)."""
        self.exit()

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        t = self.words()
        for command in super().get_system_commands(screen):
            if command.help not in _COMMANDS:
                yield command  # (one a later Textual adds: as Textual says it)
                continue
            key = _COMMANDS[command.help]
            if key is None:
                continue
            callback = command.callback
            if key == "quit":
                callback = self.quit_command
            elif key == "screenshot":  # (the palette closes first, as Textual waits too)
                callback = self.screenshot_command
            yield SystemCommand(
                t(f"tui.palette.{key}"), t(f"tui.palette.{key}_help"), callback, command.discover
            )

    def screenshot_command(self) -> None:
        """What the palette's Screenshot does: saved where it can be (Textual's own tried
        only a Downloads folder, and said in English that it failed, not why)."""
        self.set_timer(0.1, self.save_screenshot_in_words)

    def save_screenshot_in_words(self) -> None:
        """Saved in the first folder that takes it (a Downloads folder that refuses it, the
        data folder then); if none does, why the last one refused, in words."""
        t = self.words()
        folders = screenshot_folders()
        for folder in folders:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                saved = self.save_screenshot(path=str(folder))
            except OSError as err:
                if folder != folders[-1]:
                    continue
                reason = os_error_text(err, t.lang)
                said = t("tui.palette.screenshot_failed", folder=str(folder), reason=reason)
                self.notify(said, title=t("tui.palette.screenshot"), severity="error", markup=False)
                return
            said = t("tui.palette.screenshot_saved", path=saved)
            self.notify(said, title=t("tui.palette.screenshot"), markup=False)
            return

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(cast("App[object]", self)):
            self.push_screen(
                CommandPalette(
                    id="--command-palette", placeholder=self.words()("tui.palette.search")
                )
            )

    def search_themes(self) -> None:
        self.push_screen(
            CommandPalette(
                providers=[ThemeProvider], placeholder=self.words()("tui.palette.search_themes")
            )
        )
