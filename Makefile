# Two commands on a fresh machine with only Python 3.11+:
#   make run   - set everything up and play one seeded game of The Queen's Wishes between bots
#   make test  - set everything up and run the whole suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lint run test setup clean snapshots soak fuzz bench load load-long strength strength-quick strength-full install-check docs

run: $(STAMP)
	$(BIN)/meeple run queens_wishes --players 3 --seed 7 --agents greedy,random,random

# On every core; worksteal: an idle worker takes queued tests from the other (a few tests are long).
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist worksteal

# The house rules on their own: the import layers (docs/architecture.md), ruff and the type checker
# (mypy, [tool.mypy] in pyproject.toml). (Also part of `make test`: tests/test_house.py, tests/test_types.py.)
lint: $(STAMP)
	$(BIN)/lint-imports
	$(BIN)/python -m mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Regenerate the reviewed snapshot traces after an intended change (read the diff!).
snapshots: $(STAMP)
	$(BIN)/python -m pytest -n 0 tests --snapshot-update

# The wheel holds only `meeple`, and a fresh core install (no extras) plays every game; prints its size.
# (Also part of `make test`.)
install-check: $(STAMP)
	$(BIN)/python -m pytest tests/test_wheel.py tests/test_core_install.py -s

# Long runs, not part of `make test`.
soak: $(STAMP)
	$(BIN)/python benchmarks/soak.py --games 10000 --jobs 2

# The fuzz test with ten times the mutants of `make test` (about half an hour).
fuzz: $(STAMP)
	MEEPLE_FUZZ_MUTANTS=3000 $(BIN)/python -m pytest tests/test_fuzz.py

# The play table under load (about a minute): 50 tables at once, two people each plus a bot; prints the
# round trips (p99), errors, the server's memory and the tables after a kill -9 and restart
# (docs/reliability.md has the figures). load-long: the same for 10 minutes.
load: $(STAMP)
	$(BIN)/python benchmarks/table_load.py --tables 50 --seconds 60

load-long: $(STAMP)
	$(BIN)/python benchmarks/table_load.py --tables 50 --seconds 600

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/compare_peers.py --seconds 2 --repeats 3

# How well the bots play (issue 14's figures: the best agent's self-play, duels against greedy and
# the previous mcts, cost per agent; then the quick agent's self-play and its duels against greedy
# in each game); 10 games per figure. `make strength-quick`: 4 games per figure.
strength: $(STAMP)
	$(BIN)/python benchmarks/agent_strength.py --games 10 --jobs 2
	$(BIN)/python benchmarks/agent_strength.py --agent quick --part figures --part duels --opponent greedy --games 10 --jobs 2

strength-quick: $(STAMP)
	$(BIN)/python benchmarks/agent_strength.py --quick --jobs 2

# The issue's bars on as many games as they are judged by (about an hour on 2 quiet cores): the
# self-play figures on 100 seeds, the Queen's Wishes duel of rollout against greedy on 160, its
# games kept in strength-games-COMMIT.jsonl to pool with runs on other seeds (SEED=541 for new ones).
SEED ?= 1
strength-full: $(STAMP)
	$(BIN)/python benchmarks/agent_strength.py --part figures --games 100 --jobs 2 --seed $(SEED)
	$(BIN)/python benchmarks/agent_strength.py --agent rollout --part duels --game queens_wishes --opponent greedy \
		--games 160 --jobs 2 --seed $(SEED) --games-file strength-games-$(shell git rev-parse --short HEAD 2>/dev/null).jsonl

# The docs as a site in site/ (mkdocs-material; docs/README.md is its index); --strict: a broken
# link or anchor is an error. `.venv/bin/mkdocs serve` shows it while you edit.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

setup: $(STAMP)

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,web,lab,lsp,research,lint,docs]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) build *.egg-info
