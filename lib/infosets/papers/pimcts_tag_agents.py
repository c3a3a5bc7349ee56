"""TAG's MCTS agent for each game of Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games"
(docs/papers/pimcts_aggregation.md): the table ``pimcts_tag_agents.csv`` and its translation
into our bots' keyword arguments (issue 56).

The paper ran TAG's agent with a tuned parameter file per game. The table holds every setting of
that file, read from the authors' submission code (GAIGResearch/TabletopGames ``c6d074e66``,
``source`` c6d074e66) where it has the game's file, else from TAG ``c4d7687`` (Hearts, Monopoly
Deal, 7 Wonders); a setting the file leaves out takes the paper code's default (``K`` 1.0,
``exploreEpsilon`` 0.1, ``maxTreeDepth`` 1000, ``MASTGamma`` 0, ``oppModelType`` RANDOM).
docs/tag_agents.md states each setting's semantics from TAG's code and section 9 the reading
decisions.

No tuned file sets ``oppModelType``, so under MAST rollouts every row takes the submission code's
RANDOM (``MCTSParams``; ``SingleTreeNode.rollout``, ``advanceToTurnOfPlayer``): only the root
player moves by MAST, the others uniformly at random, our ``mast_opponents`` "random" (TAG
c4d7687's default DEFAULT would move them by MAST too).

Every row counts its rollout length in players' moves (``rollout_count`` "moves": chance steps
are inside TAG's forward model, so they never count). Two settings are translated, not copied,
because TAG's plain UCB is not ours
(``SingleTreeNode.ucbValue``, ``treePolicyAction``, the same at both commits):

* ``K`` does not enter TAG's plain UCB, whose exploration term is ``sqrt(ln N / n)``; ours is
  ``uct_c * sqrt(ln N / n)``, so a UCB row runs with ``uct_c`` 1.0. (K enters TAG's UCB only in
  an untried action's ``max(FPU, K sqrt(N))``, which no UCB row reaches: their FPU is 1e6.)
* TAG draws the epsilon-random action under Greedy, RegretMatching, EXP3 and NoAveragingRM
  only; ours draws it under UCB too, so a UCB row runs with ``explore_epsilon`` 0.

The committed paper run used ``pimcts_settings.csv`` (its K, rollout length, heuristic, depth,
FPU and epsilon, and none of TAG's further settings); this table is what the TAG-agent rerun
(config ``tag_agents``) plays.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from infosets.search import settings as mcts_settings
from infosets.search.multitree import check_settings

TAG_AGENTS_PATH = Path(__file__).with_name("pimcts_tag_agents.csv")
TAG_AGENT_COLUMNS = ("paper_game", "game", "players", "K", "rollout_length", "rollout_per_player",
                     "heuristic", "max_tree_depth", "fpu", "explore_epsilon", "tree_policy",
                     "opponent_tree", "backup", "max_backup_threshold", "rollout", "mast_gamma",
                     "rollout_termination", "reuse_tree", "source", "file")
# TAG's defaults of the settings our engines may lack: a row at its default needs nothing.
TAG_DEFAULTS = {"tree_policy": "UCB", "opponent_tree": "OneTree", "backup": "mean",
                "max_backup_threshold": 1_000_000, "rollout": "random", "mast_gamma": 0.0,
                "rollout_termination": "EXACT", "reuse_tree": False, "mast_opponents": "MAST"}
# The submission code's oppModelType default RANDOM (no tuned file sets it) in our terms.
OPP_MODEL_MAST_OPPONENTS = "random"


def load_tag_agents() -> pd.DataFrame:
    """The committed table of TAG's per-game agents, checked for its columns."""
    table = pd.read_csv(TAG_AGENTS_PATH)
    missing = set(TAG_AGENT_COLUMNS) - set(table.columns)
    if missing:
        raise ValueError(f"{TAG_AGENTS_PATH.name}: missing columns {sorted(missing)}")
    return table


def tag_agent_row(short_name: str, players: int) -> dict | None:
    """The row of the game ``short_name`` at ``players`` players, or None."""
    for _, row in load_tag_agents().iterrows():
        if (str(row["game"]).split("(")[0], int(row["players"])) == (short_name, players):
            return row.to_dict()
    return None


def _tag_fields(row: dict) -> dict:
    """TAG's further settings of a row, typed: the ones away from TAG's default only."""
    typed = {"tree_policy": str(row["tree_policy"]), "opponent_tree": str(row["opponent_tree"]),
             "backup": str(row["backup"]), "max_backup_threshold": int(row["max_backup_threshold"]),
             "rollout": str(row["rollout"]), "mast_gamma": float(row["mast_gamma"]),
             "rollout_termination": str(row["rollout_termination"]),
             "reuse_tree": str(row["reuse_tree"]).lower() == "true"}
    if typed["backup"] != "MaxMC":
        typed.pop("max_backup_threshold")  # read only by MaxMC
    if typed["rollout"] != "MAST":
        typed.pop("mast_gamma")  # read only by MAST
    else:
        typed["mast_opponents"] = OPP_MODEL_MAST_OPPONENTS  # the submission code's oppModelType
    fields = {k: v for k, v in typed.items() if v != TAG_DEFAULTS.get(k)}
    # TAG's rollout length counts the players' actions only (chance is inside its forward model)
    fields["rollout_count"] = "moves"
    return fields


def missing_settings(row: dict) -> list[str]:
    """The settings of ``row`` our engines cannot run yet, as ``name=value`` (empty when the
    row runs as TAG's agent): a field ``MCTSSettings`` lacks, or a value it refuses."""
    missing = []
    for name, value in _tag_fields(row).items():
        if name not in mcts_settings.TAG_FIELDS:
            missing.append(f"{name}={value}")
            continue
        try:
            mcts_settings.MCTSSettings(**{name: value})
        except ValueError:
            missing.append(f"{name}={value}")
    if not missing and str(row["opponent_tree"]) == "MultiTree":  # what MultiTree runs with them
        settings = mcts_settings.MCTSSettings(**{k: v for k, v in _tag_fields(row).items()})
        try:
            check_settings(settings, float(row["K"]))
        except ValueError as err:
            name = str(err).split(":", 1)[0]
            missing.append(f"{name}={getattr(settings, name)} under MultiTree")
    return missing


def tag_agent_kwargs(row: dict, heuristic) -> dict:
    """Our bots' keyword arguments for TAG's agent of ``row`` (``missing_settings`` must be
    empty): K and epsilon translated for plain UCB (module docstring), the rollout length
    times the players where TAG's ``rolloutLengthPerPlayer`` is set, TAG's FPU 1e6 (``inf``
    here) as our "every untried action first" (None)."""
    plain_ucb = str(row["tree_policy"]) == "UCB"
    length = int(row["rollout_length"]) * (int(row["players"]) if row["rollout_per_player"] else 1)
    fpu = float(row["fpu"])
    return {"uct_c": 1.0 if plain_ucb else float(row["K"]),
            "explore_epsilon": 0.0 if plain_ucb else float(row["explore_epsilon"]),
            "rollout_length": length, "heuristic": heuristic,
            "max_depth": int(row["max_tree_depth"]), "fpu": fpu if math.isfinite(fpu) else None,
            **_tag_fields(row)}
