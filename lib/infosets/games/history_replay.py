"""History-replay determinizer for any sequential OpenSpiel game.

Determinization (sampling a full world consistent with one player's information state) is
what PI-MCTS and IS-MCTS search over: Ravichandran, Goodman and Lucas, "Evaluation of
Perfect-Information Monte Carlo Tree Search in Imperfect-Information Games" (slug
``pimcts_aggregation``), and the world samplers compared by Arjonilla, Saffidine and
Cazenave (docs/papers/belief_mixtures.md). This module needs nothing from a game but its pyspiel
API: it replays the real history and redraws every step the player did not see, hidden
chance outcomes (the deal) and hidden opponent actions (a pass, a discard, a stone in
dark_hex) alike. The engine enforces legality: only listed chance outcomes and legal actions
are ever applied, and a world is kept only if the player's information state is unchanged.

The target distribution: chance steps weigh by their probability; an opponent action the
player cannot see weighs ``1 / len(legal_actions)`` (a uniformly random opponent model, the
usual determinization assumption); actions the player sees are fixed.

Three ways to sample, chosen per information state:

* ``exact`` (enumeration). A depth-first walk over every history the player cannot tell from
  the real one, pruned at each step by the player's view, weighted as above. Histories may
  differ in length from the real one (an unseen opponent may retry a move in dark_hex or
  kriegspiel). Used when the walk finishes within ``max_nodes`` nodes; then samples are exact.
* ``chain`` (Markov chain, approximate). A Metropolis chain over the hidden steps of the real
  history, target = the weight above restricted to histories the engine accepts with the same
  view. Its moves (``_propose``): permute the values of a block of positions inside a class
  of exchangeable positions (a swap up to the whole class, the block sizes weighted by their
  burn-in acceptance), swap any two hidden values, give a chance step an outcome no chance
  step has (a card left in the stock), or redraw one value from its distribution. A chance
  step with one outcome left (the last card of a full deal) is hidden too when exchanging it
  with another hidden step keeps the view (kept out, it would hold its true value in every
  world). The chain starts from a world drawn without reading the hidden truth
  (``ReplayDeterminizer._start``: a randomized consistent replay), or refuses with a
  RuntimeError naming the game when none is found, and is kept per information state
  (``burn_in_sweeps`` sweeps on first use, ``thin`` proposals between samples). Approximate
  twice over: finite mixing (measured in ``benchmarks/bench_determinizers.py`` against the
  exact sampler), and it keeps the real history's shape (the same steps, so worlds where an
  unseen opponent made a different number of moves are not reached). Measured against
  enumeration at 300 samples (one seeded state per game): where the hidden part
  is separate chance outcomes it matches (leduc, 3-player kuhn, liars_dice_ir: chi-square
  p > 0.1, total variation <= 0.05); where it is unseen opponent moves or whole hands drawn
  as one outcome it does not mix (dark_hex TV 0.39, dark_chess 0.52, kriegspiel 0.96,
  tiny_bridge_4p 0.93), nor late in a spades deal, where most unseen deal steps hold cards
  already played (over the 120 consistent deals of one state at ``thin`` 8, chi-square / dof
  about 25: about one effective sample in 25). Hence ``auto`` enumerates whenever the walk
  is affordable.
* ``redraw``: every hidden chance outcome drawn independently from its distribution, until
  the engine accepts the history (exact when hidden outcomes are independent, liars_dice).

Views. Games with a perfect-recall ``information_state_string`` are compared on it: a
candidate history must pass through the same sequence of distinct views as the real one.
Games without it (or whose string forgets the past, ``AOH_GAMES``) use the action-observation
history: per step, the player's own action or the ``observation_string`` after the step.
"""

from __future__ import annotations

import collections
import math
import re
import time
import warnings

import numpy as np
import pyspiel

from infosets.core.checks import check_sampler_call

# Games keyed by the action-observation history (no, or imperfect-recall, infostate string).
AOH_GAMES = frozenset({"spades", "skat", "crazy_eights", "go_fish"})
MODES = ("auto", "exact", "chain", "redraw")
# Time budget of one world (``ReplayDeterminizer.seconds_per_world``), and the time per world
# above which the sampler says once per game and process that it is slow (``_note_time``; a
# search of 1000 iterations then takes over 100 s a move).
SECONDS_PER_WORLD = 60.0
SLOW_SECONDS = 0.1
FIRST_FACTOR = 30
_SLOW_REPORTED: set[str] = set()
_TOKEN = re.compile(r"[\s|,;:]+")
# Block sizes of the chain's class proposals (``_propose``): roughly even on a log scale.
BLOCK_SIZES = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96)


def uses_aoh_key(game: pyspiel.Game) -> bool:
    """True when the player's information state is the action-observation history."""
    game_type = game.get_type()
    return game_type.short_name in AOH_GAMES or not game_type.provides_information_state_string


