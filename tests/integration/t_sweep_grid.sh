#!/bin/bash
# --sweep across sizes and depths (issue 28 item 1) on a serial 7 ms disk (a loop device over
# the FUSE fault disk) whose requests split at max_sectors_kb 256: the grid's computed tps
# (asked x pieces, +1 per flush) matches a concurrent `iostat -dx 1`; with -Q 1,4 the
# device's aqu-sz follows the depth; the best point is within 10 % of the disk's capacity at
# depth 1, the limit keeps aqu-sz <= 4; -J is one object with every row; the --yes guard
# prints the plan and refuses; bad lists are refused. Today's one-size sweep: t_sweep.sh.
. "$(dirname "$0")/lib.sh"
require_fuse
require_loop
require_cmd python3
require_cmd iostat

L=$(make_fault_disk "$T_TMP/fd" 64M --latency 7ms -s) || skip "cannot mount the fault disk"
N=$(basename "$L")
Q=/sys/block/$N/queue
echo 256 >"$Q/max_sectors_kb" || skip "queue/max_sectors_kb is not writable here"
echo "write back" >"$Q/write_cache" || skip "queue/write_cache is not writable here"

# plateau FILE COL VALUE: some iostat interval (not the first, since boot) of the device
# shows VALUE in column COL (2 = r/s, 8 = w/s, 20 = f/s) within 5 % (+0.5).
plateau() {
	awk -v n="$N" -v c="$2" -v v="$3" '$1 == n && seen++ && ($c - v)^2 <= (0.05 * v + 0.5)^2 { ok = 1 }
		END { exit !ok }' "$1"
}
# row_field SIZE DEPTH COL: column COL (numbered as the header's, from 5 on: 7 = tps-calc,
# 8 = pieces, 9 = flush) of the grid's row for SIZE (as printed) at DEPTH.
row_field() { awk -v s="$1" -v d="$2" -v c="$3" '$1" "$2 == s && $3 == d { print $(c + 2) }' "$OUT"; }

## the pieces arithmetic, reads: 25/s of 256 KiB, 512 KiB, 1 MiB = 1, 2, 4 pieces
reads() {
	iostat -dx 1 16 "$N" >"$T_TMP/iostat-r.txt" &
	local io=$!
	probe --sweep=25 -s 256k,512k,1m -w 3.5 -D "$L"
	kill "$io" 2>/dev/null
	wait "$io" 2>/dev/null
	sed 's/^/# /' "$OUT"
	check "reads: exit 0, the plan, the header, 3 rows, the two conclusions" \
		eval 'rc_is 0 && out_has "^plan: 3 sizes x 1 depth = 3 sweeps x 1 rate x 3.50 s a step = 10.5 s$" &&
		      out_has "^size +depth +asked/s +asked-B/s +got/s +tps +tps-calc +pieces +flush +aqu-sz" &&
		      [ "$(grep -Ec "^(256 KiB|512 KiB|1 MiB) " "$OUT")" = 3 ] && out_has "^best: " && out_has "^limit: "'
	check "reads: pieces 1, 2, 4 (max_sectors_kb 256) and tps-calc 25, 50, 100" \
		eval '[ "$(row_field "256 KiB" 1 8) $(row_field "512 KiB" 1 8) $(row_field "1 MiB" 1 8)" = "1 2 4" ] &&
		      [ "$(row_field "256 KiB" 1 7) $(row_field "512 KiB" 1 7) $(row_field "1 MiB" 1 7)" = "25.0 50.0 100.0" ]'
	check "reads: measured tps within 5 % of computed in every row" \
		eval 'awk "/^(256 KiB|512 KiB|1 MiB) / { if ((\$8 - \$9)^2 > (0.05 * \$9 + 0.5)^2) bad = 1 } END { exit bad }" "$OUT"'
	check "reads: iostat shows r/s 25, 50 and 100 (asked x pieces)" \
		eval 'plateau "$T_TMP/iostat-r.txt" 2 25 && plateau "$T_TMP/iostat-r.txt" 2 50 &&
		      plateau "$T_TMP/iostat-r.txt" 2 100'
}
attempts 3 reads

