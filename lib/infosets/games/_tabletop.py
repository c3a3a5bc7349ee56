"""Shared plumbing for the tabletop-game ports of the PI-MCTS study.

Follows Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree
Search in Imperfect-Information Games" (docs/papers/pimcts_aggregation.md), which ran on
the TAG framework's Java games. Each port is split in two:

* a *kernel*: an object holding the whole game state: every port's rules are written once in
  numba, so it is an ``array_kernel.ArrayKernel`` over the state array, with ``current_player``,
  ``legal_actions``, ``chance_outcomes``, ``apply``, ``is_terminal``, ``returns``, string
  views and ``resample(player, rng)``. Search may drive
  the kernel directly (``state.kernel``), skipping the pyspiel trampolines;
* the pyspiel adapter defined here (``TabletopGame``, ``TabletopState``), which wraps the
  same kernel, so both paths share every rule.

Returns are win shares: 1 to the winner, 1/k to each of k tied winners, 0 to the others
(constant sum 1, already in the paper's [0, 1] reward range).

Determinization: ``kernel.resample(player, rng)`` keeps every card the player has seen where
it is and deals all other cards (other hands, face-down deck cards, removed cards) uniformly
at random into the slots the player cannot see. The pyspiel state exposes it as
``resample_from_infostate(player_id, probability_sampler)`` and each module as
``sample_world(state, player, rng)``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyspiel

# Chance is drawn by the shared bottom-layer helper (one rng.random()), as search draws it.
from infosets.core.chance import sample_chance

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class Kernel:
    """Interface of a game kernel (see the module docstring). Subclasses use __slots__.

    A subclass names its fields by how ``copy`` must duplicate them and sets
    ``__slots__ = VALUE_FIELDS + LIST_FIELDS + NESTED_FIELDS``:

    * ``VALUE_FIELDS``: ints, tuples and other values never mutated in place (shared);
    * ``LIST_FIELDS``: flat lists (copied with ``[:]``);
    * ``NESTED_FIELDS``: lists of lists (each inner list copied with ``[:]``).

    ``copy`` is then compiled once per class from those names (a search clones kernels in its
    inner loop, so it is straight-line code, as fast as a hand-written one).

    A kernel also satisfies ``infosets.core.search_state.SearchState`` through the
    pyspiel-style aliases ``apply_action``, ``clone`` and ``is_chance_node`` (its actions are
    not checked for legality there, unlike the pyspiel adapter).
    """

    __slots__ = ()
    VALUE_FIELDS: tuple[str, ...] = ()
    LIST_FIELDS: tuple[str, ...] = ()
    NESTED_FIELDS: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        declares_fields = cls.VALUE_FIELDS or cls.LIST_FIELDS or cls.NESTED_FIELDS
        if declares_fields and "copy" not in cls.__dict__:
            cls.copy = _compile_copy(cls)
        cls.apply_action = cls.apply
        cls.clone = cls.copy

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def copy(self) -> Kernel:
        raise NotImplementedError

    def __deepcopy__(self, memo):
        # pyspiel clones Python states with copy.deepcopy of each attribute.
        return self.copy()

    def current_player(self) -> int:
        raise NotImplementedError

    def legal_actions(self) -> list[int]:
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def apply(self, action: int) -> None:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def returns(self) -> list[float]:
        raise NotImplementedError

    # The string views. A kernel either overrides both methods, or gives ``_view(player)``
    # (the lines the player sees now) and a public ``log`` of moves, written by ``_log_text``
    # after the label ``LOG_LABEL``; the observation is the view, the information state the
    # view plus that log line.
    LOG_LABEL = "log"

    def _view(self, player: int) -> list[str]:
        raise NotImplementedError

    def _log_text(self) -> str:
        """The public log, ``mover:move`` entries joined by ``;`` (log of (mover, move) pairs)."""
        return ";".join(f"{mover}:{move}" for mover, move in self.log)

    def information_state_string(self, player: int) -> str:
        return "\n".join(self._view(player) + [f"{self.LOG_LABEL}: {self._log_text()}"])

    def observation_string(self, player: int) -> str:
        return "\n".join(self._view(player))

    # ``str(kernel)``, the whole state for debugging: by default a line of shared state, then a
    # line per player (kernels with a player count ``n``).
    def _state_line(self) -> str:
        raise NotImplementedError

    def _player_line(self, player: int) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return "\n".join([self._state_line()] + [self._player_line(p) for p in range(self.n)])

    def resample(self, player: int, rng) -> Kernel:
        raise NotImplementedError

    # Worlds rebuilt from a history (``rebuild_world``): the history dealing this kernel's
    # cards, planned from the real ``history`` (default: each changed card rewrites the
    # chance step that drew it), and the test that a rebuilt kernel holds this one's cards.
    # Ports whose worlds are not rebuilt yet (``REBUILDS_WORLDS = False``) keep the real
    # ``history()`` with the resampled kernel (issue: a world's history must rebuild it).
    REBUILDS_WORLDS = False
    # -- history worlds --
    # Ports whose worlds are whole sampled histories: ``world_history(game, player, rng,
    # context)`` returns a history ``player`` cannot tell from the real one, or None for a
    # rejected try (``context``: ``history_context`` of the real history).
    SAMPLES_HISTORIES = False
    # -- end history worlds --
    # Whether ``rebuild_world`` checks the player's information state after every move of
    # the replay (and may swap a move for one keeping it), or only at the end.
    CHECKS_EACH_MOVE = True

    def plan_history(self, game: TabletopGame, history: list[int], player: int,
                     context=None) -> list[int] | None:
        return _traced_history(game, history, self)

    def resample_given(self, player: int, rng, context) -> Kernel:
        """The placement ``sample_rebuilt_world`` tries to rebuild: ``resample`` unless the
        history (``context``) fixes hidden cards the resampler would move."""
        return self.resample(player, rng)

    def replay_move(self, kernel: Kernel, step: int, action: int, context) -> list[int]:
        """The moves standing for the planned player move ``action`` (history step ``step``)
        in the replay, whose kernel is ``kernel`` (``CHECKS_EACH_MOVE = False`` only): by
        default the move itself. A port whose hidden cards decide whether a move is asked at
        all (an unlogged "end" with no card left to play) adds or drops it here. The replay
        ends with a call for ``action`` None at step ``len(history)`` (moves to add there)."""
        return [] if action is None else [action]

    def history_context(self, game: TabletopGame, history: list[int]):
        """What ``plan_history`` reads from the real history, computed once per sampled world
        (called on the real kernel; passed to every attempt's ``plan_history``)."""
        return None

    def same_cards(self, other: Kernel) -> bool:
        return str(self) == str(other)

    # Tensors: what ``_view`` shows, as named numeric pieces of fixed shape (every state of a
    # game with given parameters gives the same names and shapes). The observation tensor is
    # these pieces; the information-state tensor appends ``public_log``: how many times each
    # player (row ``n``: entries of no player) made each public log entry, coded by
    # ``log_codes`` into ``LOG_CODES`` kinds. A kernel with ``LOG_CODES = 0`` has no log and
    # its information-state tensor is its observation tensor.
    LOG_CODES = 0

    def tensor_pieces(self, player: int) -> list[tuple[str, np.ndarray]]:
        raise NotImplementedError

    def log_codes(self) -> list[tuple[int, int]]:
        """(mover, code) of each public log entry, mover -1 for an entry of no player."""
        return []

    def action_to_string(self, player: int, action: int) -> str:
        raise NotImplementedError

    def chance_possible(self, action: int) -> bool:
        """Whether chance can draw ``action`` here (a kernel may answer faster than this)."""
        return any(a == action and p > 0 for a, p in self.chance_outcomes())

    def legal_actions_or_chance(self) -> list[int]:
        if self.current_player() == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return self.legal_actions()


def _compile_copy(cls) -> Callable:
    """Straight-line ``copy`` of a kernel class from its field lists (see ``Kernel``)."""
    fields = cls.VALUE_FIELDS + cls.LIST_FIELDS + cls.NESTED_FIELDS
    if sorted(fields) != sorted(cls.__slots__):
        raise TypeError(f"{cls.__name__}: __slots__ must be VALUE_FIELDS + LIST_FIELDS + "
                        f"NESTED_FIELDS, each field once")
    body = ["def copy(self):", "    k = _new(_cls)"]
    body += [f"    k.{name} = self.{name}" for name in cls.VALUE_FIELDS]
    body += [f"    k.{name} = self.{name}[:]" for name in cls.LIST_FIELDS]
    body += [f"    k.{name} = [inner[:] for inner in self.{name}]" for name in cls.NESTED_FIELDS]
    body.append("    return k")
    namespace = {"_new": object.__new__, "_cls": cls}
    exec("\n".join(body), namespace)  # source built from the class's own field names
    copy = namespace["copy"]
    copy.__qualname__ = f"{cls.__qualname__}.copy"
    copy.__doc__ = "An independent copy of this kernel (compiled from its field lists)."
    return copy


class SamplerRng:
    """Adapts an OpenSpiel probability sampler (a callable giving floats in [0, 1)) to ``.random()``."""

    __slots__ = ("_sampler",)

    def __init__(self, sampler: Callable[[], float]):
        self._sampler = sampler

    def random(self) -> float:
        return float(self._sampler())


def check_rng(rng) -> None:
    """Raise ValueError unless ``rng`` offers ``random()`` (numpy Generator or SamplerRng)."""
    if not hasattr(rng, "random"):
        raise ValueError("rng: must be a numpy Generator (or expose random()); got "
                         f"{type(rng).__name__}")


def shuffle_in_place(items: list, rng, bounded: bool = False) -> None:
    """Fisher-Yates shuffle (uniform over permutations), the one shuffle of the ports.

    Position ``i`` (last to second) swaps with ``j`` drawn from ``[0, i]``: by
    ``int(rng.random() * (i + 1))``; or, with ``bounded`` and an rng having ``bounded`` (a
    ``PCG32``, the compiled engine's generator), by ``rng.bounded(i + 1)``, the swap of the
    kernels' Fisher-Yates loops (``rng_bounded(rng, i + 1)``), so that a port whose Python
    resample must equal its ``nb_determinize`` draw for draw (Dominion) asks for it. The
    choice is the caller's, not the rng's: a port calling without ``bounded`` keeps its
    ``random()`` draws on a ``PCG32`` too (Virus's kernel mirrors those)."""
    if bounded and hasattr(rng, "bounded"):
        draw = rng.bounded
        for i in range(len(items) - 1, 0, -1):
            j = draw(i + 1)
            items[i], items[j] = items[j], items[i]
        return
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        if j > i:  # guards a sampler returning exactly 1.0
            j = i
        items[i], items[j] = items[j], items[i]


def draw_index(weights: list[int], total: int, rng) -> int:
    """Index i drawn with probability weights[i] / total (integer weights)."""
    r = int(rng.random() * total)
    if r >= total:
        r = total - 1
    for i, w in enumerate(weights):
        if r < w:
            return i
        r -= w
    raise AssertionError("weights do not sum to total")


def counts_to_list(counts: list[int]) -> list[int]:
    """Expand a count vector into a list of card types."""
    out = []
    for t, c in enumerate(counts):
        out.extend([t] * c)
    return out


def list_to_counts(cards, num_types: int) -> list[int]:
    """Count vector (length ``num_types``) of a list of card types."""
    counts = [0] * num_types
    for c in cards:
        counts[c] += 1
    return counts


def shuffled_cards(counts: list[int], rng, bounded: bool = False) -> list[int]:
    """The cards of a count vector in uniformly random order (``shuffle_in_place``, with its
    ``bounded``)."""
    cards = counts_to_list(counts)
    shuffle_in_place(cards, rng, bounded)
    return cards


def count_outcomes(counts: list[int]) -> list[tuple[int, float]]:
    """Chance outcomes drawing one card of a count vector: (type, count / total)."""
    total = sum(counts)
    return [(t, c / total) for t, c in enumerate(counts) if c]


def pool_unseen_cards(hands: list[list[int]], seen: list[list[int]], player: int,
                      pool: list[int]) -> list[tuple[int, int]]:
    """Add to ``pool`` every hand card whose ``seen`` bitmask lacks ``player``'s bit.

    Returns the (holder, index) slots of those cards, in order, for re-dealing.
    """
    bit = 1 << player
    slots = []
    for q, (hand, masks) in enumerate(zip(hands, seen)):
        for i, mask in enumerate(masks):
            if not mask & bit:
                pool[hand[i]] += 1
                slots.append((q, i))
    return slots


def win_shares(scores: list, alive: list[bool] | None = None) -> list[float]:
    """1/k to each of the k players with the best score (among ``alive``), 0 to the rest."""
    idx = [i for i in range(len(scores)) if alive is None or alive[i]]
    best = max(scores[i] for i in idx)
    winners = [i for i in idx if scores[i] == best]
    out = [0.0] * len(scores)
    for i in winners:
        out[i] = 1.0 / len(winners)
    return out


def random_playout(kernel: Kernel, rng) -> list[float]:
    """Play ``kernel`` (in place) to the end with uniform random moves; return the returns."""
    while not kernel.is_terminal():
        if kernel.current_player() == CHANCE:
            kernel.apply(sample_chance(kernel, rng))
        else:
            legal = kernel.legal_actions()
            kernel.apply(legal[int(rng.random() * len(legal))])
    return kernel.returns()


def int_param(params: dict, name: str, default: int, lo: int, hi: int) -> int:
    """Read an integer game parameter, raising ValueError (one line) when out of [lo, hi]."""
    value = params.get(name, default)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name}: must be an integer in [{lo}, {hi}], got {value!r}")
    if not lo <= int(value) <= hi:
        raise ValueError(f"{name}: must be in [{lo}, {hi}], got {value}")
    return int(value)


