-- wrk script for bench/isolation's scoring_fairness: company A records results whose script sorts in C until its
-- scoring worker is killed at the deadline (bench/hostile_pack.json, a time over 50 s). POST
-- /v1/clients/{id}/results; Authorization from wrk's -H. The result is stored with its score error each time.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = string.format(
    '{"exerciseId": "bench-hostile-stand", "values": {"time": 99}, "recordedAt": "%s"}',
    os.date("!%Y-%m-%dT%H:%M:%SZ", os.time() - 3600)
)
