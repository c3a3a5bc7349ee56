"""The engine a search bot runs, decided once when the bot is built, with its reason, logged.

Serves the bots of the PI-MCTS / IS-MCTS comparison of Ravichandran, Goodman and Lucas,
"PIMCTS evaluation in tabletop games" (docs/papers/pimcts_aggregation.md): the paper compares
agents, not engines, and every engine runs the same search (``infosets.search.mcts`` lists
where OpenSpiel's C++ trees differ). ``engine="auto"`` chooses, in this order:

1. ``"compiled"`` where the game has a kernel (``infosets.games.kernels``) that covers its
   parameters and the bot has no custom sampler or rollout policy (the kernel draws its own);
2. ``"python"`` on a Python-registered game (OpenSpiel 2.0.2's C++ bots crash on it), for
   IS-MCTS (OpenSpiel's C++ ``ISMCTSBot`` is a different algorithm) and for open-loop trees
   with per-game settings (rollout_length, max_depth, fpu, explore_epsilon: C++ ``MCTSBot``
   takes none of them);
3. else, per open-loop tree, ``"cpp"`` when the tree's budget is at least
   ``AUTO_CPP_MIN_RATIO`` times the legal actions of its world, ``"python"`` below. The
   choice is then known at construction only when the budget settles it for every state
   (``>= AUTO_CPP_MIN_RATIO x`` the game's distinct actions: cpp; below
   ``AUTO_CPP_MIN_RATIO``: python); otherwise the bot plans ``"cpp+python"``.

Each bot logs its choice once at INFO on this module's logger, and ``engine_used`` holds it
from construction until the first search replaces it by the engine that ran.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from infosets.games.kernels import kernel_gap

logger = logging.getLogger(__name__)

# C++ MCTSBot spends a tree's first iteration expanding the root (no child visit), which at a
# few iterations per tree (large D) removes a large share of the budget (D = 100 at B = 200:
# half). Our Python UCT gives every iteration to a child. So "auto" runs a tree in C++ only
# when its budget is at least this many times its world's legal actions.
AUTO_CPP_MIN_RATIO = 10
PER_TREE = "cpp+python"  # the plan when the budget rule decides tree by tree


@dataclass(frozen=True)
class EngineChoice:
    """The engine a bot plans to run (``"python"``, ``"cpp"``, ``"compiled"`` or
    ``PER_TREE``) and why, in one line."""

    engine: str
    reason: str


def tree_uses_cpp(budget: int, legal_actions: int) -> bool:
    """The budget rule of "auto" for one open-loop tree (see the module docstring)."""
    return budget >= AUTO_CPP_MIN_RATIO * legal_actions


def _no_compiled(game, kernel, custom: bool) -> str:
    """Why "auto" does not run the compiled engine on ``game``."""
    if kernel is not None and custom:
        return "a custom sampler or rollout_policy (the compiled engine draws its own)"
    return kernel_gap(game)


def open_loop_choice(game, engine: str, kernel, custom: bool, settings, budget: int,
                     python_game: bool) -> EngineChoice:
    """The engine of an OL-MCTS / PI-MCTS bot: ``engine`` as requested, or the "auto" rule
    with ``budget`` the iterations of one tree and ``kernel`` the game's (or None)."""
    if engine != "auto":
        return EngineChoice(engine, f"engine={engine!r} requested")
    if kernel is not None and not custom:
        return EngineChoice("compiled", f"the {kernel.name} kernel covers these parameters")
    why = _no_compiled(game, kernel, custom)
    if python_game:
        return EngineChoice("python", f"{why}; the game is Python-registered (no C++ trees)")
    if not settings.is_default:
        return EngineChoice("python", f"{why}; per-game settings, which C++ MCTSBot does not take")
    actions = game.num_distinct_actions()
    if tree_uses_cpp(budget, actions):
        return EngineChoice("cpp", f"{why}; budget {budget} per tree >= {AUTO_CPP_MIN_RATIO} x "
                                   f"the game's {actions} distinct actions")
    if not tree_uses_cpp(budget, 1):
        return EngineChoice("python", f"{why}; budget {budget} per tree < {AUTO_CPP_MIN_RATIO} x "
                                      "any number of legal actions")
    return EngineChoice(PER_TREE, f"{why}; per tree, C++ when budget {budget} >= "
                                  f"{AUTO_CPP_MIN_RATIO} x the world's legal actions "
                                  f"(up to {actions}), else Python")


def ismcts_choice(game, engine: str, kernel, custom: bool) -> EngineChoice:
    """The engine of an IS-MCTS bot: ``engine`` as requested, or compiled where a kernel
    serves it, else Python."""
    if engine != "auto":
        return EngineChoice(engine, f"engine={engine!r} requested")
    if kernel is not None and not custom:
        return EngineChoice("compiled", f"the {kernel.name} kernel covers these parameters")
    return EngineChoice("python", _no_compiled(game, kernel, custom))


def log_choice(bot: str, game, choice: EngineChoice) -> None:
    """One INFO line: the bot, the game, the engine and why."""
    if logger.isEnabledFor(logging.INFO):
        logger.info("%s on %s: engine %s (%s)", bot, game, choice.engine, choice.reason)
