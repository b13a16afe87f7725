#!/bin/bash
# --report FILE.html in a real browser: a run on the FUSE fault disk whose latency steps from
# 1 ms to 10 ms midway is recorded with --iostat, replayed with --report, and the file rendered
# by headless Chromium (--dump-dom): every section, axis label and plot is there; the heatmap
# shows the two bands at the right times; the histogram's p99 marker sits at the run's p99
# (the replayed summary's) within one bucket; the device plot's aqu-sz is the recorded rows';
# nothing remote is referenced. Screenshots are kept in the build directory
# (report-screenshot.png, report-screenshot-dark.png: the dark colour scheme). Also: an existing report is refused, --report without a recording
# is refused, a live run's --record F --report OUT writes the same sections, and a replay of
# something that is no recording leaves no file. Chromium's own network log (--log-net-log)
# holds no request made for the report's page (a copy with one remote image shows that the
# check sees one). A --sweep's report: the operators' table, achieved against asked with the
# knee marked, the knee line; a size x depth grid's: its best point and limit, one recording.
. "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser) || skip "needs chromium"
require_cmd python3
require_fuse
command -v losetup >/dev/null || skip "needs losetup"
BUILD=$(dirname "$IOPROBE")
R=$T_TMP/rec.jsonl.gz
H=$T_TMP/report.html

# dom FILE OUT: the DOM Chromium renders from FILE (no network: file:// only)
dom() {
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T_TMP/chromium" --dump-dom "file://$1" >"$2" 2>"$T_TMP/chromium.err"
}

# ---- usage ----
probe --report "$T_TMP/x.html" -c 1 "$T_TMP"
check "--report without a recording: exit 1, said" \
	eval 'rc_is 1 && err_prefixed && \
	[ ! -e "$T_TMP/x.html" ]'
echo nothing >"$T_TMP/not.jsonl"
probe --replay "$T_TMP/not.jsonl" --report "$T_TMP/n.html"
check "--replay of no recording --report: exit 2, no file left" \
	eval 'rc_is 2 && err_prefixed && \
	[ ! -e "$T_TMP/n.html" ]'

# ---- a stepped run on the fault disk ----
M=$T_TMP/fd
DEV=$(make_fault_disk "$M" 32M --latency 1ms) || { fail "mount faultdisk"; finish; }
"$IOPROBE" -D -i 20ms -w 8 --iostat -q --record "$R" "$DEV" \
	>"$T_TMP/live.out" 2>"$T_TMP/live.err" &
pid=$!
sleep 4
fault_ctl "$M" "latency 10ms"
wait "$pid"
LIVE_RC=$?
check "the stepped run is recorded (exit 0)" eval '[ "$LIVE_RC" = 0 ] && [ -s "$R" ]'
probe --replay "$R" --report "$H"
check "--replay --report: exit 0, the summary printed as before, a report written" eval 'rc_is 0 && err_empty && out_has '\''p50/p90/p99/p99.9'\'' && [ -s "$H" ]'
P99=$(sed -nE 's|^p50/p90/p99/p99.9 = [^/]+/ [^/]+/ ([0-9.]+ [mun]?s) /.*|\1|p' "$OUT")
probe --replay "$R" --report "$H"
check "an existing report is refused (exit 1), left as it was" \
	eval 'rc_is 1 && err_prefixed && \
	err_has '\''exists'\'' && grep -q '\''</html>'\'' "$H"'

dom "$H" "$T_TMP/dom.html"
check "chromium renders the report" [ -s "$T_TMP/dom.html" ]
timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
	--user-data-dir="$T_TMP/chromium" --screenshot="$BUILD/report-screenshot.png" \
	--window-size=1280,2000 "file://$H" >/dev/null 2>&1
check "a screenshot: a non-empty PNG in the build directory" python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n" and len(d) > 10000, len(d)
' "$BUILD/report-screenshot.png"

timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
	--user-data-dir="$T_TMP/chromium" --blink-settings=preferredColorScheme=0 \
	--screenshot="$BUILD/report-screenshot-dark.png" --window-size=1280,2000 "file://$H" \
	>/dev/null 2>&1
check "a dark-scheme screenshot too, unlike the light one" python3 -c '
import sys
a, b = (open(p, "rb").read() for p in sys.argv[1:3])
assert b[:8] == b"\x89PNG\r\n\x1a\n" and len(b) > 10000 and a != b
' "$BUILD/report-screenshot.png" "$BUILD/report-screenshot-dark.png"
check "from the DOM: sections, plots, axis labels, bands, p99 marker, aqu-sz, nothing remote" \
	python3 - "$T_TMP/dom.html" "$H" "$R" "$P99" <<'PY'
import gzip, json, re, sys
from html.parser import HTMLParser

dom_path, file_path, rec_path, p99_text = sys.argv[1:5]

class Tree(HTMLParser):
    def __init__(self):
        super().__init__()
        self.els, self.stack = [], []
    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "a": dict(attrs), "text": "", "parents": list(self.stack), "kids": []}
        for p in self.stack:
            p["kids"].append(e)
        self.els.append(e)
        if tag not in ("br", "meta", "line", "rect", "polyline", "img", "link", "input"):
            self.stack.append(e)
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1]["tag"] == tag:
            self.stack.pop()
    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                break
    def handle_data(self, d):
        for e in self.stack:
            e["text"] += d

t = Tree()
t.feed(open(dom_path).read())
def cls(e): return e["a"].get("class", "").split()
def find(tag=None, c=None, id=None, within=None):
    pool = within["kids"] if within else t.els
    return [e for e in pool if (tag is None or e["tag"] == tag) and
            (c is None or all(x in cls(e) for x in c.split())) and
            (id is None or e["a"].get("id") == id)]
def one(**kw):
    r = find(**kw)
    assert len(r) == 1, (kw, len(r))
    return r[0]

# every section and plot
run = one(tag="section", id="run")
assert "--record" in one(tag="code", c="cmdline")["text"]
for k in ("host", "kernel", "version"):
    assert one(tag="dd", c=k)["text"].strip(), k
tgt = one(tag="section", id="target-0")
heat = one(tag="svg", id="heatmap-0")
hist = one(tag="svg", id="histogram-0")
pct = one(tag="table", id="pct-0")
rate = one(tag="svg", id="rate-0")
devs = find(tag="svg", c="device")
assert devs, "no device plot"
assert not find(tag="section", id="compare"), "a comparison for one target"
# axis labels, with units
def labels(svg): return [e["text"].strip() for e in find(c="axis-label", within=svg)]
assert "time since start (s)" in labels(heat) and "latency (ms, log scale)" in labels(heat), labels(heat)
assert "latency (ms, log scale)" in labels(hist) and "requests (count)" in labels(hist), labels(hist)
assert "time since start (s)" in labels(rate) and "requests/s" in labels(rate), labels(rate)
dev = devs[0]
want = ["r/s (1/s)", "w/s (1/s)", "f/s (1/s)", "areq-sz (kB)", "aqu-sz (requests)", "await (ms)",
        "%util (%)", "time since start (s)"]
assert all(w in labels(dev) for w in want), labels(dev)
# plots: heat cells, p50/p99 lines, histogram bars and markers, rate lines, device series, verdicts
assert find(tag="polyline", c="pline p50", within=heat) and find(tag="polyline", c="pline p99", within=heat)
assert len(find(tag="rect", c="bar", within=hist)) >= 2
for m in ("p50", "p99", "p999"):
    assert len(find(tag="line", c="marker " + m, within=hist)) == 1, m
