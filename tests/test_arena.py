"""The one arena: evaluate_bots protocol, forced moves, duplicate deals, tidy rows."""

import numpy as np
import pyspiel
import pytest

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


def test_duplicate_games_rotate_seats_and_are_reproducible():
    game = pyspiel.load_game("leduc_poker")
    lineup = [_random_entrant("a"), _random_entrant("b")]

    def strip(rows):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    rows = arena.duplicate_games(game, lineup, range(3), entropy=7, label="leduc_poker")
    again = arena.duplicate_games(game, lineup, range(3), entropy=7, label="leduc_poker")
    assert strip(rows) == strip(again) and len(rows) == 3 * 2 * 2
    assert {(r["deal"], r["rotation"]) for r in rows} == {(d, s) for d in range(3) for s in range(2)}
    # each entrant sits in each seat once per deal
    assert sorted(r["seat"] for r in rows if r["entrant"] == "a" and r["deal"] == 0) == [0, 1]
    table = arena.summarize(rows)
    assert set(table["entrant"]) == {"a", "b"} and (table["n"] == 6).all()
    assert ((table["lo"] <= table["win_rate"]) & (table["win_rate"] <= table["hi"])).all()


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
    table = arena.main(["kuhn_poker", "random", "olmcts:20", "--deals", "2", "--seed", "0"])
    assert set(table["entrant"]) == {"random", "olmcts:20"} and (table["n"] == 4).all()
    assert "win_rate" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        arena.main(["kuhn_poker", "random", "--deals", "2", "--seed", "0"])
