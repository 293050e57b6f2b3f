"""A real SMTP server for the tests (aiosmtpd), on a free loopback port.

Usage: smtp_sink.py OUT_DIR [--delay SECONDS] [--headers-only]
Writes OUT_DIR/port once listening. With --delay, every DATA takes that long before its reply (a slow server); while
a file OUT_DIR/hold exists, every DATA waits (bench/email-drain queues mail, then removes it and times the drain).
OUT_DIR/connections counts the connections opened. Each accepted message is saved as OUT_DIR/<n>.eml and
described, as parsed by Python's own email package, in OUT_DIR/<n>.json (with --headers-only, only its Message-ID,
size and envelope, which keeps the sink from being the slower side of a benchmark). Recipients choose how the server behaves:
  bounce…@…   RCPT is answered 550 (a permanent refusal)
  flaky…@…    the first DATA of each message drops the connection without a reply; the next attempt is accepted
  busy…@…     RCPT is answered 451 (a temporary refusal), always
AUTH PLAIN/LOGIN is offered without TLS and accepts user "healthwheel" with password "s3cret-pass" only.
"""

import asyncio
import email
import email.parser
import email.policy
import json
import os
import sys

from aiosmtpd.smtp import SMTP, AuthResult

out = sys.argv[1]
options = sys.argv[2:]
delay = float(options[options.index("--delay") + 1]) if "--delay" in options else 0.0
headers_only = "--headers-only" in options
seen_flaky = set()
count = 0
connections = 0


def authenticate(server, session, envelope, mechanism, auth_data):
    ok = auth_data.login == b"healthwheel" and auth_data.password == b"s3cret-pass"
    return AuthResult(success=ok, auth_data=auth_data)


def describe(raw):
    message = email.message_from_bytes(raw, policy=email.policy.default)
    parts = []
    for part in message.walk():
        entry = {
            "contentType": part.get_content_type(),
            "contentId": part.get("Content-ID"),
            "filename": part.get_filename(),
            "disposition": part.get_content_disposition(),
        }
        if not part.is_multipart():
            payload = part.get_payload(decode=True) or b""
            entry["size"] = len(payload)
            entry["head"] = payload[:8].hex()
            if part.get_content_maintype() == "text":
                entry["text"] = part.get_content()
        parts.append(entry)
    return {
        "from": str(message["From"]),
        "replyTo": str(message["Reply-To"]),
        "to": str(message["To"]),
        "cc": str(message["Cc"]) if message["Cc"] else None,
        "subject": str(message["Subject"]),
        "date": str(message["Date"]),
        "messageId": str(message["Message-ID"]),
        "mimeVersion": str(message["MIME-Version"]),
        "structure": [part.get_content_type() for part in message.walk()],
        "parts": parts,
        "defects": [repr(d) for part in message.walk() for d in part.defects],
        "longestLine": max(len(line) for line in raw.split(b"\r\n")),
        "bareLineFeeds": raw.replace(b"\r\n", b"").count(b"\n"),
    }


class Handler:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("bounce"):
            return "550 5.1.1 No such mailbox"
        if address.startswith("busy"):
            return "451 4.3.0 Try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        global count
        while os.path.exists(os.path.join(out, "hold")):
            await asyncio.sleep(0.02)
        if delay:
            await asyncio.sleep(delay)
        raw = envelope.original_content or envelope.content
        if any(r.startswith("flaky") for r in envelope.rcpt_tos):
            key = email.message_from_bytes(raw).get("Message-ID")
            if key not in seen_flaky:
                seen_flaky.add(key)
                server.transport.abort()
                return "421 dropped"
        count += 1
        if headers_only:
            headers = email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(raw)
            summary = {"messageId": str(headers["Message-ID"]), "size": len(raw)}
        else:
            summary = describe(raw)
        summary["mailFrom"] = envelope.mail_from
        summary["rcptTos"] = envelope.rcpt_tos
        summary["login"] = session.auth_data.login.decode() if session.authenticated and session.auth_data else None
        with open(os.path.join(out, f"{count}.eml"), "wb") as f:
            f.write(raw)
        with open(os.path.join(out, f".{count}.json"), "w") as f:
            json.dump(summary, f)
        os.rename(os.path.join(out, f".{count}.json"), os.path.join(out, f"{count}.json"))
        return "250 Message accepted for delivery"


async def exit_with_parent(parent):
    """Ends the sink when the test runner that started it is gone, however it ended."""
    while os.getppid() == parent:
        await asyncio.sleep(0.5)
    os._exit(0)


async def main():
    loop = asyncio.get_running_loop()
    asyncio.ensure_future(exit_with_parent(os.getppid()))
    handler = Handler()
    def connection():
        global connections
        connections += 1
        with open(os.path.join(out, ".connections"), "w") as f:
            f.write(str(connections))
        os.replace(os.path.join(out, ".connections"), os.path.join(out, "connections"))
        return SMTP(handler, authenticator=authenticate, auth_require_tls=False, decode_data=False, hostname="sink.test")

    server = await loop.create_server(
        connection,
        "127.0.0.1",
        0,
    )
    port = server.sockets[0].getsockname()[1]
    with open(os.path.join(out, ".port"), "w") as f:
        f.write(str(port))
    os.rename(os.path.join(out, ".port"), os.path.join(out, "port"))
    await server.serve_forever()


asyncio.run(main())
