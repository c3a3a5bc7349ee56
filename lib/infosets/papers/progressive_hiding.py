"""Progressive hiding experiments: the tasks (tables, figures and claims:
``progressive_hiding_analysis``). Reproduces Heymann & Lanctot, "Learning in Games with
Progressive Hiding" (AAMAS 2025; arXiv 2409.03875; docs/papers/progressive_hiding.md).

Three experiments (Section 6), each a task grid for the runner:
  * Trade Comm (Fig. 1): FTRL on the original team map vs progressive hiding with the
    "cheated" and "perfect recall" relaxations, from random initial policies;
  * Cooperative Matching Pennies: Monte Carlo CFR vs Monte Carlo progressive hiding, success
    rate (projected payoff > threshold after the episode budget), and a pass payoff x penalty
    sweep;
  * Abstracted Tiny Bridge (Fig. 3): progressive hiding with regret matching and an adaptive
    penalty vs CFR on the team's imperfect-recall view and independent regret matching.
The formulas are a reconstruction (see `infosets.learning.hiding` and the notebook notes).
"""

from __future__ import annotations

import functools

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers coop_matching_pennies)
from infosets.experiments.config import Param, Schema, game_named
from infosets.experiments.tasks import Task
from infosets.learning import cfr, hiding
from infosets.learning.tree import build_tree

PAPER_BRIDGE_PEAK, PAPER_BRIDGE_EPISODES, CAPI_BRIDGE = 20.76, 75, 21.0
TRADE_METHODS = ("team", "cheated", "perfect_recall")  # "team" = the original map, baseline
CMP_METHODS = ("mccfr_team", "mccfr_independent", "hiding")
BRIDGE_METHODS = ("hiding", "hiding_constant", "cfr_team", "independent_rm")


