"""Output side of the spine: one folder per preset, writable checks, umask, full disk, stamps.

A published run replotted in a fresh clone (same code, committed results, empty local cache)
must give byte-identical files, PROVENANCE.json included.
"""

import errno
import json
import os
import stat
import subprocess
import tempfile
from pathlib import Path

import pandas as pd
import pytest

from busy_tasks import busy_rows, run_on_two_machines, task_cpu
from infosets.experiments import committed, config, session, store
from infosets.experiments.runner import Task
from infosets.experiments.session import OutputError, Session, output_dir
from infosets.papers import quickstart

TINY = {"games": ["kuhn_poker"], "solvers": ["cfr"], "iterations": [1, 4], "eval_games": 20}


def test_one_output_folder_per_preset(tmp_path):
    root = tmp_path / "figures" / "quickstart"
    assert output_dir(config.load("quickstart", "default", seed=0)) == root
    assert output_dir(config.load("quickstart", "paper", seed=0)) == root / "paper"
    default_values = config.read_preset("quickstart", "default")
    same = config.load("quickstart", "default", seed=0, overrides=default_values)
    assert output_dir(same) == root  # overrides equal to the preset change nothing
    for cfg in (config.load("quickstart", "smoke", seed=0),
                config.load("quickstart", "default", seed=1),
                config.load("quickstart", "default", seed=0, overrides={"eval_games": 7})):
        folder = output_dir(cfg)
        assert folder.parent == root / "custom", cfg
        assert folder.name.startswith(f"{cfg.preset}-")
    assert output_dir(config.load("quickstart", "smoke", seed=0)) != output_dir(
        config.load("quickstart", "smoke", seed=0, overrides={"eval_games": 7}))


def test_custom_runs_publish_no_results(tmp_path):
    s = Session.create("quickstart", "smoke", seed=0, workers=1, overrides=TINY)
    assert not s.published and s.committed is None
    s.run(quickstart.tasks(s.cfg), progress=False)
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").rglob("*"))


def test_gitignore_covers_custom_and_timing_folders():
    ignore = (config.repo_root() / ".gitignore").read_text().splitlines()
    assert "figures/*/custom/" in ignore and "figures/**/timing/" in ignore


def test_unwritable_figures_folder_fails_before_compute(tmp_path, monkeypatch):
    blocker = tmp_path / "not_a_folder"
    blocker.write_text("a file where the figures folder should be")
    monkeypatch.setenv("INFOSETS_FIGURES_DIR", str(blocker))
    with pytest.raises(OutputError, match=r"^figures: cannot write to .*not_a_folder"):
        Session.create("quickstart", "smoke", seed=0, workers=1)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_figures_folder_fails_before_compute(tmp_path, monkeypatch):
    figures = tmp_path / "ro"
    figures.mkdir()
    figures.chmod(0o500)
    monkeypatch.setenv("INFOSETS_FIGURES_DIR", str(figures))
    try:
        with pytest.raises(OutputError, match=r"^figures: cannot write to .*ro"):
            Session.create("quickstart", "smoke", seed=0, workers=1)
    finally:
        figures.chmod(0o700)


def test_a_folder_refusing_writes_fails_before_compute_even_as_root(tmp_path, monkeypatch):
    """The chmod test above is skipped as root (CI runs as root): the refusal is simulated at
    the probe file, as a read-only or full folder answers it (EACCES)."""
    figures = tmp_path / "ro"
    real_mkstemp = tempfile.mkstemp

    def refusing_mkstemp(*args, dir=None, **kwargs):
        if dir is not None and (Path(dir) == figures or figures in Path(dir).parents):
            raise PermissionError(errno.EACCES, "Permission denied", str(figures))
        return real_mkstemp(*args, dir=dir, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", refusing_mkstemp)
    monkeypatch.setenv("INFOSETS_FIGURES_DIR", str(figures))
    with pytest.raises(OutputError, match=r"^figures: cannot write to .*ro.*Permission denied"):
        Session.create("quickstart", "smoke", seed=0, workers=1)


def test_full_disk_error_names_the_path(tmp_path, monkeypatch):
    real_mkstemp = tempfile.mkstemp

    def mkstemp_on_full_disk(*args, **kwargs):
        fd, path = real_mkstemp(*args, **kwargs)
        os.close(fd)
        os.unlink(path)
        os.symlink("/dev/full", path)  # every write to it fails with ENOSPC
        return os.open(path, os.O_WRONLY), path

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp_on_full_disk)
    target = tmp_path / "claims.csv"
    with pytest.raises(OSError) as info:
        store.atomic_write_text(target, "x" * 100_000)
    assert info.value.errno == errno.ENOSPC
    assert str(target) in str(info.value)
    assert not target.exists() and not list(tmp_path.glob(".*tmp"))


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_written_files_respect_the_umask(tmp_path, mask):
    old = os.umask(mask)
    try:
        cfg = config.load("quickstart", "smoke", seed=0, overrides=TINY)
        s = Session.create("quickstart", "smoke", seed=0, workers=1, overrides=TINY)
        frame = s.run(quickstart.tasks(cfg), progress=False)
        written = [*s.save_table(frame, "results_table"), *s.store.path.rglob("*.pkl"),
                   s.store.table_file("results"), s.store.path / "config.json"]
        store.atomic_write_text(tmp_path / "plain.txt", "x")
        written.append(tmp_path / "plain.txt")
    finally:
        os.umask(old)
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path


