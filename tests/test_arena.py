"""The one arena: evaluate_bots protocol, forced moves, duplicate deals, tidy rows."""

import math

import numpy as np
import pyspiel
import pytest
from scipy import stats as scipy_stats

from infosets import arena


class Recorder(pyspiel.Bot):
    """Plays the first legal action and logs what the arena tells it."""

    def __init__(self, log, seat):
        pyspiel.Bot.__init__(self)
        self.log, self.seat = log, seat

    def step(self, state):
        self.log.append(("step", self.seat, tuple(state.legal_actions())))
        return state.legal_actions()[0]

    def restart_at(self, state):
        self.log.append(("restart", self.seat))

    def inform_action(self, state, player_id, action):
        self.log.append(("inform", self.seat, player_id, action))


def test_play_game_follows_evaluate_bots_and_skips_forced_moves():
    game = pyspiel.load_game("kuhn_poker")
    log = []
    bots = [Recorder(log, 0), Recorder(log, 1)]
    out = arena.play_game(game, bots, np.random.default_rng(0))
    assert log[:2] == [("restart", 0), ("restart", 1)]
    # both bots hear each chance outcome; the mover is not informed of its own move
    chance = [e for e in log if e[0] == "inform" and e[2] == pyspiel.PlayerId.CHANCE]
    assert len(chance) == 4
    steps = [e for e in log if e[0] == "step"]
    assert all(len(e[2]) > 1 for e in steps) and out["decisions"] == len(steps)
    # in Kuhn poker no move is forced: each decision is told to the other seat, once, next
    for i, e in enumerate(log):
        if e[0] == "step":
            seat, first_legal = e[1], e[2][0]
            assert log[i + 1] == ("inform", 1 - seat, seat, first_legal), log[i:i + 2]
    assert not [e for e in log if e[0] == "inform" and e[1] == e[2]], "a mover was told its move"
    assert len(out["seconds"]) == 2 and sum(out["returns"]) == 0


def test_forced_moves_are_not_asked():
    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for a in [0, 1, 2, 4, 3, 5, 7, 6]:           # one empty square left: the last move is forced
        state.apply_action(a)
    log = []
    out = arena.play_game(game, [Recorder(log, 0), Recorder(log, 1)], np.random.default_rng(0),
                          state=state)
    assert out["decisions"] == 0 and out["forced"] == 1


def _random_entrant(name):
    return arena.Entrant(name, lambda g, p, rng: pyspiel.make_uniform_random_bot(
        p, int(rng.integers(2**31 - 1))))


