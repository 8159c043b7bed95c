"""Keeping the gettext catalogs (bot/core/locales) up to date, complete and measured.

    python -m bot.core.catalogs update         every language's PO brought in line with the templates
    python -m bot.core.catalogs check          what is missing or wrong, one line each (exit 1 if any)
    python -m bot.core.catalogs report         messages × languages translated
    python -m bot.core.catalogs init LANG      a new language: its directory of empty PO files
    python -m bot.core.catalogs import-json DIR [--since REV] [--remove]
                                               catalogs in the JSON format of before (DIR/<lang>/<domain>.json)
                                               merged in: the JSON's sentences win, keys it lacks stay; with
                                               --since, only the keys added or changed since git REV

`make catalogs` runs update then check; `make catalogs-report` the report. The merging is Babel's
(`Catalog.update`, as `pybabel update` does it): a message whose English changed keeps its old
translation marked fuzzy, with the old English as `#| msgid`, until a translator looks at it; a
message gone from the template is dropped. What Babel does not know is this project's: the
Plural-Forms header written from CLDR (Babel's `to_gettext` of the language's CLDR rule, so a
Russian catalog has one/few/many/other like the code chooses), and the checks of placeholders,
count params and the keys the code asks for.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import string
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.core import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, unescape, write_po
from babel.plural import to_gettext

from bot.core.i18n import (
    EXACT_FORM,
    PLURAL_PARAM,
    SOURCE_LANG,
    Template,
    count_param,
    english_texts,
    plural_order,
    translated_texts,
)

PROJECT = "Rummy Club"
BRACE = "python-brace-format"  # the flag tools (msgfmt -c, Weblate, Poedit) check `{field}`s by
CODE_DIRS = ("bot", "rules")  # where t("key") and has("key") are called with literal keys
HEADER = "# {title}\n# This file is distributed under the same license as the Rummy Club project.\n#"
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)  # a fixed creation date: updates do not churn the headers


def package_root() -> Path:
    """The source tree's locales directory (the tools write there, so it must be a real directory)."""
    return Path(__file__).resolve().parent / "locales"


# ---- layout ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The catalog files under one locales directory."""

    root: Path

    def template(self, domain: str) -> Path:
        return self.root / f"{domain}.pot"

    def po(self, lang: str, domain: str) -> Path:
        return self.root / lang / "LC_MESSAGES" / f"{domain}.po"

    def domains(self) -> list[str]:
        return sorted(p.stem for p in self.root.glob("*.pot"))

    def languages(self) -> list[str]:
        """The translated languages (English is the templates)."""
        return sorted(p.name for p in self.root.iterdir() if (p / "LC_MESSAGES").is_dir())


def read(path: Path, lang: str | None = None) -> Catalog:
    return read_po(io.BytesIO(path.read_bytes()), locale=lang, ignore_obsolete=True)


def write(path: Path, catalog: Catalog) -> bool:
    """Write a catalog (unwrapped lines, no source locations, the previous English of a fuzzy message);
    False when the file already says exactly that."""
    out = io.BytesIO()
    write_po(out, catalog, width=0, no_location=True, ignore_obsolete=True, include_previous=True)
    data = out.getvalue()
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


# ---- headers and messages --------------------------------------------------------------------------------


def plural_forms(lang: str) -> str:
    """The gettext Plural-Forms of a language's CLDR rule. Babel's `to_gettext` keeps CLDR's
    exponent operand (`e`, `c`) that gettext does not know; our counts are integers, whose
    exponent is 0, so it is written as 0 — and the formula stays valid C for msgfmt and Python."""
    rule = to_gettext(Locale.parse(lang).plural_form)
    head, _, expr = rule.partition("plural=")
    return head + "plural=" + re.sub(r"\b(?!n\b)[a-z]\b", "0", expr)


def new_catalog(lang: str | None, domain: str) -> Catalog:
    title = f"{PROJECT}: {domain} messages" + (f" in {Locale.parse(lang).english_name}" if lang else " (English, the template)")
    catalog = Catalog(locale=lang, domain=domain, project=PROJECT, version="1", fuzzy=False,
                      header_comment=HEADER.format(title=title), creation_date=EPOCH, revision_date=EPOCH,
                      language_team=Locale.parse(lang).english_name if lang else None,
                      last_translator="Rummy Club contributors" if lang else None)
    if lang:
        set_plural_forms(catalog, lang)
    return catalog