def players_param(params: dict, game_type: pyspiel.GameType) -> int:
    """The ``players`` parameter, defaulted and range-checked from ``game_type`` (ValueError)."""
    return int_param(params, "players", game_type.parameter_specification["players"],
                     game_type.min_num_players, game_type.max_num_players)


def make_game_type(short_name: str, long_name: str, min_players: int, max_players: int,
                   parameter_specification: dict) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification,
    )


def one_hot(index: int, size: int) -> np.ndarray:
    """Length-``size`` float32 vector with a 1 at ``index`` (all zeros when index < 0)."""
    out = np.zeros(size, np.float32)
    if index >= 0:
        out[index] = 1.0
    return out


def mover_one_hot(kernel: Kernel, n: int) -> np.ndarray:
    """Who moves, as n + 1 flags: players 0..n-1, then chance (all zero at the end)."""
    mover = kernel.current_player()
    return one_hot(n if mover == CHANCE else mover, n + 1) if mover != TERMINAL \
        else np.zeros(n + 1, np.float32)


class TabletopObserver:
    """OpenSpiel PyObserver over a kernel's strings and tensors.

    ``perfect_recall=True`` gives the information state (string: view and public log;
    tensor: ``tensor_pieces`` and the ``public_log`` counts), ``False`` the observation
    (string: the view; tensor: ``tensor_pieces``). Both are what one player sees: the private
    and public information of ``iig_obs_type`` are those of that player (other observation
    types are not provided).
    """

    def __init__(self, game: TabletopGame, iig_obs_type, params=None):
        if params:
            raise ValueError(f"observer params must be empty, got {params}")
        self._perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self._players = game.players
        template = game.new_kernel()
        pieces = [(name, np.shape(values)) for name, values in template.tensor_pieces(0)]
        if self._perfect_recall and template.LOG_CODES:
            pieces.append(("public_log", (game.players + 1, template.LOG_CODES)))
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict = {}
        index = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[index:index + size].reshape(shape)
            index += size

    def set_from(self, state, player):
        kernel = state.kernel
        for name, values in kernel.tensor_pieces(player):
            self.dict[name][...] = values
        log = self.dict.get("public_log")
        if log is not None:
            log.fill(0)
            n = self._players
            for mover, code in kernel.log_codes():
                log[mover if mover >= 0 else n, code] += 1

    def string_from(self, state, player):
        if self._perfect_recall:
            return state.kernel.information_state_string(player)
        return state.kernel.observation_string(player)


