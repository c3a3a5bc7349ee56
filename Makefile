# infosets: every target creates .venv from pyproject.toml if it is missing.
# The two commands a newcomer types:  make figures   and   make test

PYTHON_BOOT ?= python3
VENV        := .venv
PY          := $(VENV)/bin/python
STAMP       := $(VENV)/.installed
PRESET      ?= default
PAPER       ?=
DASK        ?=
OUT         ?=
PYTEST_ARGS ?=
SEED        ?=
SEAT        ?=
PLAY_ARGS   ?=
LAB_ARGS    ?=
KEEP        ?=
export MPLBACKEND ?= Agg
# glibc keeps freed memory in each process (lib/infosets/core/allocator.py): the compiled
# searches' tree arrays are reused instead of faulted in again (Stratego: 0.33 -> 0.04 CPU-s
# per IS-MCTS decision, benchmarks/bench_allocator.py). Results do not depend on it.
export MALLOC_MMAP_MAX_ ?= 0
export MALLOC_TRIM_THRESHOLD_ ?= 1073741824

.DEFAULT_GOAL := help
.PHONY: help venv figures rekey progress readme-tables reports-check smoke test lint bench lab play-belote clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'
	@echo "  variables: PRESET=smoke|default|paper|full  PAPER=<slug>  (e.g. make figures PAPER=belief_mixtures)"
	@echo "  figures: DASK=tcp://host:8786|local-dask runs the sweeps on a Dask cluster (meant for PRESET=full)"
	@echo "  figures: OUT=DIR puts every output (notebooks, logs, figures, data, results, reports) under DIR, not in the clone"
	@echo "  play-belote: SEED=<n> SEAT=0|1|random  PLAY_ARGS='--iterations 500 --exploration 82 --log PATH'"
	@echo "  smoke/lab: KEEP=1 (make smoke keeps its folder)  LAB_ARGS=\"--port=8890 --no-browser\" (make lab)"

# The install goes through uv (a bootstrap tool pinned here, not a dependency): the same versions
# as pip's (pip freeze of both, diffed: uv itself is the only extra line), in 44-47 CPU-s against
# pip's 58-60 (fresh clone, no download cache, the machine loaded), spread over the cores (pip's
# install is most of `make test`'s single-core start: 55 s wall on a quiet machine).
# --compile-bytecode: pip writes every module's .pyc at install, uv only when asked; without
# them (and with PYTHONDONTWRITEBYTECODE set) every process, each test worker and notebook
# kernel, compiles numpy, pandas, numba, ... from source again: 5 to 7 CPU-s a process.
# If uv cannot be installed or cannot reach the index (a machine whose packages only pip's own
# configuration finds: uv reads no pip.conf), pip installs instead.
UV_VERSION  := 0.13.9

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON_BOOT) -m venv $(VENV)
	{ $(PY) -m pip install --quiet uv==$(UV_VERSION) && \
	   $(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) -e ".[dev]"; } || { \
	   echo "uv install failed: installing with pip"; \
	   $(PY) -m pip install --quiet --upgrade pip && $(PY) -m pip install --quiet -e ".[dev]"; }
	@touch $(STAMP)

venv: $(STAMP) ## create .venv and install the package (editable) with dev tools

figures: $(STAMP) ## run every notebook headless at PRESET (default) or just PAPER=<slug> (DASK=<scheduler>, OUT=<dir>)
	@# no compile step: a sweep that has tasks to compute compiles the numba engine first
	@# (Session.executor); a replot from cached tables compiles nothing
	$(PY) -m infosets.experiments.run_notebooks --preset $(PRESET) $(if $(PAPER),--paper $(PAPER)) $(if $(DASK),--scheduler $(DASK)) $(if $(OUT),--out $(OUT))
	$(if $(OUT),,$(MAKE) --no-print-directory readme-tables)

rekey: $(STAMP) ## after a change meant to move no number: carry PAPER's committed tables at PRESET to the new code, once a covering sample recomputes equal; REDO=game=hearts recomputes those tasks instead, REDO='game=stratego&block=11' the tasks with both, REDO='tournament:game=stratego&block=11' only that sweep's (experiments/rekey.py)
	INFOSETS_REKEY=1 INFOSETS_REKEY_REDO='$(REDO)' $(MAKE) --no-print-directory figures PRESET=$(PRESET) $(if $(PAPER),PAPER=$(PAPER)) $(if $(DASK),DASK=$(DASK))

