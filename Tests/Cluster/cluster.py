"""Several nodes behind a balancer, from outside: `scripts/cluster up` (PostgreSQL, three nodes of the given
build, nginx round-robin) with mail to a real SMTP server (aiosmtpd), then three checks in turn.

1. Email, nothing killed: N report emails accepted through the balancer (any node takes the request, any node's
   outbox may send it) arrive N times, each exactly once.
2. A node killed under load: workers post results through the balancer; node 2 is killed with SIGKILL mid-way.
   Every result acknowledged with 201 is stored afterwards, unchanged; the only other answers are the balancer's
   502 for requests node 2 held when it died (at most one per worker); the balancer answers every request sent
   after it has seen node 2 gone.
3. A node killed mid-queue: the mail server holds every message in DATA (nothing is accepted yet) while N emails
   are accepted; once both remaining nodes have claimed all they can (their lanes wait in DATA), node 3 is killed,
   and the mail server lets go. What node 3 held is sent by node 1 once node 3's claims' leases (HEALTHWHEEL_MAIL_LEASE,
   8 s here) run out; node 1's own held attempts, longer than that, keep theirs by renewing them. All N arrive, each
   exactly once: the mail server never answered node 3's DATA, so it never took those messages (RFC 5321 4.1.1.4). A kill after a server's "250" but before the node records the delivery
   sent could still deliver a message twice (announced, same Message-ID); that moment is not aimed at here.

Usage: cluster.py --bin PATH [--emails 24] [--port 18380] [--database-port 25441]. Prints one line, `cluster: …`.
"""

import argparse
import os
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
parser.add_argument("--emails", type=int, default=24)
parser.add_argument("--port", type=int, default=18380)
parser.add_argument("--database-port", type=int, default=25441)
args = parser.parse_args()
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
work = tempfile.mkdtemp(prefix="healthwheel-cluster-test-")
os.chmod(work, 0o755)  # PostgreSQL runs as `postgres` and must reach its folder inside
cluster_dir = os.path.join(work, "cluster")
sink_dir = os.path.join(work, "sink")
os.makedirs(sink_dir)
lease = 8


def cluster(command):
    return subprocess.run([os.path.join(root, "scripts/cluster"), command, cluster_dir], env=environment, capture_output=True, text=True)


def fail(message):
    print(f"cluster: FAILED: {message}; logs in {cluster_dir}")
    cluster("down")
    sys.exit(1)


sink, smtp_port = start_sink(sink_dir)
environment = dict(
    os.environ,
    HEALTHWHEEL_CLUSTER_BIN=os.path.abspath(args.bin),
    HEALTHWHEEL_CLUSTER_PORT=str(args.port),
    HEALTHWHEEL_CLUSTER_DATABASE_PORT=str(args.database_port),
    HEALTHWHEEL_SMTP_URL=f"smtp://127.0.0.1:{smtp_port}",
    HEALTHWHEEL_SMTP_FROM="reports@cluster.example",
    HEALTHWHEEL_MAIL_DAILY_LIMIT="1000000",
    HEALTHWHEEL_MAIL_LEASE=str(lease),
)
started = cluster("up")
if started.returncode != 0:
    fail(f"scripts/cluster up: {started.stdout[-2000:]} {started.stderr[-2000:]}")


def request(method, path, body=None, token=None):
    return request_on(args.port, method, path, body, token, timeout=60)


def kill(node):
    pid = int(open(os.path.join(cluster_dir, f"node{node}.pid")).read())
    os.kill(pid, signal.SIGKILL)
    while True:
        try:
            os.kill(pid, 0)
            time.sleep(0.01)
        except ProcessLookupError:
            return


def listed(path, token):
    items, cursor = [], None
    while True:
        status, page = request("GET", path + (f"&cursor={cursor}" if cursor else ""), token=token)
        if status != 200:
            fail(f"GET {path} answered {status} {page}")
        items += page["items"]
        cursor = page.get("nextCursor")
        if not cursor:
            return items


def send_emails(label, count):
    wanted = []
    for number in range(count):
        to = f"{label}-{number}-{uuid.uuid4().hex[:8]}@example.com"
        status, body = request("POST", f"/v1/clients/{client}/report/email", {"to": to}, token)
        if status != 202:
            fail(f"{label}: emailing the report answered {status} {body}")
        wanted.append(to)
    return wanted


