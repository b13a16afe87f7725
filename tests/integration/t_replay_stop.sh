#!/bin/bash
# A stop signal ends --replay while it reads: the printing replay and the view's (-X, which
# loads the whole recording before it takes the screen) look at the stop flag every line
# and every 64 KiB read, on /dev/zero (no newline ever: once a 100 % CPU loop that ignored
# SIGTERM) and on a big generated recording (3 M request lines, gzip). Without a signal,
# /dev/zero ends by itself: its first line is longer than a recording's line may be.
. "$(dirname "$0")/lib.sh"

require_cmd python3
require_cmd script
D=$T_TMP/dir
mkdir -p "$D"

# a real recording's header, request and end lines, the request repeated 3 M times
"$IOPROBE" --engine=null -i 1ms -c 20 -q --record-requests --record "$T_TMP/small.jsonl" "$D" \
	>/dev/null 2>&1
BIG=$T_TMP/big.jsonl.gz
python3 - "$T_TMP/small.jsonl" "$BIG" <<'EOF'
import gzip, json, sys
lines = open(sys.argv[1]).read().splitlines()
req = [l for l in lines if json.loads(l)["type"] == "request"][-1]
with gzip.open(sys.argv[2], "wb", compresslevel=1) as f:
    f.write((lines[0] + "\n").encode())
    chunk = ((req + "\n") * 100000).encode()
    for _ in range(30):
        f.write(chunk)
    f.write((lines[-1] + "\n").encode())
EOF
check "the generated recording is there" test -s "$BIG"

# stop_replay DELAY ARGS...: ioprobe ARGS (stdin, stdout, stderr on a terminal of its own:
# script), SIGTERM after DELAY s. Sets RC (ioprobe's exit status), DT (ms from the signal
# to the exit); what the terminal showed in $OUT. The command is exec'd: with $SHELL
# /bin/sh (dash) script's child stays the shell, and the signal would end the shell, not ioprobe.
stop_replay() {
	local delay=$1 spid pid t0 tries=300
	shift
	script -qefc "exec $(printf '%q ' "$IOPROBE" "$@")" /dev/null </dev/null >"$OUT" 2>&1 &
	spid=$!
	while [ -z "${pid:-}" ] && [ "$tries" -gt 0 ]; do
		pid=$(pgrep -P "$spid" | head -1)
		tries=$((tries - 1))
		sleep 0.01
	done
	sleep "$delay"
	t0=$(now_ms)
	[ -n "${pid:-}" ] && kill -TERM "$pid" 2>/dev/null
	wait_exit "$spid" 10 || kill -KILL "$pid" 2>/dev/null
	DT=$(($(now_ms) - t0))
	wait "$spid"
	RC=$?
}

stop_replay 0.4 --replay "$BIG" -X
check "--replay BIG -X: SIGTERM while loading ends it within 1 s (${DT} ms)" test "$DT" -le 1000
check "--replay BIG -X: exit 0" rc_is 0
check "--replay BIG -X: says the reading was interrupted" \
	grep -aq 'ioprobe: --replay: .*big.jsonl.gz: interrupted while reading (after line [0-9]*)' "$OUT"

stop_replay 0.4 --replay "$BIG" -q
check "--replay BIG: SIGTERM while printing ends it within 1 s (${DT} ms)" test "$DT" -le 1000
check "--replay BIG: exit 0, says the reading was interrupted" \
	eval 'rc_is 0 && grep -aq "interrupted while reading" "$OUT"'

stop_replay 0.1 --replay /dev/zero -X
check "--replay /dev/zero -X: SIGTERM ends it within 1 s (${DT} ms)" test "$DT" -le 1000
check "--replay /dev/zero -X: interrupted, or refused as a line too long" \
	grep -Eaq 'interrupted while reading|line 1 is longer than 256 MiB' "$OUT"

stop_replay 0.1 --replay /dev/zero
check "--replay /dev/zero: SIGTERM ends it within 1 s (${DT} ms)" test "$DT" -le 1000
check "--replay /dev/zero: interrupted, or refused as a line too long (exit 0 or 2)" \
	eval '{ rc_is 0 || rc_is 2; } && grep -Eaq "interrupted while reading|line 1 is longer than 256 MiB" "$OUT"'

# without a signal: the first line is too long, said with the limit (exit 2), no endless loop
t0=$(now_ms)
timeout -k 1 20 "$IOPROBE" --replay /dev/zero >"$OUT" 2>"$ERR"
RC=$?
DT=$(($(now_ms) - t0))
check "--replay /dev/zero: ends by itself (${DT} ms), exit 2" eval 'rc_is 2 && [ "$DT" -lt 15000 ]'
check "--replay /dev/zero: says the line is longer than the limit" \
	err_has '^ioprobe: --replay: /dev/zero: not an ioprobe recording \(line 1 is longer than 256 MiB, the longest a recording.s line may be\)$'

finish
