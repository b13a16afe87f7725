#!/bin/bash
# --iostat: the device rows ioprobe prints agree with a real `iostat -dx 1` run on the same
# loop device at the same time, column by column; header and JSON forms; bad device names.
. "$(dirname "$0")/lib.sh"

require_loop
require_cmd iostat
require_cmd python3

L=$(make_loop 256M)
N=$(basename "$L")

# Compare each column's median over the aligned intervals (iostat's first report is since boot).
compare() {
	python3 - "$OUT" "$T_TMP/iostat.txt" "$N" <<'PY'
import statistics, sys
ours_path, theirs_path, dev = sys.argv[1:]
def rows(path):
    return [list(map(float, l.split()[1:])) for l in open(path) if l.split()[:1] == [dev]]
ours, theirs = rows(ours_path), rows(theirs_path)[1:]
n = min(len(ours), len(theirs))
cols = open(theirs_path).read().split("Device", 1)[1].split("\n", 1)[0].split()
bad = 0
for i, name in enumerate(cols):
    a = statistics.median(r[i] for r in ours[:n])
    b = statistics.median(r[i] for r in theirs[:n])
    # %util comes from io_ticks, which counts whole jiffies (10 ms at HZ=100): two samplers a
    # fraction of a second apart can see one jiffy more or less in a 1 s interval (1 point).
    tol = 1.0 if name == "%util" else 0.0101
    rel = 0.02
    # the awaits are means over the requests each sampler's interval holds: two samplers a
    # fraction of a second apart hold different requests, and a sub-millisecond mean moves
    # by hundredths of a ms between such windows (r_await 0.37 against 0.40 ms under CI load)
    if name.endswith("await"):
        rel, tol = 0.10, 0.05
    # aqu-sz is the awaits times the rates (time in queue over the interval): as near as they
    if name == "aqu-sz":
        rel, tol = 0.10, 0.02
    ok = abs(a - b) <= max(rel * abs(b), tol)
    print(f"{'ok  ' if ok else 'BAD '} {name:9} ioprobe {a:10.2f}  iostat {b:10.2f}")
    bad += not ok
print(f"{n} intervals compared")
sys.exit(1 if bad or n < 5 else 0)
PY
}
# The numbers are what was asked: 100 reads of 4 KiB and 200 writes of 64 KiB a second.
near() { python3 -c "import sys; a,b=map(float,sys.argv[1:]); sys.exit(abs(a-b) > 0.03*b)" "$@"; }
med() { awk -v n="$N" -v c="$1" '$1 == n { print $c }' "$OUT" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Steady load: a paced O_DIRECT writer (64 KiB at 200/s) beside the measured probe (100/s).
# Paced, so every one-second interval sees the same counts whichever instant it starts at.
# Two samplers on a machine busy with other tests: a run whose intervals a stall made uneven
# is measured again (attempts), the misses shown.
against_iostat() {
	"$IOPROBE" -DWWW -C -r 200 -s 64k -w 10 -q "$L" >/dev/null 2>&1 &
	LOAD=$!
	sleep 0.5
	iostat -dx 1 8 "$N" >"$T_TMP/iostat.txt" &
	IOSTAT=$!
	probe --iostat -D -r 100 -w 7.5 -q "$L"
	wait "$IOSTAT"
	wait "$LOAD"

	check "probe exit 0" rc_is 0
	check "stderr empty" err_empty
	check "header before each block" out_has "^Device +r/s +rkB/s +rrqm/s +%rrqm +r_await +rareq-sz +w/s +wkB/s +wrqm/s +%wrqm +w_await +wareq-sz +d/s +dkB/s +drqm/s +%drqm +d_await +dareq-sz +f/s +f_await +aqu-sz +%util$"
	check "header layout byte-identical to iostat's" \
		test "$(grep -m1 '^Device' "$OUT")" = "$(grep -m1 '^Device' "$T_TMP/iostat.txt")"
	check "at least 6 rows for $N" test "$(grep -c "^$N " "$OUT")" -ge 6
	check "as many headers as blocks" test "$(grep -c '^Device' "$OUT")" = "$(grep -c "^$N " "$OUT")"
	check "rows have 23 fields" awk -v n="$N" '$1 == n && NF != 23 { exit 1 }' "$OUT"

	check "every column agrees with iostat within 2 % (or 0.01; %util one jiffy; the awaits 10 % or 0.05 ms, aqu-sz 10 % or 0.02)" compare
	compare | sed 's/^/    /'

	check "r/s is the probe's rate (100)" near "$(med 2)" 100
	check "w/s is the load's rate (200)" near "$(med 8)" 200
	check "wareq-sz is 64 kB" near "$(med 13)" 64
}
attempts 2 against_iostat

# JSON: iostat objects with sysstat's keys, inside a valid array.
probe --iostat -J -q -D -r 50 -w 2.5 "$L"
check "JSON run exit 0" rc_is 0
check "JSON valid" json_valid
keys_ok() {
	python3 - "$OUT" "$N" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
objs = [o for o in d if "iostat" in o]
assert len(objs) >= 2, objs
keys = ["disk_device", "r/s", "w/s", "d/s", "f/s", "rkB/s", "wkB/s", "dkB/s", "rrqm/s", "wrqm/s",
        "drqm/s", "rrqm", "wrqm", "drqm", "r_await", "w_await", "d_await", "f_await", "rareq-sz",
        "wareq-sz", "dareq-sz", "aqu-sz", "util"]
for o in objs:
    disk = o["iostat"]["disk"]
    assert disk[0]["disk_device"] == sys.argv[2], disk
    assert list(disk[0].keys()) == keys, list(disk[0].keys())
    assert 0.9e9 < o["iostat"]["interval"] < 1.1e9
PY
}
check "JSON iostat objects carry sysstat's keys" keys_ok
probe --iostat --json-lines -q -D -r 50 -w 2.5 "$L"
check "JSON lines: iostat objects typed" test "$(grep -c '"type":"iostat"' "$OUT")" -ge 2

# -P sets the sampling period.
probe --iostat -P 0.5 -q -D -r 50 -w 2.2 "$L"
check "-P 0.5: about four blocks in 2.2 s" test "$(grep -c "^$N " "$OUT")" -ge 3

# The stack of a loop device: the loop, then the disk under its backing file.
probe --iostat -D -r 20 -w 1.5 -q "$L"
BACKDEV=$(basename "$(df --output=source "$T_TMP" | tail -1)")
check "rows for the loop device" out_has "^$N "
if [ -e "/sys/class/block/$BACKDEV" ]; then
	check "and for $BACKDEV, the disk under its backing file" out_has "^$BACKDEV "
fi

# Only device rows reach a closed pipe (-q): the run still ends, quietly, with status 0.
t0=$(date +%s)
timeout 20 "$IOPROBE" --iostat -q -i 0.1 "$L" 2>"$ERR" | head -1 >"$OUT"
RC=${PIPESTATUS[0]}
check "--iostat -q | head -1: exit 0" rc_is 0
check "--iostat -q | head -1: ends within 5 s" test $(($(date +%s) - t0)) -le 5
check "--iostat -q | head -1: nothing on stderr" err_empty

# Bad device names and targets without a block device.
probe --iostat=nosuchdev -c 1 "$L"
check "unknown --iostat device: exit 2" rc_is 2
check "unknown --iostat device: message" err_has '^ioprobe: --iostat: no device "nosuchdev"'
check "unknown --iostat device: stdout empty" out_empty
if [ -d /dev/shm ] && [ "$(stat -c %d /dev/shm)" != "$(stat -c %d /)" ]; then
	probe --iostat -c 1 /dev/shm
	check "tmpfs target: exit 2" rc_is 2
	check "tmpfs target: says no block device" err_has "no block device"
fi

# Pieces from the device's real limits: a loop device takes 128 segments (512 KiB of pages)
# before its 1280 KiB of sectors, so a 4 MiB O_DIRECT read is 8 device requests; the verdict
# expects exactly what the device's limits give and never calls the probe's own requests other
# I/O. The count is computed here from sysfs, as the kernel splits.
# a reused loop device keeps the queue settings another test left: start from the default
echo 1280 >"/sys/block/$N/queue/max_sectors_kb" 2>/dev/null || true
SEGS=$(cat "/sys/block/$N/queue/max_segments")
SECT=$(cat "/sys/block/$N/queue/max_sectors_kb")
LIMIT=$(( SEGS * 4 < SECT ? SEGS * 4 : SECT ))
PIECES=$(( (4096 + LIMIT - 1) / LIMIT ))
RULE=max_sectors_kb
[ $((SEGS * 4)) -lt "$SECT" ] && RULE=max_segments
echo "# $N: max_segments $SEGS, max_sectors_kb $SECT: a 4 MiB read is $PIECES pieces of ${LIMIT} KiB"
# measured: --iostat tries --layers by itself (root here): the pieces the kernel cut, counted.
# sysfs's count holds for a buffer of scattered pages; where the buffer's pages happen to be
# physically contiguous (a transparent huge page: seen under ASan's allocator, 7 pieces) the
# kernel merges segments and cuts fewer, never fewer than max_sectors_kb allows: the measured
# count is what the verdicts must expect, whatever it is
MINP=$(( (4096 + SECT - 1) / SECT ))
probe --iostat -D -s 4m -S 32m -r 5 -w 3.5 -q "$L"
MEAS=$(sed -n 's/^layers avg: .*; \([0-9.]*\) pieces per request; 0 without a device request$/\1/p' "$OUT")
[ -n "$MEAS" ] && [ "$MEAS" != "$PIECES.00" ] &&
	echo "# the kernel cut $MEAS pieces, not sysfs's $PIECES (physically contiguous pages merged)"
check "4 MiB reads, layers measured: the summary counts $MINP to $PIECES pieces a request (${MEAS:-none})" \
	eval '[ -n "$MEAS" ] && awk -v m="$MEAS" -v lo="$MINP" -v hi="$PIECES" "BEGIN { exit !(m >= lo && m <= hi) }"'
check "4 MiB reads, layers measured: every verdict expects the ${MEAS:-?} pieces measured, as the kernel cut them" \
	eval '[ -n "$MEAS" ] && [ "$(grep -Fc " $MEAS pieces (measured) per request" "$OUT")" -ge 2 ] && ! grep -v " $MEAS pieces (measured)" "$OUT" | grep -v "^layers avg: " | grep -q "pieces.* per request"'
check "4 MiB reads, layers measured: every verdict keeps up (the device did what was expected)" \
	eval '[ "$(grep -c "^keeps up: " "$OUT")" -ge 2 ] && ! grep -Eq "^(falls short|other I/O|queue building|no verdict)" "$OUT"'
# computed from sysfs (--no-layers): the rule that cut them named
probe --iostat --no-layers -D -s 4m -S 32m -r 5 -w 3.5 -q "$L"
check "4 MiB reads: every verdict expects $PIECES pieces of $LIMIT KiB, says $RULE cut them (8 with 128 segments)" \
	eval '[ "$(grep -Fc " $PIECES pieces of $LIMIT KiB ($RULE) per request" "$OUT")" -ge 2 ] && ! grep -v " $PIECES pieces" "$OUT" | grep -q "pieces.* per request"'
check "4 MiB reads: rareq-sz ${LIMIT} kB in the device row (up to $SECT where pages merged)" \
	eval 'awk -v n="$N" -v lo="$LIMIT" -v hi="$SECT" "\$1 == n && \$2 > 0 { seen = 1; if (\$7 < lo || \$7 > hi) bad = 1 } END { exit !(seen && !bad) }" "$OUT"'
check "4 MiB reads: no other I/O, no queue building on a device nothing else uses" \
	eval '! grep -Eq "other I/O|queue building" "$OUT"'

# The page cache: -C on a directory of a filesystem on its own loop device. The disk sees
# (almost) nothing of the probe's 70/s; no interval may say "keeps up" (or any state) then.
if command -v mkfs.ext4 >/dev/null 2>&1; then
	PL=$(make_loop 64M)
	mkfs.ext4 -q -F "$PL" >/dev/null 2>&1
	mkdir -p "$T_TMP/pc"
	mount "$PL" "$T_TMP/pc" && register_mount "$T_TMP/pc"
	probe --iostat -C -r 70 -w 4.5 -q "$T_TMP/pc"
	# (with the layers measured, which --iostat tries by itself as root, it is said as
	# measured: "page cache: none of the probe's N measured requests reached the device")
	check "page cache: the intervals say the device saw less, or the page cache measured (no verdict)" \
		eval '[ "$(grep -Ec "^no verdict: (the device saw [0-9.]+/s of the [0-9.]+/s the probe.s requests explain|page cache: none of the probe.s [0-9]+ measured requests reached the device \(measured\))" "$OUT")" -ge 2 ]'
	check "page cache: no interval says keeps up, falls short or other I/O" \
		eval '! grep -Eq "^(keeps up|falls short|other I/O)" "$OUT"'
fi

finish