def await_arrival(label, wanted, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        recipients, _ = arrived(sink_dir)
        if all(to in recipients for to in wanted):
            break
        time.sleep(0.2)
    time.sleep(1.5)  # a second copy, if one were coming from a live node, comes now
    recipients, _ = arrived(sink_dir)
    missing = [to for to in wanted if to not in recipients]
    twice = [to for to in wanted if recipients.get(to, 0) > 1]
    if missing:
        fail(f"{label}: {len(missing)} of {len(wanted)} accepted emails never arrived: {missing[:3]}")
    if twice:
        fail(f"{label}: {len(twice)} of {len(wanted)} emails arrived more than once: {twice[:3]}")


password = next(line.split()[1] for line in open(os.path.join(cluster_dir, "node1.log")) if line.strip().startswith("password:"))
status, login = request("POST", "/v1/auth/login", {"email": "admin@demo.healthwheel.example", "password": password})
if status != 200:
    fail(f"login through the balancer answered {status} {login}")
token = login["token"]
client = request("GET", "/v1/clients?q=james", token=token)[1]["items"][0]["id"]

# 1. Email with three live nodes.
first_wanted = send_emails("calm", args.emails)
await_arrival("three nodes", first_wanted, 120)

# 2. Node 2 killed while results are posted.
workers = 8
stop = threading.Event()
attempts = []  # (marker, heart rate, sent at, answer)
lock = threading.Lock()


def post_results(worker):
    number = 0
    while not stop.is_set():
        marker = f"cluster-{worker}-{number}"
        heart_rate = 45 + (worker * 7 + number) % 50
        sent_at = time.time()
        try:
            answer = request("POST", f"/v1/clients/{client}/results", {"exerciseId": "resting-heart-rate", "values": {"heartRate": heart_rate}, "observations": marker}, token)
        except OSError as error:
            answer = (None, str(error))
        with lock:
            attempts.append((marker, heart_rate, sent_at, answer))
        number += 1


threads = [threading.Thread(target=post_results, args=(w,)) for w in range(workers)]
for thread in threads:
    thread.start()
time.sleep(3)
killed_at = time.time()
kill(2)
time.sleep(4)
stop.set()
for thread in threads:
    thread.join()
health = [request("GET", "/health")[0] for _ in range(12)]
acknowledged = [a for a in attempts if a[3][0] == 201]
refused = [a for a in attempts if a[3][0] != 201]
after_kill = [a for a in attempts if a[2] > killed_at + 1]
stored = {r["id"]: r for r in listed(f"/v1/clients/{client}/results?limit=200", token)}
lost = [a[0] for a in acknowledged if a[3][1]["id"] not in stored]
changed = [
    a[0]
    for a in acknowledged
    if a[3][1]["id"] in stored and (stored[a[3][1]["id"]]["observations"] != a[0] or stored[a[3][1]["id"]]["values"] != {"heartRate": a[1]})
]
if lost or changed:
    fail(f"{len(lost)} acknowledged results lost ({lost[:3]}), {len(changed)} changed ({changed[:3]})")
if len(refused) > workers or any(a[3][0] not in (502, 504) for a in refused):
    fail(f"{len(refused)} results not acknowledged (at most {workers}, and only the balancer's 502): {[a[3] for a in refused[:3]]}")
if not after_kill or any(a[3][0] != 201 for a in after_kill) or any(s != 200 for s in health):
    fail(f"the balancer did not answer every request after the kill: {[a[3] for a in after_kill if a[3][0] != 201][:3]}, health {health}")
before_kill = sum(1 for a in acknowledged if a[2] < killed_at)

# 3. Node 3 killed while it holds claimed emails in DATA.
hold = os.path.join(sink_dir, "hold")
open(hold, "w").close()
second_wanted = send_emails("held", args.emails)
deadline = time.time() + 60
while True:
    deliveries = listed(f"/v1/clients/{client}/deliveries?limit=200", token)
    sending = sum(1 for d in deliveries if d["status"] == "sending")
    # Nodes 1 and 3 claim up to 8 each (HEALTHWHEEL_SMTP_CONNECTIONS): both hold claims once 9 or more are out.
    if sending >= min(16, args.emails):
        break
    if time.time() > deadline:
        fail(f"only {sending} emails were claimed while the mail server held them")
    time.sleep(0.2)
kill(3)
os.remove(hold)
await_arrival("node 3 killed mid-queue", second_wanted, 120 + lease)
deliveries = {d["to"][0] if isinstance(d["to"], list) else d["to"]: d for d in listed(f"/v1/clients/{client}/deliveries?limit=200", token)}
taken_over = [to for to in second_wanted if deliveries[to]["attempts"] > 1]
not_sent = [to for to in first_wanted + second_wanted if deliveries[to]["status"] != "sent"]
if not taken_over:
    fail("no email of node 3's was taken over by another node: the kill proved nothing")
if not_sent:
    fail(f"{len(not_sent)} deliveries are not `sent`: {not_sent[:3]}")

cluster("down")
sink.kill()
print(
    f"cluster: 3 nodes behind nginx: {len(first_wanted)} emails accepted, {len(first_wanted)} received once each; "
    f"node 2 killed under {workers} workers posting results: {len(acknowledged)} of {len(attempts)} acknowledged "
    f"({before_kill} before the kill), 0 lost, 0 changed, {len(refused)} answered 502 (in flight on node 2), "
    f"every request after it answered; node 3 killed holding {len(taken_over)} claimed emails in DATA: "
    f"{len(second_wanted)} accepted, all received once each (taken over after the {lease} s lease)"
)
shutil.rmtree(work, ignore_errors=True)
