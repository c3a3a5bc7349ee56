"""Determinizers: sample a full world consistent with one player's information state.

Used by every search in ``infosets.search`` (PI-MCTS, IS-MCTS; Ravichandran, Goodman and
Lucas, "PIMCTS evaluation in tabletop games", docs/papers/pimcts_aggregation.md).

``sampler_for(game)`` returns ``sampler(state, player, rng) -> pyspiel.State``: a world drawn
from the chance-weighted distribution over histories consistent with ``player``'s
information state, with the same ``infostate_key`` for ``player``. Strategies, per game:

* ``resample``: OpenSpiel's ``resample_from_infostate`` (leduc, kuhn, oh_hell, gin_rummy,
  bridge, universal_poker, and Python-registered games whose state implements it, e.g.
  trick_game, belote2p), fed a seeded ``UniformProbabilitySampler``. Exact.
* registered: games that call ``register_determinizer`` (the tabletop ports).
* ``resample_checked`` (hearts, euchre): OpenSpiel's resampler returns histories the game
  itself rejects in some phases (measured: 108 of 272 hearts samples, 10 of 84 euchre, an
  illegal action on replay, e.g. during the passing phase). Each resampled world is replayed
  with legality checks and redrawn when refused; after ``max_resample_tries`` refusals the
  ``chain`` strategy below takes over for that call.
* ``redraw`` (liars_dice): history replay; every chance outcome hidden from ``player`` is
  redrawn independently from its chance distribution. Exact (hidden dice are independent).
* ``chain`` (spades, skat, crazy_eights, go_fish): history replay inside a Metropolis chain
  over the hidden chance outcomes (swap two hidden outcomes, or redraw one), target = the
  chance probability of the history restricted to histories the game engine accepts (every
  action legal, same view for ``player``). The engine enforces every constraint (played
  cards, voids, asks, forced draws) so no game logic is duplicated, but the result is only
  approximately uniform: the chain starts at the real history and is kept per information
  state, with ``burn_in`` proposals on first use and ``thin`` proposals between samples.
  This is the "only history replay works" case.
* ``opponent_rollout`` (phantom_ttt): the hidden part is the opponent's moves, not chance.
  Own moves are replayed, opponents move uniformly at random, and a run is rejected as soon
  as ``player``'s view differs. Exact posterior under a uniformly random opponent model.
* ``perfect_information``: the state itself (cloned).

Games without an information-state string (spades, skat, crazy_eights) and games whose
string forgets the past (go_fish) are keyed by the player's action-observation history built
from ``observation_string`` (``infostate_key``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pyspiel

Sampler = Callable[[pyspiel.State, int, np.random.Generator], pyspiel.State]

RESAMPLE_GAMES = frozenset({"leduc_poker", "kuhn_poker", "oh_hell", "gin_rummy", "bridge",
                            "universal_poker"})
RESAMPLE_CHECKED_GAMES = frozenset({"hearts", "euchre"})
REDRAW_GAMES = frozenset({"liars_dice"})
CHAIN_GAMES = frozenset({"spades", "skat", "crazy_eights", "go_fish"})
ROLLOUT_GAMES = frozenset({"phantom_ttt"})
# Games keyed by the action-observation history (no, or imperfect-recall, infostate string).
AOH_GAMES = frozenset({"spades", "skat", "crazy_eights", "go_fish"})

_REGISTRY: dict[str, Callable[[pyspiel.Game], Sampler]] = {}


def register_determinizer(game_name: str, factory: Callable[[pyspiel.Game], Sampler]) -> None:
    """Register ``factory(game) -> sampler`` for a game (e.g. a Python-registered one)."""
    _REGISTRY[game_name] = factory


def determinizable_games() -> list[str]:
    """Names of games for which ``sampler_for`` works (besides perfect-information games)."""
    return sorted(set(_REGISTRY) | RESAMPLE_GAMES | RESAMPLE_CHECKED_GAMES | REDRAW_GAMES
                  | CHAIN_GAMES | ROLLOUT_GAMES)


def uses_aoh_key(game: pyspiel.Game) -> bool:
    """True when ``infostate_key`` is built from observations rather than the game's string."""
    return game.get_type().short_name in AOH_GAMES


def _observation(state: pyspiel.State, player: int) -> str:
    try:
        return state.observation_string(player)
    except pyspiel.SpielError:
        return ""


def aoh_steps(state: pyspiel.State, player: int) -> list[str]:
    """Per-step view of ``player``: own action, else the observation string after each step."""
    game = state.get_game()
    replay = game.new_initial_state()
    steps = []
    for item in state.full_history():
        own = item.player == player
        replay.apply_action(item.action)
        steps.append(f"a{item.action}" if own else _observation(replay, player))
    return steps


