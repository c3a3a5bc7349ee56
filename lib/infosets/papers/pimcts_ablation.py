"""TAG's agent settings switched off one at a time: the ablation of issue 56 for Ravichandran,
Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in
Imperfect-Information Games" (docs/papers/pimcts_aggregation.md; design in docs/tag_agents.md
section 10, "The ablation's design").

The paper ran TAG's MCTS agent with a tuned parameter file per game, the same file for every
agent at the table (``pimcts_tag_agents.csv``). Our IS-MCTS plays below the OL-MCTS baseline
on Stratego, Poker and Dominion, where the paper says IS-MCTS matches or beats PI-MCTS. This
module says which settings of a game's row can be switched off, to what, and which conditions
a preset asks for; ``pimcts_aggregation.ablation_tasks`` plays them.

**"Switched off"** means set to TAG's default (``TAG_DEFAULTS`` of ``pimcts_tag_agents``; the
submission code's ``MCTSParams``), for EVERY agent at the table (the focus agent and its OL-MCTS
opponents alike: the paper holds every other setting constant across agents), the rest of the
row unchanged, and the row translated as usual (``tag_agent_kwargs``):

* ``opponent_tree`` -> "OneTree" (one tree for every player's moves);
* ``tree_policy`` -> "UCB", TAG's plain UCB: its translation runs our ``uct_c`` 1.0 and
  ``explore_epsilon`` 0, since TAG's plain UCB reads neither K nor epsilon;
* ``rollout`` -> "random" (MAST off; its ``mast_gamma`` back to TAG's 0.0 and no
  ``mast_opponents``, read only under MAST);
* ``rollout_termination`` -> "EXACT";
* ``backup`` -> "mean" (``max_backup_threshold`` back to TAG's 1,000,000, read only by MaxMC);
* ``reuse_tree`` -> False.

K, the rollout length, the heuristic, the depth limit, FPU and epsilon are not ablated: the
table documents no TAG default for the rollout length or the heuristic (TAG's default scores
a cut-off with each game's own ``getHeuristicScore``, which our ports do not all have), and the
committed ``paper`` preset already plays those settings with every further setting above at
TAG's default. A setting already at TAG's default in a game's row is skipped (nothing to
switch off) and recorded as skipped in the derived config.
"""

from __future__ import annotations

from infosets.experiments.config import ConfigError
from infosets.papers.pimcts_cells import parse_cell
from infosets.papers.pimcts_tag_agents import TAG_DEFAULTS, missing_settings

# The settings the ablation can switch off, in the order a preset's conditions are played.
ABLATABLE = ("opponent_tree", "tree_policy", "rollout", "rollout_termination", "backup",
             "reuse_tree")
# Settings read only with another one: reset to TAG's default with it.
COMPANIONS = {"rollout": ("mast_gamma",), "backup": ("max_backup_threshold",)}
ALL_ON = "all on"
FOCUS_AGENTS = ("olmcts", "pimcts", "ismcts")


def _typed(row: dict, setting: str):
    """A row's value of ``setting`` in the type of ``TAG_DEFAULTS``."""
    value = row[setting]
    if setting == "reuse_tree":
        return str(value).lower() == "true"
    return str(value)


def at_default(row: dict, setting: str) -> bool:
    """Whether ``row`` already runs ``setting`` at TAG's default (nothing to switch off)."""
    return _typed(row, setting) == TAG_DEFAULTS[setting]


def switched_off(row: dict, setting: str) -> dict:
    """``row`` with ``setting`` (and the settings read only with it, ``COMPANIONS``) at TAG's
    default, every other column unchanged."""
    if setting not in ABLATABLE:
        raise ValueError(f"ablate: {setting!r} is not a setting the ablation switches off; "
                         f"expected one of {list(ABLATABLE)}")
    out = dict(row)
    for name in (setting, *COMPANIONS.get(setting, ())):
        out[name] = TAG_DEFAULTS[name]
    return out


def switch_text(row: dict, setting: str) -> str:
    """What switching ``setting`` off does to ``row``, as "MultiTree -> OneTree"."""
    return f"{_typed(row, setting)} -> {TAG_DEFAULTS[setting]}"


