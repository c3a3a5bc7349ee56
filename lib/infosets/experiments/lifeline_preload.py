"""Imported by the multiprocessing forkserver only (its preload), for every paper: the
forkserver dies with the process that started it (``lifeline``), and it and the pool workers
it forks keep freed memory for the next search (``core.allocator``). Never import it elsewhere."""

from infosets.core.allocator import keep_freed_memory
from infosets.experiments.lifeline import die_with_parent

die_with_parent(pdeathsig=False)  # a forkserver may outlive the thread that started it
keep_freed_memory()
