"""History filtering by MCMC in Oh Hell: the tasks (figures and claims: ``history_filtering_analysis``).

Reproduces Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information
Games: Algorithms and Complexity" (arXiv 2311.14651; docs/papers/history_filtering.md):
value-estimation error of the TTCG Gibbs sampler against True and Importance sampling
(Fig. 4), the burn-in effect at equal transitions (Fig. 5), enumeration vs MCMC cost, sparse
vs dense public trees (section 4.2), the 3-FSAT game (section 4.1) and the sampler inside
IS-MCTS. The library is ``infosets.filtering``.

A public state is named ``"P-S-C-T-K-seed"``: ``oh_hell`` with P players, S suits, C cards per
suit, T tricks, stopped after K plays of a game played under the joint policy from ``seed``.
"""

from __future__ import annotations

import math
import time
import tracemalloc

import numpy as np
import pyspiel

from infosets import arena
from infosets.core.rng import as_random, named_child
from infosets.experiments.config import ConfigError, Param, Schema, data_root, parsed_by
from infosets.experiments.tasks import Task
from infosets.filtering import sat_demo
from infosets.filtering.baselines import importance_estimates, mcmc_estimates, true_estimates
from infosets.filtering.enumerate import ExplicitRange
from infosets.filtering.mcmc import AssignmentTable, RingSwapChain
from infosets.filtering.policies import OhHellRange, OhHellSpec, beats, cached_policy
from infosets.filtering.public_state import DealConstraints, OhHellPublicState
from infosets.filtering.scenarios import game_for, policy_action, sample_public_state
from infosets.filtering.value import OhHellValue

SLUG = "history_filtering"
PAPER_HEADLINE_HISTORIES = 544_320
PAPER_HEADLINE_BURN_IN, PAPER_HEADLINE_SAMPLES = 20, 400  # Section 5: 8,000 transitions
RESAMPLER_BURN_IN = 20  # chain transitions before the first world at a new information state


def parse_state(name: str) -> tuple[OhHellSpec, int, int]:
    """``"P-S-C-T-K-seed"`` -> (spec, plays, seed); ValueError naming the field otherwise."""
    parts = name.split("-")
    if len(parts) != 6 or not all(p.isdigit() for p in parts):
        raise ValueError(f"state: {name!r} must be 'players-suits-cards_per_suit-tricks-plays-seed'")
    p, s, c, t, k, seed = map(int, parts)
    if not 3 <= p <= 7 or not 1 <= s <= 4 or not 2 <= c <= 13:
        raise ValueError(f"state: {name!r} needs players in [3, 7], suits in [1, 4], cards in [2, 13]")
    if not 1 <= t <= (s * c - 1) // p:
        raise ValueError(f"state: {name!r} tricks must be in [1, {(s * c - 1) // p}]")
    if not 0 <= k <= p * t:
        raise ValueError(f"state: {name!r} plays must be in [0, {p * t}]")
    return OhHellSpec(p, s, c, t), k, seed


def parse_spec(name: str) -> OhHellSpec:
    parts = name.split("-")
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        raise ValueError(f"game: {name!r} must be 'players-suits-cards_per_suit-tricks'")
    return parse_state(name + "-0-0")[0]


def _derive(values: dict) -> dict:
    missing = [s for s in values["burnin_states"] if s not in values["states"]]
    if missing:
        raise ConfigError(f"burnin_states: {missing[0]!r} is not in states")
    return {"max_samples": max(values["sample_sizes"])}


