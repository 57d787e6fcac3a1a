"""Write the start screen into index.html, so the page shows it at its first paint.

index.html holds two generated parts, each between marker comments:

* the start form: ``web.render.render_start`` for the default preferences, exactly the markup
  Python paints once it has loaded, so the player can type and choose while it loads;
* one line of data for the page's inline scripts: the localStorage keys web/dom.py uses and the
  preference values web/profile/model.py allows, so the page reads the profile as Python does.

Nothing else in index.html is touched. Standard library only (runs on the host's CPython).

    python scripts/gen_shell.py           # rewrite index.html if needed
    python scripts/gen_shell.py --check   # exit 1 if index.html is out of date
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_files import write_if_changed  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "index.html"
FORM_BEGIN = "<!-- gen_shell:form (scripts/gen_shell.py writes this from web.render.render_start: do not edit) -->"
FORM_END = "<!-- /gen_shell:form -->"
DATA_BEGIN = "/* gen_shell:data (scripts/gen_shell.py writes the next line: do not edit) */"
DATA_END = "/* /gen_shell:data */"
# The storage keys the early script reads, by their names in web/ (module-level constants).
STORAGE_KEYS = {"profile": "PROFILE_KEY", "prefs": "PREFS_KEY", "save": "SAVE_KEY"}
# The preferences the early start screen needs: the form's choices and the page's look.
EARLY_PREFS = ("level", "players", "target", "theme", "card_size", "four_colour")


def _import_web():
    """web.render and web.profile.model, imported from this checkout (scripts/ is not on the path)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from web import render
    from web.profile import model as profile
    from web.controller import Controller
    return render, profile, Controller


def start_form() -> str:
    """The start form Python renders for a new player (default preferences, no saved game)."""
    render, _, controller = _import_web()
    return render.render_start(controller(seed_source=lambda: 0)).strip()


def storage_keys(root: Path = ROOT) -> dict[str, str]:
    """The localStorage keys, read from the web/ modules' source (web.dom imports the browser,
    so it cannot be imported here): web/dom.py first, then any other module that defines them."""
    modules = [root / "web" / "dom.py"] + sorted(set((root / "web").glob("*.py")) - {root / "web" / "dom.py"})
    found: dict[str, str] = {}
    for path in modules:
        for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for target in node.targets:
                    if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                        found.setdefault(target.id, node.value.value)
    missing = [name for name in STORAGE_KEYS.values() if name not in found]
    if missing:
        raise SystemExit(f"gen_shell.py: no {', '.join(missing)} in web/*.py")
    return {key: found[name] for key, name in STORAGE_KEYS.items()}


def shell_data(root: Path = ROOT) -> dict:
    """What the inline scripts need to read the profile: keys, format, allowed values (the
    first of each is the default), and the longest name."""
    _, profile, _ = _import_web()
    from web.session import MAX_NAME
    return {"keys": storage_keys(root), "format": profile.FORMAT, "version": profile.VERSION,
            "maxName": MAX_NAME,
            "choices": {name: list(profile.PREFERENCES[name]) for name in EARLY_PREFS}}


def data_line(data: dict) -> str:
    """The one line of JavaScript that hands `shell_data` to the page."""
    return f"window.cribbageShell = {json.dumps(data, separators=(',', ':'), sort_keys=True)};"


def between(page: str, begin: str, end: str, content: str) -> str:
    """The page with the text between the ``begin`` and ``end`` marker lines replaced by
    ``content``, indented like the ``begin`` marker. Raises ValueError without both markers."""
    start = page.find(begin)
    stop = page.find(end, start + len(begin)) if start >= 0 else -1
    if start < 0 or stop < 0:
        raise ValueError(f"index.html needs the markers {begin!r} and {end!r}")
    indent = page[page.rfind("\n", 0, start) + 1:start]
    body = "\n".join((indent + line) if line.strip() else "" for line in content.splitlines())
    return page[:start + len(begin)] + "\n" + body + "\n" + indent + page[stop:]


def generated(page: str, form: str, data: dict) -> str:
    """index.html's text with both generated parts up to date."""
    page = between(page, FORM_BEGIN, FORM_END, form)
    return between(page, DATA_BEGIN, DATA_END, data_line(data))


def main(argv: list[str] | None = None) -> int:
    """Rewrite or check index.html; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether index.html is up to date")
    args = parser.parse_args(argv)
    current = PAGE.read_text(encoding="utf-8")
    try:
        wanted = generated(current, start_form(), shell_data())
    except ValueError as missing:
        print(f"gen_shell.py: {missing}", file=sys.stderr)
        return 1
    return write_if_changed(PAGE, wanted, args.check, "index.html's start form", "gen_shell.py")


if __name__ == "__main__":
    sys.exit(main())