reports-check: $(STAMP) ## check reports/ (no errors, every figure shown, a summary box first, index.html) and render each page in headless Chromium: fails on a cut table cell or a table wider than the page
	@command -v chromium >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ]; then \
	  echo "installing Debian's chromium"; apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "reports-check needs chromium: sudo apt-get install chromium"; exit 1; fi; }
	$(PY) -m infosets.experiments.reports check
	$(PY) -m infosets.experiments.reports browser-check

progress: $(STAMP) ## how far each published run at PRESET (or just PAPER=<slug>) has got, from results/ (e.g. PRESET=paper)
	@$(PY) -m infosets.experiments.progress --preset $(PRESET) $(if $(PAPER),--paper $(PAPER))

readme-tables: $(STAMP) ## regenerate README.md's paper table and docs/results.md (every claim) from figures/*/claims.csv
	$(PY) -m infosets.experiments.readme_tables

smoke: $(STAMP) ## run every notebook at the smoke preset in a temporary folder (deleted on success unless KEEP=1)
	@tmp=$$(mktemp -d); echo "smoke outputs in $$tmp"; \
	$(PY) -m infosets.experiments.run_notebooks --preset smoke --out $$tmp $(if $(PAPER),--paper $(PAPER)); \
	rc=$$?; \
	if [ $$rc -eq 0 ] && [ "$(KEEP)" != "1" ]; then rm -rf "$$tmp"; echo "smoke passed; removed $$tmp (KEEP=1 keeps it)"; \
	else echo "smoke outputs kept in $$tmp"; fi; \
	exit $$rc

test: $(STAMP) ## the whole pytest suite, notebook smoke runs included (compiles the numba engine first)
	@# every test runs numba bounds-checked from the tests' own cache, build/numba-checked
	@# (tests/numba_env.py); every kernel game's engine is compiled there once before the parallel
	@# run and bounds-checked, as one queue over both cores, slowest first (tests/precompile.py)
	$(PY) tests/precompile.py --jobs 2
	@# the 25 slowest tests are listed at the end, to show where the 10-minute goal is lost; the
	@# bounds check's own test was run by the queue above (it stops on a failure); no test uses
	@# hypothesis's, anyio's or platformdirs' pytest plugins, which cost 1.4 CPU-s of import in
	@# each of pytest's three processes
	$(PY) -m pytest -n 2 --dist loadgroup -q --durations=25 \
	  -p no:hypothesispytest -p no:anyio -p no:platformdirs \
	  --deselect tests/games/test_kernels_boundscheck.py::test_kernel_and_engine_never_index_out_of_bounds $(PYTEST_ARGS)

lint: $(STAMP) ## ruff
	$(PY) -m ruff check lib tests benchmarks

bench: $(STAMP) ## run every benchmark (ratios against OpenSpiel / peers, JSON in benchmarks/results)
	@set -e; for b in benchmarks/bench_*.py; do echo "==> $$b"; $(PY) $$b; done

lab: $(STAMP) ## start JupyterLab in notebooks/ from .venv; the notebooks' python3 kernel is .venv's python (LAB_ARGS="--port=8890 --no-browser")
	@# .venv's kernelspecs first: a python3 kernelspec of the user's own does not replace it
	JUPYTER_PATH=$(CURDIR)/$(VENV)/share/jupyter $(VENV)/bin/jupyter lab --notebook-dir=notebooks $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

play-belote: $(STAMP) ## play two-player Belote against the IS-MCTS AI here (SEED=n SEAT=0|1|random)
	@$(PY) -m infosets.play.belote $(if $(SEED),--seed $(SEED)) $(if $(SEAT),--seat $(SEAT)) $(PLAY_ARGS)

clean: ## remove build outputs and caches (keeps .venv, data/ and figures/)
	rm -rf build .pytest_cache .ruff_cache dask-worker-space
	find . -name __pycache__ -type d -prune -not -path './.venv/*' -exec rm -rf {} +
