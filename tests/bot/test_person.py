"""Sentences about the viewer are in the second person ("You start.", "Вы взяли фишку."), in every game
and both languages; everyone else still reads the seat's name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.console.app import ConsoleTable
from bot.core.clock import FakeClock
from bot.core.i18n import available_languages, catalog, template_fields
from bot.core.render import render_events, render_table
from bot.core.service import TableService
from rules import Event, engine_names, get_engine
from storage import SeatRecord, SqliteStore, TableRecord
from tests.rules.canasta_scenario import act
from tests.rules.canasta_scenario import scenario as canasta_scenario


def record(game: str, seats: int = 4) -> TableRecord:
    people = [SeatRecord(kind="human", platform="t", user_id=str(i), name=f"P{i + 1}") for i in range(seats)]
    return TableRecord(
        id="x", game=game, platform="t", chat_id="c", status="playing", host_platform="t", host_user_id="0",
        options={}, seed=1, seats=people, state=None, deadline=None, created_at=0, updated_at=0,
    )


START = {
    "rummikub": ("Game 3 begins. You start.", "Начинается партия 3. Вы начинаете.", "Game 3 begins. P1 starts."),
    "rummy101": ("Round 3 begins. You start.", "Начинается раунд 3. Вы начинаете.", "Round 3 begins. P1 starts."),
    "rummy500": ("Round 3 begins. You deal and play first.", "Начинается раунд 3. Вы сдаёте и начинаете.",
                 "Round 3 begins. P1 deals and plays first."),
    "canasta": ("Round 3 begins. You start.", "Начинается раунд 3. Вы начинаете.", "Round 3 begins. P1 starts."),
}


@pytest.mark.parametrize("game", sorted(START))
def test_a_new_round_started_by_you(game: str) -> None:
    events = [Event("NextRound", {"round": 3, "seat": 0})]
    mine_en, mine_ru, theirs = START[game]
    assert render_events(record(game), events, 0) == [mine_en]
    assert render_events(record(game), events, 0, "ru") == [mine_ru]
    assert render_events(record(game), events, 1) == [theirs]
    assert render_events(record(game), events, None) == [theirs]


def test_your_last_turn_in_three_thirteen() -> None:
    events = [Event("TurnStarted", {"seat": 2, "last_turn": True})]
    rec = record("three_thirteen")
    assert render_events(rec, events, 2) == ["Your last turn."]
    assert render_events(rec, events, 2, "ru") == ["Ваш последний ход."]
    assert render_events(rec, events, 0) == ["P3's last turn."]


def test_the_viewer_reads_you_in_names_too() -> None:
    rec = record("rummy101", seats=2)
    events = [Event("TieBreakNeeded", {"leaders": [0, 1]}), Event("Discarded", {"seat": 0, "tile": "r5"})]
    assert render_events(rec, events, 0, "ru") == ["Ничья за первое место: Вы, P2. Ещё один раунд!", "Вы сбросили r5."]
    assert render_events(rec, events, 1, "ru") == ["Ничья за первое место: P1, Вы. Ещё один раунд!",
                                                   "P1 сбросил r5."]


# How each language says "you" to the player: a pronoun, or a form that can only be the second person
# singular — Spanish drops the pronoun (the preterite's -aste/-iste, has, estás, tienes); Turkish uses
# endings: the past -DIn ("çektin"), the present/copula -sIn ("bitersin"), a noun with "your" as a suffix
# (süren "your time", hamlen "your turn", elin "your hand").
SECOND_PERSON = {
    "en": r"\b[Yy]ou(r)?\b",
    "ru": r"\b[Вв](ы|ас|ам|аш)\b",
    "es": r"(?i)\b(tú|tus?|te|ti|has|estás|tienes|\w+aste|\w+iste)\b",
    "uk": r"(?i)\b(ти|тебе|тобі|тобою|твій|твоя|твоє|твої|твого|твоєї|твою|твоїм|твоїх)\b",
    "tr": r"(?i)\b(sen|sana|seni|senin|sende|senden)\b|\w[dt][ıiuü]n\b|\ws[ıiuü]n\b|"
          r"\b(süren|hamlen|hamleni|elin|elinde|elini|sıran)\b",
    "de": r"\b[Dd](u|ich|ir|ein\w*)\b",  # the informal du, as chat games say it
    "pt_BR": r"(?i)\b(você|vocês|seus?|suas?|te|ti|contigo)\b",  # você, its possessives, the clitic te
}


def test_every_language_says_you_its_own_way() -> None:
    assert set(SECOND_PERSON) == set(available_languages()), "add the new language's words for you to SECOND_PERSON"


def test_every_second_person_variant_speaks_to_you() -> None:
    """Each `<key>.you` has its third-person key, needs no name, and says you (ru: no "(а)" guesses)."""
    for lang in available_languages():
        yours = {k: v for k, v in catalog(lang).items() if k.endswith(".you") and k != "name.you"}
        assert len(yours) > 50, lang
        for key, value in yours.items():
            base = key.removesuffix(".you")
            assert base in catalog(lang), (lang, key)
            assert "name" not in template_fields(value), (lang, key)
            assert template_fields(value) <= template_fields(catalog(lang)[base]), (lang, key)
            for text in ([value] if isinstance(value, str) else [v for k, v in value.items() if k != "plural"]):
                assert re.search(SECOND_PERSON[lang], text) and "(а)" not in text, (lang, key, text)


def test_canasta_is_announced_once() -> None:
    """The event reports the meld's kind now (CAN-31); only the add that reaches 7 tiles says CANASTA!"""
    state = canasta_scenario(hands={1: "k8 y8 b8 b9 y9 k9 r10 b10 k10 y5 y6"}, melds={1: ["8x5 r2"]}, turn=1)
    rec = record("canasta")
    state, events = act(state, 1, "add 8 k8")
    assert render_events(rec, events, 0) == ["P2 added k8 to B:8s: CANASTA (mixed)!"]
    assert render_events(rec, events, 1) == ["You added k8 to B:8s: CANASTA (mixed)!"]
    state, events = act(state, 1, "add 8 y8 b8")
    assert render_events(rec, events, 0) == ["P2 added y8 b8 to B:8s, a canasta (mixed) of 9 tiles."]
    assert render_events(rec, events, 1, "ru") == ["Вы добавили y8 b8 в B:8s: канаста (смешанная), 9 фишек."]


