#!/bin/bash
# Several targets in one run (issue 16): two loop devices and a third over the
# fault-injecting FUSE disk with 5 ms of added latency. Summaries per target in
# the order given, raw lines ending with the path, JSON by target, --iostat over
# the union of the stacks, exit codes when one target fails (EIO with and without
# -E, a target that does not exist, one that vanishes mid-run), duplicates.
. "$(dirname "$0")/lib.sh"

require_loop
require_fuse

A=$(make_loop 32M) || { fail "make_loop"; finish; }
B=$(make_loop 32M) || { fail "make_loop"; finish; }
M=$T_TMP/slow
C=$(make_fault_disk "$M" 32M --latency 5ms) || { fail "mount faultdisk"; finish; }

# heads: the targets of the summary headers, in order
heads() { sed -n 's/^--- \(.*\) (.*) ioprobe statistics ---$/\1/p' "$OUT" | tr '\n' ' '; }
# p50_ms TARGET: the p50 of TARGET's summary block, in ms (integer)
p50_ms() {
	awk -v t="$1" '$0 ~ "^--- " t " " { f = 1 } f && /^p50/ { split($0, a, " = "); split(a[2], v, " ");
		m = v[2] == "ms" ? 1 : v[2] == "s" ? 1000 : 0.001; if (v[2] == "ns") m = 1e-6
		printf "%d\n", v[1] * m; exit }' "$OUT"
}

## 1. summaries, one per target in the order given; the slow one is plain to see
probe -D -c 6 -i 0.02 "$C" "$A" "$B"
check "cli: exit 0" rc_is 0
check "cli: stderr empty" err_empty
check "cli: three summaries in the order given" [ "$(heads)" = "$C $A $B " ]
for d in "$A" "$B" "$C"; do
	check "cli: 6 request lines for $d" [ "$(grep -Ec "^4 KiB <<< $d \(block device .*\): request=[0-9]+ time=" "$OUT")" = 6 ]
	check "cli: summary of $d counts 5 requests" \
		eval "grep -A1 '^--- $d ' \"\$OUT\" | grep -q '^5 requests completed in '"
done
check "cli: the fault disk's p50 >= 5 ms" [ "$(p50_ms "$C")" -ge 5 ]
check "cli: the loop devices' p50 < 5 ms" eval '[ "$(p50_ms "$A")" -lt 5 ] && [ "$(p50_ms "$B")" -lt 5 ]'
# the request lines interleave as they complete (not one target's block after another's)
line_of() { grep -n "^4 KiB <<< $1 " "$OUT" | "$2" -1 | cut -d: -f1; }
interleave() {
	[ "$(line_of "$A" head)" -lt "$(line_of "$C" tail)" ] && [ "$(line_of "$C" head)" -lt "$(line_of "$A" tail)" ]
}
check "cli: request lines interleave" interleave

## 1b. the schedules are staggered over one interval: with the null engine (no I/O time) the
## request lines cycle through the targets in the order given, each a quarter interval apart
for i in 0 1 2 3; do truncate -s 1M "$T_TMP/n$i"; done
cycles() {
	local want expect
	want=$(sed -n 's/^4 KiB <<< .*\/\(n[0-3]\) (.*/\1/p' "$OUT" | tr -d '\n')
	expect=n0n1n2n3n0n1n2n3n0n1n2n3n0n1n2n3n0n1n2n3
	[ "$want" = "$expect" ] || { echo "order: $want"; return 1; }
}
# (5 ms apart: a thread held back that long by a busy machine swaps two lines; run again)
staggered() {
	probe --engine=null -c 5 -i 20ms "$T_TMP/n0" "$T_TMP/n1" "$T_TMP/n2" "$T_TMP/n3"
	check "cli: staggered schedules: lines cycle n0 n1 n2 n3" cycles
}
attempts 3 staggered

## 2. raw lines: the path is the last field, escaped into one word
SP="$T_TMP/my disk"
truncate -s 1M "$SP"
probe -c 4 -i 0.01 -B "$A" "$SP" "$B"
check "raw -B: exit 0" rc_is 0
check "raw -B: three lines" out_lines 3
check "raw -B: 11 fields each" [ "$(awk '{ print NF }' "$OUT" | sort -u)" = 11 ]
check "raw -B: \$NF names the targets in order" \
	[ "$(awk '{ print $NF }' "$OUT" | tr '\n' ' ')" = "$A ${SP// /\\x20} $B " ]
check "raw -B: fields 1-10 are integers" [ "$(awk '{ $NF = ""; print }' "$OUT" | grep -Evc '^([0-9]+ ){10}$')" = 0 ]
probe -D -c 7 -i 0.01 -p 3 --raw-percentiles -q "$A" "$B"
check "raw -p: two periods per target, 15 fields, the path last" \
	[ "$(awk 'NF == 15 { print $NF }' "$OUT" | sort | uniq -c | awk '{ print $1 }' | tr '\n' ' ')" = "2 2 " ]
check "raw -p -q: no summary" out_lacks "statistics"

