"""Counted words follow CLDR plural rules (Babel), in English and Russian, for every message that counts.

Each plural message is rendered with 0, 1, 2, 5, 11 and 21 and must show the count next to the form
the language wants: "1 tile", "21 tiles"; "1 фишка", "2 фишки", "5 фишек", "11 фишек", "21 фишка".
A new plural message without a row in WORDS fails here, so no count goes unchecked.
"""

from __future__ import annotations

import re

import pytest

from bot.core.i18n import PLURAL_PARAM, available_languages, catalog, plural_categories, plural_category, t

COUNTS = (0, 1, 2, 5, 11, 21)

# What CLDR says, written out so a wrong rule source would show here first.
CATEGORY = {
    "en": {0: "other", 1: "one", 2: "other", 5: "other", 11: "other", 21: "other"},
    "ru": {0: "many", 1: "one", 2: "few", 5: "many", 11: "many", 21: "one"},
}

# The word each language puts after the count, per category: en (one, other), ru (one, few, many).
TILE = {"en": ("tile", "tiles"), "ru": ("фишка", "фишки", "фишек")}
TILE_ACC = {"en": ("tile", "tiles"), "ru": ("фишку", "фишки", "фишек")}  # "выложил 1 фишку"
MORE_TILE = {"en": ("more tile", "more tiles"), "ru": ("фишку", "фишки", "фишек")}  # "ещё 1 фишку"
TILE_WITH = {"en": ("tile", "tiles"), "ru": ("фишкой", "фишками", "фишками")}  # "с 1 фишкой"
PENALTY = {"en": ("penalty tile", "penalty tiles"), "ru": ("фишка", "фишки", "фишек")}
CARD = {"en": ("card", "cards"), "ru": ("карта", "карты", "карт")}
POINT = {"en": ("point", "points"), "ru": ("очко", "очка", "очков")}
POINT_GEN = {"en": ("point", "points"), "ru": ("очка", "очков", "очков")}  # "не меньше 21 очка"
PT = {"en": ("pt", "pts"), "ru": ("очко", "очка", "очков")}
PAIR = {"en": ("pair", "pairs"), "ru": ("пара", "пары", "пар")}
MATCH = {"en": ("match", "matches"), "ru": ("матч", "матча", "матчей")}
MATCH_TITLE = {"en": ("match", "matches"), "ru": ("партия", "партии", "партий")}
GAME = {"en": ("game", "games"), "ru": ("партия", "партии", "партий")}
ACTION = {"en": ("action", "actions"), "ru": ("действие", "действия", "действий")}
SEAT = {"en": ("seat", "seats"), "ru": ("место", "места", "мест")}
PLAYER = {"en": ("player", "players"), "ru": ("игрока", "игроков", "игроков")}
PASS = {"en": ("more pass", "more passes"), "ru": ("паса", "пасов", "пасов")}
TURN = {"en": ("turn", "turns"), "ru": ("ход", "хода", "ходов")}
LAST_TURN = {"en": ("last turn", "last turns"), "ru": ("последний ход", "последних хода", "последних ходов")}
HAND_CARD = {"en": ("card", "cards"), "ru": ("карта на руке", "карты на руке", "карт на руке")}
PILE_CARD = {"en": ("card", "cards"), "ru": ("карта в сбросе", "карты в сбросе", "карт в сбросе")}
NO_RU = {"en": ("card", "cards"), "ru": None}  # Russian needs no counted word there ("Ваши карты (5; …)")

WORDS = {
    "count.tiles": TILE, "count.cards": CARD, "count.points": POINT, "count.pairs": PAIR,
    "count.matches": MATCH, "count.games": GAME, "count.actions": ACTION,
    "error.E_PASS_NOT_ALLOWED": TILE, "error.E_TABLE_FULL": SEAT, "error.E_TOO_FEW_PLAYERS": PLAYER,
    "table.player_line": TILE, "table.pool_empty_blocked": PASS, "table.pool_empty_one_more": TURN,
    "hand.not_opened": POINT_GEN, "tui.draft_dropped": TILE,
    "event.MeldsPlayed": TILE_ACC, "event.MeldsPlayed.you": TILE_ACC,
    "event.MeldsPlayed_opened": TILE_WITH, "event.MeldsPlayed_opened.you": TILE_WITH,
    "event.TileDrawn_timeout": PENALTY, "event.TileDrawn_timeout.you": PENALTY,
    "rummy101.error.E_NOT_OPENED": POINT, "rummy101.table.player_line": TILE,
    "rummy500.error.E_NOT_IN_MARKET": CARD, "rummy500.table.player_line": CARD,
    "three_thirteen.table.header": HAND_CARD, "three_thirteen.table.piles": PILE_CARD,
    "three_thirteen.table.out": LAST_TURN, "three_thirteen.table.out.you": LAST_TURN,
    "three_thirteen.table.player_line": CARD, "three_thirteen.hand.title": NO_RU,
    "canasta.error.E_HAND_FLOOR": TILE, "canasta.table.player_line": TILE,
    "canasta.event.PileTaken": MORE_TILE, "canasta.event.PileTaken.you": MORE_TILE,
    "canasta.event.PileTaken_opened": MORE_TILE, "canasta.event.PileTaken_opened.you": MORE_TILE,
    "canasta.event.TilesAdded": TILE, "canasta.event.TilesAdded.you": TILE,
    "canasta.event.TilesAdded_grown": TILE, "canasta.event.TilesAdded_grown.you": TILE,
    "stats.board_line": PT, "stats.history_title": MATCH_TITLE,
    # hints (issue 16)
    "hint.rummikub.open": POINT, "hint.rummikub.no_opening": POINT, "hint.rummikub.play": TILE_ACC,
    "hint.rummikub.play_search": TILE_ACC, "hint.rummy101.open": POINT, "hint.rummy101.open_pairs": PAIR,
    "hint.rummy101.meld": POINT, "hint.rummy101.meld_pairs": PAIR, "hint.rummy101.add": TILE_ACC,
    "hint.rummy500.market": POINT, "hint.rummy500.lay": POINT, "hint.canasta.take_pile": TILE_ACC,
    "hint.canasta.open": POINT, "hint.canasta.meld": POINT, "hint.canasta.add": TILE_ACC,
    # option values with their unit ("Initial meld: 30 points", "Штраф за просрочку: 2 фишки")
    "option.unit.timeout_penalty_tiles": TILE, "option.unit.initial_meld_min": POINT,
    "option.unit.joker_rack_penalty": POINT, "option.unit.target_score": POINT, "option.unit.go_out_bonus": POINT,
    "option.unit.hand_size": CARD, "option.unit.joker_hand_penalty": POINT, "option.unit.ledger_per_round": POINT,
}

