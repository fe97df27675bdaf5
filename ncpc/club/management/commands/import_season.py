"""python manage.py import_season FILE [--replace] — all or nothing (SPEC §13)."""

import sys

from django.core.management.base import BaseCommand, CommandError

from ncpc.club.services.season_file import SeasonFileError
from ncpc.club.services.season_import import season_import
from ncpc.core.errors import NcpcError
from ncpc.core.jsonread import JsonReadError, json_read


class Command(BaseCommand):
    help = "Import a season file (format ncpc-season/1). Nothing is written unless the whole file is valid."

    def add_arguments(self, parser):
        parser.add_argument("file", help="Path of the season file (JSON), or - for standard input.")
        parser.add_argument("--replace", action="store_true", help="Overwrite a season of the same name.")

    def handle(self, *args, file, replace, **options):
        try:
            if file == "-":
                raw = getattr(sys.stdin, "buffer", sys.stdin).read()
            else:
                with open(file, "rb") as handle:
                    raw = handle.read()
            data = json_read(raw, what=f"The season file {file}")
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from None
        except JsonReadError as exc:
            raise CommandError(str(exc)) from None
        try:
            season = season_import(data=data, replace=replace)
        except SeasonFileError as exc:
            raise CommandError(
                f"Nothing was imported; {len(exc.problems)} problem(s) in {file}:\n" + "\n".join(exc.problems)
            ) from None
        except NcpcError as exc:
            raise CommandError(f"Nothing was imported: {exc}") from None
        self.stdout.write(self.style.SUCCESS(f"Imported season {season}."))
