"""The Dominion port (its numba rules through ``infosets.games.array_kernel``) against the frozen
pure-Python oracle (``oracle.py``, the former ``DominionKernel``): random games agree step by
step on every field, the mover, legal actions, chance outcomes, returns, strings, tensors and
log codes; the resampler draws the same worlds from the same seed (numpy and PCG32), and the
world sampler reads the same history context, plans the same histories and replays the same
moves (pimcts_aggregation's draws through the Python port do not move). The shared checks:
``tests/games/oracle_checks.py``."""

from functools import partial

import numpy as np
import oracle_checks as oc
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers the games)
from infosets.core.pcg32 import PCG32
from infosets.games import _tabletop as tt

oracle = oc.load_oracle(__file__)
_K = oracle.DominionKernel
_fields = partial(oc.state_fields, names=_K.VALUE_FIELDS + _K.LIST_FIELDS + _K.NESTED_FIELDS)


def _same_victory_points(ours, theirs, step):
    """Every player's victory points are equal."""
    n = theirs.n
    assert [ours.victory_points(p) for p in range(n)] == [theirs.victory_points(p) for p in range(n)], step


def _play_both(players: int, max_turns: int, seed: int, check_every: int = 1):
    """A random game on the port's kernel and on the oracle side by side (checked equal every
    ``check_every`` steps and at the end; the mover, legal actions and chance outcomes at every
    step); yields (ours, oracle's, history so far) at every step. In odd seeds the players
    prefer kingdom cards (so Militia, Moat, Mine, Remodel, Cellar and Workshop are played)."""
    game = pyspiel.load_game("dominion", {"players": players, "max_turns": max_turns})
    ours, theirs = game.new_kernel(), _K(players, max_turns)
    return oc.play_both(
        ours,
        theirs,
        np.random.default_rng(seed),
        oc.state_check(players, _fields, extra=_same_victory_points),
        check_every=check_every,
        at_chance=oc.chance_checks(legal="legal_actions", possible=True, impossible=range(-1, 19)),
        choose=partial(_choice, kingdom=seed % 2 == 1),
    )


def _choice(legal, rng, kingdom):
    if kingdom:
        busy = [
            a
            for a in legal
            if a != oracle.END
            and a not in (oracle.BUY + oracle.COPPER, oracle.BUY + oracle.ESTATE, oracle.BUY + oracle.CURSE)
        ]
        legal = busy or legal
    return legal[int(rng.integers(len(legal)))]


# players -> (games, max_turns, full check every how many steps)
GAMES = {2: (4, 60, 1), 3: (3, 45, 2), 4: (2, 200, 5)}


@pytest.mark.parametrize("players", sorted(GAMES))
def test_random_games_agree_with_the_oracle(players):
    games, max_turns, every = GAMES[players]
    ends, phases = 0, set()
    for seed in range(games):
        for ours, _, _ in _play_both(players, max_turns, seed=100 * players + seed, check_every=every):
            ends += ours.is_terminal()
            phases.add(ours.phase)
    assert ends == games and len(phases) == oracle.OVER + 1  # every phase


class _OracleGame:
    """The oracle's stand-in for a loaded game (the world sampler replays on ``new_kernel``)."""

    def __init__(self, players, max_turns):
        self.players, self.max_turns = players, max_turns

    def new_kernel(self):
        return oracle.DominionKernel(self.players, self.max_turns)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_worlds_and_planned_histories_are_the_oracles(players):
    """At every 23rd decision of two games: one seed gives one world (every field) in both, through
    ``resample`` (numpy and PCG32 streams, left in the same state); the history contexts are
    equal, each world plans the same history in both and the replay asks the same moves; the
    real state is untouched; the worlds vary (not a vacuous check)."""
    max_turns = 40
    game, stand_in = (
        pyspiel.load_game("dominion", {"players": players, "max_turns": max_turns}),
        _OracleGame(players, max_turns),
    )
    distinct, checked, decisions = set(), 0, 0
    for game_seed in range(2):
        for ours, theirs, history in _play_both(players, max_turns, seed=7 + game_seed, check_every=50):
            if ours.is_terminal() or ours.current_player() == tt.CHANCE:
                continue
            decisions += 1
            if decisions % 23:
                continue
            player = ours.current_player()
            seed = [players, game_seed, len(history)]
            world = ours.resample(player, np.random.default_rng(seed))
            its_world = theirs.resample(player, np.random.default_rng(seed))
            assert _fields(world) == _fields(its_world)
            assert world.information_state_string(player) == ours.information_state_string(player)
            mine, its = PCG32(len(history)), PCG32(len(history))
            assert _fields(ours.resample(player, mine)) == _fields(theirs.resample(player, its))
            assert (mine.state, mine.inc) == (its.state, its.inc)
            context = ours.history_context(game, history)
            reference = theirs.history_context(stand_in, history)
            assert _fields(context[0]) == _fields(reference[0])
            assert context[1:] == reference[1:]
            planned = world.plan_history(game, history, player, context)
            assert planned == its_world.plan_history(stand_in, history, player, reference)
            for step in range(0, len(history) + 1, 7):
                action = history[step] if step < len(history) else None
                assert world.replay_move(ours, step, action, context) == its_world.replay_move(
                    theirs, step, action, reference
                )
            distinct.add(tuple(planned or ()))
            assert _fields(ours) == _fields(theirs)
            checked += 1
    assert checked > 5 and len(distinct) > checked // 2
