#!/bin/bash
# The saturation verdict in the fleet outputs, on a device built for each state: a loop device
# over the FUSE fault disk serving one request at a time in 7 ms (about 140 reads/s). Asked 50/s
# it keeps up; asked 333/s it falls short, device saturated. The same run prints --iostat's
# verdict lines and writes the textfile: ioprobe_verdict_seconds_total of each state is the
# CLI's count of intervals in it (each about a second), and ioprobe_verdict is the last line's
# state and reason. Without --iostat the run judges quietly (nothing printed) for --listen,
# --influx (verdict and reason fields) and the view (-X, in tmux); a target with no block
# device under it (a tmpfs directory) and a run with Poisson arrivals publish no verdict. The
# --check plugin line gives the verdict of the run's end after its figures. A recording of a
# run without --iostat keeps its verdicts: the replay's textfile has the live verdict series.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd python3
require_cmd curl
require_loop
require_fuse

L=$(make_fault_disk "$T_TMP/fd" 256M --latency 7ms -s) || skip "cannot set up the FUSE disk"
mkdir -p "$T_TMP/shm"
mount -t tmpfs -o size=64m none "$T_TMP/shm" || skip "cannot mount a tmpfs"
register_mount "$T_TMP/shm"

# compare OUT PROM: the CLI's verdict lines in OUT against the textfile PROM (see the top).
compare() {
	python3 - "$1" "$2" <<'EOT'
import re, sys
out, prom = open(sys.argv[1]).read(), open(sys.argv[2]).read()
keys = {"keeps up": "keeps_up", "falls short": "falls_short", "other I/O": "other_io",
        "queue building": "queue_building", "no verdict": "none"}
reasons = {"device saturated": "device_saturated", "wait above the device": "wait_above_device",
           "probe limited: CPU": "probe_limited_cpu", "probe limited": "probe_limited",
           "throttled above the device": "throttled", "queued": "queued",
           "device slow": "device_slow", "depth limited": "depth_limited", "stalled": "stalled"}
lines = [l for l in out.splitlines() if re.match(r"(keeps up|falls short|other I/O|queue building|no verdict)", l)]
if not lines:
    sys.exit("no verdict line printed")
count = {}
for l in lines:
    st = next(v for k, v in keys.items() if l.startswith(k))
    count[st] = count.get(st, 0) + 1
secs = {m.group(1): float(m.group(2)) for m in
        re.finditer(r'^ioprobe_verdict_seconds_total\{[^}]*state="(\w+)"\} (\S+)$', prom, re.M)}
ok = sorted(secs) == sorted(keys.values())
for st in keys.values():  # each interval about a second (the first from the first request)
    n = count.get(st, 0)
    ok &= (n == 0 and secs.get(st) == 0) or (n > 0 and n - 1 < secs.get(st, -9) <= n * 1.05)
last = lines[-1]
st = next(v for k, v in keys.items() if last.startswith(k))
why = ""
if st == "falls_short":
    rest = last[len("falls short: "):]
    why = next(v for k, v in reasons.items() if rest.startswith(k + ":"))
cur = re.findall(r'^ioprobe_verdict\{[^}]*state="(\w+)",reason="(\w*)"\} 1$', prom, re.M)
ok &= cur == [(st, why)]
print(f"# CLI {count} last {st}/{why}; textfile seconds {secs}, now {cur}")
sys.exit(0 if ok else 1)
EOT
}

# ---- the CLI's --iostat verdict and the textfile of the same run ----
for case in "50:20ms:keeps_up" "333:3ms:falls_short"; do
	IFS=: read -r rate iv want <<<"$case"
	rm -f "$T_TMP/a.prom"
	probe -D -i "$iv" -w 6 -q --iostat --prometheus "$T_TMP/a.prom" --prometheus-period 200ms "$L"
	check "$rate/s --iostat: exit 0" rc_is 0
	check "$rate/s --iostat: verdict lines printed" out_has "^(keeps up|falls short)"
	check "$rate/s: the textfile's verdict seconds are the CLI's intervals, its state the last" \
		compare "$OUT" "$T_TMP/a.prom"
	check "$rate/s: the state built for: $want" grep -q "^ioprobe_verdict{.*state=\"$want\"" "$T_TMP/a.prom"
done
check "333/s: the reason is the device's" \
	grep -q '^ioprobe_verdict{target="'"$L"'",device="'"${L##*/}"'",state="falls_short",reason="device_saturated"} 1$' "$T_TMP/a.prom"

# ---- --listen without --iostat: judged quietly, served live ----
PORT=$(free_port)
"$IOPROBE" -D -i 3ms -w 30 -q --listen "127.0.0.1:$PORT" "$L" >"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
check "--listen comes up" wait_http "http://127.0.0.1:$PORT/metrics"
# scraped: the verdict series once an interval was judged, falls short of 333/s
saturated() {
	scrape_both "$PORT" &&
		grep -q '^ioprobe_verdict{target="'"$L"'",device="[^"]*",state="falls_short",reason="device_saturated"} 1$' "$T_TMP/text.out" &&
		grep -q '^ioprobe_verdict{target="'"$L"'",device="[^"]*",state="falls_short",reason="device_saturated"} 1$' "$T_TMP/om.out"
}
check "--listen, no --iostat: falls short, device saturated (text and OpenMetrics)" poll_until 10 saturated
check "--listen: time counted in falls_short" \
	awk '$1 ~ /^ioprobe_verdict_seconds_total\{.*state="falls_short"/ && $2 > 0 { f = 1 } END { exit !f }' "$T_TMP/text.out"