def _wilson(successes, n):
    """Wilson score interval computed by hand (z from SciPy's normal quantile)."""
    z = scipy_stats.norm.ppf(0.975)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def test_duplicate_games_rotate_seats_and_are_reproducible():
    game = pyspiel.load_game("leduc_poker")
    lineup = [_random_entrant("a"), _random_entrant("b")]
    deals = range(8)  # seeded: 8 deals of entropy 7 include a split pot (a tie)

    def strip(rows):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    rows = arena.duplicate_games(game, lineup, deals, entropy=7, label="leduc_poker")
    again = arena.duplicate_games(game, lineup, deals, entropy=7, label="leduc_poker")
    assert strip(rows) == strip(again) and len(rows) == 8 * 2 * 2
    assert {(r["deal"], r["rotation"]) for r in rows} == {(d, s) for d in deals for s in range(2)}
    # on every deal, rotation s seats lineup[(seat - s) % 2]: each entrant sits in each seat once
    games = {}
    for r in rows:
        games.setdefault((r["deal"], r["rotation"]), []).append(r)
    for (deal, shift), pair in games.items():
        assert [r["seat"] for r in pair] == [0, 1], deal
        assert [r["entrant"] for r in pair] == [lineup[(s - shift) % 2].name for s in (0, 1)], deal
    for deal in deals:
        for name in ("a", "b"):
            assert sorted(r["seat"] for r in rows
                          if r["entrant"] == name and r["deal"] == deal) == [0, 1], (deal, name)
    # each row's score is its win share, recomputed from the two returns (ties split)
    for pair in games.values():
        ret = [r["return"] for r in pair]
        assert sum(ret) == 0  # zero-sum
        for r, mine, theirs in zip(pair, ret, ret[::-1]):
            assert r["score"] == (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    assert any(r["score"] == 0.5 for r in rows), "the seeded deals should include a tie"

    table = arena.summarize(rows).set_index("entrant")
    assert set(table.index) == {"a", "b"} and (table["n"] == 16).all()
    for name in ("a", "b"):
        mine = [r for r in rows if r["entrant"] == name]
        wins = sum(r["score"] for r in mine)
        assert table.loc[name, "win_rate"] == pytest.approx(wins / len(mine), abs=1e-12)
        assert table.loc[name, "mean_return"] == pytest.approx(
            np.mean([r["return"] for r in mine]), abs=1e-12)
        lo, hi = _wilson(wins, len(mine))
        assert (table.loc[name, "lo"], table.loc[name, "hi"]) == pytest.approx((lo, hi), abs=1e-9)
        assert table.loc[name, "lo"] <= table.loc[name, "win_rate"] <= table.loc[name, "hi"]
    # two players, zero-sum: every game's win shares sum to 1, so do the two win rates
    assert table["win_rate"].sum() == pytest.approx(1.0, abs=1e-12)
    assert table.loc["a", "win_rate"] != 0.5  # the check above is not met trivially
    # the hand computation is SciPy's Wilson interval for a whole count of wins
    whole = arena.summarize([{**r, "score": float(r["score"] == 1.0)} for r in rows])
    for _, row in whole.iterrows():
        ci = scipy_stats.binomtest(int(round(row["win_rate"] * row["n"])), int(row["n"])) \
            .proportion_ci(method="wilson")
        assert (row["lo"], row["hi"]) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_duplicate_deals_replay_the_same_cards_for_every_lineup():
    game = pyspiel.load_game("kuhn_poker")
    dealt = []

    class FirstCards(pyspiel.Bot):
        def __init__(self):
            pyspiel.Bot.__init__(self)

        def step(self, state):
            dealt.append(tuple(state.history()[:2]))
            return state.legal_actions()[0]

        def restart_at(self, state):
            pass

    lineup = [arena.Entrant("x", lambda g, p, rng: FirstCards()),
              arena.Entrant("y", lambda g, p, rng: FirstCards())]
    arena.duplicate_games(game, lineup, [5], entropy=1, label="kuhn_poker")
    assert len(set(dealt)) == 1 and len(dealt) >= 2


def test_deal_seed_depends_on_label_and_index_only():
    a = arena.deal_seed(3, "g", 4).generate_state(2).tolist()
    assert a == arena.deal_seed(3, "g", 4).generate_state(2).tolist()
    assert a != arena.deal_seed(3, "h", 4).generate_state(2).tolist()
    assert a != arena.deal_seed(3, "g", 5).generate_state(2).tolist()
    with pytest.raises(ValueError, match="^deal"):
        arena.deal_seed(3, "g", -1)


def test_command_line(capsys):
    argv = ["kuhn_poker", "random", "olmcts:20", "--deals", "4", "--seed", "0"]
    table = arena.main(argv)
    printed = capsys.readouterr().out.splitlines()
    assert set(table["entrant"]) == {"random", "olmcts:20"} and (table["n"] == 8).all()
    # the same seeded games, played through the library, summarized the same way
    game = pyspiel.load_game("kuhn_poker")
    lineup = [arena.entrant_from_spec("random"), arena.entrant_from_spec("olmcts:20")]
    expected = arena.summarize(arena.duplicate_games(game, lineup, range(4), entropy=0,
                                                     label="kuhn_poker")).set_index("entrant")
    header = printed[0].split()
    assert header == ["entrant", "win_rate", "lo", "hi", "n", "mean_return", "cpu_s_per_game"]
    body = [dict(zip(header, line.split())) for line in printed[1:]]
    assert sorted(r["entrant"] for r in body) == sorted(expected.index)
    for r in body:
        want = expected.loc[r["entrant"]]
        for col in ("win_rate", "lo", "hi", "mean_return"):   # CPU time is not reproducible
            assert float(r[col]) == pytest.approx(want[col], rel=1e-5, abs=1e-6), (r, col)
        assert int(r["n"]) == want["n"] == 8
    assert float(expected["win_rate"].sum()) == pytest.approx(1.0)
    assert len({float(r["win_rate"]) for r in body}) == 2  # not a trivial 0.5 / 0.5 split
    with pytest.raises(SystemExit):
        arena.main(["kuhn_poker", "random", "--deals", "2", "--seed", "0"])
