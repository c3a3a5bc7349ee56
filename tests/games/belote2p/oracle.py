"""The former pure-Python two-player Belote rules and adapter, frozen: an oracle for differential tests.

Rules, fair-deal count, pyspiel adapter, strings, tensors and world sampler exactly as
``lib/infosets/games/belote2p/rules.py``, ``deal.py`` and ``game.py`` held them at commit
1a45502 (git show 1a45502:lib/infosets/games/belote2p/rules.py), before the game ran on its
numba rules alone (``infosets.games.belote2p.kernel``). The three files are joined here, their
bodies verbatim; only the imports between them are dropped, the game's short name is
``belote2p_oracle``, it is not registered with pyspiel (``BeloteGame()`` builds it), and the
annotations naming a class defined later are quoted (the module is loaded from its path, without
``from __future__ import annotations``, which dataclasses need a registered module for). Do not
edit: ``test_belote_oracle.py`` plays the live game against this code, so a change to the
rules shows up as a disagreement here.

Game: Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md).
"""


from dataclasses import dataclass

import numpy as np
import pyspiel

from infosets.core.bitmask import set_bits as cards_of

# ---- rules.py ------------------------------------------------------------------------------

SUITS = "CDHS"
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
TRUMP_SUIT = 0
NUM_CARDS = 32
NUM_TRICKS = 16
HAND_SIZE = 6
NUM_PILES = 5
LAST_TRICK_BONUS = 10
TOTAL_CARD_POINTS = 152
TOTAL_POINTS = TOTAL_CARD_POINTS + LAST_TRICK_BONUS

ALL_CARDS = (1 << NUM_CARDS) - 1
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
TRUMP_MASK = SUIT_MASK[TRUMP_SUIT]

# Points by rank index (7 8 9 10 J Q K A).
_PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
_TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
# Strength by rank index, higher is stronger: plain A 10 K Q J 9 8 7; trump J 9 A 10 K Q 8 7.
_PLAIN_ORDER = (0, 1, 2, 6, 3, 4, 5, 7)
_TRUMP_ORDER = (0, 1, 6, 4, 7, 2, 3, 5)


def suit_of(card: int) -> int:
    return card >> 3


POINTS = tuple(
    (_TRUMP_POINTS if c >> 3 == TRUMP_SUIT else _PLAIN_POINTS)[c & 7] for c in range(NUM_CARDS)
)
STRENGTH = tuple(
    (_TRUMP_ORDER if c >> 3 == TRUMP_SUIT else _PLAIN_ORDER)[c & 7] for c in range(NUM_CARDS)
)


def _beats(lead: int) -> int:
    """Mask of the replies that win the trick against ``lead``."""
    s = lead >> 3
    mask = 0
    for c in range(s * 8, s * 8 + 8):
        if STRENGTH[c] > STRENGTH[lead]:
            mask |= 1 << c
    if s != TRUMP_SUIT:
        mask |= TRUMP_MASK
    return mask


# BEATS[lead] >> reply & 1: the reply wins the trick.
BEATS = tuple(_beats(c) for c in range(NUM_CARDS))
# First duty on a lead: a higher trump on a trump lead, the led suit otherwise.
FOLLOW = tuple(
    (BEATS[c] & TRUMP_MASK) if c >> 3 == TRUMP_SUIT else SUIT_MASK[c >> 3]
    for c in range(NUM_CARDS)
)


def card_name(card: int) -> str:
    """``0 -> '7C'``, ``11 -> '10D'``."""
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"card must be in 0..31, got {card!r}")
    return RANKS[card & 7] + SUITS[card >> 3]


_NAME_TO_CARD = {card_name(c): c for c in range(NUM_CARDS)}
_NAME_TO_CARD.update({name.replace("10", "T"): c for name, c in _NAME_TO_CARD.items()})


def parse_card(text: str) -> int:
    """Parse a card name such as ``10H``, ``TH``, ``jc`` or ``7 s``; ValueError if unknown."""
    key = str(text).strip().upper().replace(" ", "")
    if key not in _NAME_TO_CARD:
        raise ValueError(
            f"card {text!r} is unknown; use rank 7 8 9 10 J Q K A then suit C D H S, e.g. 10H"
        )
    return _NAME_TO_CARD[key]


