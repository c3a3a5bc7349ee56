"""Bad input at the public entry points a researcher calls: a one-line error naming the
parameter, before any compute; interactive interfaces answer and never crash.

``test_refused`` and ``test_wanted`` pin the error type and a message starting with the
parameter's name. The ``test_wanted`` cases come from an audit of 2026-11-28 (250 cases, 119
not refused well); each was strict xfail, with what happened then as its reason, until the
checks landed the same day (``infosets.core.checks``).
"""

import contextlib
import io
import re

import numpy as np
import pandas as pd
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers our games)
from infosets import arena, explore, stats
from infosets.experiments import config
from infosets.filtering.resampler import InfostateSampler
from infosets.filtering.spades import SpadesWorlds
from infosets.games import determinizers
from infosets.play import belote as belote_cli
from infosets.play.belote_match import Match
from infosets.play.belote_settings import check_settings, parse_seat
from infosets.search.ismcts import ISMCTSBot, make_cpp_ismcts_bot
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimc import PerfectInfoValues, PIMCBot, literal_protocol_policy
from infosets.search.pimcts import PIMCTSBot

KUHN = pyspiel.load_game("kuhn_poker")
TTT = pyspiel.load_game("tic_tac_toe")
RPS = pyspiel.load_game("matrix_rps")
GOOFSPIEL = pyspiel.load_game("goofspiel")  # simultaneous moves, typed perfect information
LIARS = pyspiel.load_game("liars_dice", {"numdice": 1})
SPADES = pyspiel.load_game("spades")
NAN = float("nan")
BOTS = {"olmcts": OLMCTSBot, "pimcts": PIMCTSBot, "ismcts": ISMCTSBot}


