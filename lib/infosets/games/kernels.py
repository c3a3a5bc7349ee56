"""The game kernels of the compiled search engine: a registry and one jitted dispatch per call.

Serves the compiled PI-MCTS / IS-MCTS engine (``infosets.search.compiled``) of Ravichandran,
Goodman and Lucas, "PIMCTS evaluation in tabletop games" (docs/papers/pimcts_aggregation.md).

A kernel state is a flat int64 numpy array. Each kernel module provides jitted functions
with one contract (``s`` a state array, ``buf``/``actions`` int64 buffers, ``probs``/``out``
float64 buffers, ``rng`` a PCG32 ``uint64[2]`` array from ``infosets.core.pcg32``):

* ``nb_current_player(s)``: the player to move, ``CHANCE`` (-1) or ``TERMINAL`` (-4);
* ``nb_legal_actions(s, buf) -> n``: the legal actions (chance outcomes at chance nodes), in
  OpenSpiel's order;
* ``nb_chance_outcomes(s, actions, probs) -> n``: outcomes and their probabilities;
* ``nb_apply_action(s, a)``: in place;
* ``nb_returns(s, out)``: every player's return (zeros before the end);
* ``nb_heuristic(s, out)``: a cut-off score per player on the returns' scale (the engine
  normalises it as it normalises returns);
* ``nb_infostate_key(s, player) -> int64``: injective over (player, information state), or
  a 64-bit hash of it where the state does not fit (trick_game);
* ``nb_determinize(s, player, rng)``: in place, a world consistent with everything
  ``player`` has seen, with the distribution of the adapter's determinizer.

The engine is written once over these names. It calls the ``k_*`` functions below, which
branch on a kernel id; numba compiles the branches once and caches them on disk
(``cache=True``), which function arguments or closures would not allow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numba as nb
import numpy as np

from infosets.core.pcg32 import PCG32
from infosets.games import _belote_kernel as belote
from infosets.games import _colt_express_kernel as colt  # colt_express kernel (id 17)
from infosets.games import _dominion_kernel as dominion
from infosets.games import _exploding_kittens_kernel as kittens
from infosets.games import _leduc_kernel as leduc
from infosets.games import _liars_dice_kernel as liars
from infosets.games import _love_letter_kernel as love
from infosets.games import _monopoly_deal_kernel as monopoly  # monopoly_deal kernel (id 18)
from infosets.games import _poker_tag_kernel as poker_tag
from infosets.games import _seven_wonders_kernel as wonders
from infosets.games import _stratego_kernel as stratego
from infosets.games import _sushi_go_kernel as sushi
from infosets.games import _trick_kernel_nb as trick
from infosets.games import _virus_kernel as virus

LEDUC, LIARS_DICE, TRICK_GAME = 0, 1, 2
BELOTE2P = 3
# -- tabletop card-game kernel ids --
SUSHI_GO, LOVE_LETTER, VIRUS = 10, 11, 12
STRATEGO, EXPLODING_KITTENS, DOMINION = 13, 14, 15
# -- kernels of the newer TAG ports (ids from 20 up; one branch each below) ---------------
# Their histories are long, so their nb_infostate_key is a 64-bit hash of the information
# state (equal strings, equal keys; distinct strings collide with probability ~2**-64).
POKER_TAG = 20
# -- seven_wonders kernel id --
SEVEN_WONDERS = 16
# -- end seven_wonders kernel id --
# -- colt_express / monopoly_deal kernel ids (hashed information states, as above) --
COLT_EXPRESS = 17
MONOPOLY_DEAL = 18
# -- end colt_express / monopoly_deal kernel ids --


@nb.njit(cache=True)
def k_current_player(kid, s):
    if kid == LEDUC:
        return leduc.nb_current_player(s)
    if kid == LIARS_DICE:
        return liars.nb_current_player(s)
    if kid == BELOTE2P:
        return belote.nb_current_player(s)
    if kid == POKER_TAG:
        return poker_tag.nb_current_player(s)
    if kid == SUSHI_GO:
        return sushi.nb_current_player(s)
    if kid == LOVE_LETTER:
        return love.nb_current_player(s)
    if kid == VIRUS:
        return virus.nb_current_player(s)
    if kid == STRATEGO:
        return stratego.nb_current_player(s)
    if kid == EXPLODING_KITTENS:
        return kittens.nb_current_player(s)
    if kid == DOMINION:
        return dominion.nb_current_player(s)
    # -- seven_wonders --
    if kid == SEVEN_WONDERS:
        return wonders.nb_current_player(s)
    # -- end seven_wonders --
    # -- colt_express / monopoly_deal branches --
    if kid == COLT_EXPRESS:
        return colt.nb_current_player(s)
    if kid == MONOPOLY_DEAL:
        return monopoly.nb_current_player(s)
    # -- end colt_express / monopoly_deal branches --
    return trick.nb_current_player(s)


@nb.njit(cache=True)
def k_legal_actions(kid, s, buf):
    if kid == LEDUC:
        return leduc.nb_legal_actions(s, buf)
    if kid == LIARS_DICE:
        return liars.nb_legal_actions(s, buf)
    if kid == BELOTE2P:
        return belote.nb_legal_actions(s, buf)
    if kid == POKER_TAG:
        return poker_tag.nb_legal_actions(s, buf)
    if kid == SUSHI_GO:
        return sushi.nb_legal_actions(s, buf)
    if kid == LOVE_LETTER:
        return love.nb_legal_actions(s, buf)
    if kid == VIRUS:
        return virus.nb_legal_actions(s, buf)
    if kid == STRATEGO:
        return stratego.nb_legal_actions(s, buf)
    if kid == EXPLODING_KITTENS:
        return kittens.nb_legal_actions(s, buf)
    if kid == DOMINION:
        return dominion.nb_legal_actions(s, buf)
    # -- seven_wonders --
    if kid == SEVEN_WONDERS:
        return wonders.nb_legal_actions(s, buf)
    # -- end seven_wonders --
    # -- colt_express / monopoly_deal branches --
    if kid == COLT_EXPRESS:
        return colt.nb_legal_actions(s, buf)
    if kid == MONOPOLY_DEAL:
        return monopoly.nb_legal_actions(s, buf)
    # -- end colt_express / monopoly_deal branches --
    return trick.nb_legal_actions(s, buf)


@nb.njit(cache=True)
def k_chance_outcomes(kid, s, actions, probs):
    if kid == LEDUC:
        return leduc.nb_chance_outcomes(s, actions, probs)
    if kid == LIARS_DICE:
        return liars.nb_chance_outcomes(s, actions, probs)
    if kid == BELOTE2P:
        return belote.nb_chance_outcomes(s, actions, probs)
    if kid == POKER_TAG:
        return poker_tag.nb_chance_outcomes(s, actions, probs)
    if kid == SUSHI_GO:
        return sushi.nb_chance_outcomes(s, actions, probs)
    if kid == LOVE_LETTER:
        return love.nb_chance_outcomes(s, actions, probs)
    if kid == VIRUS:
        return virus.nb_chance_outcomes(s, actions, probs)
    if kid == STRATEGO:
        return stratego.nb_chance_outcomes(s, actions, probs)
    if kid == EXPLODING_KITTENS:
        return kittens.nb_chance_outcomes(s, actions, probs)
    if kid == DOMINION:
        return dominion.nb_chance_outcomes(s, actions, probs)
    # -- seven_wonders --
    if kid == SEVEN_WONDERS:
        return wonders.nb_chance_outcomes(s, actions, probs)
    # -- end seven_wonders --
    # -- colt_express / monopoly_deal branches --
    if kid == COLT_EXPRESS:
        return colt.nb_chance_outcomes(s, actions, probs)
    if kid == MONOPOLY_DEAL:
        return monopoly.nb_chance_outcomes(s, actions, probs)
    # -- end colt_express / monopoly_deal branches --
    return trick.nb_chance_outcomes(s, actions, probs)


@nb.njit(cache=True)
def k_apply_action(kid, s, action):
    if kid == LEDUC:
        leduc.nb_apply_action(s, action)
    elif kid == LIARS_DICE:
        liars.nb_apply_action(s, action)
    elif kid == BELOTE2P:
        belote.nb_apply_action(s, action)
    elif kid == POKER_TAG:
        poker_tag.nb_apply_action(s, action)
    elif kid == SUSHI_GO:
        sushi.nb_apply_action(s, action)
    elif kid == LOVE_LETTER:
        love.nb_apply_action(s, action)
    elif kid == VIRUS:
        virus.nb_apply_action(s, action)
    elif kid == STRATEGO:
        stratego.nb_apply_action(s, action)
    elif kid == EXPLODING_KITTENS:
        kittens.nb_apply_action(s, action)
    elif kid == DOMINION:
        dominion.nb_apply_action(s, action)
    # -- seven_wonders --
    elif kid == SEVEN_WONDERS:
        wonders.nb_apply_action(s, action)
    # -- end seven_wonders --
    # -- colt_express / monopoly_deal branches --
    elif kid == COLT_EXPRESS:
        colt.nb_apply_action(s, action)
    elif kid == MONOPOLY_DEAL:
        monopoly.nb_apply_action(s, action)
    # -- end colt_express / monopoly_deal branches --
    else:
        trick.nb_apply_action(s, action)


@nb.njit(cache=True)
def k_returns(kid, s, out):
    if kid == LEDUC:
        leduc.nb_returns(s, out)
    elif kid == LIARS_DICE:
        liars.nb_returns(s, out)
    elif kid == BELOTE2P:
        belote.nb_returns(s, out)
    elif kid == POKER_TAG:
        poker_tag.nb_returns(s, out)
    elif kid == SUSHI_GO:
        sushi.nb_returns(s, out)
    elif kid == LOVE_LETTER:
        love.nb_returns(s, out)
    elif kid == VIRUS:
        virus.nb_returns(s, out)
    elif kid == STRATEGO:
        stratego.nb_returns(s, out)
    elif kid == EXPLODING_KITTENS:
        kittens.nb_returns(s, out)
    elif kid == DOMINION:
        dominion.nb_returns(s, out)
    # -- seven_wonders --
    elif kid == SEVEN_WONDERS:
        wonders.nb_returns(s, out)
    # -- end seven_wonders --
    # -- colt_express / monopoly_deal branches --
    elif kid == COLT_EXPRESS:
        colt.nb_returns(s, out)
    elif kid == MONOPOLY_DEAL:
        monopoly.nb_returns(s, out)
    # -- end colt_express / monopoly_deal branches --
    else:
        trick.nb_returns(s, out)


@nb.njit(cache=True)
def k_heuristic(kid, s, out):
    if kid == LEDUC:
        leduc.nb_heuristic(s, out)
    elif kid == LIARS_DICE:
        liars.nb_heuristic(s, out)
    elif kid == BELOTE2P:
        belote.nb_heuristic(s, out)
    elif kid == POKER_TAG:
        poker_tag.nb_heuristic(s, out)
    elif kid == SUSHI_GO:
        sushi.nb_heuristic(s, out)
    elif kid == LOVE_LETTER:
        love.nb_heuristic(s, out)
    elif kid == VIRUS:
        virus.nb_heuristic(s, out)
    elif kid == STRATEGO:
        stratego.nb_heuristic(s, out)
    elif kid == EXPLODING_KITTENS:
        kittens.nb_heuristic(s, out)
    elif kid == DOMINION:
        dominion.nb_heuristic(s, out)
    # -- seven_wonders --
    elif kid == SEVEN_WONDERS:
        wonders.nb_heuristic(s, out)
    # -- end seven_wonders --
    # -- colt_express / monopoly_deal branches --
    elif kid == COLT_EXPRESS:
        colt.nb_heuristic(s, out)
    elif kid == MONOPOLY_DEAL:
        monopoly.nb_heuristic(s, out)
    # -- end colt_express / monopoly_deal branches --
    else:
        trick.nb_heuristic(s, out)


@nb.njit(cache=True)
def k_infostate_key(kid, s, player):
    if kid == LEDUC:
        return leduc.nb_infostate_key(s, player)
    if kid == LIARS_DICE:
        return liars.nb_infostate_key(s, player)
    if kid == BELOTE2P:
        return belote.nb_infostate_key(s, player)
    if kid == POKER_TAG:
        return poker_tag.nb_infostate_key(s, player)
    if kid == SUSHI_GO:
        return sushi.nb_infostate_key(s, player)
    if kid == LOVE_LETTER:
        return love.nb_infostate_key(s, player)
    if kid == VIRUS:
        return virus.nb_infostate_key(s, player)
    if kid == STRATEGO:
        return stratego.nb_infostate_key(s, player)
    if kid == EXPLODING_KITTENS:
        return kittens.nb_infostate_key(s, player)
    if kid == DOMINION:
        return dominion.nb_infostate_key(s, player)
    # -- seven_wonders --
    if kid == SEVEN_WONDERS:
        return wonders.nb_infostate_key(s, player)
    # -- end seven_wonders --
    # -- colt_express / monopoly_deal branches --
    if kid == COLT_EXPRESS:
        return colt.nb_infostate_key(s, player)
    if kid == MONOPOLY_DEAL:
        return monopoly.nb_infostate_key(s, player)
    # -- end colt_express / monopoly_deal branches --
    return trick.nb_infostate_key(s, player)


@nb.njit(cache=True)
def k_determinize(kid, s, player, rng):
    if kid == LEDUC:
        leduc.nb_determinize(s, player, rng)
    elif kid == LIARS_DICE:
        liars.nb_determinize(s, player, rng)
    elif kid == BELOTE2P:
        belote.nb_determinize(s, player, rng)
    elif kid == POKER_TAG:
        poker_tag.nb_determinize(s, player, rng)
    elif kid == SUSHI_GO:
        sushi.nb_determinize(s, player, rng)
    elif kid == LOVE_LETTER:
        love.nb_determinize(s, player, rng)
    elif kid == VIRUS:
        virus.nb_determinize(s, player, rng)
    elif kid == STRATEGO:
        stratego.nb_determinize(s, player, rng)
    elif kid == EXPLODING_KITTENS:
        kittens.nb_determinize(s, player, rng)
    elif kid == DOMINION:
        dominion.nb_determinize(s, player, rng)
    # -- seven_wonders --
    elif kid == SEVEN_WONDERS:
        wonders.nb_determinize(s, player, rng)
    # -- end seven_wonders --
    # -- colt_express / monopoly_deal branches --
    elif kid == COLT_EXPRESS:
        colt.nb_determinize(s, player, rng)
    elif kid == MONOPOLY_DEAL:
        monopoly.nb_determinize(s, player, rng)
    # -- end colt_express / monopoly_deal branches --
    else:
        trick.nb_determinize(s, player, rng)

@dataclass(frozen=True)
class Kernel:
    """One game's kernel as the engine and the adapters see it.

    ``kid`` selects the jitted branch; ``num_actions`` bounds every legal list (chance
    included) and every action id; ``from_history``/``history`` convert to and from pyspiel
    action histories; ``infostate_string`` is OpenSpiel's string of a state array.
    ``state_history`` reads the action history of a pyspiel state where ``history()`` does
    not hold all of it (None: ``state.history()``).
    """

    name: str
    kid: int
    num_players: int
    num_actions: int
    from_history: Callable[[list], np.ndarray]
    history: Callable[[np.ndarray], list]
    infostate_string: Callable[[np.ndarray, int], str]
    state_history: Callable[[object], list] | None = None
    # Ports whose worlds keep the real history (a tabletop adapter's ``resample`` changes hidden
    # cards only) convert through the adapter's kernel object instead of by replay.
    array_of_state: Callable | None = None   # pyspiel state -> array
    state_of_array: Callable | None = None   # (game, array) -> pyspiel state

    def history_of(self, state) -> list:
        """The action history of a pyspiel state of this game, as ``from_history`` reads it."""
        return state.history() if self.state_history is None else self.state_history(state)

    def from_state(self, state) -> np.ndarray:
        """The state array of a pyspiel state of this game (by its history)."""
        if self.array_of_state is not None:
            return self.array_of_state(state)
        return self.from_history(self.history_of(state))

    def to_state(self, game, array: np.ndarray):
        """The pyspiel state of ``game`` reached by the array's history."""
        if self.state_of_array is not None:
            return self.state_of_array(game, array)
        state = game.new_initial_state()
        for action in self.history(array):
            state.apply_action(action)
        return state


