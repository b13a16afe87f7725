#!/bin/bash
# Signals (INT, TERM, HUP print the summary and exit 0; a second one exits 4),
# closed pipes, /dev/full, a closed stdout, and line-by-line output into a pipe.
. "$(dirname "$0")/lib.sh"

D=$T_TMP/dir
mkdir "$D"

# start_bg ARGS...: ioprobe in the background, stdout in $OUT, stderr in $ERR, pid in $BG.
start_bg() {
	: >"$OUT" # empty now, or wait_lines could see the previous run's lines
	: >"$ERR"
	"$IOPROBE" "$@" >"$OUT" 2>"$ERR" &
	BG=$!
}
# finish_bg [SECONDS]: wait for the background ioprobe (killing it after SECONDS); status in $RC.
finish_bg() {
	if ! wait_exit "$BG" "${1:-10}"; then
		kill -KILL "$BG" 2>/dev/null
	fi
	wait "$BG"
	RC=$?
	BG=
}

## one signal: summary, exit 0
for sig in INT TERM HUP; do
	start_bg -c 100 -i 0.2 "$D"
	if ! wait_lines "$OUT" 'request=2 ' 1 10; then
		fail "SIG$sig: the 2nd request line never appeared"
		stop_bg
		continue
	fi
	t0=$(now_ms)
	kill -s "$sig" "$BG"
	finish_bg 10
	took=$(($(now_ms) - t0))
	check "SIG$sig: exit 0" rc_is 0
	check "SIG$sig: ends within 1 s of the signal (${took} ms)" test "$took" -lt 1000
	check "SIG$sig: summary printed" out_has "^--- $D \(.*\) ioprobe statistics ---$"
	check "SIG$sig: summary counts what ran" out_has "^generated [0-9]+ requests in [0-9.]+ (ms|s), "
	check "SIG$sig: min/avg/max line" out_has "^min/avg/max/mdev = "
	check "SIG$sig: stderr empty" err_empty
	check "SIG$sig: nothing left in the directory" test -z "$(ls -A "$D")"
done

## one signal with -J: the array is closed
for sig in INT TERM; do
	start_bg -J -c 100 -i 0.2 "$D"
	if wait_lines "$OUT" '"request": 2,' 1 10; then
		kill -s "$sig" "$BG"
		finish_bg 10
		check "-J SIG$sig: exit 0" rc_is 0
		check "-J SIG$sig: valid JSON" json_valid
	else
		fail "-J SIG$sig: the 2nd request never appeared"
		stop_bg
	fi
done

## -B: the raw total after SIGINT
start_bg -B -c 100 -i 0.1 "$D"
if wait_caught "$BG" 2 10; then
	sleep 0.35
	kill -INT "$BG"
	finish_bg 10
	check "-B SIGINT: exit 0" rc_is 0
	check "-B SIGINT: one raw line" test -n "$(grep -E '^[0-9]+( [0-9]+){9}$' "$OUT")" -a "$(wc -l <"$OUT")" = 1
else
	fail "-B SIGINT: no handler installed"
	stop_bg
fi

## a second signal during a request: exit 4
start_bg --engine=null:2s -c 5 -i 0 "$D"
if wait_caught "$BG" 2 10; then
	sleep 0.1 # inside the first (2 s) request now
	t0=$(now_ms)
	kill -INT "$BG"
	sleep 0.2 # let the first one be handled: two pending SIGINTs would merge into one
	kill -INT "$BG"
	finish_bg 10
	took=$(($(now_ms) - t0))
	check "second SIGINT: exit 4" rc_is 4
	check "second SIGINT: ends at once, not after the 2 s request (${took} ms)" test "$took" -lt 1500
else
	fail "second SIGINT: no handler installed"
	stop_bg
fi
start_bg --engine=null:2s -c 5 -i 0 "$D"
if wait_caught "$BG" 15 10; then
	sleep 0.1
	kill -TERM "$BG"
	sleep 0.2
	kill -INT "$BG"
	finish_bg 10
	check "SIGTERM then SIGINT: exit 4" rc_is 4
else
	fail "SIGTERM then SIGINT: no handler installed"
	stop_bg
fi

