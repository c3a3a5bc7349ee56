"""Where the papers' notebooks live and which exist (issue 14: paper scale).

Shared by the two command lines that take a ``--paper SLUG``: ``run_notebooks`` (which runs
them) and ``progress`` (which reports a run's counts), so neither imports the other for it.
"""

from __future__ import annotations

from pathlib import Path

from infosets.experiments.config import repo_root


def notebook_dir() -> Path:
    """``notebooks/`` at the repository root."""
    return repo_root() / "notebooks"


def available() -> list[str]:
    """Slugs of every notebook in notebooks/ (sorted)."""
    return sorted(p.stem for p in notebook_dir().glob("*.ipynb"))
