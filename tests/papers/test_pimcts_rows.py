"""pimcts_aggregation's tournament rows record the engine that ran a search, not the one a bot
planned (``papers/pimcts_aggregation.searched_engine``; docs/papers/pimcts_aggregation.md)."""

import numpy as np
import pyspiel

from infosets.papers.pimcts_aggregation import searched_engine
from infosets.search.ismcts import ISMCTSBot


def test_a_bot_that_never_searched_records_no_engine_then_the_one_that_ran():
    game = pyspiel.load_game("kuhn_poker")
    bot = ISMCTSBot(game, 0, iterations=20, rng=np.random.default_rng(0), engine="python")
    assert bot.engine_used == "python"  # planned from construction
    assert searched_engine(bot) is None  # a game the focus never searched in: its plan (below)
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    bot.step(state)
    assert searched_engine(bot) == "python"


def _pig_task(monkeypatch, engine_of_deal=None):
    """A tournament task of OL-MCTS at B = 30 on Pig to 2 points (smoke preset: 3 deals x 2
    rotations): the seat that moves first nearly always wins on its first turn, so the focus
    searches in rotation 0 and has no decision in rotation 1, the task's last game among them.
    Pig has no kernel and 2 actions, so "auto" runs C++ trees (30 >= 10 x 2), not the
    config's ``ismcts_engine`` "python". ``engine_of_deal``: the engine each deal's focus bot
    is asked for instead. Returns the rows and the focus bots, one per game, in build order."""
    from infosets.experiments import config
    from infosets.experiments.tasks import execute, task_seed
    from infosets.papers import pimcts_aggregation as pa

    cfg = config.load("pimcts_aggregation", "smoke")
    focus, make_agent = [], pa.make_agent

    def recording(game, player, agent, cfg, rng, game_string=None):
        if "D" not in agent:  # an OL-MCTS opponent
            return make_agent(game, player, agent, cfg, rng, game_string)
        if engine_of_deal is not None:
            cfg = {**cfg, "engine": engine_of_deal[len(focus) // game.num_players()]}
        focus.append(make_agent(game, player, agent, cfg, rng, game_string))
        return focus[-1]

    monkeypatch.setattr(pa, "make_agent", recording)
    params = {"game": "pig(winscore=2)", "budget": 30, "agent": "olmcts", "D": 1,
              "aggregation": "none", "block": 0}
    rows = execute(pa.tournament_task, cfg.values, params, task_seed(cfg.seed, "pig engine rows"))
    assert cfg.values["ismcts_engine"] == "python"
    assert [(r["deal"], r["rotation"]) for r in rows] == [(d, s) for d in range(3) for s in range(2)]
    assert len(focus) == len(rows)
    return rows, focus


def test_each_row_records_the_engine_of_its_own_games_focus_searches(monkeypatch):
    """The task's last game gives the focus no decision; the rows of the games it searched in
    record the engine that ran there (C++), not the last bot's fallback, and a game without a
    focus decision records the engine its focus bot planned (docs/paper_scale.md: Stratego's
    block 11 at B = 4,000 read "python" for 132 rows that ran compiled)."""
    rows, focus = _pig_task(monkeypatch)
    assert rows[-1]["decisions"] == 0 and any(r["decisions"] > 0 for r in rows)
    for r, bot in zip(rows, focus):
        assert (searched_engine(bot) is not None) == (r["decisions"] > 0)
        assert bot.engine_used == "cpp"  # what ran where it searched; planned where it did not
    assert [r["engine_used"] for r in rows] == ["cpp"] * 6


def test_games_of_one_task_on_different_engines_keep_their_own(monkeypatch):
    """Deal 1's focus bots run C++, deals 0 and 2's Python: each row names its own game's
    engine, whether its focus searched (rotation 0) or only planned (rotation 1)."""
    engine_of_deal = ["python", "cpp", "python"]
    rows, focus = _pig_task(monkeypatch, engine_of_deal)
    assert [r["decisions"] > 0 for r in rows] == [True, False] * 3
    assert [searched_engine(bot) for bot in focus] == ["python", None, "cpp", None, "python", None]
    assert [r["engine_used"] for r in rows] == [engine_of_deal[r["deal"]] for r in rows]


def test_a_games_engine_joins_the_engines_its_searches_ran():
    from infosets.papers.pimcts_aggregation import game_engine

    assert game_engine(["compiled", "compiled"], "python") == "compiled"
    assert game_engine(["python", "cpp", "cpp+python"], "compiled") == "cpp+python"
    assert game_engine([], "compiled") == game_engine([None], "compiled") == "compiled"


def test_the_focus_seats_probe_moves_no_play():
    """The focus seat alone has its search wrapped (``attach_probe``) and read after each
    decision (``decision_info``); the control cell is fair only if that moves no play. With
    TAG's Monopoly Deal agents (tree reuse, SelfOnly, regret matching, MAST: the settings whose
    control won 9 of 60 at B = 4,000, docs/tag_agents.md), a game whose seat 0 carries the probe
    is the game without it, move for move, from the same seeds."""
    from infosets import arena
    from infosets.experiments import config
    from infosets.papers.pimcts_aggregation import attach_probe, decision_info, make_agent

    cfg = config.load("pimcts_aggregation", "tag")
    name = "monopoly_deal(players=3)"
    game = pyspiel.load_game(name)
    agent = {"agent": "olmcts", "budget": 30, "D": 1, "aggregation": "none"}

    def play(probed: bool) -> list[int]:
        seeds = np.random.SeedSequence(5).spawn(3)
        bots = [make_agent(game, p, agent, cfg, np.random.default_rng(seeds[p]), name) for p in range(3)]
        box = attach_probe(bots[0]) if probed else None
        read = []

        def on_decision(info):
            if probed and info["player"] == 0:
                read.append(decision_info(bots[0], box, info["action"]))

        out = arena.play_game(game, bots, np.random.default_rng(9), on_decision=on_decision)
        assert not probed or (read and all(r["visit_share"] > 0 for r in read))
        return out["state"].history()

    assert play(probed=True) == play(probed=False)
