"""pyspiel game ``trick_game``: the small no-trump trick-taking game "CG nC".

Reproduces the trick-taking benchmark of Arjonilla, Saffidine and Cazenave, "Mixture of
public and private distributions in imperfect information games" (2024), section 4.1.1
(docs/papers/belief_mixtures.md); also used by the history-filtering and PI-MCTS papers.
The rules are written once, in numba, in ``kernel.py``; this module wraps a state of them
(``array_rules.TrickState``, one kernel array) as a Python pyspiel game, following
open_spiel/python/games/kuhn_poker.py, and holds what is not rules: the registration, the
string views and tensors, and the world samplers.

Parameters: ``num_cards`` (2..52, default 10), ``hand_size`` (1..num_cards // 2; the default
-1 means num_cards // 3, so CG 10C deals 3 cards each and CG 20C 6 each) and ``players``
(only 2). Actions are card ids; chance deals one card per outcome (player 0's hand first),
so there are at most ``num_cards`` chance outcomes. Player 0 leads the first trick.

Besides the pyspiel API, states offer ``resample_from_infostate(player_id, sampler)``,
``sample_world(player, rng, public=False)`` and the deal as bitmasks (``dealt_hands()``);
the module offers ``sample_world(state, player, rng, public=False)`` and enumerates worlds:
``consistent_worlds(state, player)``, ``public_worlds(state)`` and their counts. A world
is the deal plus the play history; the undealt cards' order is not part of it. Worlds
consistent with a player's infostate keep that player's hand and every card played, and
never give a player a card of a suit that player has shown void in (a failure to follow
suit).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np
import pyspiel

from infosets.games.trick_game import array_rules as K
from infosets.games.trick_game.kernel import PLAYER

SHORT_NAME = "trick_game"
DEFAULT_NUM_CARDS = 10
DEFAULT_HAND_SIZE = -1  # means num_cards // 3
_PARAMS = {"num_cards": DEFAULT_NUM_CARDS, "hand_size": DEFAULT_HAND_SIZE, "players": 2}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Small no-trump trick-taking game (CG nC)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_PARAMS,
)


def resolve_sizes(params: dict) -> tuple[int, int]:
    """(num_cards, hand_size) from game parameters; raises ValueError when out of range."""
    players = int(params.get("players", 2))
    if players != 2:
        raise ValueError(f"players must be 2 (only two-player CG nC is supported), got {players}")
    num_cards = int(params.get("num_cards", DEFAULT_NUM_CARDS))
    hand_size = int(params.get("hand_size", DEFAULT_HAND_SIZE))
    if hand_size == DEFAULT_HAND_SIZE:
        hand_size = num_cards // 3
    K.check_sizes(num_cards, hand_size)
    return num_cards, hand_size


class TrickGame(pyspiel.Game):
    """CG nC as a pyspiel game (see the module docstring)."""

    def __init__(self, params=None):
        params = dict(params or {})
        num_cards, hand_size = resolve_sizes(params)
        self.num_cards = num_cards
        self.hand_size = hand_size
        info = pyspiel.GameInfo(
            num_distinct_actions=num_cards,
            max_chance_outcomes=num_cards,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=2 * hand_size,
        )
        super().__init__(_GAME_TYPE, info, {**_PARAMS, **params})

    def new_initial_state(self):
        return TrickGameState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return TrickGameObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            self.num_cards, self.hand_size, params)

    def state_from_kernel(self, kernel: K.TrickState) -> TrickGameState:
        """A pyspiel state replaying ``kernel``'s deal (canonical order) and plays."""
        state = self.new_initial_state()
        for action in K.deal_actions(tuple(kernel.dealt)):
            state.apply_action(action)
        for action in kernel.plays:
            state.apply_action(action)
        return state

    def state_from_deal(self, hands: tuple[int, int], plays=()) -> TrickGameState:
        """A pyspiel state after dealing ``hands`` (bitmasks) and playing ``plays``."""
        return self.state_from_kernel(
            K.from_deal(self.num_cards, self.hand_size, hands, plays))


