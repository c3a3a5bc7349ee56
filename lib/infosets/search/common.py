"""Helpers every Python search loop shares: rollouts, reward scaling, tie-breaks, the PCG32,
and the check of the state a bot is asked to move at (its generator: ``core.rng.as_generator``).

Written for the PI-MCTS / IS-MCTS comparison of Ravichandran, Goodman and Lucas
("PIMCTS evaluation in tabletop games", docs/papers/pimcts_aggregation.md). The searches call
states through the ``SearchState`` protocol of the bottom layer (``infosets.core.search_state``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import pyspiel

from infosets.core.chance import sample_chance  # noqa: F401  (re-exported: search's callers use it)
from infosets.core.pcg32 import PCG32
from infosets.core.search_state import SearchState
from infosets.search import tag_rules as tr

# rollout_policy(state, rnd) -> action, with rnd the search's PCG32 (or a random.Random).
RolloutPolicy = Callable[[SearchState, random.Random], int]
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def python_random(rng: np.random.Generator) -> PCG32:
    """The search's generator for one move, seeded by one draw of a numpy Generator.

    A PCG32 (``randrange``/``random`` as ``random.Random``), so the compiled engine, which
    runs the same generator in jitted code, reproduces the Python searches draw for draw.
    """
    return PCG32.from_generator(rng)


def check_decision_state(state, player: int) -> None:
    """A one-line ValueError naming ``state`` unless ``player`` is to move there: a bot searches
    only at its own decisions (not at a chance node, a terminal state or another seat's turn).
    Reads the state only (no draw)."""
    if state.is_terminal():
        raise ValueError("state: is terminal; a bot moves only at its own decisions")
    if state.is_chance_node():
        raise ValueError("state: is a chance node; a bot moves only at its own decisions")
    mover = state.current_player()
    if mover != player:
        raise ValueError(f"state: player {mover} is to move, not this bot's player {player}")


def uses_pcg(sampler) -> bool:
    """True for a sampler that draws from the search's PCG32 (a kernel's determinizer)
    rather than from the bot's numpy Generator."""
    return getattr(sampler, "uses_pcg", False)


def random_rollout(state: SearchState, rnd: random.Random,
                   rollout_policy: RolloutPolicy | None = None, limit: int | None = None,
                   mast=None, record: list | None = None, count_chance: bool = True,
                   termination: str = "EXACT", counter: Callable[[SearchState], int] | None = None,
                   mast_player: int | None = None) -> int:
    """Play ``state`` on in place: chance by its probabilities, players uniformly (or by
    ``rollout_policy``), to the end or until ``limit`` actions have been played (None: no
    cut). Returns the current player where it stopped (``PlayerId.TERMINAL`` at the end).
    The rollout of every Python search (MCTS, PI-MCTS, IS-MCTS).

    ``mast`` (``mast_n``, ``mast_w``, temperature): the players' moves are chosen by TAG's MAST
    policy (issue 56; ``MASTPlayer``), ``tag_rules.mast_rollout_choice`` over
    ``tag_rules.mast_values`` of the mover's legal actions in the bot's table, and each
    (player, action) played is appended to ``record``. ``count_chance`` False: ``limit`` counts
    the players' actions only (``MCTSSettings.rollout_count`` "moves", as TAG). ``mast_player``
    (``MCTSSettings.mast_opponents`` "random"): only that player moves by MAST, the others
    uniformly at random (TAG's opponent model RANDOM), their moves recorded all the same.

    ``termination`` "END_TURN"/"END_ROUND" with the game's ``counter`` (``kernels.rollout_counter``;
    TAG's ``finishRollout``, docs/tag_agents.md section 3): once ``limit`` is reached the rollout
    goes on until the counter differs from its value at the previous player decision (the last
    player action, with the chance after it, ended a turn/round), and stops only at a player
    decision (or the end): TAG's chance is inside the action before it. With ``limit`` 0 it
    plays to the end of the current turn/round; it never stops before one player action."""
    rand = rnd.random
    current_player, apply_action = state.current_player, state.apply_action
    mover = current_player()
    steps = 0
    code = tr.TERMINATIONS[termination]
    if code != tr.EXACT and counter is None:
        raise ValueError(f"counter: rollout termination {termination} needs the game's counter")
    exact = code == tr.EXACT
    last = None  # the counter at the previous player decision of the rollout
    while mover != TERMINAL:
        if exact:
            if limit is not None and steps >= limit:
                break
        elif mover != CHANCE:
            now = counter(state)
            changed = last is not None and now != last
            if limit is not None and tr.rollout_finished(False, steps, limit, code, changed, changed):
                break
            last = now
        if mover == CHANCE:
            apply_action(sample_chance(state, rnd))
        elif mast is not None:
            legal = state.legal_actions()
            if mast_player is None or mover == mast_player:
                values = tr.mast_values(mast[0], mast[1], mover, legal)
                action = legal[tr.mast_rollout_choice(values, rnd, mast[2])]
            else:
                action = legal[int(rand() * len(legal))]
            if record is not None:
                record.append((mover, action))
            apply_action(action)
        elif rollout_policy is None:
            legal = state.legal_actions()
            apply_action(legal[int(rand() * len(legal))])
        else:
            apply_action(rollout_policy(state, rnd))
        if count_chance or mover != CHANCE:
            steps += 1
        mover = current_player()
    return mover



