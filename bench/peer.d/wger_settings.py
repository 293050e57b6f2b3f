"""Django settings for bench/peer's wger 2.1 (DJANGO_SETTINGS_MODULE=wger_settings, this folder on PYTHONPATH).

wger's own template (wger/settings.tpl, what `wger create-settings` writes) with what a production deployment
changes: DEBUG off, a random SECRET_KEY, the hosts it answers, and its loggers at WARNING (the template logs
wger's DEBUG lines to the console; bench/peer runs Healthwheel at warning too). The database is SQLite in the
run's temporary folder (PEER_WGER_DATA), as `wger create-settings` makes by default: one file on the same disk
as Healthwheel's SQLCipher store, no database server to tune. Everything else (cache, sessions, middleware, the
REST framework's authentication and pagination) is wger's settings_global as shipped.
"""
import os

from wger.settings_global import *  # noqa: F401,F403 - wger's own defaults, as its template does

data = os.environ["PEER_WGER_DATA"]

DEBUG = False
SECRET_KEY = os.environ["PEER_WGER_SECRET_KEY"]
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
SITE_URL = "http://127.0.0.1"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(data, "wger.sqlite"),
    }
}
MEDIA_ROOT = os.path.join(data, "media")
MEDIA_URL = "/media/"
STATIC_ROOT = os.path.join(data, "static")
TIME_ZONE = "UTC"

# Nothing leaves the machine: no mail server, no reCaptcha.
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
RECAPTCHA_PUBLIC_KEY = ""
RECAPTCHA_PRIVATE_KEY = ""

LOGGING["loggers"]["wger"]["level"] = "WARNING"  # noqa: F405
LOGGING["handlers"]["console"]["level"] = "WARNING"  # noqa: F405