def _leduc(game) -> Kernel | None:
    params = game.get_parameters()
    if params.get("players", 2) != 2 or params.get("action_mapping") or params.get("suit_isomorphism"):
        return None
    return Kernel("leduc_poker", LEDUC, 2, leduc.NUM_ACTIONS, leduc.array_from_history,
                  leduc.array_history, leduc.array_infostate_string)


def _liars_dice(game) -> Kernel | None:
    params = game.get_parameters()
    if liars.uncovered(params) is not None:  # the kernel's declared coverage (liars.COVERS)
        return None
    sides = int(params.get("dice_sides", 6))
    return Kernel("liars_dice", LIARS_DICE, 2, liars.num_actions(sides),
                  lambda history: liars.array_from_history(history, sides), liars.array_history,
                  liars.array_infostate_string)


def _trick_game(game) -> Kernel | None:
    num_cards, hand_size = game.num_cards, game.hand_size
    if num_cards > 62:
        return None
    return Kernel("trick_game", TRICK_GAME, 2, num_cards,
                  lambda history: trick.array_from_history(history, num_cards, hand_size),
                  trick.array_history, trick.array_infostate_string)


def _poker_tag(game) -> Kernel:
    n = game.num_players()  # the parameters as the adapter validated them
    settings = (n, game.max_hands, game.starting_money, game.small_blind, game.big_blind, game.bet,
                game.max_game_length())

    def from_history(history) -> np.ndarray:
        state = poker_tag.new_state(*settings)
        poker_tag.nb_apply_history(state, np.asarray(history, dtype=np.int64))
        return state

    return Kernel("poker_tag", POKER_TAG, n, poker_tag.NUM_ACTIONS, from_history,
                  poker_tag.array_history, poker_tag.array_infostate_string)


