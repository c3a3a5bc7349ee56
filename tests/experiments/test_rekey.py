"""``make rekey``: committed tables follow a change that moves no number, after a covering
sample recomputes equal, and are refused after a change that moves one."""

import json
import math
import os
import time

import numpy as np
import pandas as pd
import pytest

from infosets.experiments import rekey
from infosets.experiments import store as store_mod
from infosets.experiments.committed import CommittedResults
from infosets.experiments.runner import Task
from infosets.experiments.session import Session

pytestmark = pytest.mark.xdist_group("runner")


def _rows(cfg, params, seed):
    """A task whose values can be moved from outside (``INFOSETS_TEST_SHIFT`` for game g, and
    only its agent ``INFOSETS_TEST_SHIFT_AGENT`` if that is set)."""
    rng = np.random.default_rng(seed)
    agent = os.environ.get("INFOSETS_TEST_SHIFT_AGENT", params["agent"])
    moved = params["game"] == "g" and params["agent"] == agent
    shift = float(os.environ.get("INFOSETS_TEST_SHIFT", 0)) if moved else 0.0
    rows = [{"x": float(rng.random()) + shift, "n": params["deal"], "note": None,
             "seconds": time.perf_counter()}]  # a measured time: differs on every run
    if params["deal"] % 3 == 0:
        rows.append({"x": 0.5, "extra": [params["deal"], 1]})
    return rows


def _tasks():
    return [Task(_rows, {"game": game, "agent": agent, "deal": deal})
            for game in ("f", "g") for agent in ("a", "b", "c") for deal in range(8)]


def _new_code(monkeypatch, label):
    """Stand in for an edit to a module the paper imports: the results key changes."""
    real = store_mod.code_hash
    monkeypatch.setattr(store_mod, "code_hash",
                        lambda slug=None, values=None: f"{real(slug, values)}-{label}")


def _published(monkeypatch, tmp_path):
    session = Session.create("quickstart", "default", workers=1)
    first = session.run(_tasks(), "table", progress=False)
    old_id = CommittedResults(session.cfg).recorded_run_id()
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "another_machine"))
    return first, old_id


class Counting:
    """An executor that runs in this process and counts the tasks it is given."""

    def __init__(self):
        self.calls = 0

    def submit_all(self, calls):
        for j, (fn, args) in enumerate(calls):
            self.calls += 1
            yield j, fn(*args)

    def close(self):
        pass


def test_a_neutral_change_keeps_every_row_after_checking_a_covering_sample(tmp_path, monkeypatch):
    first, old_id = _published(monkeypatch, tmp_path)
    _new_code(monkeypatch, "refactor")
    monkeypatch.setenv(rekey.REKEY_ENV, "1")
    session = Session.create("quickstart", "default", workers=1)
    counting = Counting()
    session._executor = counting
    again = session.run(_tasks(), "table", progress=False)
    pd.testing.assert_frame_equal(again, first)
    # every game, agent and deal value once, at least: 8 deals need 8 tasks, not all 48
    assert 8 <= counting.calls < len(_tasks())
    shipped = CommittedResults(session.cfg)
    assert shipped.valid() and shipped.recorded_run_id() != old_id
    record = json.loads((shipped.path / rekey.RECORD).read_text())
    assert record["from_run_id"] == old_id and record["to_run_id"] == shipped.run_id
    assert record["tables"]["table"] == {"tasks_adopted": 48, "tasks_checked": counting.calls,
                                         "checked_cpu_seconds": pytest.approx(0, abs=5)}
    # the table's CPU cost travels with it, and a plain run now replots without compute
    assert shipped.cpu_seconds("table") == pytest.approx(
        json.loads((shipped.path / "PROVENANCE.json").read_text())["cpu_seconds"])
    monkeypatch.delenv(rekey.REKEY_ENV)
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "fresh_clone"))
    plain = Session.create("quickstart", "default", workers=1)
    plain._executor = Counting()
    pd.testing.assert_frame_equal(plain.run(_tasks(), "table", progress=False), first)
    assert plain._executor.calls == 0


