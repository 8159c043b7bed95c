"""Every word in the player's language (issue 13, item 7; issue 30): a translated table shows no English word.

For every translated language and every game, from seeded AI-played positions (several parts of the
turn), the lobby (every option at a non-default value), the table, every seat's hand, every control
label (Telegram keyboards and Discord views, built directly from the view), every refusal the sweep of
tests/bot/test_error_words.py meets and every refused option are rendered; so is every sentence of
every translated catalog.

In a language not written in Latin letters (Russian, Ukrainian: CLDR's likely script) any Latin word
the rule below does not allow is left-over English. In one written in Latin letters (Turkish,
Spanish, German, …) the language's own words are Latin too, so what is caught there is an English
word no such sentence has reason to hold (`ENGLISH_MARKERS`: the, you, with, …), under the same rule,
and a catalog sentence left as its English word for word (`left_in_english`).

The rule for a Latin word (`latin_words` holds it):
- notation is fine anywhere: tiles (r5, k13, j, j=r7), cards (10H, QS, JK, JK=7C), meld references
  (A:8s, S3, #2, 8s) and single letters (a colour, rank, suit or team letter: "Команда A", Q-K-A);
- text in quotes ('fly', «…», `…`) is the player's own words echoed back, or something to type;
- in sentences (not on buttons), a word the player types: the command words are a contract
  (spec §13) and stay English — `draw`, `take bank`, `help` — and so are option keys and their
  typed values (`/new rummikub turn_timer_s=120`, "must be on or off");
- the bot's own commands (`rules`, `quit`, `/lang ru`, `--ai 2`, Enter) and its name (Rummy Club),
  and game names as they are typed (`/new rummikub`).
Buttons, selects and the lobby are pressed or read, not typed: only notation may be Latin there.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.core.i18n import SOURCE_LANG, available_languages, catalog_files, forms, script_of, t
from bot.core.options_text import bad_option, options_from_text
from bot.core.options_ui import option_choices
from bot.core.presenter import HandControls, HandUI
from bot.core.presenter import hand_controls as presenter_controls
from bot.core.render import render_error, render_hand, render_lobby, render_table
from bot.discord import views
from bot.telegram import keyboards
from rules import GameOptions, SetupError, get_engine
from rules.core.options import literal_choices
from storage import SeatRecord, TableRecord
from tests.bot.test_error_words import positions, refusals

GAMES = ("rummikub", "rummy101", "rummy500", "canasta", "three_thirteen")
TRANSLATED = [lang for lang in available_languages() if lang != SOURCE_LANG]
NAMES = ("Аня", "Борис", "Вера", "Глеб")  # Cyrillic seat names, so only the bot's own words are judged

_TILE = r"[rbky](?:1[0-3]|[1-9])|j(?:=[rbky]?(?:1[0-3]|[1-9]))?"
_CARD = r"(?:10|[2-9AJQK])[SHDC]|JK(?:=(?:10|[2-9AJQK])[SHDC]?)?"
_REF = r"[A-Z]:\d+s?|[A-Z]?\d+s?|[A-Z]?#\d+|[A-Z]<n>|[A-Za-z]"
NOTATION = re.compile(rf"(?:{_TILE}|{_CARD}|{_REF})")
QUOTED = re.compile(r"'[^'\n]*'|«[^»\n]*»|`[^`\n]*`|\"[^\"\n]*\"")
TOKEN = re.compile(r"[\w=:#<>+]+(?:-[\w=:#<>+]+)*")
LATIN = re.compile(r"[A-Za-z]")

# Words of the typed grammar (spec §13) that the help examples do not show.
GRAMMAR_EXTRA = {
    "rummikub": {"new", "rack"},
    "rummy101": {"new"},
    "rummy500": {"on", "draw"},
    "canasta": {"with"},
    "three_thirteen": {"stock", "discard"},
}


# The bot's own commands, typed in the terminal or after a slash (/rules, /lang ru, quit, --ai 2), their
# arguments (/look pictures|text), the keys named on the terminal, and the product's name.
BOT_WORDS = {
    "rules", "quit", "resume", "new", "rematch", "game", "standings", "table", "sort", "hand", "leaderboard", "all",
    "month", "week", "global", "stats", "teams", "team", "name", "history", "lang", "en", "ru", "away", "back",
    "rummy", "dm", "ai", "Enter", "Ctrl-C", "Rummy", "Club", "hint", "look", "pictures", "text",
    "Esc", "Tab", "Ctrl+Q", "Ctrl+S", "colour", "number",  # the full-screen terminal's keys; `sort colour|number`
    "Telegram", "Discord",  # the platforms' names, the same in every language
    *available_languages(),  # typed after /lang
}

# English words a sentence in another Latin-script language has no reason to hold (none of them a
# word of Turkish, Spanish, Portuguese or German; "at", "was", "has", "still" are, so they are not here).
ENGLISH_MARKERS = {
    "the", "and", "you", "your", "with", "would", "could", "should", "there", "their", "this", "that", "these",
    "those", "have", "been", "were", "what", "which", "when", "where", "who", "only", "yet", "now", "then", "not",
    "from", "into", "after", "before", "again", "each", "every", "than", "its", "is", "are", "of", "to", "for", "by",
    "or", "if", "it", "can", "cannot", "must", "needs", "turn", "tile", "tiles", "card", "cards", "player", "players",
}


def grammar(game: str | None) -> set[str]:
    """The words a player types in `game` (every game's for a shared sentence)."""
    games = [game] if game else list(GAMES)
    out = {"help", *GAMES, *BOT_WORDS}  # a game is typed by its name: /new rummikub, rules canasta
    for g in games:
        for example, _ in get_engine(g).help_text():
            out |= {w for w in re.findall(r"[A-Za-z]+", example) if not NOTATION.fullmatch(w)}
        out |= GRAMMAR_EXTRA[g]
    return out


def option_words(game: str | None) -> set[str]:
    """Option keys and the words their values are typed as (Literal words, on/off, random)."""
    games = [game] if game else list(GAMES)
    out = {"on", "off", "true", "false", "yes", "no", "random"}
    for g in games:
        for key, info in get_engine(g).options_model.model_fields.items():
            out.add(key)
            out |= {w for c in literal_choices(info.annotation) if isinstance(c, str) for w in c.split()}
    return out


def stray_english(text: str, game: str | None, lang: str, typed: bool = True) -> list[str]:
    """The left-over English words of a text in `lang` (the rule above, by the language's script)."""
    bad = latin_words(text, game, typed)
    return bad if script_of(lang) != "Latn" else [w for w in bad if w.lower() in ENGLISH_MARKERS]


def _notation(token: str) -> bool:
    return all(NOTATION.fullmatch(part) or not LATIN.search(part) for part in re.split(r"[-:]", token))


def latin_words(text: str, game: str | None, typed: bool = True) -> list[str]:
    """The Latin words of `text` the rule above does not allow (`typed`: a sentence, not a button)."""
    words = grammar(game) | option_words(game) if typed else set()
    bad = []
    for token in TOKEN.findall(QUOTED.sub(" ", text)):
        token = token.strip(":")
        if not LATIN.search(token) or _notation(token):
            continue
        key, sep, value = token.partition("=")
        if token in words or sep and key in words:
            continue
        bad.append(token)
    return bad


def test_the_rule_catches_english_and_lets_notation_through() -> None:
    assert latin_words("Таймер хода: 60 с, r5 k13 j=r7 10H JK=7C A:8s S3 #2 Q-K-A", "rummy500") == []
    assert latin_words("Настройки: turn_timer_s=60, allow_draw=False", "rummikub") == []  # typed form
    assert latin_words("настройка joker_button: off", "rummy101") == []  # typed words
    assert latin_words("draw, take, pass", "rummikub", typed=False) == ["draw", "take", "pass"]
    assert latin_words("ожидалось command на месте 'blah'", "rummikub") == ["command"]
    assert latin_words("Ход: finished", "rummikub") == ["finished"]
    assert stray_english("Ход: finished", "rummikub", "uk") == ["finished"]  # Cyrillic: any English word
    assert stray_english("Sıra sende: the tiles", "rummikub", "tr") == ["the", "tiles"]  # Latin: the markers
    assert stray_english("Taş çek (draw) veya geç", "rummikub", "tr") == []
    assert left_in_english("Pool empty: {left} turns left.", "Pool empty: {left} turns left.", None, "de")
    assert not left_in_english("Rummy Club", "Rummy Club", None, "de")  # a name, the same in every language
    assert not left_in_english("Pool empty: {left} turns left.", "Pool empty: {left} turns left.", None, "uk")


# ---- positions --------------------------------------------------------------------------------------


def record(game: str, state: dict[str, Any], status: str = "playing", options: dict[str, Any] | None = None
           ) -> TableRecord:
    seats = [SeatRecord(kind="human", platform="t", user_id=str(i), name=NAMES[i]) for i in range(state["seats"])]
    return TableRecord(
        id="x", game=game, platform="t", chat_id="c", status=status, host_platform="t", host_user_id="0",
        options=state["options"] if options is None else options, seed=1, seats=seats, state=state,
        created_at=0, updated_at=0,
    )


def non_default_options(game: str) -> dict[str, Any]:
    """Every option at a value other than its default (when its model accepts one with the others)."""
    engine = get_engine(game)
    model: type[GameOptions] = engine.options_model
    options = model.parse_options({}).model_dump()
    for key, info in model.model_fields.items():
        other = [c for c in option_choices(model, options, key, engine.max_seats) if c != info.default]
        if other:
            options[key] = other[len(other) // 2]
    return options


# ---- controls ---------------------------------------------------------------------------------------


def telegram_labels(markup: Any) -> list[str]:
    return [] if markup is None else [b.text for row in markup.inline_keyboard for b in row]


def discord_labels(view: discord.ui.View) -> list[str]:
    out = []
    for child in view.children:
        item = getattr(child, "item", child)
        if isinstance(item, discord.ui.Select):
            out += [o.label for o in item.options] + ([item.placeholder] if item.placeholder else [])
        else:
            out.append(item.label or "")
    return out


def telegram_hand(rec: TableRecord, view: dict[str, Any], seat: int, ui: HandUI, lang: str) -> Any:
    return keyboards.hand_keyboard(rec, seat, presenter_controls(rec.game, view, seat, ui, lang, True), lang)


def _discord_controls(rec: TableRecord, view: dict[str, Any], seat: int, ui: HandUI, lang: str) -> HandControls:
    return presenter_controls(rec.game, view, seat, ui, lang, rec.status == "playing")


def hand_controls(rec: TableRecord, view: dict[str, Any], seat: int, lang: str) -> list[str]:
    picks = [[], [0], [0, 1], [0, 1, 2], list(range(min(4, len(view.get("rack") or view.get("hand") or []))))]
    labels = []
    for selected in picks:
        labels += telegram_labels(telegram_hand(rec, view, seat, HandUI(picks=tuple(selected)), lang))
        labels += discord_labels(views.hand_view(
            rec, seat, _discord_controls(rec, view, seat, HandUI(picks=tuple(selected)), lang), lang))
    staged = HandUI(picks=(2,), staged=((0, 1),))  # a staged meld and a pick: the staging buttons
    labels += telegram_labels(telegram_hand(rec, view, seat, staged, lang))
    labels += discord_labels(views.hand_view(rec, seat, _discord_controls(rec, view, seat, staged, lang), lang))
    labels += telegram_labels(telegram_hand(rec, view, seat, HandUI(choosing=True), lang))
    labels += telegram_labels(telegram_hand(rec, view, seat, HandUI(moving=0), lang))
    labels += discord_labels(views.hand_view(rec, seat, _discord_controls(rec, view, seat, HandUI(moving=0), lang), lang))
    return labels


def lobby_controls(rec: TableRecord, lang: str) -> list[str]:
    labels = telegram_labels(keyboards.lobby_keyboard(rec, lang))
    labels += telegram_labels(keyboards.options_keyboard(rec, lang))
    labels += discord_labels(views.lobby_view(rec, lang))
    for i in range(len(rec.options)):
        labels += discord_labels(views.options_view(rec, lang, i))
    return labels


# ---- the sweeps ---------------------------------------------------------------------------------------


def option_refusals(game: str, lang: str) -> list[str]:
    """Every option refused once (a word no option takes) and an unknown option, in `lang`."""
    engine = get_engine(game)
    out = []
    for key in [*engine.options_model.model_fields, "colour"]:
        try:
            engine.options_model.parse_options(options_from_text(f"{key}=zz"))
        except SetupError as err:
            out.append(render_error(bad_option(err, engine), lang, game))
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translated_table_has_no_english_word(lang: str, game: str) -> None:
    engine = get_engine(game)
    found: dict[str, str] = {}

    def check(text: str, typed: bool = True) -> None:
        for word in stray_english(text, game, lang, typed):
            found.setdefault(word, text)

    states = positions(game)
    phases = {str(s.get("phase")) for s in states}
    assert len(phases) >= 2 or game == "rummikub", phases  # several parts of the turn were rendered
    for state in states:
        rec = record(game, state)
        check(render_table(rec, engine.view(state, None), lang, now=0))
        check(render_table(rec, engine.view(state, 0), lang, now=0, viewer=0))
        for seat in range(state["seats"]):
            view = engine.view(state, seat)
            check(render_hand(rec, view, lang))
            for label in hand_controls(rec, view, seat, lang):
                check(label, typed=False)
        for label in telegram_labels(keyboards.table_keyboard(rec, "rummy_test_bot", lang)):
            check(label, typed=False)
        check(" ".join(discord_labels(views.table_view(rec, lang))), typed=False)
    for options in (non_default_options(game), states[0]["options"]):
        lobby = record(game, states[0], status="lobby", options=options)
        check(render_lobby(lobby, lang, engine.max_seats), typed=False)  # shown, not typed: no `key=value`
        for label in lobby_controls(lobby, lang):
            check(label, typed=False)
    errors = refusals(game)
    assert errors
    for err in errors:
        check(render_error(err, lang, game))
    for sentence in option_refusals(game, lang):
        check(sentence)
    assert not found, found


def _game_of(file: str) -> str | None:
    return file if file in GAMES else None


def _bare(text: str) -> str:
    return re.sub(r"\{\w+(?::[^}]*)?\}", " ", text)


def left_in_english(text: str, english: str | None, game: str | None, lang: str) -> bool:
    """A sentence of a Latin-script language that is its English word for word, with three or more
    English words beyond what the player types: the markers would miss an untranslated "Pool empty"."""
    return script_of(lang) == "Latn" and text == english and len(latin_words(_bare(english), game)) >= 3


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translated_catalog_sentence_is_in_its_language(lang: str) -> None:
    found = {}
    english = catalog_files(SOURCE_LANG)
    for file, texts in catalog_files(lang).items():
        game = _game_of(file)
        for key, value in texts.items():
            source = forms(english[file][key])
            for form, text in forms(value).items():
                bad = stray_english(_bare(text), game, lang)
                if left_in_english(text, source.get(form) or source.get("other"), game, lang):
                    bad.append("(the English sentence as it is)")
                if bad:
                    found[key] = (bad, text)
    assert not found, found


def test_options_read_as_words_in_both_languages() -> None:
    rec = record("rummikub", get_engine("rummikub").new_game(2, seed=1), status="lobby")
    en = render_lobby(rec, "en", 4)
    assert "Turn timer: 60 s" in en and "turn_timer_s" not in en and "Draw on a tie: off" in en
    ru = render_lobby(rec, "ru", 4)
    assert "Таймер хода: 60 с" in ru and "Первый ход: случайно" in ru
    assert "Turn timer: 60 s" in telegram_labels(keyboards.options_keyboard(rec, "en"))
    assert "Turn timer: 60 s" in discord_labels(views.options_view(rec, "en", 0))
    off = rec.model_copy(update={"options": {**rec.options, "turn_timer_s": 0, "timeout_penalty_tiles": 2}})
    assert "Таймер хода: выкл" in render_lobby(off, "ru", 4)
    assert "Штраф за просрочку: 2 фишки" in render_lobby(off, "ru", 4)


@pytest.mark.parametrize("phase", ["play", "draw", "take", "bank", "market"])
def test_a_part_of_the_turn_is_named_in_words(phase: str) -> None:
    # The phase names are also command words, so the sweep's rule would let a raw one through.
    from rules import IllegalAction

    err = IllegalAction("E_PHASE", action="stop", phase=phase)
    for lang in available_languages():
        text = render_error(err, lang)  # the shared sentence, which names the part of the turn
        assert f"({phase})" not in text and "({})".format(t(f"phase.{phase}", lang)) in text, text