# -- belote2p block --
def _belote2p(game) -> Kernel:
    c = game.constraint
    return Kernel("belote2p", BELOTE2P, 2, belote.NUM_ACTIONS,
                  lambda history: belote.array_from_history(history, c.min_trumps, c.points_lo,
                                                            c.points_hi),
                  belote.array_history, belote.array_infostate_string, belote.adapter_history)


_FACTORIES = {"leduc_poker": _leduc, "liars_dice": _liars_dice, "trick_game": _trick_game,
              "poker_tag": _poker_tag, "belote2p": _belote2p}


# -- tabletop card-game kernels (sushi_go, love_letter, virus) --------------------------------
@dataclass(frozen=True)
class FieldKernel(Kernel):
    """A kernel of a tabletop port whose array holds exactly the fields of the port's Python
    kernel (``state.kernel``): states convert both ways directly, without replaying moves.

    ``to_state`` gives a pyspiel state whose ``kernel`` is built from the array; its
    ``history()`` is empty (a determinized world has no history of its own: its hidden cards
    are not the dealt ones). ``history`` is unavailable for the same reason.
    """

    from_kernel: Callable | None = None
    to_kernel: Callable | None = None

    def from_state(self, state) -> np.ndarray:
        return self.from_kernel(state.kernel)

    def to_state(self, game, array: np.ndarray):
        state = game.new_initial_state()
        state.kernel = self.to_kernel(array)
        return state