class TrickGameState(pyspiel.State):
    """A CG nC state; holds one ``array_rules.TrickState`` (cloned by pyspiel's deepcopy)."""

    def __init__(self, game):
        super().__init__(game)
        self._k = K.TrickState(game.num_cards, game.hand_size)

    # --- pyspiel API ---------------------------------------------------------------------
    def current_player(self):
        return self._k.s.item(PLAYER)  # the hot path of every search: one read of the array

    def _legal_actions(self, player):
        return self._k.legal_actions()

    def chance_outcomes(self):
        return self._k.chance_outcomes()

    def _apply_action(self, action):
        self._k.apply_legal(action)

    def _action_to_string(self, player, action):
        name = self._k.deck.names[action]
        return f"Deal:{name}" if player == pyspiel.PlayerId.CHANCE else name

    def is_terminal(self):
        return self._k.player == K.TERMINAL

    def returns(self):
        return self._k.returns()

    def __str__(self):
        k = self._k
        deck = k.deck
        return (f"hand0:{deck.card_string(k.hands[0])} hand1:{deck.card_string(k.hands[1])} "
                f"plays:{k.plays_string()} tricks:{k.tricks[0]}-{k.tricks[1]}")

    # --- our additions -------------------------------------------------------------------
    @property
    def kernel(self) -> K.TrickState:
        """The underlying kernel state (treat as read-only; use ``.copy()`` to search)."""
        return self._k

    def dealt_hands(self) -> tuple[int, int]:
        """The two initial hands as bitmasks over card ids (the hidden part of a world)."""
        return self._k.dealt[0], self._k.dealt[1]

    def sample_world(self, player: int, rng: np.random.Generator,
                     public: bool = False) -> TrickGameState:
        """Same as the module's ``sample_world(self, player, rng, public)``."""
        return sample_world(self, player, rng, public=public)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> TrickGameState:
        """OpenSpiel's ResampleFromInfostate: a uniform world consistent with ``player_id``'s
        infostate, drawn with ``probability_sampler()`` (uniform in [0, 1), e.g.
        ``pyspiel.UniformProbabilitySampler(seed, 0., 1.)``); voids are respected."""
        _check_player(player_id)
        free, need, fixed, opp = _opponent_slots(self._k, player_id)
        hand = fixed
        remaining = len(free)
        for card in free:  # Knuth's selection sampling: a uniform `need`-subset of `free`
            if need and probability_sampler() * remaining < need:
                hand |= 1 << card
                need -= 1
            remaining -= 1
        return self._world(player_id, opp, hand)

    def _world(self, player: int, opp: int, opp_hand: int) -> TrickGameState:
        hands = [0, 0]
        hands[player] = self._k.dealt[player]
        hands[opp] = opp_hand
        return self.get_game().state_from_deal(tuple(hands), self._k.plays)


def sample_world(state: TrickGameState, player: int, rng: np.random.Generator,
                 public: bool = False) -> TrickGameState:
    """A world drawn uniformly (= chance-weighted) from ``state``'s consistent worlds.

    Args:
      state: the true state.
      player: 0 or 1, whose infostate is kept when ``public`` is False.
      rng: a numpy Generator.
      public: if True, draw among the worlds consistent with the public state instead
        (both hands redrawn, both players' voids respected), as ``public_worlds`` lists.
    Returns:
      A new ``TrickGameState``.
    """
    _check_player(player)
    if public:
        return _sample_public_world(state, rng)
    free, need, fixed, opp = _opponent_slots(state.kernel, player)
    hand = fixed
    if need:
        for card in rng.choice(free, size=need, replace=False):
            hand |= 1 << int(card)
    return state._world(player, opp, hand)


