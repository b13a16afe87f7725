#!/bin/bash
# --replay FILE -X: a recording shown in the full-screen view, driven through tmux at 80x24
# and 160x45. The header's time cursor shows the recorded wall-clock time of the period
# under it (TZ=UTC, checked against the file's period lines); pause stops it; , and . step
# exactly one period; G shows the last period with the numbers --replay -P 1 prints; + and
# - change the speed (x10 plays the whole recording in well under its length); the help
# lists the replay keys; --ascii and NO_COLOR; q and SIGTERM (within 1 s) restore the
# terminal; a cut file replays and says so after the screen (exit 3); a later version is
# refused before the screen (exit 2); two targets get the overview (a row each, a target's
# screen and back); twelve named targets: their names, a two-digit number opens a screen,
# Home and End select rows; a -X recording of two named targets replayed at its last period
# shows the live overview's rows (names, devices, failures, skips, verdicts); a recording with request records shows them; the fault disk's latency
# step (1 ms -> 10 ms) and its iostat panel, when it can run.
. "$(dirname "$0")/lib.sh"

require_cmd tmux
require_cmd python3
"$IOPROBE" -h 2>/dev/null | grep -q -- '-tui' || skip "built without the full-screen view"
. "$(dirname "$0")/tui_lib.sh"

D=$T_TMP/dir
mkdir -p "$D"
R=$T_TMP/rec

# clock FILE K: the UTC time (HH:MM:SS) of the K-th period line (1-based) of FILE
clock() {
	python3 -c '
import json, sys, time
p = [json.loads(l) for l in open(sys.argv[1]) if "\"period\"" in l]
p = [l for l in p if l.get("type") == "period"]
print(time.strftime("%H:%M:%S", time.gmtime(p[int(sys.argv[2]) - 1]["real"] / 1e9)))
' "$1" "$2"
}
# periods FILE: how many period lines FILE holds
periods() { grep -c '"type":"period"' "$1"; }
# state: the header's replay state ("replay HH:MM:SS · K/N · xS ...")
state() { cap; grep -Eo 'replay [0-9:]{8} . [0-9]+/[0-9]+ . x[0-9]+( paused| end)?' "$PANE" | head -1; }
# step_is K: the cursor is at period K (its clock and its index)
at() { has "replay $(clock "$R.null" "$1") . $1/$N . x"; }

# ---- a recording of 6 periods on the null engine ----
rm -f "$R.null"
probe --engine=null -i 10ms -w 6 -q --record "$R.null" "$D"
check "recorded: exit 0, six periods or more" eval 'rc_is 0 && [ "$(periods "$R.null")" -ge 6 ]'
N=$(periods "$R.null")
probe --replay "$R.null" -P 1 -q
cp "$OUT" "$T_TMP/raw"

## 1. 80x24: plays from the start as if live, the clock of each period
start 80 24 TZ=UTC -- --replay "$R.null" -X
check "80x24: the first period's wall-clock time under the cursor" at 1
check "80x24: the graph's time axis ends at the cursor's clock" has "-1 min .* $(clock "$R.null" 1) *$"
check "80x24: plays on: the second period" at 2
check "80x24: the replay keys in the footer" has "space pause .*step.*speed"
check "80x24: no request records: the graph is the heatmap, the footer says why" eval ' has "latency heatmap" && has "graph from period buckets"'
TM send-keys -t t p
check "pause: the state says paused" has " paused"
s1=$(state)
sleep 1.5
check "pause: the clock stays ($s1)" [ "$(state)" = "$s1" ]
k=$(echo "$s1" | sed -E 's|.* ([0-9]+)/[0-9]+ .*|\1|')
TM send-keys -t t .
check "step forward: exactly one period on (to $((k + 1)))" at $((k + 1))
TM send-keys -t t ,
check "step back: exactly one period back (to $k)" at "$k"
TM send-keys -t t Right
check "Right steps forward too" at $((k + 1))
TM send-keys -t t Left
check "Left steps back too" at "$k"
TM send-keys -t t g
check "g: the first period" at 1
check "g: the time axis at its clock" has "-1 min .* $(clock "$R.null" 1) *$"
TM send-keys -t t G
check "G: the last period" at "$N"
total=$(awk '{ c += $1 } END { print c }' "$T_TMP/raw")
check "G: the total row counts every recorded request ($total), as --replay -P 1 sums them"  has "^ +total +$total "
TM send-keys -t t '?'
check "help: the replay keys" eval 'has "replay: pause / resume" && has "replay: speed x1, x10, x100"'
TM send-keys -t t x
check "help: any key closes it" lacks "replay: pause / resume"
TM send-keys -t t g +
check "+: speed x10" has " x10 paused"
t0=$(now_ms)
TM send-keys -t t ' '
check "x10: the whole recording plays in well under its length" wait_for " $N/$N . x10 end" 5
dt=$(($(now_ms) - t0))
check "x10: played ${N} s of recording in ${dt} ms (under 2.5 s)" [ "$dt" -lt 2500 ]
TM send-keys -t t + g ' '
check "x100: plays to the end at once" wait_for " $N/$N . x100 end" 3
TM send-keys -t t - - g ' '
check "- -: back to x1, playing" eval 'has " 1/$N . x1" && lacks " 1/$N . x1 paused"'
TM send-keys -t t q
check "q: exit 0" wait_for "^EXIT=0" 5
check "q: terminal restored, nothing on stderr" eval 'terminal_restored && [ ! -s "$ERR" ]'