def _no_history(array: np.ndarray) -> list:
    raise ValueError("array: this kernel's states carry no action history; use to_state")


def _sushi_go(game) -> Kernel | None:
    n = game.num_players()
    return FieldKernel("sushi_go", SUSHI_GO, n, sushi.NUM_ACTIONS,
                       lambda history: sushi.array_from_history(history, n), _no_history,
                       sushi.array_infostate_string, from_kernel=sushi.array_from_kernel,
                       to_kernel=sushi.kernel_from_array)


def _love_letter(game) -> Kernel | None:
    n, tokens = game.num_players(), game.tokens_to_win
    return FieldKernel("love_letter", LOVE_LETTER, n, love.NUM_ACTIONS,
                       lambda history: love.array_from_history(history, n, tokens), _no_history,
                       love.array_infostate_string, from_kernel=love.array_from_kernel,
                       to_kernel=love.kernel_from_array)


def _virus(game) -> Kernel | None:
    n = game.num_players()
    return FieldKernel("virus", VIRUS, n, virus.NUM_ACTIONS,
                       lambda history: virus.array_from_history(history, n), _no_history,
                       virus.array_infostate_string, from_kernel=virus.array_from_kernel,
                       to_kernel=virus.kernel_from_array)


_FACTORIES.update({"sushi_go": _sushi_go, "love_letter": _love_letter, "virus": _virus})
# -- end tabletop card-game kernels ----------------------------------------------------------


