"""Holds photo uploads open before their last byte, for bench/isolation's upload_memory, and prints the server's
RSS above what it was before, in KiB:

    python3 bench/hold_uploads.py BASE_URL TOKEN RESULT_ID SERVER_PID [COUNT] [MIB]

COUNT (60) connections each POST /v1/results/{id}/media as image/jpeg with a Content-Length of MIB (10) MiB and send
all of it but the last byte; once every one has sent its bytes and the server's RSS has stopped growing, the RSS
is read (VmRSS), then the connections are closed (the uploads are dropped, leaving nothing).
"""
import socket
import sys
import time
import urllib.parse


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def main():
    base, token, result, pid = sys.argv[1:5]
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 60
    size = (int(sys.argv[6]) if len(sys.argv) > 6 else 10) << 20
    url = urllib.parse.urlparse(base)
    idle = rss_kb(pid)
    # A JPEG's first bytes (what the server checks first), then filler: the upload is dropped before it ends.
    body = b"\xff\xd8\xff\xe0" + bytes(size - 4)
    head = (f"POST /v1/results/{result}/media HTTP/1.1\r\nHost: {url.hostname}\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: image/jpeg\r\nContent-Length: {size}\r\n\r\n").encode()
    sockets = []
    for _ in range(count):
        connection = socket.create_connection((url.hostname, url.port))
        connection.sendall(head)
        sockets.append(connection)
    chunk = 256 << 10
    for offset in range(0, size - 1, chunk):
        piece = body[offset:min(offset + chunk, size - 1)]
        for connection in sockets:
            connection.sendall(piece)
    # The server has the bytes once its RSS stops moving (a second without growth, at most 8 s).
    peak, steady, deadline = rss_kb(pid), 0, time.time() + 8
    while steady < 4 and time.time() < deadline:
        time.sleep(0.25)
        now = rss_kb(pid)
        steady = steady + 1 if now <= peak else 0
        peak = max(peak, now)
    for connection in sockets:
        connection.close()
    print(peak - idle)


if __name__ == "__main__":
    main()