def _sample_public_world(state: TrickGameState, rng: np.random.Generator) -> TrickGameState:
    k = state.kernel
    fixed, need, allowed = _public_slots(k)
    shared = K.cards_of(allowed[0] & allowed[1])
    only0 = K.cards_of(allowed[0] & ~allowed[1])
    n1 = K.popcount(allowed[1])
    # Number of worlds in which player 0 takes j of the shared cards; draw j by it, then
    # uniform subsets: this is uniform over all public worlds.
    counts = np.array([math.comb(len(shared), j) * math.comb(len(only0), need[0] - j)
                       * math.comb(n1 - j, need[1])
                       for j in range(min(need[0], len(shared)) + 1)], float)
    j = int(rng.choice(len(counts), p=counts / counts.sum()))
    hands = [fixed[0], fixed[1]]
    picks = list(rng.choice(shared, size=j, replace=False)) if j else []
    if need[0] - j:
        picks += list(rng.choice(only0, size=need[0] - j, replace=False))
    for card in picks:
        hands[0] |= 1 << int(card)
    rest1 = K.cards_of(allowed[1] & ~hands[0])
    if need[1]:
        for card in rng.choice(rest1, size=need[1], replace=False):
            hands[1] |= 1 << int(card)
    return state.get_game().state_from_deal(tuple(hands), k.plays)


def _check_player(player) -> None:
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player}")


def _void_cards(deck: K.Deck, voids: int) -> int:
    mask = 0
    for s in range(4):
        if voids >> s & 1:
            mask |= deck.suit_mask[s]
    return mask


def _opponent_slots(k: K.TrickState, player: int) -> tuple[list[int], int, int, int]:
    """(cards the opponent may still hold, how many it holds, cards it has played, opp)."""
    opp = 1 - player
    played = k.played_mask()
    opp_played = k.dealt[opp] & ~k.hands[opp]
    hidden = k.deck.full_mask & ~k.dealt[player] & ~played
    free = hidden & ~_void_cards(k.deck, k.voids[opp])
    return K.cards_of(free), K.popcount(k.hands[opp]), opp_played, opp


def _deal_probability(k: K.TrickState) -> float:
    """Chance probability of the (unordered) deal so far: d0! d1! (n - d)! / n!."""
    d0, d1 = K.popcount(k.dealt[0]), K.popcount(k.dealt[1])
    n = k.deck.num_cards
    return math.factorial(d0) * math.factorial(d1) * math.factorial(n - d0 - d1) / \
        math.factorial(n)


def consistent_worlds(state: TrickGameState,
                      player: int) -> Iterator[tuple[TrickGameState, float]]:
    """Every world consistent with ``player``'s infostate (small games only).

    Yields (world_state, chance_probability), where chance_probability is the probability
    of that world's deal summed over dealing orders (equal for all worlds here, so the
    chance-weighted posterior is uniform). Worlds come in a fixed order.
    """
    _check_player(player)
    free, need, fixed, opp = _opponent_slots(state.kernel, player)
    prob = _deal_probability(state.kernel)
    for combo in itertools.combinations(free, need):
        hand = fixed
        for card in combo:
            hand |= 1 << card
        yield state._world(player, opp, hand), prob


def count_consistent_worlds(state: TrickGameState, player: int) -> int:
    """Number of worlds ``consistent_worlds(state, player)`` yields, without building them."""
    _check_player(player)
    free, need, _, _ = _opponent_slots(state.kernel, player)
    return math.comb(len(free), need)


def _public_slots(k: K.TrickState):
    played = k.played_mask()
    hidden = k.deck.full_mask & ~played
    fixed = [k.dealt[p] & ~k.hands[p] for p in (0, 1)]
    need = [K.popcount(k.hands[p]) for p in (0, 1)]
    allowed = [hidden & ~_void_cards(k.deck, k.voids[p]) for p in (0, 1)]
    return fixed, need, allowed


def public_worlds(state: TrickGameState) -> Iterator[tuple[TrickGameState, float]]:
    """Every world consistent with the public state (the plays; no hand known).

    Yields (world_state, chance_probability) as ``consistent_worlds`` does. The number of
    worlds grows fast (4200 at the root of CG 10C; 116 million for CG 20C).
    """
    k = state.kernel
    fixed, need, allowed = _public_slots(k)
    game = state.get_game()
    prob = _deal_probability(k)
    for combo0 in itertools.combinations(K.cards_of(allowed[0]), need[0]):
        hand0 = fixed[0]
        for card in combo0:
            hand0 |= 1 << card
        for combo1 in itertools.combinations(K.cards_of(allowed[1] & ~hand0), need[1]):
            hand1 = fixed[1]
            for card in combo1:
                hand1 |= 1 << card
            yield game.state_from_deal((hand0, hand1), k.plays), prob


