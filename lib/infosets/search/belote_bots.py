"""Opponents for Boudier's Belote ISMCTS: random, greedy rules, PIMC with a double-dummy solver.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md) tested its ISMCTS only against humans; these bots give machine baselines:

- ``RandomBot``: a uniform legal card.
- ``GreedyBot``: leads its cheapest card; replies with the cheapest card that wins the
  trick, else the cheapest legal card ("cheapest": fewest points, then weakest).
- ``BelotePIMCBot``: perfect-information Monte Carlo for Belote. It samples worlds as the
  ISMCTS does (a uniform shuffle of the unseen cards, optionally with void inference) and
  values each legal card by an exact alpha-beta double-dummy solve of each world
  (``solve``), playing the best average. ``horizon_tricks`` caps the solve depth (the
  remaining points then count for nobody); ``None`` solves to the end. It differs from
  ``infosets.search.pimc.PIMCBot`` (belief_mixtures), which samples worlds from a belief
  mixture of any OpenSpiel game and solves them with the generic game-tree solver: this one
  is specific to the belote2p kernel state, samples uniformly and uses the trick-level
  alpha-beta solver with a transposition table.
- ``openspiel_ismcts_bot``: OpenSpiel's Python ``ismcts.ISMCTSBot`` on our pyspiel game
  (never the C++ bots: they crash on Python games), seeded.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from infosets.core.rng import as_generator, as_random
from infosets.games.belote2p.position import Position
from infosets.games.belote2p.rules import (
    BEATS,
    FOLLOW,
    LAST_TRICK_BONUS,
    NUM_TRICKS,
    POINTS,
    STRENGTH,
    TRUMP_MASK,
    cards_of,
)
from infosets.search.belote_ismcts import opponent_hand_exclusions


def _cheapest(cards):
    return min(cards, key=lambda c: (POINTS[c], (c >> 3) == 0, STRENGTH[c], c))


class RandomBot(pyspiel.Bot):
    """A uniformly random legal card; ``rng`` as in ``BeloteISMCTSBot``."""

    def __init__(self, *, rng):
        super().__init__()
        self._rand = as_random(rng)

    def step(self, state) -> int:
        return self._rand.choice(state.kernel.legal_moves())

    def restart_at(self, state):
        pass

    def provides_policy(self):
        return False


class GreedyBot(pyspiel.Bot):
    """The rule player: win the trick cheaply, else discard the cheapest card."""

    def __init__(self):
        super().__init__()

    def step(self, state) -> int:
        return greedy_card(state.kernel)

    def restart_at(self, state):
        pass

    def provides_policy(self):
        return False


def greedy_card(kernel: Position) -> int:
    legal = kernel.legal_moves()
    if kernel.lead < 0:
        return _cheapest(legal)
    winners = [c for c in legal if BEATS[kernel.lead] >> c & 1]
    return _cheapest(winners or legal)


# ---- exact double-dummy solver ----------------------------------------------------------
_INF = 10**6


class _Solver:
    """Alpha-beta (negamax over whole tricks) on one fully known world, with a table.

    The position at a trick start is fixed by the remaining cards and the leader (a pile
    bottom is playable once its top is gone), so the table is keyed by (remaining, leader)
    and stores bounds on the leader's future point difference (own minus opponent's, card
    points plus the last-trick bonus). The difference is zero-sum even under a horizon; to
    the end of the game it ranks moves exactly as the mover's own points do.
    """

    def __init__(self, kernel: Position, horizon_tricks: int | None, bonus: int):
        self.bonus = bonus
        self.side = [kernel.hand[p] | kernel.up[p] | kernel.down[p] for p in (0, 1)]
        self.covers = [(kernel.under[t], t) for t in kernel.covered_tops()]
        self.horizon = NUM_TRICKS if horizon_tricks is None else kernel.trick + horizon_tricks
        self.table: dict[tuple[int, int], tuple[int, int]] = {}
        self.nodes = 0

    def playable(self, remaining: int, player: int) -> int:
        out = remaining & self.side[player]
        for bottom, top in self.covers:
            if remaining >> top & 1:
                out &= ~(1 << bottom)
        return out

    def reply_values(self, remaining: int, leader: int, lead: int, trick: int,
                     alpha: int, beta: int) -> int:
        """Min over the follower's replies of the leader's difference; fail-soft."""
        follower = 1 - leader
        rem1 = remaining & ~(1 << lead)
        playable = self.playable(rem1, follower)
        legal = (playable & FOLLOW[lead]) or (playable & TRUMP_MASK) or playable
        worst = _INF
        last = trick + 1 == NUM_TRICKS
        for reply in cards_of(legal):
            rem2 = rem1 & ~(1 << reply)
            pts = POINTS[lead] + POINTS[reply] + (self.bonus if last else 0)
            b = min(worst, beta)
            if BEATS[lead] >> reply & 1:
                v = -pts - self.value(rem2, follower, trick + 1, -b - pts, -alpha - pts)
            else:
                v = pts + self.value(rem2, leader, trick + 1, alpha - pts, b - pts)
            if v < worst:
                worst = v
                if worst <= alpha:
                    break
        return worst

    def value(self, remaining: int, leader: int, trick: int, alpha: int, beta: int) -> int:
        """The leader's future point difference from a trick start, exact inside (alpha, beta)."""
        if trick >= self.horizon or remaining == 0:
            return 0
        key = (remaining, leader)
        lo, hi = self.table.get(key, (-_INF, _INF))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a0, b0 = max(alpha, lo), min(beta, hi)
        a = a0
        best = -_INF
        leads = cards_of(self.playable(remaining, leader))
        leads.sort(key=lambda c: -POINTS[c] - 8 * (c >> 3 == 0))
        for lead in leads:
            self.nodes += 1
            v = self.reply_values(remaining, leader, lead, trick, a, b0)
            if v > best:
                best = v
                if best > a:
                    a = best
                    if a >= b0:
                        break
        if best <= a0:
            self.table[key] = (lo, min(hi, best))
        elif best >= b0:
            self.table[key] = (max(lo, best), hi)
        else:
            self.table[key] = (best, best)
        return best