## +1 per flush: 20 writes/s of 256 KiB and 512 KiB, each followed by fdatasync
writes() {
	iostat -dx 1 12 "$N" >"$T_TMP/iostat-w.txt" &
	local io=$!
	probe --sweep=20 -s 256k,512k -w 3.5 -D -WWW "$L"
	kill "$io" 2>/dev/null
	wait "$io" 2>/dev/null
	sed 's/^/# /' "$OUT"
	check "writes: pieces 1, 2 with 1 flush each: tps-calc 40 and 60" \
		eval '[ "$(row_field "256 KiB" 1 8) $(row_field "256 KiB" 1 9) $(row_field "256 KiB" 1 7)" = "1 1 40.0" ] &&
		      [ "$(row_field "512 KiB" 1 8) $(row_field "512 KiB" 1 9) $(row_field "512 KiB" 1 7)" = "2 1 60.0" ]'
	check "writes: iostat shows w/s 40 and 60, f/s 20" \
		eval 'plateau "$T_TMP/iostat-w.txt" 8 40 && plateau "$T_TMP/iostat-w.txt" 8 60 &&
		      plateau "$T_TMP/iostat-w.txt" 20 20'
}
attempts 3 writes

## the capacity at depth 1 (unpaced 256 KiB reads) and the whole grid, auto rates
probe -D -s 256k -i 0 -w 3 -q -B "$L"
CAP=$(awk '{ printf "%.1f", $9 * 1e9 / $10 }' "$OUT")
echo "# capacity (unpaced 256 KiB reads, 3 s): $CAP requests/s"
grid() {
	# two sizes (512 KiB is the reads' case above) and 1.2 s steps keep the test near 2 min
	timeout -k 5 240 "$IOPROBE" --sweep -s 256k,1m -Q 1,4 -A -w 1.2 -D "$L" >"$OUT" 2>"$ERR"
	RC=$?
	sed 's/^/# /' "$OUT"
	check "grid: exit 0, 4 cells, best and limit" \
		eval 'rc_is 0 && out_has "^plan: 2 sizes x 2 depths = 4 sweeps x at most 32 rates \\(auto\\) x 1.20 s a step = at most 2.56 min$" &&
		      [ "$(awk "/^(256 KiB|1 MiB) / { print \$1 \$2 \$3 }" "$OUT" | sort -u | wc -l)" = 4 ] &&
		      out_has "^best: 256 KiB at [0-9.]+ MiB/s(, depth 4)? \\([0-9.]+/s, aqu-sz [0-9.]+, keeps up\\)$" &&
		      out_has "^limit: [0-9.]+ [KM]iB at [0-9.]+ MiB/s(, depth 4)? \\(aqu-sz [0-9.]+, keeps up; beyond it (falls short: device saturated|queue building[^)]*|aqu-sz [0-9.]+ is above 4)\\)$"'
	BEST=$(sed -n 's/^best: 256 KiB at .* (\([0-9.]*\)\/s, .*/\1/p' "$OUT")
	check "grid: the best, ${BEST:-?}/s at 256 KiB, within 10 % of the capacity $CAP/s at depth 1" \
		python3 -c "import sys; sys.exit(0 if abs(${BEST:-0} - $CAP) <= 0.10 * $CAP else 1)"
	# the rows as (size, depth, asked, pieces, aqu-sz, kept up)
	python3 - "$OUT" >"$T_TMP/rows.txt" <<'PY'
import sys
units = {"KiB": 1024, "MiB": 1048576}
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) > 17 and f[1] in units and f[2].isdigit():  # f[17]: the verdict's first word
        print(int(float(f[0]) * units[f[1]]), f[2], f[3], f[9], f[11], int(f[17] == "keeps"))
PY
	check "grid: aqu-sz follows the depth (each size's highest at depth 4: 2.5 to 4.4 x depth 1's, at most 1.1 x 4 x pieces)" \
		python3 - "$T_TMP/rows.txt" <<'PY'
