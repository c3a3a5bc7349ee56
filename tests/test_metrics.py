"""Tests for infosets.metrics (Arjonilla et al. 2024, §4.2; docs/papers/belief_mixtures.md)."""
import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import best_response as os_best_response

from infosets import metrics
from infosets.search.pimc import PIMCBot

LD2 = "liars_dice(numdice=1,dice_sides=2)"


def _random_table(game, player, rng):
    table = {}
    for key, state in metrics.infostates_of(game, player).items():
        w = rng.random(len(state.legal_actions())) + 0.05
        table[key] = dict(zip(state.legal_actions(), w / w.sum()))
    return table


@pytest.mark.parametrize("name", ["kuhn_poker", LD2, "leduc_poker"])
@pytest.mark.parametrize("player", [0, 1])
def test_best_response_matches_python_best_response(name, player):
    game = pyspiel.load_game(name)
    table = _random_table(game, player, np.random.default_rng(player))
    tab = os_policy.TabularPolicy(game)
    for key, pol in table.items():
        row = tab.policy_for_key(key)
        row[:] = 0
        for a, p in pol.items():
            row[a] = p
    ref = os_best_response.BestResponsePolicy(game, 1 - player, tab).value(
        game.new_initial_state())
    assert metrics.best_response_value(game, player, table) == pytest.approx(ref)


def test_kuhn_best_response_to_equilibrium_is_game_value():
    game = pyspiel.load_game("kuhn_poker")
    alpha = 0.2                                   # the family of Kuhn equilibria for player 0
    eq = {"0": {0: 1 - alpha, 1: alpha}, "1": {0: 1.0, 1: 0.0}, "2": {0: 1 - 3 * alpha, 1: 3 * alpha},
          "0pb": {0: 1.0, 1: 0.0}, "1pb": {0: 1 - alpha - 1 / 3, 1: alpha + 1 / 3},
          "2pb": {0: 0.0, 1: 1.0}}
    # Player 1 best-responding to an equilibrium of player 0 earns +1/18.
    assert metrics.best_response_value(game, 0, eq) == pytest.approx(1 / 18)


def test_tssr_uniform_is_one_and_revealing_is_two():
    game = pyspiel.load_game(LD2)
    states = metrics.infostates_of(game, 0)
    uniform = {k: {a: 1 / len(s.legal_actions()) for a in s.legal_actions()}
               for k, s in states.items()}
    assert metrics.tssr(game, 0, uniform) == pytest.approx(1.0)
    # Player 0 bids its own face first (action = die): player 1 then knows the world.
    revealing = dict(uniform)
    for k, s in states.items():
        if len(s.history()) == 2:
            revealing[k] = {a: float(a == s.history()[0]) for a in s.legal_actions()}
    assert metrics.tssr(game, 0, revealing) == pytest.approx(2.0)


def test_tabulate_covers_every_infostate_with_normalised_probabilities():
    """Every infostate of player 1 in Leduc poker, against OpenSpiel's own enumeration
    (TabularPolicy: 468 keys and a legal-action mask each), with policy_fn's weights divided
    by their sum: weights a + 1 on legal actions give (a + 1) / sum over the legal ones, e.g.
    1/6, 2/6, 3/6 where fold, call and raise are legal. A policy with no mass is refused."""
    game = pyspiel.load_game("leduc_poker")
    table = metrics.tabulate_policy(
        game, 1, lambda s: {a: a + 1.0 for a in s.legal_actions()})
    reference = os_policy.TabularPolicy(game, players=[1])
    assert len(table) == 468 and set(table) == set(reference.state_lookup)
    for key, pol in table.items():
        legal = np.flatnonzero(reference.legal_actions_mask[reference.state_lookup[key]])
        total = float(np.sum(legal + 1))
        assert pol == pytest.approx({int(a): (a + 1) / total for a in legal}), key
    assert {0: 1 / 6, 1: 2 / 6, 2: 3 / 6} in [pytest.approx(p) for p in table.values()]
    rows = metrics.policy_rows(table)
    assert metrics.table_from_rows(rows) == table
    with pytest.raises(ValueError, match="no mass"):
        metrics.tabulate_policy(game, 1, lambda s: {a: 0.0 for a in s.legal_actions()})


