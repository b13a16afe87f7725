#!/bin/bash
# The fleet outputs read by the real components: Debian's prometheus (scraping --listen,
# negotiating OpenMetrics; histogram_quantile against ioprobe's own p99 on a disk with
# known latency), promtool check metrics, a strict OpenMetrics parser
# (python3-prometheus-client), and prometheus-node-exporter's textfile collector
# reading --prometheus FILE.prom. Everything listens on 127.0.0.1 only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd python3
require_cmd curl
require_cmd promtool
require_cmd prometheus
require_cmd prometheus-node-exporter
/usr/bin/python3 -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
	skip "needs python3-prometheus-client"

# ---- the textfile: refused names, atomic writes, node_exporter reads it ----
mkdir -p "$T_TMP/tf" "$T_TMP/data"
probe -c 1 -C --prometheus "$T_TMP/tf/ioprobe.txt" "$T_TMP/data"
check "--prometheus x.txt: exit 1" rc_is 1
check "--prometheus x.txt: says why" err_has "^ioprobe: --prometheus: the file name must end in \.prom"
probe -c 1 -C --prometheus "$T_TMP/tf/.prom" "$T_TMP/data"
check "--prometheus .prom (no name): exit 1" rc_is 1
probe -c 1 -C --prometheus "$T_TMP/nodir/x.prom" "$T_TMP/data"
check "--prometheus in a missing directory: exit 2" rc_is 2
check "--prometheus in a missing directory: says why" \
	err_has "^ioprobe: --prometheus: cannot write $T_TMP/nodir/x\.prom: No such file or directory$"
probe -c 1 -C --prometheus-period 10ms --prometheus "$T_TMP/tf/a.prom" "$T_TMP/data"
check "--prometheus-period under 100ms: exit 1" rc_is 1

NPORT=$(free_port)
prometheus-node-exporter --web.listen-address="127.0.0.1:$NPORT" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$T_TMP/tf" >"$T_TMP/ne.log" 2>&1 &
FLEET_BG+=("$!")
check "node_exporter comes up" wait_http "http://127.0.0.1:$NPORT/metrics" 20
PROM=$T_TMP/tf/ioprobe.prom
timeout -k 5 60 "$IOPROBE" -C -i 20ms -w 4 -J --prometheus "$PROM" --prometheus-period 200ms \
	"$T_TMP/data" >"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
for _ in $(seq 100); do [ -s "$PROM" ] && break; sleep 0.02; done
sleep 1
NE=$T_TMP/ne.out
curl -fs --max-time 5 "http://127.0.0.1:$NPORT/metrics" >"$NE"
check "node_exporter: textfile read without error" \
	[ "$(metric "$NE" node_textfile_scrape_error)" = 0 ]
for fam in ioprobe_request_duration_seconds_bucket ioprobe_request_errors_total \
	ioprobe_request_bytes_total ioprobe_requests_in_flight ioprobe_skipped_slots_total \
	ioprobe_last_completion_timestamp_seconds ioprobe_oldest_in_flight_seconds \
	ioprobe_interval_seconds ioprobe_request_size_bytes ioprobe_start_time_seconds \
	ioprobe_probe_info; do
	check "node_exporter shows $fam" grep -q "^$fam{.*target=\"$T_TMP/data\"" "$NE"
done
check "node_exporter shows one ioprobe_build_info (the process's, no target)" \
	test "$(grep -c '^ioprobe_build_info{version="' "$NE")" = 1
check "node_exporter keeps our HELP" grep -qx '# HELP ioprobe_request_errors_total Failed probe requests by errno name.' "$NE"
check "node_exporter: ioprobe_request_errors_total is a counter" \
	grep -qx '# TYPE ioprobe_request_errors_total counter' "$NE"
