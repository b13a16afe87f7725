#!/bin/bash
# The shipped Prometheus rules and Grafana dashboard (packaging/prometheus,
# packaging/grafana). promtool check rules and promtool test rules; the unit tests cover
# every alert (firing on a failing series, silent on a healthy one) and every recording
# rule, each alert has a for, a severity and its annotations, and the tests' input series
# carry the label names ioprobe and node_exporter really write. Then Debian's prometheus,
# with the rules loaded, scrapes ioprobe --listen and prometheus-node-exporter (ioprobe
# --prometheus through the textfile collector, and the disk's diskstats) on the FUSE disk:
# the rule groups are healthy, every recording rule yields series, no alert fires on the
# healthy disk, IoprobeRequestHung goes pending for both probes while the disk hangs, and
# every query of the dashboard answers with series. Everything listens on 127.0.0.1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd python3
require_cmd curl
require_cmd promtool
require_cmd prometheus
require_cmd prometheus-node-exporter

RULES=$SRCDIR/packaging/prometheus/ioprobe-rules.yml
RTEST=$SRCDIR/packaging/prometheus/ioprobe-rules.test.yml
DASH=$SRCDIR/packaging/grafana/ioprobe-dashboard.json

# run CMD...: stdout and stderr of CMD in $OUT, status in $RC (shown when a check fails).
run() {
	"$@" >"$OUT" 2>&1
	RC=$?
	: >"$ERR"
}

# ---- promtool ----
NRULES=$(grep -Ec '^ *- (alert|record): ' "$RULES")
run promtool check rules "$RULES"
check "promtool check rules: exit 0" rc_is 0
check "promtool check rules: $NRULES rules found" out_has "SUCCESS: $NRULES rules found"
run promtool test rules "$RTEST"
check "promtool test rules: exit 0" rc_is 0
check "promtool test rules: SUCCESS" out_has '^ *SUCCESS$'

# ---- what the unit tests cover ----
# rules_py MODE: reads the rules and their tests with python3-yaml when it is installed, else
# with a line scan of the layout these files use (and, with yaml, checks that both agree).
# MODE "cover" prints ok/FAIL lines; MODE "series" prints "name label,label,..." for every
# input series of the tests.
rules_py() {
	python3 - "$RULES" "$RTEST" "$1" <<'EOT'
import re, sys

rules_path, test_path, mode = sys.argv[1:4]

def scan(rules_text, test_text):
    """The line scan: rules (kind, name, fields) and tests (alertname -> fire/silent)."""
    rules, cur = [], None
    for line in rules_text.splitlines():
        m = re.match(r'\s*- (alert|record): (\S+)\s*$', line)
        if m:
            cur = {"kind": m.group(1), "name": m.group(2), "for": False, "severity": None,
                   "summary": False, "description": False}
            rules.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r'\s+(for|severity|summary|description):\s*(.*)$', line)
        if m:
            k, v = m.groups()
            cur[k] = v.strip().strip('"') if k == "severity" else bool(v.strip())
    cases, exprs, series, alert = [], [], [], None
    for line in test_text.splitlines():
        m = re.match(r'\s*(?:- )?alertname: (\S+)\s*$', line)
        if m:
            alert = m.group(1)
            continue
        m = re.match(r'\s*exp_alerts:\s*(\[\])?\s*$', line)
        if m and alert:
            cases.append((alert, m.group(1) is None))
            alert = None
            continue
        m = re.match(r'\s*- expr: (.*)$', line)
        if m:
            exprs.append(m.group(1))
            continue
        m = re.match(r"\s*- series: '(.*)'\s*$", line)
        if m:
            series.append(m.group(1))
    return rules, sorted(cases), exprs, series

