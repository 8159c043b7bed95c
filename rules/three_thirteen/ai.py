"""Three-Thirteen AI and a greedy baseline; both decide from one seat's view only.

(work in progress: the previous AI, re-exported)
"""

from __future__ import annotations

from rules.three_thirteen.ai_greedy import choose_greedy_action
from rules.three_thirteen.ai_previous import choose_action

__all__ = ["choose_action", "choose_greedy_action"]