## a closed pipe: head -1
t0=$(now_ms)
timeout -k 5 60 "$IOPROBE" -c 1000 -i 0.01 "$D" 2>"$ERR" | head -1 >"$OUT"
st=("${PIPESTATUS[@]}")
took=$(($(now_ms) - t0))
RC=${st[0]}
check "| head -1: ioprobe exits 0 (PIPESTATUS ${st[*]})" rc_is 0
check "| head -1: ends promptly, not after the 10 s run (${took} ms)" test "$took" -lt 5000
check "| head -1: nothing on stderr" err_empty
check "| head -1: head got request 1" out_has "request=1 "
timeout -k 5 60 "$IOPROBE" -c 100 -i 0.01 "$D" 2>"$ERR" | head -1 >/dev/null
st=("${PIPESTATUS[@]}")
RC=${st[0]}
check "-c 100 -i 0.01 | head -1: exit 0, stderr empty" test "$RC" = 0 -a ! -s "$ERR"
timeout -k 5 60 "$IOPROBE" -J -c 1000 -i 0.01 "$D" 2>"$ERR" | head -c 10 >/dev/null
st=("${PIPESTATUS[@]}")
RC=${st[0]}
check "-J | head -c 10: exit 0, stderr empty" test "$RC" = 0 -a ! -s "$ERR"
check "no temp file left after the closed pipes" test -z "$(ls -A "$D")"

## /dev/full
for args in "-c 2 -i 0 $D" "-q -c 2 -i 0 $D" "-B -c 2 -i 0 $D" "-J -c 2 -i 0 $D" "-h" "-v"; do
	# shellcheck disable=SC2086
	timeout -k 5 60 "$IOPROBE" $args >/dev/full 2>"$ERR"
	RC=$?
	check ">/dev/full ($args): exit 3" rc_is 3
	check ">/dev/full ($args): write error message" \
		test "$(head -1 "$ERR")" = "ioprobe: write error on standard output: No space left on device"
done
check "no temp file left after /dev/full" test -z "$(ls -A "$D")"

## stdout closed: the run completes, nothing goes into the target
timeout -k 5 60 "$IOPROBE" -k -c 3 -i 0 "$D" >&- 2>"$ERR"
RC=$?
check "stdout closed: exit 0" rc_is 0
check "stdout closed: stderr empty" err_empty
check "stdout closed: ioprobe.tmp kept (-k)" test -f "$D/ioprobe.tmp"
check "stdout closed: no report in the temp file" \
	test "$(grep -ac -e 'requests completed' -e 'request=' -e 'ioprobe statistics' "$D/ioprobe.tmp")" = 0
check "stdout closed: the temp file is still exactly the working set" \
	test "$(stat -c %s "$D/ioprobe.tmp")" = 1048576
F=$T_TMP/file
head -c 65536 /dev/urandom >"$F"
sum=$(sha "$F")
timeout -k 5 60 "$IOPROBE" -c 3 -i 0 "$F" >&- 2>&-
RC=$?
check "stdout and stderr closed, file target: exit 0" rc_is 0
check "stdout and stderr closed: the file is unchanged" test "$(sha "$F")" = "$sum"
rm -f "$D/ioprobe.tmp"

## output reaches a pipe line by line
t0=$(now_ms)
timeout -k 5 60 "$IOPROBE" -p 1 -q -i 0.3 -c 5 "$D" 2>"$ERR" |
	{
		IFS= read -r -t 2 first
		echo "$(now_ms) $first"
		cat >/dev/null
	} >"$OUT"
t1=$(now_ms)
arrived=$(($(cut -d' ' -f1 "$OUT") - t0))
RC=0
check "-p 1 -q | pipe: the first raw line is complete" test -n "$(cut -d' ' -f2- "$OUT" | grep -E '^[0-9]+( [0-9]+){9}$')"
check "-p 1 -q | pipe: the run takes about 1.2 s ($((t1 - t0)) ms)" test $((t1 - t0)) -ge 1150
check "-p 1 -q | pipe: the first line arrives after ~0.3 s, well before the end (${arrived} ms)" \
	test "$arrived" -lt 900
check "-p 1 -q | pipe: stderr empty" err_empty
t0=$(now_ms)
timeout -k 5 60 "$IOPROBE" -i 0.3 -c 5 "$D" 2>"$ERR" |
	{
		IFS= read -r -t 2 first
		echo "$(now_ms) $first"
		cat >/dev/null
	} >"$OUT"
arrived=$(($(cut -d' ' -f1 "$OUT") - t0))
check "request lines | pipe: request 1 arrives at once (${arrived} ms)" test "$arrived" -lt 300
check "request lines | pipe: it is request 1" out_has " 4 KiB <<< .*request=1 "

finish