# -- tabletop ports (stratego, exploding_kittens, dominion) --
def _stratego(game) -> Kernel | None:
    max_moves = int(game.max_moves)
    return Kernel("stratego", STRATEGO, 2, stratego.NUM_ACTIONS,
                  lambda history: stratego.array_from_history(history, max_moves), stratego.array_history,
                  stratego.array_infostate_string)


def _exploding_kittens(game) -> Kernel | None:
    players = game.num_players()
    return Kernel("exploding_kittens", EXPLODING_KITTENS, players, kittens.NUM_ACTIONS,
                  lambda history: kittens.array_from_history(history, players), kittens.array_history,
                  kittens.array_infostate_string, array_of_state=kittens.array_from_state,
                  state_of_array=kittens.state_from_array)


def _dominion(game) -> Kernel | None:
    players, max_turns = game.num_players(), int(game.max_turns)
    return Kernel("dominion", DOMINION, players, dominion.NUM_ACTIONS,
                  lambda history: dominion.array_from_history(history, players, max_turns),
                  dominion.array_history, dominion.array_infostate_string,
                  array_of_state=dominion.array_from_state, state_of_array=dominion.state_from_array)


_FACTORIES.update({"stratego": _stratego, "exploding_kittens": _exploding_kittens, "dominion": _dominion})
# -- end tabletop ports --