assert find(tag="polyline", c="achieved", within=rate) and find(tag="line", c="asked", within=rate)
assert float(one(tag="line", c="asked")["a"]["data-v"]) == 50.0
assert find(tag="rect", c="verdict", within=dev)
metrics = {g["a"]["data-metric"]: g for g in find(tag="g", c="metric", within=dev)}
assert sorted(metrics) == sorted(["r/s", "w/s", "f/s", "areq-sz", "aqu-sz", "await", "%util"]), list(metrics)
rows = [tr for tr in find(tag="tr", within=pct)]
heads = [find(tag="th", within=r_)[0]["text"].strip() for r_ in rows]
assert heads[1:6] == ["min", "p50", "p90", "p99", "p99.9"], heads

# the heatmap's two bands: each column's heaviest cell near 1 ms before the step, near 10 ms after
bands = []
for col in find(tag="g", c="col", within=heat):
    cells = find(tag="rect", c="cell", within=col)
    if not cells:
        continue
    top = max(cells, key=lambda c: int(c["a"]["data-n"]))
    mid = (int(top["a"]["data-lo"]) * int(top["a"]["data-hi"])) ** 0.5
    bands.append((float(col["a"]["data-t0"]), float(col["a"]["data-t1"]), mid))
early = [m for t0, t1, m in bands if t1 <= 3.5]
late = [m for t0, t1, m in bands if t0 >= 5.0]
assert len(early) >= 2 and len(late) >= 2, bands
assert all(0.7e6 < m < 1.6e6 for m in early), ("early band", bands)
assert all(7e6 < m < 14e6 for m in late), ("late band", bands)

# the p99 marker at the run's p99 (the replayed summary's), within one bucket
num, unit = p99_text.split()
p99 = float(num) * {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1}[unit]
mk = one(tag="line", c="marker p99")
ns = int(mk["a"]["data-ns"])
assert abs(ns - p99) <= 0.01 * p99 + 1e4, (ns, p99)
x = float(mk["a"]["x1"])
bars = find(tag="rect", c="bar", within=hist)
width = max(float(b["a"]["width"]) for b in bars) + 1
hit = [b for b in bars if int(b["a"]["data-lo"]) <= p99 < int(b["a"]["data-hi"]) or
       abs(float(b["a"]["x"]) + float(b["a"]["width"]) / 2 - x) <= width]
assert hit, (x, p99)
b = min(bars, key=lambda b: abs(float(b["a"]["x"]) + float(b["a"]["width"]) / 2 - x))
assert abs(float(b["a"]["x"]) + float(b["a"]["width"]) / 2 - x) <= 1.5 * width, (x, b["a"])

# aqu-sz as recorded: the device's rows in the recording, in order
name = dev["a"]["data-dev"]
rec = [json.loads(l) for l in gzip.open(rec_path, "rt")]
aqu = []
for l in rec:
    if l["type"] == "iostat":
        for d in l["rows"] if "rows" in l else l["devices"]:
            if d.get("disk_device", d.get("name")) == name:
                aqu.append(d["aqu-sz"])
drawn = [float(v) for v in one(tag="polyline", within=metrics["aqu-sz"])["a"]["data-v"].split()]
assert len(aqu) >= 5 and len(drawn) == len(aqu), (len(drawn), len(aqu))
assert all(abs(a - b) <= 0.006 for a, b in zip(drawn, aqu)), (drawn, aqu)
assert max(aqu) > 0.3 and min(aqu) < 0.2, aqu

# nothing remote: no http(s): anywhere, no src= or href= but data: or #fragments
raw = open(file_path).read()
assert "http:" not in raw and "https:" not in raw and "//" not in re.sub(r"<style>.*?</style>", "", raw, flags=re.S).replace("</", ""), "remote"
for m in re.finditer(r'\b(src|href)\s*=\s*"([^"]*)"', raw):
    assert m.group(2).startswith(("data:", "#")), m.group(0)
assert "<script" not in raw.lower()
PY

