#!/bin/bash
# The fleet outputs with queue depth, response times and several targets:
# ioprobe_response_duration_seconds against the JSON response percentiles (-Q 8 on a loop
# device; at depth 1 with --response the skipped slots count the same in both), a real
# ioprobe_requests_in_flight count at -Q 8 on the slow FUSE disk (and the oldest's age
# while requests hang at -Q 4), three targets as three
# series sets (promtool, the OpenMetrics parser, Debian's prometheus scraping them and
# naming the slow one), --check over three targets, --influx over two, and --listen /
# --prometheus beside the view (driven through tmux). Everything listens on 127.0.0.1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd python3
require_cmd curl
require_cmd promtool
/usr/bin/python3 -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
	skip "needs python3-prometheus-client"

# hist FILE FAMILY TARGET Q: "count bucket" of FAMILY{target=TARGET,operation="read"} in
# FILE, bucket = index of the first bucket whose cumulative count reaches Q * count.
hist() {
	python3 - "$@" <<'EOT'
import re, sys
path, fam, target, q = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
cum, count = [], None
for line in open(path):
    m = re.match(r'(\w+)\{target="([^"]*)",operation="read"(?:,le="([^"]+)")?\} (\S+)$', line)
    if not m or m.group(2) != target:
        continue
    if m.group(1) == fam + "_bucket":
        cum.append(float(m.group(4)))
    elif m.group(1) == fam + "_count":
        count = int(m.group(4))
if count is None:
    print("none none")
else:
    print(count, next((i for i, c in enumerate(cum) if c >= q * count), len(cum)))
EOT
}
# jstat FILE KEY...: a field of the last JSON object's "stat".
jstat() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))[-1]["stat"]
for k in sys.argv[2:]:
    d = d[k]
print(d)' "$@"
}
# lacks_in FILE REGEX: FILE has no line matching REGEX. closed URL: nothing answers at URL.
lacks_in() { ! grep -Eq -- "$2" "$1"; }
closed() { ! curl -fs --max-time 1 -o /dev/null "$1"; }
# near A B: bucket indexes A and B differ by at most one.
near() { [ "$1" -ge $(($2 - 1)) ] && [ "$1" -le $(($2 + 1)) ]; }

F=$T_TMP/data
head -c 16M /dev/urandom >"$F"
mkdir -p "$T_TMP/tf"

# ---- depth 1 with --response: skipped slots enter both distributions alike ----
# null:20ms every 1 ms: each request passes ~19 slots, which the response times count
PROM=$T_TMP/tf/d1.prom
probe -C -i 1ms -w 1.5 --engine=null:20ms --response -J --prometheus "$PROM" "$F"
check "depth 1 --response: exit 0" rc_is 0
read -r RC_CNT RC_B < <(hist "$PROM" ioprobe_response_duration_seconds "$F" 0.99)
JC=$(jstat "$OUT" response count)
check "depth 1 --response: response count $RC_CNT = JSON's $JC (skipped slots included)" \
	[ "$RC_CNT" = "$JC" ]
read -r LC_CNT _ < <(hist "$PROM" ioprobe_request_duration_seconds "$F" 0.99)
check "depth 1 --response: far more responses ($RC_CNT) than requests ($LC_CNT)" \
	[ "$RC_CNT" -gt $((LC_CNT * 5)) ]
JP=$(jstat "$OUT" response percentiles 99)
check "depth 1 --response: response p99 bucket $RC_B vs JSON's $JP ns" \
	near "$RC_B" "$(bucket "$(awk -v v="$JP" 'BEGIN { print v / 1e9 }')")"
probe -C -i 1ms -c 20 --engine=null --prometheus "$T_TMP/tf/plain.prom" "$F"
check "no -Q, no --response: no response family" \
	lacks_in "$T_TMP/tf/plain.prom" ioprobe_response_duration_seconds

# ---- -Q 8 on a loop device: the response histogram agrees with the JSON ----
require_loop
require_fuse
if ! "$IOPROBE" -A -c 1 -C "$F" >/dev/null 2>&1; then
	skip "libaio is not usable here"