def from_yaml(yaml):
    rules = []
    for g in yaml.safe_load(open(rules_path))["groups"]:
        for r in g["rules"]:
            kind = "alert" if "alert" in r else "record"
            ann = r.get("annotations", {})
            rules.append({"kind": kind, "name": r[kind], "for": "for" in r,
                          "severity": r.get("labels", {}).get("severity") if kind == "alert" else None,
                          "summary": bool(ann.get("summary")) if kind == "alert" else False,
                          "description": bool(ann.get("description")) if kind == "alert" else False})
    cases, exprs, series = [], [], []
    for t in yaml.safe_load(open(test_path))["tests"]:
        for a in t.get("alert_rule_test", []):
            cases.append((a["alertname"], bool(a.get("exp_alerts"))))
        for e in t.get("promql_expr_test", []):
            exprs.append(e["expr"])
        for s in t.get("input_series", []):
            series.append(s["series"])
    return rules, sorted(cases), exprs, series

scanned = scan(open(rules_path).read(), open(test_path).read())
try:
    import yaml
except ImportError:
    yaml = None
parsed = from_yaml(yaml) if yaml else scanned
rules, cases, exprs, series = parsed

if mode == "series":
    for s in series:
        m = re.match(r'([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\}$', s)
        names = sorted(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="', m.group(2))) if m else []
        print((m.group(1) if m else s), ",".join(names))
    sys.exit(0)

def res(ok, what):
    print(("ok - " if ok else "FAIL - ") + what)

if yaml:
    res(scanned == parsed, "the line scan of the rule files agrees with python3-yaml")
else:
    print("# python3-yaml is not installed: the rule files are read by a line scan")
alerts = [r for r in rules if r["kind"] == "alert"]
records = [r for r in rules if r["kind"] == "record"]
res(len(alerts) >= 6 and len(records) >= 8,
    f"rules file: {len(alerts)} alerts, {len(records)} recording rules")
for a in alerts:
    n = a["name"]
    fire = sum(1 for c in cases if c == (n, True))
    silent = sum(1 for c in cases if c == (n, False))
    res(fire > 0, f"{n}: {fire} unit test(s) where it fires")
    res(silent > 0, f"{n}: {silent} unit test(s) where it stays silent")
    res(a["for"] and a["severity"] in ("critical", "warning") and a["summary"] and a["description"],
        f"{n}: has for, severity {a['severity']}, summary and description")
known = {a["name"] for a in alerts}
for n in sorted({c[0] for c in cases} - known):
    res(False, f"unit tests name an alert the rules do not have: {n}")
for r in records:
    n = r["name"]
    res(any(re.search(re.escape(n) + r'(?![a-zA-Z0-9_:])', e) for e in exprs),
        f"{n}: checked by a promql_expr_test")
EOT
}
tap rules_py cover

