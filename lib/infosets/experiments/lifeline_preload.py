"""Imported by the multiprocessing forkserver only (its preload): the forkserver dies with
the process that started it (see ``lifeline``; all papers). Never import it elsewhere."""

from infosets.experiments.lifeline import die_with_parent

die_with_parent(pdeathsig=False)  # a forkserver may outlive the thread that started it