import sys, collections
top = collections.defaultdict(float)
pieces = {}
for l in open(sys.argv[1]):
    size, depth, asked, p, aqu, up = l.split()
    top[(int(size), int(depth))] = max(top[(int(size), int(depth))], float(aqu))
    pieces[int(size)] = int(p)
ok = len(top) == 4
for size in sorted(pieces):
    a1, a4 = top[(size, 1)], top[(size, 4)]
    good = 2.5 * a1 <= a4 <= 1.1 * 4 * pieces[size] and a1 <= 1.1 * pieces[size]
    print(f"# {size >> 10} KiB ({pieces[size]} pieces): highest aqu-sz {a1:.2f} at depth 1, {a4:.2f} at depth 4: {'ok' if good else 'BAD'}")
    ok &= good
sys.exit(0 if ok else 1)
PY
	check "grid: best and limit are the table's (the most bytes/s kept up with aqu-sz <= 1.1, <= 4)" \
		python3 - "$T_TMP/rows.txt" "$OUT" <<'PY'
import re, sys
rows = [l.split() for l in open(sys.argv[1])]
def most(limit):
    best = None
    for size, depth, asked, p, aqu, up in rows:
        if up == "1" and float(aqu) <= limit and (best is None or int(size) * float(asked) > best[0]):
            best = (int(size) * float(asked), float(aqu))
    return best
out = open(sys.argv[2]).read()
b = re.search(r"^best: .* at .* \(([0-9.]+)/s, aqu-sz ([0-9.]+)", out, re.M)
l = re.search(r"^limit: .* \(aqu-sz ([0-9.]+),", out, re.M)
mb, ml = most(1.1), most(4)
print(f"# best: printed aqu-sz {b.group(2)}, derived {mb}; limit: printed aqu-sz {l.group(1)}, derived {ml}")
sys.exit(0 if abs(float(b.group(2)) - mb[1]) < 0.005 and abs(float(l.group(1)) - ml[1]) < 0.005 and ml[1] <= 4 else 1)
PY
	cp "$OUT" "$T_TMP/grid.txt"
}
attempts 2 grid

## --best-aqu and --limit-aqu move the conclusions; -J is one object with every row
probe --sweep=20,60,200 -s 256k,1m -w 1 -D --best-aqu 2.5 --limit-aqu 2.5 -J "$L"
check "-J: exit 0, valid JSON, 6 rows with depth and pieces, best and limit" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["target"] == sys.argv[2], d
assert d["plan"]["cells"] == 2 and d["plan"]["rates"] == 3 and not d["plan"]["rates_auto"], d["plan"]
rows = d["grid"]
assert [(r["size"], r["asked"]) for r in rows] == [(s, a) for s in (262144, 1048576) for a in (20, 60, 200)], rows
assert [r["pieces"] for r in rows] == [1, 1, 1, 4, 4, 4], rows
assert all(r["depth"] == 1 and r["flushes"] == 0 for r in rows), rows
assert d["best_aqu"] == 2.5 and d["limit_aqu"] == 2.5
# 1 MiB at 20/s keeps up with aqu-sz ~1.4 (four pieces): within 2.5 + 0.1 it moves the most
assert d["best"]["size"] == 1048576 and d["best"]["asked"] == 20, d["best"]
assert d["best"]["line"].startswith("best: 1 MiB at 20 MiB/s (20/s, aqu-sz "), d["best"]
assert d["limit"]["row"] == 3 and d["limit"]["aqu_sz"] <= 2.5, d["limit"]' "$OUT" "$L"

## -G: reads and writes apart in the grid's rows (text and JSON)
probe --sweep=20 -s 4k,8k -G -WWW -w 1 -D -J "$L"
check "-G -J: every row carries read and write p50/p99 apart" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["grid"]
assert len(rows) == 2, rows
for r in rows:
    assert 5e6 < r["read"]["p50"] < 50e6 and r["write"]["p50"] > 0, r
    assert r["flushes"] == 0.5, r  # half the requests write, each followed by fdatasync' "$OUT"
