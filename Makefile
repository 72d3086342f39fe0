# sarek-layout: everything a newcomer needs is `make demo` and `make test`.
# The first target that needs it creates .venv and installs the package with its test extras.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SAREK  := $(BIN)/sarek-layout
EXAMPLE_SCHEMAS := examples/geometry.toml

.PHONY: all demo test venv generate check-generated clean

all: test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

venv: $(STAMP)

## demo: lay out the bundled example schema
demo: $(STAMP)
	$(SAREK) layout $(EXAMPLE_SCHEMAS)

## test: the whole test suite (missing optional toolchains skip with a reason)
test: $(STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
