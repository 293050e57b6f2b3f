"""Creates screened bench clients and records assessment results for them over HTTP, for bench/run.

    BENCH_TOKEN=... python3 bench/seed_results.py BASE_URL NAME:PER_EXERCISE [NAME:PER_EXERCISE ...]

For each NAME a client is created (with the birth date, sex, height and mass scoring needs), its screening is
started, answered and completed, and PER_EXERCISE results are recorded for each of 12 shipped exercises, with
values varied a little and recordedAt spread over past days (every result is in the past and distinct). Prints
"NAME CLIENT_ID" per client to stdout and the seeding time to stderr. Exits non-zero at the first answer that is
not the expected status. Standard library only: keep-alive http.client connections on a few threads (the server
serialises writes, so more threads would only queue).
"""
import datetime
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.parse

THREADS = int(os.environ.get("BENCH_SEED_THREADS", "8"))

CLIENT = {"givenName": "Wheel", "familyName": "Bench", "birthDate": "1985-03-14", "sex": "female",
          "height": {"value": 170, "unit": "cm"}, "mass": 60}
ANSWERS = {"answers": {"heartCondition": False, "chestPain": False, "dizziness": False, "otherChronicCondition": False,
                       "prescribedMedication": False, "boneJointProblem": False, "supervisedActivityOnly": False,
                       "activityLevel": "light", "smoker": False, "currentInjuries": False}}


def vary(rng, base, spread, decimals):
    value = round(base + rng.uniform(-spread, spread), decimals)
    return int(value) if decimals == 0 else value


# 12 shipped exercises (all but bench-press-1rm), each making its values from a random source: SI, bare numbers.
EXERCISES = {
    "resting-heart-rate": lambda r: {"heartRate": vary(r, 60, 6, 0)},
    "blood-pressure": lambda r: {"systolic": vary(r, 118, 6, 0), "diastolic": vary(r, 76, 4, 0)},
    "ymca-step-test": lambda r: {"heartRate": vary(r, 100, 8, 0)},
    "bmi": lambda r: {"mass": vary(r, 62, 2, 1)},
    "waist-circumference": lambda r: {"waist": vary(r, 0.75, 0.03, 3)},
    "body-fat-percentage": lambda r: {"bodyFat": vary(r, 24, 2, 1)},
    "grip-strength": lambda r: {"grip": vary(r, 30, 3, 1)},
    "chair-stand-30s": lambda r: {"stands": vary(r, 15, 3, 0)},
    "sit-and-reach": lambda r: {"reach": vary(r, 0.32, 0.04, 3)},
    "back-scratch": lambda r: {"reach": vary(r, -0.02, 0.03, 3)},
    "push-ups": lambda r: {"count": vary(r, 20, 4, 0)},
    "cooper-12-minute-run": lambda r: {"distance": vary(r, 2200, 150, 0)},
}


class Failure(Exception):
    pass


class API:
    """One keep-alive connection."""

    def __init__(self, base, token):
        url = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=60)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method, path, body, expect):
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=self.headers)
        response = self.connection.getresponse()
        text = response.read()
        if response.status != expect:
            raise Failure(f"{method} {path} answered {response.status}, expected {expect}: {text[:500]!r}")
        return json.loads(text) if text else None


def screened_client(api, name):
    client = api.call("POST", "/v1/clients", dict(CLIENT, familyName=name), 201)["id"]
    screening = api.call("POST", f"/v1/clients/{client}/screenings", {"questionnaireId": "screening"}, 201)["id"]
    path = f"/v1/clients/{client}/screenings/{screening}"
    api.call("PATCH", path, ANSWERS, 200)
    api.call("POST", f"{path}/complete", None, 200)
    return client


def jobs(client, per_exercise, now, rng):
    """Every result body of one client; result i of an exercise is about i * 6 hours + 1 hour old."""
    for index in range(per_exercise):
        for offset, (exercise, values) in enumerate(EXERCISES.items()):
            at = now - datetime.timedelta(hours=1 + 6 * index, minutes=offset, seconds=rng.randrange(60))
            yield client, {"exerciseId": exercise, "values": values(rng),
                           "recordedAt": at.strftime("%Y-%m-%dT%H:%M:%SZ")}


def main():
    base, specs = sys.argv[1], [arg.rsplit(":", 1) for arg in sys.argv[2:]]
    token = os.environ["BENCH_TOKEN"]
    started = time.monotonic()
    api = API(base, token)
    clients = [(name, screened_client(api, name), int(count)) for name, count in specs]
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    rng = random.Random(7)
    work = [job for _, client, count in clients for job in jobs(client, count, now, rng)]
    rng.shuffle(work)  # the newest result of an exercise is not simply the last one inserted

    failures, unscored = [], []
    position = iter(range(len(work)))
    lock = threading.Lock()

    def worker():
        connection = API(base, token)
        while not failures:
            with lock:
                index = next(position, None)
            if index is None:
                return
            client, body = work[index]
            try:
                result = connection.call("POST", f"/v1/clients/{client}/results", body, 201)
            except Exception as error:  # noqa: BLE001 - any failure stops the seeding
                failures.append(error)
                return
            if result.get("score") is None:
                unscored.append((body["exerciseId"], result.get("scoreError")))

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        sys.exit(f"seed_results: {failures[0]}")
    elapsed = time.monotonic() - started
    if unscored:
        print(f"seed_results: warning: {len(unscored)} results have no score, e.g. {unscored[0]}", file=sys.stderr)
    print(f"seed_results: {len(work)} results for {len(clients)} clients in {elapsed:.1f}s "
          f"({len(work) / elapsed:.0f}/s)", file=sys.stderr)
    for name, client, _ in clients:
        print(name, client)


if __name__ == "__main__":
    main()
