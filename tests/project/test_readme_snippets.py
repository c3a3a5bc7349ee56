"""The README's Python examples run as printed: a researcher copies them to plug their own
game into our bots, so each ```python block is executed as a script in a fresh interpreter
(outside the repository, so it writes nothing here) and its printed result is checked."""

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"),
                    flags=re.S)


def _run(code: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_readme_has_its_four_examples():
    heads = [b.splitlines()[0] for b in BLOCKS]
    assert len(BLOCKS) == 4, heads


def test_making_bots_for_an_openspiel_game(tmp_path):
    code = BLOCKS[0] + "\nprint(type(ismcts).__name__, type(pimcts).__name__)\n"
    assert _run(code, tmp_path).split() == ["ISMCTSBot", "PIMCTSBot"]


def test_a_game_we_never_touched_plays_to_the_end(tmp_path):
    out = _run(BLOCKS[1], tmp_path).strip().splitlines()
    returns = ast.literal_eval(out[-1])
    assert len(returns) == 2 and sum(returns) == 0 and set(returns) <= {-1.0, 1.0}


def test_spades_worlds_from_the_mcmc_machinery_drive_ismcts(tmp_path):
    code = BLOCKS[2].replace("iterations=1000", "iterations=50") + (
        "\nstate = game.new_initial_state()\n"
        "while state.is_chance_node():\n"
        "    state.apply_action(state.chance_outcomes()[0][0])\n"
        "print(bot.step(state) in state.legal_actions())\n")
    assert "iterations=1000" in BLOCKS[2]
    assert _run(code, tmp_path).split() == ["True"]


def test_a_trained_openspiel_learner_meets_our_ismcts_in_the_arena(tmp_path):
    """200 Q-learning episodes of Sushi Go (about 15 CPU-s), then 12 duplicate games on the
    compiled engine (2 CPU-s; the Python engine took 75)."""
    wide = 'import pandas as pd; pd.set_option("display.width", 400); ' \
           'pd.set_option("display.max_columns", 20)\n'
    out = _run(wide + BLOCKS[3], tmp_path)
    header, *rows = [line.split() for line in out.strip().splitlines()[-4:]]
    table = {row[1]: dict(zip(header[1:], row[2:])) for row in rows}  # row[0]: the index
    assert set(table) == {"q-learner", "ismcts:200", "random"}, out
    assert all(int(r["n"]) == 12 for r in table.values()), out
    assert float(table["ismcts:200"]["win_rate"]) > float(table["random"]["win_rate"]), out