fi
A=$(make_loop 64M) || { fail "make_loop"; finish; }
B=$(make_loop 64M) || { fail "make_loop"; finish; }
PROM=$T_TMP/tf/q8.prom
probe -A -D -Q 8 -i 200us -w 2 -J --prometheus "$PROM" "$A"
check "-Q 8 loop: exit 0" rc_is 0
check "-Q 8 loop: textfile passes promtool" promtool check metrics <"$PROM"
JC=$(jstat "$OUT" response count)
for q in 0.5 0.9 0.99; do
	read -r RC_CNT RC_B < <(hist "$PROM" ioprobe_response_duration_seconds "$A" "$q")
	k=$(python3 -c "print({'0.5': '50', '0.9': '90', '0.99': '99'}['$q'])")
	JP=$(jstat "$OUT" response percentiles "$k")
	JB=$(bucket "$(awk -v v="$JP" 'BEGIN { print v / 1e9 }')")
	check "-Q 8 loop: response p$k bucket $RC_B vs JSON's $JP ns (bucket $JB)" near "$RC_B" "$JB"
done
check "-Q 8 loop: response count $RC_CNT = JSON's $JC" [ "$RC_CNT" = "$JC" ]
read -r LC_CNT _ < <(hist "$PROM" ioprobe_request_duration_seconds "$A" 0.5)
check "-Q 8 loop: as many responses as latencies ($LC_CNT)" [ "$RC_CNT" = "$LC_CNT" ]

# ---- -Q 8 on the slow FUSE disk: the in-flight count and the oldest's age ----
M=$T_TMP/slow
C=$(make_fault_disk "$M" 32M --latency 30ms) || { fail "mount faultdisk"; finish; }
PORT=$(free_port)
timeout -k 5 60 "$IOPROBE" -A -D -Q 8 -i 2ms -w 4 -q --listen "$PORT" "$C" >"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
wait_http "http://127.0.0.1:$PORT/metrics"
MAXF=0
MAXO=0
for _ in $(seq 20); do
	curl -fs --max-time 2 "http://127.0.0.1:$PORT/metrics" >"$T_TMP/m.out" || continue
	f=$(metric "$T_TMP/m.out" "ioprobe_requests_in_flight{target=\"$C\"}")
	o=$(metric "$T_TMP/m.out" "ioprobe_oldest_in_flight_seconds{target=\"$C\"}")
	[ -n "$f" ] && [ "$f" -gt "$MAXF" ] && MAXF=$f
	[ -n "$o" ] && float_ge "$o" "$MAXO" && MAXO=$o
	sleep 0.1
done
wait "$PID"
RC=$?
check "-Q 8 slow disk: exit 0" rc_is 0
check "-Q 8 slow disk: requests in flight up to $MAXF (> 1, <= 8)" \
	test "$MAXF" -gt 1 -a "$MAXF" -le 8
check "-Q 8 slow disk: oldest in flight $MAXO s (>= 20 ms, < 5 s)" \
	awk -v o="$MAXO" 'BEGIN { exit !(o + 0 >= 0.02 && o + 0 < 5) }'

# ---- -Q 4 on the same disk, hung: starts from idle show at once, the oldest's age grows ----
PORT=$(free_port)
# (not under timeout(1): it forwards SIGINT to the child and again to its process group, and
# a second signal is ioprobe's "exit 4 at once")
"$IOPROBE" -A -D -Q 4 -i 100ms -q --listen "$PORT" "$C" >"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
wait_http "http://127.0.0.1:$PORT/metrics"
h0=$(fault_get "$M" requests)
wait_fault "$M" requests $((h0 + 3))
fault_ctl "$M" "hang 1"
wait_fault "$M" hung_now 1
sleep 0.2
curl -fs --max-time 1 "http://127.0.0.1:$PORT/metrics" >"$T_TMP/h1.out"
sleep 1.5
curl -fs --max-time 1 "http://127.0.0.1:$PORT/metrics" >"$T_TMP/h2.out"
fault_ctl "$M" "hang 0"
o1=$(metric "$T_TMP/h1.out" "ioprobe_oldest_in_flight_seconds{target=\"$C\"}")
o2=$(metric "$T_TMP/h2.out" "ioprobe_oldest_in_flight_seconds{target=\"$C\"}")
f2=$(metric "$T_TMP/h2.out" "ioprobe_requests_in_flight{target=\"$C\"}")
check "-Q 4 hung: the first hung request shows at once ($o1 s)" \
	awk -v a="${o1:-0}" 'BEGIN { exit !(a >= 0.1) }'
check "-Q 4 hung: oldest_in_flight grows ($o1 -> $o2 s)" \
	awk -v a="${o1:-0}" -v b="${o2:-0}" 'BEGIN { exit !(b >= a + 1.3) }'
