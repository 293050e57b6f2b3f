-- wrk script for bench/run's hostile_scoring: asks for a score that keeps its scoring worker busy in C (the
-- bench pack's script sorts a table whose reads, writes and comparisons are C functions once the time passes 50 s),
-- until the server kills the worker at its deadline. POST /v1/exercises/{id}/score; Authorization from wrk's -H.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"values": {"time": 99}, "client": {"sex": "female", "age": 40}}'
