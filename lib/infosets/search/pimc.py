"""PIMC with private, public or λ-mixture beliefs, as a pyspiel.Bot.

Follows Arjonilla, Saffidine and Cazenave, "Mixture of public and private beliefs"
(2024, arXiv 2405.14346; docs/papers/belief_mixtures.md): Algorithm 1 and appendix
A.1.1. PIMC samples worlds from the belief, values every legal action of each world with
an exact perfect-information solver (minimax, expectation over the chance left), and
plays the best average.

With a public or mixed belief a sampled world may put the player in another own
infostate: scores are kept per own infostate and aggregated with the fraction of samples
that fell in each (A.1.1); an action is scored only over worlds where it is legal and
chosen only among the actions legal at the true infostate. Kept per own infostate and
weighted by sample counts, this equals the average over the worlds where the action is
legal, which is how it is computed here.

Modes (`mode`):
  - "exact": the infinite-sample limit; the policy is uniform over the actions with the
    best expected score (ties within 1e-9).
  - "protocol": the paper's protocol. One run samples `num_worlds` worlds and returns the
    argmax (ties broken uniformly); the policy at an infostate is the distribution of the
    runs' choices, re-run in batches of `batch` runs until no action's frequency changes
    by more than `tol` between batches. Each (world, action) is valued once per public
    state and the runs are drawn as multinomial counts over the listed worlds, which
    gives the same distribution as sampling worlds one by one.
Games whose worlds cannot be listed (the trick game) use literal sampling with the
solver of `infosets.search.solvers`.
"""
from __future__ import annotations

import numpy as np
import pyspiel

from infosets import beliefs
from infosets.core.checks import check_callable, check_game, check_int, check_player, check_real
from infosets.core.rng import as_generator
from infosets.search.common import check_decision_state

MODES = ("exact", "protocol")
TIE_BREAKS = ("uniform", "first")


class PerfectInfoValues:
    """Memoised exact values (player 0's expected return) of every history of a game.

    Minimax at decision nodes, expectation at chance nodes: the perfect-information value
    of a fully determinized world of a 2-player zero-sum game, which alpha-beta returns.

    One of three perfect-information solvers, each for its case: this one searches the
    whole game once without pruning and memoises every history, so the listed worlds of a
    small game (PIMC's "exact" and "protocol" modes) share one table;
    ``search.solvers.PerfectInfoSolver`` runs alpha-beta on one world at a time, for games
    whose worlds cannot be listed (the trick game, with its kernel); ``search.belote_bots.
    solve`` is Belote's trick-level double-dummy solver on the kernel's bitmask state, with a
    depth horizon (belote_ismcts).
    """

    def __init__(self, game: pyspiel.Game):
        check_game(game)
        if game.num_players() != 2:
            raise ValueError(f"game: must have 2 players, got {game.num_players()}")
        self.game = game
        self._cache: dict[tuple, float] = {}

    def value0(self, state: pyspiel.State) -> float:
        key = tuple(state.history())
        v = self._cache.get(key)
        if v is not None:
            return v
        if state.is_terminal():
            v = float(state.returns()[0])
        elif state.is_chance_node():
            v = sum(p * self.value0(state.child(a)) for a, p in state.chance_outcomes())
        else:
            vals = [self.value0(state.child(a)) for a in state.legal_actions()]
            v = max(vals) if state.current_player() == 0 else min(vals)
        self._cache[key] = v
        return v

    def action_values(self, state: pyspiel.State, player: int) -> dict[int, float]:
        sign = 1.0 if player == 0 else -1.0
        return {a: sign * self.value0(state.child(a)) for a in state.legal_actions()}


def _argmax_random(scores: np.ndarray, rng: np.random.Generator, tie_break: str) -> np.ndarray:
    """Row-wise argmax; ties (within 1e-9) broken uniformly or to the lowest action."""
    best = scores.max(axis=1, keepdims=True)
    ties = scores >= best - 1e-9
    if tie_break == "first":
        return ties.argmax(axis=1)
    noise = rng.random(scores.shape) * ties
    return noise.argmax(axis=1)