# Where a language says zero in words rather than "0 tiles", what it says instead.
ZERO = {
    "canasta.error.E_HAND_FLOOR": {"en": "leave you no tile", "ru": "ни одной фишки"},
    "canasta.event.PileTaken": {"en": "into {ref}.", "ru": "в {ref}."},
    "canasta.event.PileTaken.you": {"en": "You took the pile", "ru": "Вы забрали сброс"},
    "canasta.event.PileTaken_opened": {"en": "and opened Team", "ru": "и открыл(а) команду"},
    "canasta.event.PileTaken_opened.you": {"en": "and opened Team", "ru": "и открыли команду"},
    "rummy500.error.E_NOT_IN_MARKET": {"en": "the market is empty", "ru": "рынок пуст"},
    "option.unit.timeout_penalty_tiles": {"en": "none", "ru": "нет"},
}


def plural_keys() -> set[str]:
    return {k for lang in available_languages() for k, v in catalog(lang).items() if isinstance(v, dict)}


def word_for(key: str, lang: str, n: int) -> str | None:
    words = WORDS[key][lang]
    if words is None:
        return None
    if lang == "en":
        return words[0] if CATEGORY[lang][n] == "one" else words[1]
    return words[("one", "few", "many").index(CATEGORY[lang][n])]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_babel_gives_the_cldr_categories(lang: str) -> None:
    assert {n: plural_category(n, lang) for n in COUNTS} == CATEGORY[lang]
    assert plural_categories(lang) == {"en": {"one", "other"}, "ru": {"one", "few", "many", "other"}}[lang]


def test_every_plural_message_has_a_row() -> None:
    assert plural_keys() == set(WORDS), "add the new plural message's words to WORDS"


@pytest.mark.parametrize("key", sorted(WORDS))
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_counted_words_agree_with_the_count(key: str, lang: str) -> None:
    value = catalog(lang)[key]
    param = value[PLURAL_PARAM] if isinstance(value, dict) else "count"
    for n in COUNTS:
        text = t(key, lang, **{param: n})
        if n == 0 and isinstance(value, dict) and "=0" in value:
            assert ZERO[key][lang] in text and not re.search(r"(?<![\d+-])0 ", text), (key, lang, text)
            continue
        word = word_for(key, lang, n)
        if word is None:
            assert re.search(rf"\b{n}\b", text), (key, lang, text)
        else:
            assert re.search(rf"(?<![\d-]){n} {re.escape(word)}(?!\w)", text), (key, lang, n, text)


def test_no_count_reads_as_a_hedge() -> None:
    """The old "tile(s)" / "фишк(и)" hedges are gone from every catalog."""
    for lang in available_languages():
        for key, value in catalog(lang).items():
            for text in ([value] if isinstance(value, str) else value.values()):
                assert "(s)" not in text and "фишк(и)" not in text, (lang, key)


def test_numbers_in_phrases_render_in_place() -> None:
    # The sentences that hold two counts get both as counted phrases.
    assert t("rummy101.hand.best_opening", "ru", series=t("count.points", "ru", n=74),
             pairs=t("count.pairs", "ru", n=1)) == "Лучшее открытие в руке сейчас: 74 очка · 1 пара."
    assert t("rummy101.table.thresholds", "en", series=t("count.points", "en", n=101),
             pairs=t("count.pairs", "en", n=5), mode="fixed") == "To open: 101 points or 5 pairs (fixed)"
    assert t("stats.history_title", "en", n=1) == "🕘 Last 1 match"
    assert t("stats.history_title", "ru", n=3) == "🕘 Последние 3 партии"
