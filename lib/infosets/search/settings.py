"""Per-game MCTS settings shared by OL-MCTS, PI-MCTS and IS-MCTS, in both engines.

The pimcts_aggregation paper (Ravichandran, Goodman and Lucas, "PIMCTS evaluation in
tabletop games") tunes MCTS per game in the TAG framework: besides the exploration constant
``K`` (our ``uct_c``), TAG's parameter files set a rollout length whose cut-off is scored by
a game heuristic, a maximum tree depth, first-play urgency (FPU) and an exploration epsilon.
The defaults here reproduce the engines' behaviour without them, draw for draw.

* ``rollout_length``: player and chance actions played at random after the tree before the
  cut-off; ``None`` plays to the end; ``0`` scores the leaf itself. A cut-off state is
  scored by ``heuristic`` (required with a length), then normalised as returns are.
* ``max_depth``: tree nodes per iteration (the root's children are depth 1); at that depth
  the iteration leaves the tree and rolls out. ``None``: unbounded.
* ``fpu``: ``None`` tries every untried action first (uniformly at random); a number scores
  an untried action by it, against the tried ones' UCB values (first maximum in legal order).
* ``explore_epsilon``: at each tree node, with this probability a legal action is chosen
  uniformly at random instead (0 draws nothing). Under ``tree_policy`` UCB_Tuned it is not
  used, as in TAG (``SingleTreeNode.treePolicyAction``).

TAG's further settings (issue 56; rules in ``infosets.search.tag_rules``, read from
GAIGResearch/TabletopGames ``players/mcts/``):

* ``tree_policy``: "UCB" (our UCB1 above, with epsilon), "UCB_Tuned" (``ucb_tuned_scores``,
  K = ``uct_c``, ties drawn uniformly), "NoAveragingRM" (``rm_regrets``) or "EXP3"
  (``exp3_potentials``, TAG's ``exp3Boltzmann`` 0.1), the last two sampled by
  ``sample_tree_policy`` with ``explore_epsilon``. With ``fpu`` None an untried action scores
  TAG's FPU, 1e6. "RegretMatching" selects as NoAveragingRM and keeps the root's average
  strategy, from which its final move is sampled (``tag_rules.rm_average_update``,
  ``rm_average_choice``; the authors' submission code c6d074e66, ``SingleTreeNode``).
* ``backup``: "mean" or "MaxMC" (``max_mc_value``) with ``max_backup_threshold`` (TAG's
  ``maxBackupThreshold``, default 1,000,000).
* ``rollout``: "random" or "MAST" (``mast_rollout_choice``: Boltzmann over the MAST means with
  temperature ``mast_boltzmann``; the table lives with the bot and is decayed by
  ``mast_gamma`` at each of its decisions, ``mast_decay``; TAG's defaults 0.1 and 0.0).
* ``mast_opponents`` (TAG's ``oppModelType`` under MAST rollouts): "MAST" moves every player
  by MAST (today's; TAG c4d7687's default DEFAULT, the rollout policy) or "random": only the
  root player moves by MAST, the others uniformly at random (the submission code c6d074e66's
  default RANDOM, ``MCTSParams``; ``SingleTreeNode.rollout`` and ``advanceToTurnOfPlayer``),
  their rollout moves still counted in the MAST table. Read only with ``rollout`` "MAST".
* ``opponent_tree`` (TAG's ``opponentTreePolicy``, docs/tag_agents.md section 1): "OneTree"
  (one tree for every player's moves), "SelfOnly" (nodes only at the root player's decisions,
  keyed by its own moves; the other players move by the rollout policy in the tree phase,
  unrecorded; every node backs up the root player's reward) or "MultiTree" (one tree per
  player, ``search.multitree``: IS-MCTS and OL-MCTS run it, ``search.multitree_runner``;
  PI-MCTS runs OneTree, as TAG's PI agent does; its rollout length counts players' moves
  whatever ``rollout_count`` says, TAG's rule).
* ``rollout_count``: what ``rollout_length`` counts, "steps" (every action, chance included:
  today's) or "moves" (the players' actions only, as TAG's ``rollout`` counts them; docs/tag_agents.md
  section 7 "Rollout counting").
* ``rollout_termination`` (TAG's ``rolloutTermination``, ``SingleTreeNode.finishRollout``;
  docs/tag_agents.md section 3): "EXACT" (today's: the rollout stops at its length) or, once
  the length is reached, "END_TURN"/"END_ROUND": it goes on until an action ends a turn/round
  (the game's counters, ``infosets.games.kernels.rollout_counter``; asked at the players'
  decisions, ``tag_rules.rollout_finished``). With ``rollout_length`` 0 they play to the end
  of the current turn/round; a game without the counter is refused by the bots. TAG's
  END_ACTION and START_ACTION are not built (no paper row uses them).
* ``reuse_tree`` (TAG's ``reuseTree``, docs/tag_agents.md sections 2 and 7): OL-MCTS and IS-MCTS
  keep their tree between decisions and re-root it at the node the moves since their last
  decision lead to (``search.reuse``); PI-MCTS never reuses (TAG's forest finds no child).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

TREE_POLICIES = ("UCB", "UCB_Tuned", "NoAveragingRM", "EXP3", "RegretMatching")
BACKUPS = ("mean", "MaxMC")
ROLLOUTS = ("random", "MAST")
OPPONENT_TREES = ("OneTree", "SelfOnly", "MultiTree")
ROLLOUT_COUNTS = ("steps", "moves")
ROLLOUT_TERMINATIONS = ("EXACT", "END_TURN", "END_ROUND")
MAST_OPPONENTS = ("MAST", "random")
TAG_FIELDS = ("tree_policy", "backup", "max_backup_threshold", "rollout", "mast_gamma", "mast_boltzmann",
              "opponent_tree", "rollout_count", "rollout_termination", "mast_opponents", "reuse_tree")
# heuristic(state) -> one value per player, on the game's return scale.
Heuristic = Callable[[object], Sequence[float]]


@dataclass(frozen=True)
class MCTSSettings:
    rollout_length: int | None = None
    max_depth: int | None = None
    fpu: float | None = None
    explore_epsilon: float = 0.0
    heuristic: Heuristic | None = None
    tree_policy: str = "UCB"
    backup: str = "mean"
    max_backup_threshold: int = 1_000_000
    rollout: str = "random"
    mast_gamma: float = 0.0
    mast_boltzmann: float = 0.1
    opponent_tree: str = "OneTree"
    rollout_count: str = "steps"
    rollout_termination: str = "EXACT"
    mast_opponents: str = "MAST"
    reuse_tree: bool = False

    def __post_init__(self):
        if self.rollout_length is not None and (
                not isinstance(self.rollout_length, int) or self.rollout_length < 0):
            raise ValueError(f"rollout_length: must be None or an int >= 0, got {self.rollout_length!r}")
        if self.max_depth is not None and (not isinstance(self.max_depth, int) or self.max_depth < 1):
            raise ValueError(f"max_depth: must be None or an int >= 1, got {self.max_depth!r}")
        if self.fpu is not None and not (isinstance(self.fpu, (int, float)) and math.isfinite(self.fpu)):
            raise ValueError(f"fpu: must be None or a finite number, got {self.fpu!r}")
        if not (isinstance(self.explore_epsilon, (int, float)) and 0.0 <= self.explore_epsilon <= 1.0):
            raise ValueError(f"explore_epsilon: must be in [0, 1], got {self.explore_epsilon!r}")
        if self.heuristic is not None and not callable(self.heuristic):
            raise ValueError("heuristic: must be a callable heuristic(state) -> values per player")
        if self.tree_policy not in TREE_POLICIES:
            raise ValueError(f"tree_policy: must be one of {TREE_POLICIES}, got {self.tree_policy!r}")
        if self.backup not in BACKUPS:
            raise ValueError(f"backup: must be one of {BACKUPS}, got {self.backup!r}")
        if isinstance(self.max_backup_threshold, bool) or not (
                isinstance(self.max_backup_threshold, int) and self.max_backup_threshold >= 0):
            raise ValueError(f"max_backup_threshold: must be an int >= 0, got {self.max_backup_threshold!r}")
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout: must be one of {ROLLOUTS}, got {self.rollout!r}")
        if not (isinstance(self.mast_gamma, (int, float)) and 0.0 <= self.mast_gamma <= 1.0):
            raise ValueError(f"mast_gamma: must be in [0, 1], got {self.mast_gamma!r}")
        if not (isinstance(self.mast_boltzmann, (int, float)) and math.isfinite(self.mast_boltzmann)
                and self.mast_boltzmann > 0.0):
            raise ValueError(f"mast_boltzmann: must be a finite number > 0, got {self.mast_boltzmann!r}")
        if self.opponent_tree not in OPPONENT_TREES:
            raise ValueError(f"opponent_tree: must be one of {OPPONENT_TREES}, got {self.opponent_tree!r}")
        if self.rollout_count not in ROLLOUT_COUNTS:
            raise ValueError(f"rollout_count: must be one of {ROLLOUT_COUNTS}, got {self.rollout_count!r}")
        if self.rollout_termination not in ROLLOUT_TERMINATIONS:
            raise ValueError(f"rollout_termination: must be one of {ROLLOUT_TERMINATIONS} (TAG's END_ACTION "
                             f"and START_ACTION are not built), got {self.rollout_termination!r}")
        if self.mast_opponents not in MAST_OPPONENTS:
            raise ValueError(f"mast_opponents: must be one of {MAST_OPPONENTS}, got {self.mast_opponents!r}")
        if not isinstance(self.reuse_tree, bool):
            raise ValueError(f"reuse_tree: must be a bool, got {self.reuse_tree!r}")

    @property
    def tag_default(self) -> bool:
        """True when TAG's further settings (tree policy, backup, rollout, opponent tree, rollout
        count, rollout termination, tree reuse) are today's."""
        return (self.tree_policy, self.backup, self.rollout, self.opponent_tree, self.rollout_count,
                self.rollout_termination, self.reuse_tree) == ("UCB", "mean", "random", "OneTree", "steps",
                                                               "EXACT", False)

    @property
    def is_default(self) -> bool:
        return self == MCTSSettings()


DEFAULT = MCTSSettings()


def make_settings(rollout_length=None, max_depth=None, fpu=None, explore_epsilon=0.0,
                  heuristic=None, default_heuristic: Heuristic | None = None, **tag) -> MCTSSettings:
    """Validated settings; a rollout length takes ``heuristic`` or else the game's own
    (``default_heuristic``), and is refused without either. ``tag``: any of ``TAG_FIELDS``."""
    unknown = sorted(set(tag) - set(TAG_FIELDS))
    if unknown:
        raise ValueError(f"{unknown[0]}: not a setting (TAG's are {TAG_FIELDS})")
    MCTSSettings(rollout_length, max_depth, fpu, explore_epsilon, **tag)  # validates, in this order
    if rollout_length is not None and heuristic is None:
        heuristic = default_heuristic
        if heuristic is None:
            raise ValueError("heuristic: a rollout_length needs a heuristic and this game has none")
    return MCTSSettings(rollout_length, max_depth, None if fpu is None else float(fpu),
                        float(explore_epsilon), heuristic, **tag)
