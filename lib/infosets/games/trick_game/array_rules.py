"""A state of the card game "CG nC" (``trick_game``) for Python code: the kernel's array, its rules.

Follows the trick-taking benchmark of Arjonilla, Saffidine and Cazenave, "Mixture of public
and private distributions in imperfect information games" (2024), section 4.1.1, as read in
docs/papers/belief_mixtures.md. The rules are written once, in numba, in ``kernel.py`` (its
docstring states them); the deck's tables are ``deck.py``'s. ``TrickState`` holds one state
array of that kernel and answers through its jitted functions, with the fields as Python ints:
the pyspiel adapter (``game.py``), the Python reference searches (``SearchState`` protocol of
``infosets.core.search_state``) and the exact solvers (``infosets.search.solvers``) read it.
"""

from __future__ import annotations

import numpy as np

from infosets.games.trick_game import kernel as tk
from infosets.games.trick_game.deck import (  # noqa: F401  (re-exported for the readers of states)
    CHANCE,
    MAX_CARDS,
    TERMINAL,
    Deck,
    cards_of,
    check_sizes,
    make_deck,
    popcount,
)

_new = object.__new__
_HANDS, _DEALT, _TRICKS, _VOIDS = tk.HANDS, tk.DEALT, tk.TRICKS, tk.VOIDS


class TrickState:
    """A mutable game state: one ``kernel`` state array (``s``) played by the kernel's rules.

    Read-only fields (Python ints and lists, read from the array):
      deck: the static card tables.
      hand_size: cards dealt to each player.
      dealt: the two initial hands (bitmasks; partial during the deal).
      hands: the two current hands (bitmasks).
      plays: card ids played so far, in order.
      lead: card led in the current trick, or -1 when the trick is empty.
      player: player to move (0 or 1), CHANCE during the deal, TERMINAL at the end.
      tricks: tricks won by each player.
      voids: per player, a 4-bit mask of the suits that player has shown void in.
    """

    __slots__ = ("s", "deck", "hand_size")
    # The rules, bound once, and the buffers they fill (handed out as copies).
    _apply = staticmethod(tk.nb_apply_action)
    _legal_actions = staticmethod(tk.nb_legal_actions)
    _chance_outcomes = staticmethod(tk.nb_chance_outcomes)
    _returns = staticmethod(tk.nb_returns)
    _apply_if_legal = staticmethod(tk.apply_if_legal)
    _actions = np.zeros(MAX_CARDS, np.int64)
    _probs = np.zeros(MAX_CARDS, np.float64)
    _out = np.zeros(2, np.float64)

    def __init__(self, num_cards: int, hand_size: int):
        self.s = tk.new_state(num_cards, hand_size)
        self.deck = make_deck(num_cards)
        self.hand_size = hand_size

    @classmethod
    def wrap(cls, s: np.ndarray) -> TrickState:
        """The state holding kernel array ``s`` (not copied)."""
        state = _new(cls)
        state.s = s
        state.deck = make_deck(int(s[tk.NUM_CARDS]))
        state.hand_size = int(s[tk.HAND_SIZE])
        return state

    def copy(self) -> TrickState:
        new = _new(TrickState)
        new.s = self.s.copy()
        new.deck = self.deck
        new.hand_size = self.hand_size
        return new

    def __deepcopy__(self, memo) -> TrickState:
        return self.copy()

    # --- fields --------------------------------------------------------------------------
    player = property(lambda self: self.s.item(tk.PLAYER))
    lead = property(lambda self: self.s.item(tk.LEAD))
    dealt = property(lambda self: self.s[_DEALT:_DEALT + 2].tolist())
    hands = property(lambda self: self.s[_HANDS:_HANDS + 2].tolist())
    tricks = property(lambda self: self.s[_TRICKS:_TRICKS + 2].tolist())
    voids = property(lambda self: self.s[_VOIDS:_VOIDS + 2].tolist())

    @property
    def plays(self) -> list[int]:
        base = tk._HEADER + 2 * self.hand_size
        return self.s[base:base + self.s.item(tk.NPLAYS)].tolist()

    # --- queries -------------------------------------------------------------------------
    def is_chance(self) -> bool:
        return self.s.item(tk.PLAYER) == CHANCE

    def is_terminal(self) -> bool:
        return self.s.item(tk.PLAYER) == TERMINAL

    def num_dealt(self) -> int:
        return self.s.item(tk.NDEALS)

    def undealt_mask(self) -> int:
        """Cards not dealt to anyone (so far)."""
        return self.deck.full_mask & ~(self.s.item(_DEALT) | self.s.item(_DEALT + 1))

    def played_mask(self) -> int:
        mask = 0
        for card in self.plays:
            mask |= 1 << card
        return mask

    def legal_mask(self) -> int:
        """Bitmask of the legal cards of the player to move (0 at chance/terminal)."""
        return tk._legal_mask(self.s)

    def legal_actions(self) -> list[int]:
        """The legal cards, or the cards still to deal at a chance node."""
        buf = self._actions
        return buf[:self._legal_actions(self.s, buf)].tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        actions, probs = self._actions, self._probs
        count = self._chance_outcomes(self.s, actions, probs)
        return list(zip(actions[:count].tolist(), probs[:count].tolist()))

    def returns(self) -> list[float]:
        """[+1, -1], [-1, +1] or [0, 0] at the end; [0, 0] before."""
        out = self._out
        self._returns(self.s, out)
        return out.tolist()

    def plays_string(self) -> str:
        """Plays as ``player:card`` grouped by trick, e.g. ``0:CA 1:C9 | 0:DK``."""
        names, movers = self.deck.names, self._actions
        count = tk.play_movers(self.s, movers)
        out = []
        for i, (mover, card) in enumerate(zip(movers[:count].tolist(), self.plays)):
            if i and i % 2 == 0:
                out.append("|")
            out.append(f"{mover}:{names[card]}")
        return " ".join(out)

    def information_state_string(self, player: int) -> str:
        """The player's dealt hand and every play (what the pyspiel adapter returns)."""
        dealing = f" dealt:{self.num_dealt()}" if self.is_chance() else ""
        return (f"p{player} hand:{self.deck.card_string(self.s.item(_DEALT + player))}{dealing} "
                f"plays:{self.plays_string()}")

    def trick_leader(self) -> int:
        """Player who led (or will lead) the current trick."""
        if self.lead < 0:
            return self.player
        return 1 - self.player

    # --- transitions ---------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Deals card ``action`` (chance node) or plays it (decision node). No legality check."""
        self._apply(self.s, action)

    # --- the SearchState protocol of infosets.core.search_state (pyspiel names) -------
    def current_player(self) -> int:
        return self.s.item(tk.PLAYER)

    def is_chance_node(self) -> bool:
        return self.s.item(tk.PLAYER) == CHANCE

    apply_action = apply
    clone = copy

    def child(self, action: int) -> TrickState:
        new = self.copy()
        new.apply(action)
        return new

    def check_legal(self, action: int) -> None:
        """Raises ValueError if ``action`` is not legal here."""
        if self.s.item(tk.PLAYER) == TERMINAL:
            raise ValueError("action: the game is over")
        legal = tk.legal_mask(self.s)
        if not 0 <= action < self.deck.num_cards or not legal >> action & 1:
            raise ValueError(f"action must be one of {cards_of(legal)}, got {action}")

    def apply_legal(self, action: int) -> None:
        """``check_legal(action)`` then ``apply(action)``, in one call of the kernel."""
        if not (0 <= action < self.deck.num_cards and self._apply_if_legal(self.s, action)):
            self.check_legal(action)  # raises the ValueError naming the legal actions