## 3. JSON by target
probe -D -c 3 -i 0.01 -J "$A" "$B" "$C"
check "json: exit 0 and valid" eval 'rc_is 0 && json_valid'
check "json: requests and a total for every target" python3 - "$OUT" "$A" "$B" "$C" <<'PY'
import json, sys
objs = json.load(open(sys.argv[1]))
for t in sys.argv[2:]:
    mine = [o for o in objs if o["target"]["path"] == t]
    assert len(mine) == 4, (t, len(mine))
    assert mine[-1]["target"]["fstype"] == "block", mine[-1]
    assert sum(1 for o in mine if "io" in o) == 3
totals = [o["target"]["path"] for o in objs if "io" not in o]
assert totals == sys.argv[2:], totals
PY
probe -D -c 3 -i 0.01 --json-lines "$A" "$C"
check "json-lines: one object per line, each with its target" python3 - "$OUT" "$A" "$C" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 8, len(lines)
paths = [json.loads(l)["target"]["path"] for l in lines]
assert sorted(set(paths)) == sorted(sys.argv[2:]), paths
PY

## 4. --iostat: the union of the stacks, each device once
probe -D -w 2.5 -i 0.1 -q --iostat "$A" "$B" "$C" "$T_TMP"
check "iostat: exit 0" rc_is 0
# the device rows of the first block (the targets' lines after them hold ": ")
first_block() { awk '/^Device/ { n++; next } n == 1 && NF && !/: / { print $1 }' "$OUT"; }
for d in "$A" "$B" "$C"; do
	check "iostat: ${d#/dev/} once in a block" [ "$(first_block | grep -cx "${d#/dev/}")" = 1 ]
done
check "iostat: no device twice" [ -z "$(first_block | sort | uniq -d)" ]
check "iostat: every block starts with its time line (as iostat -t)" \
	eval '[ "$(grep -B1 "^Device" "$OUT" | grep -Ec "^[0-9]{2}/[0-9]{2}/[0-9]{2} [0-9:]{8}$")" = "$(grep -c "^Device" "$OUT")" ]'
block1() { awk '/^Device/ { n++ } n == 1' "$OUT"; }
for d in "$A" "$B" "$C" "$T_TMP"; do
	check "iostat: ${d##*/}'s probe line and verdict in each block, named" \
		eval 'block1 | grep -q "^$d: probe: asked 10/s  got " && block1 | grep -Eq "^$d: (keeps up|falls short|other I/O|queue building|no verdict)"'
done
probe -D -w 2.5 -i 0.1 -q --iostat -J "$A" "$B"
check "iostat -J: one iostat object per target per block, each with its probe and verdict" \
	python3 -c '
import json, sys
objs = [o for o in json.load(open(sys.argv[1])) if "iostat" in o]
paths = [o["target"]["path"] for o in objs]
assert objs and paths.count(sys.argv[2]) == paths.count(sys.argv[3]) >= 1, paths
assert all("probe" in o["iostat"] and "verdict" in o["iostat"] for o in objs)' "$OUT" "$A" "$B"

## 5. exit codes: one target fails
fault_ctl "$M" "eio 0+32M"
probe -D -c 4 -i 0.02 "$A" "$C" "$B"
check "eio: exit 3" rc_is 3
check "eio: the failure names its target" err_has "^ioprobe: $C: request failed: EIO: "
check "eio: the others' summaries" [ "$(heads)" = "$A $C $B " ]
check "eio: the others completed" eval "grep -A1 '^--- $B ' \"\$OUT\" | grep -q '^3 requests completed'"
probe -D -E -c 4 -i 0.02 "$A" "$C" "$B"
check "eio -E: exit 3" rc_is 3
check "eio -E: failed requests counted for the slow one" \
	eval "grep -A2 '^--- $C ' \"\$OUT\" | grep -q '^4 failed, generated 4 requests'"
check "eio -E: stderr empty" err_empty
fault_ctl "$M" "eio none"
probe -D -c 3 -i 0.01 "$A" "$T_TMP/nonexistent" "$B"
check "missing target: exit 2" rc_is 2
check "missing target: said" err_has "^ioprobe: stat \"$T_TMP/nonexistent\" failed: No such file or directory$"
check "missing target: the others ran" [ "$(heads)" = "$A $B " ]
ln -s "$A" "$T_TMP/alias"
probe -c 1 "$A" "$T_TMP/alias"
check "same device under two names: exit 1" rc_is 1
check "same device under two names: said" err_has "^ioprobe: duplicate target: \"$T_TMP/alias\" is \"$A\"$"
check "same device under two names: nothing run" out_empty
# stat prints major and minor in hex without 0x (loop11's minor is "b")
mknod "$T_TMP/node" b "$(printf '%d' "0x$(stat -c '%t' "$A")")" "$(printf '%d' "0x$(stat -c '%T' "$A")")"
probe -c 1 "$A" "$T_TMP/node"
check "same device under a second node (mknod): exit 1, said, nothing run" \
	eval 'rc_is 1 && err_has "^ioprobe: duplicate target: \"$T_TMP/node\" is \"$A\"$" && out_empty'
rm -f "$T_TMP/node"
probe -ca 3 "$A"
check "-ca 3 DEV (3 is no file): exit 1 at once, a hint, nothing run" \
	eval 'rc_is 1 && err_has "^ioprobe: no file, directory or device \"3\" \(right after \"-ca\", which takes no value\); nothing was run$" && out_empty'
probe -c 1 -i 0 -C 3 "$A"
check "-C 3 DEV: the same hint for any option before a plain number" \
	eval 'rc_is 1 && err_has "right after \"-C\", which takes no value"'

probe -X -c 1 "$A" "$B"
check "-X with several targets off a terminal: exit 1, said (the overview: t_tui_multi; --sweep and --fio-job with several: t_sweep, t_fiojob)" \
	eval 'rc_is 1 && err_has "^ioprobe: --tui needs a terminal" && out_empty'

## 6. SIGINT ends every target (summaries, exit 0); a closed pipe ends them all quietly
"$IOPROBE" -i 0.05 "$A" "$B" >"$OUT" 2>"$ERR" &
pid=$!
BG+=("$pid")
wait_lines "$OUT" "<<< $B " 3 10
wait_caught "$pid" 2 5
kill -INT "$pid"
wait_exit "$pid" 5
wait "$pid"
RC=$?
check "sigint: exit 0 within 5 s" rc_is 0
check "sigint: both summaries" [ "$(heads)" = "$A $B " ]
t0=$(now_ms)
timeout -k 5 20 "$IOPROBE" -i 0.01 "$A" "$B" 2>"$ERR" | head -2 >/dev/null
RC=${PIPESTATUS[0]}
check "pipe: exit 0 when the reader goes away" rc_is 0
check "pipe: quickly" [ $(($(now_ms) - t0)) -lt 5000 ]
check "pipe: stderr empty" err_empty

## 6b. a request hung on one target: the warning names that target, not the others
fault_ctl "$M" "latency 0"
( sleep 0.5; fault_ctl "$M" "hang 1"; sleep 6; fault_ctl "$M" "hang 0" ) &
BG+=($!)
probe -D -i 0.1 -w 8 -q "$A" "$C"
wait "${BG[-1]}"
check "hang: exit 0" rc_is 0
check "hang: 'PATH: request in flight for 5.0 s' names the hung target" \
	err_has "^ioprobe: $C: request in flight for 5\.[0-9] s\$"
check "hang: no warning for the other target" eval "! grep -q \"^ioprobe: $A: request in flight\" \"\$ERR\""
check "hang: no watchdog process left behind" test -z "$(pgrep -f "^$IOPROBE -D -i 0.1 -w 8")"

## 7. a target that vanishes mid-run: the others go on, exit 3
timeout -k 5 30 "$IOPROBE" -D -E -i 0.05 -c 40 "$A" "$C" >"$OUT" 2>"$ERR" &
pid=$!
BG+=("$pid")
wait_lines "$OUT" "<<< $C " 3 10
kill -KILL "$(fault_pid "$M")"
wait "$pid"
RC=$?
check "vanish: exit 3" rc_is 3
check "vanish: the other target's 40 requests" [ "$(grep -c "^4 KiB <<< $A " "$OUT")" = 40 ]
check "vanish: both summaries" [ "$(heads)" = "$A $C " ]
check "vanish: failures counted" eval "grep -A2 '^--- $C ' \"\$OUT\" | grep -Eq '[1-9][0-9]* failed'"
# ---- names (issue 25 item 5): NAME=PATH and --name give every output a short name
probe -D -c 3 -i 0.01 fast="$A" "$B"
check "names: the title says NAME: PATH, an unnamed target its path" \
	eval 'grep -q "^--- fast: $A (" "$OUT" && grep -q "^--- $B (" "$OUT"'
check "names: request lines say NAME: PATH" grep -q "^4 KiB <<< fast: $A (" "$OUT"
probe -D -c 4 -i 0.01 -B --name fast,second "$A" "$B"
check "names: raw \$NF is the name" [ "$(awk '{ print $NF }' "$OUT" | tr '\n' ' ')" = "fast second " ]
probe -D -c 3 -i 0.01 -J --name fast "$A" "$B"
check "names: JSON target.name, target.path kept" python3 - "$OUT" "$A" "$B" <<'PY'
import json, sys
objs = json.load(open(sys.argv[1]))
t = {o["target"]["path"]: o["target"].get("name") for o in objs if "target" in o}
sys.exit(not (t.get(sys.argv[2]) == "fast" and t.get(sys.argv[3]) is None))
PY
probe -D -c 3 -i 0.1 -q --prometheus "$T_TMP/names.prom" --name fast "$A"
check "names: Prometheus keeps target and adds name" \
	grep -q "^ioprobe_request_duration_seconds_count{target=\"$A\",name=\"fast\",operation=\"read\"} [0-9]" "$T_TMP/names.prom"
probe -c 1 fast="$A" fast="$B"
check "names: a name twice is refused (exit 1)" \
	eval 'rc_is 1 && err_has "^ioprobe: duplicate target name \"fast\""'

finish
