"""Crash and retry safety, from outside: the real server killed with SIGKILL at random moments while trainers'
apps post results and email reports.

Each cycle starts `healthwheel serve` on the same data folder (mail to a real SMTP server, aiosmtpd), retries the
keyed requests the last kill cut off (same key, same body), loads it with 4-12 concurrent workers posting results
(half with an `Idempotency-Key`) and, one request in ten, a report email to an address unique to that request,
then kills it 100-600 ms into the load. After the last cycle the server starts once more, retries, waits for the
outbox to drain, lists every result, and is killed; then `healthwheel check` reads the file.

It fails unless: every result acknowledged with 201 is stored, unchanged; every keyed request cut off and retried
is stored exactly once (and an unkeyed one at most once); the file passes SQLite's integrity checks; every email
acknowledged with 202 arrived. Duplicated emails (a kill after the message was handed to the SMTP server but
before the server recorded it sent) are allowed, as at-least-once delivery, and printed: each copy carries the
same Message-ID, and there are never more extra copies than interrupted hand-overs the restarts announced.

Usage: crash.py --bin PATH [--cycles 50] [--seed N] [--port 18290]. Prints one line, `crash: …`.
"""

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Outside"))
from outside import arrived, request as request_on, start_sink  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--bin", required=True)
parser.add_argument("--cycles", type=int, default=50)
parser.add_argument("--seed", type=int, default=None)
parser.add_argument("--port", type=int, default=18290)
args = parser.parse_args()
seed = args.seed if args.seed is not None else random.randrange(2**32)
rng = random.Random(seed)
work = tempfile.mkdtemp(prefix="healthwheel-crash-")
data = os.path.join(work, "hw")
sink_dir = os.path.join(work, "sink")
os.makedirs(sink_dir)
log_path = os.path.join(work, "server.log")


def fail(message):
    print(f"crash: FAILED (seed {seed}): {message}; the server's log: {log_path}")
    sys.exit(1)


sink, smtp_port = start_sink(sink_dir)
environment = dict(
    os.environ,
    HEALTHWHEEL_SMTP_URL=f"smtp://127.0.0.1:{smtp_port}",
    HEALTHWHEEL_SMTP_FROM="reports@crash.example",
    HEALTHWHEEL_MAIL_DAILY_LIMIT="1000000",
)


class Server:
    def __init__(self):
        self.log = open(log_path, "a")
        self.process = subprocess.Popen(
            [args.bin, "serve", "--data-dir", data, "--port", str(args.port)], stdout=self.log, stderr=subprocess.STDOUT, env=environment
        )
        for _ in range(300):
            try:
                if request("GET", "/health")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        fail("the server did not start")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        status = self.process.wait()
        self.log.close()
        return status


def request(method, path, body=None, token=None, key=None, timeout=30):
    return request_on(args.port, method, path, body, token, key, timeout)


class Attempt:
    """One request of a worker: what it sent, and the answer if one came before the kill."""

    def __init__(self, cycle, worker, number, kind, key):
        self.marker = f"crash-{cycle}-{worker}-{number}"
        self.kind = kind
        self.key = key
        self.heart_rate = 45 + (cycle * 7 + worker * 3 + number) % 50
        self.answer = None

    def send(self, token, client):
        if self.kind == "email":
            return request("POST", f"/v1/clients/{client}/report/email", {"to": f"{self.marker}@example.com"}, token)
        body = {"exerciseId": "resting-heart-rate", "values": {"heartRate": self.heart_rate}, "observations": self.marker}
        return request("POST", f"/v1/clients/{client}/results", body, token, key=self.key)


server = Server()
password = next(line.split()[1] for line in open(log_path) if line.strip().startswith("password:"))
token = request("POST", "/v1/auth/login", {"email": "admin@demo.healthwheel.example", "password": password})[1]["token"]
client = request("GET", "/v1/clients?q=james", token=token)[1]["items"][0]["id"]

attempts = []
cut_off_keyed = []
retried = 0
acknowledged_before_kill = 0


def retry(pending):
    global retried
    for attempt in pending:
        status, body = attempt.send(token, client)
        if status not in (200, 201):
            fail(f"the keyed retry of {attempt.marker} answered {status} {body}")
        attempt.answer = (status, body)
        retried += 1


