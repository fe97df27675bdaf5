"""The WSGI application gunicorn serves (``ncpc.wsgi``), one per worker process."""

import gc
import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ncpc.settings")
application = get_wsgi_application()

# What is loaded now (Django, the apps and their models, and the URL map with the views, forms and services it
# imports) lives as long as the worker. gc.freeze() moves it out of the garbage collector's generations, so a
# full collection no longer walks those ~150,000 objects: it took about 60 ms, once every few hundred requests
# of the heavier pages, and held up every request waiting on the worker meanwhile (docs/performance.md).
import_module(settings.ROOT_URLCONF)
gc.freeze()