def infostate_key(state: pyspiel.State, player: int) -> str:
    """The player's information-state key: the game's string, or the action-observation history."""
    if uses_aoh_key(state.get_game()):
        return "\x1e".join(aoh_steps(state, player))
    return state.information_state_string(player)


def sampler_for(game: pyspiel.Game) -> Sampler:
    """Return a seeded world sampler for ``game``.

    Args:
      game: a loaded pyspiel game.
    Returns:
      ``sampler(state, player, rng)`` returning a new pyspiel.State consistent with
      ``player``'s information state in ``state``.
    Raises:
      ValueError: the game has no determinizer.
    """
    name = game.get_type().short_name
    if name in _REGISTRY:
        return _REGISTRY[name](game)
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return _perfect_information_sampler
    if name in RESAMPLE_GAMES or _python_state_resamples(game):
        return _resample_sampler
    if name in RESAMPLE_CHECKED_GAMES:
        return CheckedResampler(game)
    if name in REDRAW_GAMES:
        return ReplayDeterminizer(game, mode="redraw")
    if name in CHAIN_GAMES:
        return ReplayDeterminizer(game, mode="chain")
    if name in ROLLOUT_GAMES:
        return OpponentRolloutDeterminizer(game)
    raise ValueError(f"game: no determinizer for '{name}'; known: {', '.join(determinizable_games())}")


def _python_state_resamples(game: pyspiel.Game) -> bool:
    """A Python-registered game whose state class implements resample_from_infostate."""
    method = getattr(type(game.new_initial_state()), "resample_from_infostate", None)
    return method is not None and method is not pyspiel.State.resample_from_infostate


def _seed_from(rng: np.random.Generator) -> int:
    # random_raw is ~10x cheaper than rng.integers and draws from the same seeded stream.
    return int(rng.bit_generator.random_raw() & 0x7FFFFFFF)


def _perfect_information_sampler(state, player, rng):
    return state.clone()


def _resample_sampler(state, player, rng):
    return state.resample_from_infostate(
        player, pyspiel.UniformProbabilitySampler(_seed_from(rng), 0.0, 1.0))


def replays_legally(game: pyspiel.Game, history, check_chance: bool = True) -> bool:
    """True when every action of ``history`` is legal (for chance: a listed outcome).

    ``check_chance=False`` checks player actions only (chance outcomes are applied as given).
    """
    state = game.new_initial_state()
    for action in history:
        if state.is_terminal():
            return False
        if (check_chance or not state.is_chance_node()) and action not in state.legal_actions():
            return False
        state.apply_action(action)
    return True


class CheckedResampler:
    """OpenSpiel's resampler, with every world replayed and refused ones redrawn."""

    def __init__(self, game: pyspiel.Game, max_resample_tries: int = 20):
        self.game = game
        self.max_resample_tries = max_resample_tries
        self.fallback = ReplayDeterminizer(game, mode="chain")
        self.refused = 0

    def __call__(self, state, player, rng):
        for _ in range(self.max_resample_tries):
            world = _resample_sampler(state, player, rng)
            # Every refusal measured was a player action (a passed or played card the
            # resampled hand does not hold), so chance outcomes are not re-checked.
            if replays_legally(self.game, world.history(), check_chance=False):
                return world
            self.refused += 1
        return self.fallback(state, player, rng)


