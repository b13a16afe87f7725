#!/bin/bash
# Native histograms (issue 26 item 5): --listen answers a scraper that asks for the protobuf
# exposition with it — every family, series and value of text 0.0.4, the classic 1-2-5
# buckets and the native ones (schema 4) side by side, read back by an independent decoder
# of the wire format (fleet_proto.py) — while text 0.0.4 and OpenMetrics stay byte for byte
# what the code before it wrote (tests/golden/fleet-metrics.*.txt, recorded with it; values
# and machine-dependent labels folded; GOLDEN_UPDATE=1 rewrites them). Then Debian's
# prometheus 2.42 started with --enable-feature=native-histograms scrapes ioprobe on the
# FUSE disk with known latency (3 ms, every 20th request 10x slower), and
# histogram_quantile(0.5|0.9|0.99) over the native series agrees with ioprobe's own
# p50/p90/p99 of the same requests within 5 %; a second prometheus without the feature still
# gets the classic _bucket series from the same endpoint. Everything listens on 127.0.0.1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd python3
require_cmd curl
require_cmd promtool
require_cmd prometheus

GOLD=$SRCDIR/tests/golden
DECODE=$SRCDIR/tests/integration/fleet_proto.py
PB_RANGE='application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily'
PB_TYPE='application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; '\
'encoding=delimited'
TEXT_TYPE='text/plain; version=0.0.4; charset=utf-8'
OM_TYPE='application/openmetrics-text; version=1.0.0; charset=utf-8'
# what Prometheus 2.42 sends without native histograms, and with
OM_ACCEPT='application/openmetrics-text;version=1.0.0,application/openmetrics-text;'\
'version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
PB_ACCEPT="$PB_RANGE;encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,"\
'application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'

# fold_metrics A B: a scrape on stdin with every value "N", targets A and B named "A" and
# "B", the device, disk, fstype and version labels (they follow the machine) folded.
fold_metrics() {
	sed -E -e 's/} [^ ]+$/} N/' -e "s#target=\"$1\"#target=\"A\"#" \
		-e "s#target=\"$2\"#target=\"B\"#" \
		-e 's/device="[^"]*",disk="[^"]*",fstype="[^"]*"/device="D",disk="D",fstype="F"/' \
		-e 's/version="[^"]*"/version="V"/'
}

# content_type ACCEPT: the Content-Type /metrics answers with ("-": no Accept header).
content_type() {
	local h=()
	[ "$1" != - ] && h=(-H "Accept: $1")
	curl -fs -D - -o /dev/null "${h[@]}" "http://127.0.0.1:$PORT/metrics" |
		tr -d '\r' | sed -n 's/^[Cc]ontent-[Tt]ype: //p'
}

# ---- the three formats of one frozen state (null engine, one request an hour) ----
A=$T_TMP/a
B=$T_TMP/b
mkdir -p "$A" "$B"
PORT=$(free_port)
"$IOPROBE" --engine=null -i 1h -Q 2 -G --listen "$PORT" "$A" "$B" >"$OUT" 2>"$ERR" &
FLEET_BG+=("$!")
check "ioprobe --listen comes up" wait_http "http://127.0.0.1:$PORT/metrics"
sleep 0.3 # the first requests are done: nothing changes for an hour
scrape_both "$PORT"
curl -fs -H "Accept: $PB_ACCEPT" -o "$T_TMP/pb.out" "http://127.0.0.1:$PORT/metrics"
[ "$(content_type "$PB_ACCEPT")" = "$PB_TYPE" ] ||
	skip "this build has no protobuf exposition (protobuf-c was not found at configure time)"
pass "Prometheus' native-histogram Accept: Content-Type $PB_TYPE"
check "no Accept: text 0.0.4" [ "$(content_type -)" = "$TEXT_TYPE" ]
check "Accept text/plain: text 0.0.4" \
	[ "$(content_type 'text/plain; version=0.0.4')" = "$TEXT_TYPE" ]
check "Prometheus' Accept without native histograms: OpenMetrics" \
	[ "$(content_type "$OM_ACCEPT")" = "$OM_TYPE" ]
check "protobuf at q=0 is not acceptable" \
	[ "$(content_type "$PB_RANGE;encoding=delimited;q=0,text/plain")" = "$TEXT_TYPE" ]
check "protobuf below OpenMetrics' q: OpenMetrics" [ "$(content_type \
	"$PB_RANGE;encoding=delimited;q=0.5,application/openmetrics-text")" = "$OM_TYPE" ]
check "protobuf without encoding=delimited: not this format" \
	[ "$(content_type "$PB_RANGE,text/plain;q=0.1")" = "$TEXT_TYPE" ]