def test_adopted_rows_stay_marked_when_a_later_run_publishes_them(tmp_path, monkeypatch):
    """2026-11-28: the committed folder was put back (git checkout) after a rekey, and a plain
    run then published the store's adopted rows with no REKEYED.json, as if computed. The
    record now lives in the store as well, and a fresh clone keeps the committed one."""
    _published(monkeypatch, tmp_path)
    folder = CommittedResults(Session.create("quickstart", "default").cfg).path
    before = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    _new_code(monkeypatch, "refactor")
    monkeypatch.setenv(rekey.REKEY_ENV, "1")
    Session.create("quickstart", "default", workers=1).run(_tasks(), "table", progress=False)
    record = (folder / rekey.RECORD).read_bytes()
    monkeypatch.delenv(rekey.REKEY_ENV)
    for path in folder.rglob("*"):  # the committed folder as it was before the rekey
        if path.is_file() and path.relative_to(folder) not in before:
            path.unlink()
    for rel, payload in before.items():
        (folder / rel).write_bytes(payload)
    plain = Session.create("quickstart", "default", workers=1)
    plain._executor = Counting()
    plain.run(_tasks(), "table", progress=False)
    assert plain._executor.calls == 0  # the store's adopted rows, published again
    assert (folder / rekey.RECORD).read_bytes() == record
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "fresh_clone"))
    Session.create("quickstart", "default", workers=1).run(_tasks(), "table", progress=False)
    assert (folder / rekey.RECORD).read_bytes() == record


def _other(cfg, params, seed):
    """A second sweep's task, untouched by the change."""
    return {"y": float(np.random.default_rng(seed).random())}


def test_a_change_that_moves_a_number_is_refused_and_the_old_tables_stay(tmp_path, monkeypatch):
    """The notebook's first sweep is neutral and publishes under the new key; its second
    moves a number: the rekey stops there and puts the committed folder back as it was."""
    session = Session.create("quickstart", "default", workers=1)
    session.run([Task(_other, {"k": k}) for k in range(4)], "first", progress=False)
    session.run(_tasks(), "table", progress=False)
    folder = CommittedResults(session.cfg).path
    before = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "another_machine"))
    _new_code(monkeypatch, "fix")
    monkeypatch.setenv("INFOSETS_TEST_SHIFT", "0.25")  # the fix moves game g's values
    monkeypatch.setenv(rekey.REKEY_ENV, "1")
    session = Session.create("quickstart", "default", workers=1)
    session._executor = Counting()
    session.run([Task(_other, {"k": k}) for k in range(4)], "first", progress=False)
    assert CommittedResults(session.cfg).valid()  # the neutral sweep went through
    with pytest.raises(rekey.RekeyError, match=r'"game": "g".*column .x.*make figures'):
        session.run(_tasks(), "table", progress=False)
    assert not list((session.store.path / "table").glob("*.pkl"))  # nothing adopted
    after = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after == before


def test_a_record_of_an_older_key_goes_when_a_run_publishes_under_its_own(tmp_path, monkeypatch):
    _published(monkeypatch, tmp_path)
    _new_code(monkeypatch, "refactor")
    monkeypatch.setenv(rekey.REKEY_ENV, "1")
    Session.create("quickstart", "default", workers=1).run(_tasks(), "table", progress=False)
    path = CommittedResults(Session.create("quickstart", "default").cfg).path / rekey.RECORD
    assert path.exists()
    monkeypatch.delenv(rekey.REKEY_ENV)
    _new_code(monkeypatch, "a real fix")  # recomputed under yet another key
    Session.create("quickstart", "default", workers=1).run(_tasks(), "table", progress=False)
    assert not path.exists()


def test_covering_sample_takes_every_value_of_each_small_parameter():
    tasks = [Task(_rows, {"game": game, "budget": b, "deal": d, "seed": s})
             for game in ("f", "g", "h") for b in (10, 100) for d in range(4) for s in range(50)]
    chosen = [tasks[i] for i in rekey.covering_sample(tasks)]
    for key in ("game", "budget", "deal"):
        assert {t.params[key] for t in chosen} == {t.params[key] for t in tasks}
    assert len(chosen) == 4  # four deals cover the three games and two budgets too
    # 50 seeds exceed MAX_LEVELS: a parameter like a seed is not covered value by value
    assert len({t.params["seed"] for t in chosen}) < 50
    assert len(rekey.covering_sample(tasks[:1])) == 1
    few = [Task(_rows, {"game": "f", "deal": 0, "seed": s}) for s in range(60)]
    assert len(rekey.covering_sample(few)) == rekey.MIN_CHECKED