# ---- Prometheus with the rules, scraping ioprobe and node_exporter on the FUSE disk ----
require_loop
require_fuse
M=$T_TMP/disk
DEV=$(make_fault_disk "$M" 32M --latency 3ms) || { fail "mount faultdisk"; finish; }
DEVNAME=${DEV##*/}
# the textfile probe reads the same disk through a link, so that each probe has a target of
# its own: the dashboard's device join is checked for --listen alone and for the textfile alone
LINK=$T_TMP/disk-link
ln -s "$DEV" "$LINK"
mkdir -p "$T_TMP/tf"
PORT=$(free_port)
NPORT=$(free_port)
PPORT=$(free_port)
# node_exporter's default device-exclude drops loop devices: keep them (its
# device-include cannot replace the default exclude, they are mutually exclusive)
prometheus-node-exporter --web.listen-address="127.0.0.1:$NPORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$T_TMP/tf" --collector.diskstats \
	--collector.diskstats.device-exclude='^(z?ram|fd|(h|s|v|xv)d[a-z]|nvme[0-9]+n[0-9]+p)[0-9]+$' \
	>"$T_TMP/ne.log" 2>&1 &
FLEET_BG+=("$!")
check "node_exporter comes up" wait_http "http://127.0.0.1:$NPORT/metrics" 20
"$IOPROBE" -D -i 20ms -w 90 -q --listen "$PORT" "$DEV" >"$OUT" 2>"$ERR" &
LISTEN_PID=$!
FLEET_BG+=("$!")
"$IOPROBE" -D -i 20ms -w 90 -q --prometheus "$T_TMP/tf/ioprobe-test.prom" --prometheus-period 200ms \
	"$LINK" >"$T_TMP/tf.out" 2>"$T_TMP/tf.err" &
TF_PID=$!
FLEET_BG+=("$!")
check "ioprobe --listen comes up" wait_http "http://127.0.0.1:$PORT/metrics"
cat >"$T_TMP/prom.yml" <<EOT
rule_files:
  - $RULES
scrape_configs:
  - job_name: ioprobe
    static_configs:
      - targets: ['127.0.0.1:$PORT']
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$NPORT']
EOT
check "prometheus with the rules comes up" run_prometheus "$PPORT"

# api PATH [curl args...]: GET a Prometheus API path, the JSON on stdout.
api() {
	local path=$1
	shift
	curl -fs --max-time 5 -G "http://127.0.0.1:$PPORT$path" "$@"
}
# nseries PROMQL: how many series an instant query returns (-1 on an error).
nseries() {
	api /api/v1/query --data-urlencode "query=$1" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(len(d["data"]["result"]) if d.get("status") == "success" else -1)' 2>/dev/null || echo -1
}
# two_up: prometheus scrapes ioprobe and node_exporter. both_probes: the rules have
# evaluated the rates of both probes (two scrapes of each).
two_up() { [ "$(nseries 'up == 1')" = 2 ]; }
both_probes() { [ "$(nseries 'target:ioprobe_requests:rate5m > 0')" = 2 ]; }

check "both probes scraped (up)" poll_until 20 two_up
check "the recording rules see both probes (--listen and the textfile)" poll_until 20 both_probes
sleep 2 # two more evaluations of every rule

# /api/v1/rules: every group loaded, every rule evaluated without error
api /api/v1/rules >"$T_TMP/rules.json"
tap python3 - "$T_TMP/rules.json" "$NRULES" <<'EOT'
import json, sys
d = json.load(open(sys.argv[1]))["data"]["groups"]
rules = [r for g in d for r in g["rules"]]
print(("ok - " if [g["name"] for g in d] == ["ioprobe"] else "FAIL - ")
      + "prometheus loaded the rule group(s) " + " ".join(g["name"] for g in d))
print(("ok - " if len(rules) == int(sys.argv[2]) else "FAIL - ")
      + f"prometheus loaded {len(rules)} rules of {sys.argv[2]}")
for r in rules:
    print(("ok - " if r.get("health") == "ok" and not r.get("lastError") else "FAIL - ")
          + f"rule {r['name']}: health {r.get('health')} {r.get('lastError') or ''}".rstrip())
EOT

# every recording rule yields a series for each probe (their vector matching holds on real
# series)
for rec in $(sed -n 's/^ *- record: //p' "$RULES"); do
	n=$(nseries "$rec")
	check "$rec: $n series (2 probes)" [ "$n" = 2 ]
done

# no alert on the healthy disk
api /api/v1/alerts >"$T_TMP/alerts.json"
ALERTS=$(python3 -c 'import json, sys
print(" ".join(a["labels"]["alertname"] + "/" + a["state"] for a in json.load(open(sys.argv[1]))["data"]["alerts"]))' \
	"$T_TMP/alerts.json")
check "healthy disk: no alert pending or firing (${ALERTS:-none})" [ -z "$ALERTS" ]

# the unit tests' input series have the label names of the real series (besides instance
# and job, which the scrape adds)
rules_py series >"$T_TMP/series.txt"
tap python3 - "$PPORT" "$T_TMP/series.txt" <<'EOT'
import json, sys, urllib.parse, urllib.request
port = sys.argv[1]
want = {}
for line in open(sys.argv[2]).read().splitlines():
    name, _, labels = line.partition(" ")
    want.setdefault(name, set()).add(frozenset(labels.split(",")) - {"instance", "job", ""})
for name, sets in sorted(want.items()):
    q = urllib.parse.urlencode({"match[]": name})
    real = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/series?{q}", timeout=5))["data"]
    got = {frozenset(s) - {"__name__", "instance", "job"} for s in real}
    fmt = lambda ss: " | ".join(sorted(",".join(sorted(s)) for s in ss)) or "none"
    print(("ok - " if got and sets == got else "FAIL - ")
          + f"unit-test series {name}: labels {fmt(sets)} (real: {fmt(got)})")
EOT

# ---- every query of the dashboard, as Grafana sends it ----
# once per probe and once for both: $instance All (.*), $target the probe's target
# (regex-escaped, as Grafana does) or All; $__rate_interval 10s (4 scrapes and more, as
# Grafana chooses it)
tap python3 - "$DASH" "$PPORT" "$DEVNAME" "$DEV" "$LINK" <<'EOT'
import json, re, sys, time, urllib.parse, urllib.request
dash_path, port, devname = sys.argv[1:4]
probes = {sys.argv[4]: "--listen", sys.argv[5]: "textfile"}
dash = json.load(open(dash_path))

def res(ok, what):
    print(("ok - " if ok else "FAIL - ") + what)

# the dashboard's frame
res(dash.get("schemaVersion", 0) >= 36, f"dashboard schemaVersion {dash.get('schemaVersion')}")
var = {v["name"]: v for v in dash["templating"]["list"]}
res(var.get("datasource", {}).get("type") == "datasource"
    and var["datasource"].get("query") == "prometheus", "variable datasource: a prometheus data source")
for name in ("instance", "target"):
    q = var.get(name, {}).get("query", {})
    q = q.get("query", "") if isinstance(q, dict) else q
    res(var.get(name, {}).get("type") == "query" and q.startswith("label_values(ioprobe_probe_info"),
        f"variable {name}: {q}")
panels = []
for p in dash["panels"]:
    panels.append(p)
    panels.extend(p.get("panels", []))
ids = [p["id"] for p in panels]
res(len(ids) == len(set(ids)), "panel ids are unique")
titles = " / ".join(p["title"] for p in panels if p["type"] != "row")
need = ["heatmap", "p50 / p99", "in flight", "Oldest", "Skipped", "errno", "Device busy", "Device await"]
res(all(n in titles for n in need), "panels: " + titles)

def expand(expr, subst):
    def one(m):
        name = m.group(1) or m.group(2)
        return subst.get(name, m.group(0))
    return re.sub(r"\$\{(\w+)\}|\$(?!\d)(\w+)", one, expr)

def get(path, **params):
    url = f"http://127.0.0.1:{port}{path}?" + urllib.parse.urlencode(params, doseq=True)
    try:
        return json.load(urllib.request.urlopen(url, timeout=10))
    except urllib.error.HTTPError as e:
        return json.load(e)

# the variables' queries (Grafana asks the label values API)
for label in ("instance", "target"):
    d = get(f"/api/v1/label/{label}/values", **{"match[]": "ioprobe_probe_info"})
    vals = d.get("data") or []
    res(d.get("status") == "success" and len(vals) == 2
        and (label == "instance" or sorted(vals) == sorted(probes)),
        f"variable {label}: values {vals}")

now = time.time()
n = 0
passes = [(re.escape(t).replace("\\", "\\\\"), [t], how + " probe") for t, how in probes.items()]
passes.append((".*", sorted(probes), "all targets"))  # the textfile's le="1" beside --listen's "1.0"
for rx, targets, how in passes:
    subst = {"instance": ".*", "target": rx, "__rate_interval": "10s", "__interval": "2s"}
    for p in panels:
        for t in p.get("targets", []):
            n += 1
            expr = expand(t["expr"], subst)
            what = f"{how}: panel '{p['title']}' {t['refId']}"
            if how == passes[0][2]:
                res(p.get("datasource", {}).get("uid") == "${datasource}"
                    and t.get("datasource", {}).get("uid") == "${datasource}",
                    f"panel '{p['title']}' {t['refId']}: data source ${{datasource}}")
            if "$" in re.sub(r"\$\d", "", expr):
                res(False, f"{what}: a variable left after substitution: {expr}")
            if t.get("instant") and not t.get("range"):
                d = get("/api/v1/query", query=expr, time=now)
            else:
                d = get("/api/v1/query_range", query=expr, start=now - 20, end=now, step=2)
            result = d.get("data", {}).get("result", [])
            ok = d.get("status") == "success"
            res(ok and len(result) > 0,
                f"{what}: {d.get('status')}, {len(result)} series {d.get('error', '')}".rstrip())
            if not ok or not result:
                print("#  query: " + expr.replace("\n", " "))
                continue
            if t.get("format") == "heatmap":
                les = {r["metric"].get("le") for r in result}
                res(len(les) == 20, f"{what}: one series per bucket ({len(les)} le values)")
            elif "node_disk_" in expr:
                labels = sorted((r["metric"].get("target"), r["metric"].get("device")) for r in result)
                res(labels == [(t, devname) for t in targets], f"{what}: joined to the disk: {labels}")
            elif "ioprobe_" in expr:
                tg = sorted({r["metric"].get("target") for r in result})
                res(tg == targets, f"{what}: the targets' series ({tg})")
res(n >= 45, f"{n} dashboard queries evaluated")
EOT

# ---- a hang: IoprobeRequestHung goes pending for both probes ----
# hung_pending: the alert is pending (its for: is 30 s) or firing for the --listen probe and
# the textfile one.
hung_pending() {
	[ "$(api /api/v1/alerts | python3 -c 'import json, sys
a = json.load(sys.stdin)["data"]["alerts"]
print(sorted((x["labels"].get("job"), x["labels"].get("target")) for x in a
             if x["labels"]["alertname"] == "IoprobeRequestHung"))')" = "[('ioprobe', '$DEV'), ('node', '$LINK')]" ]
}
fault_ctl "$M" "hang 1"
t0=$(now_ms)
check "hang: IoprobeRequestHung pending for --listen and the textfile" poll_until 20 hung_pending
t1=$(now_ms)
fault_ctl "$M" "hang 0"
check "hang: alert pending within 15 s ($((t1 - t0)) ms; threshold 5 s)" [ $((t1 - t0)) -lt 15000 ]
api /api/v1/alerts >"$T_TMP/alerts.json"
OTHER=$(python3 -c 'import json, sys
print(" ".join(sorted({a["labels"]["alertname"] for a in json.load(open(sys.argv[1]))["data"]["alerts"]} - {"IoprobeRequestHung"})))' \
	"$T_TMP/alerts.json")
check "hang: no other alert yet (${OTHER:-none})" [ -z "$OTHER" ]

# ---- the exporter's own end: the --listen ioprobe killed, the textfile's probe ended and
# its file removed (node_exporter up): IoprobeExporterDown goes pending for the ioprobe job,
# IoprobeTargetGone for the textfile's target (not for --listen's: its scrape failing is
# the other alert's) ----
# pending_for ALERT: "job target" of each pending or firing ALERT, sorted, one line
pending_for() {
	api /api/v1/alerts | python3 -c 'import json, sys
a = json.load(sys.stdin)["data"]["alerts"]
print(" ".join(sorted(x["labels"].get("job", "") + ":" + x["labels"].get("target", "-")
                      for x in a if x["labels"]["alertname"] == sys.argv[1])))' "$1"
}
gone_pending() {
	[ "$(pending_for IoprobeExporterDown)" = "ioprobe:-" ] &&
		[ "$(pending_for IoprobeTargetGone)" = "node:$LINK" ]
}
kill -TERM "$LISTEN_PID" "$TF_PID"
wait_exit "$LISTEN_PID" 5
wait_exit "$TF_PID" 5
rm -f "$T_TMP/tf/ioprobe-test.prom"
check "exporter killed: IoprobeExporterDown pending for job ioprobe, IoprobeTargetGone for the textfile's target" \
	poll_until 20 gone_pending
echo "# ExporterDown: $(pending_for IoprobeExporterDown); TargetGone: $(pending_for IoprobeTargetGone)"
check "prometheus log: no rule error" bash -c '! grep -Ei "level=(error|warn).*rule" "$1"' _ "$T_TMP/prom.log"

finish
