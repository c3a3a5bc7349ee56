"""Determinizers: sample a full world consistent with one player's information state.

Used by every search in ``infosets.search`` (PI-MCTS, IS-MCTS; Ravichandran, Goodman and
Lucas, docs/papers/pimcts_aggregation.md) and by the world samplers of Arjonilla, Saffidine
and Cazenave (docs/papers/belief_mixtures.md).

``sampler_for(game)`` returns ``sampler(state, player, rng) -> pyspiel.State``: a world drawn
from the chance-weighted distribution over histories consistent with ``player``'s
information state, with the same ``infostate_key`` for ``player``, and whose ``history()``
replays to it. Strategies, per game:

* ``resample``: OpenSpiel's ``resample_from_infostate`` (leduc, kuhn, bridge,
  universal_poker, and Python-registered games whose state implements it: trick_game,
  belote2p), fed a seeded ``UniformProbabilitySampler``. Exact. Audited phase by phase
  (tests/games/test_determinizer_audit.py): no truth leak, histories rebuild the worlds.
* registered: games that call ``register_determinizer`` (the tabletop ports).
* ``exact`` (hearts, oh_hell, spades): ``hearts_worlds.HeartsWorlds``,
  ``oh_hell_worlds.OhHellWorlds`` and ``spades_worlds.SpadesWorlds``, uniform over the deals
  (and, in hearts, the unseen passes) consistent with the player's view (voids and the other
  rules the play reveals read from the history), each world replayed and checked. The replay
  chain mixes slowly late in a spades deal. OpenSpiel's hearts resampler ignores voids and
  keeps an opponent's unseen pass; its oh_hell resampler reshuffles only the cards truly in
  the opponents' hands, so a card never dealt never reaches an opponent (3 players, 300
  worlds per state: the cards truly in opponents' hands were there in 1.000 of worlds, the
  undealt ones in 0.000, where chance gives both the opponents' share of the unseen cards,
  e.g. 0.55 with 11 tricks); neither is used.
* ``resample_checked`` (euchre): OpenSpiel's resampler returns histories the game itself
  rejects in some phases (measured: 10 of 84 euchre samples, and 108 of 272 hearts ones, an
  illegal action on replay). Each resampled world is replayed with legality checks and
  redrawn when refused; after ``max_resample_tries`` refusals the replay chain takes over for
  that call.
* ``redraw`` (liars_dice): history replay; every chance outcome hidden from ``player`` is
  redrawn independently from its chance distribution. Exact (hidden dice are independent).
* ``replay`` (skat, crazy_eights, go_fish, gin_rummy; ``CHAIN_GAMES``): the generic
  history-replay sampler of ``history_replay`` (exact enumeration when the consistent set is
  small, else an approximate Metropolis chain). gin_rummy is here because OpenSpiel 2.0.2's
  resampler returns the real ``history()`` with other cards in every phase (30 of 30 worlds
  in the audit) and the true world in the layoff phase (30 of 30; chance allows < 8%). In
  these full deals the enumeration is out of reach, so the chain serves: it moves the last
  card of a full deal, starts from a world drawn without the truth (``_start``), and mixes
  slowly late in a full deal (``history_replay``'s docstring; measured on spades).
* ``opponent_rollout`` (phantom_ttt): the hidden part is the opponent's moves, not chance.
  Own moves are replayed, opponents move uniformly at random, and a run is rejected as soon
  as ``player``'s view differs. Exact posterior under a uniformly random opponent model.
* ``perfect_information``: the state itself (cloned).
* any other sequential game: the generic replay sampler, with a one-line warning saying so.
  ``undeterminizable_games()`` names every registered game it cannot serve, and why.

Games without an information-state string (spades, skat, crazy_eights) and games whose
string forgets the past (go_fish) are keyed by the player's action-observation history built
from ``observation_string`` (``infostate_key``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import warnings
from collections.abc import Callable

import numpy as np
import pyspiel

from infosets.core.checks import check_callable, check_game, check_sampler_call
from infosets.games.hearts.worlds import HeartsWorlds
from infosets.games.history_replay import (  # noqa: F401  (re-exported: one implementation)
    AOH_GAMES,
    SECONDS_PER_WORLD,
    ReplayDeterminizer,
    aoh_steps,
    infostate_key,
    observation,
    uses_aoh_key,
)
from infosets.games.oh_hell.worlds import OhHellWorlds
from infosets.games.spades.worlds import SpadesWorlds

Sampler = Callable[[pyspiel.State, int, np.random.Generator], pyspiel.State]

RESAMPLE_GAMES = frozenset({"leduc_poker", "kuhn_poker", "bridge", "universal_poker"})
EXACT_GAMES = {"hearts": HeartsWorlds, "oh_hell": OhHellWorlds, "spades": SpadesWorlds}
RESAMPLE_CHECKED_GAMES = frozenset({"euchre"})
REDRAW_GAMES = frozenset({"liars_dice"})
CHAIN_GAMES = frozenset({"skat", "crazy_eights", "go_fish", "gin_rummy"})
ROLLOUT_GAMES = frozenset({"phantom_ttt"})

_REGISTRY: dict[str, Callable[[pyspiel.Game], Sampler]] = {}
_FALLBACK_REPORTED: set[str] = set()


def register_determinizer(game_name: str, factory: Callable[[pyspiel.Game], Sampler]) -> None:
    """Register ``factory(game) -> sampler`` for a game (e.g. a Python-registered one)."""
    if not isinstance(game_name, str) or not game_name:
        raise ValueError(f"game_name: must be a game's short name (a non-empty str), got {game_name!r}")
    _REGISTRY[game_name] = check_callable(factory, "factory")


def determinizable_games() -> list[str]:
    """Names of every registered game ``sampler_for`` handles: the table above, our games,
    and every sequential imperfect-information game through the generic replay sampler
    (perfect-information games need no determinizer and are not listed)."""
    return sorted(set(_REGISTRY) | set(EXACT_GAMES) | RESAMPLE_GAMES | RESAMPLE_CHECKED_GAMES | REDRAW_GAMES
                  | CHAIN_GAMES | ROLLOUT_GAMES | set(_classify_registered()[0]))


def undeterminizable_games() -> dict[str, str]:
    """Each registered game ``sampler_for`` cannot serve, with the reason."""
    return {name: reason for name, reason in _classify_registered()[1].items() if name not in _REGISTRY}


def determinizer_obstacle(game: pyspiel.Game) -> str | None:
    """Why ``sampler_for(game)`` would fail, in a few words, or None when it works (a config
    check can call this before any compute)."""
    name = game.get_type().short_name
    if name in _REGISTRY or game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return None
    return _generic_obstacle(game.get_type())


def determinizer_label(game: pyspiel.Game) -> str:
    """How ``sampler_for(game)`` draws worlds, in a few words (for tables of games); the
    branches follow ``sampler_for``'s order."""
    name = game.get_type().short_name
    if name in _REGISTRY:
        return "registered (game module)"
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return "none needed (perfect information)"
    if name in EXACT_GAMES:
        return "exact worlds, replay-checked (" + EXACT_GAMES[name].__name__ + ")"
    if name in RESAMPLE_GAMES or _python_state_resamples(game):
        return "resample_from_infostate (exact)"
    if name in RESAMPLE_CHECKED_GAMES:
        return "OpenSpiel resample + replay check"
    if name in REDRAW_GAMES:
        return "history replay, hidden chance redrawn (exact)"
    if name in ROLLOUT_GAMES:
        return "opponent rollouts + rejection (exact, uniform opponent)"
    if name in CHAIN_GAMES or _generic_obstacle(game.get_type()) is None:
        return "history replay: exact when small, else Metropolis chain (approximate)"
    return "none (" + _generic_obstacle(game.get_type()) + ")"