def test_published_tables_have_fixed_precision(tmp_path):
    s = Session.create("quickstart", "smoke", seed=0, workers=1)
    csv_path, _ = s.save_table(pd.DataFrame({"v": [4.687251892559733, 1 / 3, 2.0]}), "t")
    assert csv_path.read_text().splitlines() == ["v", "4.687251893", "0.3333333333", "2"]


def test_a_table_and_a_figure_of_one_name_are_both_kept(tmp_path):
    """belote_ismcts saves a table and a figure called trick_win_rate: the figure's record
    replaced the table's, so pruning deleted the table and every run rewrote PROVENANCE."""
    import matplotlib.pyplot as plt

    s = Session.create("quickstart", "smoke", seed=0, workers=1)
    s.save_table(pd.DataFrame({"v": [1.0]}), "same")
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("x (units)")
    ax.set_ylabel("y (units)")
    s.save_figure(fig, "same")
    plt.close(fig)
    s.save_table(pd.DataFrame({"v": [2.0]}), "same")  # saving again replaces its own record
    assert sorted(o["kind"] for o in s.outputs if o["name"] == "same") == ["figure", "table"]
    assert session.prune_unlisted(s.figures_dir) == []
    assert (s.figures_dir / "same.csv").is_file() and (s.figures_dir / "same.png").is_file()


def test_timing_tables_go_to_the_ignored_timing_folder(tmp_path):
    s = Session.create("quickstart", "smoke", seed=0, workers=1)
    paths = s.save_timing_table(pd.DataFrame({"cpu_s": [0.1]}), "cpu")
    assert all(p.parent == s.figures_dir / "timing" for p in paths)
    assert "timing/cpu.csv" in (s.figures_dir / "outputs.csv").read_text()


def _quickstart_run(monkeypatch, data_dir):
    """The quickstart notebook's calls, on a published run (smoke stands in for default)."""
    monkeypatch.setattr(session, "PUBLISHED_PRESETS", {"smoke": ""})
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(data_dir))
    s = Session.create("quickstart", "smoke", seed=0, workers=1)
    assert s.published
    results = s.run(quickstart.tasks(s.cfg), progress=False)
    quickstart.plot(results, s)
    quickstart.claims(results, s)
    return s