def _derive(values: dict) -> dict:
    runs = values["trade_runs"]
    return {"trade_tasks": len(values["trade_games"]) * len(values["trade_maps"])
            * -(-runs // values["trade_runs_per_task"])}


SCHEMA = Schema(
    params={
        "trade_games": Param(list, item=str, game=True, min_len=1, accept=game_named("trade_comm"),
                             doc="trade_comm game strings (two num_items values)"),
        "trade_maps": Param(list, item=str, choices=list(TRADE_METHODS), min_len=1,
                            doc="learner's map: team (original, baseline), cheated, perfect_recall"),
        "trade_runs": Param(int, lo=1, hi=10_000, doc="runs from random initial policies"),
        "trade_runs_per_task": Param(int, lo=1, hi=10_000, doc="runs batched in one task"),
        "trade_iterations": Param(int, lo=1, hi=100_000, doc="full-traversal iterations"),
        "trade_checkpoints": Param(int, lo=2, hi=1000, doc="iterations recorded (log-spaced)"),
        "trade_step_size": Param(float, lo=1e-9, doc="FTRL step size (> 0)"),
        "trade_rho": Param(float, lo=0.0, doc="constant penalty rho for the relaxed maps"),
        "cmp_pass_payoff": Param(float, lo=0.0, hi=1.0, doc="Bob's payoff for passing"),
        "cmp_rho": Param(float, lo=0.0, doc="progressive hiding penalty (paper: 0.05)"),
        "cmp_episodes": Param(int, lo=1, hi=1_000_000, doc="MC episodes per repetition"),
        "cmp_repetitions": Param(int, lo=1, hi=100_000, doc="repetitions (paper: 1000)"),
        "cmp_threshold": Param(float, lo=0.0, hi=1.0, doc="success: expected payoff above"),
        "cmp_sampling": Param(str, choices=["external", "outcome"], doc="MCCFR sampling"),
        "cmp_initial_policy": Param(str, choices=["uniform", "random"],
                                    doc="initial policies (random: Dirichlet(1) per infoset)"),
        "cmp_relaxed_map": Param(str, choices=["cheated", "perfect_recall"],
                                 doc="relaxation used by progressive hiding"),
        "cmp_methods": Param(list, item=str, choices=list(CMP_METHODS), min_len=1),
        "cmp_sweep_pass_payoffs": Param(list, item=float, lo=0.0, hi=1.0, min_len=1),
        "cmp_sweep_rhos": Param(list, item=float, lo=0.0, min_len=1),
        "cmp_sweep_repetitions": Param(int, lo=1, hi=100_000),
        "cmp_reps_per_task": Param(int, lo=1, hi=100_000, doc="repetitions batched in a task"),
        "bridge_game": Param(str, game=True, accept=game_named("tiny_bridge_2p"),
                             doc="tiny_bridge_2p(abstracted=True)"),
        "bridge_episodes": Param(int, lo=1, hi=100_000, doc="full-traversal episodes"),
        "bridge_methods": Param(list, item=str, choices=list(BRIDGE_METHODS), min_len=1,
                                doc="hiding = adaptive rho; hiding_constant = rho fixed at rho0"),
        "bridge_relaxed_map": Param(str, choices=["cheated", "perfect_recall"]),
        "bridge_rho0": Param(float, lo=0.0, doc="initial adaptive penalty"),
        "bridge_gap_target": Param(float, doc="target of relaxed minus projected payoff"),
        "bridge_gain": Param(float, lo=0.0, doc="adaptive gain (per utility range)"),
        "penalty_weighting": Param(str, choices=["none", "counterfactual"],
                                   doc="scale of the penalty gradient fed to each J"),
    },
    derive=_derive,
)


@functools.lru_cache(maxsize=8)
def cached_tree(game_string: str):
    """The flattened tree of ``game_string``, built once per worker process."""
    return build_tree(game_string)


# -- Trade Comm ------------------------------------------------------------------------------

def checkpoints(iterations: int, count: int) -> np.ndarray:
    """Log-spaced iteration numbers in [1, iterations], always including both ends."""
    points = np.unique(np.round(np.geomspace(1, iterations, count)).astype(int))
    return points


def trade_task(cfg: dict, params: dict, seed) -> list[dict]:
    """FTRL runs on Trade Comm with the given map; projected payoff at checkpoints."""
    rng = np.random.default_rng(seed)
    relaxed = params["map"]
    rho = 0.0 if relaxed == "team" else cfg["trade_rho"]
    learner = hiding.ProgressiveHiding(
        cached_tree(params["game"]), original="team", relaxed=relaxed, minimizer="ftrl",
        step_size=cfg["trade_step_size"], schedule=hiding.PenaltySchedule("constant", rho),
        num_runs=params["runs"], initial_policy="random", rng=rng,
        penalty_weighting=cfg["penalty_weighting"])
    record = learner.run(cfg["trade_iterations"])
    payoff = np.asarray(record.projected_payoff)
    rows = []
    for t in checkpoints(cfg["trade_iterations"], cfg["trade_checkpoints"]):
        for run in range(params["runs"]):
            rows.append({"run": params["first_run"] + run, "iteration": int(t),
                         "payoff": float(payoff[t - 1, run])})
    return rows


def trade_tasks(cfg) -> list[Task]:
    step = cfg.trade_runs_per_task
    return [Task(trade_task, {"game": g, "map": m, "first_run": r,
                              "runs": min(step, cfg.trade_runs - r)})
            for g in cfg.trade_games for m in cfg.trade_maps
            for r in range(0, cfg.trade_runs, step)]


# -- Cooperative Matching Pennies ------------------------------------------------------------

def cmp_run(method: str, pass_payoff: float, rho: float, cfg: dict, rng) -> float:
    """Projected expected payoff after ``cfg['cmp_episodes']`` episodes of one method."""
    tree = cached_tree(f"coop_matching_pennies(pass_payoff={pass_payoff})")
    common = dict(sampling=cfg["cmp_sampling"], initial_policy=cfg["cmp_initial_policy"], rng=rng)
    if method == "hiding":
        learner = hiding.MonteCarloHiding(
            tree, original="team", relaxed=cfg["cmp_relaxed_map"],
            schedule=hiding.PenaltySchedule("constant", rho), **common)
        for _ in range(cfg["cmp_episodes"]):
            learner.step()
        return learner.projected_payoff()
    view = "team" if method == "mccfr_team" else "original"
    learner = cfr.MonteCarloCFR(tree, view, **common)
    for _ in range(cfg["cmp_episodes"]):
        learner.step()
    return float(learner.expected_returns()[0])


def cmp_task(cfg: dict, params: dict, seed) -> list[dict]:
    """``params['reps']`` repetitions of one method; one row per repetition."""
    rows = []
    for k, child in enumerate(seed.spawn(params["reps"])):
        payoff = cmp_run(params["method"], params["pass_payoff"], params["rho"], cfg,
                         np.random.default_rng(child))
        rows.append({"repetition": params["first_rep"] + k, "payoff": payoff,
                     "success": bool(payoff > cfg["cmp_threshold"])})
    return rows


def _cmp_grid(methods, pass_payoffs, rhos, reps, per_task):
    tasks = []
    for method in methods:
        for pp in pass_payoffs:
            for rho in (rhos if method == "hiding" else [0.0]):
                for first in range(0, reps, per_task):
                    tasks.append(Task(cmp_task, {"method": method, "pass_payoff": pp,
                                                 "rho": rho, "first_rep": first,
                                                 "reps": min(per_task, reps - first)}))
    return tasks


def cmp_tasks(cfg) -> list[Task]:
    """The headline comparison at the configured pass payoff and penalty."""
    return _cmp_grid(cfg.cmp_methods, [cfg.cmp_pass_payoff], [cfg.cmp_rho],
                     cfg.cmp_repetitions, cfg.cmp_reps_per_task)


def cmp_sweep_tasks(cfg) -> list[Task]:
    """Progressive hiding and team MCCFR over pass payoff x penalty."""
    return _cmp_grid(["hiding", "mccfr_team"], cfg.cmp_sweep_pass_payoffs, cfg.cmp_sweep_rhos,
                     cfg.cmp_sweep_repetitions, cfg.cmp_reps_per_task)


# -- Abstracted Tiny Bridge ------------------------------------------------------------------

def bridge_task(cfg: dict, params: dict, seed) -> list[dict]:
    """Expected team payoff per episode of one method (deterministic from uniform policies)."""
    tree = cached_tree(cfg["bridge_game"])
    method, episodes = params["method"], cfg["bridge_episodes"]
    rows = []
    if method in ("hiding", "hiding_constant"):
        schedule = (hiding.PenaltySchedule("constant", cfg["bridge_rho0"])
                    if method == "hiding_constant" else
                    hiding.PenaltySchedule("adaptive", cfg["bridge_rho0"], gain=cfg["bridge_gain"],
                                           target=cfg["bridge_gap_target"], mode="gap"))
        learner = hiding.ProgressiveHiding(tree, original="team",
                                           relaxed=cfg["bridge_relaxed_map"], minimizer="rm",
                                           schedule=schedule,
                                           penalty_weighting=cfg["penalty_weighting"])
        record = learner.run(episodes)
        for t in range(episodes):
            rows.append({"episode": t + 1, "payoff": float(record.projected_payoff[t][0]),
                         "relaxed_payoff": float(record.relaxed_payoff[t][0]),
                         "rho": float(record.rho[t][0])})
        return rows
    view = "team" if method == "cfr_team" else "original"
    learner = cfr.CFRSolver(tree, view, minimizer="rm", alternating=False)
    for t in range(episodes):
        learner.step()
        rows.append({"episode": t + 1, "payoff": float(learner.expected_returns()[0, 0]),
                     "relaxed_payoff": float("nan"), "rho": float("nan")})
    return rows


def bridge_tasks(cfg) -> list[Task]:
    return [Task(bridge_task, {"method": m}) for m in cfg.bridge_methods]


def check_games() -> None:
    """The games the paper needs exist with the parameters used here."""
    spec = pyspiel.load_game("tiny_bridge_2p").get_type().parameter_specification
    if "abstracted" not in spec:
        raise ValueError("bridge_game: tiny_bridge_2p has no 'abstracted' parameter")
