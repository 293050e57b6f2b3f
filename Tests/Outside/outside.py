"""What the tests that drive real servers from outside share (Tests/Crash, Tests/Cluster): HTTP requests, and the
SMTP sink (Tests/SMTPSink/smtp_sink.py) they send mail to. Standard library only."""

import http.client
import json
import os
import subprocess
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def request(port, method, path, body=None, token=None, key=None, timeout=30):
    """(status, parsed JSON body or the text, or None when empty) of one request on a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key:
            headers["Idempotency-Key"] = key
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        text = response.read()
        try:
            return response.status, json.loads(text) if text else None
        except ValueError:
            return response.status, text.decode(errors="replace")
    finally:
        connection.close()


def start_sink(sink_dir):
    """Starts the SMTP sink (headers only) writing into sink_dir; returns (process, port)."""
    sink = subprocess.Popen([sys.executable, os.path.join(root, "Tests/SMTPSink/smtp_sink.py"), sink_dir, "--headers-only"])
    for _ in range(100):
        if os.path.exists(os.path.join(sink_dir, "port")):
            break
        time.sleep(0.1)
    return sink, open(os.path.join(sink_dir, "port")).read().strip()


def arrived(sink_dir):
    """Copies per recipient and per Message-ID of what the sink took."""
    recipients, message_ids = {}, {}
    for name in os.listdir(sink_dir):
        if name.endswith(".json") and not name.startswith("."):
            summary = json.load(open(os.path.join(sink_dir, name)))
            for recipient in summary["rcptTos"]:
                recipients[recipient] = recipients.get(recipient, 0) + 1
            message_ids[summary["messageId"]] = message_ids.get(summary["messageId"], 0) + 1
    return recipients, message_ids