def mask_of(cards) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def legal_reply_mask(playable: int, lead: int) -> int:
    """The duties: follow (overtrump on a trump lead), else trump, else anything."""
    return (playable & FOLLOW[lead]) or (playable & TRUMP_MASK) or playable


def hand_exclusions(plays, player: int) -> int:
    """Cards ``player`` can no longer hold in hand, proved by its own past replies.

    A reply outside the first duty (the led suit; a higher trump on a trump lead) shows that
    no such card was playable, so none is in hand for the rest of the game (a hand only
    shrinks); a reply that is not a trump when trumping was the next duty shows no trump.
    Face-down cards were not playable then, so they are not constrained.

    Args:
      plays: the play history, ``(player, card, revealed, winner)`` per card, in order.
      player: whose hand is constrained.
    Returns:
      A card mask; every world consistent with the history keeps these out of that hand.
    """
    excluded = 0
    lead = -1
    for who, card, _, _ in plays:
        if lead < 0:
            lead = card
            continue
        if who == player:
            follow = FOLLOW[lead]
            if not (follow >> card & 1):
                excluded |= follow
                if not (TRUMP_MASK >> card & 1):
                    excluded |= TRUMP_MASK
        lead = -1
    return excluded


class KernelState:
    """A full Belote position.

    Attributes:
      hand: per player, mask of the cards in hand (hidden from the opponent).
      up: per player, mask of the face-up pile cards (playable, seen by both).
      down: per player, mask of the face-down pile cards still covered (seen by nobody).
      under: per card, the card it covers (for a pile top), else -1.
      leader, lead: who led the current trick and the card led (-1 before the lead).
      to_move: the player to move (-1 when the game is over).
      points: card points won per player (no bonus); ``score`` adds the last-trick bonus.
      trick: number of completed tricks.
    """

    __slots__ = ("hand", "up", "down", "under", "leader", "lead", "to_move", "points",
                 "trick", "last_winner")

    def __init__(self, hand, up, down, under, first_leader: int):
        self.hand = list(hand)
        self.up = list(up)
        self.down = list(down)
        self.under = list(under)
        self.leader = first_leader
        self.lead = -1
        self.to_move = first_leader
        self.points = [0, 0]
        self.trick = 0
        self.last_winner = -1

    @classmethod
    def from_deal(cls, deal, first_leader: int) -> "KernelState":
        """Build from 32 cards in slot order (see ``deal.py``) and the first leader."""
        if first_leader not in (0, 1):
            raise ValueError(f"first_leader must be 0 or 1, got {first_leader!r}")
        deal = list(deal)
        if sorted(deal) != list(range(NUM_CARDS)):
            raise ValueError("deal must be a permutation of the 32 cards 0..31")
        hand, up, down = [0, 0], [0, 0], [0, 0]
        under = [-1] * NUM_CARDS
        for p in (0, 1):
            base = 16 * p
            hand[p] = mask_of(deal[base:base + HAND_SIZE])
            tops = deal[base + HAND_SIZE:base + HAND_SIZE + NUM_PILES]
            bottoms = deal[base + HAND_SIZE + NUM_PILES:base + 16]
            up[p] = mask_of(tops)
            down[p] = mask_of(bottoms)
            for t, b in zip(tops, bottoms):
                under[t] = b
        return cls(hand, up, down, under, first_leader)

    def clone(self) -> "KernelState":
        s = KernelState.__new__(KernelState)
        s.hand = self.hand[:]
        s.up = self.up[:]
        s.down = self.down[:]
        s.under = self.under[:]
        s.leader = self.leader
        s.lead = self.lead
        s.to_move = self.to_move
        s.points = self.points[:]
        s.trick = self.trick
        s.last_winner = self.last_winner
        return s

    def is_terminal(self) -> bool:
        return self.trick >= NUM_TRICKS

    def playable(self, player: int) -> int:
        return self.hand[player] | self.up[player]

    def legal_mask(self) -> int:
        if self.trick >= NUM_TRICKS:
            return 0
        playable = self.hand[self.to_move] | self.up[self.to_move]
        if self.lead < 0:
            return playable
        return legal_reply_mask(playable, self.lead)

    def legal_moves(self) -> list[int]:
        return cards_of(self.legal_mask())

    def score(self, player: int) -> int:
        """Card points plus the last-trick bonus if earned."""
        return self.points[player] + (LAST_TRICK_BONUS if self.last_winner == player else 0)

    def play(self, card: int) -> tuple[int, int]:
        """Play ``card`` for the player to move.

        Returns:
          (revealed card or -1, trick winner or -1 if the trick is not complete).
        Raises ValueError on an illegal card (checked; search code inlines without checks).
        """
        if not (self.legal_mask() >> card) & 1:
            raise ValueError(f"card {card!r} is not legal here")
        p = self.to_move
        bit = 1 << card
        revealed = -1
        if self.hand[p] & bit:
            self.hand[p] ^= bit
        else:
            self.up[p] ^= bit
            below = self.under[card]
            if below >= 0:
                self.up[p] |= 1 << below
                self.down[p] ^= 1 << below
                revealed = below
        if self.lead < 0:
            self.lead = card
            self.to_move = 1 - p
            return revealed, -1
        lead = self.lead
        winner = p if BEATS[lead] >> card & 1 else self.leader
        self.points[winner] += POINTS[lead] + POINTS[card]
        self.trick += 1
        self.lead = -1
        self.leader = winner
        if self.trick >= NUM_TRICKS:
            self.last_winner = winner
            self.to_move = -1
        else:
            self.to_move = winner
        return revealed, winner

    def hidden_from(self, player: int) -> int:
        """Cards ``player`` cannot see: the opponent's hand and all covered pile cards."""
        return self.hand[1 - player] | self.down[0] | self.down[1]

    def covered_tops(self) -> list[int]:
        """The face-up cards that still cover a face-down card, in card order."""
        return [t for t in cards_of(self.up[0] | self.up[1]) if self.under[t] >= 0]


