"""Benchmark of ``core.allocator`` (all papers; found on the pimcts_aggregation paper run of
Ravichandran, Goodman and Lucas): the compiled searches with glibc keeping freed memory
against glibc's default, measured in the same run.

The compiled engine keeps a tree in dense (nodes x actions) arrays. On Stratego (3,600
distinct actions) one open-loop tree at B = 4,000 fills 115 MB and an IS-MCTS tree about
360 MB; with glibc's default every search maps them afresh and faults every page in. Each
search kind runs in two fresh interpreters, one per allocator setting, over the same
positions (random play from one seed) with TAG's Stratego settings; the row gives the
process CPU time (user + system) per decision and the ratio default / kept (goal: >= 1, no
slower). Results are identical either way (tests/core/test_allocator.py).

Usage: ``python benchmarks/bench_allocator.py [--budget 4000] [--positions 5] [--game stratego]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from _harness import report, row
from infosets.core.allocator import ENVIRONMENT

AGENTS = {"OL-MCTS": {"agent": "olmcts", "D": 1, "aggregation": "none"},
          "PI-MCTS D=10": {"agent": "pimcts", "D": 10, "aggregation": "TotalVisits"},
          "IS-MCTS": {"agent": "ismcts", "D": 0, "aggregation": "none"}}

CHILD = """
import json, resource, sys
import numpy as np, pyspiel
import infosets.games  # noqa: F401
from infosets.experiments.config import load
from infosets.papers import pimcts_aggregation as pa

game_string, agent = sys.argv[1], json.loads(sys.argv[2])
budget, positions = int(sys.argv[3]), int(sys.argv[4])
cfg = load("pimcts_aggregation", "paper")
game = pyspiel.load_game(game_string)
rng = np.random.default_rng(11)
states, state = [], game.new_initial_state()
while len(states) < positions + 1:
    if state.is_terminal():
        state = game.new_initial_state()
    elif state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    else:
        if len(state.history()) % 7 == 0:
            states.append(state.clone())
        state.apply_action(int(rng.choice(state.legal_actions())))
agent["budget"] = budget
bots = {}
def decide(s):
    p = s.current_player()
    if p not in bots:
        bots[p] = pa.make_agent(game, p, agent, cfg, np.random.default_rng(5), game_string)
    return bots[p].step(s)
decide(states[0])  # loads the compiled code; not timed
before = resource.getrusage(resource.RUSAGE_SELF)
actions = [decide(s) for s in states[1:]]
after = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
                  "system": after.ru_stime - before.ru_stime,
                  "faults": after.ru_minflt - before.ru_minflt, "actions": actions}))
"""


def measure(game: str, agent: dict, budget: int, positions: int, kept: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    if kept:
        env.update(ENVIRONMENT)
    done = subprocess.run([sys.executable, "-c", CHILD, game, json.dumps(agent), str(budget),
                           str(positions)], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--game", default="stratego")
    args = parser.parse_args()
    rows = []
    for name, agent in AGENTS.items():
        default = measure(args.game, agent, args.budget, args.positions, kept=False)
        kept = measure(args.game, agent, args.budget, args.positions, kept=True)
        if default["actions"] != kept["actions"]:
            raise SystemExit(f"{name}: the allocator changed the moves: {default['actions']} "
                             f"against {kept['actions']}")
        per = args.positions
        rows.append(row(f"{name} on {args.game}, B={args.budget}: CPU-s per decision, glibc default "
                        f"/ kept freed memory", kept["cpu"] / per, default["cpu"] / per, "CPU-s",
                        goal=">= 1x", higher_is_better=False,
                        system_share_default=default["system"] / max(default["cpu"], 1e-9),
                        page_faults_default=default["faults"], page_faults_kept=kept["faults"]))
    report("allocator", rows)


if __name__ == "__main__":
    main()
