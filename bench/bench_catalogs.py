"""The catalogs: keys × languages translated, and what reading them costs: `python -m bench.bench_catalogs`.

The bot reads the PO files at start-up (bot/core/i18n.py) rather than compiled MO files; this prints
what that choice costs per language — Babel parsing every domain's PO and the English templates — next
to what reading the same catalogs compiled to MO with Python's gettext would cost, and one `t()`
lookup. Figures only (medians of repeated runs, process CPU time), never assertions.
"""

from __future__ import annotations

import gettext
import io
import statistics
import time
from collections.abc import Callable

from bot.core import i18n
from bot.core.catalogs import Layout, compiled, package_root, report


def _cpu_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.process_time_ns()
        work()
        times.append((time.process_time_ns() - started) / 1e6)
    return statistics.median(times)


def _fresh(lang: str) -> Callable[[], object]:
    def load() -> object:
        i18n.catalog.cache_clear()
        i18n._domain_texts.cache_clear()  # noqa: SLF001 - a cold start is what is measured
        i18n._english.cache_clear()  # noqa: SLF001
        return i18n.catalog(lang)
    return load


def main(argv: list[str]) -> None:
    layout = Layout(package_root())
    print("== catalogs")
    print(report(layout))
    runs = 5
    print(f"\nreading one language's catalogs, cold (median of {runs}, CPU ms):")
    for lang in i18n.available_languages():
        po_ms = _cpu_ms(_fresh(lang), runs)
        if lang == i18n.SOURCE_LANG:
            print(f"  {lang:<6} PO (the templates) {po_ms:7.1f} ms")
            continue
        blobs = [compiled(layout, lang, d) for d in layout.domains()]
        mo_ms = _cpu_ms(lambda blobs=blobs: [gettext.GNUTranslations(io.BytesIO(b)) for b in blobs], runs)
        print(f"  {lang:<6} PO with Babel {po_ms:7.1f} ms (English included)   MO with gettext {mo_ms:6.1f} ms")
    i18n.catalog("ru")
    n = 100_000
    started = time.process_time_ns()
    for i in range(n):
        i18n.t("table.pool_empty_one_more", "ru", left=i)
    print(f"\nt() of a plural message: {(time.process_time_ns() - started) / n / 1000:.2f} µs a call ({n} calls)")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
