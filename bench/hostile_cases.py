#!/usr/bin/env python3
"""Sends each hostile scoring script of the step-6 cases to a running server and prints how long each answer
took and what it said, with /health polled meanwhile (its slowest answer is printed too).

Usage: BENCH_TOKEN=<admin token> bench/hostile_cases.py http://127.0.0.1:8080
Each case is a one-exercise company pack whose script turns hostile past 50 s (its example, 48 s, scores 5), then
one POST /v1/exercises/{id}/score with 99 s. Target: each answered with an error within about twice the time
limit (the server kills a worker at 150 ms), and /health never slower than that."""
import json, os, sys, threading, time, urllib.request

base = sys.argv[1]
token = os.environ["BENCH_TOKEN"]
cases = {
    "sort-c-metamethods-1e7": "local t = setmetatable({}, {__len = function() return 1e7 end, __index = rawlen, __newindex = rawequal}) table.sort(t)",
    "sort-c-metamethods-2^31-2": "local t = setmetatable({}, {__len = function() return 2^31 - 2 end, __index = rawlen, __newindex = rawequal}) table.sort(t)",
    "sort-long-strings": "local s = string.rep('x', 400000) local t = {} for i = 1, 20000 do t[i] = s end table.sort(t)",
    "long-string-compare-loop": "local s = string.rep('x', 400000) local n = 0 while true do if s < s then n = n + 1 end end",
    "deep-index-chain-sort": "local t = setmetatable({}, {__index = rawlen}) for i = 1, 1990 do t = setmetatable({}, {__index = t}) end "
    "local top = setmetatable({}, {__index = t, __newindex = rawequal, __len = function() return 1e7 end}) table.sort(top)",
    "concat-large": "local t = {} for i = 1, 1e6 do t[i] = 'xxxxxxxxxx' end local s = table.concat(t)",
    "format-large": "local s = string.rep('x', 500000) local r = string.format('%s%s%s', s, s, s)",
    "xpcall-handler-loop": "xpcall(function() error('e') end, function() while true do end end)",
    "pcall-loop": "while true do pcall(function() while true do end end) end",
}

def call(method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")

health_worst = [0.0]
stop = threading.Event()
def poll_health():
    while not stop.is_set():
        started = time.monotonic()
        urllib.request.urlopen(base + "/health", timeout=60).read()
        health_worst[0] = max(health_worst[0], time.monotonic() - started)
        time.sleep(0.01)
threading.Thread(target=poll_health, daemon=True).start()

for index, (name, hostile) in enumerate(cases.items()):
    exercise = f"hostile-{index}-{int(time.time())}"
    pack = {"id": f"hostile-{index}-{int(time.time())}", "name": "Hostile", "colour": "#112233", "order": 99, "version": 1,
            "exercises": [{"id": exercise, "name": "Hostile", "description": "hostile past 50 s",
                           "fields": [{"key": "time", "label": "Time", "quantity": "duration", "unit": "s"}], "primaryField": "time",
                           "conversionAlgorithm": f"if value > 50 then {hostile} end return 5", "steps": [{"text": "x"}], "source": "bench",
                           "examples": [{"client": {"sex": "female", "age": 40, "height": 1.7, "mass": 60}, "values": {"time": 48}, "score": 5}]}]}
    status, answer = call("POST", "/v1/exercise-packs", pack)
    if status != 201:
        print(f"{name}: pack refused {status} {answer}")
        continue
    started = time.monotonic()
    status, answer = call("POST", f"/v1/exercises/{exercise}/score", {"values": {"time": 99}, "client": {"sex": "female", "age": 40}})
    elapsed = (time.monotonic() - started) * 1000
    print(f"{name}: {elapsed:.0f} ms, HTTP {status}, score={answer.get('score')} scoreError={answer.get('scoreError')!r}")
stop.set()
print(f"health: slowest answer while the cases ran {health_worst[0] * 1000:.0f} ms")