def _remaining(kernel: Position) -> int:
    return (kernel.hand[0] | kernel.hand[1] | kernel.up[0] | kernel.up[1]
            | kernel.down[0] | kernel.down[1])


def solve(kernel: Position, horizon_tricks: int | None = None,
          last_trick_bonus: bool = True) -> dict[int, float]:
    """Double-dummy values of the legal cards for the player to move in a known world.

    Args:
      kernel: a fully known position (a world), not terminal.
      horizon_tricks: solve at most this many tricks ahead, counting the current one
        (None: to the end of the game, exact).
      last_trick_bonus: count the 10 points of the last trick (False: card points only, the
        ISMCTS reward).
    Returns:
      {card: the mover's future point difference (own minus opponent's) after that card}.
      To the end of the game, the mover's final score is
      ``kernel.points[me] + (future_total + difference) / 2``.
    """
    if kernel.is_terminal():
        raise ValueError("solve needs a non-terminal position")
    if horizon_tricks is not None and horizon_tricks < 1:
        raise ValueError(f"horizon_tricks must be >= 1 or None, got {horizon_tricks!r}")
    solver = _Solver(kernel, horizon_tricks, LAST_TRICK_BONUS if last_trick_bonus else 0)
    remaining = _remaining(kernel)
    me = kernel.to_move
    out = {}
    if kernel.lead < 0:
        for lead in kernel.legal_moves():
            out[lead] = float(solver.reply_values(remaining, me, lead, kernel.trick,
                                                  -_INF, _INF))
        return out
    # The mover replies: its difference is minus the leader's.
    leader, lead = kernel.leader, kernel.lead
    rem1 = remaining  # the lead card is already off the board
    last = kernel.trick + 1 == NUM_TRICKS
    for reply in kernel.legal_moves():
        rem2 = rem1 & ~(1 << reply)
        pts = POINTS[lead] + POINTS[reply] + (solver.bonus if last else 0)
        if BEATS[lead] >> reply & 1:
            v = pts + solver.value(rem2, me, kernel.trick + 1, -_INF, _INF)
        else:
            v = -pts - solver.value(rem2, leader, kernel.trick + 1, -_INF, _INF)
        out[reply] = float(v)
    return out


def future_total(kernel: Position) -> int:
    """Card points still on the board plus the last-trick bonus if it is still to win."""
    total = sum(POINTS[c] for c in cards_of(_remaining(kernel)))
    if kernel.lead >= 0:
        total += POINTS[kernel.lead]
    return total + (LAST_TRICK_BONUS if not kernel.is_terminal() else 0)


