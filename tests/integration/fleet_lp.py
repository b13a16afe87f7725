#!/usr/bin/env python3
"""A strict InfluxDB line-protocol parser for `ioprobe --influx` output (t_fleet_out.sh).

Usage: fleet_lp.py FILE TARGET [MIN_LINES]
Parses every line per the line protocol reference (measurement, escaped tags, typed
fields, integer ns timestamp), then checks what ioprobe promises: measurement
"ioprobe", tags target (== TARGET once unescaped) and operation, integer
requests/errors/bytes/in_flight/skipped, float oldest_in_flight_ms (> 0 exactly when
something is in flight), float *_ms latencies in order, increasing timestamps near now.
Prints "ok - ..."/"FAIL - ..." lines; exits 1 on any failure.
"""
import re
import sys
import time

FAILS = 0


def report(ok, text):
    global FAILS
    print(("ok - " if ok else "FAIL - ") + text, flush=True)
    FAILS += not ok


def split_unescaped(s, sep, escapable):
    """Split s at unescaped sep; unescape \\<escapable>. Raise on a trailing backslash."""
    parts, cur, i = [], "", 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            if i + 1 >= len(s):
                raise ValueError("trailing backslash")
            if s[i + 1] in escapable:
                cur += s[i + 1]
                i += 2
                continue
            cur += c
            i += 1
            continue
        if c == sep:
            parts.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    parts.append(cur)
    return parts


def split_escaped(s, sep):
    """Split s at unescaped sep, keeping every escape as it is (unescaped once, later)."""
    parts, cur, i = [], "", 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            cur += s[i:i + 2]
            i += 2
            continue
        if s[i] == sep:
            parts.append(cur)
            cur = ""
        else:
            cur += s[i]
        i += 1
    parts.append(cur)
    return parts


def split_sections(line):
    """measurement+tags, fields, timestamp: split at unescaped spaces (fields may hold
    quoted strings)."""
    out, cur, i, quoted = [], "", 0, False
    while i < len(line):
        c = line[i]
        if c == "\\" and i + 1 < len(line):
            cur += line[i:i + 2]
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        if c == " " and not quoted:
            out.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    out.append(cur)
    return out


INT = re.compile(r"^-?[0-9]+i$")
FLOAT = re.compile(r"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$")


def parse(line):
    if "\n" in line or "\r" in line:
        raise ValueError("newline inside a line")
    secs = split_sections(line)
    if len(secs) != 3:
        raise ValueError("want 3 sections, got %d" % len(secs))
    head, fields, ts = secs
    mt = split_escaped(head, ",")
    meas, tags = split_unescaped(mt[0], "\0", ", \\")[0], {}
    if not meas:
        raise ValueError("empty measurement")
    for t in mt[1:]:
        m = re.match(r"^((?:\\.|[^=\\])+)=(.+)$", t)
        if not m:
            raise ValueError("bad tag %r" % t)
        key = split_unescaped(m.group(1), "\0", ", =\\")[0]
        val = split_unescaped(m.group(2), "\0", ", =\\")[0]
        if not val:
            raise ValueError("empty tag value")
        if key in tags:
            raise ValueError("duplicate tag")
        tags[key] = val
    if list(tags) != sorted(tags, key=lambda x: ["target", "operation", "device"].index(x)):
        raise ValueError("unexpected tag order %s" % list(tags))
    fv = {}
    for f in re.findall(r'((?:\\.|[^,\\"]|"(?:\\.|[^"\\])*")+)', fields):
        m = re.match(r"^((?:\\.|[^=\\])+)=(.+)$", f)
        if not m:
            raise ValueError("bad field %r" % f)
        k, v = m.group(1), m.group(2)
        if INT.match(v):
            fv[k] = int(v[:-1])
        elif FLOAT.match(v):
            fv[k] = float(v)
        elif v.startswith('"') and v.endswith('"'):
            fv[k] = v[1:-1]
        else:
            raise ValueError("bad field value %r" % v)
    if not re.match(r"^[0-9]{19}$", ts):
        raise ValueError("timestamp %r is not ns" % ts)
    return meas, tags, fv, int(ts)


def main():
    path, target = sys.argv[1], sys.argv[2]
    min_lines = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    raw = open(path, "rb").read()
    report(raw.endswith(b"\n") or not raw, "output ends with a newline")
    lines = raw.decode("utf-8").split("\n")[:-1]
    report(len(lines) >= min_lines, "%d lines (want >= %d)" % (len(lines), min_lines))
    now = time.time_ns()
    last = {}
    good = 0
    for line in lines:
        try:
            meas, tags, f, ts = parse(line)
            assert meas == "ioprobe", "measurement %r" % meas
            assert tags.get("target") == target, "target %r" % tags.get("target")
            assert tags.get("operation") in ("read", "write"), "operation"
            for k in ("requests", "errors", "bytes", "in_flight", "skipped"):
                assert isinstance(f.get(k), int), k
            assert isinstance(f.get("oldest_in_flight_ms"), float), "oldest_in_flight_ms"
            assert (f["in_flight"] > 0) == (f["oldest_in_flight_ms"] > 0), "in flight and its age"
            lat = ["min_ms", "avg_ms", "p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms"]
            if f["requests"] > f["errors"] and f["bytes"]:
                assert all(isinstance(f.get(k), float) for k in lat), "latency fields"
                assert f["min_ms"] <= f["p50_ms"] <= f["p90_ms"] <= f["p99_ms"] <= \
                    f["p999_ms"] <= f["max_ms"], "percentiles in order"
                assert f["min_ms"] <= f["avg_ms"] <= f["max_ms"], "avg within min..max"
            assert abs(now - ts) < 120e9, "timestamp near now"
            assert ts > last.get(tags["operation"], 0), "timestamps increase"
            last[tags["operation"]] = ts
            good += 1
        except (ValueError, AssertionError, KeyError) as e:
            report(False, "line %r: %s" % (line, e))
    report(good == len(lines), "%d of %d lines parse strictly" % (good, len(lines)))
    sys.exit(1 if FAILS else 0)


main()