def _decision(game):
    """The first decision state of ``game`` (chance outcomes: the first listed)."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


def _terminal_ttt():
    state = TTT.new_initial_state()
    for action in (0, 3, 1, 4, 2):
        state.apply_action(action)
    return state


def _spades_state():
    """A seeded spades state 24 plays past the deal (few unseen cards: worlds are cheap)."""
    rng = np.random.default_rng(0)
    state = SPADES.new_initial_state()
    while len(state.history()) < 80:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _bot(kind, game=KUHN, player=0, **kw):
    kw.setdefault("iterations", 10)
    kw.setdefault("rng", 0)
    return BOTS[kind](game, player, **kw)


def _random_entrant():
    return arena.Entrant("random", lambda g, p, rng: pyspiel.make_uniform_random_bot(
        p, int(rng.integers(2**31 - 1))))


def _load(overrides, slug="pimcts_aggregation"):
    return config.load(slug, "smoke", overrides=overrides)


def _belote_cli(argv):
    """Exit status, stderr lines and stdout lines of the Belote command line (end of input
    at the first prompt)."""
    err, out = io.StringIO(), io.StringIO()

    def eof(_prompt):
        raise EOFError

    with contextlib.redirect_stderr(err):
        try:
            code = belote_cli.main(argv, read=eof, out=out)
        except SystemExit as exit_:
            code = exit_.code
    return code, err.getvalue().splitlines(), out.getvalue().splitlines()


def _human_to_move(seed=6):
    match = Match(seed, human_seat=0, iterations=5, log_path=None)
    match.run_ai()
    assert match.human_to_move()
    return match


# --------------------------------------------------------------------------- handled well
REFUSED = [
    # OL-MCTS, PI-MCTS, IS-MCTS alike: budgets, seats, constants, rng, enums, settings, games
    *[pytest.param(kw, ValueError, "^iterations:", id=f"iterations-{name}")
      for name, kw in [("0", {"iterations": 0}), ("negative", {"iterations": -5}),
                       ("str", {"iterations": "10"}), ("float", {"iterations": 10.0}),
                       ("none", {"iterations": None})]],
    *[pytest.param({name: value}, ValueError, f"^{name}:", id=f"{name}-{value!r}")
      for name, value in [("player", 2), ("player", -1), ("uct_c", -1), ("uct_c", NAN), ("rng", None),
                          ("rng", 1.5), ("engine", "java"), ("engine", "Python"), ("max_depth", 0),
                          ("rollout_length", -1), ("explore_epsilon", 2), ("fpu", NAN)]],
    pytest.param({"game": RPS}, ValueError, "^game: no determinizer", id="game-simultaneous-rps"),
    pytest.param({"engine": "compiled"}, ValueError, "^engine: 'compiled' needs a game kernel",
                 id="engine-compiled-without-kernel"),
]


@pytest.mark.parametrize("kw, error, match", REFUSED)
def test_bots_refuse(kw, error, match):
    for kind in BOTS:
        with pytest.raises(error, match=match):
            _bot(kind, **kw)


BOT_REFUSED = [
    pytest.param("olmcts", {"final": "max"}, ValueError, "^final:", id="olmcts-final"),
    pytest.param("ismcts", {"final": "max"}, ValueError, "^final:", id="ismcts-final"),
    pytest.param("olmcts", {"engine": "cpp", "max_depth": 3}, ValueError, "^engine: 'cpp'",
                 id="olmcts-cpp-with-settings"),
    pytest.param("pimcts", {"determinizations": 0}, ValueError, "^determinizations:", id="pimcts-D-0"),
    pytest.param("pimcts", {"determinizations": 11}, ValueError, "^determinizations: must be <=",
                 id="pimcts-D-over-budget"),
    pytest.param("pimcts", {"determinizations": "2"}, ValueError, "^determinizations:", id="pimcts-D-str"),
    pytest.param("pimcts", {"determinizations": 2.0}, ValueError, "^determinizations:",
                 id="pimcts-D-float"),
    pytest.param("pimcts", {"aggregation": "averagevalue"}, ValueError, "^aggregation:",
                 id="pimcts-aggregation-case"),
    pytest.param("pimcts", {"aggregation": None}, ValueError, "^aggregation:", id="pimcts-aggregation-none"),
    pytest.param("ismcts", {"availability": "yes"}, ValueError, "^availability:", id="ismcts-availability"),
    pytest.param("ismcts", {"availability": None}, ValueError, "^availability:",
                 id="ismcts-availability-none"),
    pytest.param("ismcts", {"node_key": "x"}, ValueError, "^node_key:", id="ismcts-node-key"),
    pytest.param("ismcts", {"reward": "x"}, ValueError, "^reward:", id="ismcts-reward"),
    pytest.param("ismcts", {"reward": "heuristic"}, ValueError, "^reward: 'heuristic'",
                 id="ismcts-reward-no-heuristic"),
    pytest.param("ismcts", {"engine": "cpp"}, ValueError, "^engine:", id="ismcts-engine-cpp"),
]


@pytest.mark.parametrize("kind, kw, error, match", BOT_REFUSED)
def test_bot_refuses(kind, kw, error, match):
    with pytest.raises(error, match=match):
        _bot(kind, **kw)


def _refused_calls():
    """(call, error, match) of every other entry point's handled bad input."""
    spades, rnd = _spades_state(), _random_entrant()
    rates = pd.DataFrame({"game": ["g"], "budget": [10], "agent": ["olmcts"], "aggregation": [""],
                          "D": [1], "win_rate": [0.5], "lo": [0.4], "hi": [0.6], "n": [10]})
    games = explore.belote_games(pd.DataFrame({"opponent": ["r"], "ai_led_first": [True], "ai_score": [90],
                                               **{f"trick_{t}": [1] for t in range(1, 17)}}))
    return {
        # IS-MCTS at a non-decision state
        "ismcts-chance-state": (lambda: _bot("ismcts").step(KUHN.new_initial_state()), ValueError, "^state:"),
        "ismcts-terminal-state": (lambda: _bot("ismcts", TTT).step(_terminal_ttt()), ValueError, "^state:"),
        "cpp-ismcts-iterations": (lambda: make_cpp_ismcts_bot(KUHN, iterations=0, seed=0), ValueError,
                                  "^iterations:"),
        "cpp-ismcts-final": (lambda: make_cpp_ismcts_bot(KUHN, seed=0, final="x"), ValueError, "^final:"),
        # PIMC
        "pimc-mode": (lambda: PIMCBot(LIARS, 0, rng=0, mode="x"), ValueError, "^mode"),
        "pimc-tie-break": (lambda: PIMCBot(LIARS, 0, rng=0, tie_break="x"), ValueError, "^tie_break"),
        "pimc-num-worlds": (lambda: PIMCBot(LIARS, 0, rng=0, num_worlds=0), ValueError, "^num_worlds"),
        "pimc-tol": (lambda: PIMCBot(LIARS, 0, rng=0, tol=0), ValueError, "^tol"),
        "pimc-tol-nan": (lambda: PIMCBot(LIARS, 0, rng=0, tol=NAN), ValueError, "^tol"),
        "pimc-batch": (lambda: PIMCBot(LIARS, 0, rng=0, batch=0), ValueError, "^batch"),
        "pimc-player": (lambda: PIMCBot(LIARS, 2, rng=0), ValueError, "^player"),
        "pimc-rng": (lambda: PIMCBot(LIARS, 0, rng=None), ValueError, "^rng:"),
        "pimc-game": (lambda: PIMCBot(KUHN, 0, rng=0), ValueError, "^game"),
        "pimc-exact-unenumerable": (lambda: PIMCBot(pyspiel.load_game("trick_game"), 0, rng=0, mode="exact"),
                                    ValueError, "^mode 'exact'"),
        "pimc-values-other-game": (lambda: PIMCBot(LIARS, 0, rng=0, values=PerfectInfoValues(
            pyspiel.load_game("leduc_poker"))), ValueError, "^values"),
        "pimc-chance-state": (lambda: PIMCBot(LIARS, 0, rng=0).step(LIARS.new_initial_state()),
                              ValueError, "^state"),
        "pimc-other-players-state": (lambda: PIMCBot(LIARS, 1, rng=0).step(_decision(LIARS)),
                                     ValueError, "^state"),
        # determinizers
        "sampler-for-simultaneous": (lambda: determinizers.sampler_for(RPS), ValueError, "^game:"),
        # filtering samplers
        "spades-mode": (lambda: SpadesWorlds("gibbs"), ValueError, "^mode:"),
        "spades-transitions": (lambda: SpadesWorlds("mcmc", transitions=0), ValueError, "^transitions:"),
        "spades-burn-in": (lambda: SpadesWorlds("mcmc", burn_in=-1), ValueError, "^burn_in:"),
        "spades-rng-none": (lambda: SpadesWorlds()(spades, 0, None), ValueError, "^rng:"),
        "spades-deal-state": (lambda: SpadesWorlds()(SPADES.new_initial_state(), 0, 0), ValueError,
                              "^state:"),
        "spades-other-game": (lambda: SpadesWorlds()(_decision(KUHN), 0, 0), ValueError, "^state:"),
        "infostate-sampler-mode": (lambda: InfostateSampler(None, mode="x"), ValueError, "^mode:"),
        "infostate-sampler-transitions": (lambda: InfostateSampler(None, transitions=0), ValueError,
                                          "^transitions:"),
        # arena
        "arena-lineup": (lambda: arena.duplicate_games(KUHN, [rnd], [0], entropy=0, label="k"),
                         ValueError, "^lineup:"),
        "arena-deal-negative": (lambda: arena.duplicate_games(KUHN, [rnd, rnd], [-1], entropy=0, label="k"),
                                ValueError, "^deal:"),
        "arena-play-rng": (lambda: arena.play_game(KUHN, [None, None], None), ValueError, "^rng:"),
        "arena-summarize-score": (lambda: arena.summarize([{"entrant": "a", "return": 1.0, "seconds": 0.0,
                                                            "score": 2.0}]), ValueError, "^scores:"),
        "arena-spec": (lambda: arena.entrant_from_spec("olmcts:x"), ValueError, "^bot:"),
        # stats
        "wilson-n": (lambda: stats.wilson_interval(0, 0), ValueError, "^n:"),
        "wilson-successes": (lambda: stats.wilson_interval(5, 3), ValueError, "^successes:"),
        "wilson-successes-nan": (lambda: stats.wilson_interval(NAN, 3), ValueError, "^successes:"),
        "win-rate-empty": (lambda: stats.win_rate([]), ValueError, "^scores:"),
        "win-rate-range": (lambda: stats.win_rate([2.0]), ValueError, "^scores:"),
        "mean-ci-empty": (lambda: stats.mean_ci([]), ValueError, "^values:"),
        "t-interval-n": (lambda: stats.t_interval(0.0, 1.0, 0), ValueError, "^n:"),
        "t-interval-se": (lambda: stats.t_interval(0.0, -1.0, 5), ValueError, "^se:"),
        "t-interval-se-nan": (lambda: stats.t_interval(0.0, NAN, 5), ValueError, "^se:"),
        "two-proportion-n": (lambda: stats.two_proportion_test(0, 0, 1, 2), ValueError, "^n_a:"),
        "two-proportion-alternative": (lambda: stats.two_proportion_test(1, 2, 1, 2, alternative="x"),
                                       ValueError, "^alternative:"),
        "tost-margin": (lambda: stats.tost_two_proportions(1, 2, 1, 2, 0), ValueError, "^margin:"),
        "tost-paired-margin-nan": (lambda: stats.tost_paired([0.0, 1.0], NAN), ValueError, "^margin:"),
        "mean-difference-empty": (lambda: stats.mean_difference([], [1.0]), ValueError, "^a:"),
        "mean-difference-nan": (lambda: stats.mean_difference([1.0], [NAN]), ValueError, "^b:"),
        "paired-t-short": (lambda: stats.paired_t_test([1.0]), ValueError, "^differences:"),
        "paired-t-nan": (lambda: stats.paired_t_test([NAN, 1.0, 2.0]), ValueError, "^differences:"),
        "bootstrap-rng": (lambda: stats.bootstrap_ci([1.0, 2.0], rng=None), ValueError, "^rng:"),
        "bootstrap-resamples": (lambda: stats.bootstrap_ci([1.0, 2.0], rng=0, resamples=10), ValueError,
                                "^resamples:"),
        "bootstrap-empty": (lambda: stats.bootstrap_ci([], rng=0), ValueError, "^values:"),
        "trend-alternative": (lambda: stats.trend_test([1, 2, 3], [1, 2, 3], alternative="x"), ValueError,
                              "^alternative:"),
        "holm-range": (lambda: stats.holm([1.5]), ValueError, "^pvalues:"),
        "power-sd": (lambda: stats.power_mean_difference(0.1, 0.0, 10), ValueError, "^sd:"),
        "n-for-power-target": (lambda: stats.n_for_power(lambda n: 0.5, target=1.0), ValueError, "^target:"),
        "n-for-power-target-nan": (lambda: stats.n_for_power(lambda n: 0.5, target=NAN), ValueError,
                                   "^target:"),
        # experiments.config
        "config-wrong-type": (lambda: _load({"uct_c": "x"}), config.ConfigError, "^uct_c: expected float"),
        "config-out-of-range": (lambda: _load({"uct_c": -1}), config.ConfigError, "^uct_c: .* out of range"),
        "config-list-item": (lambda: _load({"budgets": [0]}), config.ConfigError, r"^budgets\[0\]:"),
        "config-list-float": (lambda: _load({"budgets": [2.5]}), config.ConfigError, r"^budgets\[0\]:"),
        "config-scalar-for-list": (lambda: _load({"budgets": 5}), config.ConfigError, "^budgets:"),
        "config-bool-for-int": (lambda: _load({"games_per_cell": True}), config.ConfigError,
                                "^games_per_cell:"),
        "config-str-for-bool": (lambda: _load({"include_ismcts": "yes"}), config.ConfigError,
                                "^include_ismcts:"),
        "config-unknown-key": (lambda: _load({"budget": [10]}), config.ConfigError,
                               "^budget: unknown parameter"),
        "config-choice": (lambda: _load({"engine": "java"}), config.ConfigError, "^engine:"),
        "config-misspelt-game": (lambda: _load({"games": ["kuhn_pokr"]}), config.ConfigError,
                                 r"^games\[0\]: unknown game 'kuhn_pokr'; did you mean"),
        "config-simultaneous-game": (lambda: _load({"games": ["matrix_rps"]}), config.ConfigError,
                                     r"^games\[0\]:"),
        "config-empty-list": (lambda: _load({"games": []}), config.ConfigError, "^games:"),
        "config-per-game-value": (lambda: _load({"games_per_cell_by_game": {"leduc_poker": "x"}}),
                                  config.ConfigError, r"^games_per_cell_by_game\['leduc_poker'\]:"),
        "config-malformed-yaml": (lambda: _load("{uct_c: [}"), config.ConfigError, "^overrides:"),
        "config-overrides-type": (lambda: _load([("uct_c", 1.0)]), config.ConfigError, "^overrides:"),
        "config-seed": (lambda: config.load("pimcts_aggregation", "smoke", seed=-1), config.ConfigError,
                        "^seed:"),
        "config-preset": (lambda: config.load("pimcts_aggregation", "fast"), config.ConfigError, "^preset:"),
        "config-slug": (lambda: config.load("nope", "smoke"), config.ConfigError, "^slug:"),
        "config-no-pimcts-cell": (lambda: _load({"determinizations": [1]}), config.ConfigError,
                                  r"^budgets\[0\]:"),
        "config-list-range": (lambda: _load({"lambdas": [1.5]}, "belief_mixtures"), config.ConfigError,
                              r"^lambdas\[0\]:"),
        "config-belote-deal": (lambda: _load({"points_lo": 100, "points_hi": 50}, "belote_ismcts"),
                               config.ConfigError, "^points_lo"),
        # explore (the views behind the widgets)
        "explore-pimcts-game": (lambda: explore.pimcts_aggregation_view(rates, "nope", 10, ()), ValueError,
                                "^game:"),
        "explore-belote-trick": (lambda: explore.belote_view(games, "r", 1, 17), ValueError, "^trick:"),
        "explore-belote-opponent": (lambda: explore.belote_view(games, "zz", 1, 3), ValueError,
                                    "^opponent:"),
        "explore-quickstart-game": (lambda: explore.quickstart_view(
            pd.DataFrame({"game": ["a"], "solver": ["cfr"], "iterations": [1], "exploitability": [0.1]}),
            "b"),
            ValueError, "^game:"),
        # play.belote settings
        "belote-iterations": (lambda: check_settings(1, 0, 82.0), ValueError, "^iterations"),
        "belote-iterations-bool": (lambda: check_settings(1, True, 82.0), ValueError, "^iterations"),
        "belote-seed": (lambda: check_settings(-1, 10, 82.0), ValueError, "^seed"),
        "belote-exploration-nan": (lambda: check_settings(1, 10, NAN), ValueError, "^exploration"),
        "belote-seat": (lambda: parse_seat("left"), ValueError, "^seat"),
        "belote-match-seed-none": (lambda: Match(None), ValueError, "^seed"),
        "belote-match-seat": (lambda: Match(1, human_seat=2), ValueError, "^seat"),
        "belote-match-log-folder": (lambda: Match(1, human_seat=0, log_path="/tmp"), ValueError, "^log:"),
    }


