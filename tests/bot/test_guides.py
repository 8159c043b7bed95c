"""The players' guides: one per game and language, in docs/ and (identical) in the package; every
command of the game's grammar shown, every example accepted by the game's parser; cut to fit."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from bot.core.guides import GUIDE_LANGS, RulesRequest, guide_chunks, guide_text, rules_reply, rules_request
from bot.core.guides.split import sections
from bot.core.i18n import available_languages
from rules import engine_names, get_engine

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bot" / "core" / "guides"
CASES = [(g, lang) for g in engine_names() for lang in GUIDE_LANGS]
_SPAN = re.compile(r"`([^`]+)`")


def docs_path(game: str, lang: str) -> Path:
    return ROOT / "docs" / (f"{game}.md" if lang == "en" else f"{lang}/{game}.md")


def verbs(game: str) -> set[str]:
    return {example.split()[0] for example, _ in get_engine(game).help_text()}


def command_bullets(text: str) -> list[str]:
    """The first code span of each `- \\`…\\`` bullet: the guide's list of commands."""
    return [_SPAN.match(line[2:]).group(1) for line in text.split("\n") if line.startswith("- `")]


def typed_lines(text: str) -> list[str]:
    """`> command   comment` lines of the worked turns (a comment is set off by 2+ spaces)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif fenced and line.startswith("> "):
            out.append(re.split(r"\s{2,}", line[2:].strip())[0])
    return out


def examples(game: str, text: str) -> list[str]:
    """Everything the guide shows as a command to type: the bullets, the worked turns, and any other
    code span of several words that starts with one of the game's verbs (`take add 3 r6`)."""
    spans = [s for s in _SPAN.findall(text) if len(s.split()) > 1 and s.split()[0].lower() in verbs(game)]
    return command_bullets(text) + typed_lines(text) + spans


def test_every_game_has_a_guide_in_every_language_the_bot_speaks() -> None:
    assert set(GUIDE_LANGS) == set(available_languages())
    for game, lang in CASES:
        assert docs_path(game, lang).is_file(), f"{docs_path(game, lang)} is missing"


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_the_package_ships_exactly_what_docs_holds(game: str, lang: str) -> None:
    assert guide_text(game, lang) == docs_path(game, lang).read_text(encoding="utf-8"), (
        f"bot/core/guides/{lang}/{game}.md differs from docs/: run `make guides`")


def test_no_stray_guide_in_the_package_and_pyproject_ships_them() -> None:
    shipped = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.glob("*/*.md"))
    assert shipped == sorted(f"{lang}/{game}.md" for game, lang in CASES)
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    patterns = data["bot.core.guides"]
    assert all(any(fnmatch(path, p) for p in patterns) for path in shipped)


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_the_guide_lists_every_command_of_the_grammar(game: str, lang: str) -> None:
    listed = {cmd.split()[0].lower() for cmd in command_bullets(guide_text(game, lang))}
    assert verbs(game) <= listed, f"not in the guide's command list: {sorted(verbs(game) - listed)}"


@pytest.mark.parametrize(("game", "lang"), CASES)
def test_every_example_in_the_guide_parses(game: str, lang: str) -> None:
    engine = get_engine(game)
    found = examples(game, guide_text(game, lang))
    assert len(typed_lines(guide_text(game, lang))) >= 2, "a worked turn with typed commands"
    for command in found:
        action = engine.parse(command)  # raises IllegalAction("E_PARSE") on a bad example
        assert engine.parse(engine.format(action)) == action


@pytest.mark.parametrize("game", engine_names())
def test_translations_show_the_same_commands_and_sections(game: str) -> None:
    english = guide_text(game, "en")
    for lang in GUIDE_LANGS:
        text = guide_text(game, lang)
        assert examples(game, text) == examples(game, english), lang
        assert len(sections(text)) == len(sections(english)), lang


def test_readme_links_every_guide_and_no_missing_rule_file() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for game, lang in CASES:
        link = str(docs_path(game, lang).relative_to(ROOT))
        assert f"({link})" in readme, f"README does not link {link}"
    # The specs live outside the repository: a clone has no shared/rules/, so nothing may point there.
    assert "shared/rules" not in readme


@pytest.mark.parametrize(("game", "lang"), CASES)
@pytest.mark.parametrize("limit", [2000, 4096, 700])
def test_chunks_fit_keep_every_line_and_never_cut_a_code_block(game: str, lang: str, limit: int) -> None:
    text = guide_text(game, lang)
    chunks = guide_chunks(text, limit)
    assert all(len(c) <= limit for c in chunks)
    assert [line for c in chunks for line in c.split("\n") if line.strip()] == [
        line for line in text.split("\n") if line.strip()]
    assert all(sum(line.startswith("```") for line in c.split("\n")) % 2 == 0 for c in chunks)
    if limit == 4096:  # roomy: whole sections only
        assert all(c.startswith(("# ", "## ")) for c in chunks)


def test_a_section_longer_than_the_limit_is_cut_between_paragraphs_then_lines() -> None:
    text = "# T\n\n## A\n\n" + "aaaa " * 10 + "\n\n" + "bbbb " * 10 + "\n\n## B\n\nc\nd"
    chunks = guide_chunks(text, 61)
    assert all(len(c) <= 61 for c in chunks) and len(chunks) == 2
    assert chunks[0].startswith("# T\n\n## A\n\naaaa")  # title and heading travel with the first paragraph
    assert chunks[1].startswith("bbbb") and chunks[1].endswith("## B\n\nc\nd")
    assert "".join(chunks).count("aaaa") == 10 and "".join(chunks).count("bbbb") == 10


def test_the_limit_holds_for_the_rendered_text() -> None:
    text = "# T\n\n## A\n\nxx\n\n## B\n\nyy"
    assert guide_chunks(text, 20) == ["# T\n\n## A\n\nxx", "## B\n\nyy"]
    doubled = guide_chunks(text, 20, render=lambda s: s + s)
    assert all(len(c + c) <= 20 for c in doubled)


@pytest.mark.parametrize(("text", "expected"), [
    ("rules", RulesRequest(None)),
    ("help rules", RulesRequest(None)),
    ("/rules@rummy_bot rummy101", RulesRequest("rummy101")),
    ("/help rules Three-Thirteen", RulesRequest("three_thirteen")),
    ("rules three thirteen", RulesRequest("three_thirteen")),
    ("RULES Rummy 500", RulesRequest("rummy500")),
    ("guide canasta", RulesRequest("canasta")),
    ("rules poker", RulesRequest(None, unknown="poker")),
    ("help", None), ("rulesx", None), ("play r1 r2 r3", None), ("", None),
])
def test_rules_requests(text: str, expected: RulesRequest | None) -> None:
    assert rules_request(text) == expected


def test_replies_name_the_way_forward() -> None:
    assert rules_reply(RulesRequest(None), "canasta", "en") == ("canasta", "")
    assert rules_reply(RulesRequest("rummy500"), "canasta", "en") == ("rummy500", "")
    game, problem = rules_reply(RulesRequest(None), None, "en")
    assert game is None and "rules <game>" in problem and "three_thirteen" in problem
    game, problem = rules_reply(RulesRequest(None, unknown="poker"), "canasta", "ru")
    assert game is None and "«poker»" in problem and "rules rummikub" in problem
