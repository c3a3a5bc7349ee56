"""Integer kernel of OpenSpiel's ``leduc_poker`` and a fast world sampler for IS-MCTS.

Serves the IS-MCTS baseline of Ravichandran, Goodman and Lucas, "PIMCTS evaluation in
tabletop games" (docs/papers/pimcts_aggregation.md): the search spends most of its time
sampling worlds with pyspiel's ``resample_from_infostate``; this kernel state implements the
search state protocol (``infosets.core.search_state.SearchState``) with the same rules,
action ids, returns and ``information_state_string`` as OpenSpiel 2.0.2's C++ leduc_poker
(default parameters: 2 players, no suit isomorphism, no action mapping).

Rules as OpenSpiel implements them:
- Six cards 0..5, rank ``card // 2`` (J J Q Q K K). Chance deals player 0's card, then
  player 1's, uniformly among the cards left; the public card is dealt between the rounds.
- Antes 1 each; 100 chips each. Actions: 0 fold (legal only when facing a bet), 1 call/check,
  2 raise (at most 2 per round) by 2 in round 1 and 4 in round 2. Player 0 starts each round.
- A round ends after two checks, or a call after a raise. A fold ends the game: the folder
  loses what it put in. At showdown a pair with the public card wins, else the higher
  private rank; equal ranks split the pot.

Design: the rules act on ``PublicNode`` (what both players see); the 467 public nodes are
enumerated at import (~10 ms) into tables, so a ``LeducKernelState`` is a node id plus two
private cards and every protocol method is a table lookup. ``sample_world`` is the IS-MCTS
sampler (``ISMCTSBot(..., sampler=leduc_kernel_sampler)``).

The same tables, as numpy arrays, drive the numba kernel of the compiled search engine
(``infosets.search.compiled``): a state is an int64 array ``[node, card0, card1, history
length, history...]`` and the ``nb_*`` functions are the kernel interface (see
``infosets.games.kernels``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games.kernels import Kernel

CHANCE = -1  # pyspiel.PlayerId.CHANCE
TERMINAL = -4  # pyspiel.PlayerId.TERMINAL
FOLD, CALL, RAISE = 0, 1, 2
NUM_CARDS = 6
STARTING_MONEY = 100
ANTE = 1
RAISE_AMOUNTS = (0, 2, 4)  # by round (1-based)
MAX_RAISES = 2
NO_CARD = -10000  # what OpenSpiel prints for a private card not yet dealt
_DECK = tuple(range(NUM_CARDS))
_CACHE_LIMIT = 4096


_ACTION_TEXT = (" 0", " 1", " 2")  # each round's betting is kept with a leading space
_OUTCOMES: dict[int, tuple[tuple[int, float], ...]] = {}  # mask of dealt cards -> outcomes


def _chance_outcomes(dealt: int) -> tuple[tuple[int, float], ...]:
    outcomes = _OUTCOMES.get(dealt)
    if outcomes is None:
        left = [c for c in _DECK if not dealt >> c & 1]
        outcomes = _OUTCOMES[dealt] = tuple((c, 1.0 / len(left)) for c in left)
    return outcomes


@dataclass(frozen=True)
class PublicNode:
    """Everything both players see: the rules act on these; the private cards live apart.

    ``dealt`` counts private cards dealt (0, 1, 2); ``betting1``/``betting2`` hold each
    round's actions with a leading space; ``folded`` is the folder or -1.
    """

    dealt: int = 0
    public: int = NO_CARD
    round: int = 1
    player: int = CHANCE
    contrib0: int = ANTE
    contrib1: int = ANTE
    stakes: int = ANTE
    raises: int = 0
    calls: int = 0
    betting1: str = ""
    betting2: str = ""
    folded: int = -1

    def legal_actions(self) -> tuple[int, ...]:
        """Player actions (chance outcomes depend on the private cards: not listed here)."""
        if self.player < 0:
            return ()
        facing_bet = self.stakes > (self.contrib1 if self.player else self.contrib0)
        return ((FOLD,) if facing_bet else ()) + (CALL,) + ((RAISE,) if self.raises < MAX_RAISES else ())

    def child(self, action: int) -> PublicNode:
        """The public node after ``action`` (a card at chance nodes)."""
        player = self.player
        if player == CHANCE:
            if self.dealt < 2:
                return replace(self, dealt=self.dealt + 1, player=0 if self.dealt == 1 else CHANCE)
            return replace(self, public=action, player=0)
        text = _ACTION_TEXT[action]
        node = (replace(self, betting1=self.betting1 + text) if self.round == 1
                else replace(self, betting2=self.betting2 + text))
        if action == FOLD:
            return replace(node, folded=player, player=TERMINAL)
        contrib = "contrib1" if player else "contrib0"
        if action == RAISE:
            stakes = self.stakes + RAISE_AMOUNTS[self.round]
            return replace(node, raises=self.raises + 1, stakes=stakes, calls=0, player=1 - player,
                           **{contrib: stakes})
        node = replace(node, calls=self.calls + 1, **{contrib: self.stakes})
        if node.calls < (2 if self.raises == 0 else 1):
            return replace(node, player=1 - player)
        if self.round == 2:  # the betting round is over
            return replace(node, player=TERMINAL)
        return replace(node, round=2, raises=0, calls=0, player=CHANCE)

    def information_text(self) -> str:
        """OpenSpiel's information state string after ``[Observer: p][Private: c]``."""
        c0, c1 = self.contrib0, self.contrib1
        public = "" if self.public == NO_CARD else f"[Public: {self.public}]"
        return (f"[Round {self.round}][Player: {self.player}][Pot: {c0 + c1}]"
                f"[Money: {STARTING_MONEY - c0} {STARTING_MONEY - c1}]{public}"
                f"[Round1: {self.betting1[1:]}][Round2: {self.betting2[1:]}]")


