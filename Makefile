# sarek-layout: everything a newcomer needs is `make demo` and `make test`.
# The first target that needs it creates .venv and installs the package with its test extras.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SAREK  := $(BIN)/sarek-layout
EXAMPLE_SCHEMAS := examples/geometry.toml

.PHONY: all demo test test-loaded venv generate check-generated clean

all: test

# Said before each step: pip works quietly for about a minute on a fresh clone, and a silent
# prompt that long looks like a hang.
$(STAMP): pyproject.toml
	@echo "make: creating the virtual environment $(VENV) (once, and again when pyproject.toml changes)"
	$(PYTHON) -m venv $(VENV)
	@echo "make: installing sarek-layout and its test extras (pytest, hypothesis, numpy, cffi, mypy, ziglang...) into $(VENV) with pip: about a minute, quietly"
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@
	@echo "make: $(VENV) is ready"

venv: $(STAMP)

## demo: the main job on the bundled example: layout report, headers for every target,
## verification with every installed compiler, and the end-to-end run (steps whose
## toolchain is missing say "skipped")
DEMO_OUT := build/demo
demo: $(STAMP)
	$(SAREK) layout $(EXAMPLE_SCHEMAS)
	$(SAREK) generate $(EXAMPLE_SCHEMAS) -o $(DEMO_OUT) -t c -t cuda -t opencl -t python -t glsl -t wgsl -t metal -t hlsl -t zig -t rust -t typescript
	$(SAREK) verify $(EXAMPLE_SCHEMAS)
	$(BIN)/python examples/e2e/run_e2e.py --out $(DEMO_OUT)/e2e

## test: the whole test suite (missing optional toolchains skip with a reason), on every
## core (pytest-xdist; work stealing, because a few compiler runs take most of the time).
## PYTEST_ARGS adds options: make test PYTEST_ARGS="-k verify -n 0"
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist worksteal $(PYTEST_ARGS)

## test-loaded: the whole suite with a CPU hog on every core (stress-ng --cpu N, or
## tests/helpers/cpu_hog.py when stress-ng is not installed), as on a busy CI machine. The tests
## bound CPU time, not wall time (tests/helpers/bounded.py), so the load must not fail any of them.
## LOAD_CPUS sets N (default: every core); PYTEST_ARGS as for test, e.g. a few files.
LOAD_CPUS ?= $(shell nproc 2>/dev/null || echo 2)
test-loaded: $(STAMP)
	@if command -v stress-ng >/dev/null 2>&1; then stress-ng --cpu $(LOAD_CPUS) --quiet & \
	else $(BIN)/python tests/helpers/cpu_hog.py $(LOAD_CPUS) & fi; hog=$$!; \
	trap 'kill $$hog 2>/dev/null; wait $$hog 2>/dev/null' EXIT INT TERM; \
	echo "load: $(LOAD_CPUS) CPU hogs (pid $$hog)"; \
	$(BIN)/python -m pytest -n auto --dist worksteal $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis

## generate: regenerate the checked-in headers of the example schemas (generated/)
generate: $(STAMP)
	$(SAREK) generate $(EXAMPLE_SCHEMAS) -o generated

## check-generated: fail when generated/ is stale (writes nothing)
check-generated: $(STAMP)
	$(SAREK) generate $(EXAMPLE_SCHEMAS) -o generated --check

.PHONY: docs check-docs

## docs: redraw the byte map of the example schema shown in the README (docs/geometry.svg)
docs: $(STAMP)
	$(SAREK) explain $(EXAMPLE_SCHEMAS) --svg docs/geometry.svg > /dev/null

## check-docs: fail when docs/geometry.svg is stale (writes nothing)
check-docs: $(STAMP)
	$(SAREK) explain $(EXAMPLE_SCHEMAS) --svg docs/geometry.svg --check > /dev/null

.PHONY: bench

## bench: the benchmark suite, never part of `make test`: prints a table and writes
## docs/benchmarks.md (what is not installed is skipped with the line that installs it)
bench: $(STAMP)
	$(BIN)/python bench/run.py

.PHONY: fuzz

## fuzz: coverage-guided fuzzing (atheris, libFuzzer): each harness of fuzz/ in turn for
## FUZZ_SECONDS (default 60); corpus, findings and logs in build/fuzz/; exit 1 on a finding.
## FUZZ_HARNESSES picks some: make fuzz FUZZ_HARNESSES="ocaml dwarf" FUZZ_SECONDS=600
FUZZ_SECONDS ?= 60
FUZZ_HARNESSES ?=
fuzz: $(STAMP)
	$(BIN)/python -c "import atheris" 2>/dev/null || $(BIN)/python -m pip install --quiet atheris
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(BIN)/python fuzz/run.py $(FUZZ_HARNESSES)
