"""The full screen's game picker: the game, how many AI opponents and how they play, the language,
and the game's options (hints first, on; every other option of the game with the values its options
model accepts, bot/core/options_ui.py). One screen, by keys (Tab between fields, Enter opens a list
and picks) or the mouse; Play (or Ctrl+S / F5) deals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Select, Static

from bot.console.seats import default_opponents, opponents_hint, opponents_range
from bot.core.ai_seats import DEFAULT_LEVEL, LEVELS
from bot.core.i18n import available_languages, t
from bot.core.options_ui import option_choices, option_name, show_value
from bot.core.presenter.games import games, max_seats, options_model

LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}
# The terminal has nobody to wait for: no turn timer unless chosen; hints on for a first game.
TERMINAL_DEFAULTS: dict[str, Any] = {"turn_timer_s": 0, "hints": True}


@dataclass
class Choice:
    game: str
    ai: int
    level: str = DEFAULT_LEVEL
    options: dict[str, Any] = field(default_factory=dict)
    lang: str = "en"
    seed: int | None = None  # `play --seed`: the deal fixed


def option_defaults(game: str) -> dict[str, Any]:
    model = options_model(game)
    found = {key: info.default for key, info in model.model_fields.items()}
    return {**found, **{k: v for k, v in TERMINAL_DEFAULTS.items() if k in found}}


class Picker(Screen[Choice | None]):
    BINDINGS = [Binding("ctrl+s,f5", "play", "Play"), Binding("escape", "leave", "Quit")]
    DEFAULT_CSS = """
    Picker { align: center top; }
    Picker #form { width: 100%; max-width: 90; height: 1fr; padding: 0 1; }
    Picker Grid { grid-size: 2; grid-columns: 22 1fr; grid-rows: auto; height: auto; grid-gutter: 0 1; }
    Picker Label { padding: 0 0; width: 100%; }
    Picker Select { width: 100%; }
    Picker #title { text-style: bold; padding: 0 0 1 0; }
    Picker .note { color: $text-muted; padding: 0 0 1 0; }
    Picker #play { margin: 1 0 0 0; width: 100%; }
    """

    def __init__(self, lang: str, choice: Choice | None = None) -> None:
        super().__init__()
        self.lang = lang
        game = games()[0]
        self.choice = choice or Choice(game, default_opponents(game), options=option_defaults(game), lang=lang)
        self.choice.options = {**option_defaults(self.choice.game), **self.choice.options}

    def compose(self) -> ComposeResult:
        lang, c = self.lang, self.choice
        with VerticalScroll(id="form"):
            yield Static(t("tui.picker.title", lang), id="title")
            with Grid():
                yield Label(t("tui.picker.game", lang))
                yield Select([(t(f"game.{g}", lang), g) for g in games()], value=c.game, allow_blank=False,
                             compact=True, id="game")
                yield Label(t("tui.picker.opponents", lang))
                lo, hi = opponents_range(c.game)
                yield Select([(str(n), n) for n in range(lo, hi + 1)], value=c.ai, allow_blank=False, compact=True,
                             id="ai")
                yield Label(t("tui.picker.level", lang))
                yield Select([(t(f"level.{lv}", lang), lv) for lv in LEVELS], value=c.level, allow_blank=False,
                             compact=True, id="level")
                yield Label(option_name("hints", lang))
                yield Select([(show_value(v, lang, "hints"), v) for v in (True, False)],
                             value=bool(c.options.get("hints")), allow_blank=False, compact=True, id="hints")
                yield Label(t("tui.picker.language", lang))
                yield Select([(LANGUAGE_NAMES.get(code, code), code) for code in available_languages()],
                             value=c.lang, allow_blank=False, compact=True, id="lang")
                model = options_model(c.game)
                for key in model.model_fields:
                    if key == "hints":
                        continue
                    values = option_choices(model, c.options, key, max_seats(c.game))
                    yield Label(option_name(key, lang))
                    yield Select([(show_value(v, lang, key), i) for i, v in enumerate(values)],
                                 value=values.index(c.options.get(key)) if c.options.get(key) in values else 0,
                                 allow_blank=False, compact=True, id=f"opt-{key}", name=key)
            if (hint := opponents_hint(c.game, lang)) is not None:
                yield Static(hint, classes="note")
            yield Static(t("tui.picker.keys", lang), classes="note")
            yield Button(t("tui.picker.play", lang), variant="primary", id="play")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#play", Button).focus()

    @on(Select.Changed, "#game")
    def _game(self, event: Select.Changed) -> None:
        game = str(event.value)
        if game != self.choice.game:
            self.choice = Choice(game, default_opponents(game), self.choice.level, option_defaults(game), self.lang)
            self.refresh(recompose=True)

    @on(Select.Changed, "#lang")
    def _lang(self, event: Select.Changed) -> None:
        if str(event.value) != self.lang:
            self.lang = self.choice.lang = str(event.value)
            self.refresh(recompose=True)

    @on(Select.Changed, "#ai")
    def _ai(self, event: Select.Changed) -> None:
        self.choice.ai = int(str(event.value))

    @on(Select.Changed, "#level")
    def _level(self, event: Select.Changed) -> None:
        self.choice.level = str(event.value)

    @on(Select.Changed, "#hints")
    def _hints(self, event: Select.Changed) -> None:
        self.choice.options["hints"] = bool(event.value)

    @on(Select.Changed)
    def _option(self, event: Select.Changed) -> None:
        key = event.select.name
        if key is None or not (event.select.id or "").startswith("opt-"):
            return
        model = options_model(self.choice.game)
        values = option_choices(model, self.choice.options, key, max_seats(self.choice.game))
        index = int(str(event.value))
        if 0 <= index < len(values):
            self.choice.options[key] = values[index]

    @on(Button.Pressed, "#play")
    def _play(self) -> None:
        self.action_play()

    def action_play(self) -> None:
        self.dismiss(self.choice)

    def action_leave(self) -> None:
        self.dismiss(None)
