#!/bin/bash
# Engines (sync, libaio, io_uring, null) on a file and a loop device — read, write, -D, -N —
# with the same output shapes; the kernel refusing an engine; --json-lines; --raw-percentiles;
# the pacer's skipped-slot and lateness reporting.
. "$(dirname "$0")/lib.sh"

require_loop
require_cmd python3

F=$T_TMP/file
head -c 8M /dev/urandom >"$F"
L=$(make_loop 64M)


ENGINES="sync libaio io_uring"
for target in "$F" "$L"; do
	for mode in "" "-D" "-WWW" "-DWWW" "-N -C" "-N -D"; do
		ref=
		for e in $ENGINES; do
			# shellcheck disable=SC2086
			probe --engine=$e $mode -c 4 -i 0 "$target"
			what="$e ${mode:-read} on $(basename "$target")"
			check "$what: exit 0" rc_is 0
			check "$what: 4 request lines" test "$(grep -c 'request=' "$OUT")" = 4
			if [[ $mode == *W* ]]; then
				check "$what: writes (>>>)" out_has '>>> '
			elif [[ $mode == -N* ]]; then
				# would block (not cached) is EAGAIN, shown and counted nowhere
				check "$what: reads or EAGAIN" out_has '(<<< .*request=|\(EAGAIN\)$)'
			else
				check "$what: reads (<<<)" out_has '<<< '
			fi
			if [[ $mode == -N* ]]; then
				: # EAGAIN or not depends on the page cache: shapes may differ
			elif [ -z "$ref" ]; then
				ref=$T_TMP/shape.ref
				fold_shape "$OUT" >"$ref"
			else
				check "$what: same shape as sync" diff -q "$ref" <(fold_shape "$OUT")
			fi
		done
	done
done

# -H: polled completion. A loop device cannot poll: io_uring's IOPOLL ring says so clearly;
# sync and libaio pass RWF_HIPRI, which such a device ignores.
probe -U -H -D -c 2 -i 0 "$L"
check "-U -H on a loop device: exit 3" rc_is 3
check "-U -H: says polled I/O is not supported" err_has 'EOPNOTSUPP.*polled I/O.*drop -H'
for e in sync libaio; do
	probe --engine=$e -H -D -c 2 -i 0 "$L"
	check "--engine=$e -H on a loop device: runs" rc_is 0
done

# -A and -U are the libaio and io_uring engines; the last engine option wins.
probe -A -c 2 -i 0 -J "$F"
check "-A runs" rc_is 0
probe -U -c 2 -i 0 -J "$F"
check "-U runs" rc_is 0
probe -U --engine=sync -c 2 -i 0 "$F"
check "--engine after -U wins" rc_is 0

# The kernel refusing io_uring: a clear message naming the engine, exit 2, no fallback.
if [ -w /proc/sys/kernel/io_uring_disabled ]; then
	old=$(cat /proc/sys/kernel/io_uring_disabled)
	echo 2 >/proc/sys/kernel/io_uring_disabled
	probe -U -c 1 "$F"
	echo "$old" >/proc/sys/kernel/io_uring_disabled
	check "io_uring refused by the kernel: exit 2" rc_is 2
	check "io_uring refused: names the engine" err_has '^ioprobe: failed to start the io_uring engine: '
	check "io_uring refused: nothing on stdout" out_empty
else
	skip "needs /proc/sys/kernel/io_uring_disabled to test a refused engine"
fi
probe --engine=nosuch -c 1 "$F"
check "unknown engine: exit 1" rc_is 1
check "unknown engine: message" err_has '^ioprobe: unknown engine "nosuch"'
probe --engine=null:abc -c 1 "$F"
check "bad null latency: exit 2" rc_is 2
check "bad null latency: message" err_has '^ioprobe: failed to start the null engine'

