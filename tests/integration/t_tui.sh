#!/bin/bash
# The full-screen view (--tui) driven through tmux on a loop device: every panel's labels
# and live numbers, braille in UTF-8 and none with --ascii or a C locale, colour codes and
# none with NO_COLOR / --no-color, every key, resizes 200x60 -> 80x24 -> 30x8 -> 120x40,
# "too small" still quits, q / SIGTERM restore the terminal and print the summary, a hung
# request is shown, and a non-terminal is refused. Waits poll capture-pane; no fixed sleeps.
. "$(dirname "$0")/lib.sh"

require_cmd tmux
require_loop
"$IOPROBE" -h 2>/dev/null | grep -q -- '-tui' || skip "built without the full-screen view"

make_loop 64M >"$T_TMP/loopdev" || skip "cannot create a loop device"
L=$(cat "$T_TMP/loopdev")
N=${L#/dev/}
DESC="\(block device 64 MiB\)"
. "$(dirname "$0")/tui_lib.sh"

# requests: the count in the "recent requests" title.
requests() { cap; sed -nE 's/.* ([0-9]+) requests ──.*/\1/p' "$PANE" | head -1; }

# wait_more N [SECONDS]: poll until more than N requests were shown.
wait_more() {
	local n=$1 tries=$(( ${2:-10} * 50 )) r
	while [ "$tries" -gt 0 ]; do
		r=$(requests)
		[ -n "$r" ] && [ "$r" -gt "$n" ] && return 0
		tries=$((tries - 1))
		sleep 0.02
	done
	return 1
}

# elapsed_tick: wait until the header's elapsed clock changes (about a second).
elapsed_tick() {
	local e0
	cap
	e0=$(grep -Eo 'elapsed [0-9:]+' "$PANE")
	wait_gone "$e0" 5
}

# widest: the widest pane line in characters (bash counts them in a UTF-8 locale).
widest() {
	local line max=0
	while IFS= read -r line; do
		[ "${#line}" -gt "$max" ] && max=${#line}
	done <"$PANE"
	echo "$max"
}

braille() { LC_ALL=C grep -q $'\xe2[\xa0-\xa3][\x80-\xbf]' "$PANE"; }
colour() { grep -Eq $'\e\\[([0-9]+;)*(3[1-6]|9[1-6])m' "$PANE"; }

## 1. UTF-8 at 120x40: every panel
start 120 40 -- --tui -i 0.05 "$L"
check "recent: the warmup notice" wait_for "request=1 time=[0-9.]+ (ns|us|ms) \(warmup\)" 10
check "starts and shows requests" wait_for "request=5 " 10
check "iostat has two samples" wait_for "state +ok" 10
elapsed_tick
cap
check "header: target" has "^ ioprobe $L $DESC"
check "header: device stack" has "$N \(.*\) → "
check "header: mode and engine" has "read buffered, sync engine"
check "header: size" has "size 4.00 KiB"
check "header: working set" has "working set 64.0 MiB"
check "header: interval" has "every 50 ms"
check "header: elapsed" has "elapsed 0:0[1-9]"
check "header: state" has "running *$"
check "graph: title" has "── latency: log scale, 1 min window ──"
check "graph: legend" has "x fail(ed)? +s skip(ped)? +! slow +\^ clip(ped)? +- paus(e|ed)"
check "graph: µs/ms axis labels" has "^ *[0-9.]+ (µs|ms) ┤"
check "graph: time axis" has "└-1 min +-45 s +-30 s +-15 s +now"
check "graph: braille" braille
check "periods: title" has "── periods \(1 s\) "
check "periods: column heads" has "end +count +run time +iops +B/s +min +avg +max"
check "periods: live row" has "^ +0:0[0-9] +[1-9][0-9]* +[0-9.]+ (µs|ms) +[0-9.]+k? +[0-9.]+ [KM]iB +[0-9.]+ (µs|ms)"
check "periods: total row" has "^ +total +[1-9][0-9]* +[0-9.]+ (µs|ms)"
check "periods: percentiles and counts" has "p50 [0-9.]+ (µs|ms) +p90 [0-9.]+ (µs|ms) +p99 [0-9.]+ (µs|ms) +p99.9 [0-9.]+ (µs|ms) +failed 0 +skipped [0-9]+"
check "recent: ping-like lines" has "4 KiB <<< $L $DESC: request=[0-9]+ time=[0-9.]+ (ns|us|ms)"
check "recent: count" has "── [0-9]+ requests ──"
check "iostat: title" has "iostat $N \[1/[0-9]+\]"
check "iostat: kind" has "│ loop \(top\) "
check "iostat: r/s w/s live" has "r/s +[1-9][0-9.]* +w/s +[0-9.]+"
check "iostat: rkB/s wkB/s" has "rkB/s +[1-9][0-9.]* +wkB/s +[0-9.]+"
check "iostat: rareq-sz wareq-sz (kB)" has "rareq-sz +4.00 +wareq-sz +0.00"
check "iostat: f/s f_await" has "f/s +[0-9.]+ +f_await +[0-9.]+"
check "iostat: probe p50 beside the device's await" has "await +[0-9.]+ +probe p50 +[0-9.]+"
check "iostat: aqu-sz in-flight" has "aqu-sz +[0-9.]+ +in-flight +[0-9]+"
check "iostat: awaits" has "r_await +[0-9.]+ +w_await +[0-9.]+"
check "iostat: busy bar" has "busy \[.*\] +[0-9.]+%"
check "iostat: rates line with the asked rate" has "asked 20/s  got [0-9.]+/s \([-+]?[0-9]+ %\)"
check "iostat: a verdict" has "│ (keeps up|falls short|other I/O|queue building|no verdict)"
check "iostat: no L=λW identity, no 'parallel device' hint" lacks "L=λW|parallel device"
check "iostat: device list" has "stack \(d: next\)"
check "iostat: top device listed" has "▸ $N "
check "footer: keys" has "q quit +space freeze +p pause +\+/- interval +r reset +l log/lin +w window +t svc/resp +d device +m map +b hist +\? help"
cap_e
check "colour codes present" colour

## 2. keys
TM send-keys -t t '?'
check "?: help overlay" wait_for "ioprobe keys" 5
check "help lists the keys" has "halve / double the interval"
TM send-keys -t t x
check "any key closes the help" wait_gone "ioprobe keys" 5
TM send-keys -t t h
check "h: help overlay" wait_for "ioprobe keys" 5
TM send-keys -t t Escape
check "Esc closes the help" wait_gone "ioprobe keys" 5

TM send-keys -t t p
check "p: paused" wait_for "paused *$" 5
check "p: note" has "probing paused"
elapsed_tick
n0=$(requests)
elapsed_tick
n1=$(requests)
check "p: no requests while paused ($n0 -> $n1)" test "$((n1 - n0))" -le 1
check "p: paused time is marked in the graph" wait_for "│ .*-+ *│" 5
TM send-keys -t t p
check "p again: running" wait_for "running *$" 5
check "p again: requests go on" wait_more "$n1" 5

TM send-keys -t t +
check "+: interval halved" wait_for "every 25 ms" 5
check "+: note" has "interval 25 ms"
TM send-keys -t t - -
check "-: interval doubled" wait_for "every 100 ms" 5
TM send-keys -t t +
check "+: back to 50 ms" wait_for "every 50 ms" 5

TM send-keys -t t l
check "l: linear scale" wait_for "latency: linear scale" 5
check "l: linear axis starts at 0" has "^ +0 ┤"
TM send-keys -t t l
check "l again: log scale" wait_for "latency: log scale" 5

TM send-keys -t t w
check "w: 10 min window" wait_for "10 min window" 5
check "w: 10 min axis" has "└-10 min "
TM send-keys -t t w
check "w: 1 h window" wait_for "1 h window" 5
check "w: 1 h axis" has "└-1 h "
TM send-keys -t t w
check "w: back to 1 min" wait_for "1 min window" 5

TM send-keys -t t d
check "d: next device" wait_for "iostat [a-z0-9]+ \[2/[0-9]+\]" 5
check "d: marker moved" lacks "▸ $N "
TM send-keys -t t d
cap
ndev=$(grep -Eo 'iostat [a-z0-9]+ \[[0-9]+/[0-9]+\]' "$PANE" | sed -E 's/.*\/([0-9]+)\]/\1/')
for _ in $(seq 3 "${ndev:-2}"); do TM send-keys -t t d; done
check "d: wraps around to the top device" wait_for "iostat $N \[1/" 5

TM send-keys -t t Space
check "space: frozen" wait_for "display frozen" 5
check "space: graph says FROZEN" has "FROZEN"
f0=$(requests)
elapsed_tick
f1=$(requests)
check "space: display frozen ($f0 = $f1)" test "$f0" = "$f1"
TM send-keys -t t Space
check "space again: live" wait_for "display live" 5
check "space: the probe went on meanwhile" wait_more "$((f1 + 5))" 5

TM send-keys -t t r
check "r: reset note" wait_for "statistics reset" 5
check "r: totals restart" has "total since 0:[0-9][1-9]"
TM send-keys -t t C-l
check "Ctrl-L: redrawn" wait_for "── latency: log scale" 5

## 3. resizes
TM resize-window -t t -x 200 -y 60
check "200x60: every period column" \
	wait_for "end +count +run time +iops +B/s +min +avg +max +mdev +total +wall" 5
check "200x60: side iostat" has "│── iostat $N"
check "200x60: graph" has "latency: log scale"
check "200x60: 30 graph rows" test "$(grep -c '^ *[^ ]* *[┤│]' "$PANE")" -ge 27
TM resize-window -t t -x 80 -y 24
check "80x24: bottom iostat" wait_for "^── iostat \(ms, kB\) ──" 5
check "80x24: graph" has "── latency"
check "80x24: periods" has "── periods"
check "80x24: recent requests" has "── recent requests"
check "80x24: iostat line" has "▸$N +busy [0-9.]+%  r/s"
check "80x24: fits the width" test "$(widest)" -le 80
TM resize-window -t t -x 30 -y 8
check "30x8: too small" wait_for "terminal too small" 5
check "30x8: sizes" has "30x8, need 40x12"
check "30x8: q quits" has "q quits"
TM resize-window -t t -x 120 -y 40
check "120x40: back" wait_for "│── iostat" 5
check "120x40: requests still coming" wait_more "$(requests)" 5

## 4. quit: terminal restored, summary printed
TM send-keys -t t q
check "q: exits 0" wait_for "^EXIT=0" 10
check "q: summary header" has "^--- $L $DESC ioprobe statistics ---"
check "q: summary valid line" has "requests completed in"
check "q: summary min/avg/max/mdev" has "^min/avg/max/mdev = "
check "q: terminal restored" terminal_restored
check "q: nothing on stderr" test ! -s "$ERR"

## 5. too small from the start: still quits
# --percentiles: the view's percentile line follows the list
start 120 40 -- --tui -i 0.05 --percentiles 50,95,99.9 "$L"
check "--percentiles 50,95,99.9: the view shows p95" \
	has "p50 [0-9.]+ (µs|ms) +p95 [0-9.]+ (µs|ms) +p99.9 [0-9.]+ (µs|ms) +failed 0"
TM send-keys -t t q
wait_for "^EXIT=0" 10

start 30 8 -- --tui -i 0.1 "$L"
check "too small at start" wait_for "terminal too small" 10
TM send-keys -t t q
check "too small: q exits 0" wait_for "^EXIT=0" 10
check "too small: summary (its last line)" has "^p50/p90/p99/p99.9 = "

## 6. ASCII: --ascii, and a C locale
start 100 30 -- --tui --ascii -i 0.05 "$L"
check "--ascii: runs" wait_for "request=5 " 10
check "--ascii: request lines" wait_for "time=[0-9.]+ (us|ms)" 5
cap
check "--ascii: no braille" eval '! braille'
check "--ascii: ASCII plot characters" has "^ *[0-9.]+ (us|ms) \+ *[.:'^ ]*$"
check "--ascii: ASCII axis" has "\+-1 min"
check "--ascii: only ASCII on the screen" eval "! LC_ALL=C grep -q \$'[\x80-\xff]' <(grep -v ' ioprobe ' \"\$PANE\")"
TM send-keys -t t q
check "--ascii: quits" wait_for "^EXIT=0" 10
start 100 30 LANG=C LC_ALL=C -- --tui -i 0.05 "$L"
check "C locale: runs" wait_for "request=5 " 10
check "C locale: no braille" eval '! braille'
check "C locale: us, not µs" has "[0-9] us"
TM send-keys -t t q
check "C locale: quits" wait_for "^EXIT=0" 10

## 7. NO_COLOR and --no-color: meaning without colour
start 120 40 NO_COLOR=1 -- --tui -i 0.05 "$L"
check "NO_COLOR: runs" wait_for "request=5 " 10
cap_e
check "NO_COLOR: no colour codes" eval '! colour'
check "NO_COLOR: still bold/reverse" grep -Eq $'\e\\[([0-9]+;)*[17]m' "$PANE"
TM send-keys -t t q
check "NO_COLOR: quits" wait_for "^EXIT=0" 10
start 120 40 -- --tui --no-color -i 0.05 "$L"
check "--no-color: runs" wait_for "request=5 " 10
cap_e
check "--no-color: no colour codes" eval '! colour'
TM send-keys -t t C-c
check "Ctrl-C: exits 0" wait_for "^EXIT=0" 10
check "Ctrl-C: terminal restored" terminal_restored

## 8. SIGTERM ends cleanly, a hung request is shown
start 120 40 -- --tui -i 0.1 -C --engine=null:3s "$T_TMP"
check "hung request: shown" wait_for "request in flight for [0-9.]+ s" 10
check "hung request: the screen keeps updating" elapsed_tick
pid=$(ioprobe_pid)
check "SIGTERM: handler installed" wait_caught "$pid" 15
t0=$(now_ms)
kill -TERM "$pid"
check "SIGTERM on a request that takes 3 s: exit 3, the request given up" wait_for "^EXIT=3" 10
dt=$(($(now_ms) - t0))
check "SIGTERM: ended within 1 s of the signal (${dt} ms; the capture polls every 100 ms)" \
	test "$dt" -le 1200
check "SIGTERM: says the request did not complete" \
	grep -Eq "^ioprobe: 1 request in flight \(hung [0-9.]+ s\) at the stop: it did not complete$" "$ERR"
check "SIGTERM: summary" has "ioprobe statistics ---"
check "SIGTERM: terminal restored" terminal_restored

## 9. a crash (SIGABRT, SIGSEGV) still restores the terminal, then dies of the signal
for sig in ABRT SEGV; do
	start 120 40 -- --tui -i 0.05 "$L"
	check "SIG$sig: running" wait_for "request=3 " 10
	pid=$(ioprobe_pid)
	check "SIG$sig: handler installed" wait_caught "$pid" "$(kill -l "$sig")"
	kill -"$sig" "$pid"
	check "SIG$sig: died of it" wait_for "^EXIT=$((128 + $(kill -l "$sig")))" 10
	check "SIG$sig: terminal restored" terminal_restored
done

## 10. a finished run stays on screen until q
start 120 40 -- --tui -c 5 -i 0.01 "$L"
check "-c 5: finished" wait_for "finished, q quits" 10
check "-c 5: five requests" has "── 5 requests ──"
TM send-keys -t t q
check "-c 5: summary" wait_for "^4 requests completed in" 10

## 10b. -G: the reads' and the writes' service times apart, as the summary's lines
mkdir -p "$T_TMP/rw"
start 120 40 -- --tui -G -c 40 -i 0.01 "$T_TMP/rw"
check "-G: finished" wait_for "finished, q quits" 10
check "-G: a read line (20 requests) and a write line (19: the warm-up was a write)" \
	eval 'has "^ read  p50 [0-9.]+ .*\(20\)" && has "^ write p50 [0-9.]+ .*\(19\)"'
RP50=$(sed -nE 's/^ read  p50 ([0-9.]+ [mun]?s|[0-9.]+ µs) .*/\1/p' "$PANE" | head -1)
TM send-keys -t t q
check "-G: the summary prints its read line" wait_for "^read p50/p90/p99/p99.9 = " 10
check "-G: the view's read p50 ($RP50) is the summary's" python3 - "$PANE" "$RP50" <<'PY'
import re, sys
unit = {"ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}
def ns(t):
    v, u = t.split()
    return float(v) * unit[u]
line = [l for l in open(sys.argv[1]) if l.startswith("read p50/p90/p99/p99.9 = ")][0]
summary = ns(line.split("= ")[1].split(" / ")[0])
view = ns(sys.argv[2])
assert abs(view - summary) <= 0.006 * summary, (view, summary)
PY

## 11. not a terminal
probe --tui "$L" </dev/null
check "no terminal: exit 1" rc_is 1
check "no terminal: message" err_has "^ioprobe: --tui needs a terminal"

## 12. real faults (faultdisk): failures and slow requests marked, a failing probe, a hang
if [ -c /dev/fuse ] && [ -n "${IOPROBE_FAULTDISK:-}" ] && [ -x "$IOPROBE_FAULTDISK" ]; then
	M=$T_TMP/fault
	FD=$(make_fault_disk "$M" 32M --latency 1ms) || { fail "mount faultdisk"; finish; }
	FDESC="\(block device 32 MiB\)"
	fault_ctl "$M" "eio 0+16M"
	start 120 40 -- --tui -D -E -i 0.02 "$FD"
	check "-E: errors in the header" wait_for "running, errors: [1-9][0-9]* failed" 10
	check "-E: EIO request lines" \
		has "0 B <<< $FD $FDESC: request=[0-9]+ time=[0-9.]+ [nmu]?s \(EIO\)"
	check "-E: x marks under the graph" has "^ {7}│ *[-!x ]*x"
	check "-E: failed count" has "failed [1-9][0-9]*"
	cap_e
	check "-E: failures in red" grep -Eq $'\e\\[([0-9]+;)*31m' "$PANE"
	TM send-keys -t t q
	check "-E: exit 3" wait_for "^EXIT=3" 10
	check "-E: summary counts the failures" has "^[1-9][0-9]* failed, generated"

	fault_ctl "$M" "eio 0+32M"
	start 120 40 -- --tui -D -i 0.02 "$FD"
	check "fatal EIO: shown on the screen" wait_for "failed: request failed: EIO" 10
	TM send-keys -t t q
	check "fatal EIO: exit 3" wait_for "^EXIT=3" 10
	check "fatal EIO: the message after the screen" \
		grep -q "^ioprobe: request failed: EIO" "$ERR"

	fault_ctl "$M" "eio none; slow 5 20"
	start 120 40 -- --tui -D -i 0.05 "$FD"
	check "slow: ! marks under the graph" wait_for "^ {7}│ *[-! ]*!" 10
	check "slow: (slow) request lines" has "request=[0-9]+ time=[0-9.]+ ms \(slow\)"
	cap_e
	check "slow: in yellow" grep -Eq $'\e\\[([0-9]+;)*33m' "$PANE"
	check "hang: running" has "running *$"
	fault_ctl "$M" "hang 1"
	check "hang: request in flight shown" wait_for "request in flight for [0-9.]+ s" 10
	check "hang: the screen keeps updating" elapsed_tick
	TM send-keys -t t q
	check "hang: after q, says what it waits for" \
		wait_lines "$ERR" "^ioprobe: waiting for the request in flight" 1 10
	check "hang: the screen is already given back" \
		test "$(TM display -p -t t '#{alternate_on}')" = 0
	check "hang: gives the request up, exit 3, without a release" wait_for "^EXIT=3" 10
	check "hang: says the request did not complete" \
		grep -Eq "^ioprobe: 1 request in flight \(hung [0-9.]+ s\) at the stop" "$ERR"
	check "hang: the request still hangs in the server" [ "$(fault_get "$M" hung_now)" = 1 ]
	fault_ctl "$M" "hang 0"
	check "hang: terminal restored" terminal_restored

	# SIGTERM on a hung request, each queueing engine at depth 1 and 64, and the overview
	# of two targets of which one hangs: the view ends within 1 s, exit 3, terminal restored
	for spec in "-U -Q 1|$FD" "-U -Q 64|$FD" "-A -Q 64|$FD" "-Q 1|$FD $L"; do
		IFS='|' read -r eargs targets <<<"$spec"
		fault_ctl "$M" "hang 0"
		# shellcheck disable=SC2086
		start 120 40 -- --tui -D $eargs -i 0.05 $targets
		check "hang [$eargs $targets]: running" wait_for "request=3 |running|^ioprobe: [0-9]+ targets" 10
		fault_ctl "$M" "hang 1"
		wait_fault "$M" hung_now 1 5
		sleep 0.3
		pid=$(ioprobe_pid)
		wait_caught "$pid" 15
		t0=$(now_ms)
		kill -TERM "$pid"
		check "hang [$eargs $targets]: SIGTERM: exit 3" wait_for "^EXIT=3" 10
		dt=$(($(now_ms) - t0))
		check "hang [$eargs $targets]: within 1 s (${dt} ms; captures every 20 ms)" \
			test "$dt" -le 1200
		check "hang [$eargs $targets]: the hung requests said" \
			grep -Eq "request(s)? in flight \(hung [0-9.]+ s\) at the stop" "$ERR"
		check "hang [$eargs $targets]: terminal restored" terminal_restored
	done
	fault_ctl "$M" "hang 0"
elif [ "${IOPROBE_TEST_STRICT:-0}" = 1 ]; then
	fail "faults: needs /dev/fuse and IOPROBE_FAULTDISK (IOPROBE_TEST_STRICT=1)"
else
	echo "SKIP - faults: needs /dev/fuse and IOPROBE_FAULTDISK"
fi

finish
