"""TAG's state heuristics, written for our games (pimcts_aggregation).

Ravichandran, Goodman and Lucas (docs/papers/pimcts_aggregation.md) ran TAG's MCTS with
per-game settings from ``json/players/gameSpecific/`` of GAIGResearch/TabletopGames: a rollout
is cut after ``rolloutLength`` moves (0: the leaf itself) and the cut-off state is scored by
the heuristic the file names. This module writes those heuristics for our ports and the
OpenSpiel games of the paper. ``heuristic(state)`` returns one value per player on the
game's return scale (its ``min_utility()`` .. ``max_utility()``), which is what the engines
take (``search/settings.py``) and normalise like a return; a terminal state is scored by its
returns. The definitions below give a value on [0, 1]; on a game whose returns span more
(Hearts: 0 .. 36) it is mapped to that span (``_on_return_scale``).

TAG's definitions (``src/main/java/players/heuristics/``), with s(p) the game score of p:

* ``LeaderHeuristic``: s(p) - max over other players of s(q) (x 1.5 at the end of the game).
  Ours: 0.5 + gap / (2 x SCALE), clipped to [0, 1]; SCALE is a stated per-game score span.
* ``PureScoreHeuristic``: s(p). Ours: s(p) / SCALE, clipped to [0, 1].
* ``OrdinalPosition``: players - ordinal position (1 = first; ties share the better place).
  Ours: divided by players - 1.
* ``WinPlusHeuristic(scale)``: during play min(h(p) / scale, 0.9) with h the game's own
  heuristic score (Stratego: ``StrategoHeuristic``, the mean piece value of p minus the
  opponent's, piece value 0.1 x rank, Flag 1, Bomb 0); at the end the result (win 1,
  draw 0.5, loss 0). Ours: the same, clipped below at 0.
* ``WinOnlyHeuristic``: the result at the end; 0 during play (TAG's GAME_ONGOING value).

TAG rescales rewards by the range its search has seen (``normaliseRewards``); we use fixed
per-game scales (``SCALES``) instead, so a value means the same in every tree.

Game scores: Sushi Go! points; Love Letter affection tokens; Exploding Kittens still in the
game (1) or out (0); Virus! healthy organs; Dominion victory points; Hearts minus penalty
points taken (parsed from the state's text).

Which engine uses this module: the Python engine. The compiled engine, which searches every
port with a numba kernel (all ten, at every preset of pimcts_aggregation), scores a cut-off
with the kernel's own ``nb_heuristic`` and refuses a ``heuristic`` argument. On four ports
(poker_tag, colt_express, monopoly_deal, seven_wonders) both paths are the port's one
function. On the other six they are two copies that disagree (measured 2026-11-28, largest gap on
random play): Sushi Go! (kernel ``0.5 + 0.5 d / (|d| + 10)`` with this round's table counted,
here a clipped linear lead over banked points, scale 30; 0.29), Love Letter and Virus!
(kernel ``0.5 + 0.5 d / (|d| + 1)``; 0.15, 0.13), Exploding Kittens (kernel win shares 1/k
to the k players left; 0.67), Dominion (kernel VP / 100; 0.04), Stratego (the kernel does not
clip the losing side at 0; below 0.001). The paper's port rows therefore ran the kernels'
mappings. Making this module call the kernels is held back with the other keyed edits
(docs/paper_scale.md); ``tests/games/test_heuristics.py`` marks the six strict xfail.

A defect fixed on 2026-11-28: this module used to return [0, 1] on every game while the
engines normalise a heuristic by the game's utility span, so on Hearts (span 36) a cut-off's
value was divided by 36 (0.5 was backed up as 0.0139) and, with Hearts' TAG settings (rollout
0, depth 3), its trees were barely steered (``tests/search/test_engine_twins.py``). On the
ports (span 1) nothing changes. Tic-Tac-Toe's WinOnly 0 during play is TAG's GAME_ONGOING,
a draw on its -1 .. 1 scale, which the engines back up as 0.5.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence

import pyspiel

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
# Score spans used to map a score (gap) onto [0, 1]: ours, stated, not TAG's.
SCALES = {"sushi_go": 30.0, "virus": 4.0, "dominion": 60.0, "hearts": 26.0}
WIN_PLUS_SCALE = 1000.0   # Stratego.json's WinPlusHeuristic argument
STRATEGO_PIECE = 0.1      # StrategoHeuristic: pieceValueMultiplier
STRATEGO_FLAG, STRATEGO_BOMB = 1.0, 0.0

_KERNEL_GAMES = {"SushiGoKernel": "sushi_go", "LoveLetterKernel": "love_letter",
                 "ExplodingKittensKernel": "exploding_kittens", "VirusKernel": "virus",
                 "StrategoKernel": "stratego", "DominionKernel": "dominion"}
# Ports whose module defines ``heuristic(state)`` for its pyspiel states and kernels.
_MODULE_HEURISTIC = {"PokerKernel": "poker_tag", "ColtExpressKernel": "colt_express",
                     "MonopolyDealKernel": "monopoly_deal", "WondersKernel": "seven_wonders"}


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def leader(scores: Sequence[float], scale: float) -> list[float]:
    """LeaderHeuristic, normalised: 0.5 + (own score - best other score) / (2 x scale)."""
    n = len(scores)
    return [_clip(0.5 + (scores[p] - max(scores[q] for q in range(n) if q != p)) / (2 * scale))
            for p in range(n)]


def pure_score(scores: Sequence[float], scale: float) -> list[float]:
    """PureScoreHeuristic, normalised: own score / scale."""
    return [_clip(s / scale) for s in scores]


def ordinal_position(scores: Sequence[float]) -> list[float]:
    """OrdinalPosition: (players - ordinal) / (players - 1); ordinal = 1 + players strictly
    ahead (equal scores share the better place, as TAG's getOrdinalPosition)."""
    n = len(scores)
    return [(n - (1 + sum(1 for q in scores if q > s))) / (n - 1) for s in scores]


def win_plus(heuristic_scores: Sequence[float], scale: float = WIN_PLUS_SCALE) -> list[float]:
    """WinPlusHeuristic during play: min(h / scale, 0.9), clipped below at 0."""
    return [max(0.0, min(h / scale, 0.9)) for h in heuristic_scores]


def stratego_material(kernel) -> list[float]:
    """TAG's StrategoHeuristic: mean piece value of each side minus the other side's."""
    from infosets.games.stratego import BOMB, FLAG  # noqa: PLC0415

    totals, counts = [0.0, 0.0], [0, 0]
    for owner, rank in zip(kernel.owner, kernel.rank):
        if owner in (0, 1):
            value = (STRATEGO_BOMB if rank == BOMB else STRATEGO_FLAG if rank == FLAG
                     else STRATEGO_PIECE * rank)
            totals[owner] += value
            counts[owner] += 1
    means = [totals[p] / counts[p] if counts[p] else 0.0 for p in (0, 1)]
    return [means[0] - means[1], means[1] - means[0]]


_POINTS = re.compile(r"Points:\s*N:\s*(-?\d+)\s*E:\s*(-?\d+)\s*S:\s*(-?\d+)\s*W:\s*(-?\d+)")


def hearts_scores(state) -> list[float]:
    """Minus the penalty points each Hearts seat has taken so far (OpenSpiel's text)."""
    match = _POINTS.search(str(state))
    if match is None:
        return [0.0] * 4
    return [-float(x) for x in match.groups()]


def _kernel_scores(name: str, k) -> list[float]:
    if name == "sushi_go":
        return [float(x) for x in k.score]
    if name == "love_letter":
        return [float(x) for x in k.tokens]
    if name == "exploding_kittens":
        return [1.0 if a else 0.0 for a in k.alive]
    if name == "virus":
        return [float(k.healthy_organs(p)) for p in range(k.n)]
    if name == "dominion":
        return [float(k.victory_points(p)) for p in range(k.n)]
    raise ValueError(f"game: no score for {name!r}")


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


def heuristic(state) -> list[float]:
    """The TAG heuristic of ``state``'s game (``TAG_HEURISTIC``), one value per player on
    the game's return scale (the ports': [0, 1]). ``state``: a pyspiel state, or one of our
    ports' kernels (search runs on them)."""
    name = game_name(state)
    if name not in TAG_HEURISTIC:
        raise ValueError(f"game: no TAG heuristic for {name!r}; known: {sorted(TAG_HEURISTIC)}")
    if name in _MODULE_HEURISTIC.values():
        return importlib.import_module(f"infosets.games.{name}").heuristic(state)
    kernel = getattr(state, "kernel", state)
    if name in _KERNEL_GAMES.values():
        if kernel.is_terminal():
            return [_clip(float(r)) for r in kernel.returns()]   # win shares, already in [0, 1]
        if name == "stratego":
            return win_plus(stratego_material(kernel))
        scores = _kernel_scores(name, kernel)
        if name == "exploding_kittens":
            return ordinal_position(scores)
        if name == "love_letter":
            return leader(scores, float(kernel.tokens_to_win))
        if name == "dominion":
            return pure_score(scores, SCALES[name])
        return leader(scores, SCALES[name])
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