probe --sweep=20 -s 4k,8k -G -WWW -w 1 -D "$L"
check "-G: the text rows carry read and write p50/p99" \
	eval '[ "$(grep -Ec "^[48] KiB +1 +20 .*  read +[0-9.]+ +[0-9.]+ write +[0-9.]+ +[0-9.]+  " "$OUT")" = 2 ]'

## -Q auto on a disk serving two requests at once (10 ms each, FUSE max_background 2, a
## direct-I/O loop device: about 100/s at depth 1, 200/s from depth 2; asked 40, 70, 140 and
## 320/s, the knees 70 and 140 are 3/4 of each capacity): depth 2 doubles the knee and the queue, depth 4 buys nothing, so the automatic depths stop there (1, 2, 4) and
## the limit is at depth 2; the table and -J show it (about 13 s)
P2=$(make_fault_disk "$T_TMP/p2" 64M --latency 10ms --max-background 2 -o max_threads=2) ||
	skip "cannot mount the fault disk"
losetup -d "$P2" && P2=$(losetup -f --show --direct-io=on "$T_TMP/p2/disk") || skip "no direct-I/O loop device"
loop_fresh "$P2"
T_LOOPS+=("$P2")
echo "$P2 $T_TMP/p2" >>"$T_FUSE_LOOPS"
qauto() {
	probe --sweep=40,70,140,320 -Q auto -A -s 4k -w 1 -D -J "$P2"
	cp "$OUT" "$T_TMP/qauto.json"
	sed 's/^/# /' "$OUT"
	check "-Q auto: depths 1, 2, 4 then stop; the knee doubles at 2, not at 4; aqu-sz follows to 2; limit at depth 2" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["plan"]["depth_auto"] and d["plan"]["depths"] == 7, d["plan"]
rows = d["grid"]
assert [r["depth"] for r in rows] == [1] * 4 + [2] * 4 + [4] * 4, [r["depth"] for r in rows]
def knee(q): return max([r["asked"] for r in rows if r["depth"] == q and r["kept_up"]] or [0])
def aqu(q): return max(r["aqu_sz"] for r in rows if r["depth"] == q)
print("# knees %g %g %g, highest aqu-sz %.2f %.2f %.2f" % (knee(1), knee(2), knee(4), aqu(1), aqu(2), aqu(4)))
assert knee(1) <= 70 and knee(2) == 140 and knee(4) <= 140, "knees"
assert 0.8 <= aqu(1) <= 1.1 and aqu(2) >= 1.5 * aqu(1), "aqu-sz follows depth 2"
assert d["limit"]["depth"] == 2 and d["limit"]["asked"] == 140, d["limit"]' "$OUT"
	probe --sweep=40,70,140,320 -Q auto -A -s 4k -w 1 -D "$P2"
	sed 's/^/# /' "$OUT"
	check "-Q auto, the table: the plan, rows at depths 1, 2 and 4 only, the limit at depth 2" \
		eval 'rc_is 0 && out_has "^plan: 1 size x depths 1, 2, 4, ... 64 \\(auto, at most 7\\) = at most 7 sweeps x 4 rates x 1 s a step = at most 28 s$" &&
		      [ "$(awk "/^4 KiB / { print \$3 }" "$OUT" | uniq | tr "\n" " ")" = "1 2 4 " ] &&
		      out_has "^limit: 4 KiB at 560 KiB/s, depth 2 \\(aqu-sz [0-9.]+, keeps up; beyond it falls short: device saturated\\)$"'
}
attempts 2 qauto