check "--listen: one current verdict series" test "$(grep -c '^ioprobe_verdict{' "$T_TMP/text.out")" = 1
kill -INT "$PID"
wait_exit "$PID" 5
check "--listen: no --iostat block printed (the judging is quiet)" out_lacks "Device|falls short|keeps up"
check "--listen: nothing on stderr" err_empty

# ---- --influx: the judged target's lines carry the verdict; the tmpfs directory's do not ----
probe -D -i 20ms -P 1s -w 5 --influx "$L" "$T_TMP/shm"
check "--influx: exit 0" rc_is 0
check "--influx: the device's lines end with verdict and reason (from its second period)" \
	awk -v t="target=$L," 'index($0, t) { n++; if (n > 1 && $0 !~ /,verdict="keeps_up",reason="" [0-9]+$/) bad = 1 }
		END { exit !(n >= 4 && !bad) }' "$OUT"
check "--influx: the tmpfs directory's lines have no verdict" \
	awk -v t="target=$T_TMP/shm," 'index($0, t) { n++; if (/verdict=/) bad = 1 } END { exit !(n >= 4 && !bad) }' "$OUT"

# ---- the textfile with a target that has no device: its series are not there ----
probe -D -i 20ms -w 3 -q --prometheus "$T_TMP/b.prom" --prometheus-period 200ms "$L" "$T_TMP/shm"
check "device and tmpfs: exit 0" rc_is 0
check "device and tmpfs: the device's verdict seconds" \
	grep -q "^ioprobe_verdict_seconds_total{target=\"$L\",state=\"keeps_up\"} [1-9]" "$T_TMP/b.prom"
check "device and tmpfs: none for the tmpfs directory" \
	bash -c "grep -q 'target=\"$T_TMP/shm\"' '$T_TMP/b.prom' && ! grep -q '^ioprobe_verdict.*target=\"$T_TMP/shm\"' '$T_TMP/b.prom'"

# ---- --check: the plugin's text gives the verdict of the run's end after the figures ----
probe --check 1s,2s -D -i 3ms -c 600 "$L"
check "--check at 333/s: OK by its thresholds (the verdict is said, not judged)" rc_is 0
check "--check at 333/s: falls short, device saturated, after the figures" \
	out_has "^IOPROBE OK - p99 [0-9.]+ ms, avg [0-9.]+ ms, [0-9.]+ iops, 600 requests, 0 failed, falls short: device saturated \| 'p99'="
probe --check 1s,2s -D "$L" "$T_TMP/shm"
check "--check, a device and a tmpfs directory: exit 0" rc_is 0
check "--check: the device keeps up (10 requests in a second, judged at the end)" \
	out_has "^IOPROBE OK - $L OK p99 [0-9.]+ ms, avg [0-9.]+ ms, [0-9.]+ iops, 10 requests, 0 failed, keeps up; $T_TMP/shm OK p99 [0-9.]+ ms, avg [0-9.]+ ms, [0-9.]+ iops, 10 requests, 0 failed \| "

# ---- --record without --iostat: the quiet verdicts are recorded, the replay's textfile has them ----
probe -D -i 20ms -w 3 -q --prometheus "$T_TMP/d.prom" --prometheus-period 200ms \
	--record "$T_TMP/d.rec" "$L" "$T_TMP/shm"
check "--record --prometheus: exit 0" rc_is 0
probe --replay "$T_TMP/d.rec" -q --prometheus "$T_TMP/drep.prom"
check "--replay --prometheus: exit 0" rc_is 0
check "--replay --prometheus: the live verdict series, the same seconds, none for tmpfs" \
	eval 'grep -q "^ioprobe_verdict{target=\"$L\"" "$T_TMP/d.prom" &&
	      diff <(grep "^ioprobe_verdict" "$T_TMP/d.prom") <(grep "^ioprobe_verdict" "$T_TMP/drep.prom")'

# ---- Poisson arrivals: the verdict weighs a fixed rate, so none is published ----
probe -D -A -Q 2 --arrivals poisson -i 20ms -w 3 -q --prometheus "$T_TMP/c.prom" "$L"
check "--arrivals poisson: exit 0" rc_is 0
check "--arrivals poisson: no verdict series" \
	bash -c "grep -q '^ioprobe_request_duration_seconds_count' '$T_TMP/c.prom' && ! grep -q '^ioprobe_verdict' '$T_TMP/c.prom'"

# ---- the view (-X) with --listen: its judged intervals feed the exporter ----
if "$IOPROBE" -h 2>/dev/null | grep -q -- '-tui'; then
	require_cmd tmux
	. "$(dirname "$0")/tui_lib.sh"
	PORT=$(free_port)
	start 120 40 -- -X -D -i 3ms --listen "127.0.0.1:$PORT" "$L"
	check "-X --listen comes up" wait_http "http://127.0.0.1:$PORT/metrics"
	check "-X --listen: the view's verdict is served: falls short, device saturated" \
		poll_until 10 saturated
	check "-X: the view shows the same verdict" wait_for "falls short: device saturated" 5
	TM send-keys -t t q
	check "-X: q quits with 0" wait_for "^EXIT=0" 10
else
	fail "built without the full-screen view: the view's verdict is not tested"
fi
finish