## 2. 160x45: the period table holds the last period with --replay -P 1's numbers
start 160 45 TZ=UTC -- --replay "$R.null" -X
check "160x45: starts" at 1
TM send-keys -t t G
check "160x45: G: the last period" at "$N"
last=$(tail -1 "$T_TMP/raw")
cnt=$(echo "$last" | awk '{ print $1 }')
req=$(echo "$last" | awk '{ print $9 }')
cap
row=$(grep -E '^ +[0-9]+:[0-9]{2} +[0-9]' "$PANE" | tail -1)
check "160x45: the last row's count ($cnt) and requests ($req) as --replay -P 1 prints them [$row]"  python3 -c '
import sys
f = sys.argv[1].split()
assert f[1] == sys.argv[2], f
assert sys.argv[3] in f, f
' "$row" "$cnt" "$req"
check "160x45: a row per period up to the last ($N rows)"  [ "$(grep -cE '^ +[0-9]+:[0-9]{2} +[0-9]' "$PANE")" = "$N" ]
TM send-keys -t t ,
check "160x45: step back drops the last row" at $((N - 1))
cap
check "160x45: $((N - 1)) rows" [ "$(grep -cE '^ +[0-9]+:[0-9]{2} +[0-9]' "$PANE")" = $((N - 1)) ]
check "160x45: UTF-8: the middle dot and the box lines" eval 'in_pane "·" && in_pane "──"'
pid=$(ioprobe_pid)
check "SIGTERM: handler installed" wait_caught "$pid" 15
t0=$(now_ms)
kill -TERM "$pid"
check "SIGTERM: ends" wait_for "^EXIT=0" 5
dt=$(($(now_ms) - t0))
check "SIGTERM: within 1 s (${dt} ms; the capture polls)" [ "$dt" -le 1200 ]
check "SIGTERM: terminal restored" terminal_restored

## 3. --ascii and NO_COLOR
start 80 24 TZ=UTC NO_COLOR=1 -- --replay "$R.null" -X --ascii
check "--ascii: starts, ASCII separators" has "replay $(clock "$R.null" 1) - 1/$N - x1"
cap_e
check "--ascii: no UTF-8 at all" eval "! LC_ALL=C grep -q $'[\x80-\xff]' '$PANE'"
check "NO_COLOR: no colour codes" eval "! grep -Eq $'\e\\\\[([0-9]+;)*(3[1-6]|9[1-6])m' '$PANE'"
TM send-keys -t t C-c
check "Ctrl-C: exit 0, terminal restored" eval 'wait_for "^EXIT=0" 5 && terminal_restored'

## 4. damage, a later version, no terminal
head -c "$(( $(stat -c %s "$R.null") - 40 ))" "$R.null" >"$T_TMP/cut"
start 80 24 TZ=UTC -- --replay "$T_TMP/cut" -X
check "cut file: replays" has "replay [0-9:]{8} . 1/"
check "cut file: the footer says the file is damaged" has "file damaged"
TM send-keys -t t q
check "cut file: exit 3 after the screen" eval 'wait_for "^EXIT=3" 5 && terminal_restored'
check "cut file: says where it stops" grep -q "^ioprobe: --replay: .*cut short.*replayed up to" "$ERR"
sed '1s/"version":1,/"version":99,/' "$R.null" >"$T_TMP/v99"
start 80 24 -- --replay "$T_TMP/v99" -X
check "a later version: exit 2 before the screen" wait_for "^EXIT=2" 5
check "a later version: said, terminal untouched" eval 'grep -q "^ioprobe: .*newer" "$ERR" && terminal_restored'
probe --replay "$R.null" -X </dev/null
check "not a terminal: exit 1" eval 'rc_is 1 && err_prefixed'
probe --replay "$R.null" -X -P 1
check "-X with -P: exit 1" eval 'rc_is 1 && err_prefixed'