class TabletopGame(pyspiel.Game):
    """pyspiel game around a kernel factory (``new_kernel``), with win-share utilities in [0, 1].

    Sets ``self.players``; subclasses read their parameters, then call this constructor.
    """

    def __init__(self, game_type: pyspiel.GameType, params: dict, *, num_players: int,
                 num_distinct_actions: int, max_chance_outcomes: int, max_game_length: int):
        game_info = pyspiel.GameInfo(
            num_distinct_actions=num_distinct_actions,
            max_chance_outcomes=max_chance_outcomes,
            num_players=num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length)
        super().__init__(game_type, game_info, params)
        self.players = num_players

    def new_kernel(self) -> Kernel:
        raise NotImplementedError

    def new_initial_state(self):
        return TabletopState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return TabletopObserver(self, iig_obs_type, params)


class TabletopState(pyspiel.State):
    """pyspiel state delegating every rule to ``self.kernel``."""

    def __init__(self, game: TabletopGame, kernel: Kernel | None = None):
        super().__init__(game)
        self.kernel = kernel if kernel is not None else game.new_kernel()
        self._checked = True   # False only while replaying a history already checked

    def current_player(self):
        return self.kernel.current_player()

    def _legal_actions(self, player):
        return self.kernel.legal_actions()

    def chance_outcomes(self):
        return self.kernel.chance_outcomes()

    def _apply_action(self, action):
        if not self._checked:
            self.kernel.apply(action)
            return
        legal = self.kernel.legal_actions_or_chance()
        if action not in legal:
            raise pyspiel.SpielError(
                f"action: {action} is not legal here; legal actions are {legal}")
        self.kernel.apply(action)

    def _action_to_string(self, player, action):
        return self.kernel.action_to_string(player, action)

    def is_terminal(self):
        return self.kernel.is_terminal()

    def returns(self):
        return self.kernel.returns()

    def __str__(self):
        return str(self.kernel)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A world consistent with ``player_id``'s information state (seeded by the sampler).

        Drawn uniformly over the card placements ``player_id`` cannot tell apart, and rebuilt
        from its own history (``sample_rebuilt_world``): ``world.history()`` replays to it.
        """
        _check_player(player_id, self.get_game().num_players())
        return sample_rebuilt_world(self, int(player_id), SamplerRng(probability_sampler))


def _check_player(player: int, num_players: int) -> None:
    if not 0 <= int(player) < num_players:
        raise ValueError(f"player: must be in [0, {num_players - 1}], got {player}")


def sample_world(state: TabletopState, player: int, rng: np.random.Generator) -> TabletopState:
    """A world drawn uniformly over the card placements ``player`` cannot see.

    Args:
      state: a state of one of the tabletop ports.
      player: whose information state must be kept.
      rng: numpy Generator (or any object with ``random()``).
    Returns:
      a new pyspiel state with the same information-state string for ``player``, rebuilt
      from its own ``history()`` (``sample_rebuilt_world``).
    """
    _check_player(player, state.get_game().num_players())
    check_rng(rng)
    return sample_rebuilt_world(state, int(player), rng)


# -- worlds rebuilt from their history ------------------------------------------------------
# ``kernel.resample`` places the hidden cards; the pyspiel world is then the state reached by
# a history whose chance outcomes deal exactly those cards (so ``world.history()`` rebuilds
# the world). The history is found by tracing each card back to the chance step that drew
# it: the real history is replayed with chance outcomes tagged by their step (``Drawn``),
# and every tagged card the resampled kernel changed rewrites its step's outcome.

MAX_WORLD_ATTEMPTS = 1000


class Drawn(int):
    """A chance outcome (a card type) that remembers the history step that drew it."""

    origin: int

    def __new__(cls, value: int, origin: int):
        card = int.__new__(cls, value)
        card.origin = origin
        return card


def _trace_origins(traced, world, changes: dict) -> bool:
    """Map origin -> new card wherever ``world`` holds another card than ``traced`` (False on
    a shape mismatch or two cards for one origin)."""
    if isinstance(traced, (list, tuple)):
        if not isinstance(world, (list, tuple)) or len(world) != len(traced):
            return False
        return all(_trace_origins(a, b, changes) for a, b in zip(traced, world))
    if isinstance(traced, Drawn) and world != traced:
        if changes.setdefault(traced.origin, world) != world:
            return False
    return True


def _traced_history(game: TabletopGame, history: list[int], world: Kernel) -> list[int] | None:
    """``history`` with the chance outcomes rewritten to deal ``world``'s hidden cards."""
    kernel = game.new_kernel()
    for step, action in enumerate(history):
        kernel.apply(Drawn(action, step) if kernel.current_player() == CHANCE else action)
    changes = {}
    for name in type(kernel).VALUE_FIELDS + type(kernel).LIST_FIELDS + type(kernel).NESTED_FIELDS:
        if not _trace_origins(getattr(kernel, name), getattr(world, name), changes):
            return None
    planned = list(history)
    for step, card in changes.items():
        planned[step] = int(card)
    return planned


