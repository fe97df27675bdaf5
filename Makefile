# Two commands for a fresh machine: `make run` and `make test` (see README).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
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

run: demo
	$(BIN)/python manage.py runserver 0.0.0.0:$(PORT)

test: venv
	$(BIN)/python -m pytest

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The services and selectors, fully annotated (the files and settings are [tool.mypy] in pyproject.toml).
typecheck: venv
	$(BIN)/mypy

# Production-like: needs SECRET_KEY and ALLOWED_HOSTS (and DATABASE_URL for PostgreSQL) in the environment.
serve: venv
	DJANGO_DEBUG=0 $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=0 $(BIN)/python manage.py collectstatic --noinput -v0
	DJANGO_DEBUG=0 $(BIN)/gunicorn ncpc.wsgi --workers $${WEB_CONCURRENCY:-2} --bind 0.0.0.0:$(PORT) --access-logfile -

clean:
	rm -rf $(VENV) var/staticfiles