# -- seven_wonders kernel --
def _seven_wonders(game) -> Kernel | None:
    if game.num_players() != wonders.NP:
        return None
    return Kernel("seven_wonders", SEVEN_WONDERS, wonders.NP, wonders.NUM_ACTIONS,
                  wonders.array_from_history, wonders.array_history, wonders.array_infostate_string,
                  state_of_array=lambda g, array: g.state_from_history(wonders.array_history(array)))


_FACTORIES.update({"seven_wonders": _seven_wonders})
# -- end seven_wonders kernel --
# -- colt_express / monopoly_deal kernels (colt_express: replayed worlds, the array keeps the
# whole history; monopoly_deal: a bounded array converted through the adapter's kernel object) --
def _colt_express(game) -> Kernel | None:
    players = game.num_players()
    return Kernel("colt_express", COLT_EXPRESS, players, colt.NUM_ACTIONS,
                  lambda history: colt.array_from_history(history, players), colt.array_history,
                  colt.array_infostate_string)


def _monopoly_deal(game) -> Kernel | None:
    players, max_turns = game.num_players(), int(game.max_turns)
    if players > monopoly.MAXP:
        return None
    return Kernel("monopoly_deal", MONOPOLY_DEAL, players, monopoly.NUM_ACTIONS,
                  lambda history: monopoly.array_from_history(history, players, max_turns),
                  monopoly.array_history, monopoly.array_infostate_string,
                  array_of_state=monopoly.array_from_state, state_of_array=monopoly.state_from_array)


