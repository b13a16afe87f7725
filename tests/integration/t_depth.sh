#!/bin/bash
# -Q N (queue depth, open-loop starts) and response times: refusals and output
# forms on a temporary file with the null engine; on a loop device over the
# FUSE fault disk, depth 8 above capacity fills the device queue (aqu-sz ~ 8,
# checked with a concurrent real `iostat -dx 1`) and a 1 s stall injected
# mid-run gives the analytic response p99 (HdrHistogram's correction) while
# the service p99 does not see it.
. "$(dirname "$0")/lib.sh"


F=$T_TMP/data
head -c 16M /dev/urandom >"$F"

# ---- refusals ---------------------------------------------------------------
probe -c 2 -i 1ms -Q 2 "$F"
check "sync + -Q 2: exit 1" rc_is 1
check "sync + -Q 2: says why and what to use" \
	err_has '^ioprobe: -Q 2: the sync engine keeps one request in flight; use -A'
probe -c 2 -Q 0 --engine=null "$F"
check "-Q 0: exit 1" rc_is 1
check "-Q 0: message" err_has '^ioprobe: -Q: the queue depth must be 1 to 4096'

# ---- output forms (null engine) -----------------------------------------------
probe -c 5 -i 1ms --engine=null "$F"
check "no -Q: no response line (ioping's summary)" out_lacks '^response '
probe -c 5 -i 1ms --engine=null -Q 1 "$F"
check "-Q 1: response line last" \
	test -n "$(tail -1 "$OUT" | grep -E '^response p50/p90/p99/p99.9 = [0-9.]+ [numa]?s( / [0-9.]+ [numa]?s){3}$')"
probe -c 200 -i 0 --engine=null:100us -Q 8 -p 50 --raw-percentiles -q "$F"
# 199 valid requests (the first is warmup): three periods of 50
check "-Q 8 --raw-percentiles: 3 periods of 18 fields" \
	test "$(awk 'NF == 18' "$OUT" | wc -l)" = 3
probe -c 40 -i 1ms --engine=null:3ms -Q 4 "$F"
check "-Q 4: 40 request lines" test "$(grep -c 'request=' "$OUT")" = 40
check "-Q 4: each request number once" \
	test "$(grep -o 'request=[0-9]*' "$OUT" | sort -u | wc -l)" = 40
probe -c 20 -i 1ms --engine=null:2ms -Q 4 -J "$F"
check "-Q 4 -J: valid JSON with io.response and stat.response.percentiles" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
reqs = [o["io"] for o in d if "io" in o]
assert len(reqs) == 20
assert all(r["response"] >= r["time"] and r["response"] >= r["lateness"] for r in reqs)
tot = d[-1]["stat"]["response"]
assert set(tot["percentiles"]) == {"50", "90", "99", "99.9", "99.99"}
assert tot["count"] == 19  # the warmup request is not counted
' "$OUT"
probe -c 20 -i 1ms --engine=null -J "$F"
check "depth 1 -J: io.response too" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert all("response" in o["io"] for o in d if "io" in o)
assert "percentiles" in d[-1]["stat"]["response"]
' "$OUT"
# null:TIME at depth 8 and 2k/s asked: 8 in flight of 2 ms each can do 4k/s, so it keeps up
probe --engine=null:2ms -Q 8 -r 2000 -w 1 -B "$F"
check "null:2ms -Q 8 -r 2k: achieved/asked >= 0.99" \
	awk '{ exit !($9 / ($10 / 1e9) / 2000 >= 0.99) }' "$OUT"

# ---- the other options at depth 8 (libaio) ---------------------------------------
# -k: the temporary file of a directory target is kept and the next run reuses it
KD=$T_TMP/kdir
mkdir "$KD"
probe -A -Q 8 -c 16 -i 0 -q -k "$KD"
check "-Q 8 -k: exit 0, DIR/ioprobe.tmp kept" test "$RC" = 0 -a -f "$KD/ioprobe.tmp"
INO=$(stat -c %i "$KD/ioprobe.tmp" 2>/dev/null)
probe -A -Q 8 -c 16 -i 0 -q -k "$KD"
check "-Q 8 -k again: reuses the same file" test "$RC" = 0 -a "$(stat -c %i "$KD/ioprobe.tmp" 2>/dev/null)" = "$INO"
KSUM=$(md5sum <"$KD/ioprobe.tmp")
probe -A -Q 8 -c 16 -i 0 -q "$KD"
check "-Q 8 without -k: the kept file untouched, its own temp file removed" \
	test "$RC" = 0 -a "$(md5sum <"$KD/ioprobe.tmp")" = "$KSUM" -a "$(ls -A "$KD")" = ioprobe.tmp
