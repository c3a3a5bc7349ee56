"""Notebook glue: snapshot the namespace, then validate the parameters papermill injected.

papermill only warns about parameters a notebook does not declare. ``snapshot(globals())``
runs before the parameters cell; ``start(slug, globals())`` then rejects any new name other
than the five declared ones (``preset, seed, workers, scheduler, overrides``) with a one-line
error, and builds the Session.

``snapshot`` also makes the kernel show a ``ConfigError`` as its one line
(``ConfigError: <parameter>: <reason>``) instead of a traceback through the library, so
papermill, ``make figures`` and JupyterLab all report a bad parameter at a glance.
"""

from __future__ import annotations

from infosets.experiments.config import ConfigError
from infosets.experiments.session import Session

NOTEBOOK_PARAMETERS = ("preset", "seed", "workers", "scheduler", "overrides")
_SNAPSHOT_KEY = "__infosets_snapshot__"


def one_line_error(etype, value) -> list[str]:
    """How a ConfigError is shown: its one line, no traceback."""
    return [f"{etype.__name__}: {value}"]


def _show_config_error(shell, etype, value, tb, tb_offset=None) -> list[str]:
    # IPython leaves the display to a custom handler: send the one line as the cell's error
    # (ipykernel turns it into the error output papermill and JupyterLab show).
    stb = one_line_error(etype, value)
    shell._showtraceback(etype, value, stb)
    return stb


def show_config_errors_as_one_line() -> bool:
    """In an IPython kernel, show every ConfigError as one line (True when installed)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None:
        return False
    shell.set_custom_exc((ConfigError,), _show_config_error)
    return True


def show_table_cells_in_full() -> None:
    """Show every table cell's whole text (pandas cuts it at 50 characters with "..." by
    default); the reports wrap long cells instead (``reports.py``, issue 54)."""
    import pandas as pd

    pd.set_option("display.max_colwidth", None)


def snapshot(namespace: dict) -> None:
    """Remember which names exist before the parameters cell runs (and, in a kernel,
    show ConfigErrors as one line)."""
    show_config_errors_as_one_line()
    show_table_cells_in_full()
    namespace[_SNAPSHOT_KEY] = frozenset(namespace) | {_SNAPSHOT_KEY}


def injected_names(namespace: dict) -> set[str]:
    before = namespace.get(_SNAPSHOT_KEY)
    if before is None:
        raise ConfigError("notebook: call nb.snapshot(globals()) before the parameters cell")
    return {n for n in set(namespace) - before if not n.startswith("_")
            and n not in ("In", "Out", "get_ipython", "exit", "quit", "open")}


def _display_path(path) -> str:
    """``path`` relative to the repository when inside it (the same text on every clone)."""
    from pathlib import Path

    from infosets.experiments.config import repo_root

    try:
        return str(Path(path).resolve().relative_to(repo_root().resolve()))
    except ValueError:
        return str(path)


def start(slug: str, namespace: dict) -> Session:
    """Validate the notebook's parameters and return the Session (prints the config)."""
    unknown = sorted(injected_names(namespace) - set(NOTEBOOK_PARAMETERS))
    if unknown:
        raise ConfigError(f"{unknown[0]}: unknown notebook parameter; expected only "
                          f"{', '.join(NOTEBOOK_PARAMETERS)} (put paper parameters in overrides)")
    missing = [n for n in NOTEBOOK_PARAMETERS if n not in namespace]
    if missing:
        raise ConfigError(f"{missing[0]}: missing from the parameters cell")
    session = Session.create(
        slug, namespace["preset"], seed=namespace["seed"], workers=namespace["workers"],
        scheduler=namespace["scheduler"], overrides=namespace["overrides"],
    )
    cfg = session.cfg
    print(f"{slug} · preset={cfg.preset} · seed={cfg.seed} · run_id={session.store.run_id}")
    where = "published" if session.published else "git-ignored: not a published preset/seed"
    print(f"  outputs -> {_display_path(session.figures_dir_path)} ({where})")
    for key, value in cfg.values.items():
        tag = " (derived)" if key in cfg.derived_keys else ""
        print(f"  {key} = {value!r}{tag}")
    return session