## 5. two targets: the overview, a row each, a target's screen and back
rm -f "$R.two"
mkdir -p "$T_TMP/e"
probe --engine=null -i 10ms -w 4 -q --record "$R.two" "$D" "$T_TMP/e"
probe --replay "$R.two" -P 1 -q
cp "$OUT" "$T_TMP/raw2"
for size in "80 24" "160 45"; do
	start $size TZ=UTC -- --replay "$R.two" -X
	check "2 targets $size: the overview with the replay's clock"  has "replay [0-9:]{8} . [0-9]+/[0-9]+ . x1.* 2 targets"
	check "2 targets $size: a row per target" eval 'has "^>.* 1 .*dir " && has "^ +2 .*e "'
	check "2 targets $size: the replay keys in the footer" has "space pause .*step"
	TM send-keys -t t G
	check "2 targets $size: G: the end" has " paused . 2 targets"
	TM send-keys -t t 2
	check "2 targets $size: 2 opens the second target's screen" eval 'has "target 2 of 2" && has "replay [0-9:]{8}"'
	TM send-keys -t t Escape
	check "2 targets $size: Esc: back to the overview" has " 2 targets"
	TM send-keys -t t q
	check "2 targets $size: q: exit 0, terminal restored" eval 'wait_for "^EXIT=0" 5 && terminal_restored'
done
# the last period of each target as --replay -P 1 prints it: count on its screen at G
start 160 45 TZ=UTC -- --replay "$R.two" -X
TM send-keys -t t G 1
check "2 targets: the first target's screen" has "target 1 of 2"
cap
c1=$(awk -v p="$D" '$NF == p { c = $1 } END { print c }' "$T_TMP/raw2")
row=$(grep -E '^ +[0-9]+:[0-9]{2} +[0-9]' "$PANE" | tail -1)
check "2 targets: target 1's last row counts $c1 as --replay -P 1 [$row]"  [ "$(echo "$row" | awk '{ print $2 }')" = "$c1" ]
TM send-keys -t t q
wait_for "^EXIT=0" 5

## 5b. twelve named targets: names on the rows and screens, two-digit numbers, Home and End
rm -f "$R.twelve"
args=()
for k in $(seq -w 1 12); do
	mkdir -p "$T_TMP/m$k"
	args+=("t$k=$T_TMP/m$k")
done
probe --engine=null -i 100ms -w 3 -q --record "$R.twelve" "${args[@]}"
start 160 45 TZ=UTC -- --replay "$R.twelve" -X
check "12 named targets: the rows show the names" eval 'has "^>.* 1 +t01 " && has "^ +12 +t12 "'
TM send-keys -t t End
check "12 targets: End selects the last row (the cursor stays)" eval 'has "^>.* 12 +t12 " && lacks " paused"'
TM send-keys -t t Home
check "12 targets: Home selects the first row" has "^>.* 1 +t01 "
TM send-keys -t t 1 2
check "12 targets: 1 2 opens the twelfth target's screen, named" eval 'has "target 12 of 12" && has "t12: $T_TMP/m12 "'
TM send-keys -t t Escape
TM send-keys -t t 1 Enter
check "12 targets: 1 Enter opens the first" eval 'has "target 1 of 12" && has "t01: $T_TMP/m01 "'
TM send-keys -t t q
check "12 targets: q: exit 0" wait_for "^EXIT=0" 5

## 6. with request records: the request lines, the scatter
rm -f "$R.req"
probe --engine=null -i 50ms -w 3 -q --record "$R.req" --record-requests "$D"
start 120 40 TZ=UTC -- --replay "$R.req" -X
check "requests: the request lines of the first period" has "request=[0-9]+ time="
check "requests: the scatter, no bucket note" eval 'has "latency: " && lacks "graph from period buckets"'
TM send-keys -t t G
last=$(grep -c '"type":"request"' "$R.req")
check "requests: G shows the last request ($last)" has "request=$last time="
TM send-keys -t t q
check "requests: exit 0" wait_for "^EXIT=0" 5