## the view (tmux): each cell's steps, the grid's table so far with its best and limit, the
## grid drawn (a curve per cell, B and L marked, the legend) at 180x45 and at 80x24 with
## --ascii and NO_COLOR; q after the last cell prints the rows and the conclusions; q mid-grid
## ends the whole grid
if command -v tmux >/dev/null 2>&1 && "$IOPROBE" -h 2>/dev/null | grep -q -- '-tui'; then
	. "$(dirname "$0")/tui_lib.sh"
	colour() { grep -Eq $'\e\\[([0-9]+;)*(3[1-6]|9[1-6])m' "$PANE"; }
	SAVED_OUT=$OUT
	OUT=$PANE
	# 4 KiB and 1 MiB (four pieces of 7 ms: about 35/s): two curves apart at 400/s asked
	start 180 45 -- --tui --sweep=20,400 -s 4k,1m -w 1 -D "$L"
	check "view: the grid's table and its conclusions, the last cell drawn" \
		eval 'wait_for "grid finished" 20 && in_pane "^size +depth +asked/s +asked-B/s" &&
		      in_pane "^4 KiB +1 +20 " && in_pane "^1 MiB +1 +400 .*falls short" &&
		      in_pane "^best: 4 KiB at 80 KiB/s \\(20/s, aqu-sz [0-9.]+, keeps up\\)" &&
		      in_pane "^limit: 1 MiB at 20 MiB/s \\(aqu-sz [0-9.]+, keeps up; beyond it falls short: device saturated\\)" &&
		      in_pane "1(\\.00)? MiB at depth 1, cell 2"'
	check "view 180x45: the plot's axes with units, both cells' curves, B and L on them, the legend" \
		eval 'in_pane "^got/s \\(requests/s done, log\\) against asked/s, a curve per size and depth; ╱ got = asked" &&
		      in_pane "^ +1k│" && in_pane "^ +10│" && in_pane "^asked/s 10 +100 +1k$" &&
		      in_pane "^● 4 KiB Q1  ■ 1 MiB Q1  B best  L limit" &&
		      in_pane "^ +[0-9k]*│.*●" && in_pane "^ +[0-9k]*│.*■" &&
		      in_pane "^ +[0-9k]*│.*B" && in_pane "^ +[0-9k]*│.*L" && in_pane "│.*╱"'
	cap_e
	check "view 180x45: the curves in colour" grep -Eq $'\e\\[([0-9]+;)*(3[1-6]|9[1-6])(;[0-9]+)*m(\e\\[[0-9;]*m)*[●■]' "$PANE"
	TM send-keys -t t q
	check "view: q prints the rows of both cells and the conclusions, exit 0" \
		eval 'wait_for "^EXIT=0" 10 && in_pane "^4 KiB +1 +400 " &&
		      in_pane "^1 MiB +1 +20 " && in_pane "^best: 4 KiB" && in_pane "^limit: 1 MiB" && terminal_restored'
	# 80x24, --ascii and NO_COLOR: fewer plot rows, plain characters, no colour, the legend
	start 80 24 NO_COLOR=1 -- --tui --ascii --sweep=20,400 -s 4k,1m -w 1 -D "$L"
	check "view 80x24 --ascii NO_COLOR: the plot (9 rows), axes, o and x curves, B and L, the legend" \
		eval 'wait_for "grid finished" 20 && in_pane "^got/s \\(requests/s done, log\\) against asked/s" &&
		      [ "$(grep -c "^ *[0-9k]*|" "$PANE")" = 9 ] && in_pane "^asked/s 10 +100 +1k$" &&
		      in_pane "^o 4 KiB Q1  x 1 MiB Q1  B best  L limit$" && in_pane "^ +[0-9k]*\\|.*o" &&
		      in_pane "^ +[0-9k]*\\|.*x" && in_pane "^ +[0-9k]*\\|.*B" && in_pane "^ +[0-9k]*\\|.*L" &&
		      in_pane "^best: 4 KiB" && in_pane "^limit: 1 MiB" && in_pane "^size +depth"'
	check "view 80x24 --ascii: nothing but ASCII on the screen" eval '! LC_ALL=C grep -q "[^ -~]" "$PANE"'
	cap_e
	check "view 80x24 NO_COLOR: no colour codes" eval '! colour'
	TM resize-window -t t -x 40 -y 16
	check "view 40x16: too small to draw, the table and conclusions stay" \
		eval 'wait_gone "^asked/s 10" 5 && in_pane "^best: 4 KiB" && in_pane "^size +depth"'
	TM send-keys -t t q
	check "view 80x24: q, exit 0, the terminal restored" eval 'wait_for "^EXIT=0" 10 && terminal_restored'
	start 180 45 -- --tui --sweep=20,40 -s 4k,8k,16k -w 1 -D "$L"
	wait_for "cell 2" 20
	TM send-keys -t t q
	check "view: q mid-grid ends the grid: the rows so far, no later cell, the conclusions" \
		eval 'wait_for "^EXIT=0" 10 && in_pane "^4 KiB +1 +40 " && ! in_pane "^16 KiB " &&
		      in_pane "^best: " && terminal_restored'
	stop_server
	OUT=$SAVED_OUT