def test_rows_compare_exactly_after_parquet():
    old = [{"x": np.float64(0.1), "v": np.array([1, 2]), "note": np.nan}]
    assert rekey.first_difference(old, [{"x": 0.1, "v": [1, 2], "note": None}]) is None
    assert rekey.first_difference(old, [{"x": 0.1, "v": [1, 2]}]) is None  # missing = empty
    # another CPU's rounding agrees and is counted; anything larger than 1e-10 relative differs
    last_bits = []
    assert rekey.first_difference(old, [{"x": math.nextafter(0.1, 1.0), "v": [1, 2]}],
                                  last_bits) is None
    assert last_bits == [pytest.approx(math.ulp(0.1) / 0.1, rel=0.5)]
    assert "column 'x'" in rekey.first_difference(old, [{"x": 0.1 * (1 + 1e-9), "v": [1, 2]}])
    assert rekey.first_difference([{"p": 20.552592775621143}], [{"p": 20.552592775620898}]) is None
    assert "column 'v'" in rekey.first_difference(old, [{"x": 0.1, "v": [1, 3]}])
    assert rekey.first_difference([{"n": 1}], [{"n": 2}]) is not None  # integers stay exact
    assert rekey.first_difference([{"p": 0.06088020357788001}], [{"p": 0.060880203577880015}]) is None
    assert "2 rows instead of 1" in rekey.first_difference(old, old * 2)
    timed = [{"x": 0.1, "seconds": 0.2, "cpu_seconds": 1.0, "seconds_mcmc": 3.0}]
    assert rekey.first_difference(timed, [{"x": 0.1, "seconds": 9.0, "cpu_seconds": 2.0,
                                            "seconds_mcmc": 4.0}]) is None
    assert rekey.first_difference([{"milliseconds_saved": 1}], [{"milliseconds_saved": 2}])
    # a measured memory peak (history_filtering's cost rows) moves with the code around it
    assert rekey.first_difference([{"x": 1, "peak_bytes": 1417168.0}],
                                  [{"x": 1, "peak_bytes": 1416184}]) is None
    assert rekey.first_difference([{"megabytes_dealt": 1}], [{"megabytes_dealt": 2}])


def _rekeyed_with_fix(monkeypatch, redo):
    """``make rekey REDO=<redo>`` after a fix that shifts game g's rows by 0.25: the session,
    its counting executor, the table it publishes and the table's REKEYED.json entry."""
    _new_code(monkeypatch, "fix")
    monkeypatch.setenv("INFOSETS_TEST_SHIFT", "0.25")
    monkeypatch.setenv(rekey.REKEY_ENV, "1")
    monkeypatch.setenv(rekey.REDO_ENV, redo)
    session = Session.create("quickstart", "default", workers=1)
    counting = Counting()
    session._executor = counting
    again = session.run(_tasks(), "table", progress=False)
    checked = json.loads((CommittedResults(session.cfg).path / rekey.RECORD).read_text())["tables"]["table"]
    return session, counting, again, checked


def test_redo_recomputes_the_named_rows_and_adopts_the_rest(tmp_path, monkeypatch):
    """A fix that moves one game's rows (here game g's, shifted by 0.25): ``make rekey
    REDO=game=g`` checks a covering sample of the other rows, adopts them, and recomputes
    g's 24 tasks under the new code; REKEYED.json records the filter. Without REDO the same
    fix is refused (the test above)."""
    first, old_id = _published(monkeypatch, tmp_path)
    first_cpu = CommittedResults(Session.create("quickstart", "default").cfg).cpu_seconds("table")
    session, counting, again, checked = _rekeyed_with_fix(monkeypatch, "game=g")
    kept, moved = again[again["game"] == "f"], again[again["game"] == "g"]
    pd.testing.assert_frame_equal(kept, first[first["game"] == "f"])
    shifts = (moved["x"] - first.loc[first["game"] == "g", "x"]).round(12)
    assert shifts.isin([0.0, 0.25]).all()  # the random draws moved, the fixed 0.5 rows not
    assert (moved["x"] > 1.0).any()  # g was recomputed under the fix
    assert checked["tasks_adopted"] == 24 and checked["tasks_recomputed"] == 24
    assert checked["redo"] == ["game=g"]
    assert counting.calls == checked["tasks_checked"] + 24  # the sample of f, then all of g
    # the old table's CPU (g's rows included: spent all the same) stays counted, in f's rows
    adopted = [session.store.load_record("table", t.task_id) for t in _tasks() if t.params["game"] == "f"]
    assert sum(r["cpu_seconds"] for r in adopted) == pytest.approx(first_cpu)
    # the store tells adopted rows from computed ones (pimcts_costs' per-machine rates)
    assert all(r.get("adopted") for r in adopted)
    assert not any(session.store.load_record("table", t.task_id).get("adopted")
                   for t in _tasks() if t.params["game"] == "g")


def test_a_redo_entry_of_pairs_joined_by_and_recomputes_only_the_tasks_with_all_of_them(tmp_path,
                                                                                        monkeypatch):
    """A fix that moves one agent's rows of one game (g's b, here): ``REDO='game=g&agent=b'``
    recomputes those 8 tasks and checks and adopts the other 40, where ``game=g,agent=b``
    would have sent back g's 24 and b's 16."""
    first, _ = _published(monkeypatch, tmp_path)
    monkeypatch.setenv("INFOSETS_TEST_SHIFT_AGENT", "b")
    _, counting, again, checked = _rekeyed_with_fix(monkeypatch, "game=g&agent=b")
    target = (again["game"] == "g") & (again["agent"] == "b")
    pd.testing.assert_frame_equal(again[~target], first[~target])
    assert (again.loc[target, "x"] > 1.0).any()  # recomputed under the fix
    assert checked["redo"] == ["game=g&agent=b"]
    assert checked["tasks_adopted"] == 40 and checked["tasks_recomputed"] == 8
    assert counting.calls == checked["tasks_checked"] + 8