# -L: sequential offsets, one request size apart, whatever order they complete in
probe -A -Q 8 -L -c 24 -i 0 -J "$F"
check "-Q 8 -L: offsets 0, 256 KiB, 512 KiB, ... by request number" python3 -c '
import json, sys
io = sorted((o["io"] for o in json.load(open(sys.argv[1])) if "io" in o), key=lambda r: r["request"])
assert len(io) == 24, len(io)
assert [r["offset"] for r in io] == [(i * 262144) % (16 << 20) for i in range(24)], [r["offset"] for r in io]
' "$OUT"
# -G: reads and writes alternate by request number (writes to a file target need -WWW)
cp "$F" "$T_TMP/g"
probe -A -Q 8 -G -WWW -c 16 -i 0 -J "$T_TMP/g"
check "-Q 8 -G -WWW: odd requests write, even ones read" python3 -c '
import json, sys
io = [o["io"] for o in json.load(open(sys.argv[1])) if "io" in o]
assert len(io) == 16
for r in io:
    assert r["operation"] == ("write" if r["request"] % 2 else "read"), r
' "$OUT"
SUM=$(md5sum <"$F")
probe -A -Q 8 -c 32 -i 0 -q "$F"
check "-Q 8 read run: the file unchanged" test "$RC" = 0 -a "$(md5sum <"$F")" = "$SUM"

# ---- the fault disk -------------------------------------------------------------
require_root
require_loop
require_fuse
require_cmd iostat
if ! "$IOPROBE" -U -c 1 -C "$F" >/dev/null 2>&1; then
	skip "io_uring is not allowed here"
fi