# ---- deal.py -------------------------------------------------------------------------------


SIDE_SLOTS = 16
NUM_TRUMPS = 8
_IS_TRUMP = tuple(int(TRUMP_MASK >> c & 1) for c in range(NUM_CARDS))


@dataclass(frozen=True)
class DealConstraint:
    """Fairness of a deal: per side, at least ``min_trumps`` trumps and points in a window.

    Raises ValueError (one line, naming the parameter) when no deal can satisfy it.
    """

    min_trumps: int = 2
    points_lo: int = 66
    points_hi: int = 86

    def __post_init__(self):
        if not isinstance(self.min_trumps, int) or not 0 <= self.min_trumps <= NUM_TRUMPS // 2:
            raise ValueError(
                f"min_trumps must be an int in 0..{NUM_TRUMPS // 2} (8 trumps for two sides),"
                f" got {self.min_trumps!r}"
            )
        for name in ("points_lo", "points_hi"):
            v = getattr(self, name)
            if not isinstance(v, int) or not 0 <= v <= TOTAL_CARD_POINTS:
                raise ValueError(f"{name} must be an int in 0..{TOTAL_CARD_POINTS}, got {v!r}")
        lo, hi = self.side_a_window()
        if lo > hi:
            raise ValueError(
                f"points_lo..points_hi = {self.points_lo}..{self.points_hi} admits no deal: "
                f"both sides share {TOTAL_CARD_POINTS} points, so need points_lo <= "
                f"{TOTAL_CARD_POINTS // 2} <= points_hi"
            )

    def side_a_window(self) -> tuple[int, int]:
        """Allowed points for side A, given that side B gets the rest."""
        return (max(self.points_lo, TOTAL_CARD_POINTS - self.points_hi),
                min(self.points_hi, TOTAL_CARD_POINTS - self.points_lo))

    def is_fair(self, deal) -> bool:
        side_a = deal[:SIDE_SLOTS]
        trumps_a = sum(_IS_TRUMP[c] for c in side_a)
        points_a = sum(POINTS[c] for c in side_a)
        lo, hi = self.side_a_window()
        return (self.min_trumps <= trumps_a <= NUM_TRUMPS - self.min_trumps
                and lo <= points_a <= hi)