def _rekey_session_with(monkeypatch, redo):
    """A ``make rekey REDO=<redo>`` session after a change of key, on a counting executor."""
    _new_code(monkeypatch, "fix")
    monkeypatch.setenv(rekey.REKEY_ENV, "1")
    monkeypatch.setenv(rekey.REDO_ENV, redo)
    session = Session.create("quickstart", "default", workers=1)
    session._executor = Counting()
    return session


@pytest.mark.parametrize("spec, message", [("game", "^REDO: 'game' is not"),
                                           ("game=g&agent=z",
                                            "^REDO: no task of the committed table has game=g&agent=z"),
                                           ("game=g&game=f",
                                            "^REDO: 'game=g&game=f' asks game for two values"),
                                           ("colour=g", "^REDO: 'colour' is not a parameter"),
                                           ("game=h", "^REDO: no task of the committed table has game=h")])
def test_a_redo_filter_that_names_nothing_is_refused_before_compute(tmp_path, monkeypatch, spec, message):
    _published(monkeypatch, tmp_path)
    session = _rekey_session_with(monkeypatch, spec)
    with pytest.raises(ValueError, match=message):
        session.run(_tasks(), "table", progress=False)
    assert session._executor.calls == 0


def _trajectory_rows(cfg, params, seed):
    """A second sweep's task, without the first sweep's ``agent``."""
    return [{"y": float(np.random.default_rng(seed).random()), "t": params["trajectory"]}]


def _trajectories():
    return [Task(_trajectory_rows, {"game": game, "trajectory": t}) for game in ("f", "g")
            for t in range(4)]


def _published_two_sweeps(monkeypatch, tmp_path):
    session = Session.create("quickstart", "default", workers=1)
    first = session.run(_tasks(), "table", progress=False)
    second = session.run(_trajectories(), "other", progress=False)
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "another_machine"))
    return first, second


def test_a_redo_entry_can_name_its_sweep_and_leave_the_others_whole(tmp_path, monkeypatch):
    """pimcts_aggregation's paper notebook runs a tournament sweep (game, agent, block, ...) and
    a disambiguation sweep (game, trajectory). ``REDO='game=g&agent=b'`` recomputed the
    tournament's tasks, then stopped at the second sweep, which has no ``agent``; the entry
    names its sweep now (``table:game=g&agent=b``) and the other sweep is checked and adopted
    whole, with no ``redo`` in its record."""
    first, second = _published_two_sweeps(monkeypatch, tmp_path)
    monkeypatch.setenv("INFOSETS_TEST_SHIFT_AGENT", "b")
    _, counting, again, checked = _rekeyed_with_fix(monkeypatch, "table:game=g&agent=b")
    assert checked["redo"] == ["game=g&agent=b"] and checked["tasks_recomputed"] == 8
    session = Session.create("quickstart", "default", workers=1)
    session._executor = Counting()
    other = session.run(_trajectories(), "other", progress=False)
    pd.testing.assert_frame_equal(other, second)
    record = json.loads((CommittedResults(session.cfg).path / rekey.RECORD).read_text())
    assert "redo" not in record["tables"]["other"]
    assert record["tables"]["other"]["tasks_adopted"] == 8


@pytest.mark.parametrize("spec, sweep, message", [
    ("game=g&agent=b", "other",
     r"^REDO: 'agent' is not a parameter of sweep 'other'.*'<sweep>:game=g&agent=b'"),
    ("tabel:game=g", "table", r"^REDO: 'tabel' is not a sweep of this run; its sweeps: \['other', 'table'\]"),
    (":game=g", "table", r"^REDO: ':game=g' has ':' but no sweep")])
def test_a_redo_entry_for_a_sweep_is_refused_before_that_sweep_computes(tmp_path, monkeypatch,
                                                                       spec, sweep, message):
    _published_two_sweeps(monkeypatch, tmp_path)
    session = _rekey_session_with(monkeypatch, spec)
    if sweep == "other":  # the entry is the table's: that sweep runs, then the other stops
        session.run(_tasks(), "table", progress=False)
    calls = session._executor.calls
    with pytest.raises(ValueError, match=message):
        session.run(_tasks() if sweep == "table" else _trajectories(), sweep, progress=False)
    assert session._executor.calls == calls
