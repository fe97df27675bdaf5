#!/usr/bin/env python
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ncpc.settings")
    # manage.py is the developer's and the operator's tool: debug on unless DJANGO_DEBUG says otherwise, so
    # `manage.py makemigrations` works from a fresh clone. The web server (ncpc/wsgi.py, `make serve`) keeps the
    # settings' default: off.
    os.environ.setdefault("DJANGO_DEBUG", "1")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
