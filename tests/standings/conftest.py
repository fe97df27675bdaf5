from tests.standings.factories import results  # noqa: F401  (fixture)