def observation(state: pyspiel.State, player: int) -> str:
    try:
        return state.observation_string(player)
    except pyspiel.SpielError:
        return ""


def aoh_steps(state: pyspiel.State, player: int) -> list[str]:
    """Per-step view of ``player``: own action, else the observation string after each step."""
    replay = state.get_game().new_initial_state()
    steps = []
    for item in state.full_history():
        own = item.player == player
        replay.apply_action(item.action)
        steps.append(f"a{item.action}" if own else observation(replay, player))
    return steps


def infostate_key(state: pyspiel.State, player: int) -> str:
    """The player's information-state key: the game's string, or the action-observation history."""
    if uses_aoh_key(state.get_game()):
        return "\x1e".join(aoh_steps(state, player))
    return state.information_state_string(player)


def _note_time(name: str, seconds: float, first: bool) -> None:
    """Warn once per game and process when one world took more than ``SLOW_SECONDS`` (the
    first world of an information state, which analyses its history, ``FIRST_FACTOR`` times
    that)."""
    limit = SLOW_SECONDS * (FIRST_FACTOR if first else 1)
    if seconds > limit and name not in _SLOW_REPORTED:
        _SLOW_REPORTED.add(name)
        which = "the first world of an information state" if first else "one world"
        warnings.warn(f"game '{name}': the history-replay sampler is slow here: {which} took "
                      f"{seconds:.2f} s (a search draws one world per iteration)", stacklevel=3)


class _Budget(Exception):
    """The enumeration walk exceeded its node budget."""