def _snapshot(*folders):
    return {p: p.read_bytes() for folder in folders for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_quickstart_twice_gives_identical_files_and_replots_from_results(tmp_path, monkeypatch):
    first = _quickstart_run(monkeypatch, tmp_path / "data_a")
    figures, results = first.figures_dir, first.committed.path
    assert figures == tmp_path / "figures" / "quickstart"
    assert {"PROVENANCE.json", "claims.csv", "exploitability_vs_iterations.svg"} <= {
        p.name for p in figures.iterdir()}
    assert {"RUN.json", "PROVENANCE.json", "results.parquet"} <= {p.name for p in results.iterdir()}
    before = _snapshot(figures, results)
    prov = json.loads((figures / "PROVENANCE.json").read_text())
    assert {"commit", "dirty", "versions", "preset", "seed", "cpu_seconds"} <= set(prov)
    assert prov["cpu_seconds"] > 0 and prov["versions"]["numpy"]

    # A fresh clone: no local cache, same code and committed results -> no compute, same bytes.
    stats_seen = []
    real_run = session.run
    monkeypatch.setattr(session, "run", lambda *a, **k: stats_seen.append(k["stats"])
                        or real_run(*a, **k))
    _quickstart_run(monkeypatch, tmp_path / "data_b")
    assert stats_seen[0].computed == 0 and stats_seen[0].from_committed == stats_seen[0].total
    assert _snapshot(figures, results) == before

    # No file but PROVENANCE.json names the commit.
    commit = prov["commit"]
    if commit:
        holders = [p.name for p, b in before.items() if commit.encode() in b]
        assert sorted(set(holders)) == ["PROVENANCE.json"]


def test_provenance_is_rewritten_only_when_an_output_changes(tmp_path, monkeypatch):
    s = _quickstart_run(monkeypatch, tmp_path / "data")
    path = s.figures_dir / "PROVENANCE.json"
    path.write_text(path.read_text().replace('"seed": 0', '"seed": 0, "marker": 1'))
    _quickstart_run(monkeypatch, tmp_path / "data")
    assert '"marker": 1' in path.read_text()  # nothing changed: the stamp stays
    (s.figures_dir / "claims.csv").write_text("tampered")
    _quickstart_run(monkeypatch, tmp_path / "data")
    assert '"marker": 1' not in path.read_text()


def test_git_state_reports_commit_and_ignores_output_folders(tmp_path):
    state = committed.git_state(tmp_path)  # not a checkout
    assert state == {"commit": None, "dirty": None}


def test_git_state_is_dirty_only_for_edits_a_result_depends_on(tmp_path):
    """Regression: a PROVENANCE.json committed during ``make figures`` read ``"dirty": true``
    because ``make readme-tables`` had just rewritten README.md; only code and notebooks count."""
    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    for rel in ("README.md", "figures/a/claims.csv", "lib/infosets/x.py", "notebooks/a.ipynb"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("v1\n")
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    for rel in ("README.md", "figures/a/claims.csv"):
        (tmp_path / rel).write_text("v2\n")
    assert committed.git_state(tmp_path)["dirty"] is False
    (tmp_path / "lib/infosets/x.py").write_text("v2\n")
    state = committed.git_state(tmp_path)
    assert state["dirty"] is True and len(state["commit"]) == 40


def test_prune_unlisted_removes_outputs_of_an_older_design_only(tmp_path):
    """Regression: figures of an older preset design stayed in figures/<slug>/ (five stale
    pimcts figures, belote's trick_win_rate table) because nothing removed unlisted files."""
    folder = tmp_path / "slug"
    (folder / "timing").mkdir(parents=True)
    (folder / "paper").mkdir()
    for rel in ("a.csv", "a.md", "old.png", "timing/t.csv", "timing/old.csv", "paper/x.png",
                "PROVENANCE.json", "outputs.md"):
        (folder / rel).write_text("x")
    pd.DataFrame([{"name": "a", "kind": "table", "paper_ref": "", "files": "a.csv a.md"},
                  {"name": "t", "kind": "timing", "paper_ref": "", "files": "timing/t.csv"}]
                 ).to_csv(folder / "outputs.csv", index=False)
    removed = session.prune_unlisted(folder)
    assert [p.relative_to(folder).as_posix() for p in removed] == ["old.png", "timing/old.csv"]
    left = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert left == ["PROVENANCE.json", "a.csv", "a.md", "outputs.csv", "outputs.md",
                    "paper/x.png", "timing/t.csv"]


def test_a_figure_name_with_a_dot_keeps_it_and_spares_its_neighbour():
    """``Path.with_suffix`` cut "rate_0.5" to "rate_0.png": a figure named after a float
    overwrote its neighbour silently (then a guard refused such names). ``plots.figure_path``
    appends the extension, so both figures are kept under their own names."""
    import matplotlib.pyplot as plt

    s = Session.create("quickstart", "smoke", seed=0, workers=1)
    for name, y in (("rate_0", "a (units)"), ("rate_0.5", "b (units)")):
        fig, ax = plt.subplots()
        ax.set(xlabel="x (units)", ylabel=y)
        paths = s.save_figure(fig, name)
        plt.close(fig)
        assert [p.name for p in paths] == [f"{name}.png", f"{name}.svg"]
    assert "a (units)" in (s.figures_dir / "rate_0.svg").read_text()
    assert "b (units)" in (s.figures_dir / "rate_0.5.svg").read_text()
    assert not list(s.figures_dir.glob(".*tmp"))  # no temporary file left


@pytest.mark.parametrize("name", ["table 2", "a\tb", "sub/table", ""])
def test_an_output_name_that_is_not_one_file_stem_is_refused(name):
    """outputs.csv lists a record's files separated by spaces: "table 2" was written, listed
    as "table 2.csv table 2.md", and then deleted by prune_unlisted as unlisted."""
    s = Session.create("quickstart", "smoke", seed=0, workers=1)
    with pytest.raises(ValueError, match=r"^name: .* must be one file stem"):
        s.save_table(pd.DataFrame({"v": [1.0]}), name)
    assert not [p for p in s.figures_dir.rglob("*") if p.suffix in (".csv", ".md")
                and p.name not in ("outputs.csv", "outputs.md")]


def test_committed_preset_folders_hold_a_finished_run():
    """Regression (2026-11-27): a partial paper-preset folder of a run still in progress (its
    parameter tables and outputs list, no claims yet) was committed along with a default
    replot. A committed figures/<slug>/<preset>/ folder is a finished run: it has its claims,
    its outputs list and its provenance."""
    root = config.repo_root()
    listed = subprocess.run(["git", "ls-files", "figures"], cwd=root, capture_output=True,
                            text=True, check=True).stdout.split()
    folders = {"/".join(p.split("/")[:3]) for p in listed if len(p.split("/")) >= 4}
    assert folders, "no committed preset folder"
    for folder in sorted(folders):
        tracked = {p.rsplit("/", 1)[1] for p in listed if p.startswith(folder + "/")}
        assert {"claims.csv", "outputs.csv", "PROVENANCE.json"} <= tracked, folder


def test_a_task_in_both_the_local_store_and_results_counts_its_cpu_once(tmp_path, monkeypatch):
    """Machine A stops after 3 tasks; machine B resumes from results/, stops after 5, then
    resumes again with its own store holding tasks 3-4 that results/ also holds. The committed
    CPU seconds are each task's own, once (the old runner added tasks 3-4 twice)."""
    monkeypatch.setattr(session, "PUBLISHED_PRESETS", {"smoke": ""})
    tasks = [Task(busy_rows, {"i": i}) for i in range(7)]
    ids = [t.task_id for t in tasks]
    def run():
        s = Session.create("quickstart", "smoke", seed=0, workers=1)
        s.run(tasks, name="busy", progress=False)
        return s

    s = run_on_two_machines(run, tmp_path, monkeypatch)
    cfg = s.cfg
    on_a, on_b = (task_cpu(tmp_path / m, cfg, "busy", ids) for m in ("a", "b"))
    assert set(on_a) == set(ids[:3]) and set(on_b) == set(ids[3:])
    spent = {**on_a, **on_b}
    table = s.committed.provenance()["tables"]["busy"]
    assert table["tasks_done"] == 7
    assert table["cpu_seconds"] == pytest.approx(sum(spent.values()), abs=0.01)


def test_provenance_counts_every_sweep_of_a_rerun_that_reproduces_its_outputs(tmp_path,
                                                                              monkeypatch):
    """Regression: a run under a new key whose outputs came out identical (belote_ismcts,
    2026-11-27) rewrote PROVENANCE.json at its first output only, so the sweeps that ran after
    it were missing from ``cpu_seconds_by_sweep``."""
    monkeypatch.setattr(session, "PUBLISHED_PRESETS", {"smoke": ""})
    monkeypatch.setenv("INFOSETS_DATA_DIR", str(tmp_path / "data"))

    def two_sweeps():
        s = Session.create("quickstart", "smoke", seed=0, workers=1)
        first = s.run(quickstart.tasks(s.cfg), name="first", progress=False)
        s.save_table(first.head(3), "first_rows")
        second = s.run(quickstart.tasks(s.cfg)[:2], name="second", progress=False)
        s.save_table(second.head(3), "second_rows")
        return s

    path = two_sweeps().figures_dir / "PROVENANCE.json"
    prov = json.loads(path.read_text())
    path.write_text(json.dumps({**prov, "run_id": "an earlier key"}))
    two_sweeps()
    rewritten = json.loads(path.read_text())
    assert rewritten["run_id"] == prov["run_id"]
    assert set(rewritten["cpu_seconds_by_sweep"]) == {"first", "second"}


def test_the_engine_is_compiled_before_computing_and_never_for_a_replot(tmp_path, monkeypatch):
    """``make figures`` used to compile the numba engine first, every time: on a fresh clone
    that was 8 minutes before a replot that needs no compiled code. Now the session compiles
    it when a sweep first has a task to compute on parallel workers, before they start; a
    serial run compiles only what its tasks call (quickstart's call none)."""
    events = []
    monkeypatch.setattr(session, "warm_engine", lambda cfg: events.append("warm"))
    real = session.make_executor

    def spy(*args, **kwargs):
        events.append("executor")
        return real(*args, **kwargs)

    monkeypatch.setattr(session, "make_executor", spy)
    s = Session.create("quickstart", "smoke", seed=0, workers=1, overrides=TINY)
    first = s.run(quickstart.tasks(s.cfg), progress=False)
    s.close()
    assert events == ["executor"]  # serial: nothing compiled ahead
    events.clear()
    pool = Session.create("quickstart", "smoke", seed=1, workers=2, overrides=TINY)
    pool.run(quickstart.tasks(pool.cfg), progress=False)
    pool.close()
    assert events == ["executor", "warm"]  # before the first task reaches a worker
    events.clear()
    again = Session.create("quickstart", "smoke", seed=0, workers=1, overrides=TINY)
    pd.testing.assert_frame_equal(again.run(quickstart.tasks(again.cfg), progress=False), first)
    assert events == []  # every task cached: no compile, no workers


def test_every_committed_run_is_under_the_current_key():
    """A committed results/<slug>/<preset>/ written under another key is recomputed by the
    next `make figures`, which then leaves git status dirty on a clean clone. An edit to a
    module a paper imports must come with its rerun, or `make rekey` when it moves no number
    (2026-11-28: plots.py gained a parameter, which moved quickstart's key)."""
    from infosets.experiments.committed import CommittedResults

    root = config.repo_root() / "results"
    folders = sorted(p for p in root.glob("*/*") if (p / "RUN.json").is_file())
    assert folders, "no committed results"
    for folder in folders:
        cfg = config.load(folder.parent.name, folder.name)
        shipped = CommittedResults(cfg, root=root)
        assert shipped.valid(), (f"{folder.relative_to(root)} holds run "
                                 f"{shipped.recorded_run_id()}, the code gives {shipped.run_id}")


def test_every_committed_figures_folder_is_under_the_current_key():
    """The same for the figures of a notebook without result tables (play_belote): its
    PROVENANCE.json names the run, so a key moved by an edit to its modules rewrites that file
    at the next `make figures` (2026-11-28: play/belote_match.py gained its settings check)."""
    import json

    from infosets.experiments.session import PUBLISHED_PRESETS
    from infosets.experiments.store import run_id

    root = config.repo_root() / "figures"
    for slug in sorted(p.name for p in root.iterdir() if p.is_dir()):
        for preset, sub in PUBLISHED_PRESETS.items():
            path = root / slug / sub / "PROVENANCE.json"
            if not path.is_file():
                continue
            recorded = json.loads(path.read_text())["run_id"]
            current = run_id(config.load(slug, preset))
            assert recorded == current, f"{path.relative_to(root)}: run {recorded}, code {current}"


def test_the_engine_is_warmed_for_the_games_the_config_plays(monkeypatch):
    """Regression: ``warm_engine`` warmed every game the paper module names (eleven for
    pimcts_aggregation) when the smoke config plays two; a fresh machine compiled nine games'
    engines for nothing."""
    from infosets.search import warm_cache

    warmed = []
    monkeypatch.setattr(warm_cache, "warm", lambda games, progress=True: warmed.extend(games) or 0.0)
    session.warm_engine(config.load("pimcts_aggregation", "smoke", seed=0))
    assert sorted(warmed) == sorted(set(store.games_in_values(
        config.load("pimcts_aggregation", "smoke", seed=0).values)))
    assert "love_letter" not in warmed and "leduc_poker" in warmed
