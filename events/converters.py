"""URL converter for season names like 2026-27, so fixed words (rules/, venues/) never clash with a season."""


class SeasonConverter:
    regex = r"\d{4}-\d{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value) -> str:
        return str(value)
