"""The pyspiel adapter of two-player Belote (game ``belote2p``), on the numba kernel's rules.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md). Chance deals the 32 slots one card at a time with the exact conditional
probabilities of a uniform fair deal, then draws the first leader (action 0 or 1). A player
action is a card id 0..31 (``rules.card_name``). Returns are each player's points, 0..162
(constant sum 162).

A state is the kernel's state array (``belote2p/kernel.py``): the mover, the legal cards, the
chance outcomes, a move and the returns are the kernel's jitted functions, the very rules the
compiled engine runs; the strings, tensors and the world sampler read the array's fields
(``state.kernel`` is a ``position.Position`` on it).

Parameters: ``min_trumps`` (default 2, the authors' code; 3 in the text), ``points_lo`` and
``points_hi`` (66 and 86): the fair-deal constraint per side.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from . import deal as deal_lib
from . import kernel as K
from .position import Position
from .rules import (
    HAND_SIZE,
    NUM_CARDS,
    NUM_PILES,
    NUM_TRICKS,
    TOTAL_POINTS,
    card_name,
    cards_of,
)

GAME_NAME = "belote2p"
_DEFAULTS = {"min_trumps": 2, "points_lo": 66, "points_hi": 86}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Two-player Belote (Boudier)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=NUM_CARDS,
    max_chance_outcomes=NUM_CARDS,
    num_players=2,
    min_utility=0.0,
    max_utility=float(TOTAL_POINTS),
    utility_sum=float(TOTAL_POINTS),
    max_game_length=2 * NUM_TRICKS,
)

_LEADER_SLOT = NUM_CARDS  # the chance node after the 32 deal slots draws the first leader
# buffers the kernel fills (the lists handed out are copies)
_ACTIONS = np.zeros(NUM_CARDS, np.int64)
_PROBS = np.zeros(NUM_CARDS, np.float64)
_RETURNS = np.zeros(2, np.float64)
_TO_MOVE = K.TO_MOVE


def _names(cards) -> str:
    return " ".join(card_name(c) for c in cards)


class BeloteGame(pyspiel.Game):
    """Two-player Belote; see the module docstring."""

    def __init__(self, params=None):
        values = dict(_DEFAULTS)
        values.update(params or {})
        self.constraint = deal_lib.DealConstraint(
            int(values["min_trumps"]), int(values["points_lo"]), int(values["points_hi"])
        )
        super().__init__(_GAME_TYPE, _GAME_INFO, values)

    def new_initial_state(self):
        return BeloteState(self)

    def new_state_from_deal(self, deal, first_leader: int) -> BeloteState:
        """A state right after chance: ``deal`` (32 cards, slot order) and the first leader.

        The deal is applied as its 33 chance outcomes, so ``history()`` rebuilds the state.
        """
        deal = [int(c) for c in deal]
        if sorted(deal) != list(range(NUM_CARDS)) or not self.constraint.is_fair(deal):
            raise ValueError("deal must be the 32 cards and meet the game's deal constraint")
        if first_leader not in (0, 1):
            raise ValueError(f"first_leader must be 0 or 1, got {first_leader!r}")
        return _dealt_state(self, deal, first_leader)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return BeloteObserver(perfect_recall)


class BeloteState(pyspiel.State):
    """A Belote state: the kernel's state array ``s`` (the deal in progress, then the position
    with the record of the deal and of every play)."""

    def __init__(self, game: BeloteGame):
        super().__init__(game)
        self.constraint = c = game.constraint
        self.s = K.new_state(c.min_trumps, c.points_lo, c.points_hi)

    # -- the record, read from the array ------------------------------------------------
    @property
    def kernel(self) -> Position | None:
        """The position (on this state's array), None while chance deals."""
        return Position(self.s) if self.s[K.NDEALT] == K.DEALT else None

    @property
    def deal(self) -> list[int]:
        """The cards dealt so far, in slot order."""
        return self.s[K.DEAL:K.DEAL + min(int(self.s[K.NDEALT]), NUM_CARDS)].tolist()

    @property
    def first_leader(self) -> int:
        return int(self.s[K.FIRST_LEADER]) if self.s[K.NDEALT] == K.DEALT else -1

    @property
    def plays(self) -> list[tuple[int, int, int, int]]:
        """One entry per card played: (player, card, revealed card or -1, trick winner or -1).
        A trick's winner is the next trick's leader (the last trick's: ``LEADER``)."""
        s = self.s
        n = int(s[K.NPLAYS])
        movers = s[K.PLAY_MOVER:K.PLAY_MOVER + n].tolist()
        cards = s[K.PLAY_CARD:K.PLAY_CARD + n].tolist()
        reveals = s[K.PLAY_REVEAL:K.PLAY_REVEAL + n].tolist()
        out = []
        for i in range(n):
            winner = -1
            if i % 2:
                winner = movers[i + 1] if i + 1 < n else int(s[K.LEADER])
            out.append((movers[i], cards[i], reveals[i], winner))
        return out

    # -- pyspiel API ------------------------------------------------------------------
    def current_player(self):
        return self.s.item(_TO_MOVE)

    def _legal_actions(self, player):
        return _ACTIONS[: K.nb_legal_actions(self.s, _ACTIONS)].tolist()

    def chance_outcomes(self):
        count = K.nb_chance_outcomes(self.s, _ACTIONS, _PROBS)
        return list(zip(_ACTIONS[:count].tolist(), _PROBS[:count].tolist()))

    def _apply_action(self, action):
        if not K.apply_if_legal(self.s, action):
            raise ValueError(f"card {action!r} is not legal here")

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if self.s[K.NDEALT] == _LEADER_SLOT:
                return f"first leader {action}"
            return f"deal {card_name(action)}"
        return card_name(action)

    def is_terminal(self):
        return self.s.item(_TO_MOVE) == K.TERMINAL

    def returns(self):
        K.nb_returns(self.s, _RETURNS)
        return _RETURNS.tolist()

    def __str__(self):
        if self.s[K.NDEALT] != K.DEALT:
            return f"dealing: {_names(self.deal)}"
        k = Position(self.s)
        rows = []
        for p in (0, 1):
            rows.append(
                f"P{p} hand [{_names(cards_of(k.hand[p]))}] up [{_names(cards_of(k.up[p]))}] "
                f"down [{_names(cards_of(k.down[p]))}] points {k.score(p)}"
            )
        lead = card_name(k.lead) if k.lead >= 0 else "-"
        rows.append(f"trick {k.trick + 1} lead {lead} to move {k.to_move}")
        return "\n".join(rows)

    # -- helpers for search and play -------------------------------------------------
    def initial_hand(self, player: int) -> list[int]:
        """The player's six hand cards at the deal, sorted (the deal order is not seen)."""
        return sorted(self.deal[16 * player:16 * player + HAND_SIZE])

    def initial_tops(self, player: int) -> list[int]:
        base = 16 * player + HAND_SIZE
        return self.deal[base:base + NUM_PILES]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A world consistent with ``player_id``'s information state.

        The hidden slots (the opponent's unplayed hand cards and every covered face-down card)
        are reshuffled, rejecting deals the game's constraint forbids, so the result follows
        the chance posterior. ``probability_sampler`` is a callable returning floats in
        [0, 1) (e.g. ``pyspiel.UniformProbabilitySampler(seed, 0., 1.)``) or a numpy Generator.
        """
        if isinstance(probability_sampler, np.random.Generator):
            rng = probability_sampler
        else:
            rng = np.random.default_rng(int(probability_sampler() * 2**53))
        return sample_world(self, player_id, rng)


def _dealt_state(game: BeloteGame, deal: list[int], first_leader: int) -> BeloteState:
    """The state after chance dealt ``deal`` and drew ``first_leader``, through its chance
    actions: a world's ``history()`` starts with its deal, so equal histories mean equal worlds."""
    state = BeloteState(game)
    for card in deal:
        state.apply_action(card)
    state.apply_action(first_leader)
    return state


def hidden_slots(state: BeloteState, player: int) -> list[int]:
    """The deal slots whose card ``player`` cannot see in ``state``."""
    k = state.kernel
    if k is None:
        raise ValueError("hidden_slots needs a state after the deal")
    deal = state.deal
    opp = 1 - player
    slots = [16 * opp + i for i in range(HAND_SIZE) if k.hand[opp] >> deal[16 * opp + i] & 1]
    for p in (0, 1):
        for i in range(NUM_PILES):
            slot = 16 * p + HAND_SIZE + NUM_PILES + i
            if k.down[p] >> deal[slot] & 1:
                slots.append(slot)
    return slots


def sample_world(state: BeloteState, player: int, rng: np.random.Generator,
                 respect_constraint: bool = True) -> BeloteState:
    """A world consistent with ``player``'s information state, uniformly at random.

    The cards ``player`` cannot see are redealt to their slots: the opponent's unplayed hand
    slots get a uniform subset of the cards its past replies allow (a player that did not
    follow suit holds none of that suit, and so on: the kernel's record ``EXCL``), the covered
    pile slots get the rest in a uniform order; worlds breaking the deal constraint are
    rejected. The history is replayed on the new deal. This is the exact resampler
    (``resample_from_infostate``); the searches of belote_ismcts use the paper's
    unconstrained shuffle instead: the kernel's ``nb_determinize`` (compiled IS-MCTS) and
    ``search.belote_bots.determinize`` (PIMC), see there.

    Args:
      state: a state after the deal.
      player: 0 or 1, whose information state is kept.
      rng: numpy Generator.
      respect_constraint: reject worlds whose deal breaks the game's deal constraint.
    Returns:
      A new BeloteState with the same information state for ``player``.
    """
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    slots = hidden_slots(state, player)
    opp = 1 - player
    hand_slots = [s for s in slots if 16 * opp <= s < 16 * opp + HAND_SIZE]
    pile_slots = slots[len(hand_slots):]
    deal = state.deal
    cards = [deal[s] for s in slots]
    excluded = state.kernel.excluded(opp)
    allowed = [c for c in cards if not excluded >> c & 1]
    new_deal = list(deal)
    while True:
        chosen = [int(c) for c in rng.choice(allowed, size=len(hand_slots), replace=False)]
        taken = set(chosen)
        rest = [c for c in cards if c not in taken]
        for s, c in zip(hand_slots, chosen):
            new_deal[s] = c
        for s, c in zip(pile_slots, rng.permutation(rest)):
            new_deal[s] = int(c)
        if not respect_constraint or state.constraint.is_fair(new_deal):
            break
    world = _dealt_state(state.get_game(), new_deal, state.first_leader)
    for card in state.s[K.PLAY_CARD:K.PLAY_CARD + state.s[K.NPLAYS]].tolist():
        world.apply_action(card)
    return world


class BeloteObserver:
    """Strings and tensors for one player: the information state (perfect recall) or the observation.

    Tensor layouts (card vectors have 32 entries, ``rules.card_name`` order):

    * observation: player (2) one-hot; dealing (1) 1 while the deal is in progress;
      hand (32) the cards in hand; up (2, 32) each player's face-up pile cards; trick (17)
      one-hot number of completed tricks; lead (32) one-hot card led in the current trick;
      leader (2) one-hot leader of the current trick; points (2) card points won so far.
      During the deal, ``hand`` holds the player's hand cards dealt so far and ``up`` the
      pile tops dealt so far.
    * information state: player (2); dealing (1); hand (32) the hand as dealt; tops (2, 32)
      each player's pile tops as dealt; first_leader (2); plays (32, 66): one row per card
      played, in order: the mover (2), the card (32) and the card its play uncovered (32).
    """

    def __init__(self, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        if perfect_recall:
            pieces = [("player", (2,)), ("dealing", (1,)), ("hand", (NUM_CARDS,)),
                      ("tops", (2, NUM_CARDS)), ("first_leader", (2,)),
                      ("plays", (2 * NUM_TRICKS, 2 + 2 * NUM_CARDS))]
        else:
            pieces = [("player", (2,)), ("dealing", (1,)), ("hand", (NUM_CARDS,)),
                      ("up", (2, NUM_CARDS)), ("trick", (NUM_TRICKS + 1,)), ("lead", (NUM_CARDS,)),
                      ("leader", (2,)), ("points", (2,))]
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict = {}
        index = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[index:index + size].reshape(shape)
            index += size

    def set_from(self, state, player):
        d = self.dict
        self.tensor.fill(0)
        d["player"][player] = 1
        if state.kernel is None:
            d["dealing"][0] = 1
            tops = d["tops"] if self.perfect_recall else d["up"]
            for slot, card in enumerate(state.deal):
                owner, index = divmod(slot, 16)
                if owner == player and index < HAND_SIZE:
                    d["hand"][card] = 1
                elif HAND_SIZE <= index < HAND_SIZE + NUM_PILES:
                    tops[owner, card] = 1
            return
        if self.perfect_recall:
            d["hand"][state.initial_hand(player)] = 1
            for p in (0, 1):
                d["tops"][p, state.initial_tops(p)] = 1
            d["first_leader"][state.first_leader] = 1
            for i, (mover, card, revealed, _) in enumerate(state.plays):
                d["plays"][i, mover] = 1
                d["plays"][i, 2 + card] = 1
                if revealed >= 0:
                    d["plays"][i, 2 + NUM_CARDS + revealed] = 1
            return
        k = state.kernel
        d["hand"][cards_of(k.hand[player])] = 1
        for p in (0, 1):
            d["up"][p, cards_of(k.up[p])] = 1
            d["points"][p] = k.points[p]
        d["trick"][k.trick] = 1
        if k.lead >= 0:
            d["lead"][k.lead] = 1
        if k.leader >= 0:
            d["leader"][k.leader] = 1

    def string_from(self, state: BeloteState, player: int) -> str:
        if state.kernel is None or self.perfect_recall:  # the kernel's information state string
            return K.array_infostate_string(state.s, player)
        k = state.kernel
        lead = card_name(k.lead) if k.lead >= 0 else "-"
        return (
            f"P{player} hand[{_names(cards_of(k.hand[player]))}] "
            f"up0[{_names(cards_of(k.up[0]))}] up1[{_names(cards_of(k.up[1]))}] "
            f"trick{k.trick} lead {lead} leader{k.leader} "
            f"pts {k.points[0]} {k.points[1]}"
        )


pyspiel.register_game(_GAME_TYPE, BeloteGame)
