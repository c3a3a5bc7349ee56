"""Exact perfect-information solver: alpha-beta with expectation at chance nodes.

The evaluator of PIMC in Arjonilla, Saffidine and Cazenave, "Mixture of public and private
beliefs" (2024, arXiv 2405.14346; docs/papers/belief_mixtures.md), Algorithm 1: the value
of a determinized world, i.e. a history whose private information is all fixed. Any
two-player zero-sum sequential pyspiel game works, imperfect-information ones included
(the history fixes the world, so the tree below it can be searched exhaustively; chance
left in it, e.g. leduc's public card, is taken in expectation). OpenSpiel's
``minimax.alpha_beta_search`` raises on imperfect-information games, hence this module.
For small games whose worlds PIMC lists, ``search.pimc.PerfectInfoValues`` memoises the
whole game's minimax values instead; Belote has its own double-dummy solver
(``search.belote_bots.solve``).

Two search paths give the same values:
- generic: fail-soft alpha-beta on pyspiel states, full-window expectation at chance
  nodes, a transposition table of (lower, upper) bounds keyed by ``key``;
- trick-game kernel (``trick_game`` states once the deal is complete, or bare kernel
  ``TrickState`` objects, which skips building pyspiel states): the same search on
  the integer kernel, with a compact integer key, an early stop once the match result is
  decided, and (``card_equivalence``) only one card searched among touching cards of one
  hand, since swapping them changes no trick. It runs compiled (``search.trick_solver_nb``,
  numba; default) or in Python (``_KernelSearch``, ``compiled_kernel=False``: the reference
  the compiled twin is tested against); both return the exact values.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable

import numpy as np
import pyspiel

from infosets.games.trick_game import array_rules as K
from infosets.search import trick_solver_nb

KEYS = ("history", "string")


def history_key(state) -> Hashable:
    """The full action history: always a correct key (no transpositions are merged)."""
    return tuple(state.history())


def string_key(state) -> Hashable:
    """``str(state)`` and the mover: merges transpositions, correct only for games whose
    ToString describes the whole state (tic_tac_toe, leduc_poker, liars_dice)."""
    return (str(state), state.current_player())


class PerfectInfoSolver:
    """Exact values of fully specified worlds of two-player zero-sum games.

    Args:
      key: "history" (default, always correct), "string" (merges transpositions; see
        ``string_key``) or a callable state -> hashable for the generic search.
      use_trick_kernel: search ``trick_game`` states on the integer kernel.
      card_equivalence: in the kernel search, search one card per run of touching cards.
      max_table_size: the transposition tables persist across calls (worlds often share
        endgames); the generic and Python kernel tables are emptied when a call starts with
        more entries than this (>= 1).
      compiled_kernel: run the kernel search compiled (numba) rather than in Python.
      kernel_table_slots: slots of the compiled kernel's table (rounded up to a power of
        two), which persists across calls and overwrites entries on collision instead of
        being emptied. The default (16 bytes a slot: 512 KB) stays in a core's L2 cache; a
        larger table saves few nodes and costs more time per node.

    Attributes:
      nodes: number of nodes visited since construction (for benchmarks).
    """

    def __init__(self, key: str | Callable = "history", use_trick_kernel: bool = True,
                 card_equivalence: bool = True, max_table_size: int = 1_000_000,
                 compiled_kernel: bool = True, kernel_table_slots: int = 1 << 15):
        if max_table_size < 1:
            raise ValueError(f"max_table_size must be >= 1, got {max_table_size}")
        if kernel_table_slots < 1:
            raise ValueError(f"kernel_table_slots must be >= 1, got {kernel_table_slots}")
        self.max_table_size = max_table_size
        self.kernel_table_slots = kernel_table_slots
        if callable(key):
            self._key = key
        elif key in KEYS:
            self._key = history_key if key == "history" else string_key
        else:
            raise ValueError(f"key must be one of {KEYS} or a callable, got {key!r}")
        self.use_trick_kernel = use_trick_kernel
        self.card_equivalence = card_equivalence
        self.compiled_kernel = compiled_kernel
        self._nodes = 0
        self._table: dict = {}
        self._kernel_tables: dict = {}
        self._compiled_tables: dict = {}

    @property
    def nodes(self) -> int:
        """Nodes visited since construction, by every search path (for benchmarks)."""
        return self._nodes + sum(int(nodes[0]) for _, nodes in self._compiled_tables.values())

    def clear(self) -> None:
        """Empties the transposition tables."""
        self._table.clear()
        self._kernel_tables.clear()
        for table, _ in self._compiled_tables.values():
            table.fill(trick_solver_nb.EMPTY)

    def _bound_tables(self) -> None:
        size = len(self._table) + sum(len(t) for t in self._kernel_tables.values())
        if size > self.max_table_size:
            self.clear()

    # --- public API ----------------------------------------------------------------------
    def solve(self, state, player: int) -> float:
        """The exact expected return of ``player`` at ``state`` under optimal play by both.

        Args:
          state: a pyspiel state of a 2-player zero-sum sequential game whose hidden
            information is fixed by its history (a world), or a dealt trick-game kernel
            ``TrickState``.
          player: 0 or 1.
        Returns:
          The value for ``player``.
        """
        _check(state, player)
        self._bound_tables()
        if self._kernel_applies(state):
            value = self._kernel_solve(_kernel_of(state))
        else:
            value = self._value(state, -math.inf, math.inf)
        return value if player == 0 else -value

    def action_values(self, state, player: int) -> dict[int, float]:
        """Exact value for ``player`` of each legal action of the mover at ``state``.

        Args:
          state: a decision node (see ``solve``).
          player: 0 or 1 (usually the mover).
        Returns:
          {action: value for ``player`` after the action, both sides then playing optimally}.
        """
        _check(state, player)
        self._bound_tables()
        if isinstance(state, K.TrickState):
            if state.player < 0:
                raise ValueError("state must be a decision node (not chance or terminal) "
                                 "for action_values")
            return self._signed(self._kernel_action_values(state), player)
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("state must be a decision node (not chance or terminal) for "
                             "action_values")
        sign = 1.0 if player == 0 else -1.0
        if self._kernel_applies(state):
            return self._signed(self._kernel_action_values(state.kernel), player)
        return {a: sign * self._value(state.child(a), -math.inf, math.inf)
                for a in state.legal_actions()}

    @staticmethod
    def _signed(values: dict[int, float], player: int) -> dict[int, float]:
        return values if player == 0 else {a: -v for a, v in values.items()}

    # --- generic search (values for player 0) --------------------------------------------
    def _value(self, state, alpha: float, beta: float) -> float:
        self._nodes += 1
        if state.is_terminal():
            return state.player_return(0)
        key = self._key(state)
        table = self._table
        lower, upper = table.get(key, (-math.inf, math.inf))
        if lower == upper or lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        if state.is_chance_node():
            value = 0.0
            for action, prob in state.chance_outcomes():
                value += prob * self._value(state.child(action), -math.inf, math.inf)
            table[key] = (value, value)
            return value
        alpha, beta = max(alpha, lower), min(beta, upper)
        alpha0, beta0 = alpha, beta
        maximizing = state.current_player() == 0
        best = -math.inf if maximizing else math.inf
        for action in state.legal_actions():
            value = self._value(state.child(action), alpha, beta)
            if maximizing:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        table[key] = _bounds(best, alpha0, beta0, lower, upper)
        return best

    # --- trick-game kernel search ----------------------------------------------------------
    def _kernel_applies(self, state) -> bool:
        if isinstance(state, K.TrickState):  # a bare kernel state: no pyspiel wrapper
            if state.player == K.CHANCE:
                raise ValueError("state: a bare trick-game kernel state must be dealt")
            return True
        if not self.use_trick_kernel:
            return False
        kernel = getattr(state, "kernel", None)
        return isinstance(kernel, K.TrickState) and kernel.player != K.CHANCE

    def _compiled_context(self, k: K.TrickState) -> tuple:
        """The compiled search's (hand_size, suit_of, suit_mask, equivalence, table...)."""
        table_id = (k.deck.num_cards, k.hand_size, self.card_equivalence)
        table = self._compiled_tables.get(table_id)
        if table is None:
            table = self._compiled_tables[table_id] = trick_solver_nb.new_table(
                self.kernel_table_slots)
        suit_of, suit_mask = _deck_arrays(k.deck)
        return (k.hand_size, suit_of, suit_mask, self.card_equivalence, *table)

    def _kernel_solve(self, k: K.TrickState) -> float:
        if k.player == K.TERMINAL:
            return k.returns()[0]
        if self.compiled_kernel:
            return float(trick_solver_nb.value(k.hands[0], k.hands[1], k.lead, k.player,
                                               k.tricks[0], k.tricks[1], -1, 1,
                                               self._compiled_context(k)))
        search = _KernelSearch(self, k.deck, k.hand_size)
        return float(search.value(k.hands[0], k.hands[1], k.lead, k.player, k.tricks[0],
                                  k.tricks[1], -1, 1))

    def _kernel_action_values(self, k: K.TrickState) -> dict[int, float]:
        if self.compiled_kernel:
            legal = k.legal_mask()
            out = trick_solver_nb.action_values(k.hands[0], k.hands[1], k.lead, k.player,
                                                k.tricks[0], k.tricks[1], legal,
                                                self._compiled_context(k))
            return {card: float(out[card]) for card in K.cards_of(legal)}
        search = _KernelSearch(self, k.deck, k.hand_size)
        legal = k.legal_mask()
        live = k.hands[0] | k.hands[1] | ((1 << k.lead) if k.lead >= 0 else 0)
        values: dict[int, float] = {}
        for card in K.cards_of(legal):
            twin = search.lower_twin(card, k.hands[k.player], live) if \
                self.card_equivalence else -1
            if twin >= 0:
                values[card] = values[twin]
                continue
            child = k.copy()
            child.apply(card)
            if child.player == K.TERMINAL:
                values[card] = child.returns()[0]
            else:
                values[card] = float(search.value(child.hands[0], child.hands[1], child.lead,
                                                  child.player, child.tricks[0],
                                                  child.tricks[1], -1, 1))
        return values