def set_plural_forms(catalog: Catalog, lang: str) -> None:
    catalog.mime_headers = [("Plural-Forms", plural_forms(lang))]


def fields(text: str) -> set[str]:
    """The `{field}`s of a template as written (name, conversion and format spec), e.g. `{score:+d}`."""
    out = set()
    for _, name, spec, conv in string.Formatter().parse(text):
        if name is not None:
            out.add("{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}")
    return out


def _flags(texts: Iterable[str]) -> set[str]:
    try:
        return {BRACE} if any(fields(t) for t in texts) else set()
    except ValueError:  # an unpaired brace: the check names it, the update goes on
        return set()


def template_messages(key: str, value: Template) -> list[Message]:
    """A key's messages in the template: one, and one more per exact form of a plural."""
    if isinstance(value, str):
        return [Message(value, context=key, flags=_flags([value]))]
    param = value[PLURAL_PARAM]
    other = value["other"]
    one = value.get("one", other)
    out = [Message((one, other), context=key, flags=_flags([one, other]), auto_comments=[f"count: {{{param}}}"])]
    for form, text in value.items():
        if form.startswith("="):
            out.append(Message(text, context=f"{key}{form}", flags=_flags([text]),
                               auto_comments=[f"said instead of {key} when {{{param}}} is {form[1:]}"]))
    return out


# ---- update ----------------------------------------------------------------------------------------------


def normalised_template(template: Catalog, domain: str) -> Catalog:
    """The template rewritten the one way: header, brace flags where a message has fields."""
    out = new_catalog(None, domain)
    for message in template:
        if not message.id:
            continue
        texts = list(message.id) if isinstance(message.id, tuple | list) else [str(message.id)]
        flags = (set(message.flags) - {BRACE, "fuzzy"}) | _flags(texts)
        out.add(message.id, context=message.context, flags=flags, auto_comments=message.auto_comments,
                user_comments=message.user_comments)
    return out


def previous_english(path: Path) -> dict[str, list[str]]:
    """The old English (`#| msgid`, `#| msgid_plural`) each fuzzy message of a PO shows the translator.
    Babel writes these lines but reads them back as a translator's comment, so without this a second
    update would turn them into one before anyone had looked."""
    out: dict[str, list[str]] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        shown: list[str] = []
        key = None
        for line in block.splitlines():
            if line.startswith(("#| msgid ", "#| msgid_plural ")):
                shown.append(unescape(line.split(" ", 2)[2]))
            elif line.startswith('#| "') and shown:
                shown[-1] += unescape(line[3:])
            elif line.startswith("msgctxt "):
                key = unescape(line[len("msgctxt "):])
        if key is not None and shown:
            out[key] = shown
    return out


def update(layout: Layout, langs: Iterable[str] | None = None) -> list[Path]:
    """Every language's PO in line with the templates (Babel's merge); the files written."""
    written = []
    for domain in layout.domains():
        template = normalised_template(read(layout.template(domain)), domain)
        if write(layout.template(domain), template):
            written.append(layout.template(domain))
        for lang in langs if langs is not None else layout.languages():
            path = layout.po(lang, domain)
            po = read(path, lang) if path.is_file() else new_catalog(lang, domain)
            previous = previous_english(path) if path.is_file() else {}
            for message in po:  # Babel reads a `#|` line as a translator's comment "| msgid …"
                message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
            po.update(template, update_header_comment=False)
            set_plural_forms(po, lang)
            for message in po:
                if message.fuzzy and not message.previous_id and message.context in previous:
                    message.previous_id = previous[message.context]
            if write(path, po):
                written.append(path)
    return written