REFUSED_CALLS = None


def _refused(name):
    global REFUSED_CALLS
    if REFUSED_CALLS is None:
        REFUSED_CALLS = _refused_calls()
    return REFUSED_CALLS[name]


@pytest.mark.parametrize("name", [
    "ismcts-chance-state", "ismcts-terminal-state", "cpp-ismcts-iterations", "cpp-ismcts-final",
    "pimc-mode", "pimc-tie-break", "pimc-num-worlds", "pimc-tol", "pimc-tol-nan", "pimc-batch",
    "pimc-player", "pimc-rng", "pimc-game", "pimc-exact-unenumerable", "pimc-values-other-game",
    "pimc-chance-state", "pimc-other-players-state", "sampler-for-simultaneous", "spades-mode",
    "spades-transitions", "spades-burn-in", "spades-rng-none", "spades-deal-state", "spades-other-game",
    "infostate-sampler-mode", "infostate-sampler-transitions", "arena-lineup", "arena-deal-negative",
    "arena-play-rng", "arena-summarize-score", "arena-spec", "wilson-n", "wilson-successes",
    "wilson-successes-nan", "win-rate-empty", "win-rate-range", "mean-ci-empty", "t-interval-n",
    "t-interval-se", "t-interval-se-nan", "two-proportion-n", "two-proportion-alternative", "tost-margin",
    "tost-paired-margin-nan", "mean-difference-empty", "mean-difference-nan", "paired-t-short",
    "paired-t-nan", "bootstrap-rng", "bootstrap-resamples", "bootstrap-empty", "trend-alternative",
    "holm-range", "power-sd", "n-for-power-target", "n-for-power-target-nan", "config-wrong-type",
    "config-out-of-range", "config-list-item", "config-list-float", "config-scalar-for-list",
    "config-bool-for-int", "config-str-for-bool", "config-unknown-key", "config-choice",
    "config-misspelt-game", "config-simultaneous-game", "config-empty-list", "config-per-game-value",
    "config-malformed-yaml", "config-overrides-type", "config-seed", "config-preset", "config-slug",
    "config-no-pimcts-cell", "config-list-range", "config-belote-deal", "explore-pimcts-game",
    "explore-belote-trick", "explore-belote-opponent", "explore-quickstart-game", "belote-iterations",
    "belote-iterations-bool", "belote-seed", "belote-exploration-nan", "belote-seat",
    "belote-match-seed-none", "belote-match-seat", "belote-match-log-folder",
])
def test_refused(name):
    call, error, match = _refused(name)
    with pytest.raises(error, match=match) as caught:
        call()
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("argv, message", [
    (["--iterations", "0"], "error: iterations"),
    (["--seat", "2"], "error: seat"),
    (["--seed", "-3"], "error: seed"),
    (["--exploration", "nan"], "error: exploration"),
    (["--iterations", "abc"], "error: argument --iterations"),
    (["--bogus"], "error: unrecognized arguments"),
])
def test_belote_command_line_refuses_before_loading(argv, message):
    code, err, out = _belote_cli([*argv, "--log", ""])
    assert code == 2
    assert len(err) == 1 and err[0].startswith(message), err
    assert not any(line.startswith("loading") for line in out)  # before the game and the AI load


