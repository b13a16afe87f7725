#!/bin/bash
# The golden matrix: every output mode of a run, for one target, three targets, and two good
# targets with one that fails to prepare, recorded before the front ends are rewritten as one
# run of N targets and replayed on every change. The null engine (--engine=null:1ms -c 20
# -i 10ms) on loop devices keeps the output's shape deterministic; times and numbers are
# folded (fold_shape), device names replaced by A, B, C, the histograms' bucket lists and the
# (slow)/(fast) marks (they follow the timing) folded, and with several targets the lines are
# sorted (their request lines interleave by timing; t_multi checks the order).
# GOLDEN_UPDATE=1 rewrites tests/golden/ instead of comparing.
. "$(dirname "$0")/lib.sh"

require_loop
require_cmd python3

GOLD=$SRCDIR/tests/golden
A=$(make_loop 16M) && B=$(make_loop 16M) && C=$(make_loop 16M) || { fail "make_loop"; finish; }
MISSING=$T_TMP/missing
mkfifo "$T_TMP/stdin.fifo"
exec 7<>"$T_TMP/stdin.fifo" # --influx reads stdin: one that stays open

MODES=(
	"plain|"
	"p5|-p 5"
	"P100ms|-P 100ms"
	"batch|-B"
	"quiet|-q"
	"json|-J"
	"json-lines|--json-lines"
	"ignore-error|-E"
	"influx|--influx"
	"check|--check 500us,5s" # null:1ms is WARNING at once, CRITICAL only past a 5 s stall
	"iostat|--iostat"
	"sweep|--sweep=50,100 -w 1"
)
SETS=(
	"one|$A"
	"three|$A $B $C"
	"bad|$A $MISSING $B"
)

# normalize FILE SORT: device names and the temp dir replaced, numbers folded, runs of spaces
# made one (a table pads each number to its column: a p99 of 10.040 ms under load takes the
# space that 8.750 leaves), sorted if SORT.
normalize() {
	sed -e "s|$A|A|g; s|$B|B|g; s|$C|C|g; s|$T_TMP|T|g" -e 's/loop[0-9]+/loopN/g' "$1" |
		fold_shape /dev/stdin | tr -s ' ' |
		sed -E -e 's/("histogram": ?)\[(\[[N,]*\],?)*\]/\1[H]/g' \
			-e 's/("notice": ?)"(slow|fast|)"/\1"X"/g; s/ \((slow|fast)\)$//' |
		if [ "$2" = 1 ]; then LC_ALL=C sort; else cat; fi
}

for m in "${MODES[@]}"; do
	IFS='|' read -r mname margs <<<"$m"
	for t in "${SETS[@]}"; do
		IFS='|' read -r tname targets <<<"$t"
		case=$mname.$tname
		# shellcheck disable=SC2086
		timeout -k 5 120 "$IOPROBE" --engine=null:1ms -c 20 -i 10ms $margs $targets \
			>"$T_TMP/out" 2>"$T_TMP/err" <&7
		rc=$?
		sortit=0
		[ "$tname" != one ] && sortit=1
		{
			echo "exit $rc"
			echo "--- stdout"
			normalize "$T_TMP/out" "$sortit"
			echo "--- stderr"
			normalize "$T_TMP/err" "$sortit"
		} >"$T_TMP/$case.txt"
		if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
			mkdir -p "$GOLD"
			cp "$T_TMP/$case.txt" "$GOLD/$case.txt"
			pass "$case: recorded"
		elif diff -u "$GOLD/$case.txt" "$T_TMP/$case.txt" >"$T_TMP/$case.diff"; then
			pass "$case: as recorded"
		else
			sed 's/^/#  | /' "$T_TMP/$case.diff" | head -40
			fail "$case: differs from tests/golden/$case.txt"
		fi
	done
done

# One target starts no thread: its probe runs in a child process (a fork, no CLONE_THREAD) that
# it reads on the calling thread, and the watchdog is a process too. Several targets do.
if command -v strace >/dev/null 2>&1; then
	strace -f -e trace=clone,clone3 -o "$T_TMP/strace.1" \
		"$IOPROBE" --engine=null -c 5 -i 0 -q "$A" >/dev/null 2>&1
	check "one target: processes forked, no thread (no CLONE_THREAD)" \
		eval 'grep -q "clone" "$T_TMP/strace.1" && ! grep -q CLONE_THREAD "$T_TMP/strace.1"'
	strace -f -e trace=clone,clone3 -o "$T_TMP/strace.2" \
		"$IOPROBE" --engine=null -c 5 -i 0 -q "$A" "$B" >/dev/null 2>&1
	check "two targets: a thread each reads its probe" \
		test "$(grep -c CLONE_THREAD "$T_TMP/strace.2")" -ge 2
else
	skip "needs strace"
fi

finish
