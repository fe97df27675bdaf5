# Two commands for a fresh machine: `make run` and `make test` (see README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# `make run` listens on this machine only; HOST=0.0.0.0 shows it to the local network (demo passwords!).
HOST ?= 127.0.0.1
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck serve venv migrate demo browser-deps clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

venv: $(STAMP)

migrate: venv
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py load_demo

# The mail worker runs beside the web server and stops with it (Ctrl-C).
run: demo
	$(BIN)/python manage.py db_worker --no-reload -v0 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# The whole suite on every core (pytest-xdist: each worker has its own test database and browser; an idle
# worker takes tests queued for a busy one); TEST_WORKERS=0 runs it in this one process.
# One file: .venv/bin/python -m pytest tests/<path>.py
TEST_WORKERS ?= auto
test: venv
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The services and selectors, fully annotated (the files and settings are [tool.mypy] in pyproject.toml).
typecheck: venv
	$(BIN)/mypy

# Production-like: needs SECRET_KEY and ALLOWED_HOSTS (and DATABASE_URL for PostgreSQL) in the environment.
# gunicorn and the mail worker; HOST=0.0.0.0 when the proxy runs on another machine.
serve: venv
	DJANGO_DEBUG=0 $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=0 $(BIN)/python manage.py collectstatic --noinput -v0
	DJANGO_DEBUG=0 $(BIN)/python manage.py db_worker --no-reload & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	DJANGO_DEBUG=0 $(BIN)/gunicorn ncpc.wsgi --workers $${WEB_CONCURRENCY:-2} --bind $(HOST):$(PORT) --access-logfile -

clean:
	rm -rf $(VENV) var/staticfiles