fold_metrics "$A" "$B" <"$T_TMP/text.out" >"$T_TMP/text.fold"
fold_metrics "$A" "$B" <"$T_TMP/om.out" >"$T_TMP/om.fold"
if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then # a deliberate change of the text formats
	cp "$T_TMP/text.fold" "$GOLD/fleet-metrics.text.txt"
	cp "$T_TMP/om.fold" "$GOLD/fleet-metrics.openmetrics.txt"
fi
check "text 0.0.4 byte for byte as before (values folded; golden recorded before the change)" \
	diff -u "$GOLD/fleet-metrics.text.txt" "$T_TMP/text.fold"
check "OpenMetrics byte for byte as before (values folded)" \
	diff -u "$GOLD/fleet-metrics.openmetrics.txt" "$T_TMP/om.fold"
check "promtool check metrics: text 0.0.4 clean" promtool check metrics <"$T_TMP/text.out"

python3 "$DECODE" "$T_TMP/pb.out" >"$T_TMP/pb.txt" 2>"$ERR"
RC=$?
check "the protobuf body decodes (fleet_proto.py, from the wire format alone)" rc_is 0
check "protobuf: the families of text 0.0.4, in its order, with its HELP and TYPE" \
	diff -u <(grep '^# [HT]' "$T_TMP/text.out") <(grep '^# [HT]' "$T_TMP/pb.txt")
tap python3 - "$T_TMP/text.out" "$T_TMP/pb.txt" <<'PY'
import sys
def samples(path):
    out = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        key, _, value = line.rstrip("\n").rpartition(" ")
        out[key] = float(value)
    return out
text, pb = samples(sys.argv[1]), samples(sys.argv[2])
print(("ok - " if text.keys() == pb.keys() else "FAIL - ") + "protobuf: the same %d series "
      "(names and labels) as text 0.0.4 (protobuf %d)" % (len(text), len(pb)))
bad = [k for k in text if k in pb and text[k] != pb[k]]
print(("ok - " if not bad else "FAIL - ") + "protobuf: every value the double text 0.0.4 reads" +
      ("" if not bad else ": " + "; ".join("%s %r vs %r" % (k, text[k], pb[k]) for k in bad[:3])))
native = [l for l in open(sys.argv[2]) if l.startswith("# NATIVE ")]
hists = [k for k in text if k.endswith("}") and "_count{" in k]
print(("ok - " if len(native) == len(hists) == 8 else "FAIL - ") + "protobuf: each of the "
      "%d histogram series has its native part (%d)" % (len(hists), len(native)))
good = all(" schema=4 zero_threshold=9.313225746154785e-10 " in l for l in native)
print(("ok - " if good else "FAIL - ") + "native: schema 4, zero threshold 2^-30 s")
PY

# ---- Prometheus 2.42 with native histograms on a disk with known latency ----
require_loop
require_fuse
M=$T_TMP/lat
# 3 ms per request, every 20th 10x slower: p50 and p90 fall among the 3 ms ones, p99 among the
# 30 ms ones (never on the edge between the two)
DEV=$(make_fault_disk "$M" 32M --latency 3ms --slow-every 20 --slow-factor 10) ||
	{ fail "mount faultdisk"; finish; }
PORT=$(free_port)

# start_prom NAME PPORT [FLAG...]: a prometheus of its own on 127.0.0.1:PPORT scraping
# ioprobe on $PORT every second (its config and data in $T_TMP/NAME); ready within 30 s.
start_prom() {
	local name=$1 pport=$2
	shift 2
	mkdir -p "$T_TMP/$name"
	cat >"$T_TMP/$name/prom.yml" <<EOT
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: ioprobe
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOT
	prometheus --config.file="$T_TMP/$name/prom.yml" --storage.tsdb.path="$T_TMP/$name/data" \
		--web.listen-address="127.0.0.1:$pport" "$@" >"$T_TMP/$name/log" 2>&1 &
	FLEET_BG+=("$!")
	wait_http "http://127.0.0.1:$pport/-/ready" 30
}
NPORT=$(free_port)
CPORT=$(free_port)
check "prometheus --enable-feature=native-histograms comes up" \
	start_prom native "$NPORT" --enable-feature=native-histograms
check "prometheus without it comes up" start_prom classic "$CPORT"

# pq PPORT PROMQL: the first result's value ("histogram" for a native histogram, "none").
pq() {
	curl -fs --max-time 5 "http://127.0.0.1:$1/api/v1/query" --data-urlencode "query=$2" |
		python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print("none" if not r else "histogram" if "histogram" in r[0] else r[0]["value"][1])'
}
# native_count: the count of the native histogram prometheus (native) has now.
LAT='ioprobe_request_duration_seconds{job="ioprobe"}'
native_count() { pq "$NPORT" "histogram_count($LAT)"; }
# off A B: A against B in percent ("+1.23 %"), or A when it is no number.
off() {
	python3 -c 'import sys; a, b = sys.argv[1:]
print("%+.2f %%" % ((float(a) / float(b) - 1) * 100) if a not in ("none", "NaN") else a)' "$1" "$2"
}
# within5 A B: A within 5 % of B.
within5() {
	python3 -c 'import sys; a, b = sys.argv[1:]
sys.exit(a in ("none", "NaN") or abs(float(a) / float(b) - 1) > 0.05)' "$1" "$2"
}

