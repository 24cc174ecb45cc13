# railbird — every entry point installs what it needs into .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
SRC    := railbird api ingest store rules detectors sim tests bench

.PHONY: install lint format test test-fast fuzz demo kafka-fetch kafka-up kafka-down kafka-status \
        pg-up pg-down \
        bench bench-chat bench-kafka bench-scan bench-store bench-api bench-join bench-console clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check $(SRC)
	$(BIN)/ruff format --check $(SRC)
	$(BIN)/mypy
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff format $(SRC)
	$(BIN)/ruff check --fix $(SRC)

# The whole suite: lint, unit tests, and integration tests against a real Kafka broker and a
# real PostgreSQL that the test fixtures start themselves (skipped locally if they cannot start,
# a failure under CI=true).
test: lint
	$(BIN)/pytest

# Schemathesis over every route with each role's key, 200 cases a route and role (`make test`
# runs 5 of them).
fuzz: install
	RAILBIRD_FUZZ_EXAMPLES=200 $(BIN)/pytest -q tests/api/test_schema_fuzz.py

test-fast: install
	$(BIN)/pytest -m "not kafka and not postgres and not browser"

demo: install
	$(BIN)/railbird demo

kafka-fetch:
	scripts/kafka/kafka.sh fetch

kafka-up: install
	scripts/kafka/kafka.sh up && scripts/kafka/kafka.sh topics

kafka-down:
	scripts/kafka/kafka.sh down

kafka-status:
	scripts/kafka/kafka.sh status

pg-up:
	scripts/postgres.sh up

pg-down:
	scripts/postgres.sh down

bench: bench-scan bench-chat bench-kafka bench-store bench-api bench-join bench-console

bench-scan: install
	$(BIN)/python -m bench.scan_bench

bench-chat: install
	$(BIN)/python -m bench.chat_speed
	$(BIN)/python -m bench.chat_quality
	$(BIN)/python -m bench.ml_speed
	$(BIN)/python -m bench.ml_quality
	$(BIN)/python -m bench.chat_heldout

bench-kafka: install
	$(BIN)/python -m bench.kafka_bench

.PHONY: bench-kafka-faults bench-kafka-rss
# A simulated 7-hour day through `railbird run` on a broker of its own, one worker SIGTERMed
# and restarted, two workers with one killed -9: compared with `railbird scan --store`.
bench-kafka-faults: install
	$(BIN)/python -m bench.kafka_faults --out docs/benchmarks-kafka-faults.md

# Resident memory of each stage of one worker over a stream of more than a million events.
bench-kafka-rss: install
	$(BIN)/python -m bench.kafka_rss

bench-api: install
	$(BIN)/python -m bench.api_bench

bench-join: install
	$(BIN)/python -m bench.join_bench --out docs/benchmarks-join.md

bench-console: install
	$(BIN)/python -m bench.console_bench

bench-store: install
	$(BIN)/python -m bench.store_rows

.PHONY: bench-check-replay bench-in-hand
# The chat check with hand context over simulated days (held-out seeds): in-hand influence
# held or blocked, other talk during hands held (docs/benchmarks-check-replay.md).
bench-check-replay: install
	$(BIN)/python -m bench.check_replay --out docs/benchmarks-check-replay.md

# in_hand_influence on simulated days (held-out seeds) and the PHH hands (docs/quality-in-hand.md).
bench-in-hand: install
	$(BIN)/python -m bench.in_hand_eval --seeds 11 12 13 --players 500 --tournaments 2 --hours 3

.PHONY: bench-play bench-collusion train-play
# What reading play against the honest-decision model adds to scan, paired rounds
# (docs/benchmarks-play.md).
bench-play: install
	$(BIN)/python -m bench.play_cost --rounds 3

# Bounty collusion on held-out --wild days, one tactic at a time (docs/quality-collusion.md).
bench-collusion: install
	for t in sandwich isolate checkdown softplay chip_pass ko_steer; do \
	  $(BIN)/python -m bench.collusion_eval --wild --seeds 401 402 --tactics $$t \
	    --cache var/bcw --jobs 2 --misses --surface || exit 1; done

# The shipped honest-decision model trained again, into var/play-model, from the simulated
# days it learned from (docs/model-card-play.md).
train-play: install
	$(BIN)/python -m bench.play_training_days --out var/play-days
	$(BIN)/railbird train-play var/play-days/*.events.jsonl --out var/play-model

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache var