SCHEMA = Schema(
    params={
        "states": Param(list, item=str, min_len=1, accept=parsed_by(parse_state),
                        doc="public states 'P-S-C-T-K-seed' (oh_hell sizes, plays, seed)"),
        "policy_episodes": Param(int, lo=0, hi=10_000_000, doc="Q-learning self-play episodes"),
        "policy_seed": Param(int, lo=0, doc="seed of the Q-learning run (policy cache key)"),
        "temperature": Param(float, lo=1e-3, hi=100.0, doc="softmax temperature on Q (> 0)"),
        "exact_max_cards": Param(int, lo=0, hi=4,
                                 doc="V(h) exact when each player has at most this many cards"),
        "rollouts": Param(int, lo=1, hi=10_000, doc="rollouts per history otherwise"),
        "runs": Param(int, lo=1, hi=10_000, doc="independent runs per point (paper: 100)"),
        "sample_sizes": Param(list, item=int, lo=1, hi=100_000, min_len=1,
                              doc="samples at which the error is recorded (Fig. 4)"),
        "burn_ins": Param(list, item=int, lo=0, hi=10_000, min_len=1,
                          doc="MCMC burn-ins (transitions per kept sample) in Fig. 4"),
        "chain_mode": Param(str, choices=["thinned", "restarts"],
                            doc="one chain keeping every b-th state, or a restart per sample"),
        "burnin_states": Param(list, item=str, accept=parsed_by(parse_state),
                               doc="states (subset of states) for Fig. 5"),
        "burnin_grid": Param(list, item=int, lo=1, hi=10_000, min_len=1,
                             doc="transitions per kept sample in Fig. 5"),
        "transition_budgets": Param(list, item=int, lo=1, hi=10_000_000, min_len=1,
                                    doc="total transitions in Fig. 5"),
        "headline_burn_in": Param(int, lo=0, hi=10_000, doc="paper: 20"),
        "headline_samples": Param(int, lo=1, hi=100_000, doc="paper: 400"),
        "sparse_dense_decks": Param(list, item=int, lo=5, hi=52, min_len=1,
                                    doc="deck sizes (multiples of 4) for the sparse/dense count"),
        "count_limit": Param(int, lo=1, doc="stop enumerating (counting) past this many histories"),
        "sat_vars": Param(list, item=int, lo=3, hi=24, min_len=1, doc="3-FSAT variables m"),
        "sat_clause_ratio": Param(float, lo=0.0, hi=20.0, doc="clauses per variable"),
        "sat_instances": Param(int, lo=1, hi=1000, doc="instances per m"),
        "ismcts_game": Param(str, accept=parsed_by(parse_spec),
                             doc="oh_hell 'P-S-C-T' for the IS-MCTS match"),
        "ismcts_games": Param(int, lo=0, hi=100_000, doc="paired games (mcmc vs uniform)"),
        "ismcts_block": Param(int, lo=1, hi=10_000, doc="games per task"),
        "ismcts_iterations": Param(int, lo=1, hi=1_000_000, doc="IS-MCTS iterations per move"),
        "ismcts_transitions": Param(int, lo=1, hi=1000, doc="chain transitions per world"),
    },
    derive=_derive,
)


# --------------------------------------------------------------------------- shared setup


def policy_cache_dir():
    """``<data root>/history_filtering/policies`` (honours ``$INFOSETS_DATA_DIR``)."""
    return data_root() / SLUG / "policies"


def load_policy(cfg: dict, spec: OhHellSpec):
    return cached_policy(spec, cfg["policy_episodes"], cfg["temperature"], cfg["policy_seed"],
                         policy_cache_dir())


def build_state(cfg: dict, name: str):
    """(public state, constraints, range, value function, true pyspiel state) for a name."""
    spec, plays, seed = parse_state(name)
    policy = load_policy(cfg, spec)
    ps, truth = sample_public_state(spec, policy, plays, seed)
    c = ps.constraints()
    value = OhHellValue(ps, policy, value_player=_value_player(ps),
                        exact_max_cards=cfg["exact_max_cards"], rollouts=cfg["rollouts"])
    return ps, c, OhHellRange(ps, policy), value, truth


def _value_player(ps: OhHellPublicState) -> int:
    """The player to move at S (whose value a search there would need)."""
    n = ps.num_players
    seq = list(ps.play_sequence())
    if not seq:
        return (ps.dealer + 1) % n
    if len(ps.plays) % n:
        return (seq[-1][0] + 1) % n
    win_card, win_player = seq[-n][1], seq[-n][0]  # trick complete: its winner leads
    for p, card, _, _ in seq[-n + 1:]:
        if beats(card, win_card, ps.trump_suit, ps.num_suits):
            win_card, win_player = card, p
    return win_player


def _value_seed(task_seed: np.random.SeedSequence) -> int:
    """The seed of a task's rollout values V(h): its child named "values"."""
    return int(named_child(task_seed, "values").generate_state(1)[0])


def _deterministic(value: OhHellValue, seed: int):
    """V(h) as a function of h only: exact, or rollouts seeded by (seed, h)."""
    if value.exact:
        return value.value

    def fn(hands):
        return value.value(hands, as_random(np.random.SeedSequence([seed, *hands])))

    return fn


# --------------------------------------------------------------------------- Fig. 4, 5, scaling


