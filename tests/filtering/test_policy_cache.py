"""Two processes training the same Oh Hell policy at once must not collide in its cache.

History filtering (arXiv 2311.14651) section 5.4 policies are cached per spec, episodes and
seed; with two workers on a fresh data folder both may train and write the same file. The old
code wrote both through one ``qtables_<hash>.tmp`` name, so the second rename failed
(FileNotFoundError, seen once in CI).
"""

import os
import threading

from infosets.filtering import policies
from infosets.filtering.policies import OhHellSpec, cached_policy

SPEC = OhHellSpec(3, 3, 4, 3)


def test_two_writers_of_one_policy_both_finish(tmp_path, monkeypatch):
    trained = threading.Barrier(2, timeout=20)  # both miss the cache and train
    written = threading.Barrier(2, timeout=20)  # both have written before either renames
    real_train, real_replace = policies.train_q_tables, os.replace

    def train(*args, **kwargs):
        tables = real_train(*args, **kwargs)
        trained.wait()
        return tables

    def replace(src, dst, *args, **kwargs):
        if str(dst).endswith(".json"):
            written.wait()
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(policies, "train_q_tables", train)
    monkeypatch.setattr(os, "replace", replace)
    results, errors = [], []

    def writer():
        try:
            results.append(cached_policy(SPEC, 50, 0.2, 7, tmp_path))
        except Exception as exc:  # noqa: BLE001 (collected for the assertion below)
            errors.append(exc)

    threads = [threading.Thread(target=writer) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(results) == 2 and results[0].tables == results[1].tables
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == [p.name for p in tmp_path.glob("qtables_*.json")]
    assert cached_policy(SPEC, 50, 0.2, 7, tmp_path).tables == results[0].tables