def init(layout: Layout, lang: str) -> list[Path]:
    """A new language: one empty PO per template, its Plural-Forms from CLDR."""
    Locale.parse(lang)  # an unknown language code stops here, with Babel's message
    (layout.root / lang / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    return update(layout, [lang])


# ---- importing the JSON catalogs of before ---------------------------------------------------------------


def _groups(template: Catalog) -> dict[str, list[Message]]:
    """The template's messages by key, an exact form with the plural message it belongs to."""
    out: dict[str, list[Message]] = {}
    for message in template:
        key = message.context
        if not message.id or key is None:
            continue
        exact = EXACT_FORM.match(key)
        if exact and exact.group(1) in out:
            out[exact.group(1)].append(message)
        else:
            out[key] = [message]
    return out


def _rebuild(header_from: Catalog, groups: Iterable[list[Message]], lang: str | None, domain: str) -> Catalog:
    out = new_catalog(lang, domain)
    out.header_comment = header_from.header_comment
    for group in groups:
        for m in group:
            out.add(m.id, m.string, context=m.context, flags=m.flags, auto_comments=m.auto_comments,
                    user_comments=m.user_comments, previous_id=m.previous_id)
    return out


def git_base(rev: str) -> Callable[[Path], dict[str, Template]]:
    """A JSON file as it was at a git revision ({} where it did not exist)."""
    def base(path: Path) -> dict[str, Template]:
        top = subprocess.run(["git", "-C", str(path.parent), "rev-parse", "--show-toplevel"], check=True,
                             capture_output=True, text=True).stdout.strip()
        shown = subprocess.run(["git", "-C", top, "show", f"{rev}:{path.resolve().relative_to(Path(top).resolve())}"],
                               capture_output=True, text=True)
        return json.loads(shown.stdout) if shown.returncode == 0 else {}
    return base


def _load(path: Path, base: Callable[[Path], dict[str, Template]] | None) -> dict[str, Template]:
    data: dict[str, Template] = json.loads(path.read_text(encoding="utf-8"))
    if base is None:
        return data
    before = base(path)
    return {k: v for k, v in data.items() if before.get(k) != v}


def _replace(po: Catalog, message: Message) -> None:
    """Put a translation in, over the one there (Babel's `add` keeps an existing message's text)."""
    po.delete(message.id, context=message.context)
    po[message.id] = message


def import_json(src: Path, layout: Layout, base: Callable[[Path], dict[str, Template]] | None = None
                ) -> tuple[int, list[str]]:
    """Merge `src/<lang>/<domain>.json` (the format of before: key -> text or plural dict) into
    the templates (English) and the POs; the JSON's sentences win, keys it lacks stay. With `base`
    (a file's content before, e.g. `git_base("main")`) only what differs from it is merged, so a
    sentence edited in the PO since is not overwritten by the old JSON around an addition. Returns
    the messages imported and the problems (a key English lacks, a plural where English has none)."""
    files = {p.parent.name: [] for p in src.glob("*/*.json")}  # type: dict[str, list[Path]]
    for p in sorted(src.glob("*/*.json")):
        files[p.parent.name].append(p)
    count, problems = 0, []
    for path in files.get(SOURCE_LANG, []):
        domain, data = path.stem, _load(path, base)
        target = layout.template(domain)
        template = read(target) if target.is_file() else new_catalog(None, domain)
        groups = _groups(template)
        for key, value in data.items():
            groups[key] = template_messages(key, value)
            count += 1
        write(target, _rebuild(template, groups.values(), None, domain))
    for lang in sorted(set(files) - {SOURCE_LANG}):
        order = plural_order(lang)
        for path in files[lang]:
            domain, data = path.stem, _load(path, base)
            index = {m.context: m for m in read(layout.template(domain)) if m.id}
            target = layout.po(lang, domain)
            po = read(target, lang) if target.is_file() else new_catalog(lang, domain)
            for key, value in data.items():
                source = index.get(key)
                if source is None:
                    problems.append(f"{lang}/{path.name}: {key} is not in the English catalog")
                    continue
                if isinstance(source.id, str) and not isinstance(value, str):
                    problems.append(f"{lang}/{path.name}: {key} is a plural message, unlike the English")
                    continue
                count += 1
                if isinstance(value, str) and isinstance(source.id, str):
                    _replace(po, Message(source.id, value, context=key, flags=source.flags))
                    continue
                if isinstance(value, str):  # a language that needs no counted word there: one text for every form
                    value = {c: value for c in order}
                _replace(po, Message(source.id, tuple(value.get(c, "") for c in order), context=key, flags=source.flags))
                for form, text in value.items():
                    exact = index.get(f"{key}{form}") if form.startswith("=") else None
                    if exact is not None:
                        _replace(po, Message(exact.id, text, context=exact.context, flags=exact.flags))
            write(target, po)
    update(layout)
    return count, problems


# ---- checks ----------------------------------------------------------------------------------------------


def _texts(message_id: object) -> list[str]:
    return [str(x) for x in message_id] if isinstance(message_id, tuple | list) else [str(message_id)]


def _fields_of(texts: Iterable[str]) -> set[str] | None:
    try:
        return set().union(*(fields(t) for t in texts))
    except ValueError:  # an unmatched `{` or `}`
        return None


def check_template(domain: str, template: Catalog, seen: dict[str, str]) -> list[str]:
    problems = []
    plurals: set[str] = set()
    for message in template:
        key = message.context
        if not message.id:
            continue
        where = f"en {domain}: {key}"
        if key is None:
            problems.append(f"en {domain}: {message.id!r} has no msgctxt (its key)")
            continue
        if key in seen:
            problems.append(f"{where} is in {seen[key]} too")
        seen[key] = domain
        names = _fields_of(_texts(message.id))
        if names is None:
            problems.append(f"{where}: a brace without its pair")
            continue
        if isinstance(message.id, tuple | list):
            plurals.add(key)
            param = count_param(message)
            if param is None:
                problems.append(f"{where}: a plural message needs a 'count: {{param}}' comment")
            elif not any(f.startswith("{" + param + "}") or f.startswith("{" + param + ":") for f in names):
                problems.append(f"{where}: the count {{{param}}} is in no form")
        elif (exact := EXACT_FORM.match(key)) and exact.group(1) not in plurals:
            problems.append(f"{where}: an exact form must follow its plural message {exact.group(1)}")
    return problems


def check_language(lang: str, domain: str, template: Catalog, po: Catalog) -> list[str]:
    problems = []
    if po.plural_forms.replace(" ", "") != plural_forms(lang).replace(" ", ""):
        problems.append(f"{lang} {domain}: Plural-Forms is not CLDR's ({plural_forms(lang)}): run make catalogs")
    wanted = {m.context: m for m in template if m.id}
    have = {m.context: m for m in po if m.id}
    for key in have.keys() - wanted.keys():
        problems.append(f"{lang} {domain}: {key} is not in the template: run make catalogs")
    forms = len(plural_order(lang))
    for key, source in wanted.items():
        where = f"{lang} {domain}: {key}"
        message = have.get(key)
        if message is None:
            problems.append(f"{where} is missing: run make catalogs")
            continue
        if message.id != source.id:
            problems.append(f"{where} translates an older English: run make catalogs")
            continue
        if message.fuzzy:
            problems.append(f"{where} is fuzzy (its English changed): review the translation")
            continue
        strings = _texts(message.string)
        if isinstance(source.id, tuple | list) and len(strings) != forms:
            problems.append(f"{where} has {len(strings)} plural forms; {lang} has {forms} "
                            f"({', '.join(plural_order(lang))})")
            continue
        if not all(s.strip() for s in strings):
            problems.append(f"{where} is not translated")
            continue
        english, translated = _fields_of(_texts(source.id)), _fields_of(strings)
        if translated is None:
            problems.append(f"{where}: a brace without its pair")
        elif english is not None and translated != english:
            problems.append(f"{where}: placeholders {sorted(translated)} are not the English {sorted(english)}")
    for message, errors in po.check():
        problems.extend(f"{lang} {domain}: {message.context}: {err}" for err in errors)
    return problems


def _literal_keys(node: ast.expr) -> list[str]:
    """The keys a first argument can be: a literal, or either literal of `"a" if x else "b"`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literal_keys(node.body) + _literal_keys(node.orelse)
    return []


def code_keys(base: Path) -> dict[str, str]:
    """The keys the code passes to `t` or `has` as a literal, with where. Read with `ast` rather than
    Babel's extractor, which joins the two literals of `t("a" if x else "b")` into one key."""
    out: dict[str, str] = {}
    for folder in CODE_DIRS:
        for path in sorted((base / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Name) \
                        and node.func.id in ("t", "has"):
                    for key in _literal_keys(node.args[0]):
                        out.setdefault(key, f"{path.relative_to(base)}:{node.lineno}")
    return out


def check(layout: Layout, code_base: Path | None = None) -> list[str]:
    """Every problem of the catalogs, one sentence each naming the file and key; [] when complete."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for domain in layout.domains():
        template = read(layout.template(domain))
        problems += check_template(domain, template, seen)
        for lang in layout.languages():
            path = layout.po(lang, domain)
            if not path.is_file():
                problems.append(f"{lang}: {path.name} is missing: run make catalogs")
                continue
            problems += check_language(lang, domain, template, read(path, lang))
    for lang in layout.languages():
        for path in sorted((layout.root / lang / "LC_MESSAGES").glob("*.po")):
            if not layout.template(path.stem).is_file():
                problems.append(f"{lang}: {path.name} has no template {path.stem}.pot")
    if code_base is not None:
        for key, where in sorted(code_keys(code_base).items()):
            if key not in seen:
                problems.append(f"{where}: the key {key} is in no template")
    return problems


def compiled(layout: Layout, lang: str, domain: str) -> bytes:
    """A language's domain as an MO file (what `pybabel compile` writes), for tools that want one."""
    out = io.BytesIO()
    write_mo(out, read(layout.po(lang, domain), lang))
    return out.getvalue()


# ---- report ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Coverage:
    translated: int
    fuzzy: int
    total: int

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


def coverage(layout: Layout, lang: str, domain: str) -> Coverage:
    template = read(layout.template(domain))
    english = english_texts(template)
    total = sum(1 for m in template if m.id)
    if lang == SOURCE_LANG:
        return Coverage(total, 0, total)
    path = layout.po(lang, domain)
    if not path.is_file():
        return Coverage(0, 0, total)
    po = read(path, lang)
    done = translated_texts(po, lang, english)
    translated = sum(1 + sum(1 for f in v if f.startswith("=")) if isinstance(v, dict) else 1 for v in done.values())
    return Coverage(translated, sum(1 for m in po if m.id and m.fuzzy), total)


def report(layout: Layout) -> str:
    domains = layout.domains()
    langs = [SOURCE_LANG, *layout.languages()]
    table = {(lang, d): coverage(layout, lang, d) for lang in langs for d in domains}
    keys = sum(len(english_texts(read(layout.template(d)))) for d in domains)
    total = sum(table[SOURCE_LANG, d].total for d in domains)
    lines = [f"Catalogs: {keys} keys, {total} messages (exact forms counted), {len(domains)} domains, "
             f"{len(langs)} languages", ""]
    width = max(len(d) for d in domains)
    lines.append(f"{'':<{width}}  " + "  ".join(f"{lang:>7}" for lang in langs))
    for d in domains:
        lines.append(f"{d:<{width}}  " + "  ".join(f"{table[lang, d].percent:6.1f}%" for lang in langs))
    lines.append("")
    for lang in langs:
        done = sum(table[lang, d].translated for d in domains)
        fuzzy = sum(table[lang, d].fuzzy for d in domains)
        name = Locale.parse(lang).english_name
        lines.append(f"{lang:<6} {name:<24} {done:>5}/{total} translated  {100.0 * done / total:5.1f} %"
                     + (f"  ({fuzzy} fuzzy)" if fuzzy else "") + ("  (the source)" if lang == SOURCE_LANG else ""))
    return "\n".join(lines)


# ---- command line ----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.core.catalogs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=None, help="the locales directory (default: the package's)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("update", help="bring every language's PO in line with the templates")
    sub.add_parser("check", help="list what is missing or wrong; exit 1 if anything is")
    sub.add_parser("report", help="messages × languages translated")
    new = sub.add_parser("init", help="start a language: its directory of PO files")
    new.add_argument("lang", help="a CLDR language code: uk, tr, es, pt_BR, de, …")
    old = sub.add_parser("import-json", help="merge catalogs in the JSON format of before")
    old.add_argument("source", type=Path, help="a directory of <lang>/<domain>.json")
    old.add_argument("--since", metavar="REV", help="merge only what changed since this git revision (e.g. main)")
    old.add_argument("--remove", action="store_true", help="delete the JSON files once imported")
    args = parser.parse_args(argv)
    layout = Layout(args.root or package_root())
    if args.command == "update":
        for path in update(layout):
            print(f"updated {path}")
        return 0
    if args.command == "init":
        try:
            written = init(layout, args.lang)
        except (UnknownLocaleError, ValueError):
            print(f"{args.lang!r} is not a CLDR language code: use one such as uk, tr, es, pt_BR, de", file=sys.stderr)
            return 2
        for path in written:
            print(f"wrote {path}")
        return 0
    if args.command == "report":
        print(report(layout))
        return 0
    if args.command == "import-json":
        count, problems = import_json(args.source, layout, git_base(args.since) if args.since else None)
        print(f"imported {count} messages from {args.source}")
        for line in problems:
            print(line, file=sys.stderr)
        if args.remove and not problems:
            for path in sorted(args.source.glob("*/*.json")):
                path.unlink()
                print(f"removed {path}")
        return 1 if problems else 0
    problems = check(layout, package_root().parents[2] if args.root is None else None)
    for line in problems:
        print(line, file=sys.stderr)
    print(f"{len(problems)} problems in the catalogs" if problems else "catalogs complete")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
