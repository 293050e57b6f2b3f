-- wrk script for bench/run's results_post: records a resting heart rate for the client in the URL
-- (POST /v1/clients/{id}/results) under the sessions in BENCH_TOKENS, in turn (bench/sessions.lua). Every request
-- sends the same body, recorded an hour before wrk started; each one adds a new result (no Idempotency-Key, no
-- amendRecent).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = string.format(
    '{"exerciseId": "resting-heart-rate", "values": {"heartRate": 62}, "recordedAt": "%s"}',
    os.date("!%Y-%m-%dT%H:%M:%SZ", os.time() - 3600)
)
dofile("bench/sessions.lua")
