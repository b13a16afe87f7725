#!/bin/bash
# -P with long or huge intervals (issue 10 item 4): a period that is due many times over is
# one period, no busy loop (CPU time stays near zero while waiting), INT and TERM end a
# wait of any length within 100 ms, and an interval too big for 64 bits is clamped.
. "$(dirname "$0")/lib.sh"

D=$T_TMP/dir
mkdir "$D"

# cpu_ticks PID: user + system time of PID so far, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
HZ=$(getconf CLK_TCK)

## -r 1e-11 (an interval of 3000 years): waits without spinning, a signal ends it at once
# (the 100 ms are measured from this shell: a busy moment of the machine runs it again)
wait_then_signal() {
	local sig=$1
	: >"$OUT"
	"$IOPROBE" -r 1e-11 -P 1 -c 2 -q "$D" >"$OUT" 2>"$ERR" &
	BG=$!
	check "-r 1e-11 ($sig): the first period line comes" wait_lines "$OUT" '^0 0 0 0 0 0 0 0 1 [0-9]+$' 1
	wait_caught "$BG" "$(kill -l "$sig")"
	t0=$(cpu_ticks "$BG")
	sleep 0.5
	t1=$(cpu_ticks "$BG")
	check "-r 1e-11 ($sig): no busy loop while waiting ($((t1 - t0)) ticks of $HZ/s in 0.5 s)" \
		test "$((t1 - t0))" -le $((HZ / 20))
	start=$(now_ms)
	kill -"$sig" "$BG"
	wait_exit "$BG" 5 || kill -KILL "$BG"
	took=$(($(now_ms) - start))
	wait "$BG"
	RC=$?
	BG=
	check "-r 1e-11: $sig ends the wait within 100 ms (${took} ms)" test "$took" -le 100
	check "-r 1e-11: $sig: exit 0" rc_is 0
	check "-r 1e-11: $sig: still one period line, no flood" out_lines 1
}
for sig in INT TERM; do
	attempts 3 wait_then_signal "$sig"
done

## -P 1ns -i 1s: one period per request, and no CPU spent catching up on periods
TIMEFORMAT='%3U %3S'
cpu=$( { time "$IOPROBE" -P 1ns -i 1s -c 3 -q "$D" >"$OUT" 2>"$ERR"; } 2>&1)
RC=$?
check "-P 1ns -i 1s -c 3: exit 0" rc_is 0
check "-P 1ns -i 1s -c 3: one period line per request" out_lines 3
check "-P 1ns -i 1s -c 3: CPU time near zero (user/sys $cpu s)" \
	awk -v u="${cpu% *}" -v s="${cpu#* }" 'BEGIN { exit !(u + s < 0.1) }'

## a period due many times over while a request waited: folded into one line
probe -P 10ms -i 60ms -c 4 -q "$D"
check "-P 10ms -i 60ms -c 4: four period lines (one per request)" out_lines 4
check "-P 10ms -i 60ms -c 4: no empty periods" eval '! grep -q "^0 0 0 0 0 0 0 0 0 " "$OUT"'

## huge intervals are clamped: -w still ends the run, nothing wraps
probe -r 1e-11 -w 1 -c 5 -q "$D"
check "-r 1e-11 -w 1: ends at once after the first request (the next start is past -w)" rc_is 0
check "-r 1e-11 -w 1: one request in the summary" out_has "^generated 1 requests in "
probe -i 9223372036s -P 9223372036s -w 1 -c 3 -B "$D"
check "-i and -P near the limit: exit 0, one request" eval 'rc_is 0 && out_has "^0 0 0 0 0 0 0 0 1 [0-9]+$"'

finish
