#!/usr/bin/env python3
"""No verdict contradicts the numbers printed beside it (issue 24).

    verdict_check.py FILE...

Each FILE is ioprobe --iostat output: text (a "probe: ..." line, then the verdict line, each
after "PATH: " with several targets) or -J / --json-lines (objects with an "iostat" key), or a
capture of the view (tmux capture-pane: the iostat panel's "asked ... got ..." line, then the
verdict wrapped over the rows below it, up to the footer). Fails
(exit 1, one line per contradiction) when a verdict
  - says "keeps up" while the probe got less than 99 % of what it asked over the verdict's
    window, beyond the one request allowed while the window holds fewer than 100 asked requests
    (JSON gives the window's seconds; text does not print it: it is the intervals at this asked
    rate so far, up to 3; the view: one second is assumed);
  - says "falls short" while the probe got at least what it asked;
  - gives "at most N/s" below what it got (by more than the rounding of the printed numbers);
  - says "other I/O" while the device did no more than the probe's own share;
  - says "the device saw X/s of the Y/s" with X not below Y;
  - says "probe limited: CPU" with a measured CPU wait under 50 ms of each second;
  - names a measured layer (--layers) that does not hold what the reason needs of each
    request's time: "throttled above the device" and "queued" at least half, "device slow"
    at least 85 %;
  - says "page cache: none of the probe's N measured requests" with N of 0;
  - says "the probe's requests queued X of Y" (a queue building, --layers) with X above Y.
Exit 2 when a file holds no verdict at all (nothing was checked).
"""
import json
import re
import sys

NUM = r"([0-9]+(?:\.[0-9]+)?)"
PROBE = re.compile(r"probe: asked (-|" + NUM + r"/s)  got " + NUM + r"/s")


TIME = NUM + r" (ns|us|µs|ms|s)"
UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
# a measured layer's reason: its words, the words after "X of Y", the least share of Y
LAYERS = [
    ("throttled above the device", " in the cgroup's throttle", 0.5),
    ("queued", " queued before the device", 0.5),
    ("device slow", " per request in the device", 0.85),
]


def seconds(num, unit):
    return float(num) * UNIT[unit]


def layer_problems(verdict):
    out = []
    for reason, where, share in LAYERS:
        m = re.search(reason + r": (?:got [^,]*, )?" + TIME + " of " + TIME + re.escape(where),
                      verdict)
        if m and seconds(m.group(1), m.group(2)) < share * seconds(m.group(3), m.group(4)) * 0.999:
            out.append(f"{reason} with {m.group(1)} {m.group(2)} of {m.group(3)} {m.group(4)}"
                       f" (under {share:.0%})")
    m = re.search(r"the probe's requests queued " + TIME + " of " + TIME, verdict)
    if m and seconds(m.group(1), m.group(2)) > seconds(m.group(3), m.group(4)) * 1.001:
        out.append(f"the probe's requests queued {m.group(1)} {m.group(2)}, more than their "
                   f"whole {m.group(3)} {m.group(4)}")
    m = re.search(r"page cache: none of the probe's ([0-9]+) measured requests", verdict)
    if m and int(m.group(1)) == 0:
        out.append("page cache said of no measured request")
    return out


def problems(asked, got, verdict, window=None):
    out = []
    if asked is not None and verdict.startswith("keeps up"):
        w = window if window else 1.0
        slack = 1 if asked * w < 100 else 0
        rounding = (0.05 if got < 99.5 else 0.5) * w  # the printed got is rounded
        if got * w + slack + 1e-6 < 0.99 * asked * w - rounding:
            out.append(f"keeps up with got {got}/s of {asked}/s (window {w:g} s)")
    if asked is not None and verdict.startswith("falls short") and got >= asked:
        out.append(f"falls short with got {got}/s of {asked}/s")
    for m in re.finditer(r"at most " + NUM + r"/s", verdict):
        if float(m.group(1)) < 0.95 * got - 1:
            out.append(f"at most {m.group(1)}/s below got {got}/s")
    m = re.match(r"other I/O: dev " + NUM + r"/s, the probe's own " + NUM + r"/s", verdict)
    if m and float(m.group(1)) <= float(m.group(2)):
        out.append(f"other I/O with dev {m.group(1)}/s not above own {m.group(2)}/s")
    m = re.search(r"probe limited: CPU: .*the probe waited " + NUM + r" ms of each second", verdict)
    if m and float(m.group(1)) < 50:
        out.append(f"probe limited: CPU with a wait of {m.group(1)} ms/s (under 5 %)")
    m = re.search(r"the device saw " + NUM + r"/s of the " + NUM + r"/s", verdict)
    if m and float(m.group(1)) >= float(m.group(2)):
        out.append(f"device saw {m.group(1)}/s, not less than {m.group(2)}/s")
    return out + layer_problems(verdict)


def text_pairs(lines):
    runs = {}  # per target: (asked, intervals at it so far)
    for i, line in enumerate(lines):
        path, sep, rest = line.partition(": probe: ")
        if sep:
            probe, prefix = "probe: " + rest, path + ": "
        elif line.startswith("probe: "):
            probe, prefix = line, ""
        else:
            continue
        m = PROBE.match(probe)
        if not m or i + 1 >= len(lines) or not lines[i + 1].startswith(prefix):
            continue
        asked = None if m.group(1) == "-" else float(m.group(2))
        last, k = runs.get(prefix, (None, 0))
        k = k + 1 if last == asked else 1
        runs[prefix] = (asked, k)
        yield asked, float(m.group(3)), lines[i + 1][len(prefix):], float(min(k, 3))


VIEW = re.compile(r"^[ │|]*asked (-|" + NUM + r"/s)  got " + NUM + r"/s")


def view_pairs(lines):
    """The view's rates line and the verdict wrapped below it (rows joined with a space)."""
    for i, line in enumerate(lines):
        m = VIEW.match(line)
        if not m:
            continue
        rows = []
        for row in lines[i + 1:]:
            row = row.strip(" │|")
            if not row or row.startswith("q quit") or "──" in row or row.startswith("─"):
                break
            rows.append(row)
        if rows:
            asked = None if m.group(1) == "-" else float(m.group(2))
            yield asked, float(m.group(3)), " ".join(rows), None


def json_pairs(text):
    text = text.strip()
    objs = json.loads(text) if text.startswith("[") else [json.loads(l) for l in text.splitlines() if l.strip()]
    for o in objs:
        io = o.get("iostat") if isinstance(o, dict) else None
        if not io or "verdict" not in io:
            continue
        p, v = io["probe"], io["verdict"]
        asked = p["asked"] if p["asked"] > 0 else None
        yield asked, p["achieved"], v["text"], p.get("window")


def main(files):
    bad, seen = 0, 0
    for f in files:
        text = open(f, errors="replace").read()
        s = text.lstrip()
        if s[:1] in "[{":
            pairs = json_pairs(text)
        elif "probe: asked" in text:
            pairs = text_pairs(text.splitlines())
        else:
            pairs = view_pairs(text.splitlines())
        for asked, got, verdict, window in pairs:
            seen += 1
            for p in problems(asked, got, verdict, window):
                print(f"{f}: {p}: {verdict}")
                bad += 1
    if not seen:
        print("verdict_check: no verdict found in " + " ".join(files))
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