_FACTORIES.update({"colt_express": _colt_express, "monopoly_deal": _monopoly_deal})
# -- end colt_express / monopoly_deal kernels --


def kernel_games() -> tuple[str, ...]:
    """Games with a kernel (for some parameters: see ``kernel_for``)."""
    return tuple(sorted(_FACTORIES))


def kernel_for(game) -> Kernel | None:
    """The kernel of a loaded pyspiel game, or None (no kernel for the game or its parameters)."""
    factory = _FACTORIES.get(game.get_type().short_name)
    return factory(game) if factory is not None else None


# Kernels that cover only some parameters of their game and declare them in their module:
# ``uncovered(params)`` is None or one line naming the first parameter outside the kernel.
_COVERAGE = {"liars_dice": liars.uncovered}


def kernel_gap(game) -> str | None:
    """None if ``game`` has a kernel, else one line saying why not (for engine="auto")."""
    name = game.get_type().short_name
    if name not in _FACTORIES:
        return f"no kernel for {name} (kernels: {', '.join(kernel_games())})"
    if kernel_for(game) is not None:
        return None
    check = _COVERAGE.get(name)
    reason = check(game.get_parameters()) if check is not None else None
    return reason or f"the {name} kernel does not cover these parameters ({game})"


def require_kernel(game, other_engine: str | None) -> Kernel:
    """The game's kernel, or a one-line ValueError naming the engines the game has."""
    kernel = kernel_for(game)
    if kernel is None:
        name = game.get_type().short_name
        engines = "'python'" + (f" or '{other_engine}'" if other_engine else "")
        raise ValueError(f"engine: 'compiled' needs a game kernel and '{name}' (with these parameters) "
                         f"has none (kernels: {', '.join(kernel_games())}); use engine={engines}")
    return kernel


class KernelSampler:
    """``sampler(state, player, rng)`` for pyspiel states of a kernel game: the kernel's
    ``determinize``, drawing from the search's PCG32 (``rng``; a numpy Generator seeds one).

    The Python reference engines use it so that their worlds are the compiled engine's,
    draw for draw. The state's array is cached by history (one search, many worlds).
    """

    uses_pcg = True

    def __init__(self, game, kernel: Kernel):
        self.game, self.kernel = game, kernel
        self._history: list | None = None
        self._array: np.ndarray | None = None

    def array(self, state) -> np.ndarray:
        history = self.kernel.history_of(state)
        if history != self._history:
            self._array, self._history = self.kernel.from_history(history), history
        return self._array

    def __call__(self, state, player: int, rng):
        if not isinstance(rng, PCG32):
            rng = PCG32.from_generator(rng)
        world = self.array(state).copy()
        stream = rng.to_array()
        k_determinize(self.kernel.kid, world, player, stream)
        rng.load(stream)
        return self.kernel.to_state(self.game, world)


def kernel_sampler(game, kernel: Kernel | None = None) -> KernelSampler:
    kernel = require_kernel(game, None) if kernel is None else kernel
    return KernelSampler(game, kernel)


def kernel_heuristic(game, kernel: Kernel | None = None):
    """``heuristic(state) -> list`` of a pyspiel state, by the kernel's jitted heuristic
    (the one the compiled engine uses, so both engines score cut-offs alike)."""
    kernel = require_kernel(game, None) if kernel is None else kernel

    def heuristic(state) -> list[float]:
        out = np.zeros(kernel.num_players)
        k_heuristic(kernel.kid, kernel.from_state(state), out)
        return out.tolist()

    heuristic.__doc__ = f"The {kernel.name} kernel's cut-off heuristic (see its nb_heuristic)."
    return heuristic