@pytest.mark.parametrize("game", engine_names())
def test_no_name_is_used_as_a_pronoun_in_any_game(game: str) -> None:
    """The third-person sentence about a seat never reads as "You's" or "You starts" for the viewer."""
    for lang in available_languages():
        for key, value in catalog(lang).items():
            if not (key.startswith(f"{game}.event.") or (game == "rummikub" and key.startswith("event."))):
                continue
            texts = [value] if isinstance(value, str) else list(value.values())
            if any("{name}'s" in text or "{name} starts" in text for text in texts):
                assert f"{key}.you" in catalog(lang), (lang, key)


async def test_the_terminal_says_you_in_russian(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    out: list[str] = []
    service = TableService(store, FakeClock())
    lines = iter(["draw", "quit"])

    async def read() -> str | None:
        return next(lines, None)

    console = ConsoleTable(service, read, out.append, lang="ru")
    rec = await console.open_or_resume("rummikub", ai=1, options={"turn_timer_s": 0}, seed=3)
    assert rec is not None
    await console.run(rec)
    text = "\n".join(out)
    assert "Вы взяли фишку." in text and "  1. Вы · 15 фишек · " in text
    assert "You" not in text  # the stored seat name never leaks into Russian
    stored = await service.get(rec.id)
    table = render_table(stored, get_engine("rummikub").view(stored.state, None), "en", viewer=0)
    assert "  1. You · 15 tiles · " in table
    await store.close()
