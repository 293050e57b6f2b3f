"""Schemathesis hooks for scripts/contract (loaded through SCHEMATHESIS_HOOKS).

Checks stay as schemathesis ships them. What is here teaches the generator the few rules JSON Schema cannot
state, so that a request it calls valid is one the API documents as valid; each rule is named in the operation's
description in openapi.yaml:
- PUT /v1/theme: text and muted text contrast 4.5:1 with the background, and the flag colour stands apart
  (CIE76 ΔE 25) from every category colour; the hook moves a generated valid theme's colours to fit.
- Idempotency-Key: one key names one request (the IETF draft answers a key reused for another body with 422);
  the hook gives every generated valid request a key of its own.
- POST /v1/clients/{id}/report/email: a mailed period must not end before it starts (a report of nothing is a
  mistake; the report itself just shows an empty period); the hook leaves `from` out of an inverted period.
- Dates against the clock: a birth date in the past 130 years, a result's recordedAt at most 5 minutes ahead, an
  app's takenAt and completedAt within the last 30 days (and takenAt the same moment as recordedAt when both are
  sent); the hook moves generated valid dates that break them into range.
- POST /v1/results/{id}/media: the bytes must be the declared type (the server reads their signature); the hook
  puts a real picture or movie of that type in a generated valid upload.
- POST /v1/exercise-packs: every script must reproduce its pack's examples; the hook sends a real pack (a
  shipped one under another id, at a generated version) as a generated valid import.
- POST and PATCH /v1/webhooks: the URL must be https without credentials, and its host no address of the
  server's own network (loopback, private, link-local, …), which a pattern cannot say; the hook gives a generated
  valid request an https URL under hooks.example.com (a name that resolves nowhere, so no delivery leaves).
- GET /v1/changes: `wait` holds a request up to 30 s when nothing changes, past the run's request timeout (20 s);
  the hook waits at most a second, so every wait is exercised and none is cut off.
Negative cases are left alone, with one exception: schemathesis 4.32's stateful phase can label as "missing
required property" a body that leaves out an optional one it filled from a linked response (a report email
without `to`, which defaults to the client's address); such a case is no violation, and is not sent. It also
works around a CPython 3.11 bug (gh-106905) that makes hypothesis fail while describing a lambda for its own
reports.
"""
import datetime
import json
import pathlib
import struct
import uuid

import schemathesis
from hypothesis.internal import lambda_sources
from schemathesis.generation import GenerationMode

_describe = lambda_sources._lambda_description


def _describe_safely(f, *args, **kwargs):
    try:
        return _describe(f, *args, **kwargs)
    except SystemError:  # "AST constructor recursion depth mismatch", CPython gh-106905
        return "lambda: <unknown>"


lambda_sources._lambda_description = _describe_safely


def _positive(case):
    return case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE


def _linear(component):
    value = component / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _rgb(hex_colour):
    return [int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]


def _luminance(hex_colour):
    r, g, b = (_linear(c) for c in _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a, b):
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def _lab(hex_colour):
    r, g, b = (_linear(c) for c in _rgb(hex_colour))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _difference(a, b):
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b))) ** 0.5


_categories = sorted(json.loads(path.read_text())["id"] for path in (pathlib.Path(__file__).resolve().parents[2] / "Exercises").glob("*.json"))


@schemathesis.hook("map_case").apply_to(method="PUT", path="/v1/theme")
def readable_theme(context, case):
    theme = case.body.get("theme") if _positive(case) and isinstance(case.body, dict) else None
    colours = theme.get("colours") if isinstance(theme, dict) else None
    if not isinstance(colours, dict) or "background" not in colours:
        return case
    background = colours["background"]
    readable = "#000000" if _contrast("#000000", background) >= _contrast("#ffffff", background) else "#ffffff"
    for key in ("text", "muted"):
        if key in colours and _contrast(colours[key], background) < 4.5:
            colours[key] = readable
    categories = theme.get("categoryColours")
    if isinstance(categories, dict):
        # Keys the company has, so that the colours themselves are tried (another key is a 404).
        theme["categoryColours"] = categories = {
            _categories[index % len(_categories)]: colour for index, colour in enumerate(categories.values())
        }
    if "flag" in colours and isinstance(categories, dict):
        for category in [c for c, colour in categories.items() if _difference(colour, colours["flag"]) < 25]:
            del categories[category]
    return case


