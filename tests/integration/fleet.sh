# Helpers for the fleet-output tests (t_fleet_*.sh), sourced after lib.sh.

# Background processes a test starts (ioprobe, prometheus, node_exporter); ended at exit.
FLEET_BG=()
fleet_cleanup() {
	local p
	for p in "${FLEET_BG[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in "${FLEET_BG[@]}"; do
		wait_exit "$p" 5 || kill -KILL "$p" 2>/dev/null
	done
}
at_exit fleet_cleanup

# int_probe PID: SIGINT to the ioprobe that `timeout ... "$IOPROBE"` (PID) runs, once. Not to
# PID: timeout passes a signal on to its child and again to its whole process group, and an
# ioprobe already stopping takes a second signal as "quit now" (exit 4).
int_probe() { pkill -INT -P "$1"; }

# free_port: a TCP port on 127.0.0.1 nobody listens on right now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_http URL [SECONDS]: poll (50 ms) until URL answers 200; fails after SECONDS (default 10).
wait_http() {
	local tries=$(( ${2:-10} * 20 ))
	while [ "$tries" -gt 0 ]; do
		curl -fs -o /dev/null --max-time 1 "$1" && return 0
		tries=$((tries - 1))
		sleep 0.05
	done
	return 1
}

# start_prometheus PORT PPORT: Debian's prometheus on 127.0.0.1:PPORT scraping ioprobe's
# 127.0.0.1:PORT every second (its data in $T_TMP); returns once it is ready (30 s at most).
start_prometheus() {
	cat >"$T_TMP/prom.yml" <<EOT
scrape_configs:
  - job_name: ioprobe
    static_configs:
      - targets: ['127.0.0.1:$1']
EOT
	run_prometheus "$2"
}

# run_prometheus PPORT: Debian's prometheus on 127.0.0.1:PPORT with the scrape configs in
# $T_TMP/prom.yml (scrapes and rules every second: a global section is put before them); ready
# or fails in 30 s.
run_prometheus() {
	{
		printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\n'
		printf '  evaluation_interval: 1s\n'
		cat "$T_TMP/prom.yml"
	} >"$T_TMP/prom.full.yml"
	prometheus --config.file="$T_TMP/prom.full.yml" --storage.tsdb.path="$T_TMP/promdata" \
		--web.listen-address="127.0.0.1:$1" >"$T_TMP/prom.log" 2>&1 &
	FLEET_BG+=("$!")
	wait_http "http://127.0.0.1:$1/-/ready" 30
}

# scrape_both PORT: /metrics as text 0.0.4 into $T_TMP/text.out and as
# OpenMetrics (asked by Accept) into $T_TMP/om.out.
scrape_both() {
	curl -fs "http://127.0.0.1:$1/metrics" >"$T_TMP/text.out"
	curl -fs -H 'Accept: application/openmetrics-text; version=1.0.0' \
		"http://127.0.0.1:$1/metrics" >"$T_TMP/om.out"
}

# poll_until SECONDS CMD...: poll CMD (250 ms) until it succeeds; fails after SECONDS.
poll_until() {
	local tries=$(($1 * 4))
	shift
	while [ "$tries" -gt 0 ]; do
		"$@" && return 0
		tries=$((tries - 1))
		sleep 0.25
	done
	return 1
}

# metric FILE NAME_AND_LABELS: the value of the one series whose line starts with it.
metric() { awk -v k="$2" 'index($0, k " ") == 1 { print $NF; exit }' "$1"; }

# tap: run a python check script, count its "ok - " and "FAIL - " lines as passes and failures.
tap() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) pass "${line#ok - }" ;;
		"FAIL - "*) fail "${line#FAIL - }" ;;
		*) echo "$line" ;;
		esac
	done < <("$@" 2>&1)
}

# float_ge A B: A >= B as floats.
float_ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }

# prom_query PORT PROMQL FORMAT: the result of an instant query to the Prometheus on
# 127.0.0.1:PORT; FORMAT "value" prints the first series' value, "targets" the target label
# of every series (or the value where there is none); "none" when nothing matched.
prom_query() {
	curl -fs --max-time 5 "http://127.0.0.1:$1/api/v1/query" --data-urlencode "query=$2" |
		python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
if not r:
    print("none")
elif sys.argv[1] == "value":
    print(r[0]["value"][1])
else:
    print(" ".join(x["metric"].get("target", x["value"][1]) for x in r))' "$3"
}

# bucket SECONDS: the index of the fleet histogram bucket SECONDS falls in; the bounds are read
# from ioprobe's own textfile (its le labels), so they follow metrics.c.
bucket() {
	if [ ! -s "$T_TMP/fleet.bounds" ]; then
		"$IOPROBE" --engine=null -c 2 -i 0 -q --prometheus "$T_TMP/fleet.bounds.prom" "$T_TMP" \
			>/dev/null 2>&1
		grep '^ioprobe_request_duration_seconds_bucket{' "$T_TMP/fleet.bounds.prom" |
			grep -o 'le="[^"]*"' | sed 's/le="//; s/"$//' | grep -v Inf | sort -gu \
			>"$T_TMP/fleet.bounds"
	fi
	python3 -c 'import sys
b = [float(x) for x in open(sys.argv[2]).read().split()]
assert b, "no bucket bounds read"
v = float(sys.argv[1]); print(next((i for i, x in enumerate(b) if v <= x * (1 + 1e-9)), len(b)))' \
		"$1" "$T_TMP/fleet.bounds"
}