def cell_obstacle(text) -> str | None:
    """``Param`` accept check of an ``ablation_pimcts`` value: None, or why it is no cell."""
    try:
        parse_cell(text)
    except ValueError as exc:
        return str(exc)
    return None


def _unique(values: list, key: str) -> None:
    seen = set()
    for i, v in enumerate(values):
        if v in seen:
            raise ConfigError(f"{key}[{i}]: {v!r} is given twice")
        seen.add(v)


def derive_ablation(values: dict, row_of, grid_of, games_per_cell_of) -> dict:
    """The ablation a preset asks for, checked before any compute (one-line ConfigErrors).

    ``row_of(game) -> TAG row or None``, ``grid_of(game) -> (main budget, D grid)``,
    ``games_per_cell_of(game) -> its Fig. 1 games per cell``. Returns {"games", "conditions":
    [[game, setting], ...] in play order, "skipped": [[game, setting], ...] (at TAG's default
    already), "switches": {game: {setting: "from -> to"}}, "pimcts": {game: {"D",
    "aggregation"}}, "budgets": {game: B}, "games_per_cell": {game: n}}; all empty when
    ``ablation_games`` is."""
    games, settings = values["ablation_games"], values["ablation_settings"]
    cells = values["ablation_pimcts"] or {}
    empty = {"games": [], "conditions": [], "skipped": [], "switches": {}, "pimcts": {},
             "budgets": {}, "games_per_cell": {}}
    for name in cells:
        if name not in games:
            raise ConfigError(f"ablation_pimcts[{name!r}]: not in ablation_games {games}")
    if not games:
        if settings:
            raise ConfigError("ablation_settings: given, but ablation_games is empty")
        return empty
    if not values["tag_agents"]:
        raise ConfigError("ablation_games: needs tag_agents true (the ablation switches TAG's "
                          "agent settings off)")
    if not settings:
        raise ConfigError("ablation_settings: give at least one setting to switch off, among "
                          f"{list(ABLATABLE)}")
    _unique(games, "ablation_games")
    _unique(settings, "ablation_settings")
    preset_games = values["games"] + values["tabletop_games"]
    out = {**empty, "games": list(games)}
    for i, game in enumerate(games):
        if game not in preset_games:
            raise ConfigError(f"ablation_games[{i}]: {game!r} is not a game of this preset; "
                              f"expected one of {preset_games}")
        row = row_of(game)
        if row is None:
            raise ConfigError(f"ablation_games[{i}]: {game!r} has no TAG agent (not one of the "
                              "paper's games at its player count)")
        on = [s for s in settings if not at_default(row, s)]
        if not on:
            raise ConfigError(f"ablation_games[{i}]: {game!r} runs every one of {settings} at "
                              "TAG's default already: nothing to switch off")
        for setting in settings:
            if setting not in on:
                out["skipped"].append([game, setting])
                continue
            missing = missing_settings(switched_off(row, setting))
            if missing:
                raise ConfigError(f"ablation_settings: {game} with {setting} off needs "
                                  f"{', '.join(missing)}, which our engines do not have")
            out["conditions"].append([game, setting])
            out["switches"].setdefault(game, {})[setting] = switch_text(row, setting)
        if game not in cells:
            raise ConfigError(f"ablation_pimcts: no PI-MCTS cell for {game!r} (write the best "
                              "cell of its stage results, e.g. 'D=10 TotalVisits')")
        d, aggregation = parse_cell(cells[game])
        budget, grid = grid_of(game)
        if d not in grid or aggregation not in values["aggregations"]:
            raise ConfigError(f"ablation_pimcts[{game!r}]: {cells[game]!r} is not a cell of the "
                              f"game's tournament at B={budget} (D in {[x for x in grid if x > 1]}, "
                              f"aggregations {values['aggregations']})")
        out["pimcts"][game] = {"D": d, "aggregation": aggregation}
        out["budgets"][game] = int(budget)
        n = values["ablation_games_per_cell"]
        out["games_per_cell"][game] = int(n if n is not None else games_per_cell_of(game))
    return out
