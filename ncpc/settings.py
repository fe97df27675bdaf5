"""Settings for the NCPC club app, read from the environment.

Every value that differs between a laptop and the club's server comes from an environment variable; a
malformed value stops the start with a message that names the variable.
"""

import datetime as dt
import os
from email.utils import parseaddr
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no, on/off (got {raw!r}).")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number (got {raw!r}).") from None


# Off unless set: a server started without configuration never shows tracebacks (`make run` sets it).
DEBUG = env_bool("DJANGO_DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Production (DJANGO_DEBUG=0) refuses to start without one: "
            "set SECRET_KEY to a long random string."
        )
    # Debug only: production refuses to start without SECRET_KEY (above).
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"  # noqa: S105  # nosec B105

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "crispy_forms",
    "crispy_bootstrap5",
    "ncpc.core",
    "members",
    "events",
    "finance",
    "standings",
    "ncpc.club",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "ncpc.core.middleware.RefuseNulMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "axes.middleware.AxesMiddleware",
    "ncpc.core.middleware.RequestMemoMiddleware",
    # After the request memo: the club's identity is read once a request.
    "ncpc.core.identity.ClubTimeZoneMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "ncpc.club.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "ncpc.club.context_processors.navigation",
                "ncpc.core.identity.club_context",
            ],
            # {% rule_ref "2.12" %}: the club's references to its rule book, on every page without a load.
            "builtins": ["ncpc.core.templatetags.club_identity"],
        },
    },
]

WSGI_APPLICATION = "ncpc.wsgi.application"

# --- Database: DATABASE_URL (PostgreSQL in production and CI), else a SQLite file under var/. ---
_database_url = os.environ.get("DATABASE_URL", "").strip()
if _database_url:
    try:
        _db = dj_database_url.parse(_database_url, conn_max_age=600, conn_health_checks=True)
    except Exception as exc:  # dj-database-url raises several types for a bad URL
        raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from None
    if _db["ENGINE"] not in ("django.db.backends.postgresql", "django.db.backends.sqlite3"):
        raise ImproperlyConfigured(f"DATABASE_URL must name PostgreSQL or SQLite, not {_db['ENGINE']}.")
    if _db["ENGINE"] == "django.db.backends.sqlite3":
        _db["ENGINE"] = "ncpc.core.db.sqlite3"  # flush may empty the append-only ledger (its module says why)
else:
    (BASE_DIR / "var").mkdir(exist_ok=True)
    _db = {
        "ENGINE": "ncpc.core.db.sqlite3",
        "NAME": str(BASE_DIR / "var" / "ncpc.sqlite3"),
        # SQLite ignores select_for_update(); IMMEDIATE makes writers queue instead.
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        "CONN_MAX_AGE": 0,
    }
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
# The default only: each request uses the club's own time zone (ncpc.core.identity, the club identity page).
TIME_ZONE = "America/New_York"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "var" / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns on every request without it
STATICFILES_DIRS = [BASE_DIR / "static"]
# Uploaded files (the bank statements, SPEC §17.3): under var/media, or MEDIA_ROOT; on S3-compatible storage
# through django-storages when NCPC_S3_BUCKET is set (README, "Bank statements on S3").
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or BASE_DIR / "var" / "media")
S3_BUCKET = os.environ.get("NCPC_S3_BUCKET", "").strip()
STORAGES = {
    "default": (
        {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": S3_BUCKET,
                "endpoint_url": os.environ.get("NCPC_S3_ENDPOINT_URL") or None,
                "default_acl": "private",
                "querystring_auth": True,
                "file_overwrite": False,
            },
        }
        if S3_BUCKET
        else {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    ),
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# --- E-mail: console in development, SMTP when EMAIL_HOST is set. ---
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
# The address every e-mail is sent from. Only the address is used: the sender's name is the club's, from its
# identity page (ncpc/core/mail.py, ``mail_from``), so "Lakeside <noreply@lakeside.example>" sends as the club.
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or "noreply@ncpc.example"
if "@" not in parseaddr(DEFAULT_FROM_EMAIL)[1]:
    raise ImproperlyConfigured(
        f"DEFAULT_FROM_EMAIL must be an e-mail address like noreply@club.example (got {DEFAULT_FROM_EMAIL!r})."
    )
# The site's address as members open it (https://ncpc.example), for the links in e-mails; unset, e-mails give
# the page's path only.
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
# Seconds to wait on the mail server before giving up on one attempt (the worker retries later).
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20)

# --- Mail leaves the request: every message is a task run by `manage.py db_worker` (ncpc/core/mail.py). ---
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# Attempts per message (the first and the retries), and the waits between them in minutes.
NCPC_MAIL_ATTEMPTS = env_int("NCPC_MAIL_ATTEMPTS", 6)
NCPC_MAIL_BACKOFF_MINUTES = (1, 5, 15, 60, 240)

# --- Django's cache framework: nothing of the club's data is kept between requests (SPEC §17.10). ---
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 2000}}
}

# --- Club-wide switches (SPEC §12). ---
NCPC_PUBLIC_STANDINGS = env_bool("NCPC_PUBLIC_STANDINGS", False)

# --- Client addresses: how many proxies in front of the app append to X-Forwarded-For (1 behind the
# documented nginx). The client is the address the outermost trusted proxy saw (ncpc/core/client.py). ---
NCPC_TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
if NCPC_TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured("TRUSTED_PROXIES must be 0 or more.")

# --- Login throttling (django-axes): 5 failures for the same username from the same client address lock
# that pair for a while: the attacker's address is locked, the member can still log in from elsewhere. ---
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = dt.timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
AXES_CLIENT_IP_CALLABLE = "ncpc.core.client.client_address"

# --- Password reset requests: at most this many an hour for one e-mail address and from one client. ---
NCPC_RESET_PER_ADDRESS = env_int("NCPC_RESET_PER_ADDRESS", 3)
NCPC_RESET_PER_CLIENT = env_int("NCPC_RESET_PER_CLIENT", 10)

# --- Content-Security-Policy (django-csp): only the site's own files; no inline scripts or styles. ---
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "media-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Security: everything check --deploy asks for, when debug is off. ---
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # /healthz is called over plain HTTP by load balancers.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
