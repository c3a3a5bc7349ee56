"""The differential checks of a converted port against its frozen pure-Python oracle, written once.

Each converted TAG port of the pimcts_aggregation study (docs/papers/pimcts_aggregation.md) keeps
its former Python rule class as ``tests/games/<name>/oracle.py``; its
``test_<name>_oracle.py`` plays random games on the port's kernel (its numba rules through
``infosets.games.array_kernel``) and on the oracle side by side and asserts, step by step, that
the two agree. This module holds what those tests share:

* ``load_oracle`` loads ``oracle.py`` beside a test file (the test folders are not packages);
* ``assert_same_state`` (``state_check``: bound to one game) compares the fields, the flow
  (mover, terminal, returns), the state string, every player's information-state and
  observation strings and tensors, and the log codes where the game keeps them;
* ``play_both`` steps both kernels through one random game, checking the mover, the legal
  actions and the chance outcomes at every step and the whole state every ``check_every``
  steps and at the end;
* ``chance_checks`` builds the per-port checks of a chance node (the chance outcomes are the
  legal actions, ``chance_possible`` holds for exactly the outcomes).

The game-specific parts (which fields, extra probes such as scores or a heuristic, how a
player picks a move) stay in each port's test, passed in as arguments.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType

import numpy as np

from infosets.games import _tabletop as tt

_ORACLES: dict[Path, ModuleType] = {}


def load_oracle(test_file: str) -> ModuleType:
    """The ``oracle.py`` beside ``test_file``, loaded once per process (by its path)."""
    path = Path(test_file).resolve().with_name("oracle.py")
    if path not in _ORACLES:
        spec = importlib.util.spec_from_file_location(f"{path.parent.name}_oracle", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses and pickle look their module up by name
        spec.loader.exec_module(module)
        _ORACLES[path] = module
    return _ORACLES[path]


def state_fields(kernel, names: Iterable[str]) -> dict:
    """``{name: kernel.name}`` for every field name."""
    return {name: getattr(kernel, name) for name in names}


def filled_tensors(kernel, player: int, perfect_recall: bool, dtype=np.float32) -> dict:
    """The tensor pieces ``kernel.fill_tensor`` writes for ``player`` (ports whose
    ``tensor_pieces`` takes the recall flag and returns the shapes)."""
    views = {name: np.zeros(shape, dtype) for name, shape in kernel.tensor_pieces(perfect_recall)}
    kernel.fill_tensor(player, perfect_recall, views)
    return views


def _assert_same_tensors(ours, theirs, player: int, step, tensors: str, dtype) -> None:
    if tensors == "pieces":  # tensor_pieces(player) yields (name, array)
        pairs = zip(ours.tensor_pieces(player), theirs.tensor_pieces(player), strict=True)
        for (name, a), (other, b) in pairs:
            assert name == other and a.dtype == b.dtype and np.array_equal(a, b), (step, player, name)
        return
    assert tensors == "filled", tensors
    for recall in (False, True):
        mine = filled_tensors(ours, player, recall, dtype)
        its = filled_tensors(theirs, player, recall, dtype)
        assert list(mine) == list(its), (step, player, recall)
        for name in mine:
            assert np.array_equal(mine[name], its[name]), (step, player, recall, name)


def assert_same_state(
    ours,
    theirs,
    players: int,
    step,
    fields: Callable[[object], dict],
    *,
    tensors: str = "pieces",
    tensor_dtype=np.float32,
    log_codes: bool = True,
    extra: Callable[[object, object, object], None] | None = None,
) -> None:
    """Every field (``fields(kernel)``), the flow, the strings, the tensors (``"pieces"`` or
    ``"filled"``, see ``filled_tensors``), the log codes (if ``log_codes``) and ``extra(ours,
    theirs, step)`` of the port's kernel and the oracle's are equal."""
    assert fields(ours) == fields(theirs), step
    assert ours.current_player() == theirs.current_player(), step
    assert ours.is_terminal() == theirs.is_terminal(), step
    assert ours.returns() == theirs.returns(), step
    assert str(ours) == str(theirs), step
    if log_codes:
        assert ours.log_codes() == theirs.log_codes(), step
    if extra is not None:
        extra(ours, theirs, step)
    for p in range(players):
        assert ours.information_state_string(p) == theirs.information_state_string(p), (step, p)
        assert ours.observation_string(p) == theirs.observation_string(p), (step, p)
        _assert_same_tensors(ours, theirs, p, step, tensors, tensor_dtype)


def state_check(
    players: int, fields: Callable[[object], dict], **options
) -> Callable[[object, object, int], None]:
    """``assert_same_state`` for one game, as ``play_both``'s ``assert_same(ours, theirs, step)``."""

    def check(ours, theirs, step: int) -> None:
        assert_same_state(ours, theirs, players, step, fields, **options)

    return check


def chance_checks(
    *, legal: str | None = None, possible: bool = False, impossible: Iterable[int] = ()
) -> Callable[[object, list, int], None]:
    """A check of the port's kernel at a chance node with the oracle's ``outcomes``: its
    ``legal`` method (``"legal_actions"``, ``"legal_actions_or_chance"``) lists the outcomes;
    with ``possible``, ``chance_possible`` holds for every outcome and for none of the other
    actions in ``impossible``."""
    impossible = tuple(impossible)

    def check(ours, outcomes: list, step: int) -> None:
        actions = [a for a, _ in outcomes]
        if legal is not None:
            assert getattr(ours, legal)() == actions, step
        if possible:
            assert all(ours.chance_possible(a) for a in actions), step
            assert not any(ours.chance_possible(a) for a in impossible if a not in actions), step

    return check


def random_choice(legal: list, rng: np.random.Generator):
    """A uniformly random legal action (the tests' default player)."""
    return legal[int(rng.integers(len(legal)))]


def play_both(
    ours,
    theirs,
    rng: np.random.Generator,
    assert_same: Callable[[object, object, int], None],
    *,
    check_every: int = 1,
    at_chance: Callable[[object, list, int], None] | None = None,
    choose: Callable[[list, np.random.Generator], int] = random_choice,
    before_move: Callable[[object, object, int, int, int], None] | None = None,
) -> Iterator[tuple[object, object, list]]:
    """One random game on the port's kernel (``ours``) and the oracle (``theirs``) side by
    side; yields (ours, theirs, history so far) at every step.

    At every step the movers are equal; ``assert_same(ours, theirs, step)`` runs every
    ``check_every`` steps and at the end. At a chance node the chance outcomes are equal and
    ``at_chance(ours, outcomes, step)`` runs; the oracle samples the outcome. At a decision the
    legal actions are equal and ``choose(legal, rng)`` picks the move.
    ``before_move(ours, theirs, mover, action, step)`` runs before each move is applied."""
    history: list[int] = []
    while True:
        step = len(history)
        mover = theirs.current_player()
        assert ours.current_player() == mover, step
        if step % check_every == 0 or theirs.is_terminal():
            assert_same(ours, theirs, step)
        yield ours, theirs, history
        if theirs.is_terminal():
            return
        if mover == tt.CHANCE:
            outcomes = theirs.chance_outcomes()
            assert ours.chance_outcomes() == outcomes, step
            if at_chance is not None:
                at_chance(ours, outcomes, step)
            action = tt.sample_chance(theirs, rng)
        else:
            legal = theirs.legal_actions()
            assert ours.legal_actions() == legal, step
            action = choose(legal, rng)
        if before_move is not None:
            before_move(ours, theirs, mover, action, step)
        ours.apply(action)
        theirs.apply(action)
        history.append(action)