else
	echo "# (no tmux or no view in this build: the grid in the view is not checked)"
fi

## the guard: a grid that may run longer than 10 minutes says its plan and refuses
probe --sweep -s 256k,512k,5m -Q 1,4 -A -D "$L"
check "guard: exit 1, the plan and the way out on stderr, nothing run" \
	eval 'rc_is 1 && out_empty &&
	      err_has "^ioprobe: plan: 3 sizes x 2 depths = 6 sweeps x at most 32 rates \\(auto\\) x 5 s a step = at most 16 min$" &&
	      err_has "^ioprobe: this sweep may run up to 16 min, longer than 10 min: nothing was run; add --yes to run it, or shorten each step \\(-w, now 5 s\\) or the lists$"'
probe --sweep -Q auto -A -w 3 -D "$L"
check "guard: -Q auto plans 7 depths at most (1 to 64)" \
	eval 'rc_is 1 && err_has "^ioprobe: plan: 1 size x depths 1, 2, 4, ... 64 \\(auto, at most 7\\) = at most 7 sweeps x at most 32 rates \\(auto\\) x 3 s a step = at most 11.2 min$"'
# --yes runs it (SIGINT after the first row: the rows so far and the conclusions)
"$IOPROBE" --sweep -s 256k,512k,5m -Q 1,4 -A -D --yes -w 1 "$L" >"$OUT" 2>"$ERR" &
PID=$!
wait_lines "$OUT" "^256 KiB +1 " 1 30
kill -INT "$PID"
wait "$PID"
RC=$?
check "--yes: it runs; SIGINT ends it with the rows so far and the conclusions (exit 0)" \
	eval 'rc_is 0 && out_has "^plan: 3 sizes x 2 depths = 6 sweeps x at most 32 rates \\(auto\\) x 1 s a step = at most 3.20 min$" &&
	      out_has "^256 KiB +1 " && out_has "^best: " && out_has "^limit: "'
"$IOPROBE" --sweep -s 256k,512k,5m -Q 1,4 -A -D -w 3 "$L" >"$OUT" 2>"$ERR" &
PID=$!
wait_lines "$OUT" "^plan: " 1 10
kill -INT "$PID"
wait "$PID"
check "-w 3 makes the same grid short enough (9.60 min): no --yes needed" \
	eval 'out_has "^plan: .* = at most 9.60 min$" && ! err_has "--yes"'