def rebuild_world(game: TabletopGame, history: list[int], world: Kernel, player: int,
                  truth: Kernel | None = None, context=None, prefixes=None) -> TabletopState | None:
    """The pyspiel state whose history deals ``world``'s cards, or None when none does.

    The planned history (``world.plan_history``) is replayed step by step beside the real
    one. A chance step must be possible; a player step takes its planned action when that
    leaves ``player``'s information state as in the real game, else the first legal action
    that does (a move named by its place in a hand, e.g. a discard mask, keeps its meaning).
    The result must hold ``world``'s cards (``world.same_cards``). ``truth`` (the kernel
    ``history`` reaches) and ``context`` (its ``history_context``) are computed when omitted;
    ``prefixes`` (``_real_prefixes``) lets the replay start part-way.
    """
    if context is None:
        context = game.new_kernel().history_context(game, history)
    planned = world.plan_history(game, history, player, context)
    if planned is None:
        return None
    if not world.CHECKS_EACH_MOVE:
        if truth is None:
            truth = game.new_kernel()
            for action in history:
                truth.apply(action)
        return _replay_planned(planned, world, player, truth, game, context, prefixes)
    truth = game.new_kernel()
    state = game.new_initial_state()
    kernel = state.kernel
    for action, real in zip(planned, history):
        if kernel.current_player() == CHANCE:
            if action not in {a for a, p in kernel.chance_outcomes() if p > 0}:
                return None
            truth.apply(real)
            state.apply_action(action)
            continue
        truth.apply(real)
        target = truth.information_state_string(player)
        legal = kernel.legal_actions()
        for candidate in [action] + [a for a in legal if a != action]:
            if candidate not in legal:
                continue
            trial = kernel.copy()
            trial.apply(candidate)
            if trial.information_state_string(player) == target:
                state.apply_action(candidate)
                kernel = state.kernel
                break
        else:
            return None
    if state.kernel.information_state_string(player) != truth.information_state_string(player):
        return None
    if not world.same_cards(state.kernel):
        return None
    return state