def from_deal(num_cards: int, hand_size: int, hands: tuple[int, int],
              plays: list[int] | tuple[int, ...] = ()) -> TrickState:
    """The state after dealing ``hands`` (bitmasks; a partial deal is allowed only in
    dealing order) and playing ``plays``; raises ValueError on an illegal sequence."""
    state = TrickState(num_cards, hand_size)
    n0, n1 = popcount(hands[0]), popcount(hands[1])
    if hands[0] & hands[1] or hands[0] >> num_cards or hands[1] >> num_cards or \
            n0 > hand_size or n1 > hand_size or (n1 and n0 < hand_size):
        raise ValueError(f"hands must be disjoint masks of at most hand_size={hand_size} "
                         f"cards below {num_cards} (hand 0 full before hand 1), got "
                         f"{hands[0]:#x}, {hands[1]:#x}")
    for card in deal_actions(hands) + list(plays):
        state.apply_legal(card)
    return state


def deal_actions(hands: tuple[int, int]) -> list[int]:
    """Canonical chance actions that deal ``hands``: player 0's cards then player 1's,
    each ascending."""
    return cards_of(hands[0]) + cards_of(hands[1])


def random_playout(state: TrickState, rng) -> list[float]:
    """Plays ``state`` to the end in place with uniform random deals and moves.

    Args:
      state: the state to advance (modified).
      rng: anything with ``random()`` uniform in [0, 1): a ``numpy.random.Generator``, or a
        seeded ``random.Random`` (several times faster per draw).
    Returns:
      The returns at the end.
    """
    while not state.is_terminal():
        options = state.legal_actions()
        state.apply(options[int(rng.random() * len(options))])
    return state.returns()
