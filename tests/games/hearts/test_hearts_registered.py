"""Hearts as a registered kernel game (``games/kernels.py`` KERNEL_MODULES), as the searches of
pimcts_aggregation (Ravichandran, Goodman and Lucas, docs/papers/pimcts_aggregation.md) use it:
"auto" runs the paper's three agents on the compiled engine; the compiled engine equals the
Python reference engine draw for draw on Hearts positions (``kernel_checks.engines_agree``, as
for every kernel game); the kernel's determinizer, which both engines draw from once the kernel
is registered, passes the determinizer audit (``determinizer_phases``) phase by phase; and
``sampler_for`` (the disambiguation sweep's worlds) stays HeartsWorlds."""

import numpy as np
import pyspiel
from scipy import stats

from determinizer_phases import SCENARIOS, states_by_phase, truth_probability_bound
from infosets.core.pcg32 import PCG32
from infosets.experiments.config import load
from infosets.games.determinizers import infostate_key, sampler_for
from infosets.games.hearts.worlds import HeartsWorlds
from infosets.games.kernels import KernelSampler, kernel_for, kernel_games
from infosets.papers.pimcts_aggregation import make_agent
from kernel_checks import CUT_ROLLOUTS_CYCLE, cut_rollouts, decision_states, engines_agree

GAME = pyspiel.load_game("hearts")
# pimcts_settings.csv's Hearts row, as pimcts_aggregation.tuned_kwargs passes it (its heuristic
# is the kernel's on the compiled engine and heuristics.heuristic, equal, on the Python one)
PAPER = {"rollout_length": 0, "max_depth": 3, "fpu": 0.5, "explore_epsilon": 0.3}
AGENTS = [
    {"agent": "olmcts", "D": 1, "aggregation": "none"},
    {"agent": "pimcts", "D": 10, "aggregation": "TotalVisits"},
    {"agent": "ismcts", "D": 0, "aggregation": "none"},
]
ALPHA = 1e-6  # as tests/games/test_determinizer_audit.py


def test_hearts_is_a_kernel_game_and_keeps_hearts_worlds_for_sampler_for():
    assert "hearts" in kernel_games() and kernel_for(GAME) is not None
    assert isinstance(sampler_for(GAME), HeartsWorlds)


def test_auto_runs_pimcts_aggregations_agents_on_the_compiled_engine():
    """The paper preset's agents (engine auto, TAG's Hearts settings, no custom sampler) on a
    Hearts decision: each searches on the compiled engine and plays a legal move."""
    cfg = load("pimcts_aggregation", "paper").values
    state = decision_states(GAME, 1, seed=2, stop=0.2, min_legal=2)[0]
    for agent in AGENTS:
        bot = make_agent(
            GAME, state.current_player(), {**agent, "budget": 40}, cfg, np.random.default_rng(0), "hearts"
        )
        assert bot.step(state) in state.legal_actions()
        assert bot.engine_used == "compiled", agent


def test_compiled_equals_python_reference_on_hearts_positions():
    """OL-MCTS, PI-MCTS (each aggregation, D 1..4) and IS-MCTS (availability on and off): the
    same moves, root statistics and search info in both engines, with rollouts to the end,
    cut and scored by the kernel's heuristic, first-play urgency, epsilon and a depth limit."""
    states = decision_states(GAME, CUT_ROLLOUTS_CYCLE, seed=5, stop=0.1, min_legal=2)
    engines_agree(GAME, states, iterations=20, settings=cut_rollouts())


def test_compiled_equals_python_reference_with_the_papers_hearts_settings():
    states = decision_states(GAME, 24, seed=6, stop=0.1, min_legal=2)
    engines_agree(GAME, states, iterations=30, settings=[PAPER])


def _replayed(world):
    state = GAME.new_initial_state()
    for action in world.history():
        state.apply_action(action)
    return state


def test_kernel_worlds_pass_the_determinizer_audit_phase_by_phase():
    """Passing, play and the last trick, through ``KernelSampler`` (what both engines draw):
    the player's information state is kept, a world's history rebuilds it, and the true world
    comes back no more often than chance allows (test_determinizer_audit's bound)."""
    found = states_by_phase("hearts", seed=0)
    assert set(found) == set(SCENARIOS["hearts"][1])
    sampler, rng, samples = KernelSampler(GAME, kernel_for(GAME)), PCG32(1), 30
    for phase, state in found.items():
        for player in (state.current_player(), (state.current_player() + 1) % 4):
            key, hits = infostate_key(state, player), 0
            for _ in range(samples):
                world = sampler(state, player, rng)
                assert infostate_key(world, player) == key, phase
                assert str(_replayed(world)) == str(world), phase
                hits += str(world) == str(state)
            if hits:
                bound, _ = truth_probability_bound(state, player)
                allowed = stats.binom.isf(ALPHA, samples, bound)
                assert hits <= allowed, f"{phase}: truth {hits}/{samples}, chance allows <= {allowed}"