for cycle in range(1, args.cycles + 1):
    if cycle > 1:
        server = Server()
    retry(cut_off_keyed)
    workers = rng.randint(4, 12)
    kill_after = rng.randint(100, 600) / 1000
    stop = threading.Event()
    cycle_attempts = []

    def work(worker, choices):
        for number in range(300):
            if stop.is_set():
                return
            kind = "email" if choices.random() < 0.1 else "result"
            key = str(uuid.UUID(int=choices.getrandbits(128))) if kind == "result" and choices.random() < 0.5 else None
            attempt = Attempt(cycle, worker, number, kind, key)
            cycle_attempts.append(attempt)
            try:
                attempt.answer = attempt.send(token, client)
            except OSError:
                return

    threads = [threading.Thread(target=work, args=(w, random.Random(rng.getrandbits(64)))) for w in range(workers)]
    for thread in threads:
        thread.start()
    time.sleep(kill_after)
    stop.set()
    status = server.kill()
    for thread in threads:
        thread.join()
    if status != -signal.SIGKILL:
        fail(f"cycle {cycle}: the server had exited ({status}) before its SIGKILL")
    for attempt in cycle_attempts:
        if attempt.answer is not None and attempt.answer[0] not in (201, 202):
            fail(f"cycle {cycle}: {attempt.marker} answered {attempt.answer}")
    attempts += cycle_attempts
    cut_off_keyed = [a for a in cycle_attempts if a.answer is None and a.key]
    acknowledged_before_kill += sum(1 for a in cycle_attempts if a.answer is not None)

# The last start: retry, let the outbox drain, list everything, kill.
server = Server()
retry(cut_off_keyed)
emails = [a for a in attempts if a.kind == "email" and a.answer is not None]
wanted = {f"{a.marker}@example.com" for a in emails}


deadline = time.time() + 120
while True:
    copies, message_ids = arrived(sink_dir)
    if wanted <= set(copies) or time.time() > deadline:
        break
    time.sleep(0.2)
stored = []
cursor = None
while True:
    path = f"/v1/clients/{client}/results?limit=200" + (f"&cursor={cursor}" if cursor else "")
    status, page = request("GET", path, token=token)
    if status != 200:
        fail(f"listing results answered {status} {page}")
    stored += page["items"]
    cursor = page.get("nextCursor")
    if not cursor:
        break
server.kill()
check = subprocess.run([args.bin, "check", "--data-dir", data], capture_output=True, text=True)

by_id = {r["id"]: r for r in stored}
by_marker = {}
for result in stored:
    by_marker.setdefault(result.get("observations"), []).append(result)
results = [a for a in attempts if a.kind == "result"]
acknowledged = [a for a in results if a.answer is not None]
lost = [a.marker for a in acknowledged if a.answer[1]["id"] not in by_id]
changed = [
    a.marker
    for a in acknowledged
    if a.answer[1]["id"] in by_id
    and (by_id[a.answer[1]["id"]]["observations"] != a.marker or by_id[a.answer[1]["id"]]["values"] != {"heartRate": a.heart_rate})
]
keyed_twice = [a.marker for a in results if a.key and len(by_marker.get(a.marker, [])) != 1 and a.answer is not None]
unkeyed_twice = [a.marker for a in results if not a.key and len(by_marker.get(a.marker, [])) > 1]
missing_emails = sorted(wanted - set(copies))
# Each start says how many interrupted emails had been handed to the mail server: only those may arrive twice.
announced = 0
for line in open(log_path):
    if "may arrive twice" in line and "queued again" in line:
        announced += int(line.split("; ")[1].split(" of them")[0])
duplicated = sum(1 for count in message_ids.values() if count > 1)
extra_copies = sum(count - 1 for count in message_ids.values() if count > 1)

problems = []
if lost:
    problems.append(f"{len(lost)} acknowledged results lost: {lost[:5]}")
if changed:
    problems.append(f"{len(changed)} acknowledged results changed: {changed[:5]}")
if keyed_twice:
    problems.append(f"{len(keyed_twice)} keyed results not stored exactly once: {keyed_twice[:5]}")
if unkeyed_twice:
    problems.append(f"{len(unkeyed_twice)} unkeyed results stored twice: {unkeyed_twice[:5]}")
if check.returncode != 0:
    problems.append(f"healthwheel check: {check.stdout.strip()} {check.stderr.strip()}")
if missing_emails:
    problems.append(f"{len(missing_emails)} acknowledged emails never arrived: {missing_emails[:5]}")
if extra_copies > announced:
    problems.append(f"{extra_copies} extra email copies, but only {announced} interrupted hand-overs were announced")
if acknowledged_before_kill == 0 or retried == 0:
    problems.append(f"too little happened to prove anything ({acknowledged_before_kill} answers, {retried} retries)")
sink.kill()
if problems:
    fail("; ".join(problems))
print(
    f"crash: {args.cycles} cycles (seed {seed}), {len(acknowledged)} of {len(results)} result POSTs acknowledged, 0 lost, "
    f"0 changed, {retried} cut-off keyed POSTs retried and stored once, {len(emails)} emails acknowledged, all arrived, "
    f"{duplicated} delivered twice ({extra_copies} extra copies, same Message-ID; {announced} announced as possible), integrity ok"
)
shutil.rmtree(work, ignore_errors=True)