def advance_to_turn(state: SearchState, player: int, rnd: random.Random,
                    rollout_policy: RolloutPolicy | None = None, mast=None) -> int:
    """Play ``state`` on in place until ``player`` is to move or the game ends: chance by its
    probabilities, the other players by the rollout policy (uniform, ``rollout_policy`` or
    MAST as ``random_rollout``), nothing recorded. TAG's ``advanceToTurnOfPlayer`` in the tree
    phase of a SelfOnly search (``MCTSSettings.opponent_tree``, docs/tag_agents.md section 1);
    twin ``compiled._advance_opponents``. Returns the current player where it stopped."""
    mover = state.current_player()
    while mover != TERMINAL and mover != player:
        if mover == CHANCE:
            state.apply_action(sample_chance(state, rnd))
        elif mast is not None:
            legal = state.legal_actions()
            state.apply_action(legal[tr.mast_rollout_choice(tr.mast_values(mast[0], mast[1], mover, legal),
                                                            rnd, mast[2])])
        elif rollout_policy is None:
            legal = state.legal_actions()
            state.apply_action(legal[int(rnd.random() * len(legal))])
        else:
            state.apply_action(rollout_policy(state, rnd))
        mover = state.current_player()
    return mover

def tag_choice(policy: str, n, w, q, avail, node_visits: int, node_wsum: float, low: float,
               high: float, c: float, fpu, epsilon: float, rnd: PCG32) -> int:
    """Index of the action TAG's tree ``policy`` chooses among actions with visits ``n``, reward
    sums ``w``, squared sums ``q`` and availabilities ``avail`` (``MCTSSettings.tree_policy``,
    issue 56): "UCB_Tuned" (``tag_rules.ucb_tuned_scores``, K = ``c``, then
    ``argmax_tiebreak``; no epsilon, as TAG), "NoAveragingRM" (``rm_regrets``) or "EXP3"
    (``exp3_potentials``), sampled by ``sample_tree_policy`` with ``epsilon``. ``fpu`` None is
    TAG's FPU (1e6). ``low``/``high``: the search's reward bounds (``update_reward_bounds``)."""
    f = tr.FPU_DEFAULT if fpu is None else fpu
    if policy == "UCB_Tuned":
        return tr.argmax_tiebreak(tr.ucb_tuned_scores(n, w, q, avail, low, high, c, f), rnd)
    if policy in ("NoAveragingRM", "RegretMatching"):  # RegretMatching selects as NoAveragingRM
        values = tr.rm_regrets(n, w, node_visits, node_wsum, f)
    elif policy == "EXP3":
        values = tr.exp3_potentials(n, w, node_visits, node_wsum, low, high, tr.EXP3_BOLTZMANN_DEFAULT, f)
    else:
        raise ValueError(f"policy: must be 'UCB_Tuned', 'NoAveragingRM', 'RegretMatching' or 'EXP3', "
                         f"got {policy!r}")
    return tr.sample_tree_policy(values, rnd, epsilon)


