"""Probes a server that has just started, for bench/isolation's restart_under_load: GET /health and another company's
client search, each one request at a time (a new connection each, 50 ms apart), for SECONDS, and prints each one's
"name n=… p50=…ms p99=…ms max=…ms" (a request that fails counts as 60 s):

    python3 bench/restart_probe.py PORT OTHER_TOKEN SECONDS
"""
import http.client
import sys
import threading
import time


def probe(port, path, token, seconds, out):
    end = time.time() + seconds
    while time.time() < end:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        started = time.time()
        try:
            connection.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
            response = connection.getresponse()
            response.read()
            out.append(time.time() - started if response.status == 200 else 60)
        except OSError:
            out.append(60)
        connection.close()
        time.sleep(0.05)


def main():
    port, token, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    results = {"health": [], "other_search": []}
    threads = [threading.Thread(target=probe, args=(port, "/health", None, seconds, results["health"])),
               threading.Thread(target=probe, args=(port, "/v1/clients?q=ana", token, seconds, results["other_search"]))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name, times in results.items():
        times.sort()
        p99 = times[max(0, int(len(times) * 0.99) - 1)]
        print(f"{name} n={len(times)} p50={1000 * times[len(times) // 2]:.1f} p99={1000 * p99:.1f} max={1000 * times[-1]:.1f}")


if __name__ == "__main__":
    main()
