#!/bin/bash
# --sweep: the saturation method, stepped. On a serial 7 ms disk (a loop device over
# the FUSE fault disk), auto finds the knee within 10 % of the capacity an unpaced run
# measures; a list runs exactly its steps; -J is one JSON object; a read sweep never
# writes; SIGINT mid-sweep prints the table so far; bad lists are refused (the sweep in the
# view: t_tui_multi).
. "$(dirname "$0")/lib.sh"
require_fuse
require_loop
require_cmd python3

L=$(make_fault_disk "$T_TMP/fd" 64M --latency 7ms -s) || skip "cannot mount the fault disk"

## the capacity: an unpaced run, one request at a time
probe -D -WWW -C -i 0 -w 3 -q -B "$L"
CAP=$(awk '{ printf "%.1f", $9 * 1e9 / $10 }' "$OUT")
echo "# capacity (unpaced, 3 s): $CAP requests/s"
check "unpaced run measured a capacity" python3 -c "import sys; sys.exit(0 if 50 < $CAP < 200 else 1)"

## auto: the knee within 10 % of the capacity
probe --sweep -w 1.5 -D -WWW -C "$L"
cat "$OUT" | sed 's/^/# /'
check "auto sweep: exit 0, a header, rows and a knee line" \
	eval 'rc_is 0 && out_has "^size +asked/s" && out_has "^keeps up to ~[0-9.]+/s .* at 4 KiB; beyond it: falls short"'
KNEE=$(sed -n 's/^keeps up to ~\([0-9.]*\)\/s.*/\1/p' "$OUT")
check "auto sweep: knee $KNEE/s within 10 % of the capacity $CAP/s" \
	python3 -c "import sys; sys.exit(0 if abs($KNEE - $CAP) <= 0.10 * $CAP else 1)"
check "auto sweep: doubled from 8/s" eval 'out_has "^4 KiB +8\\.0 " && out_has "^4 KiB +16 " && out_has "^4 KiB +32 "'
check "auto sweep: steps above capacity fall short (device saturated)" \
	out_has "falls short: device saturated"

## a list: exactly those steps, in order
probe --sweep=20,200,40 -w 1 -D -WWW -C "$L"
check "list sweep: exactly 3 rows: 20, 200, 40" \
	eval '[ "$(awk "NR > 1 && /^4 KiB/ { print \$3 }" "$OUT" | tr "\n" " ")" = "20 200 40 " ]'
check "list sweep: 20/s keeps up, 200/s falls short" \
	eval 'grep -Eq "^4 KiB +20 .* keeps up" "$OUT" && grep -Eq "^4 KiB +200 .* falls short" "$OUT"'

## -J: one object with the rows and the knee
probe --sweep=20,200 -w 1 -D -WWW -C -J "$L"
check "-J sweep: valid JSON, 2 rows, knee at 20/s" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [r["asked"] for r in d["sweep"]] == [20, 200], d
assert d["sweep"][0]["kept_up"] and not d["sweep"][1]["kept_up"]
assert d["knee"]["rate"] == 20 and d["knee"]["size"] == 4096
assert d["knee"]["line"].startswith("keeps up to ~20/s")' "$OUT"

## a read sweep never writes
SUM=$(sha "$L")
probe --sweep=50 -w 1 -D "$L"
check "read sweep: exit 0, the device unchanged" eval 'rc_is 0 && [ "$(sha "$L")" = "$SUM" ]'
probe --sweep=50 -w 1 -D -W "$L"
check "sweep with -W on a device: think twice (exit 2)" \
	eval 'rc_is 2 && err_has "think twice"'

## SIGINT mid-sweep: the table so far
# (not under timeout(1): it forwards a signal to the child and again to its process group)
"$IOPROBE" --sweep=20,40,80,160 -w 1.5 -D -WWW -C "$L" >"$OUT" 2>"$ERR" &
PID=$!
wait_lines "$OUT" "^4 KiB +40 " 1 20
kill -INT "$PID"
wait "$PID"
RC=$?
check "SIGINT mid-sweep: exit 0" rc_is 0
check "SIGINT mid-sweep: the finished steps and a knee line" \
	eval 'out_has "^4 KiB +20 " && out_has "^4 KiB +40 " && ! out_has "^4 KiB +160 " && out_has "^keeps up "'

## several targets: each swept in turn, in the order given; which one is slow shows
F=$(make_loop 64M) || fail "make a loop device"
probe --sweep=20,200 -w 1 -D -WWW -C "$L" "$F"
cat "$OUT" | sed 's/^/# /'
check "two targets: exit 0, a title, a table and a knee for each, in order" \
	eval 'rc_is 0 && [ "$(grep -c "^--- .* sweep ---$" "$OUT")" = 2 ] &&
	      [ "$(sed -n "s/^--- \(.*\) sweep ---$/\1/p" "$OUT" | tr "\n" " ")" = "$L $F " ] &&
	      [ "$(grep -Ec "^size +asked/s" "$OUT")" = 2 ] && [ "$(grep -c "^keeps up" "$OUT")" = 2 ]'
check "two targets: the 7 ms disk falls short at 200/s, the fast one keeps up" \
	eval 'awk "/^--- /{ t = \$2 } /^4 KiB +200 /{ print t, (/keeps up/ ? \"up\" : \"short\") }" "$OUT" |
	      tr "\n" " " | grep -qx "$L short $F up "'
probe --sweep=20 -w 1 -D -WWW -C -J "$L" "$T_TMP/none" "$F"
check "two targets and a missing one, -J: exit 2, an array of the two sweeps" \
	eval 'rc_is 2 && err_has "^ioprobe: stat \"$T_TMP/none\" failed" && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert [x[\"target\"] for x in d] == sys.argv[2:], d
assert all([r[\"asked\"] for r in x[\"sweep\"]] == [20] for x in d), d" "$OUT" "$L" "$F"'
probe -X --sweep=10 -w 1 "$L" "$F"
check "--sweep over several targets in the view: exit 1" \
	eval 'rc_is 1 && err_has "^ioprobe: --sweep over several targets runs without the view: drop -X$"'

## refusals
probe --sweep=10,,20 "$L"
check "--sweep=10,,20: exit 1" eval 'rc_is 1 && err_has "^ioprobe: --sweep: bad rate list"'
probe --sweep=0 "$L"
check "--sweep=0: exit 1" eval 'rc_is 1 && err_has "above 0"'

finish