def _generic_obstacle(game_type: pyspiel.GameType) -> str | None:
    """Why the generic replay sampler cannot serve a game, or None."""
    if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        return "simultaneous moves (wrap it: turn_based_simultaneous_game(game=...))"
    if game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        return "chance is sampled inside the engine, so the history does not determine the state"
    if not (game_type.provides_information_state_string or game_type.provides_observation_string):
        return "neither an information-state nor an observation string"
    return None


@functools.cache
def _classify_registered() -> tuple[tuple[str, ...], dict[str, str]]:
    works, reasons = [], {}
    for game_type in pyspiel.registered_games():
        name = game_type.short_name
        if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            reasons[name] = _generic_obstacle(game_type)
            continue
        if game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION:
            reasons[name] = "perfect information: the state is the world, none needed"
            continue
        try:
            with _quiet_stderr():  # OpenSpiel's C++ prints each refusal to stderr as well
                pyspiel.load_game(name)
        except pyspiel.SpielError as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else "load failed"
            reasons[name] = f"does not load with default parameters (a wrapper takes its inner game: {first})"
            continue
        obstacle = _generic_obstacle(game_type)
        if obstacle is None:
            works.append(name)
        else:
            reasons[name] = obstacle
    return tuple(works), reasons


@contextlib.contextmanager
def _quiet_stderr():
    """Send file descriptor 2 (where C++ writes) to /dev/null for the block."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def sampler_for(game: pyspiel.Game, seconds_per_world: float = SECONDS_PER_WORLD) -> Sampler:
    """Return a seeded world sampler for ``game``.

    Args:
      game: a loaded pyspiel game (not its name).
      seconds_per_world: time budget of one world for the history-replay samplers (the
        ``replay``/``redraw`` rows and the generic fallback): past it a call raises a
        RuntimeError naming the game, the budget and this parameter. Those samplers also warn
        once per game and process when a world takes over ``history_replay.SLOW_SECONDS``.
    Returns:
      ``sampler(state, player, rng)`` returning a new pyspiel.State consistent with
      ``player``'s information state in ``state``. ``state`` must be a decision state (not
      chance, not terminal) and ``player`` a seat, 0 .. num_players - 1 (not necessarily the
      mover); any other call is refused (ValueError naming ``state`` or ``player``) before
      any draw. A registered sampler (``register_determinizer``) is returned as is: it
      checks its own calls.
    Raises:
      ValueError: ``game`` is not a loaded game, or it has no determinizer.
    """
    check_game(game, sequential=False)  # a simultaneous game gets the reason below
    name = game.get_type().short_name
    if name in _REGISTRY:
        return _REGISTRY[name](game)
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return _perfect_information_sampler
    if name in EXACT_GAMES:
        return EXACT_GAMES[name](game)
    if name in RESAMPLE_GAMES or _python_state_resamples(game):
        return resample_sampler
    if name in RESAMPLE_CHECKED_GAMES:
        return CheckedResampler(game)
    if name in REDRAW_GAMES:
        return ReplayDeterminizer(game, mode="redraw", seconds_per_world=seconds_per_world)
    if name in CHAIN_GAMES:
        return ReplayDeterminizer(game, mode="auto", seconds_per_world=seconds_per_world)
    if name in ROLLOUT_GAMES:
        return OpponentRolloutDeterminizer(game)
    obstacle = _generic_obstacle(game.get_type())
    if obstacle is not None:
        raise ValueError(f"game: no determinizer for '{name}': {obstacle}")
    if name not in _FALLBACK_REPORTED:  # once per game and process
        _FALLBACK_REPORTED.add(name)
        warnings.warn(f"game '{name}': no specific determinizer, using the generic history-replay "
                      "sampler (exact when small, else an approximate Markov chain)", stacklevel=2)
    return ReplayDeterminizer(game, mode="auto", seconds_per_world=seconds_per_world)


def _python_state_resamples(game: pyspiel.Game) -> bool:
    """A Python-registered game whose state class implements resample_from_infostate."""
    method = getattr(type(game.new_initial_state()), "resample_from_infostate", None)
    return method is not None and method is not pyspiel.State.resample_from_infostate


def _seed_from(rng: np.random.Generator) -> int:
    # random_raw is ~10x cheaper than rng.integers and draws from the same seeded stream.
    return int(rng.bit_generator.random_raw() & 0x7FFFFFFF)


def _perfect_information_sampler(state, player, rng):
    check_sampler_call(state, player, state.num_players())
    return state.clone()


def resample_sampler(state, player, rng):
    """OpenSpiel's ``resample_from_infostate`` fed a ``UniformProbabilitySampler`` seeded by one
    draw of ``rng`` (the ``resample`` strategy; ``ISMCTSBot`` batches those draws)."""
    check_sampler_call(state, player, state.num_players())
    return _resample(state, player, rng)


def _resample(state, player, rng):
    """``resample_sampler`` without its call check (for a caller that has checked the call)."""
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
        self._num_players = game.num_players()
        self.max_resample_tries = max_resample_tries
        self.fallback = ReplayDeterminizer(game, mode="chain")
        self.refused = 0

    def __call__(self, state, player, rng):
        check_sampler_call(state, player, self._num_players)
        for _ in range(self.max_resample_tries):
            world = _resample(state, player, rng)  # the call is checked once, above
            # Every refusal measured was a player action (a passed or played card the
            # resampled hand does not hold), so chance outcomes are not re-checked.
            if replays_legally(self.game, world.history(), check_chance=False):
                return world
            self.refused += 1
        return self.fallback(state, player, rng)


class OpponentRolloutDeterminizer:
    """Worlds for games whose hidden part is the opponents' moves (phantom_ttt).

    Own moves are replayed in order; opponents move uniformly at random; a run is rejected
    as soon as the player's information state differs from the real one at an own turn.
    Exact posterior under a uniformly random opponent model.
    """

    def __init__(self, game: pyspiel.Game, max_tries: int = 100_000):
        self.game = game
        self._num_players = game.num_players()
        self.max_tries = max_tries

    def __call__(self, state: pyspiel.State, player: int, rng: np.random.Generator) -> pyspiel.State:
        check_sampler_call(state, player, self._num_players)
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