## a probe short of CPU (issue 32): the grid on an idle tmpfs loop with the run held to 3 %
## of a core (cgroup v1 cpu quota). Under load 19-27 such a grid put best and limit at a
## third of the device's, as if they were its own; now every step's CPU wait is measured,
## no step that waited for a CPU is given a device-side reason, and the grid says its
## conclusions are the probe's
cpu_starved() {
	local cg=/sys/fs/cgroup/cpu/ioprobe-grid.$$ f
	[ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] || { fail "no cgroup v1 cpu quota here"; return; }
	mkdir -p "$cg" && echo 100000 >"$cg/cpu.cfs_period_us" && echo 3000 >"$cg/cpu.cfs_quota_us" ||
		{ fail "cannot set a cpu quota"; return; }
	at_exit "rmdir '$cg' 2>/dev/null"
	mkdir -p "$T_TMP/idle"
	mountpoint -q "$T_TMP/idle" || { mount -t tmpfs -o size=80m tmpfs "$T_TMP/idle" &&
		register_mount "$T_TMP/idle"; }
	f=$(make_loop 64M "$T_TMP/idle/fast.img") || { fail "cannot make the loop"; return; }
	timeout -k 5 120 sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$cg" \
		"$IOPROBE" --sweep -s 256k -Q 1,4 -A -w 1 -D "$f" >"$OUT" 2>"$ERR"
	RC=$?
	sed 's/^/# /' "$OUT"
	check "cpu-starved grid: exit 0" rc_is 0
	check "cpu-starved grid: the probe's CPU wait measured and said" \
		out_has "^cpu: the probe waited for a CPU 50 ms of each second or more in [1-9][0-9]* of [0-9]+ steps \(up to [0-9]+ ms, measured\)"
	check "cpu-starved grid: no step that waited for a CPU has a device-side reason (an idle device)" \
		eval '[ -s "$OUT" ] && ! awk "/the probe waited [0-9]+ ms of each second/ {
			match(\$0, /the probe waited [0-9]+ ms/); w = substr(\$0, RSTART + 17, RLENGTH - 20) + 0
			if (w >= 50 && /device saturated|wait above the device|stalled|queue building|device slow|depth limited/) bad = 1 }
			END { exit !bad }" "$OUT"'
	check "cpu-starved grid: a limit found at the probe's CPU says it is the probe's" \
		eval 'grep -q "^limit: .*beyond it falls short: probe limited" "$OUT" || exit 0
		      out_has "^limit: .*beyond it falls short: probe limited[^)]*: the probe.s limit, not the device.s\)$" &&
		      out_has "; [0-9]+ cells? stopped at the probe.s limit, not the device.s: best and limit are lower bounds of the device.s$"'
}
attempts 2 cpu_starved

## refusals
probe --sweep -s 256k,,1m "$L"
check "-s 256k,,1m: exit 1" eval 'rc_is 1 && err_has "^ioprobe: -s: bad size list \"256k,,1m\"$"'
probe --sweep -s 256k,0 "$L"
check "-s 256k,0: exit 1" eval 'rc_is 1 && err_has "^ioprobe: -s: a size must be above 0"'
probe --sweep -Q 1,0 -A "$L"
check "-Q 1,0: exit 1" eval 'rc_is 1 && err_has "^ioprobe: -Q: the queue depth must be 1 to 4096$"'
probe -s 256k,512k -c 1 "$L"
check "-s list without --sweep: exit 1" eval 'rc_is 1 && err_has "^ioprobe: -s takes a list only with --sweep$"'
probe -Q auto -A -c 1 "$L"
check "-Q auto without --sweep: exit 1" eval 'rc_is 1 && err_has "^ioprobe: -Q takes a list or auto only with --sweep$"'
probe --sweep -Q 1,4 "$L"
check "-Q 1,4 on the sync engine: exit 1, names the deepest" \
	eval 'rc_is 1 && err_has "^ioprobe: -Q 4: the sync engine keeps one request in flight"'
probe --sweep --best-aqu 2 "$L"
check "--best-aqu without a grid: exit 1" \
	eval 'rc_is 1 && err_has "^ioprobe: --best-aqu goes with --sweep across sizes or depths"'
probe --sweep -s 4k,8k --limit-aqu 0 "$L"
check "--limit-aqu 0: exit 1" eval 'rc_is 1 && err_has "^ioprobe: --limit-aqu takes an aqu-sz above 0"'
probe --sweep=10 -s 4k,8k "$L" "$T_TMP"
check "a grid over two targets: exit 1" \
	eval 'rc_is 1 && err_has "^ioprobe: --sweep across sizes or depths takes one target"'
probe -yes -c 1 -q "$T_TMP"
check "-yes stays ioping's -y -e s (dsync, a seed): exit 0" rc_is 0

finish