class ReplayDeterminizer:
    """History-replay world sampler for any sequential game (see the module docstring).

    Args:
      game: a loaded pyspiel game (sequential).
      mode: "auto" (exact when the enumeration finishes within ``max_nodes``, else chain),
        "exact" (raise if it does not), "chain" or "redraw".
      max_nodes: node budget of the enumeration walk.
      burn_in_sweeps, thin: chain schedule (sweeps = passes over the hidden steps).
      max_tries: attempts of the redraw mode before giving up.
      start_restarts, start_repairs, start_seconds: budget of the chain's start (``_start``).
      seconds_per_world: time budget of one call; past it a RuntimeError names the game.
    ``last_method`` names the method used by the last call ("exact", "chain", "redraw",
    "known": nothing hidden). A call is checked first (``core.checks.check_sampler_call``):
    ``state`` a decision state, ``player`` any seat; anything else is a ValueError naming it.
    """

    def __init__(self, game: pyspiel.Game, mode: str = "auto", max_nodes: int = 20_000,
                 burn_in_sweeps: int = 20, thin: int = 8, max_tries: int = 10_000,
                 start_restarts: int = 6, start_repairs: int = 20_000, start_seconds: float = 10.0,
                 seconds_per_world: float = SECONDS_PER_WORLD):
        if mode not in MODES:
            raise ValueError(f"mode: must be one of {', '.join(MODES)}, got {mode!r}")
        if max_nodes < 0 or burn_in_sweeps < 0 or thin < 1 or max_tries < 1:
            raise ValueError("max_nodes/burn_in_sweeps/thin/max_tries: need max_nodes >= 0, "
                             "burn_in_sweeps >= 0, thin >= 1, max_tries >= 1")
        if start_restarts < 1 or start_repairs < 0 or not start_seconds > 0:
            raise ValueError("start_restarts/start_repairs/start_seconds: need start_restarts >= 1, "
                             "start_repairs >= 0, start_seconds > 0")
        if not isinstance(seconds_per_world, (int, float)) or not seconds_per_world > 0:
            raise ValueError(f"seconds_per_world: must be a positive number of seconds, "
                             f"got {seconds_per_world!r}")
        if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise ValueError(f"game: '{game.get_type().short_name}' is not sequential")
        self.game = game
        self._num_players = game.num_players()
        self.mode = mode
        self.max_nodes = max_nodes
        self.burn_in_sweeps = burn_in_sweeps
        self.thin = thin
        self.max_tries = max_tries
        self.start_restarts = start_restarts
        self.start_repairs = start_repairs
        self.start_seconds = float(start_seconds)
        self._start_deadline = math.inf
        self.seconds_per_world = float(seconds_per_world)
        self._deadline = math.inf
        self.last_method = ""
        self._aoh = uses_aoh_key(game)
        self._cache_key = None
        self._method = ""
        self._hidden: list[int] = []
        self._classes: list[list[int]] = []
        self._block_sizes: list[list[int]] = []
        self._block_weights: list[np.ndarray] = []
        self._block_stats: list[np.ndarray] = []
        self._hidden_actions: set[int] = set()
        self._free_sites: list[int] = []
        self._chance_positions: list[int] = []
        self._chain: list[int] | None = None
        self._chain_logp = 0.0
        self._worlds: list[list[int]] = []
        self._cumulative = np.zeros(0)
        self._log_size = 0.0

    # -- views ---------------------------------------------------------------------------
    def _view(self, state, player):
        if self._aoh:
            return observation(state, player)
        return state.information_state_string(player)

    def _targets(self, state, actions, player):
        """The real view sequence: per step (AOH), or the distinct consecutive views."""
        if self._aoh:
            return aoh_steps(state, player)
        replay = self.game.new_initial_state()
        views = [replay.information_state_string(player)]
        for action in actions:
            replay.apply_action(action)
            view = replay.information_state_string(player)
            if view != views[-1]:
                views.append(view)
        return views

    # -- the sampler ---------------------------------------------------------------------
    def __call__(self, state: pyspiel.State, player: int, rng: np.random.Generator) -> pyspiel.State:
        check_sampler_call(state, player, self._num_players)
        key = self._cache_key
        started = time.perf_counter()
        self._deadline = started + self.seconds_per_world
        try:
            return self._sample(state, player, rng)
        finally:
            self._deadline = math.inf
            _note_time(self.game.get_type().short_name, time.perf_counter() - started,
                       self._cache_key != key)

    def _check_clock(self):
        """Raise when this call has run past ``seconds_per_world`` (one line naming the game)."""
        if time.perf_counter() > self._deadline:
            name = self.game.get_type().short_name
            raise RuntimeError(f"game '{name}': one world took more than {self.seconds_per_world:g} s "
                               f"(the budget); raise it with sampler_for(game, "
                               f"seconds_per_world=...)")

    def _sample(self, state, player, rng):
        actions = [item.action for item in state.full_history()]
        target = self._targets(state, actions, player)
        key = (player, tuple(actions))
        if key != self._cache_key:
            self._prepare(state, actions, player, target)
            self._cache_key = key
        self.last_method = self._method
        if self._method == "known":
            return state.clone()
        if self._method == "exact":
            index = int(np.searchsorted(self._cumulative, rng.random() * self._cumulative[-1],
                                        side="right"))
            return self._build(self._worlds[min(index, len(self._worlds) - 1)])
        if self._method == "redraw":
            hidden_set = set(self._hidden)
            for _ in range(self.max_tries):
                self._check_clock()
                result = self._replay(actions, player, target, rng, hidden_set)
                if result is not None:
                    return result[0]
            raise RuntimeError(f"redraw determinizer: no consistent world in {self.max_tries} tries")
        return self._chain_sample(actions, player, target, rng)

    def exact_distribution(self, state: pyspiel.State, player: int) -> dict[tuple[int, ...], float]:
        """{history: probability} over every world consistent with ``player``'s view, by
        enumeration (raises RuntimeError past ``max_nodes``): the exact target of the sampler."""
        actions = [item.action for item in state.full_history()]
        target = self._targets(state, actions, player)
        try:
            worlds = self._enumerate(state, actions, player, target)
        except _Budget:
            raise RuntimeError(f"exact determinizer: more than {self.max_nodes} nodes to "
                               "enumerate") from None
        logp = np.array([lp for _, lp in worlds])
        weights = np.exp(logp - logp.max())
        weights /= weights.sum()
        out: dict[tuple[int, ...], float] = {}
        for (history, _), weight in zip(worlds, weights):
            out[tuple(history)] = out.get(tuple(history), 0.0) + float(weight)
        return out

    def _prepare(self, state, actions, player, target):
        self._chain = None
        self._worlds = []
        self._hidden = self._hidden_positions(actions, player, target)
        if self.mode == "redraw":
            self._method = "redraw" if self._hidden else "known"
            return
        # Upper bound on the fixed-shape tree: skip a walk that cannot finish (a full deal).
        too_big = self.mode == "auto" and self._log_size > math.log(100 * max(self.max_nodes, 1))
        if self.mode == "exact" or (self.mode == "auto" and not too_big):
            try:
                worlds = self._enumerate(state, actions, player, target)
            except _Budget:
                if self.mode == "exact":
                    raise RuntimeError(f"exact determinizer: more than {self.max_nodes} nodes "
                                       "to enumerate (raise max_nodes or use mode='auto')") from None
            else:
                if len(worlds) == 1:
                    self._method = "known"
                    return
                self._worlds = [w for w, _ in worlds]
                logp = np.array([lp for _, lp in worlds])
                self._cumulative = np.cumsum(np.exp(logp - logp.max()))
                self._method = "exact"
                return
        self._method = "chain" if self._hidden else "known"
        if self._hidden:
            self._classes = self._swap_classes(actions, player, target)

    def _build(self, actions) -> pyspiel.State:
        world = self.game.new_initial_state()
        for action in actions:
            world.apply_action(action)
        return world

    # -- exact enumeration -----------------------------------------------------------------
    def _enumerate(self, state, actions, player, target):
        """Every history the player cannot tell from ``actions``, with its log weight.

        Raises _Budget past ``max_nodes`` nodes. The walk forces the player's own actions,
        branches over chance outcomes and opponent actions, and prunes a branch as soon as
        the player's view leaves the real view sequence.
        """
        own = [a for a, item in zip(actions, state.full_history()) if item.player == player]
        final_mover = state.current_player()
        max_length = max(self.game.max_game_length(), len(actions))
        worlds: list[tuple[list[int], float]] = []
        nodes = [0]
        aoh = self._aoh
        n_steps = len(actions)

        def visit(node, path, view_index, k, logp):
            # Accept: same view, all own actions made, same player to move.
            done = view_index == len(target) - 1 if not aoh else len(path) == n_steps
            if done and k == len(own) and node.current_player() == final_mover:
                worlds.append((list(path), logp))
            if node.is_terminal() or len(path) >= (n_steps if aoh else max_length):
                return
            if node.is_chance_node():
                branches = [(a, math.log(p)) for a, p in node.chance_outcomes() if p > 0]
            elif node.current_player() == player:
                if k == len(own) or own[k] not in node.legal_actions():
                    return
                branches = [(own[k], 0.0)]
            else:
                legal = node.legal_actions()
                branches = [(a, 0.0) for a in legal]
            kept = []
            for action, lp in branches:
                nodes[0] += 1
                if nodes[0] > self.max_nodes:
                    raise _Budget
                if nodes[0] % 256 == 0:
                    self._check_clock()
                child = node.child(action)
                if aoh:
                    mine = node.current_player() == player
                    step = f"a{action}" if mine else observation(child, player)
                    if step != target[len(path)]:
                        continue
                    next_index = view_index
                else:
                    view = child.information_state_string(player)
                    if view == target[view_index]:
                        next_index = view_index
                    elif view_index + 1 < len(target) and view == target[view_index + 1]:
                        next_index = view_index + 1
                    else:
                        continue
                kept.append((action, lp, child, next_index))
            # An unseen opponent move: uniform opponent model over its legal actions.
            opponent = not node.is_chance_node() and node.current_player() != player
            hidden_move = -math.log(len(branches)) if opponent and len(kept) > 1 else 0.0
            for action, lp, child, next_index in kept:
                path.append(action)
                visit(child, path, next_index, k + (node.current_player() == player),
                      logp + lp + hidden_move)
                path.pop()

        visit(self.game.new_initial_state(), [], 0, 0, 0.0)
        if not worlds:  # cannot happen: the real history is consistent
            raise RuntimeError("exact determinizer: the real history is not consistent")
        return worlds

    # -- analysis of the real history (chain, redraw) ----------------------------------------
    def _hidden_positions(self, actions, player, target=None):
        """Positions whose value could differ without changing the player's view at that step:
        chance outcomes, and (not in redraw mode) other players' actions the player does not
        see (e.g. the cards opponents pass in hearts, or the skat discard).

        A chance node with one outcome left (the last card of a full deal) is forced: its value
        is whatever the earlier steps left, so it has no second outcome of its own, yet it is
        hidden when another consistent history puts another value there. It is tested by
        exchanging its value with those of a few hidden chance positions (``_unforced``); kept
        out, it would hold its true value in every world (a leak).
        """
        state = self.game.new_initial_state()
        hidden, hidden_actions, forced, outcomes = [], set(), [], {}
        self._log_size = 0.0
        for pos, action in enumerate(actions):
            if state.is_chance_node():
                alternatives = [a for a, _ in state.chance_outcomes()]
                outcomes[pos] = alternatives
                if len(alternatives) == 1:
                    forced.append(pos)
            elif self.mode != "redraw" and state.current_player() != player:
                alternatives = state.legal_actions()
            else:
                alternatives = []
            if len(alternatives) > 1:
                view = self._view(state.child(action), player)
                for alt in alternatives:
                    if alt != action and self._view(state.child(alt), player) == view:
                        hidden.append(pos)
                        self._log_size += math.log(len(alternatives))
                        if not state.is_chance_node():
                            hidden_actions.add(pos)
                        break
            state.apply_action(action)
        self._hidden_actions = hidden_actions
        if forced and hidden:
            if target is None:
                target = self._targets(self._build(actions), actions, player)
            hidden = self._unforced(actions, player, target, hidden, forced)
        # Chance sites where an outcome no chance step used could go (a card left in the
        # stock): the chain's "free redraw" moves (``_chain_sample``) serve them.
        self._chance_positions = sorted(outcomes)
        self._chance_values = sorted({a for pos in hidden if pos in outcomes for a in outcomes[pos]})
        used = {actions[pos] for pos in outcomes}
        self._free_sites = [pos for pos in hidden if pos in outcomes
                            and any(a not in used for a in outcomes[pos])]
        return hidden

    def _unforced(self, actions, player, target, hidden, forced, tries: int = 8):
        """``hidden`` plus each forced chance position whose value can be exchanged with that
        of one of up to ``tries`` hidden chance positions (the nearest half, then spread over the
        rest) in a history the engine accepts with the same view."""
        chance = [pos for pos in hidden if pos not in self._hidden_actions]
        out = list(hidden)
        for pos in forced:
            others = sorted(chance, key=lambda h: abs(h - pos))
            near, rest = others[:tries // 2], others[tries // 2:]
            step = max(1, len(rest) // max(1, tries - len(near)))
            candidates = near + rest[::step][:tries - len(near)]
            self._hidden = sorted(out + [pos])   # _transpose reads it
            for other in candidates:
                if actions[other] == actions[pos]:
                    continue
                swapped = self._transpose(actions, actions[pos], actions[other])
                if self._replay(swapped, player, target) is not None:
                    out.append(pos)
                    break
        self._hidden = out = sorted(out)
        return out

    def _replay(self, actions, player, target, redraw_rng=None, hidden_set=None):
        """Replay ``actions`` (redrawing hidden chance outcomes when ``redraw_rng`` is given).

        Returns (state, actions_used, log_weight) or None when the engine refuses the
        history or the player's view differs from ``target``.
        """
        state = self.game.new_initial_state()
        used = list(actions)
        logp = 0.0
        for pos, action in enumerate(used):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if redraw_rng is not None and pos in hidden_set:
                    probs = np.array([p for _, p in outcomes])
                    idx = redraw_rng.choice(len(outcomes), p=probs / probs.sum())
                    action = outcomes[idx][0]
                    used[pos] = action
                prob = dict(outcomes).get(action, 0.0)
                if prob <= 0.0:
                    return None
                logp += np.log(prob)
            else:
                if state.is_terminal():
                    return None
                legal = state.legal_actions()
                if action not in legal:
                    return None
                if pos in self._hidden_actions:  # uniform model of the unseen opponent move
                    logp -= math.log(len(legal))
            own = (not state.is_chance_node()) and state.current_player() == player
            state.apply_action(action)
            if self._aoh:
                step = f"a{action}" if own else observation(state, player)
                if step != target[pos]:
                    return None
        if not self._aoh and state.information_state_string(player) != target[-1]:
            return None
        return state, used, logp

    # -- the chain -------------------------------------------------------------------------
    def _swap_classes(self, actions, player, target, tries_per_class: int = 3):
        """Group hidden positions whose outcomes can be swapped in the real history.

        A position joins the first class holding one of ``tries_per_class`` members it can
        swap with (a single representative can be a constrained card, e.g. one its owner
        already passed or played, which would split classes by owner). Block permutations
        inside a class are the chain's main proposal; global swaps and single-site redraws
        keep the chain irreducible.
        """
        classes: list[list[int]] = []
        for pos in self._hidden:
            placed = False
            for members in classes:
                step = max(1, len(members) // tries_per_class)
                for rep in members[::step][:tries_per_class]:
                    swapped = self._transpose(actions, actions[pos], actions[rep])
                    if swapped == actions or self._replay(swapped, player, target) is not None:
                        members.append(pos)
                        placed = True
                        break
                if placed:
                    break
            if not placed:
                classes.append([pos])
        return [c for c in classes if len(c) >= 2]

    def _transpose(self, actions, a, b):
        """Exchange values ``a`` and ``b`` at every hidden position (a card dealt and then
        passed unseen moves with its pass). An involution, so the proposal is symmetric."""
        out = list(actions)
        for pos in self._hidden:
            if out[pos] == a:
                out[pos] = b
            elif out[pos] == b:
                out[pos] = a
        return out

    def _permute(self, actions, values, rng):
        """Map ``values`` (distinct, at least two) by a uniformly drawn permutation other than
        the identity, at every hidden position. The inverse map has the same probability from
        the result (the same set of values), so the proposal is symmetric; two values are
        exchanged as ``_transpose`` does."""
        if len(values) == 2:
            return self._transpose(actions, values[0], values[1])
        while True:
            order = rng.permutation(len(values))
            if (order != np.arange(len(values))).any():
                break
        mapping = {v: values[i] for v, i in zip(values, order.tolist())}
        out = list(actions)
        for pos in self._hidden:
            new = mapping.get(out[pos])
            if new is not None:
                out[pos] = new
        return out

    def _propose(self, rng):
        """The next proposal: ("block", class index or -1, block size, hidden positions whose
        values it permutes), ("free",) or ("redraw",).

        Inside a class, a block of ``k`` members drawn uniformly, ``k`` among ``BLOCK_SIZES``
        below the class size and the class size itself: two (a swap) keeps the chain moving
        where the view pins most values (voids, played cards); the whole class redeals it at
        once where nothing does (a fresh deal). During burn-in every size is equally likely;
        then each size's weight is its burn-in acceptance rate times ``k`` (positions moved
        per accepted proposal), frozen for the rest of the chain, so the proposal is a fixed
        symmetric mixture after burn-in. Between any two hidden positions, a swap (keeps the
        chain irreducible across classes). Where some chance outcome is used nowhere in the
        history (cards left undealt), a free redraw brings one in (see ``_chain_sample``).
        The kinds' shares are fixed per chain.
        """
        u = rng.random()
        classes = self._classes
        free = 0.25 if self._free_sites else 0.0
        if u < 0.6 - 0.6 * free and classes:
            pairs = np.array([len(c) * (len(c) - 1) for c in classes], dtype=float)
            index = int(rng.choice(len(classes), p=pairs / pairs.sum()))
            members = classes[index]
            sizes, weights = self._block_sizes[index], self._block_weights[index]
            k = sizes[int(rng.choice(len(sizes), p=weights))] if len(sizes) > 1 else sizes[0]
            return "block", index, k, [members[i] for i in rng.choice(len(members), size=k,
                                                                        replace=False)]
        if u < 0.9 - free and len(self._hidden) >= 2:
            i, j = rng.choice(len(self._hidden), size=2, replace=False)
            return "block", -1, 2, [self._hidden[i], self._hidden[j]]
        if u < 0.9 and self._free_sites:
            return ("free",)
        return ("redraw",)

    def _init_blocks(self):
        self._block_sizes = [[k for k in BLOCK_SIZES if k < len(c)] + [len(c)]
                             for c in self._classes]
        self._block_weights = [np.full(len(sizes), 1.0 / len(sizes)) for sizes in self._block_sizes]
        self._block_stats = [np.zeros((2, len(sizes))) for sizes in self._block_sizes]

    def _freeze_blocks(self):
        """Weights after burn-in: smoothed acceptance rate times block size."""
        for index, sizes in enumerate(self._block_sizes):
            tries, accepted = self._block_stats[index]
            weights = (accepted + 0.5) / (tries + 1.0) * np.array(sizes, dtype=float)
            self._block_weights[index] = weights / weights.sum()

    # -- the chain's start -------------------------------------------------------------------
    def _start(self, actions, player, target, rng):
        """The chain's first world, drawn without looking at the hidden truth.

        A randomized consistent replay: the player's own actions and the steps the player sees
        keep their real values, every hidden step is drawn at random among the values that
        keep the player's view at that step, and a step that cannot be made (a card an
        opponent plays that the drawn deal did not give it) is repaired by changing earlier
        hidden values (``_repair``). Every choice reads only the player's view, so a chain that
        cannot move returns a world drawn independently of the truth, never the truth itself
        more often than chance allows. Up to ``start_restarts`` fresh replays, each with
        ``start_repairs`` replays of repair proposals; then a RuntimeError naming the game (the
        chain never falls back to the real history). Past ``start_seconds`` the start fails at
        once with a RuntimeError: the seed alone decides which world comes back, the clock
        only whether the call fails. Measured phase by phase in
        tests/games/test_determinizer_audit.py.
        """
        views = target if self._aoh else self._step_views(actions, player)
        self._start_deadline = time.perf_counter() + self.start_seconds
        for _ in range(self.start_restarts):
            self._check_clock()
            history = self._random_replay(actions, player, views, rng)
            if history is not None:
                result = self._replay(history, player, target)
                if result is not None:
                    return result
        name = self.game.get_type().short_name
        raise RuntimeError(f"chain determinizer: no consistent world of '{name}' found without "
                           f"the truth in {self.start_restarts} randomized replays of "
                           f"{self.start_repairs} repairs each (raise start_restarts or "
                           f"start_repairs)")

    def _check_start_clock(self):
        """Raise once the start has run past ``start_seconds``: a loud failure, never a
        different world (a repair cut short used to hand the start to the next randomized
        replay, so a busy machine drew other worlds than an idle one from the same seed)."""
        self._check_clock()
        if time.perf_counter() > self._start_deadline:
            name = self.game.get_type().short_name
            raise RuntimeError(f"chain determinizer: no consistent world of '{name}' found without "
                               f"the truth within {self.start_seconds:g} s (raise start_seconds, "
                               f"start_restarts or start_repairs)")

    def _step_views(self, actions, player):
        """The player's information-state string after each real step."""
        replay = self.game.new_initial_state()
        views = []
        for action in actions:
            replay.apply_action(action)
            views.append(replay.information_state_string(player))
        return views

    def _step_ok(self, node, child, action, pos, player, views):
        if self._aoh:
            mine = not node.is_chance_node() and node.current_player() == player
            return (f"a{action}" if mine else observation(child, player)) == views[pos]
        return child.information_state_string(player) == views[pos]

    def _draw(self, node, pos, history, player, views, rng):
        """Step ``pos`` from ``node``: the real value where the player sees it, else a random
        value keeping the view. Writes it into ``history``; returns the child or None."""
        if node.is_terminal():
            return None
        if node.is_chance_node():
            outcomes = [(a, p) for a, p in node.chance_outcomes() if p > 0]
            if pos in self._hidden_set or len(outcomes) == 1:
                keys = np.log([p for _, p in outcomes]) + rng.gumbel(size=len(outcomes))
                candidates = [outcomes[i][0] for i in np.argsort(-keys)]
            else:
                candidates = [history[pos]] if history[pos] in dict(outcomes) else []
        else:
            legal = node.legal_actions()
            if pos in self._hidden_actions and node.current_player() != player:
                candidates = [legal[i] for i in rng.permutation(len(legal))]
            else:
                candidates = [history[pos]] if history[pos] in legal else []
        for action in candidates:
            child = node.child(action)
            if self._step_ok(node, child, action, pos, player, views):
                history[pos] = action
                return child
        return None

    def _random_replay(self, actions, player, views, rng):
        """One randomized consistent replay (see ``_start``), or None past its repair budget."""
        history = list(actions)
        self._hidden_set = set(self._hidden)
        node = self.game.new_initial_state()
        budget = [self.start_repairs]
        for pos in range(len(actions)):
            child = self._draw(node, pos, history, player, views, rng)
            if child is None:
                child = self._repair(history, pos, node, player, views, rng, budget)
                if child is None:
                    return None
            node = child
        return history

    def _prefix(self, history, pos, player, views):
        """The state after ``history[:pos]`` when every step is legal with the real view."""
        node = self.game.new_initial_state()
        for step in range(pos):
            action = history[step]
            if node.is_terminal():
                return None
            if node.is_chance_node():
                if dict(node.chance_outcomes()).get(action, 0.0) <= 0.0:
                    return None
            elif action not in node.legal_actions():
                return None
            child = node.child(action)
            if (self._aoh or step == pos - 1) and not self._step_ok(node, child, action, step,
                                                                     player, views):
                return None
            node = child
        return node

    def _repair(self, history, pos, node, player, views, rng, budget):
        """Change hidden values before ``pos`` until step ``pos`` can be made from ``node``.

        Where step ``pos`` is refused by the engine (a card an opponent plays that it does not
        hold), any proposal (``_repair_proposals``) keeping the steps before ``pos``
        consistent is kept: a random walk over consistent prefixes. Where its view cannot be
        met (a hand shown only when the deal ends), each round keeps the proposal whose view
        at ``pos`` is nearest the real one (``_closeness``), if no further than before, so the
        hand is met card by card. The repair ends when step ``pos`` can be made, or returns
        None when ``budget[0]`` replays are spent (raises past the start's ``start_seconds``).
        """
        before = [q for q in self._hidden if q < pos]
        if not before:
            return None
        needed = None if pos in self._hidden_set else history[pos]
        allowed = ([a for a, p in node.chance_outcomes() if p > 0] if node.is_chance_node()
                   else [] if node.is_terminal() else node.legal_actions())
        refused = needed is not None and needed not in allowed
        score = -1
        while budget[0] > 0:
            self._check_start_clock()
            best = None
            for proposal in self._repair_proposals(history, before, needed, rng, refused):
                budget[0] -= 1
                prefix = self._prefix(proposal, pos, player, views)
                if prefix is None:
                    continue
                closeness = 0 if refused else self._closeness(prefix, pos, proposal, player, views)
                if best is None or closeness > best[0]:
                    best = (closeness, proposal, prefix)
            if best is None or best[0] < score:
                continue
            score, proposal, prefix = best
            history[:] = proposal
            child = self._draw(prefix, pos, history, player, views, rng)
            if child is not None:
                return child
        return None

    def _repair_proposals(self, history, before, needed, rng, refused):
        """Candidate changes of the hidden values in ``before``: the value step ``pos`` needs
        (its real value, where the player sees it) moved into or out of a hidden position; two
        hidden values exchanged; a hidden value redrawn among those no chance step holds (a
        card still in the stock). Where the view, not the engine, refuses step ``pos``
        (``refused`` False), also one hidden position exchanged, in turn, with every other one
        and given every value left in the stock (at most 96 of these, the best kept by
        ``_repair``)."""
        values = self._chance_values
        q = before[int(rng.integers(len(before)))]
        u = rng.random()
        proposal = list(history)
        used = {history[c] for c in self._chance_positions}
        if refused and u >= 0.75 and values:
            free = [v for v in values if v not in used] or values
            proposal[q] = free[int(rng.integers(len(free)))]
            return [proposal] if proposal != history else []
        if needed is not None and u < (0.5 if refused else 0.2):
            holders = [r for r in before if proposal[r] == needed]
            if holders:  # the needed value sits in a hidden position: move it out
                r = holders[int(rng.integers(len(holders)))]
                if rng.random() < 0.5 or not values:
                    proposal[r], proposal[q] = proposal[q], needed
                else:
                    proposal[r] = values[int(rng.integers(len(values)))]
            else:  # the needed value is nowhere hidden: put it in
                proposal[q] = needed
            return [proposal] if proposal != history else []
        if refused or u < 0.4:
            r = before[int(rng.integers(len(before)))]
            proposal[q], proposal[r] = proposal[r], proposal[q]
            return [proposal] if proposal != history else []
        out = []
        for r in before:  # every exchange with another hidden position
            if history[r] != history[q]:
                proposal = list(history)
                proposal[q], proposal[r] = history[r], history[q]
                out.append(proposal)
        for value in [v for v in values if v not in used]:  # every value left in the stock
            proposal = list(history)
            proposal[q] = value
            out.append(proposal)
        return [out[i] for i in rng.permutation(len(out))[:96].tolist()]

    def _closeness(self, node, pos, history, player, views):
        """How near step ``pos``'s view (with its current value, or the first one allowed) is to
        the real one: the tokens the two strings share (counted with multiplicity) plus the
        characters equal at equal places (a hand drawn as a grid)."""
        if node.is_terminal():
            return -1
        allowed = ([a for a, p in node.chance_outcomes() if p > 0] if node.is_chance_node()
                   else node.legal_actions())
        action = history[pos] if history[pos] in allowed else allowed[0]
        child = node.child(action)
        mine = not node.is_chance_node() and node.current_player() == player
        if self._aoh:
            view = f"a{action}" if mine else observation(child, player)
        else:
            view = child.information_state_string(player)
        real = views[pos]
        tokens = collections.Counter(_TOKEN.split(view)) & collections.Counter(_TOKEN.split(real))
        return sum(tokens.values()) + sum(a == b for a, b in zip(view, real))

    def _chain_sample(self, actions, player, target, rng):
        steps = self.thin
        if self._chain is None:
            start = self._start(actions, player, target, rng)
            self._chain, self._chain_logp = start[1], start[2]
            self._init_blocks()
            burn_in = self.burn_in_sweeps * len(self._hidden)
            steps = burn_in + self.thin
        else:
            burn_in = 0
        hidden = self._hidden
        current_state = None
        for step in range(steps):
            if step % 64 == 0:
                self._check_clock()
            if burn_in and step == burn_in:
                self._freeze_blocks()
            proposal = list(self._chain)
            move = self._propose(rng)
            index = -1
            log_q_ratio = 0.0
            if move[0] == "block":
                _, index, k, positions = move
                values = sorted({proposal[pos] for pos in positions})
                if len(values) < 2:
                    continue
                proposal = self._permute(proposal, values, rng)
                result = self._replay(proposal, player, target)
            elif move[0] == "free":
                # Free redraw: a chance site whose value no other chance step has takes,
                # uniformly, an outcome no chance step has. The reverse move has as many
                # choices (the same outcomes are free, the old value for the new), so it is
                # symmetric.
                pos = self._free_sites[int(rng.integers(len(self._free_sites)))]
                value = proposal[pos]
                used = [proposal[q] for q in self._chance_positions]
                if used.count(value) > 1:
                    continue
                prefix = self.game.new_initial_state()
                for action in proposal[:pos]:
                    prefix.apply_action(action)
                used = set(used)
                free = [a for a, _ in prefix.chance_outcomes() if a not in used]
                if not free:
                    continue
                proposal[pos] = free[int(rng.integers(len(free)))]
                result = self._replay(proposal, player, target)
            else:
                # Redraw one hidden value from its chance distribution, or uniformly among
                # the legal actions for an unseen opponent move (independence proposal at one
                # site): acceptance uses the other sites' probabilities.
                pos = hidden[int(rng.integers(len(hidden)))]
                prefix = self.game.new_initial_state()
                for action in proposal[:pos]:
                    prefix.apply_action(action)
                if prefix.is_chance_node():
                    outcomes = dict(prefix.chance_outcomes())
                else:
                    legal = prefix.legal_actions()
                    outcomes = {a: 1.0 / len(legal) for a in legal}
                keys = list(outcomes)
                probs = np.array([outcomes[k] for k in keys])
                new = keys[rng.choice(len(keys), p=probs / probs.sum())]
                if new == proposal[pos]:
                    continue
                log_q_ratio = np.log(outcomes[proposal[pos]]) - np.log(outcomes[new])
                proposal[pos] = new
                result = self._replay(proposal, player, target)
            stats = self._block_stats[index] if index >= 0 and step < burn_in else None
            if stats is not None:
                stats[0, self._block_sizes[index].index(k)] += 1
            if result is None:
                continue
            log_accept = result[2] - self._chain_logp + log_q_ratio
            if log_accept >= 0 or rng.random() < np.exp(log_accept):
                self._chain, self._chain_logp = result[1], result[2]
                current_state = result[0]
                if stats is not None:
                    stats[1, self._block_sizes[index].index(k)] += 1
        if current_state is None:
            current_state = self._build(self._chain)
        return current_state