def fair_deal(rng: np.random.Generator, constraint: DealConstraint | None = None) -> list[int]:
    """A uniformly random fair deal (rejection sampling), 32 cards in slot order.

    Args:
      rng: a numpy Generator (the only source of randomness).
      constraint: the fairness rule (default: the authors' code, 2 trumps, 66..86).
    """
    constraint = constraint or DealConstraint()
    while True:
        deal = [int(c) for c in rng.permutation(NUM_CARDS)]
        if constraint.is_fair(deal):
            return deal


def random_first_leader(rng: np.random.Generator) -> int:
    return int(rng.integers(2))


def _subset_counts(cards) -> np.ndarray:
    """counts[k, t, p] = number of k-subsets of ``cards`` with t trumps and p points."""
    counts = np.zeros((SIDE_SLOTS + 1, NUM_TRUMPS + 1, TOTAL_CARD_POINTS + 1), dtype=np.int64)
    counts[0, 0, 0] = 1
    for c in cards:
        t, p = _IS_TRUMP[c], POINTS[c]
        counts[1:, t:, p:] += counts[:-1, :NUM_TRUMPS + 1 - t, :TOTAL_CARD_POINTS + 1 - p].copy()
    return counts


def _without(counts: np.ndarray, card: int) -> np.ndarray:
    """Subset counts of a set after removing ``card`` (inverse of adding it)."""
    t, p = _IS_TRUMP[card], POINTS[card]
    out = counts.copy()
    for k in range(1, SIDE_SLOTS + 1):
        out[k, t:, p:] -= out[k - 1, :NUM_TRUMPS + 1 - t, :TOTAL_CARD_POINTS + 1 - p]
    return out


def next_card_probabilities(partial, constraint: DealConstraint) -> list[tuple[int, float]]:
    """Exact chance outcomes for slot ``len(partial)`` given the cards already dealt.

    Returns (card, probability) pairs over the cards that keep a fair completion possible,
    proportional to the number of fair completions (uniform over fair deals).
    """
    slot = len(partial)
    if not 0 <= slot < NUM_CARDS:
        raise ValueError(f"partial deal must hold 0..31 cards, got {slot}")
    dealt_a = partial[:SIDE_SLOTS]
    trumps_a = sum(_IS_TRUMP[c] for c in dealt_a)
    points_a = sum(POINTS[c] for c in dealt_a)
    free_a = SIDE_SLOTS - len(dealt_a)
    rest = [c for c in range(NUM_CARDS) if c not in set(partial)]
    counts = _subset_counts(rest)
    lo, hi = constraint.side_a_window()
    tmin, tmax = constraint.min_trumps, NUM_TRUMPS - constraint.min_trumps
    weights = []
    for c in rest:
        sub = _without(counts, c)
        if slot < SIDE_SLOTS:
            k, ta, pa = free_a - 1, trumps_a + _IS_TRUMP[c], points_a + POINTS[c]
        else:
            k, ta, pa = free_a, trumps_a, points_a
        t_lo, t_hi = max(0, tmin - ta), tmax - ta
        p_lo, p_hi = max(0, lo - pa), hi - pa
        if k < 0 or t_hi < t_lo or p_hi < p_lo:
            weights.append(0)
            continue
        weights.append(int(sub[k, t_lo:t_hi + 1, p_lo:p_hi + 1].sum()))
    total = sum(weights)
    if total == 0:
        raise ValueError("partial deal admits no fair completion under the deal constraint")
    return [(c, w / total) for c, w in zip(rest, weights) if w > 0]


# ---- game.py -------------------------------------------------------------------------------


GAME_NAME = "belote2p_oracle"
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


def _names(cards) -> str:
    return " ".join(card_name(c) for c in cards)


