"""The club-wide wiring: the pages and files that combine every app (home, reports index, season file,
JSON report, spreadsheet import), the URL map and the admin. Nothing imports it but Django."""