check "-Q 4 hung: four in flight ($f2)" test "${f2:-0}" = 4
kill -INT "$PID"
wait "$PID"
RC=$?
check "-Q 4 hung then released: SIGINT ends the run with exit 0" rc_is 0

# ---- three targets: three series sets; prometheus scrapes them and names the slow one ----
require_cmd prometheus
PORT=$(free_port)
PPORT=$(free_port)
check "prometheus comes up" start_prometheus "$PORT" "$PPORT"
timeout -k 5 60 "$IOPROBE" -A -D -Q 2 -i 20ms -w 8 -q --listen "$PORT" "$A" "$B" "$C" \
	>"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
wait_http "http://127.0.0.1:$PORT/metrics"
# once each target's first interval was judged (about a second): its verdict series too
for _ in $(seq 40); do
	scrape_both "$PORT"
	[ "$(grep -c '^ioprobe_verdict{' "$T_TMP/text.out")" = 3 ] && break
	sleep 0.25
done
check "three targets: promtool check metrics clean" promtool check metrics <"$T_TMP/text.out"
check "three targets: strict OpenMetrics parser, 15 families (the verdict's two), 3 targets each, one build" \
	/usr/bin/python3 -c '
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse
fams = list(parse(open(sys.argv[1]).read()))
assert len(fams) == 15, len(fams)
for f in fams:
    if f.name == "ioprobe_build":  # one sample for the process, no target
        assert len(f.samples) == 1 and "target" not in f.samples[0].labels, f.samples
        continue
    got = {s.labels["target"] for s in f.samples}
    assert got == set(sys.argv[2:]), (f.name, got)
' "$T_TMP/om.out" "$A" "$B" "$C"
for t in "$A" "$B" "$C"; do
	check "three targets: probe_info of $t" grep -q "^ioprobe_probe_info{target=\"$t\",device=\"${t#/dev/}\"" "$T_TMP/text.out"
done
check "three targets: every sample but the build's has a target label" \
	awk '!/^#/ && !/^ioprobe_build_info\{version="/ && !/^[a-z_]+\{target="/ { bad = 1 }
	     END { exit bad }' "$T_TMP/text.out"
sleep 5
q() { prom_query "$PPORT" "$1" targets; }
NINFO=$(q 'count(ioprobe_probe_info{job="ioprobe"})')
NRESP=$(q 'count(ioprobe_response_duration_seconds_count{job="ioprobe"})')
SLOW=$(q 'topk(1, histogram_quantile(0.99, sum by (target, le) (ioprobe_request_duration_seconds_bucket{job="ioprobe"})))')
wait "$PID"
RC=$?
check "three targets: exit 0" rc_is 0
check "three targets: three summaries" [ "$(grep -c 'ioprobe statistics ---$' "$OUT")" = 3 ]
check "prometheus: three probe_info series ($NINFO)" [ "$NINFO" = 3 ]
check "prometheus: three response histograms ($NRESP)" [ "$NRESP" = 3 ]
check "prometheus: the slowest p99 is the FUSE disk's ($SLOW)" [ "$SLOW" = "$C" ]

# ---- --check over three targets, one slow (30 ms; the loop devices' thresholds leave room
# for a busy moment of this machine, and a run that misses runs again) ----
check_crit() {
	probe -D -c 5 -i 40ms --check 20ms,25ms "$A" "$B" "$C"
	check "--check 3 targets, one over crit: exit 2" rc_is 2
	check "--check 3 targets: CRITICAL naming the slow one first" \
		out_has "^IOPROBE CRITICAL - $C CRITICAL p99 [0-9.]+ ms, .*; $A OK p99 .*; $B OK p99 "
	check "--check 3 targets: one line" out_lines 1
	check "--check 3 targets: perfdata per target" \
		out_has "\| '$A p99'=[0-9.]+ms;20\.000000;25\.000000;0 .* '$C failed'=0;;0;0$"
}
attempts 3 check_crit
check_warn() {
	probe -D -c 5 -i 40ms --check 20ms,100ms "$A" "$B" "$C"
	check "--check 3 targets, one over warn: exit 1" rc_is 1
	check "--check 3 targets: WARNING naming it" out_has "^IOPROBE WARNING - $C WARNING p99 "
}
attempts 3 check_warn
probe -D -c 5 -i 40ms --check 10ms,100ms "$A" "$T_TMP/nonexistent"
check "--check with a target that cannot open: UNKNOWN (exit 3)" rc_is 3
check "--check with a target that cannot open: it is named" \
	out_has "^IOPROBE UNKNOWN - $T_TMP/nonexistent UNKNOWN .*; $A OK p99 "