def _without_nul(value):
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, list):
        return [_without_nul(item) for item in value]
    if isinstance(value, dict):
        return {_without_nul(key): _without_nul(item) for key, item in value.items()}
    return value


@schemathesis.hook("map_case")
def text_without_nul(context, case):
    """The API refuses U+0000 in any text of a body (422 naming the field): no store keeps it, PostgreSQL's text
    cannot. JSON Schema has no way to say so for every string, so valid cases are generated without it."""
    # JSON bodies only, and only when there is a NUL to take out: an assigned body is checked against the schema
    # again, which binary and multipart bodies would fail.
    if _positive(case) and case.media_type == "application/json" and case.body is not None:
        cleaned = _without_nul(case.body)
        if cleaned != case.body:
            case.body = cleaned
    return case


@schemathesis.hook("map_case")
def one_key_per_request(context, case):
    if _positive(case) and case.headers and "Idempotency-Key" in case.headers:
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
    return case


def _within_clock(value):
    """Generated dates moved into what the clock allows, wherever they sit in a body."""
    if isinstance(value, list):
        return [_within_clock(item) for item in value]
    if not isinstance(value, dict):
        return value
    # The server checks birth dates against the UTC day, whatever the runner's time zone.
    today = datetime.datetime.now(datetime.timezone.utc).date()
    for key, item in value.items():
        if key == "birthDate" and isinstance(item, str):
            try:
                born = datetime.date.fromisoformat(item)
            except ValueError:
                continue
            if born > today or today.year - born.year > 130:
                value[key] = "1990-01-01"
        elif key == "recordedAt" and isinstance(item, str):
            try:
                at = datetime.datetime.fromisoformat(item.replace("Z", "+00:00"))
            except ValueError:
                continue
            if at.tzinfo is not None and at > datetime.datetime.now(datetime.timezone.utc):
                value[key] = "2024-01-01T00:00:00Z"
            elif at.year < 1990:
                # Not before the seeded clients' birth dates: that is a conflict with a stored client (409), which
                # the stateful phase sees on clients it made itself.
                value[key] = "2024-01-01T00:00:00Z"
        elif key in ("takenAt", "completedAt") and isinstance(item, str):
            # What an app did offline: within the last 30 days, not ahead of the server.
            try:
                at = datetime.datetime.fromisoformat(item.replace("Z", "+00:00"))
            except ValueError:
                continue
            now = datetime.datetime.now(datetime.timezone.utc)
            if at.tzinfo is None or at > now or at < now - datetime.timedelta(days=29):
                value[key] = (now - datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        else:
            value[key] = _within_clock(item)
    # A result's takenAt is its recordedAt: one moment when both are sent.
    if "takenAt" in value and "recordedAt" in value:
        value["recordedAt"] = value["takenAt"]
    return value


def _instant(text, end_of_day=False):
    try:
        if len(text) == 10:
            day = datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.timezone.utc)
            return day + datetime.timedelta(days=1) if end_of_day else day
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


@schemathesis.hook("map_case").apply_to(method="POST", path="/v1/clients/{id}/report/email")
def period_in_order(context, case):
    period = case.body.get("period") if _positive(case) and isinstance(case.body, dict) else None
    if isinstance(period, dict) and isinstance(period.get("from"), str):
        start = _instant(period["from"])
        end = _instant(period["to"], end_of_day=True) if isinstance(period.get("to"), str) else datetime.datetime.now(datetime.timezone.utc)
        if start is None or end is None or start.tzinfo is None or end.tzinfo is None or start > end:
            del period["from"]
    return case