# ---- no network request: Chromium's network log of the page ----
# netreqs FILE LOG: the URLs requested for FILE's page (the requests whose network isolation key
# is the file:// page's: the browser's own update and account requests have other keys)
netreqs() {
	rm -rf "$T_TMP/chromium-net"
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$T_TMP/chromium-net" --log-net-log="$2" \
		--net-log-capture-mode=Everything --dump-dom "file://$1" >/dev/null 2>&1
	python3 - "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
start = d["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
for e in d["events"]:
    p = e.get("params", {})
    if e["type"] == start and "file://" in p.get("network_isolation_key", "") and \
            not p.get("url", "").startswith(("file:", "data:")):
        print(p.get("url"))
PY
}
sed 's|</body>|<img src="http://127.0.0.1:9/remote.png"></body>|' "$H" >"$T_TMP/remote.html"
netreqs "$T_TMP/remote.html" "$T_TMP/remote.netlog" >"$T_TMP/remote.reqs"
check "the network log sees a page's remote request (a copy with one remote image)" \
	grep -qx 'http://127.0.0.1:9/remote.png' "$T_TMP/remote.reqs"
netreqs "$H" "$T_TMP/report.netlog" >"$T_TMP/report.reqs"
check "the report makes no network request (Chromium's network log of its page is empty)" \
	eval '[ -s "$T_TMP/report.netlog" ] && [ ! -s "$T_TMP/report.reqs" ]'

# ---- a sweep: its table, achieved against asked, the knee ----
fault_ctl "$M" "latency 10ms" # about 100 requests/s at depth 1: 200/s falls short
probe --sweep=25,50,200 -w 1 --record "$T_TMP/sweep.jsonl" --report "$T_TMP/sweep.html" "$DEV"
cp "$OUT" "$T_TMP/sweep.live"
check "--sweep --record --report: exit 0, a knee line, a report" \
	eval 'rc_is 0 && \
	out_has '\''^keeps up to ~50/s'\'' && grep -q '\''id="sweep-0"'\'' "$T_TMP/sweep.html"'
probe --replay "$T_TMP/sweep.jsonl"
check "the sweep replays as printed: the table and the knee line, no summary" \
	eval 'rc_is 0 && diff "$T_TMP/sweep.live" "$OUT" >/dev/null && ! out_has "ioprobe statistics"'
dom "$T_TMP/sweep.html" "$T_TMP/sweep.dom"
check "the sweep's section: three steps against asked, the knee at 50/s, the table, labels" \
	python3 - "$T_TMP/sweep.dom" <<'PY'
import re, sys
d = open(sys.argv[1]).read()
sec = re.search(r'<section class="sweep" id="sweep-0">(.*?)</section>', d, re.S).group(1)
plot = re.search(r'<svg class="sweep" id="sweepplot-0".*?</svg>', sec, re.S).group(0)
steps = re.findall(r'<circle class="step s0 (kept|short)"[^>]*data-asked="([\d.]+)" '
                   r'data-achieved="([\d.]+)"', plot)
assert [float(a) for _, a, _ in steps] == [25, 50, 200], steps
assert [k for k, _, _ in steps] == ["kept", "kept", "short"], steps
assert float(steps[2][2]) < 180, steps        # got well under 200/s
knee = re.findall(r'<circle class="knee"[^>]*data-step="(\d+)"', plot)
assert knee == ["1"], knee
assert "asked (requests/s, log)" in plot and "achieved (requests/s, log)" in plot
rows = re.findall(r'<tr( class="[^"]*")?><td>4 KiB</td>', sec)
assert len(rows) == 3 and rows[1] == ' class="knee"', rows
assert re.search(r'<pre class="conclusions">keeps up to ~50/s', sec), sec[-400:]
PY

# ---- a size x depth grid: one recording, its best point and limit ----
probe -A --sweep=100,200 -w 300ms -s 4k,8k -Q 1,2 --record "$T_TMP/grid.jsonl" \
	--report "$T_TMP/grid.html" "$T_TMP"
cp "$OUT" "$T_TMP/grid.live"
check "a grid with --record --report: exit 0, one recording of its 8 steps, a report" \
	eval 'rc_is 0 && err_empty && [ "$(grep -c "\"type\":\"step\"" "$T_TMP/grid.jsonl")" = 8 ] &&
	      grep -q "id=\"sweep-0\"" "$T_TMP/grid.html"'
probe --replay "$T_TMP/grid.jsonl"
check "the grid replays its table, best and limit as printed (its plan line is not recorded)" \
	eval 'rc_is 0 && diff <(grep -v "^plan:" "$T_TMP/grid.live") "$OUT" >/dev/null'
check "the grid's report: four series, the best and the limit marked, rows marked" \
	python3 - "$T_TMP/grid.html" <<'PY'
import re, sys
d = open(sys.argv[1]).read()
assert len(re.findall(r'<polyline class="series s\d"', d)) == 4
assert re.search(r'<circle class="best"', d) and re.search(r'<circle class="limit"', d)
assert re.search(r'<tr class="[^"]*best', d) and re.search(r'<tr class="[^"]*limit', d)
assert "Sweep across sizes and depths" in d and re.search(r'<pre class="conclusions">best: ', d)
PY

# ---- refusals and damage ----
ln -s "$T_TMP/elsewhere.html" "$T_TMP/link.html"
probe --replay "$R" --report "$T_TMP/link.html"
check "a symbolic link as the report is refused (exit 1), nothing made behind it" eval 'rc_is 1 && err_prefixed && [ ! -e "$T_TMP/elsewhere.html" ]'
probe --engine=null -c 3 -i 10ms -q --record "$T_TMP/same" --report "$T_TMP/same" "$T_TMP"
check "--record and --report on one name: exit 1, no file left" eval 'rc_is 1 && err_prefixed && [ ! -e "$T_TMP/same" ]'
zcat "$R" | head -c "$(( $(zcat "$R" | wc -c) * 2 / 3 ))" >"$T_TMP/cut.jsonl"
probe --replay "$T_TMP/cut.jsonl" --report "$T_TMP/cut.html" -q
check "a cut recording: exit 3, said, the report drawn up to the cut" \
	eval 'rc_is 3 && err_prefixed && grep -q '\''id="heatmap-0"'\'' "$T_TMP/cut.html" && \
	grep -q '\''</html>'\'' "$T_TMP/cut.html"'

# ---- a live run: --record F --report OUT ----
probe -D -i 20ms -w 2 --iostat -q --record "$T_TMP/live.jsonl" --report "$T_TMP/live.html" "$DEV"
check "--record --report: exit 0, the report written at the end" \
	eval 'rc_is 0 && err_empty && \
	grep -q '\''id="heatmap-0"'\'' "$T_TMP/live.html" && grep -q '\''class="device"'\'' "$T_TMP/live.html"'

# ---- two targets: the comparison first, the slowest marked ----
mkdir -p "$T_TMP/dir"
probe -i 20ms -w 2 -q --record "$T_TMP/two.jsonl" --report "$T_TMP/two.html" "$DEV" "$T_TMP/dir"
dom "$T_TMP/two.html" "$T_TMP/two.dom"
check "two targets: a comparison section first, one row each, the fault disk the slowest" \
	python3 - "$T_TMP/two.dom" "$DEV" <<'PY'
import re, sys
d = open(sys.argv[1]).read()
assert d.index('id="compare"') < d.index('id="target-0"') < d.index('id="target-1"')
rows = re.findall(r'<tr class="cmp( slowest)?" data-target="(\d)">(.*?)</tr>', d, re.S)
assert len(rows) == 2, rows
slow = [r for r in rows if r[0]]
assert len(slow) == 1 and sys.argv[2] in slow[0][2], slow
assert all('class="heatmap small"' in r[2] for r in rows)
PY

finish
