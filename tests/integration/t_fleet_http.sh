#!/bin/bash
# --listen under hostile clients (1,000 connections at once, a slowloris crowd, a 1 MiB
# request line, garbage, HEAD/POST, /../) while the probe keeps its rate, and a hung
# request that grows ioprobe_oldest_in_flight_seconds while the endpoint keeps answering.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd python3
require_cmd curl
HTTP_PY=$SRCDIR/tests/integration/fleet_http.py

# ---- a busy endpoint beside a 100/s probe: 2000 slots asked in 20 s ----
PORT=$(free_port)
timeout -k 5 60 "$IOPROBE" -C -i 10ms -a 0 -w 20 -J --listen "$PORT" "$T_TMP" >"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
check "--listen: the endpoint comes up" wait_http "http://127.0.0.1:$PORT/metrics"
tap python3 "$HTTP_PY" "$PORT" basic garbage long_line thousand slowloris
wait "$PID"
RC=$?
check "busy endpoint: the probe ends normally" rc_is 0
count=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[-1]["stat"]["count"])' \
	"$OUT" 2>/dev/null)
# The endpoint never makes the probe wait: the probe keeps 0.995 of its rate. Under ASan
# (CI's second run) this test's own 1,000 clients take enough of the 2 cores' CPU from the
# slowed binary that it kept 0.978 once: there the bound is 0.95.
want=1990
grep -q __asan_init "$IOPROBE" && want=1900
check "busy endpoint: probe rate $count/2000 >= $want/2000" float_ge "${count:-0}" "$want"

# ---- binding: busy port, bad address ----
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
open(sys.argv[1], "w").write("%d\n" % s.getsockname()[1]); time.sleep(5)' "$T_TMP/busy" &
nc_pid=$!
FLEET_BG+=("$nc_pid")
for _ in $(seq 100); do [ -s "$T_TMP/busy" ] && break; sleep 0.02; done
PORT=$(cat "$T_TMP/busy")
probe -c 1 -C --listen "$PORT" "$T_TMP"
check "--listen on a busy port: exit 2" rc_is 2
check "--listen on a busy port: says so" err_has "^ioprobe: --listen: cannot listen on $PORT: Address already in use$"
kill "$nc_pid" 2>/dev/null
probe -c 1 -C --listen 127.0.0.1:0 "$T_TMP"
check "--listen port 0: usage error (exit 1)" rc_is 1
check "--listen port 0: message" err_has '^ioprobe: --listen: "127.0.0.1:0" is not \[ADDR:\]PORT'
probe -c 1 -C --listen 'nohost:9' "$T_TMP"
check "--listen with a host name: exit 1" rc_is 1
wait

# ---- a hung request: its age grows, the endpoint answers meanwhile ----
require_loop
require_fuse
M=$T_TMP/hang
DEV=$(make_fault_disk "$M" 16M --latency 1ms) || { fail "mount faultdisk"; finish; }
PORT=$(free_port)
"$IOPROBE" -D -i 100ms -q --listen "$PORT" "$DEV" >"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
wait_http "http://127.0.0.1:$PORT/metrics"
wait_fault "$M" requests 3
fault_ctl "$M" "hang 1"
wait_fault "$M" hung_now 1
sleep 0.3
S1=$T_TMP/s1
S2=$T_TMP/s2
curl -fs --max-time 1 "http://127.0.0.1:$PORT/metrics" >"$S1"
sleep 1.5
t0=$(now_ms)
curl -fs --max-time 1 "http://127.0.0.1:$PORT/metrics" >"$S2"
t1=$(now_ms)
o1=$(metric "$S1" "ioprobe_oldest_in_flight_seconds{target=\"$DEV\"}")
o2=$(metric "$S2" "ioprobe_oldest_in_flight_seconds{target=\"$DEV\"}")
check "hung request: scrape answered in $((t1 - t0)) ms" [ $((t1 - t0)) -lt 500 ]
check "hung request: in flight = 1" [ "$(metric "$S2" "ioprobe_requests_in_flight{target=\"$DEV\"}")" = 1 ]
check "hung request: oldest_in_flight grows ($o1 -> $o2 s)" \
	awk -v a="${o1:-0}" -v b="${o2:-0}" 'BEGIN { exit !(a >= 0.2 && b >= a + 1.3) }'
c1=$(metric "$S2" "ioprobe_request_duration_seconds_count{target=\"$DEV\",operation=\"read\"}")
fault_ctl "$M" "hang 0"
sleep 0.5
curl -fs --max-time 1 "http://127.0.0.1:$PORT/metrics" >"$S1"
c2=$(metric "$S1" "ioprobe_request_duration_seconds_count{target=\"$DEV\",operation=\"read\"}")
b1=$(metric "$S1" "ioprobe_request_duration_seconds_bucket{target=\"$DEV\",operation=\"read\",le=\"1.0\"}")
check "released: completions go on ($c1 -> $c2)" [ "${c2:-0}" -gt "${c1:-0}" ]
check "released: the hung request shows in a bucket above 1 s ($b1 of $c2 under 1 s)" \
	[ "${b1:-0}" -lt "${c2:-0}" ]
kill -INT "$PID"
wait "$PID"
RC=$?
check "hang run stopped by SIGINT: exit 0" rc_is 0

finish