class RootAverage:
    """RegretMatching's average strategy at a search's root (docs/tag_agents.md section 4;
    ``tag_rules.rm_average_due``/``rm_average_top_up_due``): ``legal`` the root's actions in
    legal order, ``average`` their summed regret-matching distributions, ``updates`` how many
    were added during the search. The engines call ``due`` after each backup, ``add`` when it
    holds, and ``finish`` at the end."""

    def __init__(self, legal, fpu):
        self.legal, self.fpu = list(legal), fpu
        self.average, self.updates = np.zeros(len(self.legal)), 0

    def due(self, node_visits: int) -> bool:
        return tr.rm_average_due(node_visits, len(self.legal))

    def add(self, n, w, node_visits: int, node_wsum: float) -> None:
        rm_average_add(self.average, n, w, node_visits, node_wsum, self.fpu)
        self.updates += 1

    def finish(self, n, w, node_visits: int, node_wsum: float) -> tuple[list, list]:
        """(legal actions, summed distributions) after the final move's top-up, if due."""
        if tr.rm_average_top_up_due(self.updates, node_visits, len(self.legal)):
            rm_average_add(self.average, n, w, node_visits, node_wsum, self.fpu)
        return self.legal, self.average.tolist()


def rm_average_add(average, n, w, node_visits: int, node_wsum: float, fpu) -> None:
    """Add the root's current regret-matching distribution (``tag_rules.rm_regrets`` of its
    actions' visits ``n`` and reward sums ``w`` in legal order, FPU ``fpu``, None for TAG's) to
    its running ``average`` in place (``tag_rules.rm_average_update``; tree policy
    RegretMatching, docs/tag_agents.md section 4). Twin: ``compiled._rm_root_update``."""
    f = tr.FPU_DEFAULT if fpu is None else fpu
    tr.rm_average_update(average, tr.rm_regrets(n, w, node_visits, node_wsum, f))


def rm_final(actions, average, rnd: PCG32) -> int:
    """The final move under RegretMatching: among ``actions`` (legal order), one sampled from
    the root's summed regret-matching distributions ``average`` (``tag_rules.rm_average_choice``:
    one ``rnd.random()``, none for one action)."""
    return actions[tr.rm_average_choice(np.asarray(average, dtype=np.float64), rnd)]



def exp3_final(actions, counts, sums, bounds, fpu, rnd: PCG32) -> int:
    """The final move of a search under TAG's tree policy EXP3 (``SingleTreeNode.bestAction``:
    ``treePolicyAction(false)``, docs/tag_agents.md section 4): among the root's ``actions``
    with visits ``counts`` and reward sums ``sums`` (0 and 0 for an unvisited one), one sampled
    in proportion to its ``tag_rules.exp3_potentials`` (normalised by the tree's reward
    ``bounds`` (low, high), FPU ``fpu``, None for TAG's) with no exploration epsilon
    (``sample_tree_policy(..., explore=False)``: one ``rnd.random()``, or none for one action)."""
    n = np.asarray(counts, dtype=np.int64)
    w = np.asarray(sums, dtype=np.float64)
    f = tr.FPU_DEFAULT if fpu is None else fpu
    values = tr.exp3_potentials(n, w, int(n.sum()), float(w.sum()), bounds[0], bounds[1],
                                tr.EXP3_BOLTZMANN_DEFAULT, f)
    return actions[tr.sample_tree_policy(values, rnd, 0.0, explore=False)]

class RewardScale:
    """Maps raw returns to [0, 1] with the game's utility bounds (or leaves them raw)."""

    def __init__(self, game: pyspiel.Game, normalize: bool):
        self.normalize = normalize
        self.low = game.min_utility()
        span = game.max_utility() - self.low
        self.span = span if span > 0 else 1.0

    def __call__(self, returns: Sequence[float]) -> list[float]:
        if not self.normalize:
            return list(returns)
        low, span = self.low, self.span
        return [(r - low) / span for r in returns]


def is_python_game(game: pyspiel.Game) -> bool:
    """True for games registered from Python (OpenSpiel 2.0.2's C++ bots crash on them)."""
    module = type(game).__module__
    return not (module == "pyspiel" or module.startswith("pyspiel."))


def argmax_random(values: dict, rnd: random.Random):
    """Key with the largest value; ties broken uniformly at random among the tied keys in
    ascending order (so the draw does not depend on the dict's insertion order)."""
    best = max(values.values())
    keys = [k for k, v in values.items() if v == best]
    if len(keys) == 1:
        return keys[0]
    keys.sort()
    return keys[rnd.randrange(len(keys))]