class BelotePIMCBot(pyspiel.Bot):
    """Perfect-information Monte Carlo on Belote with the double-dummy solver (see the module
    docstring for how it differs from ``infosets.search.pimc.PIMCBot``).

    Args:
      worlds: sampled worlds per move.
      rng: numpy Generator, SeedSequence or int seed (required; ``infosets.core.rng``).
      exact_tricks: solve to the end once at most this many tricks remain (16: always).
      horizon_tricks: the solve depth in tricks before that (the rest counts for nobody).
      inference: restrict the opponent's hand by its revealed voids.
    """

    def __init__(self, worlds: int = 20, *, rng, exact_tricks: int = 8,
                 horizon_tricks: int = 2, inference: bool = False):
        super().__init__()
        if not isinstance(worlds, (int, np.integer)) or worlds < 1:
            raise ValueError(f"worlds must be an int >= 1, got {worlds!r}")
        if not 1 <= exact_tricks <= NUM_TRICKS:
            raise ValueError(f"exact_tricks must be in 1..16, got {exact_tricks!r}")
        if not 1 <= horizon_tricks <= NUM_TRICKS:
            raise ValueError(f"horizon_tricks must be in 1..16, got {horizon_tricks!r}")
        self._rand = as_random(rng)
        self.worlds = int(worlds)
        self.exact_tricks = int(exact_tricks)
        self.horizon_tricks = int(horizon_tricks)
        self.inference = bool(inference)

    def step(self, state) -> int:
        kernel = state.kernel
        excluded = opponent_hand_exclusions(state, kernel.to_move) \
            if self.inference else 0
        return self.choose(kernel, excluded)

    def choose(self, kernel: Position, excluded_from_opponent_hand: int = 0) -> int:
        legal = kernel.legal_moves()
        if len(legal) == 1:
            return legal[0]
        exact = NUM_TRICKS - kernel.trick <= self.exact_tricks
        horizon = None if exact else self.horizon_tricks
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.worlds):
            world = determinize(kernel, self._rand, excluded_from_opponent_hand)
            for card, value in solve(world, horizon).items():
                totals[card] += value
        return max(legal, key=lambda c: (totals[c], -c))

    def restart_at(self, state):
        pass

    def provides_policy(self):
        return False


def determinize(kernel: Position, rand, excluded_from_opponent_hand: int = 0) -> Position:
    """A world for the mover: the unseen cards reshuffled (the opponent's hand avoiding
    ``excluded_from_opponent_hand`` when possible); ``rand`` is a ``random.Random``.

    ``BelotePIMCBot``'s determinizer: the paper's uniform shuffle on a ``Position``,
    without the fair-deal constraint. The two other Belote determinizers differ on purpose:
    ``belote2p.game.sample_world`` is the game's exact resampler on pyspiel states (void
    inference always on, deals breaking the fair-deal constraint rejected: the chance
    posterior); the kernel's ``nb_determinize`` is the compiled IS-MCTS's (inference and the
    constraint as state flags, drawn from the search's PCG32)."""
    me = kernel.to_move
    opp = 1 - me
    n_opp = kernel.hand[opp].bit_count()
    unknown = cards_of(kernel.hidden_from(me))
    allowed = [c for c in unknown if not (excluded_from_opponent_hand >> c & 1)]
    if len(allowed) < n_opp:
        allowed = unknown
    opp_cards = rand.sample(allowed, n_opp)
    chosen = 0
    for c in opp_cards:
        chosen |= 1 << c
    rest = [c for c in unknown if not (chosen >> c & 1)]
    rand.shuffle(rest)
    world = kernel.clone()
    world.set_hand(opp, chosen)
    down = [0, 0]
    for top, card in zip(kernel.covered_tops(), rest):
        world.set_under(top, card)
        down[0 if kernel.up[0] >> top & 1 else 1] |= 1 << card
    world.set_down(0, down[0])
    world.set_down(1, down[1])
    return world


def openspiel_ismcts_bot(game, iterations: int, exploration: float, *, rng):
    """OpenSpiel's Python ISMCTSBot on ``belote2p`` with random rollouts, fully seeded by
    ``rng`` (Generator, SeedSequence or int; one draw seeds its RandomState, the generator
    itself its resampler).

    Its UCB is ``mean + c * sqrt(ln N / n)`` over returns in points (0..162, bonus included),
    with no availability counts, a tree keyed by information-state strings and one rollout
    per new leaf.
    """
    from open_spiel.python.algorithms import ismcts, mcts

    sampler_rng = as_generator(rng)
    random_state = np.random.RandomState(int(sampler_rng.integers(2**32)))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, exploration, iterations, random_state=random_state)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler_rng))
    return bot
