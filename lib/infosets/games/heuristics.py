"""TAG's state heuristics for our games (pimcts_aggregation): one cut-off score per game.

Ravichandran, Goodman and Lucas (docs/papers/pimcts_aggregation.md) ran TAG's MCTS with
per-game settings from ``json/players/gameSpecific/`` of GAIGResearch/TabletopGames: a rollout
is cut after ``rolloutLength`` moves (0: the leaf itself) and the cut-off state is scored by
the heuristic the file names. ``heuristic(state)`` returns one value per player on the game's
return scale (its ``min_utility()`` .. ``max_utility()``), which is what the engines take
(``search/settings.py``) and normalise like a return. The Python engine scores a cut-off with
it when given ``heuristic=heuristic`` (as ``papers/pimcts_aggregation`` passes it); the
compiled engine scores one with the game kernel's ``nb_heuristic``.

TAG's definitions (``src/main/java/players/heuristics/``), with s(p) the game score of p:

* ``LeaderHeuristic``: s(p) - max over other players of s(q) (x 1.5 at the end of the game).
* ``PureScoreHeuristic``: s(p).
* ``OrdinalPosition``: players - ordinal position (1 = first; ties share the better place).
* ``WinPlusHeuristic(scale)``: during play min(h(p) / scale, 0.9) with h the game's own
  heuristic score; at the end the result (win 1, draw 0.5, loss 0).
* ``WinOnlyHeuristic``: the result at the end; 0 during play (TAG's GAME_ONGOING value).

TAG rescales rewards by the range its search has seen (``normaliseRewards``); we map to a
fixed scale instead, so a value means the same in every tree.

The ports with a numba kernel: one heuristic, the kernel's. Each is scored by its kernel's
``nb_heuristic`` (the one the compiled engine calls, so the pimcts_aggregation port rows
ran it), on a state array built from the port's kernel object (``state.kernel``, or the
kernel object itself) by the kernel module's own conversion without the log (``log=False``;
the rules-once ports: the kernel object's array ``k.s``), which no heuristic reads. Both
engines therefore score a cut-off alike (``tests/games/test_heuristics.py``). What each kernel
computes, a value per player on [0, 1] (the ports' return scale; Stratego dips below it), and
at the end the returns (win shares), with d = own score - best other player's score:

* Sushi Go! (``LeaderHeuristic``): the score is the points banked in earlier rounds plus this
  round's table scored now (5 per tempura pair, 10 per sashimi triple, dumplings 1/3/6/10/15,
  nigiri as laid, wasabi included; maki and puddings only once scored); value
  0.5 + 0.5 d / (|d| + 10).
* Love Letter (``LeaderHeuristic``): the score is the affection tokens; 0.5 + 0.5 d / (|d| + 1).
* Virus! (``LeaderHeuristic``): the score is the healthy organs (no virus on them; vaccinated
  and immunised ones count); 0.5 + 0.5 d / (|d| + 1).
* Exploding Kittens (``OrdinalPosition``, every player still in jointly first): as win shares,
  1/k to each of the k players still in, 0 to those knocked out.
* Dominion (``PureScoreHeuristic``): min(1, max(0, VP / 100)), VP counting Estates 1, Duchies 3,
  Provinces 6 and Curses -1 over the player's draw pile, hand, discard pile and (for the player
  in turn) play area.
* Stratego (``WinPlusHeuristic(1000)`` over TAG's ``StrategoHeuristic``): min(h / 1000, 0.9),
  h = the mean value of the player's pieces on the board minus the opponent's (Bomb 0, Flag 1,
  any other piece 0.1 x rank, Spy 1 .. Marshal 10; a side with no piece on the board counts 0,
  during setup). As in TAG the value is not clipped at 0: the side behind on material scores
  down to -0.001, just below the return scale.

The kernel modules document the same in their ``nb_heuristic``. The four newer ports
(poker_tag, colt_express, monopoly_deal, seven_wonders) keep their module's ``heuristic``,
which gives their kernel's values (checked in the same test). This module holds no Python
copy of a kernel's heuristic, so both engines score a cut-off alike (docs/changelog.md records
the copies it once had and how far they were off).

The OpenSpiel games of the paper: Hearts, ``LeaderHeuristic`` on minus the penalty points
taken (parsed from the state's text), 0.5 + d / (2 x 26) clipped to [0, 1], mapped to Hearts'
return span 0 .. 36 (``_on_return_scale``); Tic-Tac-Toe, ``WinOnlyHeuristic`` (0 during play,
TAG's GAME_ONGOING, a draw on its -1 .. 1 scale, which the engines back up as 0.5); a
terminal state is scored by its returns.

Values are on the game's return scale because the engines normalise a heuristic by the
game's utility span: a value on [0, 1] would be divided again by Hearts' span of 36, and with
Hearts' TAG settings (rollout 0, depth 3) its trees would barely be steered
(``tests/search/test_engine_twins.py``). On the ports the span is 1.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence

import numpy as np
import pyspiel

from infosets.games.dominion import kernel as dominion_kernel
from infosets.games.exploding_kittens import kernel as kittens_kernel
from infosets.games.love_letter import kernel as love_kernel
from infosets.games.stratego import kernel as stratego_kernel
from infosets.games.sushi_go import kernel as sushi_kernel
from infosets.games.virus import kernel as virus_kernel

# The heuristic TAG's file names for each game (json/players/gameSpecific/...).
TAG_HEURISTIC = {
    "sushi_go": "LeaderHeuristic",            # SushiGo.json
    "love_letter": "LeaderHeuristic",         # LoveLetter.json
    "exploding_kittens": "OrdinalPosition",   # ExplodingKittens.json
    "virus": "LeaderHeuristic",               # Virus.json
    "stratego": "WinPlusHeuristic",           # Stratego.json (args: 1000.0)
    "dominion": "PureScoreHeuristic",         # Dominion.json
    "hearts": "LeaderHeuristic",              # Hearts/Hearts_Tuned.json
    "tic_tac_toe": "WinOnlyHeuristic",        # TicTacToe.json
    # the newer ports define theirs in their own module (``<module>.heuristic``)
    "poker_tag": "LeaderHeuristic",           # Poker/Poker_3+P.json
    "colt_express": "LeaderHeuristic",        # ColtExpress_3P.json
    "monopoly_deal": "LeaderHeuristic",       # MonopolyDeal/MonopolyDeal_HiBudget.json
    "seven_wonders": "PureScoreHeuristic",    # Wonders7/Wonders7_3P.json
}
# Score span used to map Hearts' score gap onto [0, 1]: ours, stated, not TAG's.
SCALES = {"hearts": 26.0}

_KERNEL_GAMES = {"SushiGoKernel": "sushi_go", "LoveLetterKernel": "love_letter",
                 "ExplodingKittensKernel": "exploding_kittens", "VirusKernel": "virus",
                 "StrategoKernel": "stratego", "DominionKernel": "dominion"}
# Ports scored by their kernel's ``nb_heuristic``: (it, the state array of a kernel object
# holding what it reads). Built per call; the log, which costs most to convert, is left out.
_PORT_HEURISTICS = {
    "sushi_go": (sushi_kernel.nb_heuristic, lambda k: k.s),  # an ArrayKernel: the array itself
    "love_letter": (love_kernel.nb_heuristic, lambda k: k.s),  # an ArrayKernel: the array itself
    "virus": (virus_kernel.nb_heuristic, lambda k: k.s),  # an ArrayKernel: the array itself
    "exploding_kittens": (kittens_kernel.nb_heuristic, lambda k: k.s),  # an ArrayKernel: the array itself
    "dominion": (dominion_kernel.nb_heuristic, lambda k: k.s),  # an ArrayKernel: the array itself
    "stratego": (stratego_kernel.nb_heuristic, lambda k: k.s),  # an ArrayKernel: the array itself
}
# Ports whose module defines ``heuristic(state)`` for its pyspiel states and kernels.
_MODULE_HEURISTIC = {"PokerKernel": "poker_tag", "ColtExpressKernel": "colt_express",
                     "MonopolyDealKernel": "monopoly_deal", "WondersKernel": "seven_wonders"}


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def leader(scores: Sequence[float], scale: float) -> list[float]:
    """LeaderHeuristic, normalised: 0.5 + (own score - best other score) / (2 x scale),
    clipped to [0, 1] (Hearts' mapping)."""
    n = len(scores)
    return [_clip(0.5 + (scores[p] - max(scores[q] for q in range(n) if q != p)) / (2 * scale))
            for p in range(n)]


_POINTS = re.compile(r"Points:\s*N:\s*(-?\d+)\s*E:\s*(-?\d+)\s*S:\s*(-?\d+)\s*W:\s*(-?\d+)")


def hearts_scores(state) -> list[float]:
    """Minus the penalty points each Hearts seat has taken so far (OpenSpiel's text)."""
    match = _POINTS.search(str(state))
    if match is None:
        return [0.0] * 4
    return [-float(x) for x in match.groups()]


def _on_return_scale(values: Sequence[float], game) -> list[float]:
    """[0, 1] values mapped onto the game's return scale: lo + v x (hi - lo)."""
    lo, hi = game.min_utility(), game.max_utility()
    return [lo + v * (hi - lo) for v in values]


def game_name(state) -> str:
    """The short name of the game of a pyspiel state or of one of our kernels."""
    kernel_name = _KERNEL_GAMES.get(type(state).__name__) or _MODULE_HEURISTIC.get(type(state).__name__)
    if kernel_name is not None:
        return kernel_name
    return state.get_game().get_type().short_name


def port_heuristic(name: str, kernel) -> list[float]:
    """The ``name`` port kernel's ``nb_heuristic`` of a kernel object (``state.kernel``)."""
    score, to_array = _PORT_HEURISTICS[name]
    out = np.zeros(getattr(kernel, "n", 2))   # Stratego's kernel has no ``n``: two players
    score(to_array(kernel), out)
    return out.tolist()


def heuristic(state) -> list[float]:
    """The TAG heuristic of ``state``'s game (``TAG_HEURISTIC``), one value per player on
    the game's return scale (the ports': [0, 1]; Stratego's dips to -0.001, see above).
    ``state``: a pyspiel state, or one of our ports' kernels (search runs on them)."""
    name = game_name(state)
    if name not in TAG_HEURISTIC:
        raise ValueError(f"game: no TAG heuristic for {name!r}; known: {sorted(TAG_HEURISTIC)}")
    if name in _PORT_HEURISTICS:
        return port_heuristic(name, getattr(state, "kernel", state))
    if name in _MODULE_HEURISTIC.values():
        return importlib.import_module(f"infosets.games.{name}.game").heuristic(state)
    game = state.get_game()
    if state.is_terminal():
        return list(state.returns())
    if name == "hearts":
        return _on_return_scale(leader(hearts_scores(state), SCALES["hearts"]), game)
    return [0.0] * game.num_players()                              # WinOnlyHeuristic


def heuristic_for(game: pyspiel.Game) -> Callable[[object], list[float]]:
    """``heuristic`` after checking that ``game`` has one (a one-line error otherwise)."""
    name = game.get_type().short_name
    if name not in TAG_HEURISTIC:
        raise ValueError(f"game: no TAG heuristic for {name!r}; known: {sorted(TAG_HEURISTIC)}")
    return heuristic
