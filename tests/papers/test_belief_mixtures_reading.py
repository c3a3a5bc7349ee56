"""belief_mixtures: the game that stands for the paper's "LD 2D" and the readings table behind it.

Arjonilla, Saffidine and Cazenave 2024 (docs/papers/belief_mixtures.md). The bidding rule is
the paper's text (Sec. 4.1.2): "he must at least bid more dice than the previous player's bid,
or the same number of dice, but with a higher value", OpenSpiel's reset-face rule
(games/liars_dice/liars_dice.h); the highest face is wild. The number of sides is a reading:
as one 2-sided die each PIMC is unexploitable at every λ, so the headline tables and heatmaps
play the 6-sided die (``LD_2D_GAME``); the readings table stays, and marks that game.
"""

import itertools
from types import SimpleNamespace

import pandas as pd
import pyspiel
import pytest

from infosets.experiments import config
from infosets.papers import belief_mixtures as bm
from infosets.papers import belief_mixtures_analysis as analysis


def test_only_the_chosen_reading_takes_the_papers_name():
    assert bm.LD_2D_GAME == "liars_dice(numdice=1,dice_sides=6,bidding_rule=reset-face)"
    assert bm.label(bm.LD_2D_GAME) == "LD 2D"
    assert bm.label("liars_dice(numdice=1,dice_sides=6)") == "LD 2D"  # reset-face is the default
    assert bm.label(bm.reading_game(6, "reset-quantity")) == "LD 6D"  # the other rule: not chosen
    assert bm.label("liars_dice(numdice=1,dice_sides=2)") == "LD 2D (2 sides)"
    assert bm.label("liars_dice(numdice=1,dice_sides=3)") == "LD 3D"
    assert analysis.paper_value(analysis.BR_TABLES, 0, "PIMC", bm.label(bm.LD_2D_GAME), 0.0) == 0.300


def _bid(text: str) -> tuple[int, int]:
    quantity, face = text.split("-")
    return int(quantity), int(face)


def _bids_after(game_string: str, first_bid: tuple[int, int]) -> set[tuple[int, int]]:
    """The bids OpenSpiel allows the second player after the first player's ``first_bid``."""
    state = pyspiel.load_game(game_string).new_initial_state()
    state.apply_action(0)  # the dice (chance); the legal bids do not depend on them
    state.apply_action(0)
    action = next(a for a in state.legal_actions() if _bid(state.action_to_string(a)) == first_bid)
    state.apply_action(action)
    return {
        _bid(state.action_to_string(a)) for a in state.legal_actions() if state.action_to_string(a) != "Liar"
    }


def _texts_rule(previous: tuple[int, int], sides: int, dice: int) -> set[tuple[int, int]]:
    """Sec. 4.1.2: more dice than the previous bid (any face), or as many with a higher face."""
    q0, f0 = previous
    return {
        (q, f)
        for q, f in itertools.product(range(1, dice + 1), range(1, sides + 1))
        if q > q0 or (q == q0 and f > f0)
    }


FIRST_BIDS = [(1, 1), (1, 3), (1, 6), (2, 1), (2, 5)]


@pytest.mark.parametrize("first_bid", FIRST_BIDS)
def test_ld_2d_bids_follow_the_papers_text(first_bid):
    """After (1, 6) the text allows (2, 1): more dice of a lower face. Reset-face does."""
    assert _bids_after(bm.LD_2D_GAME, first_bid) == _texts_rule(first_bid, sides=6, dice=2)


def test_the_other_bidding_rule_breaks_the_text():
    """Reset-quantity refuses (2, 1) after (1, 6) and allows (1, 4) after (2, 3): the check
    above tells the two rules apart."""
    other = bm.reading_game(6, "reset-quantity")
    assert (2, 1) not in _bids_after(other, (1, 6)) and (2, 1) in _texts_rule((1, 6), 6, 2)
    assert (1, 4) in _bids_after(other, (2, 3)) and (1, 4) not in _texts_rule((2, 3), 6, 2)


