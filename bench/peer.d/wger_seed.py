"""Sets up bench/peer's wger 2.1 database and seeds its bench user, through Django's management commands and ORM.

    PEER_WGER_DATA=DIR PEER_WGER_SECRET_KEY=... PYTHONPATH=bench/peer.d \
        DJANGO_SETTINGS_MODULE=wger_settings VENV/bin/python bench/peer.d/wger_seed.py

Runs wger's migrations and loads its fixtures (languages, licences, gym: what `wger bootstrap` loads, less the
exercises (see FIXTURES) and its yarn step for the web pages' CSS and JavaScript), then creates the user `bench`
with a REST API token and seeds it: 600 weight entries (one a day back from yesterday) and 12 measurement
categories with 50 measurements each (one a day). Prints the token (wger's API takes `Authorization: Token <key>`)
to stdout; anything else goes to stderr.
"""
import contextlib
import datetime
import decimal
import random
import sys
import time

import django

WEIGHT_ENTRIES = 600
CATEGORIES = 12
MEASUREMENTS_PER_CATEGORY = 50
# wger/tasks.py's load_fixtures, in its order, less exercise-base-data.json and exercises.json: the 2.1 wheel's
# copies no longer match its models ("ExerciseBase has no field named 'status'"), and no endpoint measured here
# reads exercises.
FIXTURES = ["gym.json", "languages.json", "groups.json", "users.json", "licenses.json", "days_of_week.json",
            "setting_repetition_units.json", "setting_weight_units.json", "language_config.json", "gym_config.json",
            "equipment.json", "muscles.json", "categories.json", "gym.json", "gym-config.json", "gym-adminconfig.json"]


def main():
    started = time.monotonic()
    django.setup()

    # Django
    from django.core.management import call_command

    # wger's own tasks (wger/tasks.py: migrate_db, load_fixtures) cannot be imported on Python 3.11: the invoke
    # 1.7.3 that wger 2.1 pins calls inspect.getargspec, gone since 3.11. The same steps, in the same order:
    with contextlib.redirect_stdout(sys.stderr):
        call_command("migrate", verbosity=0)
        for fixture in FIXTURES:
            call_command("loaddata", fixture, verbosity=0)

    from django.contrib.auth.models import User
    from django.db import transaction

    # Third Party
    from rest_framework.authtoken.models import Token

    # wger
    from wger.measurements.models import Category, Measurement
    from wger.weight.models import WeightEntry

    rng = random.Random(7)
    today = datetime.date.today()
    with transaction.atomic():
        user = User.objects.create_user("bench", "bench@example.com", "bench password 123")  # signals: profile, cache
        token = Token.objects.create(user=user)
        WeightEntry.objects.bulk_create(
            WeightEntry(user=user, date=today - datetime.timedelta(days=day),
                        weight=decimal.Decimal(f"{rng.uniform(60, 90):.2f}"))
            for day in range(1, WEIGHT_ENTRIES + 1))
        for number in range(1, CATEGORIES + 1):
            category = Category.objects.create(user=user, name=f"Category {number:02d}", unit="cm")
            Measurement.objects.bulk_create(
                Measurement(category=category, date=today - datetime.timedelta(days=day),
                            value=decimal.Decimal(f"{rng.uniform(20, 120):.2f}"), notes="")
                for day in range(1, MEASUREMENTS_PER_CATEGORY + 1))

    assert WeightEntry.objects.filter(user=user).count() == WEIGHT_ENTRIES
    assert Measurement.objects.filter(category__user=user).count() == CATEGORIES * MEASUREMENTS_PER_CATEGORY
    print(f"wger_seed: migrated, fixtures loaded, {WEIGHT_ENTRIES} weight entries and {CATEGORIES}x"
          f"{MEASUREMENTS_PER_CATEGORY} measurements in {time.monotonic() - started:.1f}s", file=sys.stderr)
    print(token.key)


if __name__ == "__main__":
    main()