check "node_exporter: the file's mtime is exported" grep -q "^node_textfile_mtime_seconds{file=\"$PROM\"}" "$NE"
wait "$PID"
RC=$?
check "textfile run: exit 0" rc_is 0
cnt=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[-1]["stat"]["count"])' "$OUT")
check "textfile written at exit: final count $cnt" \
	[ "$(metric "$PROM" "ioprobe_request_duration_seconds_count{target=\"$T_TMP/data\",operation=\"read\"}")" = "$cnt" ]
check "textfile: no temporary file left" [ "$(ls -A "$T_TMP/tf")" = ioprobe.prom ]
check "textfile: mode 0644" [ "$(stat -c %a "$PROM")" = 644 ]
check "textfile: no timestamps (every sample is 'series value')" \
	awk '!/^#/ && !/} [^ ]+$/ { bad = 1 } END { exit bad }' "$PROM"
check "promtool check metrics: textfile clean" promtool check metrics <"$PROM"
curl -fs --max-time 5 "http://127.0.0.1:$NPORT/metrics" >"$NE"
check "node_exporter after the run: no scrape error" [ "$(metric "$NE" node_textfile_scrape_error)" = 0 ]

# ---- Prometheus scrapes --listen on a disk with known latency ----
require_loop
require_fuse
M=$T_TMP/lat
# 3 ms per request, every 10th 10x slower: ioprobe's p99 lands in the 20-50 ms bucket
DEV=$(make_fault_disk "$M" 32M --latency 3ms --slow-every 10 --slow-factor 10) ||
	{ fail "mount faultdisk"; finish; }
PORT=$(free_port)
PPORT=$(free_port)
check "prometheus comes up" start_prometheus "$PORT" "$PPORT"
timeout -k 5 60 "$IOPROBE" -D -i 20ms -w 12 -J --listen "$PORT" "$DEV" >"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
wait_http "http://127.0.0.1:$PORT/metrics"
scrape_both "$PORT"
check "promtool check metrics: /metrics text 0.0.4 clean" promtool check metrics <"$T_TMP/text.out"
check "probe_info: a whole loop device with no disk below is its own disk (the node_disk_* key)" \
	grep -q "^ioprobe_probe_info{target=\"$DEV\",device=\"${DEV#/dev/}\",disk=\"${DEV#/dev/}\"," \
	"$T_TMP/text.out"
check "OpenMetrics: strict parser accepts /metrics (12 families, 13 or 14 with the verdict's)" \
	/usr/bin/python3 -c '
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse
fams = {f.name for f in parse(open(sys.argv[1]).read())}
sys.exit(not (len(fams) == 12 + ("ioprobe_verdict_seconds" in fams) + ("ioprobe_verdict" in fams)
              and "ioprobe_verdict_seconds" in fams))' "$T_TMP/om.out"
sleep 9
q() { prom_query "$PPORT" "$1" value; }
UP=$(q 'up{job="ioprobe"}')
PQ=$(q 'histogram_quantile(0.99, sum by (le) (ioprobe_request_duration_seconds_bucket{job="ioprobe"}))')
PR=$(q 'histogram_quantile(0.99, sum by (le) (rate(ioprobe_request_duration_seconds_bucket{job="ioprobe"}[5s])))')
INFO=$(q 'ioprobe_probe_info{job="ioprobe"}')
META=$(curl -fs "http://127.0.0.1:$PPORT/api/v1/targets/metadata?metric=ioprobe_probe" |
	python3 -c 'import json, sys; d = json.load(sys.stdin)["data"]; print(d[0]["type"] if d else "none")')
wait "$PID"
RC=$?
check "latency run: exit 0" rc_is 0
P99=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[-1]["stat"]["percentiles"]["99"] / 1e9)' "$OUT")
check "prometheus: target up ($UP)" [ "$UP" = 1 ]
check "prometheus negotiated OpenMetrics: ioprobe_probe has type info ($META)" [ "$META" = info ]
check "prometheus: ioprobe_probe_info = 1 ($INFO)" [ "$INFO" = 1 ]
check "histogram_quantile(0.99) $PQ s vs ioprobe p99 $P99 s: same bucket" \
	[ "$(bucket "$PQ")" = "$(bucket "$P99")" ]
check "histogram_quantile over rate() $PR s vs ioprobe p99 $P99 s: within one bucket" \
	python3 -c 'import sys; sys.exit(abs(int(sys.argv[1]) - int(sys.argv[2])) > 1)' \
	"$(bucket "$PR")" "$(bucket "$P99")"
check "the p99 is in the 20-50 ms bucket (10x slow every 10th)" [ "$(bucket "$P99")" = 11 ]

finish