# The same requests on both sides: the disk hangs while the probe starts (its warmup request
# waits) until prometheus has scraped the empty histogram, so rate() starts from 0; it hangs
# again at the end until two more scrapes have the last completion; ioprobe's own percentiles
# are those of the completed requests, which it prints when stopped during the hang.
fault_ctl "$M" "hang 1"
# (no timeout(1) around it: it would send the stop twice, which ends a run at once with 4)
"$IOPROBE" -D -i 10ms -w 120 -J --listen "$PORT" "$DEV" >"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
wait_http "http://127.0.0.1:$PORT/metrics"
for _ in $(seq 100); do [ "$(native_count)" = 0 ] && break; sleep 0.1; done
check "prometheus (native) scraped the empty histogram" [ "$(native_count)" = 0 ]
fault_ctl "$M" "hang 0"
sleep 20 # about 2000 requests
UP=$(pq "$NPORT" 'up{job="ioprobe"}')
KIND=$(pq "$NPORT" "$LAT")
NBUCKET=$(pq "$NPORT" 'count(ioprobe_request_duration_seconds_bucket{job="ioprobe"})')
CBUCKET=$(pq "$CPORT" 'count(ioprobe_request_duration_seconds_bucket{job="ioprobe"})')
fault_ctl "$M" "hang 1"
sleep 2.5 # two scrapes of the final counts
declare -A RATE CUM
for q in 0.5 0.9 0.99; do
	RATE[$q]=$(pq "$NPORT" "histogram_quantile($q, rate($LAT[1m]))")
	CUM[$q]=$(pq "$NPORT" "histogram_quantile($q, $LAT)")
done
NCOUNT=$(native_count)
CQ=$(pq "$CPORT" 'histogram_quantile(0.99, sum by (le)
	(rate(ioprobe_request_duration_seconds_bucket{job="ioprobe"}[1m])))')
kill -TERM "$PID"
wait_exit "$PID" 10
fault_ctl "$M" "hang 0"
wait "$PID"
RC=$?
check "the run stopped during the hang: exit 3 (a request did not complete)" rc_is 3
check "... its JSON written" json_valid
check "... and the hung request is said not to count" \
	err_has "request in flight .* it did not complete"
check "prometheus (native): target up ($UP)" [ "$UP" = 1 ]
check "prometheus (native): ioprobe_request_duration_seconds is a native histogram ($KIND)" \
	[ "$KIND" = histogram ]
read -r P50 P90 P99 CNT < <(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))[-1]["stat"]
p = s["percentiles"]
print(p["50"] / 1e9, p["90"] / 1e9, p["99"] / 1e9, s["count"])' "$OUT")
check "prometheus (native) counted the same $CNT requests ($NCOUNT)" [ "$NCOUNT" = "$CNT" ]
check "the disk as configured: p50 $P50 s among the 3 ms requests, p99 $P99 s among the 30 ms" \
	python3 -c 'import sys; a, b = map(float, sys.argv[1:])
sys.exit(not (0.003 <= a < 0.004 and 0.030 <= b < 0.035))' "$P50" "$P99"
# within 5 %: schema 4 buckets are 4.4 % wide and histogram_quantile interpolates inside one;
# ioprobe's own percentiles are within 1 % of the exact ones
for q in 0.5 0.9 0.99; do
	own=$(case $q in 0.5) echo "$P50" ;; 0.9) echo "$P90" ;; *) echo "$P99" ;; esac)
	for kind in rate cum; do
		v=${CUM[$q]}
		what="histogram_quantile($q, ioprobe_request_duration_seconds)"
		if [ "$kind" = rate ]; then
			v=${RATE[$q]}
			what="histogram_quantile($q, rate(ioprobe_request_duration_seconds[1m]))"
		fi
		check "$what = $v s vs ioprobe's own $own s: within 5 % ($(off "$v" "$own"))" \
			within5 "$v" "$own"
	done
done
check "prometheus without native histograms: the classic series, 20 le buckets ($CBUCKET)" \
	[ "$CBUCKET" = 20 ]
check "prometheus without native histograms: p99 of the classic buckets ($CQ s), ioprobe's bucket" \
	[ "$(bucket "$CQ")" = "$(bucket "$P99")" ]
# Prometheus before 2.45 ingests a histogram with native buckets as native only (2.45 added
# scrape_classic_histograms, 3.0 always_scrape_classic_histograms): README says so
if prometheus --version 2>&1 | grep -q 'version 2\.4[0-4]\.'; then
	check "prometheus 2.4x (< 2.45) with native histograms: native only ($NBUCKET _bucket)" \
		[ "$NBUCKET" = none ]
fi

finish
