"""belote2p on its numba rules against the frozen pure-Python rules and adapter (``oracle.py``).

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md). The game's rules are written once, in
``infosets.games.belote2p.kernel``; the former Python rules (``KernelState``, the fair-deal
count, the void inference ``hand_exclusions``) and the former adapter live on, frozen, in
``oracle.py``. Random games from the first chance node (the deal, card by card) are played on
both, and at every step the mover, the legal actions, the chance outcomes (exact
probabilities), the returns, the state string, both players' information-state and observation
strings and tensors, the action strings, the position's fields, the play record and the void
inference are equal; the world sampler draws the same worlds from the same seeds.
"""

import numpy as np
import pyspiel
import pytest
from oracle_checks import load_oracle

import infosets.games  # noqa: F401  (registers belote2p)
from infosets.games.belote2p import kernel as K
from infosets.games.belote2p.deal import DealConstraint
from infosets.games.belote2p.game import sample_world

oracle = load_oracle(__file__)

FIELDS = ("hand", "up", "down", "under", "leader", "lead", "to_move", "points", "trick", "last_winner")
PARAMS = [
    {},
    {"min_trumps": 3, "points_lo": 66, "points_hi": 86},
    {"min_trumps": 0, "points_lo": 0, "points_hi": 152},
]


def _same_views(ours, theirs, step):
    assert ours.current_player() == theirs.current_player(), step
    assert ours.is_terminal() == theirs.is_terminal(), step
    assert ours.returns() == theirs.returns(), step
    assert str(ours) == str(theirs), step
    assert ours.deal == theirs.deal and ours.first_leader == theirs.first_leader, step
    assert ours.plays == theirs.plays, step
    for p in (0, 1):
        assert ours.information_state_string(p) == theirs.information_state_string(p), (step, p)
        assert ours.observation_string(p) == theirs.observation_string(p), (step, p)
        assert ours.information_state_tensor(p) == theirs.information_state_tensor(p), (step, p)
        assert ours.observation_tensor(p) == theirs.observation_tensor(p), (step, p)
    if theirs.kernel is None:
        assert ours.kernel is None, step
        return
    mine, its = ours.kernel, theirs.kernel
    assert {
        f: list(getattr(mine, f)) if f in ("hand", "up", "down", "under", "points") else getattr(mine, f)
        for f in FIELDS
    } == {
        f: list(getattr(its, f)) if f in ("hand", "up", "down", "under", "points") else getattr(its, f)
        for f in FIELDS
    }, step
    for p in (0, 1):
        assert mine.score(p) == its.score(p), step
        assert mine.playable(p) == its.playable(p), step
        assert mine.hidden_from(p) == its.hidden_from(p), step
        assert mine.excluded(p) == oracle.hand_exclusions(theirs.plays, p), (step, p)
    assert mine.covered_tops() == its.covered_tops(), step
    assert mine.legal_mask() == its.legal_mask(), step


def _play_both(params, rng, check_worlds=False):
    ours = pyspiel.load_game("belote2p", params).new_initial_state()
    theirs = oracle.BeloteGame(params).new_initial_state()
    step = 0
    while True:
        _same_views(ours, theirs, step)
        if theirs.is_terminal():
            return
        player = theirs.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = theirs.chance_outcomes()
            assert ours.chance_outcomes() == outcomes, step
            action = outcomes[int(rng.integers(len(outcomes)))][0]
        else:
            legal = theirs.legal_actions()
            assert ours.legal_actions() == legal, step
            action = legal[int(rng.integers(len(legal)))]
            if check_worlds and step % 5 == 0:
                for who in (0, 1):
                    seed = int(rng.integers(2**32))
                    mine = sample_world(ours, who, np.random.default_rng(seed))
                    its = oracle.sample_world(theirs, who, np.random.default_rng(seed))
                    assert mine.history() == its.history(), (step, who)
        for a in range(K.NUM_ACTIONS if player >= 0 else 0):
            assert ours.action_to_string(player, a) == theirs.action_to_string(player, a), step
        if player == pyspiel.PlayerId.CHANCE:
            assert ours.action_to_string(player, action) == theirs.action_to_string(player, action)
        ours.apply_action(action)
        theirs.apply_action(action)
        step += 1


@pytest.mark.parametrize("params", PARAMS)
def test_random_games_agree_step_by_step(params):
    rng = np.random.default_rng(len(str(params)))
    for game in range(6):
        _play_both(params, rng, check_worlds=game < 2)


def test_positions_from_a_deal_agree():
    """The bots' view (``Position``) played card by card from a deal, as the old
    ``KernelState``: same fields, legal cards, revealed cards and trick winners."""
    from infosets.games.belote2p.position import Position

    rng = np.random.default_rng(5)
    for _ in range(20):
        deal, first = [int(c) for c in rng.permutation(32)], int(rng.integers(2))
        mine, its = Position.from_deal(deal, first), oracle.KernelState.from_deal(deal, first)
        while not its.is_terminal():
            assert mine.legal_moves() == its.legal_moves()
            card = int(rng.choice(its.legal_moves()))
            assert mine.play(card) == its.play(card)
            assert [mine.score(p) for p in (0, 1)] == [its.score(p) for p in (0, 1)]
        assert mine.is_terminal() and mine.to_move == its.to_move == -1
        assert mine.legal_moves() == []
        with pytest.raises(ValueError, match="not legal"):
            mine.play(0)  # nothing is legal once the game is over


def test_duties_and_fairness_agree():
    rng = np.random.default_rng(6)
    for lead in range(32):
        for _ in range(200):
            playable = int(rng.integers(2**32)) & ~(1 << lead)
            assert K.legal_reply_mask(playable, lead) == oracle.legal_reply_mask(playable, lead)
    for params in ((2, 66, 86), (3, 76, 76), (0, 0, 152), (4, 70, 90)):
        ours, theirs = DealConstraint(*params), oracle.DealConstraint(*params)
        assert ours.side_a_window() == theirs.side_a_window()
        for _ in range(300):
            deal = [int(c) for c in rng.permutation(32)]
            assert ours.is_fair(deal) == theirs.is_fair(deal), (params, deal)