## 7. the fault disk: a latency step 1 ms -> 10 ms, recorded with --iostat
if [ "$(id -u)" = 0 ] && [ -c /dev/fuse ] && [ -x "${IOPROBE_FAULTDISK:-}" ] &&
	command -v losetup >/dev/null; then
	M=$T_TMP/fd
	DEV=$(make_fault_disk "$M" 32M --latency 1ms) || { fail "mount faultdisk"; finish; }
	rm -f "$R.fault"
	"$IOPROBE" -D -i 20ms -w 6 --iostat -q --record "$R.fault" "fd=$DEV" \
		>/dev/null 2>"$T_TMP/fault.err" &
	pid=$!
	sleep 3
	fault_ctl "$M" "latency 10ms"
	wait "$pid"
	start 160 45 TZ=UTC -- --replay "$R.fault" -X
	check "fault disk: starts" has "replay [0-9:]{8} . 1/"
	TM send-keys -t t g
	check "fault disk: the first period at 1 ms" has "p50 1\.[0-9]+ ms"
	TM send-keys -t t G
	check "fault disk: the last at 10 ms" has "p50 1[0-9]\.[0-9]+ ms"
	check "fault disk: the iostat panel from the recording" eval ' has "recorded: ${DEV#/dev/}" && has "iostat ${DEV#/dev/}"'
	check "fault disk: the name and the mode as live (direct)" eval 'has "fd: $DEV " && has "read direct"'
	TM send-keys -t t q
	check "fault disk: exit 0" eval 'wait_for "^EXIT=0" 5 && terminal_restored'

	## 8. replay = live in the view: a -X recording of two named targets (the fault disk at
	## 10 ms, a loop device) replayed at its last period shows the rows the live overview
	## showed when its probes had ended: names, devices, failures, skips and verdicts
	L2=$(make_loop 64M) || { fail "make a loop device"; finish; }
	rm -f "$R.xv"
	start 160 45 TZ=UTC -- -X -D -i 20ms -w 5 --record "$R.xv" "fd=$DEV" "lo=$L2"
	check "view: two named rows, live" eval 'has "^>.* 1 +fd +${DEV#/dev/} " && has "^ +2 +lo +${L2#/dev/} "'
	check "view: both probes end" eval 'wait_for "^>.* 1 +fd .* ended " 15 && has "^ +2 +lo .* ended "'
	sleep 1.2 # the last row values settle (a second's refresh)
	cap
	cp "$PANE" "$T_TMP/live.pane"
	TM send-keys -t t q
	check "view: q: exit 0" wait_for "^EXIT=0" 5
	start 160 45 TZ=UTC -- --replay "$R.xv" -X
	TM send-keys -t t G
	check "replayed view: the last period" has " end . 2 targets| paused . 2 targets"
	sleep 0.5
	cap
	cp "$PANE" "$T_TMP/replay.pane"
	check "replay = live: names, devices, failures, skips and verdicts of each row" python3 -c '
import re, sys
def rows(path):
	lines = open(path).read().splitlines()
	head = next(l for l in lines if re.search(r" target .* verdict ", l))
	start = lambda w: head.index(" " + w + " ") + 1
	end = lambda w: start(w) + len(w)
	out = {}
	for l in lines:
		m = re.match(r"^[> !]*([0-9]+) ", l)
		if not m or l is head:
			continue
		l = l.ljust(len(head))
		out[m.group(1)] = (l[start("target"):start("dev")].strip(),
				   l[start("dev"):end("got/asked")].split()[0],
				   l[end("max"):end("fail")].strip(), l[end("fail"):end("skip")].strip(),
				   l[start("verdict"):end("busy") - 5].strip())
	return out
live, rep = rows(sys.argv[1]), rows(sys.argv[2])
assert len(live) == 2 and live == rep, (live, rep)
assert all(r[4] for r in live.values()), live  # a verdict on each row
' "$T_TMP/live.pane" "$T_TMP/replay.pane"
	TM send-keys -t t q
	check "replayed view: exit 0" wait_for "^EXIT=0" 5
else
	echo "# skipped the fault-disk part (needs root, /dev/fuse, the faultdisk fixture)"
fi

finish