def test_belote_prompt_answers_bad_input_and_never_crashes():
    match = _human_to_move()
    replies = iter(["zz", "10X", "", "help", "♠♠", "x" * 500, "7C 8C", "quit"])
    out = io.StringIO()
    assert belote_cli.play(match, read=lambda _prompt: next(replies), out=out) == 0
    invalid = [line for line in out.getvalue().splitlines() if line.startswith("invalid:")]
    assert len(invalid) == 5 and all(len(line) < 200 for line in invalid), invalid
    assert out.getvalue().rstrip().endswith("bye (game abandoned, not logged)")


# --------------------------------------------------------------------------- wanted
def _spades_call(sampler, player):
    return lambda: sampler(_spades_state(), player, 0)


WANTED = [
    # search bots
    *[pytest.param(lambda kind=kind: _bot(kind, player="0"), ValueError, "^player",
                   id=f"{kind}-player-str") for kind in BOTS],
    *[pytest.param(lambda kind=kind: _bot(kind, player=0.5), ValueError, "^player",
                   id=f"{kind}-player-float") for kind in BOTS],
    *[pytest.param(lambda kind=kind: _bot(kind, iterations=True), ValueError, "^iterations",
                   id=f"{kind}-iterations-bool") for kind in BOTS],
    *[pytest.param(lambda kind=kind: _bot(kind, uct_c="1"), ValueError, "^uct_c",
                   id=f"{kind}-uct_c-str") for kind in BOTS],
    *[pytest.param(lambda kind=kind: _bot(kind, uct_c=float("inf")), ValueError, "^uct_c",
                   id=f"{kind}-uct_c-inf") for kind in BOTS],
    *[pytest.param(lambda kind=kind: _bot(kind, rng=-1), ValueError, "^rng",
                   id=f"{kind}-rng-negative") for kind in BOTS],
    *[pytest.param(lambda kind=kind: BOTS[kind]("kuhn_poker", 0, rng=0), ValueError, "^game",
                   id=f"{kind}-game-str") for kind in BOTS],
    *[pytest.param(lambda kind=kind: _bot(kind, GOOFSPIEL), ValueError, "^game",
                   id=f"{kind}-simultaneous-game") for kind in BOTS],
    *[pytest.param(lambda kind=kind: _bot(kind, sampler="x"), ValueError, "^sampler",
                   id=f"{kind}-sampler-not-callable") for kind in BOTS],
    *[pytest.param(lambda kind=kind: _bot(kind, rollout_policy=3), ValueError, "^rollout_policy",
                   id=f"{kind}-rollout-policy-not-callable") for kind in BOTS],
    *[pytest.param(lambda kind=kind: _bot(kind).step(KUHN.new_initial_state()), ValueError, "^state",
                   id=f"{kind}-chance-state") for kind in ("olmcts", "pimcts")],
    *[pytest.param(lambda kind=kind: _bot(kind, TTT).step(_terminal_ttt()), ValueError, "^state",
                   id=f"{kind}-terminal-state") for kind in ("olmcts", "pimcts")],
    *[pytest.param(lambda kind=kind: _bot(kind, player=1).step(_decision(KUHN)), ValueError, "^state",
                   id=f"{kind}-other-players-turn") for kind in BOTS],
    pytest.param(lambda: _bot("pimcts", determinizations=True), ValueError, "^determinizations",
                 id="pimcts-D-bool"),
    pytest.param(lambda: make_cpp_ismcts_bot(KUHN, iterations=5, seed=None), ValueError, "^seed",
                 id="cpp-ismcts-seed-none"),
    pytest.param(lambda: make_cpp_ismcts_bot(KUHN, iterations="5", seed=0), ValueError, "^iterations",
                 id="cpp-ismcts-iterations-str"),
    pytest.param(lambda: make_cpp_ismcts_bot(KUHN, iterations=5, seed=0, uct_c=-1), ValueError, "^uct_c",
                 id="cpp-ismcts-uct_c-negative"),
    pytest.param(lambda: make_cpp_ismcts_bot(KUHN, iterations=5, seed=0, rollouts=0), ValueError, "^rollouts",
                 id="cpp-ismcts-rollouts-0"),
    # PIMC
    pytest.param(lambda: PIMCBot(LIARS, 0, rng=0, num_worlds="abc"), ValueError, "^num_worlds",
                 id="pimc-num-worlds-str"),
    pytest.param(lambda: PIMCBot(LIARS, 0, rng=0, num_worlds=2.7), ValueError, "^num_worlds",
                 id="pimc-num-worlds-float"),
    pytest.param(lambda: PIMCBot(LIARS, "0", rng=0), ValueError, "^player",
                 id="pimc-player-str"),
    pytest.param(lambda: PIMCBot(LIARS, 0, 1.5, rng=0), ValueError, "^schedule",
                 id="pimc-schedule-range"),
    pytest.param(lambda: PIMCBot(LIARS, 0, "x", rng=0), ValueError, "^schedule",
                 id="pimc-schedule-str"),
    pytest.param(lambda: PIMCBot(LIARS, 0, rng=0, values="x"), ValueError, "^values",
                 id="pimc-values-type"),
    pytest.param(lambda: literal_protocol_policy(LIARS, _decision(LIARS), 0, 0.0, rng=0, num_worlds=1,
                                                 batch=0, max_runs=0), ValueError, "^batch",
                 marks=[pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")],
                 id="pimc-literal-batch-0"),
    pytest.param(lambda: literal_protocol_policy(LIARS, _decision(LIARS), 5, 0.0,
                                                 rng=np.random.default_rng(0),
                                                 num_worlds=1, batch=1, max_runs=1), ValueError, "^player",
                 id="pimc-literal-player"),
    # determinizers
    pytest.param(lambda: determinizers.sampler_for("kuhn_poker"), ValueError, "^game",
                 id="sampler-for-str"),
    pytest.param(lambda: determinizers.sampler_for(KUHN)(KUHN.new_initial_state(), 0,
                                                         np.random.default_rng(0)),
                 ValueError, "^state", id="sampler-chance-state"),
    pytest.param(lambda: determinizers.sampler_for(KUHN)(_decision(KUHN), 5, np.random.default_rng(0)),
                 ValueError, "^player", id="sampler-player-out-of-range"),
    pytest.param(lambda: determinizers.sampler_for(LIARS)(_decision(LIARS), 5, np.random.default_rng(0)),
                 ValueError, "^player", id="sampler-player-out-of-range-replay"),
    pytest.param(lambda: determinizers.register_determinizer(3, lambda game: None), ValueError,
                 "^game_name", id="register-name-not-str"),
    pytest.param(lambda: determinizers.register_determinizer("zz_game", "not callable"), ValueError,
                 "^factory",
                 id="register-factory-not-callable"),
    # filtering samplers
    pytest.param(lambda: SpadesWorlds("mcmc", transitions="5"), ValueError, "^transitions",
                 id="spades-transitions-str"),
    pytest.param(lambda: SpadesWorlds("mcmc", transitions=2.5), ValueError, "^transitions",
                 id="spades-transitions-float"),
    pytest.param(lambda: SpadesWorlds("mcmc", burn_in=None), ValueError, "^burn_in",
                 id="spades-burn-in-none"),
    pytest.param(lambda: SpadesWorlds("mcmc", log_reach=3), ValueError, "^log_reach",
                 id="spades-log-reach-not-callable"),
    pytest.param(_spades_call(SpadesWorlds(), 7), ValueError, "^player",
                 id="spades-player-7"),
    pytest.param(_spades_call(SpadesWorlds(), -1), ValueError, "^player",
                 id="spades-player-negative"),
    pytest.param(_spades_call(SpadesWorlds(), 0), None, None, id="spades-control-player-0"),
    pytest.param(lambda: SpadesWorlds()(_spades_state(), 0, -3), ValueError, "^rng",
                 id="spades-rng-negative"),
    pytest.param(lambda: InfostateSampler(None), ValueError, "^policy",
                 id="infostate-sampler-policy-none"),
    pytest.param(lambda: InfostateSampler(None, mode="uniform")(_decision(KUHN), 0, 0), ValueError, "^state",
                 id="infostate-sampler-other-game"),
    # arena
    pytest.param(lambda: arena.duplicate_games(KUHN, [_random_entrant()] * 2, [0], entropy=None, label="k"),
                 ValueError, "^entropy",
                 id="arena-entropy-none"),
    pytest.param(lambda: arena.duplicate_games(KUHN, [_random_entrant()] * 2, [0], entropy=-1, label="k"),
                 ValueError, "^entropy", id="arena-entropy-negative"),
    pytest.param(lambda: arena.duplicate_games(KUHN, [_random_entrant()] * 2, 3, entropy=0, label="k"),
                 ValueError, "^deals", id="arena-deals-int"),
    pytest.param(lambda: arena.duplicate_games(KUHN, [_random_entrant()] * 2, [1.5], entropy=0, label="k"),
                 ValueError, "^deal", id="arena-deals-float"),
    pytest.param(lambda: arena.duplicate_games(KUHN, [_random_entrant()] * 2, [0], entropy=0, label=None),
                 ValueError, "^label", id="arena-label-none"),
    pytest.param(lambda: arena.duplicate_games(KUHN, [_random_entrant()] * 2, [0], entropy=0, label="k",
                                               rotations=[-1]), ValueError, "^rotations",
                 id="arena-rotation-negative"),
    pytest.param(lambda: arena.duplicate_games(KUHN, ["random", "random"], [0], entropy=0, label="k"),
                 ValueError, "^lineup",
                 id="arena-lineup-of-str"),
    pytest.param(lambda: arena.duplicate_games(RPS, [_random_entrant()] * 2, [0], entropy=0, label="k"),
                 ValueError, "^game",
                 id="arena-simultaneous-game"),
    pytest.param(lambda: arena.summarize([]), ValueError, "^rows",
                 id="arena-summarize-empty"),
    pytest.param(lambda: arena.summarize([{"entrant": "a", "return": 1.0, "seconds": 0.0}]), ValueError,
                 "^rows", id="arena-summarize-missing-column"),
    pytest.param(lambda: arena.summarize([{"entrant": "a", "return": 1.0, "seconds": 0.0, "score": 1.0}],
                                         by=("nope",)), ValueError, "^by",
                 id="arena-summarize-by-unknown"),
    pytest.param(lambda: arena.summarize([{"entrant": "a", "return": 1.0, "seconds": 0.0, "score": NAN}]),
                 ValueError, "^score", id="arena-summarize-score-nan"),
    # stats
    pytest.param(lambda: stats.mean_ci([1.0, 2.0, 3.0], confidence=1.5), ValueError, "^confidence",
                 id="mean-ci-confidence-above-1"),
    pytest.param(lambda: stats.mean_ci([1.0, 2.0, 3.0], confidence=-0.5), ValueError, "^confidence",
                 id="mean-ci-confidence-negative"),
    pytest.param(lambda: stats.mean_ci([1.0, 2.0, 3.0], confidence=95), ValueError, "^confidence",
                 id="mean-ci-confidence-percent"),
    pytest.param(lambda: stats.mean_ci([NAN, 1.0]), ValueError, "^values",
                 id="mean-ci-nan"),
    pytest.param(lambda: stats.mean_ci(None), ValueError, "^values",
                 id="mean-ci-none"),
    pytest.param(lambda: stats.t_interval(0.0, 1.0, 5, confidence=2), ValueError, "^confidence",
                 id="t-interval-confidence"),
    pytest.param(lambda: stats.t_interval(NAN, 1.0, 5), ValueError, "^mean",
                 id="t-interval-mean-nan"),
    pytest.param(lambda: stats.welch_difference([NAN, 1.0], [1.0, 2.0]), ValueError, "^a",
                 id="welch-nan"),
    pytest.param(lambda: stats.welch_difference([0.0, 1.0], [1.0, 2.0], confidence=1.5), ValueError,
                 "^confidence", id="welch-confidence"),
    pytest.param(lambda: stats.welch_difference([], [1.0, 2.0]), ValueError, "^a",
                 id="welch-empty"),
    pytest.param(lambda: stats.bootstrap_ci([1.0, 2.0, 3.0], rng=0, confidence=1.5), ValueError,
                 "^confidence",
                 id="bootstrap-confidence"),
    pytest.param(lambda: stats.bootstrap_ci([1.0, 2.0], rng=0, resamples="x"), ValueError, "^resamples",
                 id="bootstrap-resamples-str"),
    pytest.param(lambda: stats.win_rate([NAN, 1.0]), ValueError, "^scores",
                 id="win-rate-nan"),
    pytest.param(lambda: stats.wilson_interval(1, 3, z=-1.0), ValueError, "^z",
                 id="wilson-z-negative"),
    pytest.param(lambda: stats.wilson_interval(1, 2.5), ValueError, "^n",
                 id="wilson-n-float"),
    pytest.param(lambda: stats.two_proportion_test(5, 2, 1, 2), ValueError, "^successes_a",
                 id="two-proportion-successes-over-n"),
    pytest.param(lambda: stats.two_proportion_test(-1, 2, 1, 2), ValueError, "^successes_a",
                 id="two-proportion-successes-negative"),
    pytest.param(lambda: stats.tost_two_proportions(0, 0, 1, 2, 0.1), ValueError, "^n_a",
                 id="tost-two-proportions-n-0"),
    pytest.param(lambda: stats.tost_two_proportions(5, 2, 1, 2, 0.1), ValueError, "^successes_a",
                 id="tost-two-proportions-successes-over-n"),
    pytest.param(lambda: stats.normal_difference(0.0, -1.0, 0.0, 1.0), ValueError, "^se_a",
                 id="normal-difference-se-negative"),
    pytest.param(lambda: stats.holm([NAN, 0.01]), ValueError, "^pvalues",
                 id="holm-nan"),
    pytest.param(lambda: stats.benjamini_hochberg([NAN, 0.01]), ValueError, "^pvalues",
                 id="bh-nan"),
    pytest.param(lambda: stats.power_mean_difference(0.1, 1.0, 10, alpha=1.5), ValueError, "^alpha",
                 id="power-alpha"),
    pytest.param(lambda: stats.power_mean_difference(0.1, 1.0, -5), ValueError, "^n",
                 id="power-n-negative"),
    pytest.param(lambda: stats.power_equivalence(0.1, 1.0, 0), ValueError, "^n",
                 id="power-equivalence-n-0"),
    pytest.param(lambda: stats.power_equivalence(0.1, NAN, 10), ValueError, "^sd",
                 id="power-equivalence-sd-nan"),
    pytest.param(lambda: stats.trend_test([1, 2, 3, 4], [1, 2, 3]), ValueError, "^(x|y)",
                 id="trend-lengths"),
    # experiments.config
    pytest.param(lambda: _load({"uct_c": NAN}), config.ConfigError, "^uct_c",
                 id="config-nan-in-range"),
    pytest.param(lambda: _load("{lambdas: [.nan]}", "belief_mixtures"), config.ConfigError, r"^lambdas\[0\]",
                 id="config-yaml-nan-list"),
    pytest.param(lambda: _load("{trade_step_size: .inf}", "progressive_hiding"), config.ConfigError,
                 "^trade_step_size", id="config-inf"),
    pytest.param(lambda: _load({"states": ["bogus"]}, "history_filtering"), config.ConfigError,
                 r"^states\[0\]",
                 id="config-hf-states"),
    pytest.param(lambda: _load({"ismcts_game": "x"}, "history_filtering"), config.ConfigError, "^ismcts_game",
                 id="config-hf-ismcts-game"),
    # explore
    pytest.param(lambda: explore.progressive_hiding_view(pd.DataFrame(
        {"experiment": ["e"], "method": ["m"], "step": [1], "mean": [0.1], "lo": [0.0], "hi": [0.2],
         "q10": [0.0], "n": [1], "rho": [None]}), "zz", "m"), ValueError, "^experiment",
        id="explore-ph-experiment"),
    pytest.param(lambda: explore.explore_pimcts_aggregation(pd.DataFrame({"x": [1]})), ValueError, "^rates",
                 id="explore-pimcts-columns"),
    pytest.param(lambda: explore.history_filtering_view(pd.DataFrame(
        {"kind": ["fig4"], "state": ["s"], "method": ["True"], "burn_in": [0], "samples": [10],
         "error": [0.1], "se": [0.01], "runs": [5], "histories": [3]}), "s", ("Nope",)), ValueError,
        "^estimators", id="explore-hf-estimator"),
    pytest.param(lambda: explore.belote_view(explore.belote_games(pd.DataFrame(
        {"opponent": ["r"], "ai_led_first": [True], "ai_score": [90],
         **{f"trick_{t}": [1] for t in range(1, 17)}})), "r", 1, "3"), ValueError, "^trick",
        id="explore-belote-trick-str"),
    # play.belote
    pytest.param(lambda: Match(1, human_seat=0, constraint="x"), ValueError, "^constraint",
                 id="belote-match-constraint"),
]


@pytest.mark.parametrize("call, error, match", WANTED)
def test_wanted(call, error, match, monkeypatch):
    monkeypatch.setattr(determinizers, "_REGISTRY", dict(determinizers._REGISTRY))  # no junk left behind
    if error is None:  # a control: the same call with good input works
        call()
        return
    _expect_one_line(call, error, match)


def _expect_one_line(call, error, match):
    """``call()`` raises ``error`` with a one-line message matching ``match``; anything else
    fails with a one-line account of what happened instead (no traceback to format, which
    keeps a hundred expected failures fast)."""
    try:
        call()
    except error as exc:
        message = str(exc)
        if re.search(match, message) and "\n" not in message:
            return
        pytest.fail(f"{type(exc).__name__} {message.splitlines()[0]!r}: not one line matching {match!r}",
                    pytrace=False)
    except Exception as exc:  # noqa: BLE001  (what a bad input raises today is the finding)
        text = str(exc).splitlines()[0] if str(exc) else ""
        pytest.fail(f"{type(exc).__name__} {text!r} instead of {error.__name__} {match!r}", pytrace=False)
    pytest.fail(f"no error: expected {error.__name__} {match!r}", pytrace=False)


def test_arena_command_line_unknown_game_is_one_line(capfd):
    with pytest.raises(SystemExit):
        arena.main(["kuhn_pokr", "random", "random", "--deals", "1", "--seed", "1"])
    assert len(capfd.readouterr().err.strip().splitlines()) <= 3  # argparse's usage + one error line


def test_belote_command_line_checks_min_trumps_before_loading():
    code, err, out = _belote_cli(["--min-trumps", "9", "--seed", "1", "--log", ""])
    assert code == 2 and len(err) == 1 and "min_trumps" in err[0]
    assert not any(line.startswith("loading") for line in out)


@pytest.mark.parametrize("text", [None, 123])
def test_belote_submit_never_raises(text):
    match = _human_to_move()
    message = match.submit(text)
    assert isinstance(message, str) and message and "\n" not in message


def test_literal_protocol_policy_takes_an_int_seed():
    policy, runs = literal_protocol_policy(LIARS, _decision(LIARS), 0, 0.0, rng=0, num_worlds=1,
                                           batch=1, max_runs=1)
    assert runs == 1 and abs(sum(policy.values()) - 1.0) < 1e-9