# ---- --influx over two targets, with response fields at -Q 2 ----
(sleep 3) | timeout -k 5 30 "$IOPROBE" -A -D -Q 2 -i 20ms -P 500ms -w 2 --influx "$A" "$C" \
	>"$OUT" 2>"$ERR"
RC=$?
check "--influx 2 targets: exit 0" rc_is 0
check "--influx 2 targets: lines for both" \
	test "$(grep -c "^ioprobe,target=$A,operation=read,device=${A#/dev/} " "$OUT")" -ge 2 -a \
	"$(grep -c "^ioprobe,target=$C,operation=read,device=${C#/dev/} " "$OUT")" -ge 2
check "--influx 2 targets: whole lines, each with resp_p99_ms" \
	awk '!/^ioprobe,target=[^ ]+ requests=[0-9]+i,.*,resp_p99_ms=[0-9.]+,.* [0-9]+$/ { bad = 1 } END { exit bad }' "$OUT"
check "--influx 2 targets: the slow disk's resp_p50_ms >= 30" \
	awk -v c="$C" 'index($0, "target=" c ",") && /resp_p50_ms/ { match($0, /resp_p50_ms=[0-9.]+/); v = substr($0, RSTART + 12, RLENGTH - 12) + 0; if (v < 30) bad = 1; n++ } END { exit bad || !n }' "$OUT"

# ---- --listen and --prometheus beside the view ----
require_cmd tmux
"$IOPROBE" -h 2>/dev/null | grep -q -- '-tui' || skip "built without the full-screen view"
. "$(dirname "$0")/tui_lib.sh"
at_exit stop_server
PORT=$(free_port)
VPROM=$T_TMP/tf/view.prom
start 120 40 -- --tui -i 0.05 --listen "$PORT" --prometheus "$VPROM" --prometheus-period 200ms "$A"
check "view: starts and shows requests" wait_for "request=5 " 10
check "view: /metrics answers while the view is up" wait_http "http://127.0.0.1:$PORT/metrics" 5
n1=$(curl -fs --max-time 2 "http://127.0.0.1:$PORT/metrics" |
	awk -v k="ioprobe_request_duration_seconds_count{target=\"$A\",operation=\"read\"}" '$1 == k { print $2 }')
wait_for "request=30 " 10
n2=$(curl -fs --max-time 2 "http://127.0.0.1:$PORT/metrics" |
	awk -v k="ioprobe_request_duration_seconds_count{target=\"$A\",operation=\"read\"}" '$1 == k { print $2 }')
check "view: /metrics counts grow with the view's requests ($n1 -> $n2)" \
	test "${n1:-0}" -gt 0 -a "${n2:-0}" -gt "${n1:-0}"
check "view: the textfile is written while it runs" [ -s "$VPROM" ]
TM send-keys -t t q
check "view: q quits with exit 0" wait_for "^EXIT=0" 10
check "view: the endpoint is closed after the run" closed "http://127.0.0.1:$PORT/metrics"
check "view: textfile's last version passes promtool" promtool check metrics <"$VPROM"
check "view: nothing on stderr" err_empty

# the overview of several targets: one series set per target, fed while the overview is up
PORT=$(free_port)
start 120 40 -- --tui -i 0.05 --listen "$PORT" "$A" "$B"
check "overview: starts with two rows" wait_for " 2 $B " 10
check "overview: /metrics answers while it is up" wait_http "http://127.0.0.1:$PORT/metrics" 5
count_of() {
	curl -fs --max-time 2 "http://127.0.0.1:$PORT/metrics" |
		awk -v k="ioprobe_request_duration_seconds_count{target=\"$1\",operation=\"read\"}" '$1 == k { print $2 }'
}
a1=$(count_of "$A"); b1=$(count_of "$B")
sleep 1.5
a2=$(count_of "$A"); b2=$(count_of "$B")
check "overview: both targets' counts grow ($A $a1 -> $a2, $B $b1 -> $b2)" \
	test "${a2:-0}" -gt "${a1:-0}" -a "${b2:-0}" -gt "${b1:-0}"
TM send-keys -t t q
check "overview: q quits with exit 0" wait_for "^EXIT=0" 10
check "overview: the endpoint is closed after the run" closed "http://127.0.0.1:$PORT/metrics"

finish