# iostat_col DEV COL: the values of column COL of DEV's rows in $T_TMP/iostat, one per line
# (the first report, since boot, dropped).
iostat_col() {
	awk -v d="$(basename "$1")" -v c="$2" '
		/^Device/ { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == d { if (seen++) print $col[c] }' "$T_TMP/iostat"
}
# median of stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

DIR=$T_TMP/fd
DEV=$(make_fault_disk "$DIR" 64M --latency 10ms) || skip "faultdisk did not come up"

# depth 1, then depth 8 at 2k/s asked (capacity ~ 8 / 10 ms = 800/s at most)
iostat -dx "$(basename "$DEV")" 1 >"$T_TMP/iostat" 2>&1 &
BG+=($!)
probe -U -D -Q 8 -r 2000 -w 4 -B "$DEV"
kill "${BG[-1]}" 2>/dev/null
check "depth 8 on the fault disk: exit 0" rc_is 0
AQU=$(iostat_col "$DEV" aqu-sz | median)
AWAIT=$(iostat_col "$DEV" r_await | median)
check "depth 8 above capacity: iostat aqu-sz ~ 8 (median $AQU)" \
	awk -v a="$AQU" 'BEGIN { exit !(a >= 6.5 && a <= 8.5) }'
check "depth 8: iostat r_await ($AWAIT ms) above the 10 ms latency" \
	awk -v a="$AWAIT" 'BEGIN { exit !(a >= 10) }'
cp "$OUT" "$T_TMP/d8"
iostat -dx "$(basename "$DEV")" 1 >"$T_TMP/iostat" 2>&1 &
BG+=($!)
probe -U -D -r 2000 -w 3 -B "$DEV"
kill "${BG[-1]}" 2>/dev/null
AQU1=$(iostat_col "$DEV" aqu-sz | median)
AWAIT1=$(iostat_col "$DEV" r_await | median)
check "depth 1: aqu-sz ~ 1 ($AQU1), below depth 8's ($AQU)" \
	awk -v a="$AQU1" -v b="$AQU" 'BEGIN { exit !(a <= 1.2 && a < b) }'
check "await rises with the depth ($AWAIT1 ms -> $AWAIT ms)" \
	awk -v a="$AWAIT1" -v b="$AWAIT" 'BEGIN { exit !(b > a) }'

# a 1 s stall mid-run at 1 kHz, depth 1: the response p99 is the analytic value
fault_ctl "$DIR" "latency 0"
( sleep 1.5; fault_ctl "$DIR" "hang 1"; sleep 1; fault_ctl "$DIR" "hang 0" ) &
BG+=($!)
probe -U -D -i 1ms -w 4 -J "$DEV"
check "stall run: exit 0, valid JSON" test "$RC" = 0 -a -s "$OUT"
check "response p99 within 1 % of the analytic value, service p99 not" python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
reqs = [o["io"] for o in d if "io" in o]
tot = d[-1]["stat"]
I = 1000000
stalled = max(reqs, key=lambda r: r["time"])
assert stalled["time"] > 0.9e9, stalled
# the analytic distribution: every counted request (warmup excluded) plus, behind
# every request that ended more than the catch-up window max(2 I, 1 ms) after the
# next slot was due at D (the 1 s stall, and any other hiccup of this machine), the
# skipped slots E - D, E - D - I, ... (the man page rule; only the slots due before
# the -w deadline DL, so after a late last request only those)
DL = 4 * 10**9
vals = [r["response"] for r in reqs if r["notice"] != "warmup"]
n = 0
for r in reqs:
    D = r["start"] - r["lateness"] + I
    E = r["start"] + r["time"]
    if r["notice"] != "warmup" and E - D > 2 * I:
        k = (E - D) // I
        vals += [E - D - j * I for j in range(k) if D + j * I < DL]
        if r is stalled:
            n = k
vals.sort()
assert tot["response"]["count"] == len(vals), (tot["response"]["count"], len(vals))
want = vals[math.ceil(0.99 * len(vals)) - 1]
got = tot["response"]["percentiles"]["99"]
svc = tot["percentiles"]["99"]
print("response p99 %d, analytic %d, service p99 %d, skipped %d" % (got, want, svc, n))
assert abs(got - want) <= 0.01 * want, (got, want)
assert abs(svc - want) > 0.01 * want, (svc, want)
' "$OUT"

# --iostat at depth 8: the device's own rows and the verdict see the queue the probe keeps
fault_ctl "$DIR" "latency 10ms"
probe -U -D -Q 8 -r 2000 -w 3.5 --iostat "$DEV"
check "--iostat -Q 8: exit 0" rc_is 0
check "--iostat -Q 8: device rows" out_has "^$(basename "$DEV") "
check "--iostat -Q 8: the probe line" out_has '^probe: asked 2000/s'
check "--iostat -Q 8: the verdict says it falls short" out_has 'falls short'
AQUQ=$(awk -v d="$(basename "$DEV")" '$1 == d { print $(NF - 1) }' "$OUT" | tail -n +2 | median)
check "--iostat -Q 8: its own aqu-sz ~ 8 ($AQUQ)" awk -v a="$AQUQ" 'BEGIN { exit !(a >= 6.5 && a <= 8.5) }'

# -E at depth 8: every failed request is a line and a count, exit 3; without -E it stops
fault_ctl "$DIR" "latency 0"
fault_ctl "$DIR" "eio 0+64M"
probe -U -D -Q 8 -c 16 -i 1ms -E "$DEV"
check "-Q 8 -E on EIO: exit 3" rc_is 3
check "-Q 8 -E on EIO: 16 failed request lines" test "$(grep -c 'EIO\|Input/output error' "$OUT")" -ge 16
probe -U -D -Q 8 -c 16 -i 1ms "$DEV"
check "-Q 8 on EIO without -E: exit 3" rc_is 3
check "-Q 8 on EIO without -E: request failed: EIO" err_has '^ioprobe: request failed: EIO'
fault_ctl "$DIR" "eio none"

# -WWW at depth 8 on the device: only then is it written
SUM=$(md5sum <"$DEV")
probe -U -D -Q 8 -c 32 -i 0 -q "$DEV"
check "-Q 8 read-only on the device: unchanged" test "$RC" = 0 -a "$(md5sum <"$DEV")" = "$SUM"
probe -U -D -Q 8 -W -c 32 -i 0 -q "$DEV"
check "-Q 8 -W on a device without -WWW: refused, unchanged" test "$RC" != 0 -a "$(md5sum <"$DEV")" = "$SUM"
probe -U -D -Q 8 -WWW -c 32 -i 0 -q "$DEV"
check "-Q 8 -WWW on the device: written" test "$RC" = 0 -a "$(md5sum <"$DEV")" != "$SUM"

finish