@schemathesis.hook("map_case")
def dates_the_clock_allows(context, case):
    if _positive(case) and isinstance(case.body, (dict, list)):
        case.body = _within_clock(case.body)
    return case


_root = pathlib.Path(__file__).resolve().parents[2]
_fixtures = _root / "Tests" / "Fixtures"
_movie = struct.pack(">I", 20) + b"ftypqt  " + b"\0\0\0\0" + b"qt  " + struct.pack(">I", 8 + 1024) + b"mdat" + bytes(1024)
_files = {
    "image/jpeg": (_fixtures / "photo-32x24.jpg").read_bytes(),
    "image/png": (_fixtures / "photo-32x24.png").read_bytes(),
    "image/heic": (_fixtures / "photo-96x64.heic").read_bytes(),
    "video/quicktime": _movie,
    "video/mp4": _movie.replace(b"ftypqt  ", b"ftypisom").replace(b"qt  ", b"isom"),
}


@schemathesis.hook("map_case").apply_to(method="POST", path="/v1/results/{id}/media")
def real_media(context, case):
    if not _positive(case):
        return case
    # Set past schemathesis' change tracking: it re-checks an edited body against the schema and cannot check
    # bytes, so it would count the real file as an invalid body.
    if case.media_type == "multipart/form-data" and isinstance(case.body, dict):
        object.__setattr__(case, "body", {**case.body, "file": _files["image/jpeg"]})
    elif case.media_type in _files:
        object.__setattr__(case, "body", _files[case.media_type])
    return case


_pack = json.loads((_root / "Exercises" / "strength.json").read_text())


@schemathesis.hook("map_case").apply_to(method="POST", path="/v1/exercise-packs")
def real_pack(context, case):
    if not _positive(case):
        return case
    pack = json.loads(json.dumps(_pack))
    pack.pop("translations", None)
    pack["id"] = "contract-strength"
    pack["name"] = "Contract strength"
    pack["version"] = case.body.get("version", 1) if isinstance(case.body, dict) else 1
    for exercise in pack["exercises"]:
        exercise["id"] = "contract-" + exercise["id"]
        exercise.pop("translations", None)
    case.body = pack
    return case


def _body_required(case):
    """The top-level `required` of the case's JSON body schema, or None when it is not a plain object schema."""
    body = case.operation.definition.raw.get("requestBody", {}).get("content", {}).get(case.media_type or "", {})
    schema = body.get("schema", {})
    if not isinstance(schema, dict) or any(key in schema for key in ("$ref", "allOf", "anyOf", "oneOf", "not")):
        return None
    return set(schema.get("required", []))


@schemathesis.hook("filter_case")
def only_real_violations(context, case):
    meta = case.meta
    description = getattr(getattr(meta, "phase", None), "data", None)
    description = getattr(description, "description", None) or ""
    if meta is None or meta.generation.mode != GenerationMode.NEGATIVE or not description.startswith("Missing required property: "):
        return True
    required = _body_required(case)
    return required is None or description.removeprefix("Missing required property: ") in required



@schemathesis.hook("map_case").apply_to(method="GET", path="/v1/changes")
def short_waits(context, case):
    wait = (case.query or {}).get("wait")
    if isinstance(wait, int) and not isinstance(wait, bool) and wait > 1:
        case.query["wait"] = 1
    return case


def _webhook_url(case):
    if _positive(case) and isinstance(case.body, dict) and "url" in case.body:
        case.body["url"] = "https://hooks.example.com/" + uuid.uuid4().hex
    return case


@schemathesis.hook("map_case").apply_to(method="POST", path="/v1/webhooks")
def webhook_url_on_register(context, case):
    return _webhook_url(case)


@schemathesis.hook("map_case").apply_to(method="PATCH", path="/v1/webhooks/{id}")
def webhook_url_on_change(context, case):
    return _webhook_url(case)
