"""A real HTTPS webhook receiver for the tests, on a free loopback port, with a certificate of its own.

Usage: webhook_receiver.py OUT_DIR SECRET
Makes OUT_DIR/cert.pem (a self-signed certificate for localhost, receiver.test, 127.0.0.1 and ::1, which the tests trust as
their CA) and writes OUT_DIR/port once listening on 127.0.0.1. Each request is appended to OUT_DIR/requests.jsonl:
its path, headers and body, and which of the secrets the `standardwebhooks` package (PyPI), as a receiver would
use it, verifies its signature under: SECRET, or the lines of OUT_DIR/secrets when the test has written that file
(read at each request, so a test can give the secret a server made). Paths choose the answer:
  /ok        204
  /fail      500
  /flaky     500 the first time a message id arrives, 204 after
  /gone      410 (the endpoint is gone: the sender disables it)
  /redirect  302 to /ok (which must not be followed)
  /busy      503 with Retry-After: 120
  /slow      204 after 3 seconds
  /big       200 with a body of 1 MiB
"""

import http.server
import json
import os
import ssl
import subprocess
import sys
import threading
import time

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

out, secret = sys.argv[1], sys.argv[2]
cert, key = os.path.join(out, "cert.pem"), os.path.join(out, "key.pem")
subprocess.run(
    ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
     "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,DNS:receiver.test,IP:127.0.0.1,IP:::1",
     "-keyout", key, "-out", cert],
    check=True, capture_output=True,
)
lock = threading.Lock()
seen = set()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            with open(os.path.join(out, "secrets")) as f:
                secrets = [line.strip() for line in f if line.strip()]
        except FileNotFoundError:
            secrets = [secret]
        verified_with = []
        for candidate in secrets:
            try:
                Webhook(candidate).verify(body.decode(), headers)
                verified_with.append(candidate)
            except (WebhookVerificationError, Exception):
                pass
        with lock:
            first_time = headers.get("webhook-id") not in seen
            seen.add(headers.get("webhook-id"))
            with open(os.path.join(out, "requests.jsonl"), "a") as log:
                log.write(json.dumps({"path": self.path, "headers": headers, "body": body.decode(), "verified": bool(verified_with),
                                      "verifiedWith": verified_with}) + "\n")
        if self.path == "/slow":
            time.sleep(3)
        if self.path == "/flaky":
            self.path = "/fail" if first_time else "/ok"
        answers = {"/ok": (204, {}), "/fail": (500, {}), "/gone": (410, {}), "/busy": (503, {"Retry-After": "120"}),
                   "/redirect": (302, {"Location": "/ok"}), "/slow": (204, {}), "/big": (200, {})}
        status, extra = answers.get(self.path, (404, {}))
        payload = b"x" * (1 << 20) if self.path == "/big" else b""
        self.send_response(status)
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(os.path.join(out, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(out, "port.tmp"), os.path.join(out, "port"))
server.serve_forever()
