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


def test_the_readme_has_its_three_examples():
    heads = [b.splitlines()[0] for b in BLOCKS]
    assert len(BLOCKS) == 3, heads


def test_pimcts_and_ismcts_play_a_game_we_never_touched_to_the_end(tmp_path):
    out = _run(BLOCKS[0], tmp_path).strip().splitlines()
    returns = ast.literal_eval(out[-1])
    assert len(returns) == 2 and sum(returns) == 0 and set(returns) <= {-1.0, 1.0}


def test_spades_worlds_from_the_mcmc_machinery_drive_ismcts(tmp_path):
    code = BLOCKS[1].replace("iterations=1000", "iterations=50") + (
        "\nstate = game.new_initial_state()\n"
        "while state.is_chance_node():\n"
        "    state.apply_action(state.chance_outcomes()[0][0])\n"
        "print(bot.step(state) in state.legal_actions())\n")
    assert "iterations=1000" in BLOCKS[1] and 'mode="mcmc"' in BLOCKS[1]
    assert _run(code, tmp_path).split() == ["True"]


def test_openspiel_cfr_and_rl_environment_run_on_our_games(tmp_path):
    """OpenSpiel's CFR converges on coop_matching_pennies (NashConv near 0) and its RL
    environment reads Belote's information-state tensor (under a second of CPU)."""
    nash_conv, shape = _run(BLOCKS[2], tmp_path).strip().splitlines()[-2:]
    assert 0 <= float(nash_conv) < 0.01
    assert ast.literal_eval(shape) == (2213,)