def test_the_highest_face_is_wild_in_ld_2d():
    """Dice 1 and 6, bid "two 1s", Liar: the 6 counts as a 1, so the bid stands and the caller
    (the second player) loses."""
    state = pyspiel.load_game(bm.LD_2D_GAME).new_initial_state()
    state.apply_action(0)  # first player's die: face 1
    state.apply_action(5)  # second player's die: face 6
    state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a) == "2-1"))
    state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a) == "Liar"))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


@pytest.mark.parametrize("preset", ["default", "paper", "full"])
def test_headline_pimc_tables_and_heatmaps_play_the_chosen_reading(preset):
    cfg = config.load("belief_mixtures", preset)
    for key in ("table_games_pimc", "heatmap_games_pimc"):
        assert bm.LD_2D_GAME in cfg[key], key
        assert "liars_dice(numdice=1,dice_sides=2)" not in cfg[key], key
        assert bm.reading_game(6, "reset-quantity") not in cfg[key], key
    games = {bm.parse_reading(r)["game"] for r in cfg.readings}
    assert bm.LD_2D_GAME in games  # the readings table keeps the choice's evidence
    assert bm.reading_game(6, "reset-quantity") in games  # and the other bidding rule
    assert bm.reading_game(2, "reset-face") in games  # and the literal reading it replaces


def test_readings_table_marks_the_headline_game():
    rows = []
    for reading, br in (
        ("2:reset-face:exact:first", [-0.5, -0.5]),
        ("6:reset-quantity:exact:uniform", [0.1, 0.4]),
        ("6:reset-face:exact:uniform", [0.2, 0.3]),
    ):
        rows += [{"reading": reading, "lam": lam, "br": b} for lam, b in zip([0.0, 1.0], br)]
    out = analysis.readings(pd.DataFrame(rows))
    flags = dict(zip(out.reading, out.headline_game))
    assert flags == {
        "2:reset-face:exact:first": False,
        "6:reset-quantity:exact:uniform": False,
        "6:reset-face:exact:uniform": True,
    }


def test_a_flat_reading_is_never_the_closest_and_the_claim_reads_ours():
    # the 2-sided die: flat over λ and, as a win probability, nearest the paper's level (0.30, 0.38)
    rows = []
    for reading, br in (
        ("2:reset-face:protocol:uniform", [-0.35, -0.35]),
        ("6:reset-quantity:protocol:uniform", [0.11, 0.44]),
        ("6:reset-face:protocol:uniform", [0.22, 0.33]),
        ("6:reset-face:exact:uniform", [0.22, 0.33]),
    ):
        rows += [{"reading": reading, "lam": lam, "br": b} for lam, b in zip([0.0, 1.0], br)]
    out = analysis.readings(pd.DataFrame(rows))
    assert out.loc[out.closest, "reading"].tolist() == ["6:reset-face:protocol:uniform"]
    assert out.iloc[-1].reading == "2:reset-face:protocol:uniform"  # flat rows sort last
    session = SimpleNamespace(cfg=SimpleNamespace(values={"pimc_mode": "protocol", "tie_break": "uniform"}))
    (claim,) = analysis._reading_claim(out, session)
    # (|0.22 - 0.300| + |0.33 - 0.382|) / 2, the paper's λ = 0 and λ = 1 cells
    assert claim.ours.startswith("6:reset-face:protocol:uniform: mean |diff| 0.066")


def test_the_reading_claim_has_a_row_when_the_preset_scores_our_game_in_another_mode():
    rows = [{"reading": r, "lam": lam, "br": b} for r, br in (
        ("2:reset-face:protocol:uniform", [-0.35, -0.35]), ("6:reset-face:exact:uniform", [0.22, 0.33]))
        for lam, b in zip([0.0, 1.0], br)]
    out = analysis.readings(pd.DataFrame(rows))
    session = SimpleNamespace(cfg=SimpleNamespace(values={"pimc_mode": "protocol", "tie_break": "uniform"}))
    (claim,) = analysis._reading_claim(out, session)
    assert claim.ours.startswith("6:reset-face:exact:uniform: mean |diff| 0.066")
