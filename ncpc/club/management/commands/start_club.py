"""The first command of a new club (SPEC §16.8): the first officer's login, President from today.

Everything else (the club's name, seasons, rules, venues, officers' terms, the roster, opening balances,
invitations) is done in the app, guided by the set-up checklist on the home page.
"""

import getpass
import os

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.text import slugify

from members.services.logins import first_officer_create, president_now, username_problem
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.mail import email_problem, site_link

# The environment variable's name, not a password.
PASSWORD_VARIABLE = "NCPC_START_PASSWORD"  # noqa: S105  # nosec B105


class Command(BaseCommand):
    help = (
        "Make the first officer's login (a person, a login, and a President's term from today to 31 May), on an "
        "empty database. Asks for what is not given; --no-input takes it all from the options (the password "
        f"from --password or the {PASSWORD_VARIABLE} environment variable). Refused while someone is President."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", help="The login's name.")
        parser.add_argument("--email", help="The officer's e-mail: the login's e-mail too.")
        parser.add_argument("--first-name", dest="first_name")
        parser.add_argument("--last-name", dest="last_name")
        parser.add_argument("--key", help="The person's handle in the app (default: from the username).")
        parser.add_argument(
            "--password", help=f"The password (beware the shell history: {PASSWORD_VARIABLE} is safer)."
        )
        parser.add_argument(
            "--no-input", "--noinput", action="store_false", dest="interactive", help="Ask for nothing."
        )

    def handle(self, *args, **options) -> None:
        today = club_today()
        if (term := president_now(on=today)) is not None:
            raise CommandError(
                f"{term.person} is President until {term.end:%b %-d, %Y}: officers' terms are changed in the app "
                "(Officers → Officers' terms). Nothing was created."
            )
        interactive = options["interactive"]
        values = {
            "first_name": options["first_name"] or "",
            "last_name": options["last_name"] or "",
            "email": options["email"] or "",
            "username": options["username"] or "",
        }
        password = options["password"] or os.environ.get(PASSWORD_VARIABLE, "")
        if interactive:
            values["first_name"] = values["first_name"] or self._ask("First name")
            values["last_name"] = values["last_name"] or self._ask("Last name")
            values["email"] = values["email"] or self._ask("E-mail", check=email_problem)
            values["username"] = values["username"] or self._ask(
                "Username", default=slugify(values["first_name"]), check=username_problem
            )
        missing = [name.replace("_", "-") for name, value in values.items() if not value.strip()]
        if missing:
            raise CommandError(f"Give --{', --'.join(missing)} (or run without --no-input to be asked).")
        if not password:
            if not interactive:
                raise CommandError(f"Give --password or set {PASSWORD_VARIABLE}.")
            password = self._ask_password()
        key = options["key"] or slugify(values["username"])[:40] or "president"
        try:
            person, user, term = first_officer_create(password=password, key=key, on=today, **values)
        except NcpcError as exc:
            raise CommandError(f"{exc} Nothing was created.") from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"Created the login '{user.get_username()}' for {person}, President from {term.start:%b %-d, %Y} "
                f"to {term.end:%b %-d, %Y}."
            )
        )
        self.stdout.write(
            f"Log in at {site_link('/accounts/login/')}: the home page shows the set-up checklist (also under "
            "Officers → Set-up)."
        )

    def _ask(self, label: str, *, default: str = "", check=None) -> str:
        while True:
            prompt = f"{label}{f' [{default}]' if default else ''}: "
            answer = input(prompt).strip() or default
            problem = check(answer) if (check and answer) else ""
            if answer and not problem:
                return answer
            self.stderr.write(problem or f"{label} is needed.")

    def _ask_password(self) -> str:
        while True:
            first = getpass.getpass("Password: ")
            if first != getpass.getpass("Password again: "):
                self.stderr.write("The two passwords differ.")
                continue
            return first