def test_win_rate_seeded_and_pimc_beats_random():
    game = pyspiel.load_game("liars_dice(numdice=1,dice_sides=3)")

    def make_bots(seed):
        rng = np.random.default_rng(seed)
        return [PIMCBot(game, 0, 0.0, rng=rng, mode="exact"),
                pyspiel.make_uniform_random_bot(1, int(seed.generate_state(1)[0] % 2**31))]

    a = metrics.win_rate(game, make_bots, 0, 120, np.random.SeedSequence(5))
    b = metrics.win_rate(game, make_bots, 0, 120, np.random.SeedSequence(5))
    assert a == b and a["n"] == 120
    assert a["ci_low"] < a["win_rate"] < a["ci_high"]
    assert a["ci_low"] > 0.5
    with pytest.raises(ValueError, match="num_games"):
        metrics.win_rate(game, make_bots, 0, 0, np.random.SeedSequence(5))


class _Scripted(pyspiel.Bot):
    """Plays a fixed tic-tac-toe line (a draw)."""

    LINE = [4, 0, 2, 6, 3, 5, 1, 7, 8]

    def __init__(self):
        pyspiel.Bot.__init__(self)

    def step(self, state):
        return self.LINE[len(state.history())]

    def restart_at(self, state):
        pass


def test_a_tie_is_a_win_for_both_seats_and_a_draw():
    # The paper (Sec. 4.3): "A player wins if it has at least half of the points". The old
    # scoring counted a tie as half a win.
    game = pyspiel.load_game("tic_tac_toe")
    for seat in (0, 1):
        res = metrics.win_rate(game, lambda _s: [_Scripted(), _Scripted()], seat, 3,
                               np.random.SeedSequence(1))
        assert res["win_rate"] == 1.0 and res["draws"] == 3


def test_outcomes_replay_the_same_deals_for_every_cell():
    game = pyspiel.load_game("liars_dice(numdice=1,dice_sides=3)")
    seen = []

    class Peek(pyspiel.Bot):
        def __init__(self):
            pyspiel.Bot.__init__(self)

        def step(self, state):
            seen.append(tuple(state.history()[:2]))
            return state.legal_actions()[-1]            # call liar at once

        def restart_at(self, state):
            pass

    for _cell in range(2):
        metrics.outcomes(game, lambda _s: [Peek(), Peek()], 0, range(4), entropy=9, label="ld3")
    assert seen[:len(seen) // 2] == seen[len(seen) // 2:]
    assert len(set(seen)) > 1


def test_lambda_costs_nothing_is_paired_tost_with_holm():
    import pandas as pd

    from infosets.papers import belief_mixtures_analysis as bm

    rng = np.random.default_rng(0)
    deals = 3000
    base = (rng.random(deals) < 0.5).astype(float)
    rows = []
    for lam, flip in ((0.0, 0.0), (0.2, 0.01), (0.4, 0.01)):
        w = np.where(rng.random(deals) < flip, 1 - base, base)      # nearly the same games
        rows += [{"game": "g", "label": "G", "algo": "PIMC", "seat": 0, "lam": lam, "deal": d,
                  "win": float(w[d]), "draw": 0.0} for d in range(deals)]
    games = pd.DataFrame(rows)
    claim = bm._costs_nothing(games, "PIMC", "G", 0, [0.2, 0.4], None)
    assert claim.verdict == "match" and claim.margin == bm.WIN_EQUIVALENCE_MARGIN
    # a real loss at λ = 0.4 (wins turned into losses on 3 deals in 5) is a mismatch
    worse = games.copy()
    worse.loc[(worse.lam == 0.4) & (worse.deal % 5 < 3), "win"] = 0.0
    assert bm._costs_nothing(worse, "PIMC", "G", 0, [0.2, 0.4], None).verdict == "mismatch"
    # a handful of games is inconclusive, never a match
    few = games[games.deal < 8]
    assert bm._costs_nothing(few, "PIMC", "G", 0, [0.2, 0.4], None).verdict == "inconclusive"


def test_win_rate_takes_a_seed_with_sequence_entropy():
    # Regression: a SeedSequence([a, b]) (list entropy) used to fail in int(seed.entropy).
    game = pyspiel.load_game("tic_tac_toe")
    res = metrics.win_rate(game, lambda _s: [_Scripted(), _Scripted()], 0, 2,
                           np.random.SeedSequence([7, 1]))
    assert res["n"] == 2 and res["draws"] == 2