def _public_tree():
    """Every public node, numbered breadth-first from the start, with the tables the kernel
    reads: children, mover, legal actions, information strings, terminal data."""
    nodes = [PublicNode()]
    index = {nodes[0]: 0}
    children = []
    for node in nodes:  # grows while iterating
        row = []
        if node.player != TERMINAL:
            actions = _DECK if node.player == CHANCE else node.legal_actions()
            row = [None] * NUM_CARDS
            for action in actions:
                child = node.child(action)
                if child not in index:
                    index[child] = len(nodes)
                    nodes.append(child)
                row[action] = index[child]
        children.append(row)
    info = [tuple(tuple(f"[Observer: {p}][Private: {c}]{node.information_text()}"
                        for c in (*_DECK, NO_CARD)) for p in (0, 1)) for node in nodes]
    deal = [node.dealt if node.player == CHANCE and node.dealt < 2 else -1 for node in nodes]
    legal = [None if node.player == CHANCE else node.legal_actions() for node in nodes]
    ends = [(node.folded, node.contrib0, node.contrib1, node.public // 2) for node in nodes]
    return nodes, children, [n.player for n in nodes], legal, info, deal, ends


PUBLIC_NODES, _CHILDREN, _PLAYER, _LEGAL, _INFO, _DEAL, _ENDS = _public_tree()


class LeducKernelState:
    """A leduc_poker state: a public node id plus the two private cards.

    Methods mirror ``pyspiel.State``'s names. ``legal_actions`` and ``chance_outcomes``
    return shared tuples: do not mutate them. ``apply_action`` trusts its action to be legal
    (the search only applies listed actions); pyspiel checks, this hot path does not.
    """

    __slots__ = ("node", "player", "card0", "card1", "actions")

    def __init__(self):
        self.node = 0
        self.player = CHANCE
        self.card0 = self.card1 = NO_CARD
        self.actions = []  # the history, as pyspiel action ids

    @property
    def public(self) -> int:
        """The public card (``NO_CARD`` before round 2)."""
        return PUBLIC_NODES[self.node].public

    def history(self) -> list[int]:
        """All actions so far, chance included (as ``pyspiel.State.history``)."""
        return self.actions[:]

    def card(self, player: int) -> int:
        """``player``'s private card (``NO_CARD`` before the deal)."""
        return self.card1 if player else self.card0

    # -- protocol ------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def legal_actions(self) -> tuple[int, ...]:
        legal = _LEGAL[self.node]
        if legal is None:
            return tuple(c for c, _ in self.chance_outcomes())
        return legal

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        if self.player != CHANCE:
            return ()
        dealt = 0
        for c in (self.card0, self.card1, PUBLIC_NODES[self.node].public):
            if c != NO_CARD:
                dealt |= 1 << c
        return _chance_outcomes(dealt)

    def apply_action(self, action: int) -> None:
        self.actions.append(action)
        node = self.node
        deal = _DEAL[node]
        if deal >= 0:
            if deal:
                self.card1 = action
            else:
                self.card0 = action
        self.node = node = _CHILDREN[node][action]
        self.player = _PLAYER[node]

    def returns(self) -> list[float]:
        if self.player != TERMINAL:
            return [0.0, 0.0]
        folded, c0, c1, public_rank = _ENDS[self.node]
        if folded == 0:
            return [float(-c0), float(c0)]
        if folded == 1:
            return [float(c1), float(-c1)]
        s0, s1 = self.card0 // 2, self.card1 // 2
        if s0 == public_rank:
            s0 += 10
        if s1 == public_rank:
            s1 += 10
        if s0 > s1:
            return [float(c1), float(-c1)]
        if s1 > s0:
            return [float(-c0), float(c0)]
        return [0.0, 0.0]

    def information_state_string(self, player: int) -> str:
        card = self.card1 if player else self.card0
        return _INFO[self.node][player][card if card >= 0 else NUM_CARDS]

    def clone(self) -> LeducKernelState:
        new = _new(LeducKernelState)
        new.node, new.player, new.card0, new.card1 = self.node, self.player, self.card0, self.card1
        new.actions = self.actions[:]
        return new

    def __str__(self) -> str:
        return f"LeducKernelState(history={self.actions})"


_new = object.__new__


def from_history(history) -> LeducKernelState:
    """The kernel state reached by playing ``history`` (pyspiel action ids) from the start."""
    state = LeducKernelState()
    for action in history:
        state.apply_action(int(action))
    return state


def from_pyspiel(state) -> LeducKernelState:
    """The kernel state with the same history as a pyspiel leduc_poker (or kernel) state."""
    return from_history(state.history())


_TEMPLATES: dict[tuple, tuple] = {}  # (history, player) -> (kernel state, opponent cards)


def _template(state, player: int) -> tuple[LeducKernelState, tuple[int, ...]]:
    """Kernel copy of ``state`` (pyspiel or kernel) and the opponent cards ``player`` cannot
    rule out, cached by history for pyspiel states."""
    if isinstance(state, LeducKernelState):
        return state, _opponent_cards(state, player)
    key = (tuple(state.history()), player)
    entry = _TEMPLATES.get(key)
    if entry is None:
        if len(_TEMPLATES) >= _CACHE_LIMIT:
            _TEMPLATES.clear()
        kernel = from_history(key[0])
        entry = _TEMPLATES[key] = (kernel, _opponent_cards(kernel, player))
    return entry


def _opponent_cards(state: LeducKernelState, player: int) -> tuple[int, ...]:
    if state.card1 == NO_CARD:
        raise ValueError("state: both private cards must be dealt before sampling a world")
    own = state.card(player)
    public = state.public
    return tuple(c for c in _DECK if c != own and c != public)


def sample_world(state, player: int, rng) -> LeducKernelState:
    """A kernel world consistent with ``player``'s information state in ``state``.

    Same distribution as pyspiel's ``resample_from_infostate``: public history and
    ``player``'s card kept, the opponent's card uniform among the cards that are neither
    ``player``'s nor the public card; an undealt public card is left to chance.

    Args:
      state: a pyspiel leduc_poker state or a ``LeducKernelState``, both private cards dealt.
      player: 0 or 1.
      rng: anything with ``random()`` in [0, 1) (numpy Generator or ``random.Random``).
    """
    if player != 0 and player != 1:
        raise ValueError(f"player: must be 0 or 1, got {player!r}")
    template, opponent_cards = _template(state, player)
    world = template.clone()
    card = opponent_cards[int(rng.random() * len(opponent_cards))]
    if player:
        world.card0 = card
    else:
        world.card1 = card
    return world


leduc_kernel_sampler = sample_world


# -- numba kernel ------------------------------------------------------------------------
# State array: [public node, card0, card1, history length, history (MAX_HISTORY slots)].
MAX_HISTORY = 16  # 3 chance cards + at most 4 actions per betting round, with room to spare
STATE_SIZE = 4 + MAX_HISTORY
NUM_ACTIONS = NUM_CARDS  # the longest legal list (a chance node over the six cards)
NUM_NODES = len(PUBLIC_NODES)
T_CHILDREN = np.array([[(-1 if c is None else c) for c in (row or [None] * NUM_CARDS)]
                       for row in _CHILDREN], dtype=np.int64)
T_PLAYER = np.array(_PLAYER, dtype=np.int64)
T_NLEGAL = np.array([0 if legal is None else len(legal) for legal in _LEGAL], dtype=np.int64)
T_LEGAL = np.array([list(legal or ()) + [-1] * (3 - len(legal or ())) for legal in _LEGAL], dtype=np.int64)
T_DEAL = np.array(_DEAL, dtype=np.int64)
T_ENDS = np.array(_ENDS, dtype=np.int64)  # folded, contrib0, contrib1, public rank
T_PUBLIC = np.array([node.public for node in PUBLIC_NODES], dtype=np.int64)


def new_state() -> np.ndarray:
    """The initial state array (chance deals player 0's card)."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[1] = state[2] = NO_CARD
    return state


@nb.njit(cache=True)
def nb_current_player(s):
    return T_PLAYER[s[0]]


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    """Legal actions (cards at chance nodes) in ascending order into ``buf``; their number."""
    node = s[0]
    if T_PLAYER[node] == CHANCE:
        n = 0
        public = T_PUBLIC[node]
        for c in range(NUM_CARDS):
            if c != s[1] and c != s[2] and c != public:
                buf[n] = c
                n += 1
        return n
    n = T_NLEGAL[node]
    for i in range(n):
        buf[i] = T_LEGAL[node, i]
    return n


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    """Chance outcomes (uniform over the undealt cards) as OpenSpiel lists them."""
    n = nb_legal_actions(s, actions)
    p = 1.0 / n
    for i in range(n):
        probs[i] = p
    return n


@nb.njit(cache=True)
def nb_apply_action(s, action):
    node = s[0]
    h = s[3]
    s[4 + h] = action
    s[3] = h + 1
    deal = T_DEAL[node]
    if deal == 0:
        s[1] = action
    elif deal == 1:
        s[2] = action
    s[0] = T_CHILDREN[node, action]


@nb.njit(cache=True)
def _showdown(s, contrib0, contrib1, public_rank, out):
    s0, s1 = s[1] // 2, s[2] // 2
    if s0 == public_rank:
        s0 += 10
    if s1 == public_rank:
        s1 += 10
    if s0 > s1:
        out[0], out[1] = contrib1, -contrib1
    elif s1 > s0:
        out[0], out[1] = -contrib0, contrib0
    else:
        out[0], out[1] = 0.0, 0.0


@nb.njit(cache=True)
def nb_returns(s, out):
    """Returns into ``out`` (zeros before the end), as OpenSpiel's ``returns()``."""
    node = s[0]
    out[0], out[1] = 0.0, 0.0
    if T_PLAYER[node] != TERMINAL:
        return
    folded, c0, c1, public_rank = T_ENDS[node, 0], T_ENDS[node, 1], T_ENDS[node, 2], T_ENDS[node, 3]
    if folded == 0:
        out[0], out[1] = -c0, c0
    elif folded == 1:
        out[0], out[1] = c1, -c1
    else:
        _showdown(s, c0, c1, public_rank, out)


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """Cut-off score on the returns' scale: what a showdown now would pay with the chips in
    the pot (the pair with the public card if dealt, else the higher private rank); the
    returns at the end; zeros before both cards are dealt."""
    node = s[0]
    if T_PLAYER[node] == TERMINAL:
        nb_returns(s, out)
        return
    out[0], out[1] = 0.0, 0.0
    if s[2] == NO_CARD:
        return
    public = T_PUBLIC[node]
    _showdown(s, T_ENDS[node, 1], T_ENDS[node, 2], public // 2 if public >= 0 else -1, out)


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """An integer that identifies ``player``'s information state (injective)."""
    card = s[1 + player]
    return (player * NUM_NODES + s[0]) * (NUM_CARDS + 1) + (card if card >= 0 else NUM_CARDS)


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """Redeal the opponent's card in place, uniform among the cards that are neither
    ``player``'s nor the public card (as ``resample_from_infostate``); both must be dealt."""
    own = s[1 + player]
    public = T_PUBLIC[s[0]]
    n = 0
    for c in range(NUM_CARDS):
        if c != own and c != public:
            n += 1
    k = rng_bounded(rng, n)
    for c in range(NUM_CARDS):
        if c != own and c != public:
            if k == 0:
                s[2 - player] = c
                s[4 + 1 - player] = c  # the opponent's deal in the history
                break
            k -= 1


def array_from_history(history) -> np.ndarray:
    """The state array reached by playing ``history`` (pyspiel action ids)."""
    state = new_state()
    for action in history:
        nb_apply_action(state, int(action))
    return state


def array_infostate_string(s: np.ndarray, player: int) -> str:
    """OpenSpiel's ``information_state_string(player)`` of a state array."""
    card = int(s[1 + player])
    return _INFO[int(s[0])][player][card if card >= 0 else NUM_CARDS]


def array_history(s: np.ndarray) -> list[int]:
    return [int(a) for a in s[4:4 + s[3]]]

# -- the engine's view of this game (infosets.games.kernels) --------------------------------
RULES = sys.modules[__name__]  # the jitted functions the compiled engine calls


def kernel_for(game) -> Kernel | None:
    """This game's kernel for a loaded pyspiel ``game``, or None where the kernel does not
    cover its parameters (``infosets.games.kernels.kernel_for``)."""
    params = game.get_parameters()
    if params.get("players", 2) != 2 or params.get("action_mapping") or params.get("suit_isomorphism"):
        return None
    return Kernel("leduc_poker", RULES, 2, NUM_ACTIONS, array_from_history,
                  array_history, array_infostate_string)
