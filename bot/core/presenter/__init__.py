"""The chat table's presenter: outcomes and stored tables turned into platform-neutral updates
(panels.py), the hand controls built from the engines' legal moves (controls.py) and what a press on
them means (press.py), the stored hand screen (hand_ui.py), and what adapters may know of the games
(games.py). Telegram, Discord and the terminal only lay these out and send them."""

from bot.core.presenter.controls import (
    Action,
    Choice,
    HandControls,
    Item,
    Staged,
    Staging,
    Suggestion,
    hand_controls,
    staging_lines,
)
from bot.core.presenter.hand_ui import HandUI, HandUIs
from bot.core.presenter.panels import ANNOUNCED, HandPanel, Presenter, TablePanel, TurnNotice, Updates, turn_notice

__all__ = [
    "ANNOUNCED", "Action", "Choice", "HandControls", "HandPanel", "HandUI", "HandUIs", "Item", "Presenter",
    "Staged", "Staging", "Suggestion", "TablePanel", "TurnNotice", "Updates", "hand_controls", "staging_lines",
    "turn_notice",
]