def count_public_worlds(state: TrickGameState) -> int:
    """Number of worlds ``public_worlds(state)`` yields, without building them."""
    fixed, need, allowed = _public_slots(state.kernel)
    # Split the cards player 0 may take into those player 1 may also take and the rest.
    shared = K.popcount(allowed[0] & allowed[1])
    only0 = K.popcount(allowed[0] & ~allowed[1])
    total = 0
    for from_shared in range(min(shared, need[0]) + 1):
        ways0 = math.comb(shared, from_shared) * math.comb(only0, need[0] - from_shared)
        left1 = K.popcount(allowed[1]) - from_shared
        total += ways0 * math.comb(left1, need[1])
    return total


class TrickGameObserver:
    """Observer conforming to OpenSpiel's PyObserver interface.

    perfect_recall=True (information state): the player's dealt hand and the full play
    sequence. perfect_recall=False (observation): the current hand, the cards each player
    has played, the card led in the current trick and the tricks won. private_info NONE
    gives the public state (no hand); ALL_PLAYERS gives both hands.
    """

    def __init__(self, iig_obs_type, num_cards, hand_size, params):
        if params:
            raise ValueError(f"observer params must be empty, got {params}")
        self.private = iig_obs_type.private_info
        self.perfect_recall = iig_obs_type.perfect_recall
        self.public = iig_obs_type.public_info
        n = num_cards
        pieces = []
        if self.private != pyspiel.PrivateInfoType.NONE:
            pieces.append(("player", 2, (2,)))
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces.append(("hand", n, (n,)))
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            pieces.append(("hands", 2 * n, (2, n)))
        if self.public:
            if self.perfect_recall:
                pieces.append(("plays", 2 * hand_size * n, (2 * hand_size, n)))
            else:
                pieces += [("played", 2 * n, (2, n)), ("trick_lead", n, (n,)),
                           ("tricks_won", 2, (2,))]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict = {}
        index = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[index:index + size].reshape(shape)
            index += size

    def _hands(self, k: K.TrickState):
        return k.dealt if self.perfect_recall else k.hands

    def set_from(self, state, player):
        k = state.kernel
        self.tensor.fill(0)
        d = self.dict
        if "player" in d:
            d["player"][player] = 1
        if "hand" in d:
            d["hand"][K.cards_of(self._hands(k)[player])] = 1
        if "hands" in d:
            for p in (0, 1):
                d["hands"][p, K.cards_of(self._hands(k)[p])] = 1
        if "plays" in d:
            for i, card in enumerate(k.plays):
                d["plays"][i, card] = 1
        if "played" in d:
            for p in (0, 1):
                d["played"][p, K.cards_of(k.dealt[p] & ~k.hands[p])] = 1
            if k.lead >= 0:
                d["trick_lead"][k.lead] = 1
            d["tricks_won"][:] = k.tricks

    def string_from(self, state, player):
        k = state.kernel
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER and self.perfect_recall \
                and self.public:
            return k.information_state_string(player)
        deck = k.deck
        pieces = []
        if self.private != pyspiel.PrivateInfoType.NONE:
            pieces.append(f"p{player}")
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces.append(f"hand:{deck.card_string(self._hands(k)[player])}")
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            hands = self._hands(k)
            pieces.append(f"hands:{deck.card_string(hands[0])}/{deck.card_string(hands[1])}")
        if self.public:
            if k.player == K.CHANCE:
                pieces.append(f"dealt:{k.num_dealt()}")
            if self.perfect_recall:
                pieces.append(f"plays:{k.plays_string()}")
            else:
                lead = f"{k.trick_leader()}:{deck.names[k.lead]}" if k.lead >= 0 else "-"
                pieces.append(f"trick:{lead} tricks:{k.tricks[0]}-{k.tricks[1]} "
                              f"played:{deck.card_string(k.dealt[0] & ~k.hands[0])}/"
                              f"{deck.card_string(k.dealt[1] & ~k.hands[1])}")
        return " ".join(pieces)


pyspiel.register_game(_GAME_TYPE, TrickGame)