def _bounds(best, alpha0, beta0, lower, upper) -> tuple[float, float]:
    """Fail-soft alpha-beta result -> (lower, upper) bounds on the true value."""
    if best <= alpha0:
        return lower, min(upper, best)
    if best >= beta0:
        return max(lower, best), upper
    return best, best


class _KernelSearch:
    """Alpha-beta on the trick-game kernel's ints; values for player 0 in {-1, 0, 1}."""

    def __init__(self, solver: PerfectInfoSolver, deck: K.Deck, hand_size: int):
        self.solver = solver
        self.suit_of = deck.suit_of
        self.suit_mask = deck.suit_mask
        self.n = deck.num_cards
        self.hand_size = hand_size
        self.equivalence = solver.card_equivalence
        # One table per (deck, hand size, equivalence flag): keys do not carry them.
        table_id = (deck.num_cards, hand_size, solver.card_equivalence)
        self.table = solver._kernel_tables.setdefault(table_id, {})

    def lower_twin(self, card: int, hand: int, live: int) -> int:
        """The next lower live card of ``card``'s suit if ``hand`` holds it, else -1."""
        below = live & self.suit_mask[self.suit_of[card]] & ((1 << card) - 1)
        if not below:
            return -1
        top = below.bit_length() - 1
        return top if hand >> top & 1 else -1

    def value(self, h0: int, h1: int, lead: int, mover: int, t0: int, t1: int,
              alpha: int, beta: int) -> int:
        self.solver._nodes += 1
        half = self.hand_size
        left = half - t0 - t1  # tricks not yet won (the current one included)
        # Best and worst match results still possible for player 0.
        best0 = 2 * (t0 + left) - half
        worst0 = 2 * t0 - half
        hi = 1 if best0 > 0 else (0 if best0 == 0 else -1)
        lo = 1 if worst0 > 0 else (0 if worst0 == 0 else -1)
        if lo == hi:
            return lo
        n = self.n
        key = h0 | h1 << n | (lead + 1) << 2 * n | mover << (2 * n + 6) | t0 << (2 * n + 7)
        entry = self.table.get(key)
        if entry is not None:
            lo, hi = max(lo, entry[0]), min(hi, entry[1])
            if lo == hi:
                return lo
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        alpha0, beta0 = alpha, beta
        hand = h0 if mover == 0 else h1
        suit_of = self.suit_of
        # Move ordering: a follower tries its cards that win the trick first (lowest
        # first), a leader its highest cards first.
        if lead >= 0:
            live = h0 | h1 | 1 << lead
            follow = hand & self.suit_mask[suit_of[lead]]
            if follow:
                above = follow & ~((2 << lead) - 1)
                order = K.cards_of(above) + K.cards_of(follow ^ above)
            else:
                order = K.cards_of(hand)
        else:
            live = h0 | h1
            order = K.cards_of(hand)[::-1]
        maximizing = mover == 0
        best = -2 if maximizing else 2
        for card in order:
            if self.equivalence and self.lower_twin(card, hand, live) >= 0:
                continue
            low = 1 << card
            n0, n1 = (h0 ^ low, h1) if mover == 0 else (h0, h1 ^ low)
            if lead < 0:
                value = self.value(n0, n1, card, 1 - mover, t0, t1, alpha, beta)
            else:
                same = suit_of[card] == suit_of[lead]
                winner = mover if same and card > lead else 1 - mover
                if winner == 0:
                    value = self.value(n0, n1, -1, 0, t0 + 1, t1, alpha, beta)
                else:
                    value = self.value(n0, n1, -1, 1, t0, t1 + 1, alpha, beta)
            if maximizing:
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
            elif value < best:
                best = value
                if value < beta:
                    beta = value
            if alpha >= beta:
                break
        old_lo, old_hi = entry if entry is not None else (-1, 1)
        self.table[key] = _bounds(best, alpha0, beta0, old_lo, old_hi)
        return best


