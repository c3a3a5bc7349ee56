"""Worlds, public states and private / public / λ-mixture beliefs (PPBS).

Follows Arjonilla, Saffidine and Cazenave, "Mixture of public and private beliefs"
(2024, arXiv 2405.14346; docs/papers/belief_mixtures.md), §3 and appendix A.1.

A *world* is a full history (tuple of actions, chance outcomes included). The hidden part
of a world is the set of *private chance slots*: the chance outcomes dealt before the first
decision that only one player observes (a die in Liar's Dice, a private card in Leduc, a
dealt card in the trick game). Every other action (bids, bets, played cards, the Leduc
board card) is public. Two worlds share a public state when they agree everywhere except
on private slots.

Beliefs over the worlds of the current public state, for player i at infostate s_i:
  - private: chance-weighted over worlds consistent with s_i (own slots fixed);
  - public: chance-weighted over all worlds of the public state;
  - PPBS: Delta_lambda(s_i) = (1 - lambda) Delta_private + lambda Delta_public, a mixture of
    the two world distributions (§3.3: with one 2-sided die each and lambda = 0.5 this
    gives 37.5 / 37.5 / 12.5 / 12.5 and own-infostate marginals 75 / 25).
Neither belief models the opponent's policy (chance weights only), as in the paper.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyspiel

ENUMERABLE_GAMES = ("liars_dice", "leduc_poker")
SAMPLED_GAMES = ("trick_game",)


def check_lambda(lam: float, name: str = "lam") -> float:
    """Return lam as float, or raise ValueError if outside [0, 1]."""
    lam = float(lam)
    if not 0.0 <= lam <= 1.0 or lam != lam:
        raise ValueError(f"{name} must be in [0, 1], got {lam}")
    return lam


# --------------------------------------------------------------------------- λ schedules
class LambdaSchedule:
    """Maps (state, player) to the λ used at that decision.

    One λ per own decision index (0 = the player's first action in the game), and an
    optional `rest` for every later decision. A decision not covered raises ValueError.
    """

    def __init__(self, per_decision: Sequence[float] = (), rest: float | None = None):
        self.per_decision = tuple(check_lambda(x, "lambda_schedule") for x in per_decision)
        self.rest = None if rest is None else check_lambda(rest, "lambda_schedule")
        if not self.per_decision and self.rest is None:
            raise ValueError("lambda_schedule must give at least one λ (per_decision or rest)")

    @classmethod
    def constant(cls, lam: float) -> LambdaSchedule:
        return cls((), rest=lam)

    @classmethod
    def first_later(cls, lam_first: float, lam_later: float) -> LambdaSchedule:
        """One λ for the player's first action, another for all its later actions."""
        return cls((lam_first,), rest=lam_later)

    def decision_index(self, state: pyspiel.State, player: int) -> int:
        return sum(1 for item in state.full_history() if item.player == player)

    def __call__(self, state: pyspiel.State, player: int) -> float:
        k = self.decision_index(state, player)
        if k < len(self.per_decision):
            return self.per_decision[k]
        if self.rest is None:
            raise ValueError(
                f"lambda_schedule covers decisions 0..{len(self.per_decision) - 1} of player "
                f"{player}, not decision {k}")
        return self.rest

    def __repr__(self) -> str:
        return f"LambdaSchedule(per_decision={self.per_decision}, rest={self.rest})"


def as_schedule(lam_or_schedule) -> LambdaSchedule:
    if isinstance(lam_or_schedule, LambdaSchedule):
        return lam_or_schedule
    return LambdaSchedule.constant(lam_or_schedule)


# --------------------------------------------------------------------------- world model
def _game_name(game: pyspiel.Game) -> str:
    return game.get_type().short_name


def probe_private_slots(game: pyspiel.Game) -> dict[int, int]:
    """Find the private chance slots {history position: owner} of a game.

    Walks the chance nodes before the first decision (first outcome each); for each one,
    swaps in another outcome and sees whose information state string changes at the
    first decision. A slot seen by exactly one player is private to that player.
    """
    state = game.new_initial_state()
    base = []
    while state.is_chance_node():
        a = state.chance_outcomes()[0][0]
        base.append(a)
        state.apply_action(a)
    n = game.num_players()

    def infostrings(history):
        s = game.new_initial_state()
        for a in history:
            if a not in s.legal_actions():
                return None
            s.apply_action(a)
        while s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        return [s.information_state_string(p) for p in range(n)]

    ref = infostrings(base)
    slots = {}
    for pos in range(len(base)):
        prefix = game.new_initial_state()
        for a in base[:pos]:
            prefix.apply_action(a)
        for alt, _ in prefix.chance_outcomes():
            if alt == base[pos]:
                continue
            trial = list(base)
            trial[pos] = alt
            # Later slots may clash (cards dealt twice): redeal them to the first free.
            strings = _infostrings_redeal(game, trial, pos)
            if strings is None:
                continue
            seen = [p for p in range(n) if strings[p] != ref[p]]
            if len(seen) == 1:
                slots[pos] = seen[0]
                break
    return slots


def _infostrings_redeal(game, trial, pos):
    s = game.new_initial_state()
    for i, a in enumerate(trial):
        if not s.is_chance_node():
            return None
        legal = [o for o, _ in s.chance_outcomes()]
        if a not in legal:
            if i <= pos:
                return None
            a = legal[0]
        s.apply_action(a)
    return [s.information_state_string(p) for p in range(game.num_players())]


@dataclass(frozen=True)
class WorldSet:
    """The worlds of one public state: histories, chance weights, and owner keys."""
    histories: tuple[tuple[int, ...], ...]
    chance: np.ndarray               # normalised chance probability of each world
    own_keys: tuple[tuple[tuple[int, ...], ...], ...]  # own_keys[p][k]: p's slots in world k


class WorldModel:
    """Enumerates worlds and beliefs for liars_dice (numdice=1) and leduc_poker.

    The trick game uses `SampledWorldModel` (its worlds are too many to list).
    """

    def __init__(self, game: pyspiel.Game):
        name = _game_name(game)
        if name not in ENUMERABLE_GAMES:
            raise ValueError(
                f"game must be one of {ENUMERABLE_GAMES} for world enumeration, got {name}")
        if name == "liars_dice" and game.get_parameters().get("numdice", 1) != 1:
            raise ValueError("game liars_dice: numdice must be 1 for world enumeration")
        if game.num_players() != 2:
            raise ValueError(f"game must have 2 players, got {game.num_players()}")
        self.game = game
        self.slots = probe_private_slots(game)
        self.slot_positions = tuple(sorted(self.slots))
        self.owned = tuple(
            tuple(p_ for p_ in self.slot_positions if self.slots[p_] == p)
            for p in range(game.num_players()))
        self._cache: dict[tuple, WorldSet] = {}
        self._sample_cache: dict[tuple, tuple] = {}

    # -- keys
    def public_key(self, history: Sequence[int]) -> tuple:
        h = list(history)
        for pos in self.slot_positions:
            if pos < len(h):
                h[pos] = -1
        return tuple(h)

    def own_key(self, history: Sequence[int], player: int) -> tuple[int, ...]:
        return tuple(history[pos] for pos in self.owned[player] if pos < len(history))

    # -- enumeration
    def worlds(self, state_or_history) -> WorldSet:
        """All worlds sharing the public state of `state_or_history`, chance-weighted."""
        history = (tuple(state_or_history.history())
                   if isinstance(state_or_history, pyspiel.State) else tuple(state_or_history))
        key = self.public_key(history)
        ws = self._cache.get(key)
        if ws is None:
            ws = self._enumerate(history)
            self._cache[key] = ws
        return ws

    def _enumerate(self, history: tuple[int, ...]) -> WorldSet:
        out_h, out_p = [], []

        def rec(state, pos, prob):
            if pos == len(history):
                out_h.append(tuple(state.history()))
                out_p.append(prob)
                return
            if pos in self.slots:
                for a, p in state.chance_outcomes():
                    rec(state.child(a), pos + 1, prob * p)
                return
            a = history[pos]
            if state.is_chance_node():
                p = dict(state.chance_outcomes()).get(a, 0.0)
                if p > 0:
                    rec(state.child(a), pos + 1, prob * p)
            elif a in state.legal_actions():
                rec(state.child(a), pos + 1, prob)

        rec(self.game.new_initial_state(), 0, 1.0)
        chance = np.asarray(out_p, dtype=float)
        chance /= chance.sum()
        own = tuple(tuple(self.own_key(h, p) for h in out_h)
                    for p in range(self.game.num_players()))
        return WorldSet(tuple(out_h), chance, own)

    # -- beliefs
    def private_belief(self, state: pyspiel.State, player: int) -> tuple[WorldSet, np.ndarray]:
        """Chance-weighted distribution over worlds consistent with `player`'s infostate."""
        ws = self.worlds(state)
        mine = self.own_key(state.history(), player)
        mask = np.array([k == mine for k in ws.own_keys[player]], dtype=float)
        p = ws.chance * mask
        return ws, p / p.sum()

    def public_belief(self, state: pyspiel.State) -> tuple[WorldSet, np.ndarray]:
        """Chance-weighted distribution over all worlds of the public state."""
        ws = self.worlds(state)
        return ws, ws.chance.copy()

    def mixture_belief(self, state: pyspiel.State, player: int,
                       lam: float) -> tuple[WorldSet, np.ndarray]:
        """PPBS: (1 - lam) * private + lam * public, over the public state's worlds."""
        lam = check_lambda(lam)
        ws, priv = self.private_belief(state, player)
        return ws, (1.0 - lam) * priv + lam * ws.chance

    def own_infostate_marginal(self, state, player, lam) -> dict[tuple, float]:
        """Probability of each own-slot assignment (own infostate) under the mixture."""
        ws, p = self.mixture_belief(state, player, lam)
        out: dict[tuple, float] = {}
        for k, w in zip(ws.own_keys[player], p):
            out[k] = out.get(k, 0.0) + float(w)
        return out

    def state_of(self, history: Sequence[int]) -> pyspiel.State:
        s = self.game.new_initial_state()
        for a in history:
            s.apply_action(a)
        return s

    def sample(self, state: pyspiel.State, player: int, lam: float,
               rng: np.random.Generator) -> pyspiel.State:
        """Draw one world from the mixture belief, as a new pyspiel.State.

        The distribution's CDF and the world states are cached per (public state, own
        infostate, λ), so a draw costs one uniform number, a binary search and a clone.
        """
        history = state.history()
        key = (self.public_key(history), player, self.own_key(history, player), float(lam))
        entry = self._sample_cache.get(key)
        if entry is None:
            ws, p = self.mixture_belief(state, player, lam)
            cdf = np.cumsum(p)
            cdf[-1] = 1.0
            entry = self._sample_cache[key] = (cdf, ws.histories, [None] * len(p))
        cdf, histories, states = entry
        k = int(np.searchsorted(cdf, rng.random(), side="right"))
        world = states[k]
        if world is None:
            world = states[k] = self.state_of(histories[k])
        return world.clone()


class SampledWorldModel:
    """Belief sampler for games whose worlds cannot be listed (the trick game).

    Uses the game module's `sample_world(state, player, rng, public=...)` helper: a
    private draw keeps `player`'s hand, a public draw redeals every hidden card.
    """

    def __init__(self, game: pyspiel.Game):
        name = _game_name(game)
        if name not in SAMPLED_GAMES:
            raise ValueError(f"game must be one of {SAMPLED_GAMES} for sampled beliefs, got {name}")
        self.game = game
        from infosets.games.trick_game import game as trick_game  # noqa: PLC0415 (registered on import)
        self._module = trick_game

        num_cards, hand_size = trick_game.resolve_sizes(game.get_parameters())
        self._deal_length = 2 * hand_size
        self._lists: dict[tuple, list] = {}

    def sample(self, state, player, lam, rng) -> pyspiel.State:
        lam = check_lambda(lam)
        public = bool(rng.random() < lam)
        return self._module.sample_world(state, player, rng, public=public)

    def sample_counts(self, state, player, lam, n, rng) -> list[tuple[pyspiel.State, int]]:
        """`n` draws from the mixture as (world, count) pairs, with the law of `n` calls
        to `sample`: the split between the private and the public belief is binomial,
        and a belief whose worlds are few (at most n) is listed once, cached, and
        drawn as multinomial counts (both beliefs are uniform over their worlds)."""
        lam = check_lambda(lam)
        n_public = int(rng.binomial(n, lam))
        out = []
        for public, m in ((False, n - n_public), (True, n_public)):
            if m == 0:
                continue
            worlds = self._listed(state, player, public, n)
            if worlds is None:
                drawn: dict[tuple, list] = {}
                for _ in range(m):
                    w = self._module.sample_world(state, player, rng, public=public)
                    entry = drawn.setdefault(tuple(w.history()), [w, 0])
                    entry[1] += 1
                out += [(w, c) for w, c in drawn.values()]
            else:
                counts = rng.multinomial(m, np.full(len(worlds), 1.0 / len(worlds)))
                out += [(worlds[k], int(c)) for k in np.flatnonzero(counts) for c in [counts[k]]]
        return out

    def _listed(self, state, player, public, limit):
        history = state.history()
        plays = tuple(history[self._deal_length:])
        key = (public, plays) if public else (public, player, state.dealt_hands()[player], plays)
        if key not in self._lists:
            if len(self._lists) >= 256:      # bound the memory held by listed worlds
                self._lists.clear()
            count = (self._module.count_public_worlds(state) if public
                     else self._module.count_consistent_worlds(state, player))
            self._lists[key] = None if count > limit else [
                w for w, _ in (self._module.public_worlds(state) if public
                               else self._module.consistent_worlds(state, player))]
        return self._lists[key]


def world_model(game: pyspiel.Game):
    """The exact world model when the game is enumerable, else the sampled one."""
    name = _game_name(game)
    if name in ENUMERABLE_GAMES:
        return _cached_model(str(game))
    if name in SAMPLED_GAMES:
        return SampledWorldModel(game)
    raise ValueError(
        f"game must be one of {ENUMERABLE_GAMES + SAMPLED_GAMES}, got {name}")


@functools.lru_cache(maxsize=32)
def _cached_model(game_string: str) -> WorldModel:
    return WorldModel(pyspiel.load_game(game_string))


def belief_sampler(game: pyspiel.Game, schedule) -> Callable:
    """A sampler(state, player, rng) -> pyspiel.State drawing from the PPBS of `schedule`.

    With λ > 0 the sampled world may put `player` in another own infostate: a search
    rooted on it has a chance node over own infostates (appendix A.1.2).
    """
    schedule = as_schedule(schedule)
    model = world_model(game)

    def sampler(state, player, rng):
        return model.sample(state, player, schedule(state, player), rng)

    return sampler
