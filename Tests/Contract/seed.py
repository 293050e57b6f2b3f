"""Seeds a running Healthwheel for contract fuzzing and prints the token schemathesis acts with.

Company A is the demo company (screened clients with a year of results); this adds an admin that fuzzing acts as
(the server refuses to let an admin delete themself, so the stateful phase cannot delete it), a photo and a video
on a result, a report email (a delivery), a company theme, a webhook endpoint, and a second client. Company B (made by the CLI
before the server started) gets a client of its own, so that ids of another company exist.
Usage: seed.py BASE_URL DEMO_PASSWORD B_EMAIL B_PASSWORD
"""
import json
import struct
import sys
import urllib.request

base, demo_password, b_email, b_password = sys.argv[1:5]


def call(method, path, token=None, body=None, content_type="application/json", raw=False):
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    if data is not None:
        request.add_header("Content-Type", content_type)
    with urllib.request.urlopen(request, timeout=60) as response:
        payload = response.read()
        return payload if raw else (json.loads(payload) if payload else None)


def login(email, password):
    return call("POST", "/v1/auth/login", body={"email": email, "password": password})["token"]


demo = login("admin@demo.healthwheel.example", demo_password)
call("POST", "/v1/trainers", demo, {"email": "fuzz@demo.healthwheel.example", "name": "Fuzz Admin", "role": "admin", "password": "fuzzing-password-2026"})
token = login("fuzz@demo.healthwheel.example", "fuzzing-password-2026")

client = call("GET", "/v1/clients?q=james", token)["items"][0]["id"]
result = call("GET", f"/v1/clients/{client}/results?limit=1", token)["items"][0]["id"]
photo = call("GET", f"/v1/clients/{client}/wheel.png?size=256", token, raw=True)
call("POST", f"/v1/results/{result}/media?caption=Wheel%20photo", token, photo, "image/png")
ftyp = struct.pack(">I", 20) + b"ftypqt  " + b"\0\0\0\0" + b"qt  "
movie = ftyp + struct.pack(">I", 8 + 4096) + b"mdat" + bytes(4096)
call("POST", f"/v1/results/{result}/media", token, movie, "video/quicktime")
call("POST", f"/v1/clients/{client}/report/email", token, {"to": "client@example.com", "message": "Seeded for fuzzing."})
call("PUT", "/v1/theme", token, {"themeId": "high-contrast"})
# A webhook endpoint (its host resolves nowhere: deliveries fail and wait for retries).
call("POST", "/v1/webhooks", token, {"url": "https://hooks.example.com/seeded", "events": ["client.created", "result.recorded"]})
call("POST", "/v1/clients", token, {"givenName": "Second", "familyName": "Client", "email": "second@example.com"})

other = login(b_email, b_password)
call("POST", "/v1/clients", other, {"givenName": "Other", "familyName": "Company"})
print(token)
