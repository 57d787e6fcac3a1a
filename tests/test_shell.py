"""index.html's static start form is render_start's markup, kept current by scripts/gen_shell.py,
and the early page script agrees with web/early.py on the buttons it hands over."""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from web.controller import Controller
from web.early import PENDING, Shell
from web.render import render_start

ROOT = Path(__file__).resolve().parent.parent
GEN_SHELL = ROOT / "scripts" / "gen_shell.py"


def load_gen_shell():
    """scripts/gen_shell.py as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("gen_shell", GEN_SHELL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def squeeze(html: str) -> str:
    return re.sub(r"\s+", " ", html).strip()


def test_index_html_is_up_to_date():
    check = subprocess.run([sys.executable, GEN_SHELL, "--check"], check=False, capture_output=True,
                           text=True, cwd=ROOT)
    assert check.returncode == 0, check.stderr or "run python scripts/gen_shell.py"


def test_the_static_form_is_the_rendered_one():
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    assert squeeze(render_start(Controller(seed_source=lambda: 0))) in squeeze(page)


def test_check_fails_on_a_stale_page(tmp_path, monkeypatch, capsys):
    gen_shell = load_gen_shell()
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    stale = tmp_path / "index.html"
    stale.write_text(page.replace(">Deal</button>", ">Deal now</button>"), encoding="utf-8")
    monkeypatch.setattr(gen_shell, "PAGE", stale)
    assert gen_shell.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err
    assert gen_shell.main([]) == 0                    # rewriting puts it right
    assert stale.read_text(encoding="utf-8") == page
    assert gen_shell.main(["--check"]) == 0


def test_markers_are_required_and_the_rest_is_kept():
    gen_shell = load_gen_shell()
    with pytest.raises(ValueError):
        gen_shell.between("<main></main>", gen_shell.FORM_BEGIN, gen_shell.FORM_END, "<form></form>")
    page = f"<main>\n  {gen_shell.FORM_BEGIN}\n  old\n  {gen_shell.FORM_END}\n</main>\n"
    assert gen_shell.between(page, gen_shell.FORM_BEGIN, gen_shell.FORM_END, "<form>\n</form>") == (
        f"<main>\n  {gen_shell.FORM_BEGIN}\n  <form>\n  </form>\n  {gen_shell.FORM_END}\n</main>\n")


def test_the_page_reads_the_profile_as_python_does():
    gen_shell = load_gen_shell()
    data = gen_shell.shell_data()
    assert data["keys"] == {"profile": "cribbage.profile.v2", "prefs": "cribbage.prefs.v1",
                            "save": "cribbage.table.v1"}
    assert data["choices"]["players"] == [2, 3, 4] and data["choices"]["theme"][0] == "system"


def test_the_early_script_remembers_only_buttons_python_hands_over():
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    busy = re.search(r"const busy = \{(.*?)\};", page).group(1)
    assert set(re.findall(r'"([\w-]+)":', busy)) == set(PENDING)
    form = render_start(Controller(seed_source=lambda: 0))
    for testid in PENDING:
        assert f'data-testid="{testid}"' in form


def test_a_pending_command_runs_with_what_the_player_saw():
    shell = Shell(values={"name": "Ann", "players": "3"}, changed={"players": "3"})
    assert shell.wanted() == {"players": "3"}
    shell.pending = "start-game"
    assert shell.wanted() == {"name": "Ann", "players": "3"}
