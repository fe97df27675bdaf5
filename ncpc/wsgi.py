"""The WSGI application gunicorn serves (``ncpc.wsgi``), one per worker process."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ncpc.settings")
application = get_wsgi_application()
