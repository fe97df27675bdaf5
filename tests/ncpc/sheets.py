"""Big spreadsheets for the import's speed test and benchmark (bench/import_sheets.py): made here, so the
test and the benchmark time the same files."""

import datetime as dt


def payments_csv(*, keys: list[str], rows: int, start: dt.date) -> str:
    """``rows`` payments spread over the members ``keys`` and the season's first 100 days (none after today:
    a payment cannot be dated in the future)."""
    lines = ["member,date,amount,method,reference"]
    for n in range(rows):
        day = start + dt.timedelta(days=n % 100)
        method = "check" if n % 3 == 0 else "cash"
        reference = f"#{1000 + n}" if method == "check" else ""
        lines.append(f"{keys[n % len(keys)]},{day},{10 + n % 90}.{n % 100:02d},{method},{reference}")
    return "\n".join(lines) + "\n"


def members_csv(*, rows: int, prefix: str = "imp") -> str:
    """``rows`` new members with an e-mail address, a phone, an address and a date of birth."""
    lines = ["key,first_name,last_name,email,phone,address,date_of_birth,first_event"]
    for n in range(rows):
        key = f"{prefix}{n:05d}"
        born = dt.date(1950, 1, 1) + dt.timedelta(days=n % 15000)
        lines.append(
            f"{key},First{n},Last{n},{key}@example.org,513-555-{n % 10000:04d},{n} Main St,{born},{1 + n % 10}"
        )
    return "\n".join(lines) + "\n"