class ReplayDeterminizer:
    """History replay with the chance outcomes hidden from the player redrawn.

    mode="redraw": hidden outcomes drawn independently from their chance distributions,
    rejection until the engine accepts the history (exact).
    mode="chain": Metropolis chain over hidden outcomes, per information state (approximate).
    """

    def __init__(self, game: pyspiel.Game, mode: str = "chain", burn_in_sweeps: int = 20,
                 thin: int = 8, max_tries: int = 10_000):
        if mode not in ("redraw", "chain"):
            raise ValueError(f"mode: must be 'redraw' or 'chain', got {mode!r}")
        if burn_in_sweeps < 0 or thin < 1 or max_tries < 1:
            raise ValueError("burn_in_sweeps/thin/max_tries: need burn_in_sweeps >= 0, thin >= 1, "
                             "max_tries >= 1")
        self.game = game
        self.mode = mode
        self.burn_in_sweeps = burn_in_sweeps
        self.thin = thin
        self.max_tries = max_tries
        self._aoh = uses_aoh_key(game)
        self._cache_key = None
        self._hidden: list[int] = []
        self._classes: list[list[int]] = []
        self._hidden_actions: set[int] = set()
        self._chain: list[int] | None = None
        self._chain_logp = 0.0

    # -- analysis of the real history ------------------------------------------------------
    def _view(self, state, player):
        if self._aoh:
            return _observation(state, player)
        try:
            return state.information_state_string(player)
        except pyspiel.SpielError:
            return _observation(state, player)

    def _hidden_positions(self, actions, player):
        """Positions whose value could differ without changing the player's view at that step:
        chance outcomes, and (chain mode) other players' actions the player does not see
        (e.g. the cards opponents pass in hearts, or the skat discard)."""
        state = self.game.new_initial_state()
        hidden, hidden_actions = [], set()
        for pos, action in enumerate(actions):
            if state.is_chance_node():
                alternatives = [a for a, _ in state.chance_outcomes()]
            elif self.mode == "chain" and state.current_player() != player:
                alternatives = state.legal_actions()
            else:
                alternatives = []
            if len(alternatives) > 1:
                view = self._view(state.child(action), player)
                for alt in alternatives:
                    if alt != action and self._view(state.child(alt), player) == view:
                        hidden.append(pos)
                        if not state.is_chance_node():
                            hidden_actions.add(pos)
                        break
            state.apply_action(action)
        self._hidden_actions = hidden_actions
        return hidden

    # -- replay ------------------------------------------------------------------------------
    def _replay(self, actions, player, target, redraw_rng=None, hidden_set=None):
        """Replay ``actions`` (redrawing hidden chance outcomes when ``redraw_rng`` is given).

        Returns (state, actions_used, log_probability) or None when the engine refuses the
        history or the player's view differs from ``target``.
        """
        state = self.game.new_initial_state()
        used = list(actions)
        logp = 0.0
        for pos, action in enumerate(used):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if redraw_rng is not None and pos in hidden_set:
                    probs = np.array([p for _, p in outcomes])
                    idx = redraw_rng.choice(len(outcomes), p=probs / probs.sum())
                    action = outcomes[idx][0]
                    used[pos] = action
                prob = dict(outcomes).get(action, 0.0)
                if prob <= 0.0:
                    return None
                logp += np.log(prob)
            else:
                if state.is_terminal():
                    return None
                legal = state.legal_actions()
                if action not in legal:
                    return None
                if pos in self._hidden_actions:  # uniform model of the unseen opponent move
                    logp -= math.log(len(legal))
            own = (not state.is_chance_node()) and state.current_player() == player
            state.apply_action(action)
            if self._aoh:
                step = f"a{action}" if own else _observation(state, player)
                if step != target[pos]:
                    return None
        if not self._aoh and state.information_state_string(player) != target:
            return None
        return state, used, logp

    # -- the sampler -------------------------------------------------------------------------
    def __call__(self, state: pyspiel.State, player: int, rng: np.random.Generator) -> pyspiel.State:
        actions = [item.action for item in state.full_history()]
        target = aoh_steps(state, player) if self._aoh else state.information_state_string(player)
        key = (player, tuple(actions), "\x1e".join(target) if self._aoh else target)
        if key != self._cache_key:
            self._cache_key = key
            self._hidden = self._hidden_positions(actions, player)
            self._chain = None
            if self.mode == "chain":
                self._classes = self._swap_classes(actions, player, target)
        if not self._hidden:
            return state.clone()
        if self.mode == "redraw":
            hidden_set = set(self._hidden)
            for _ in range(self.max_tries):
                result = self._replay(actions, player, target, rng, hidden_set)
                if result is not None:
                    return result[0]
            raise RuntimeError(f"redraw determinizer: no consistent world in {self.max_tries} tries")
        return self._chain_sample(actions, player, target, rng)

    def _swap_classes(self, actions, player, target, tries_per_class: int = 3):
        """Group hidden positions whose outcomes can be swapped in the real history.

        A position joins the first class holding one of ``tries_per_class`` members it can
        swap with (a single representative can be a constrained card, e.g. one its owner
        already passed or played, which would split classes by owner). Swaps inside a class
        are the chain's main proposal; global swaps and single-site redraws keep the chain
        irreducible.
        """
        classes: list[list[int]] = []
        for pos in self._hidden:
            placed = False
            for members in classes:
                step = max(1, len(members) // tries_per_class)
                for rep in members[::step][:tries_per_class]:
                    swapped = self._transpose(actions, actions[pos], actions[rep])
                    if swapped == actions or self._replay(swapped, player, target) is not None:
                        members.append(pos)
                        placed = True
                        break
                if placed:
                    break
            if not placed:
                classes.append([pos])
        return [c for c in classes if len(c) >= 2]

    def _transpose(self, actions, a, b):
        """Exchange values ``a`` and ``b`` at every hidden position (a card dealt and then
        passed unseen moves with its pass). An involution, so the proposal is symmetric."""
        out = list(actions)
        for pos in self._hidden:
            if out[pos] == a:
                out[pos] = b
            elif out[pos] == b:
                out[pos] = a
        return out

    def _propose_swap(self, rng):
        u = rng.random()
        classes = self._classes
        if u < 0.6 and classes:
            pairs = np.array([len(c) * (len(c) - 1) for c in classes], dtype=float)
            members = classes[rng.choice(len(classes), p=pairs / pairs.sum())]
            i, j = rng.choice(len(members), size=2, replace=False)
            return members[i], members[j]
        if u < 0.9 and len(self._hidden) >= 2:
            i, j = rng.choice(len(self._hidden), size=2, replace=False)
            return self._hidden[i], self._hidden[j]
        return None

    def _chain_sample(self, actions, player, target, rng):
        steps = self.thin
        if self._chain is None:
            start = self._replay(actions, player, target)
            if start is None:  # cannot happen for a real history
                raise RuntimeError("chain determinizer: the real history does not replay")
            self._chain, self._chain_logp = start[1], start[2]
            steps = self.burn_in_sweeps * len(self._hidden) + self.thin
        hidden = self._hidden
        current_state = None
        for _ in range(steps):
            proposal = list(self._chain)
            pair = self._propose_swap(rng)
            if pair is not None:
                a, b = proposal[pair[0]], proposal[pair[1]]
                if a == b:
                    continue
                proposal = self._transpose(proposal, a, b)
                result = self._replay(proposal, player, target)
                log_q_ratio = 0.0
            else:
                # Redraw one hidden value from its chance distribution, or uniformly among
                # the legal actions for an unseen opponent move (independence proposal at one
                # site): acceptance uses the other sites' probabilities.
                pos = hidden[int(rng.integers(len(hidden)))]
                prefix = self.game.new_initial_state()
                for action in proposal[:pos]:
                    prefix.apply_action(action)
                if prefix.is_chance_node():
                    outcomes = dict(prefix.chance_outcomes())
                else:
                    legal = prefix.legal_actions()
                    outcomes = {a: 1.0 / len(legal) for a in legal}
                keys = list(outcomes)
                probs = np.array([outcomes[k] for k in keys])
                new = keys[rng.choice(len(keys), p=probs / probs.sum())]
                if new == proposal[pos]:
                    continue
                log_q_ratio = np.log(outcomes[proposal[pos]]) - np.log(outcomes[new])
                proposal[pos] = new
                result = self._replay(proposal, player, target)
            if result is None:
                continue
            log_accept = result[2] - self._chain_logp + log_q_ratio
            if log_accept >= 0 or rng.random() < np.exp(log_accept):
                self._chain, self._chain_logp = result[1], result[2]
                current_state = result[0]
        if current_state is None:
            current_state = self.game.new_initial_state()
            for action in self._chain:
                current_state.apply_action(action)
        return current_state


class OpponentRolloutDeterminizer:
    """Worlds for games whose hidden part is the opponents' moves (phantom_ttt).

    Own moves are replayed in order; opponents move uniformly at random; a run is rejected
    as soon as the player's information state differs from the real one at an own turn.
    Exact posterior under a uniformly random opponent model.
    """

    def __init__(self, game: pyspiel.Game, max_tries: int = 100_000):
        self.game = game
        self.max_tries = max_tries

    def __call__(self, state: pyspiel.State, player: int, rng: np.random.Generator) -> pyspiel.State:
        own_actions, own_views = [], []
        replay = self.game.new_initial_state()
        for item in state.full_history():
            if item.player == player:
                own_views.append(replay.information_state_string(player))
                own_actions.append(item.action)
            replay.apply_action(item.action)
        final_view = state.information_state_string(player)
        for _ in range(self.max_tries):
            world = self._try(own_actions, own_views, final_view, player, rng, state.current_player())
            if world is not None:
                return world
        raise RuntimeError(f"opponent-rollout determinizer: no consistent world in {self.max_tries} tries")

    def _try(self, own_actions, own_views, final_view, player, rng, real_mover):
        world = self.game.new_initial_state()
        k = 0
        while True:
            if world.is_terminal():
                break
            mover = world.current_player()
            if mover == player:
                if k == len(own_actions):
                    break
                if world.information_state_string(player) != own_views[k]:
                    return None
                if own_actions[k] not in world.legal_actions():
                    return None
                world.apply_action(own_actions[k])
                k += 1
            else:
                if k == len(own_actions) and real_mover == mover:
                    break
                legal = world.legal_actions()
                world.apply_action(legal[int(rng.integers(len(legal)))])
        if k != len(own_actions) or world.information_state_string(player) != final_view:
            return None
        return world