class PIMCBot(pyspiel.Bot):
    """PIMC over a λ-mixture belief (Algorithm 1 and appendix A.1.1).

    Args:
      game: a loaded 2-player zero-sum game (liars_dice numdice=1, leduc_poker, trick_game).
      player: the seat this bot plays (0 or 1).
      schedule: a λ in [0, 1] or a `beliefs.LambdaSchedule`.
      rng: numpy Generator, SeedSequence or int seed >= 0 (``infosets.core.rng``; all sampling
        and tie-breaking).
      mode: "exact" (infinite samples) or "protocol" (the paper's runs).
      num_worlds: worlds sampled per run, an int >= 1 (paper: 1000).
      tol, batch, max_runs: the protocol's stopping rule for `policy`: tol in (0, 1), batch an
        int >= 1, max_runs an int >= batch.
      tie_break: "uniform" (default) or "first" among equal best scores.
      evaluator: a callable action_values(state, player) for sampled games (default: the
        exact alpha-beta solver of infosets.search.solvers, tables kept across calls).
      values: a `PerfectInfoValues` of the same game to share between bots of enumerable
        games.
    Raises:
      ValueError: a bad argument (one line naming it), before any compute; and from
        `policy`/`step`/`run_once` a `state` that is not this bot's decision (chance,
        terminal or the other player to move).
    """

    def __init__(self, game, player, schedule=0.0, *, rng, mode="protocol", num_worlds=1000,
                 tol=0.01, batch=100, max_runs=20000, tie_break="uniform", evaluator=None,
                 values=None):
        pyspiel.Bot.__init__(self)
        check_game(game)
        check_player(player, game.num_players())
        schedule = _schedule(schedule)
        if mode not in MODES:
            raise ValueError(f"mode: must be one of {MODES}, got {mode!r}")
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break: must be one of {TIE_BREAKS}, got {tie_break!r}")
        _check_protocol(num_worlds, tol, batch, max_runs)
        if evaluator is not None:
            check_callable(evaluator, "evaluator")
        if values is not None and not isinstance(values, PerfectInfoValues):
            raise ValueError(f"values: must be a PerfectInfoValues or None, got {type(values).__name__}")
        rng = as_generator(rng)
        self.game = game
        self.player = player
        self.schedule = schedule
        self.model = beliefs.world_model(game)
        self.enumerable = isinstance(self.model, beliefs.WorldModel)
        if mode == "exact" and not self.enumerable:
            raise ValueError(f"mode 'exact' needs an enumerable game {beliefs.ENUMERABLE_GAMES}")
        self.mode = mode
        self.num_worlds = int(num_worlds)
        self.tol, self.batch, self.max_runs = float(tol), int(batch), int(max_runs)
        self.tie_break = tie_break
        self.rng = rng
        self._evaluator = evaluator
        name = game.get_type().short_name
        if values is not None and values.game.get_type().short_name != name:
            raise ValueError(f"values: must be a PerfectInfoValues of this game ({name}), "
                             f"got one of {values.game.get_type().short_name}")
        self.values = (values or PerfectInfoValues(game)) if self.enumerable else None
        self._matrices: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self.last_runs = 0  # runs used by the last protocol_policy call

    # ------------------------------------------------------------------ world values
    def value_matrix(self, state) -> tuple[np.ndarray, np.ndarray]:
        """V[world, action] for the mover of `state` and the legality mask, per public state."""
        key = (self.model.public_key(state.history()), state.current_player())
        hit = self._matrices.get(key)
        if hit is not None:
            return hit
        ws = self.model.worlds(state)
        n_a = self.game.num_distinct_actions()
        values = np.zeros((len(ws.histories), n_a))
        legal = np.zeros((len(ws.histories), n_a))
        mover = state.current_player()
        for k, h in enumerate(ws.histories):
            world = self.model.state_of(h)
            for a, v in self.values.action_values(world, mover).items():
                values[k, a] = v
                legal[k, a] = 1.0
        self._matrices[key] = (values, legal)
        return values, legal

    def _root_mask(self, state) -> np.ndarray:
        mask = np.zeros(self.game.num_distinct_actions(), dtype=bool)
        mask[state.legal_actions()] = True
        return mask

    def _scores_from_counts(self, counts, values, legal, root_mask) -> np.ndarray:
        num = counts @ (values * legal)
        den = counts @ legal
        with np.errstate(invalid="ignore", divide="ignore"):
            scores = np.where(den > 0, num / np.maximum(den, 1e-300), -np.inf)
        scores[:, ~root_mask] = -np.inf
        return scores

    def _check_state(self, state):
        check_decision_state(state, self.player)

    # ------------------------------------------------------------------ policies
    def exact_policy(self, state) -> dict[int, float]:
        """Infinite-sample PIMC: uniform over the actions of best expected score."""
        lam = self.schedule(state, self.player)
        _, p = self.model.mixture_belief(state, self.player, lam)
        values, legal = self.value_matrix(state)
        scores = self._scores_from_counts(p[None, :], values, legal, self._root_mask(state))[0]
        best = scores.max()
        chosen = [a for a in state.legal_actions() if scores[a] >= best - 1e-9]
        if self.tie_break == "first":
            chosen = chosen[:1]
        return {a: (1.0 / len(chosen) if a in chosen else 0.0) for a in state.legal_actions()}

    def protocol_policy(self, state) -> dict[int, float]:
        """Distribution of the runs' choices, re-run until stable within `tol`."""
        lam = self.schedule(state, self.player)
        _, p = self.model.mixture_belief(state, self.player, lam)
        values, legal = self.value_matrix(state)
        root_mask = self._root_mask(state)
        hist = np.zeros(self.game.num_distinct_actions())
        runs, prev = 0, None
        while True:
            counts = self.rng.multinomial(self.num_worlds, p, size=self.batch).astype(float)
            scores = self._scores_from_counts(counts, values, legal, root_mask)
            hist += np.bincount(_argmax_random(scores, self.rng, self.tie_break),
                                minlength=hist.size)
            runs += self.batch
            pol = hist / runs
            if prev is not None and np.abs(pol - prev).max() < self.tol:
                break
            if runs >= self.max_runs:
                break
            prev = pol
        self.last_runs = runs
        return {a: float(pol[a]) for a in state.legal_actions()}

    def policy(self, state) -> dict[int, float]:
        """The bot's policy (distribution of its play) at `state`."""
        self._check_state(state)
        if self.mode == "exact":
            return self.exact_policy(state)
        return self.protocol_policy(state)

    # ------------------------------------------------------------------ one run (play)
    def sampled_run(self, state) -> int:
        """One PIMC run with `num_worlds` worlds sampled one by one (any game)."""
        lam = self.schedule(state, self.player)
        scores: dict[int, float] = {}
        counts: dict[int, int] = {}
        worlds = self.model.sample_counts(state, self.player, lam, self.num_worlds, self.rng)
        if self._evaluator is None:
            self._evaluator = _default_evaluator()
        evaluate = self._evaluator
        for w, n in worlds:
            for a, v in evaluate(w, self.player).items():
                scores[a] = scores.get(a, 0.0) + n * v
                counts[a] = counts.get(a, 0) + n
        legal = state.legal_actions()
        avg = np.full(self.game.num_distinct_actions(), -np.inf)
        for a in legal:
            if counts.get(a):
                avg[a] = scores[a] / counts[a]
        if not np.isfinite(avg).any():
            return int(self.rng.choice(legal))
        return int(_argmax_random(avg[None, :], self.rng, self.tie_break)[0])

    def run_once(self, state) -> int:
        """One PIMC decision at `state` (exact mode: a draw from the exact policy)."""
        self._check_state(state)
        if self.mode == "exact":
            pol = self.exact_policy(state)
            acts = list(pol)
            return int(acts[self.rng.choice(len(acts), p=np.array([pol[a] for a in acts]))])
        if not self.enumerable:
            return self.sampled_run(state)
        lam = self.schedule(state, self.player)
        _, p = self.model.mixture_belief(state, self.player, lam)
        values, legal = self.value_matrix(state)
        counts = self.rng.multinomial(self.num_worlds, p, size=1).astype(float)
        scores = self._scores_from_counts(counts, values, legal, self._root_mask(state))
        return int(_argmax_random(scores, self.rng, self.tie_break)[0])

    # ------------------------------------------------------------------ pyspiel.Bot
    def step(self, state) -> int:
        return self.run_once(state)

    def step_with_policy(self, state):
        pol = self.policy(state)
        return list(pol.items()), self.run_once(state)

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass


def _schedule(schedule) -> beliefs.LambdaSchedule:
    """``beliefs.as_schedule(schedule)``, its errors named ``schedule`` (a λ must be a number
    in [0, 1]; beliefs' own range message is kept after the name)."""
    if not isinstance(schedule, beliefs.LambdaSchedule):
        check_real(schedule, "schedule")
    try:
        return beliefs.as_schedule(schedule)
    except ValueError as exc:
        raise ValueError(f"schedule: {exc}") from None


def _check_protocol(num_worlds, tol, batch, max_runs) -> None:
    """The protocol's sample size and stopping rule (PIMCBot and literal_protocol_policy)."""
    check_int(num_worlds, "num_worlds", lo=1)
    check_real(tol, "tol", lo=0.0, hi=1.0, lo_open=True, hi_open=True)
    batch = check_int(batch, "batch", lo=1)
    check_int(max_runs, "max_runs", lo=batch)


def _default_evaluator():
    """A fresh exact alpha-beta solver whose transposition tables persist across calls."""
    from infosets.search import solvers  # noqa: PLC0415
    return solvers.PerfectInfoSolver().action_values


def literal_protocol_policy(game, state, player, lam, *, rng, num_worlds=1000, tol=0.01,
                            batch=100, max_runs=20000, evaluator=None,
                            tie_break="uniform") -> tuple[dict[int, float], int]:
    """The protocol done literally: every run samples `num_worlds` worlds one by one and
    calls the solver on each (no sharing between samples or runs). Reference for the
    benchmark. Returns (policy, number of runs).

    Arguments as `PIMCBot`'s (`lam` a λ in [0, 1]; `rng` a Generator, SeedSequence or int
    seed >= 0; `state` a decision of `player`); a bad one raises a one-line ValueError
    naming it, before any compute."""
    check_game(game)
    check_player(player, game.num_players())
    check_decision_state(state, player)
    check_real(lam, "lam", lo=0.0, hi=1.0)
    rng = as_generator(rng)
    _check_protocol(num_worlds, tol, batch, max_runs)
    if evaluator is not None:
        check_callable(evaluator, "evaluator")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break: must be one of {TIE_BREAKS}, got {tie_break!r}")
    model = beliefs.world_model(game)
    evaluate = evaluator or _default_evaluator()
    legal = state.legal_actions()
    hist = np.zeros(game.num_distinct_actions())
    runs, prev = 0, None
    while True:
        for _ in range(batch):
            total = np.zeros(game.num_distinct_actions())
            count = np.zeros(game.num_distinct_actions())
            for _ in range(num_worlds):
                world = model.sample(state, player, lam, rng)
                for a, v in evaluate(world, player).items():
                    total[a] += v
                    count[a] += 1
            avg = np.full(game.num_distinct_actions(), -np.inf)
            for a in legal:
                if count[a]:
                    avg[a] = total[a] / count[a]
            hist[_argmax_random(avg[None, :], rng, tie_break)[0]] += 1
        runs += batch
        pol = hist / runs
        if (prev is not None and np.abs(pol - prev).max() < tol) or runs >= max_runs:
            break
        prev = pol
    return {a: float(pol[a]) for a in legal}, runs
