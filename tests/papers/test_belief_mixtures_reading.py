"""belief_mixtures: the game that stands for the paper's "LD 2D" and the readings table behind it.

Read as one 2-sided die each, PIMC is unexploitable at every λ, so the headline tables and
heatmaps play the reading closest to the paper in shape (``LD_2D_GAME``); the readings table
stays, and marks that reading's game.
"""

import pandas as pd
import pytest

from infosets.experiments import config
from infosets.papers import belief_mixtures as bm
from infosets.papers import belief_mixtures_analysis as analysis


def test_only_the_chosen_reading_takes_the_papers_name():
    assert bm.LD_2D_GAME == "liars_dice(numdice=1,dice_sides=6,bidding_rule=reset-quantity)"
    assert bm.label(bm.LD_2D_GAME) == "LD 2D"
    assert bm.label("liars_dice(numdice=1,dice_sides=2)") == "LD 2D (2 sides)"
    assert bm.label("liars_dice(numdice=1,dice_sides=6)") == "LD 6D"  # reset-face: not chosen
    assert bm.label("liars_dice(numdice=1,dice_sides=3)") == "LD 3D"
    assert analysis.paper_value(analysis.BR_TABLES, 0, "PIMC", bm.label(bm.LD_2D_GAME), 0.0) == 0.300


@pytest.mark.parametrize("preset", ["default", "paper", "full"])
def test_headline_pimc_tables_and_heatmaps_play_the_chosen_reading(preset):
    cfg = config.load("belief_mixtures", preset)
    for key in ("table_games_pimc", "heatmap_games_pimc"):
        assert bm.LD_2D_GAME in cfg[key], key
        assert "liars_dice(numdice=1,dice_sides=2)" not in cfg[key], key
    games = {bm.parse_reading(r)["game"] for r in cfg.readings}
    assert bm.LD_2D_GAME in games  # the readings table keeps the choice's evidence
    assert bm.reading_game(2, "reset-face") in games  # and the literal reading it replaces


def test_readings_table_marks_the_headline_game():
    rows = []
    for reading, br in (("2:reset-face:exact:first", [-0.5, -0.5]),
                        ("6:reset-quantity:exact:uniform", [0.1, 0.4])):
        rows += [{"reading": reading, "lam": lam, "br": b} for lam, b in zip([0.0, 1.0], br)]
    out = analysis.readings(pd.DataFrame(rows))
    flags = dict(zip(out.reading, out.headline_game))
    assert flags == {"2:reset-face:exact:first": False, "6:reset-quantity:exact:uniform": True}