def _replay_planned(planned: list[int], world: Kernel, player: int, truth: Kernel,
                    game: TabletopGame, context, prefixes: list | None = None) -> TabletopState | None:
    """``planned`` replayed as is (every action legal), checked only at the end: for kernels
    (``CHECKS_EACH_MOVE = False``) whose information state logs every public move, so an
    equal final information state means equal ones along the way.

    ``prefixes`` (``_real_prefixes``): pyspiel states along the real history; the replay
    starts from the last one before the first step ``planned`` changes.
    """
    start, base = 0, None
    if prefixes:
        history = prefixes[0][2]
        first = next((i for i, (a, b) in enumerate(zip(planned, history)) if a != b), len(planned))
        for step, prefix, _ in prefixes:
            if prefix is not None and step <= first:
                start, base = step, prefix
    kernel = base.kernel.copy() if base is not None else game.new_kernel()
    applied = []
    for step in range(start, len(planned)):
        action = planned[step]
        if kernel.current_player() == CHANCE:
            if not kernel.chance_possible(action):
                return None
            kernel.apply(action)
            applied.append(action)
            continue
        for move in world.replay_move(kernel, step, action, context):
            if kernel.is_terminal() or move not in kernel.legal_actions():
                return None
            kernel.apply(move)
            applied.append(move)
    if not kernel.is_terminal() and kernel.current_player() != CHANCE:
        for move in world.replay_move(kernel, len(planned), None, context):
            if move not in kernel.legal_actions():
                return None
            kernel.apply(move)
            applied.append(move)
    if kernel.information_state_string(player) != truth.information_state_string(player):
        return None
    if not world.same_cards(kernel):
        return None
    state = base.clone() if base is not None else game.new_initial_state()
    state._checked = False      # every action was checked on ``kernel`` above
    for action in applied:
        state.apply_action(action)
    state._checked = True
    return state