@functools.cache
def _deck_arrays(deck: K.Deck) -> tuple[np.ndarray, np.ndarray]:
    """The deck's suit of each card and card mask of each suit, as int64 arrays."""
    return np.array(deck.suit_of, dtype=np.int64), np.array(deck.suit_mask, dtype=np.int64)


def _kernel_of(state) -> K.TrickState:
    return state if isinstance(state, K.TrickState) else state.kernel


def _check(state, player) -> None:
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player}")
    if isinstance(state, K.TrickState) or isinstance(getattr(state, "kernel", None), K.TrickState):
        return  # trick_game: two players, zero-sum, sequential
    game_type = state.get_game().get_type()
    if state.num_players() != 2 or game_type.utility != pyspiel.GameType.Utility.ZERO_SUM \
            or game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise ValueError(f"state must come from a 2-player zero-sum sequential game, got "
                         f"{game_type.short_name}")


def solve(state, player: int, **options) -> float:
    """``PerfectInfoSolver(**options).solve(state, player)`` with a fresh table."""
    return PerfectInfoSolver(**options).solve(state, player)


def action_values(state, player: int, **options) -> dict[int, float]:
    """``PerfectInfoSolver(**options).action_values(state, player)`` with a fresh table."""
    return PerfectInfoSolver(**options).action_values(state, player)
