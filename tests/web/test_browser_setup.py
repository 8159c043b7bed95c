"""Without a browser the Chromium tests skip with a message — except in CI, where that is a failure."""

from __future__ import annotations

import pytest

from tests.web import browser


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_a_missing_browser_skips_outside_ci_and_fails_in_it(monkeypatch: pytest.MonkeyPatch, ci: str,
                                                            outcome: type[BaseException]) -> None:
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="chromium"):
        browser.browser_or_skip()