def value_error_task(cfg: dict, params: dict, seed) -> list[dict]:
    """Error of V(S) estimates vs samples (Fig. 4), vs transitions (Fig. 5), and cost."""
    name = params["state"]
    ps, c, rng_range, value, _ = build_state(cfg, name)
    vfun = _deterministic(value, _value_seed(seed))
    table = AssignmentTable(c)
    # The enumeration is timed and traced once (cold caches); the chain's cost is measured
    # the same way in _cost_rows, so tracemalloc's overhead hits both.
    tracemalloc.start()
    t0 = time.perf_counter()
    explicit = ExplicitRange(c, rng_range.log_reach, vfun)
    enum_seconds = time.perf_counter() - t0
    _, enum_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    truth = explicit.value
    sizes = sorted(set(cfg["sample_sizes"]))
    n_max = max(sizes)
    idx = np.array(sizes) - 1
    run_seeds = seed.spawn(cfg["runs"])
    restart = cfg["chain_mode"] == "restarts"
    errors: dict[tuple, list] = {}

    def record(method, burn_in, estimates):
        for n, est in zip(sizes, estimates[idx]):
            errors.setdefault((method, burn_in, n), []).append(abs(est - truth))

    for rs in run_seeds:
        s_true, s_imp, s_chain = rs.spawn(3)
        record("True", -1, true_estimates(explicit, n_max, s_true))
        record("Importance", -1, importance_estimates(table, rng_range.log_reach, vfun, n_max,
                                                      s_imp))
        start = table.sample(as_random(s_chain))
        for b, cs in zip(cfg["burn_ins"], s_chain.spawn(len(cfg["burn_ins"]))):
            chain = RingSwapChain(c, rng_range.log_reach, cs, initial=start)
            record("MCMC", b, mcmc_estimates(chain, vfun, n_max, b, restart=restart))
    base = {"histories": explicit.num_histories, "true_value": truth,
            "cards_left": value.cards_left, "exact_values": value.exact,
            "assignments": len(table.assignments)}
    rows = []
    for (method, b, n), errs in errors.items():
        e = np.asarray(errs)
        rows.append({**base, "kind": "fig4", "method": method,
                     "burn_in": b, "samples": n, "transitions": n * max(b, 1) if b >= 0 else 0,
                     "error": float(e.mean()), "se": float(e.std(ddof=1) / math.sqrt(len(e)))
                     if len(e) > 1 else math.nan, "runs": len(e)})
    if name in cfg["burnin_states"]:
        rows += _burnin_rows(cfg, c, rng_range, vfun, table, truth, seed, base)
    rows += _cost_rows(cfg, c, rng_range, value, table, seed, base, enum_seconds, enum_peak)
    return rows


