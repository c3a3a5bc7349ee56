"""The sushi_go numba kernel (pimcts_aggregation, 3 and 5 players in the paper): its
information-state keys against the adapter's strings, its determinizer against the adapter's
resampler, its heuristic, and the compiled engine against the Python reference engines. The
rules themselves are checked against the frozen oracle in ``test_sushi_go_oracle.py``."""

import numpy as np
import pyspiel
import pytest

from infosets.games.kernels import kernel_for
from infosets.games.sushi_go import kernel as sk
from kernel_checks import (
    check_determinize_keeps_infostate,
    check_heuristic_on_returns_scale,
    check_pyspiel_games,
    check_random_games,
    compare_samplers,
    cut_rollouts,
    decision_states,
    engines_agree,
    worlds,
)

# players -> random games, each comparing every string and key at every step. The adapter steps
# the array's own rules (checked against the oracle in test_sushi_go_oracle.py), so only these
# games check something: of the former 100 games a number, one in 20/5/20/5 compared the
# strings, and the others compared those rules with themselves. The string games keep their
# number (5, 20, 5, 20).
PLAYERS = {2: 5, 3: 20, 4: 5, 5: 20}


@pytest.mark.parametrize("players", sorted(PLAYERS))
def test_infostate_keys_match_strings_on_random_games(players):
    """``nb_infostate_key`` is one-to-one with the adapter's information state strings on
    random games, and pyspiel states replay to the arrays (the rules themselves are checked
    against the oracle in ``test_sushi_go_oracle.py``; the adapter runs this kernel)."""
    game = pyspiel.load_game("sushi_go", {"players": players})
    distinct = check_random_games(game, PLAYERS[players], seed=players, strings_every=1)
    assert distinct > 300  # many distinct information states met, no key collision
    check_pyspiel_games(game, 3, seed=players)


@pytest.mark.parametrize("players", [3, 5])
def test_determinize_keeps_the_information_state(players):
    game = pyspiel.load_game("sushi_go", {"players": players})
    states = decision_states(game, 40, seed=players)
    check_determinize_keeps_infostate(game, states, seed=players)
    check_heuristic_on_returns_scale(game, states)


def _mid_turn_state(players, picks):
    """First round, turn 0, after ``picks`` hidden picks: unseen hands and hidden picks."""
    game = pyspiel.load_game("sushi_go", {"players": players})
    for state in decision_states(game, 200, seed=11, stop=1.0):
        k = state.kernel
        if k.round == 0 and k.turn == 0 and k.cur == picks:
            return game, state
    state = decision_states(game, 1, seed=11, stop=1.0)[0]
    for _ in range(picks):
        state.apply_action(state.legal_actions()[-1])
    return game, state


def test_determinize_matches_the_adapter_resample():
    game, state = _mid_turn_state(3, picks=2)
    player = state.current_player()
    other = (player + 1) % 3  # an unseen hand (the turn-0 hands are all unseen)

    def unseen_hand(k):
        return tuple(k.hands[other][t] for t in (sk.TEMPURA, sk.SASHIMI, sk.DUMPLING, sk.MAKI2))

    def hidden_pick(k):
        return k.pending[0], k.pending[1]

    def deck(k):
        return k.deck[sk.PUDDING], k.deck[sk.WASABI]

    for statistic in (unseen_hand, hidden_pick, deck):
        pvalue = compare_samplers(game, state, statistic, draws=3000, seed=5)
        assert pvalue > 1e-3, (statistic.__name__, pvalue)


def test_determinize_changes_only_what_the_player_cannot_see():
    game, state = _mid_turn_state(3, picks=1)
    kernel = kernel_for(game)
    player = state.current_player()
    arr = kernel.from_state(state)
    changed = set()
    for world in worlds(game, state, draws=200, seed=3):
        k = kernel.to_kernel(world)
        assert k.hands[player] == state.kernel.hands[player]
        changed |= {q for q in range(3) if k.hands[q] != state.kernel.hands[q]}
        assert np.sum(world[sk.DECK : sk.DECK + sk.NT]) == np.sum(arr[sk.DECK : sk.DECK + sk.NT])
    assert changed == {q for q in range(3) if q != player}


def test_heuristic_is_the_leader_lead():
    game = pyspiel.load_game("sushi_go", {"players": 3})
    kernel = kernel_for(game)
    k = game.new_kernel()
    k.s[sk.TO_DEAL], k.s[sk.TABLE + sk.T_TEMPURA] = 0, 2  # p0: 10 + 5 points
    k.s[sk.SCORE : sk.SCORE + 3] = [10, 4, 12]
    out = np.zeros(3)
    kernel.rules.nb_heuristic(kernel.from_kernel(k), out)
    leads = np.array([15 - 12, 4 - 15, 12 - 15])
    assert np.allclose(out, 0.5 + 0.5 * leads / (np.abs(leads) + sk.LEAD_SCALE))


@pytest.mark.parametrize("players", [3, 5])
def test_compiled_engine_equals_python_reference(players):
    game = pyspiel.load_game("sushi_go", {"players": players})
    engines_agree(game, decision_states(game, 100, seed=20 + players), iterations=10, settings=cut_rollouts())