# The null engine's fixed latency is what the statistics report.
# The fastest request shows the engine's own accuracy; the average may carry
# the scheduler's noise on a busy machine, which only ever adds time.
probe --engine=null:2ms -c 11 -i 0 -B "$F"
min=$(awk '{ print $5 }' "$OUT")
avg=$(awk '{ print $6 }' "$OUT")
check "null:2ms minimum within [2.0, 2.5] ms (got $min ns)" \
	test "${min:-0}" -ge 2000000 -a "${min:-0}" -le 2500000
check "null:2ms average within [2.0, 3.0] ms (got $avg ns)" \
	test "${avg:-0}" -ge 2000000 -a "${avg:-0}" -le 3000000

# io_uring polls for a completion before it sleeps while the waits are short:
# a loop device over a sparse file answers in microseconds, so nearly every
# request completes without a context switch (sleeping, each one costs one).
NVCSW=$(voluntary_switches "$IOPROBE" -U -Q 1 -i 0 -c 4000 -q -D -C "$L")
check "io_uring on a fast loop device: polls (${NVCSW} context switches for 4000 requests)" \
	test "${NVCSW:-4000}" -lt 1000

# --json-lines: one object per line, request/period/total, each parses alone.
probe --json-lines -p 2 -c 5 -i 0 "$F"
check "json-lines exit 0" rc_is 0
jl_ok() {
	python3 - "$OUT" <<'PY'
import json, sys
types = [json.loads(line)["type"] for line in open(sys.argv[1])]
assert types.count("request") == 5, types
assert types.count("period") == 2, types
assert types[-1] == "total", types
PY
}
check "json-lines: 5 requests, 2 periods, 1 total, each line valid JSON" jl_ok
check "json-lines: no array brackets" out_lacks '^\['

# --raw-percentiles: 14 integer fields, ordered p50 <= p90 <= p99 <= p99.9 within [min, max].
probe --raw-percentiles -B -c 50 -i 0 "$F"
rp_ok() {
	awk 'NF != 14 { exit 1 }
	     { for (i = 1; i <= 14; i++) if ($i !~ /^[0-9]+$/) exit 1 }
	     !($11 <= $12 && $12 <= $13 && $13 <= $14 && $5 <= $11 && $14 <= $7) { exit 1 }' "$OUT"
}
check "raw-percentiles: 14 ordered integer fields" rp_ok
probe -B -c 50 -i 0 "$F"
check "without it: exactly 10 fields" awk 'NF != 10 { exit 1 }' "$OUT"

# Skipped slots: requests of 30 ms at -i 10ms miss slots; the summary and JSON count them.
probe --engine=null:30ms -i 10ms -c 6 "$F"
check "skipped slots shown in the summary" out_has '^[0-9]+ skipped, generated 6 requests'
probe --engine=null:30ms -i 10ms -c 6 -J "$F"
sk_ok() {
	python3 - "$OUT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d[-1]["load"]["skipped"] >= 4, d[-1]["load"]
PY
}
check "load.skipped counts them in JSON" sk_ok

# A request in flight for 5 s gets a warning on stderr (from the watchdog process), and the
# slots after the last request are not counted as skipped.
probe --engine=null:6s -i 1s -c 1 "$F"
check "hung 6 s: exit 0" rc_is 0
check "hung 6 s: 'request in flight for 5.0 s' on stderr" err_has '^ioprobe: request in flight for 5\.[0-9] s$'
check "hung 6 s: no skipped slots after the last request" out_lacks 'skipped'
check "no watchdog process left behind" test -z "$(pgrep -f "^$IOPROBE --engine=null:6s")"

# io.start and io.lateness: starts follow the schedule (-i 20ms: start k near k*20 ms).
probe -J -C -i 20ms -c 6 "$F"
st_ok() {
	python3 - "$OUT" <<'PY'
import json, sys
io = [o["io"] for o in json.load(open(sys.argv[1])) if "io" in o]
assert len(io) == 6
for k, r in enumerate(io):
    assert abs(r["start"] - k * 20e6) < 5e6, (k, r["start"])
    assert r["lateness"] >= 0
PY
}
check "io.start follows the 20 ms schedule" st_ok

finish