def _burnin_rows(cfg, c, rng_range, vfun, table, truth, seed, base):
    rows = []
    restart = cfg["chain_mode"] == "restarts"
    budgets = sorted(cfg["transition_budgets"])
    for b in cfg["burnin_grid"]:
        errs = {t: [] for t in budgets}
        n_max = max(1, budgets[-1] // b)
        for rs in named_child(seed, b).spawn(cfg["runs"]):
            s_start, s_chain = rs.spawn(2)
            chain = RingSwapChain(c, rng_range.log_reach, s_chain,
                                  initial=table.sample(as_random(s_start)))
            est = mcmc_estimates(chain, vfun, n_max, b, restart=restart)
            for t in budgets:
                n = max(1, t // b)
                errs[t].append(abs(est[min(n, n_max) - 1] - truth))
        for t in budgets:
            e = np.asarray(errs[t])
            rows.append({**base, "kind": "fig5", "method": "MCMC", "burn_in": b,
                         "transitions": t, "samples": max(1, t // b), "error": float(e.mean()),
                         "se": float(e.std(ddof=1) / math.sqrt(len(e))) if len(e) > 1
                         else math.nan, "runs": len(e)})
    return rows


def _cost_rows(cfg, c, rng_range, value, table, seed, base, enum_seconds, enum_peak):
    """Wall time and tracemalloc peak: enumeration (explicit range) vs the headline chain.

    Both are measured once under tracemalloc from empty reach and value caches.
    """
    b, n = cfg["headline_burn_in"], cfg["headline_samples"]
    s_start, s_chain = named_child(seed, "cost").spawn(2)
    start = table.sample(as_random(s_start))
    tracemalloc.start()
    t0 = time.perf_counter()
    fresh_range = OhHellRange(rng_range.ps, rng_range.policy)
    chain = RingSwapChain(c, fresh_range.log_reach, s_chain, initial=start)
    mcmc_estimates(chain, _deterministic(value.fresh(), _value_seed(seed)), n, b)
    mcmc_seconds = time.perf_counter() - t0
    _, mcmc_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return [{**base, "kind": "cost", "method": "Enumeration", "seconds": enum_seconds,
             "peak_bytes": enum_peak, "transitions": 0, "samples": base["histories"]},
            {**base, "kind": "cost", "method": "MCMC", "burn_in": b, "seconds": mcmc_seconds,
             "peak_bytes": mcmc_peak, "transitions": b * n, "samples": n}]


def value_error_tasks(cfg) -> list[Task]:
    return [Task(value_error_task, {"state": s}) for s in cfg.states]


# --------------------------------------------------------------------------- sparse vs dense


def sparse_dense_task(cfg: dict, params: dict, seed) -> list[dict]:
    """|H_S| at the first public state for a poker-like and a trick-taking deal of n cards."""
    n = params["deck"]
    rows = []
    poker = DealConstraints(num_players=2, num_suits=1, suit_of=(0,) * n, known=(0, 0),
                            need=(2, 2, n - 4), void=((False,),) * 3,
                            unknown_by_suit=(tuple(range(n)),))
    rows.append(_count_row("poker-like (2 cards each)", poker, cfg["count_limit"], n))
    if n % 4 == 0:
        per_suit = n // 4
        tricks = (n - 1) // 3
        ps = OhHellPublicState(3, 4, per_suit, tricks, 0, n - 1, (), ())
        rows.append(_count_row(f"trick-taking ({tricks} cards each)", ps.constraints(),
                               cfg["count_limit"], n))
    return rows


def _count_row(kind: str, c: DealConstraints, limit: int, n: int) -> dict:
    from infosets.filtering.enumerate import count_histories

    t0 = time.perf_counter()
    counted = count_histories(c, limit)
    seconds = time.perf_counter() - t0
    table = AssignmentTable(c)
    # |H_S| of a 52-card trick-taking deal (about 1e23) overflows int64, which tables and
    # parquet need: a float for the plots, and the exact count as decimal text
    return {"deal": kind, "deck": n, "enumerated": min(counted, limit),
            "complete": counted <= limit, "histories": float(table.size),
            "histories_exact": str(table.size),
            "log10_histories": math.log10(table.size), "enumeration_seconds": seconds}


def sparse_dense_tasks(cfg) -> list[Task]:
    return [Task(sparse_dense_task, {"deck": n}) for n in cfg.sparse_dense_decks]


# --------------------------------------------------------------------------- 3-FSAT


def sat_task(cfg: dict, params: dict, seed) -> list[dict]:
    m = params["m"]
    rows = []
    for i, s in enumerate(seed.spawn(cfg["sat_instances"])):
        hidden, clauses = sat_demo.public_state(m, round(cfg["sat_clause_ratio"] * m), s)
        built = sat_demo.construct_brute_force(m, clauses)
        rows.append({"instance": i, "clauses": len(clauses),
                     "consistent_histories": sat_demo.count_consistent(m, clauses),
                     "checked": built.checked, "seconds": built.seconds,
                     "found_consistent": built.assignment is not None
                     and sat_demo.is_consistent(built.assignment, clauses),
                     "found_hidden": built.assignment == hidden})
    return rows


def sat_tasks(cfg) -> list[Task]:
    return [Task(sat_task, {"m": m}) for m in cfg.sat_vars]


# --------------------------------------------------------------------------- IS-MCTS


class PolicyBot(pyspiel.Bot):
    """Plays the learned joint policy at its seat (``policy_action``), from its own stream."""

    def __init__(self, policy, rng: np.random.Generator):
        pyspiel.Bot.__init__(self)
        self.policy, self.rng = policy, rng

    def step(self, state):
        return int(policy_action(state, self.policy, self.rng))

    def restart_at(self, state):
        pass


def ismcts_task(cfg: dict, params: dict, seed) -> list[dict]:
    """Paired games through ``infosets.arena``: seat 0 is IS-MCTS with the MCMC resampler,
    then with uniform resampling; the other seats follow the joint policy; same deal and
    seeds in both games. Think time = CPU time of seat 0's decisions."""
    from infosets.filtering.resampler import InfostateSampler
    from infosets.search.ismcts import ISMCTSBot

    spec = parse_spec(cfg["ismcts_game"])
    policy = load_policy(cfg, spec)
    game = game_for(spec)
    rows = []
    for g, gs in enumerate(seed.spawn(cfg["ismcts_block"])):
        s_chance, s_opp, s_bot = gs.spawn(3)  # the sampler draws from the bot's generator
        result = {"game": params["block"] * cfg["ismcts_block"] + g}
        for mode in ("mcmc", "uniform"):
            sampler = InfostateSampler(policy, mode, cfg["ismcts_transitions"], RESAMPLER_BURN_IN)
            bot = ISMCTSBot(game, 0, iterations=cfg["ismcts_iterations"], uct_c=1.0,
                            rng=np.random.default_rng(s_bot), sampler=sampler)
            opp = np.random.default_rng(s_opp)
            bots = [bot] + [PolicyBot(policy, opp) for _ in range(1, game.num_players())]
            out = arena.play_game(game, bots, np.random.default_rng(s_chance))
            result[f"score_{mode}"] = out["returns"][0]
            result[f"seconds_{mode}"] = out["seconds"][0]
        rows.append(result)
    return rows


def ismcts_tasks(cfg) -> list[Task]:
    blocks = math.ceil(cfg.ismcts_games / cfg.ismcts_block)
    return [Task(ismcts_task, {"block": b}) for b in range(blocks)]