PREFIX_EVERY = 64   # steps between the real-history states a replay may start from


def _real_prefixes(game: TabletopGame, history: list[int]) -> list:
    """(step, pyspiel state after ``step`` actions, history) every ``PREFIX_EVERY`` steps of
    the real history (replayed unchecked: it is the real game's)."""
    state = game.new_initial_state()
    state._checked = False
    prefixes = []
    for step, action in enumerate(history):
        if step % PREFIX_EVERY == 0 and step:
            prefixes.append((step, state.clone(), history))
        state.apply_action(action)
    for _, prefix, _ in prefixes:
        prefix._checked = True
    return prefixes or [(0, None, history)]


# The history context and real prefixes of the last few sampled states: search samples many
# worlds from one state, and each would otherwise replay the whole real history again.
_CACHE_SIZE = 4
_cache: dict = {}


def _history_facts(state: TabletopState, game: TabletopGame, history: list[int]):
    key = (str(game), tuple(history), str(state.kernel))
    facts = _cache.get(key)
    if facts is None:
        prefixes = None if state.kernel.CHECKS_EACH_MOVE else _real_prefixes(game, history)
        facts = (state.kernel.history_context(game, history), prefixes)
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = facts
    return facts


def sample_rebuilt_world(state: TabletopState, player: int, rng) -> TabletopState:
    """A world drawn uniformly over the consistent ones, rebuilt from its own history.

    ``kernel.resample`` draws the card placement uniformly; a placement that no history
    consistent with ``player``'s information state deals is drawn again (rejection keeps
    the draw uniform over the placements that some such history deals).
    """
    # -- history worlds --
    if state.kernel.SAMPLES_HISTORIES:
        return _sample_history_world(state, player, rng)
    # -- end history worlds --
    if not state.kernel.REBUILDS_WORLDS:
        new = state.clone()
        new.kernel = state.kernel.resample(player, rng)
        return new
    game = state.get_game()
    history = state.history()
    context, prefixes = _history_facts(state, game, history)
    for _ in range(MAX_WORLD_ATTEMPTS):
        world = rebuild_world(game, history, state.kernel.resample_given(player, rng, context), player,
                              truth=state.kernel, context=context, prefixes=prefixes)
        if world is not None:
            return world
    raise RuntimeError(f"no consistent world rebuilt in {MAX_WORLD_ATTEMPTS} draws "
                       f"({game.get_type().short_name}, player {player})")


# -- history worlds --
def _sample_history_world(state: TabletopState, player: int, rng) -> TabletopState:
    """A world from ``kernel.world_history`` (a whole sampled history; ports with
    ``SAMPLES_HISTORIES``), applied to a fresh state: its ``history()`` rebuilds it."""
    game = state.get_game()
    history = state.history()
    context, _ = _history_facts(state, game, history)
    for _ in range(MAX_WORLD_ATTEMPTS):
        actions = state.kernel.world_history(game, player, rng, context)
        if actions is not None:
            world = game.new_initial_state()
            world._checked = False   # every move was checked by ``world_history``
            for action in actions:
                world.apply_action(action)
            world._checked = True
            return world
    raise RuntimeError(f"no consistent world in {MAX_WORLD_ATTEMPTS} sampled histories "
                       f"({game.get_type().short_name}, player {player})")
# -- end history worlds --


def register(game_type: pyspiel.GameType, game_class) -> None:
    """Register a game with pyspiel (once) and with infosets' determinizers."""
    if game_type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, game_class)
    from infosets.games import determinizers  # local: avoid import-order coupling
    determinizers.register_determinizer(game_type.short_name, lambda game: sample_world)
