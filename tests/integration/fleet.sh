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
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: ioprobe
    static_configs:
      - targets: ['127.0.0.1:$1']
EOT
	prometheus --config.file="$T_TMP/prom.yml" --storage.tsdb.path="$T_TMP/promdata" \
		--web.listen-address="127.0.0.1:$2" >"$T_TMP/prom.log" 2>&1 &
	FLEET_BG+=("$!")
	wait_http "http://127.0.0.1:$2/-/ready" 30
}

# scrape_both PORT: /metrics as text 0.0.4 into $T_TMP/text.out and as
# OpenMetrics (asked by Accept) into $T_TMP/om.out.
scrape_both() {
	curl -fs "http://127.0.0.1:$1/metrics" >"$T_TMP/text.out"
	curl -fs -H 'Accept: application/openmetrics-text; version=1.0.0' \
		"http://127.0.0.1:$1/metrics" >"$T_TMP/om.out"
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