class BeloteGame(pyspiel.Game):
    """Two-player Belote; see the module docstring."""

    def __init__(self, params=None):
        values = dict(_DEFAULTS)
        values.update(params or {})
        self.constraint = DealConstraint(
            int(values["min_trumps"]), int(values["points_lo"]), int(values["points_hi"])
        )
        super().__init__(_GAME_TYPE, _GAME_INFO, values)

    def new_initial_state(self):
        return BeloteState(self)

    def new_state_from_deal(self, deal, first_leader: int) -> "BeloteState":
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
    """A Belote state: the deal in progress, then a kernel state plus the play history."""

    def __init__(self, game: BeloteGame):
        super().__init__(game)
        self.constraint = game.constraint
        self.deal: list[int] = []
        self.first_leader = -1
        self.kernel: KernelState | None = None
        # One entry per card played: (player, card, revealed card or -1, trick winner or -1).
        self.plays: list[tuple[int, int, int, int]] = []

    # -- pyspiel API ------------------------------------------------------------------
    def current_player(self):
        if self.kernel is None:
            return pyspiel.PlayerId.CHANCE
        if self.kernel.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.kernel.to_move

    def _legal_actions(self, player):
        return self.kernel.legal_moves()

    def chance_outcomes(self):
        if len(self.deal) == _LEADER_SLOT:
            return [(0, 0.5), (1, 0.5)]
        return next_card_probabilities(self.deal, self.constraint)

    def _apply_action(self, action):
        if self.kernel is None:
            if len(self.deal) < _LEADER_SLOT:
                self.deal.append(int(action))
            else:
                self._finish_deal(self.deal, int(action))
            return
        player = self.kernel.to_move
        revealed, winner = self.kernel.play(int(action))
        self.plays.append((player, int(action), revealed, winner))

    def _finish_deal(self, deal, first_leader):
        self.deal = list(deal)
        self.first_leader = first_leader
        self.kernel = KernelState.from_deal(self.deal, first_leader)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if len(self.deal) == _LEADER_SLOT:
                return f"first leader {action}"
            return f"deal {card_name(action)}"
        return card_name(action)

    def is_terminal(self):
        return self.kernel is not None and self.kernel.is_terminal()

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        return [float(self.kernel.score(0)), float(self.kernel.score(1))]

    def __str__(self):
        if self.kernel is None:
            return f"dealing: {_names(self.deal)}"
        k = self.kernel
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
    if state.kernel is None:
        raise ValueError("hidden_slots needs a state after the deal")
    k = state.kernel
    opp = 1 - player
    slots = [16 * opp + i for i in range(HAND_SIZE) if k.hand[opp] >> state.deal[16 * opp + i] & 1]
    for p in (0, 1):
        for i in range(NUM_PILES):
            slot = 16 * p + HAND_SIZE + NUM_PILES + i
            if k.down[p] >> state.deal[slot] & 1:
                slots.append(slot)
    return slots


def sample_world(state: BeloteState, player: int, rng: np.random.Generator,
                 respect_constraint: bool = True) -> BeloteState:
    """A world consistent with ``player``'s information state, uniformly at random.

    The cards ``player`` cannot see are redealt to their slots: the opponent's unplayed hand
    slots get a uniform subset of the cards its past replies allow (a player that did not
    follow suit holds none of that suit, and so on: ``rules.hand_exclusions``), the covered
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
    cards = [state.deal[s] for s in slots]
    excluded = hand_exclusions(state.plays, opp)
    allowed = [c for c in cards if not excluded >> c & 1]
    new_deal = list(state.deal)
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
    for _, card, _, _ in state.plays:
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

    def string_from(self, state: "BeloteState", player: int) -> str:
        if state.kernel is None:
            mine = [c for i, c in enumerate(state.deal) if 16 * player <= i < 16 * player + 6]
            tops = [c for i, c in enumerate(state.deal) if i % 16 in range(6, 11)]
            return f"P{player} dealing hand[{_names(mine)}] tops[{_names(tops)}]"
        if self.perfect_recall:
            head = (
                f"P{player} hand[{_names(state.initial_hand(player))}] "
                f"tops0[{_names(state.initial_tops(0))}] tops1[{_names(state.initial_tops(1))}] "
                f"first{state.first_leader}"
            )
            moves = [
                f"{p}:{card_name(c)}" + (f"+{card_name(r)}" if r >= 0 else "")
                for p, c, r, _ in state.plays
            ]
            return head + " | " + " ".join(moves)
        k = state.kernel
        lead = card_name(k.lead) if k.lead >= 0 else "-"
        return (
            f"P{player} hand[{_names(cards_of(k.hand[player]))}] "
            f"up0[{_names(cards_of(k.up[0]))}] up1[{_names(cards_of(k.up[1]))}] "
            f"trick{k.trick} lead {lead} leader{k.leader} "
            f"pts {k.points[0]} {k.points[1]}"
        )

