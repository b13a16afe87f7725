#!/bin/bash
# --qualify in the full-screen view (-X), in tmux: the battery as it runs on a disk serving two
# requests at once in 10 ms each (the FUSE fault disk, max_background 2, a direct-I/O loop
# device: about 100/s at depth 1, 200/s at depth 2). At 120x40: each step's name, progress and
# time left, the live rate and p50/p99 (reads and writes apart for -G), the steps passed, the
# report so far (IOPS, MB/s, read and write percentiles, the device's aqu-sz/await/%util, each
# threshold's PASS with its margin), the final line; q prints the CLI's report, exit 0. At 80x24
# with --ascii and NO_COLOR: a failing battery, plain characters, exit 1. q and SIGTERM mid-step
# on a directory: within a second, NOT RUN (exit 2), the working-set file removed, the terminal
# restored; Ctrl-C likewise. -X with -J is refused.
. "$(dirname "$0")/lib.sh"

require_cmd tmux
require_loop
require_fuse
"$IOPROBE" -h 2>/dev/null | grep -q -- '-tui' || skip "built without the full-screen view"

P2=$(make_fault_disk "$T_TMP/p2" 64M --latency 10ms --max-background 2 -o max_threads=2) ||
	skip "cannot mount the fault disk"
losetup -d "$P2" && P2=$(losetup -f --show --direct-io=on "$T_TMP/p2/disk") || skip "no direct-I/O loop device"
loop_fresh "$P2"
T_LOOPS+=("$P2")
echo "$P2 $T_TMP/p2" >>"$T_FUSE_LOOPS"
N=$(basename "$P2")
. "$(dirname "$0")/tui_lib.sh"
colour() { grep -Eq $'\e\\[([0-9]+;)*(3[1-6]|9[1-6])m' "$PANE"; }
shows() { wait_for "$1" "${2:-5}" || { cat "$PANE"; false; }; }

# two steps: 4 KiB reads at depth 1 for 2 s, then 4 KiB reads and writes at depth 2 for 3 s
prof() {
	cat >"$T_TMP/$1.prof" <<EOF
qualify $1
step seq -D -s 4k -w 2s -i 0
about 4 KiB reads, O_DIRECT, one at a time
require IOPS > 50
require p99 < 50ms
step mixed -G -D -A -s 4k -Q 2 -i 0 -w 3s -a 0
about 4 KiB reads and writes, two in flight
require IOPS > $2
require read p50 < 20ms
require write p50 < 20ms
EOF
}
prof good 150
prof bad 500

## 120x40: a battery that passes, step by step
start 120 40 -- --qualify "$T_TMP/good.prof" -WWW -S 16m -X "$P2"
check "120x40 step 1: title, progress with time left, live rate and latency, its words, the steps" \
	eval 'shows "^ioprobe --qualify good: $P2, step 1 of 2: seq$" &&
	      shows "^running .* [0-9]+ %  0:0[0-9] of 2 s, [0-9.]+ (ms|s) left, [0-9]+ requests$" &&
	      shows "^live \\(last 1 s\\): (9[0-9]|1[01][0-9])(\\.[0-9])?/s  p50 1[01]\\.[0-9] ms  p99 [0-9.]+ ms$" &&
	      shows "^seq: 4 KiB reads, O_DIRECT, one at a time$" && shows "^steps: seq running  mixed -$"'
check "120x40 step 2: reads and writes apart live, step 1's block with its thresholds and margins" \
	eval 'shows "step 2 of 2: mixed$" 6 &&
	      shows "^  read [0-9.]+/s p50 [0-9.]+ ms p99 [0-9.]+ ms   write [0-9.]+/s p50 [0-9.]+ ms p99 [0-9.]+ ms$" &&
	      shows "^steps: seq PASS  mixed running$" &&
	      shows "^  [0-9]+ requests in 2\\.0[0-9] s: (9[0-9]|1[01][0-9]) IOPS, 0\\.4 MB/s$" &&
	      shows "^  read  p50/p90/p99/p99\\.9 = " && shows "^  device $N: aqu-sz 0\\.9[0-9]  await [0-9.]+ ms  %util [0-9.]+$" &&
	      shows "^  IOPS [0-9]+ > 50: PASS \\(margin \\+[0-9.]+ %\\)$" &&
	      shows "^  p99 [0-9.]+ ms < 50 ms: PASS \\(margin \\+[0-9.]+ %\\)$"'
check "120x40 the end: both steps passed, read and write percentiles apart, the final line" \
	eval 'shows "^battery finished, q quits" 8 && shows "^steps: seq PASS  mixed PASS$" &&
	      shows "^  write p50/p90/p99/p99\\.9 = " && shows "^  device $N: aqu-sz 1\\.[0-9]+  await" &&
	      shows "^  IOPS 1[0-9][0-9] > 150: PASS \\(margin \\+[0-9.]+ %\\)$" &&
	      shows "^  write p50 [0-9.]+ ms < 20 ms: PASS" && shows "^QUALIFY good: PASS$"'
cap_e
check "120x40: in colour" colour
TM send-keys -t t q
check "120x40 q: the CLI's report (both steps, the final line), exit 0, the terminal restored" \
	eval 'shows "^EXIT=0" 5 && shows "^qualify good: $P2 \\(block device 64 MiB\\), working set 16 MiB, 2 steps$" &&
	      shows "^step 1/2 seq: " && shows "^step 2/2 mixed: " && shows "^QUALIFY good: PASS$" &&
	      ! in_pane "battery finished" && terminal_restored'

## 80x24, --ascii and NO_COLOR: a battery that fails (200/s is not 500)
start 80 24 NO_COLOR=1 -- --qualify "$T_TMP/bad.prof" -WWW -S 16m -X --ascii "$P2"
check "80x24: step 1 runs, its progress and live figures fit" \
	eval 'shows "^running [# -]*[0-9]+ %  0:0[0-9] of 2 s, " && shows "^live \\(last 1 s\\): [0-9.]+/s  p50 "'
check "80x24 the end: mixed failed with its margin, the final line says why" \
	eval 'shows "^QUALIFY bad: FAIL \\(mixed: IOPS 1[0-9][0-9] < 500\\)$" 12 &&
	      shows "^steps: seq PASS  mixed FAIL$" && shows "^  IOPS 1[0-9][0-9] > 500: FAIL \\(margin -[0-9.]+ %\\)$"'
check "80x24 --ascii: nothing but ASCII on the screen" eval '! LC_ALL=C grep -q "[^ -~]" "$PANE"'
cap_e
check "80x24 NO_COLOR: no colour codes" eval '! colour'
TM send-keys -t t q
check "80x24 q: the report and exit 1" eval 'shows "^EXIT=1" 5 && shows "^QUALIFY bad: FAIL \\(mixed: IOPS "'

## q, Ctrl-C and SIGTERM mid-step on a directory: within a second, NOT RUN, nothing left behind
mkdir "$T_TMP/tmpfs" && mount -t tmpfs -o size=64m tmpfs "$T_TMP/tmpfs" &&
	register_mount "$T_TMP/tmpfs" || skip "cannot mount a tmpfs"
D=$T_TMP/tmpfs/scratch
mkdir "$D"
printf 'qualify long\nstep long -W -w 20s -i 0\nrequire IOPS > 1\n' >"$T_TMP/long.prof"
start 80 24 -- --qualify "$T_TMP/long.prof" -WWW -S 16m -X "$D"
check "directory: the step runs, its working-set file there" \
	eval 'shows "^steps: long running$" && [ -e "$D/ioprobe.tmp" ]'
T0=$(now_ms)
TM send-keys -t t q
wait_for "^EXIT=" 5
T1=$(now_ms)
check "q mid-step: ends in $((T1 - T0)) ms (< 1 s), NOT RUN, exit 2" \
	eval '[ $((T1 - T0)) -lt 1000 ] && in_pane "^QUALIFY long: NOT RUN \\(step \"long\" was interrupted\\)$" &&
	      in_pane "^EXIT=2"'
check "q mid-step: nothing left behind, the terminal restored" eval '[ -z "$(ls -A "$D")" ] && terminal_restored'
start 80 24 -- --qualify "$T_TMP/long.prof" -WWW -S 16m -X "$D"
shows "^steps: long running$" >/dev/null
T0=$(now_ms)
TM send-keys -t t C-c
wait_for "^EXIT=" 5
T1=$(now_ms)
check "Ctrl-C mid-step: ends in $((T1 - T0)) ms (< 1 s), NOT RUN, exit 2, nothing left, terminal restored" \
	eval '[ $((T1 - T0)) -lt 1000 ] && in_pane "^QUALIFY long: NOT RUN \\(step \"long\" was interrupted\\)$" &&
	      in_pane "^EXIT=2" && [ -z "$(ls -A "$D")" ] && terminal_restored'
start 80 24 -- --qualify "$T_TMP/long.prof" -WWW -S 16m -X "$D"
shows "^steps: long running$" >/dev/null
T0=$(now_ms)
kill -TERM "$(ioprobe_pid)"
wait_for "^EXIT=" 5
T1=$(now_ms)
check "SIGTERM mid-step: ends in $((T1 - T0)) ms (< 1 s), NOT RUN, exit 2, nothing left, terminal restored" \
	eval '[ $((T1 - T0)) -lt 1000 ] && in_pane "^QUALIFY long: NOT RUN \\(step \"long\" was interrupted\\)$" &&
	      in_pane "^EXIT=2" && [ -z "$(ls -A "$D")" ] && terminal_restored'

## a cut line never ends in part of a number (issue 36: "17959 requests of 400" for 40000):
## a step with a count and a deadline on terminals one cell apart, where the progress row's
## end falls inside the count, after it or before it; the row shows it whole or not at all
printf 'qualify count\nstep count -D -s 4k -c 40000 -w 60s -i 1ms\nrequire IOPS > 1\n' \
	>"$T_TMP/count.prof"
for cols in 78 79 80 81 82; do
	start "$cols" 24 -- --qualify "$T_TMP/count.prof" -S 16m -X "$P2"
	wait_for "^running .* requests" 5 >/dev/null
	sleep 1
	cap
	ROW=$(grep "^running " "$PANE" | head -1)
	check "$cols columns: the progress row's count whole or left out (${ROW##*left, })" \
		eval '[ -n "$ROW" ] && { ! echo "$ROW" | grep -Eq " of [0-9]+$" || echo "$ROW" | grep -Eq " of 40000$"; }'
	TM send-keys -t t q
	wait_for "^EXIT=" 5 >/dev/null
done

## refusals
start 80 24 -- --qualify "$T_TMP/good.prof" -WWW -S 16m -X -J "$P2"
check "-X with -J: refused (exit 1), nothing run" \
	eval 'shows "^EXIT=1" && grep -q "^ioprobe: --tui cannot be combined with -J or -B$" "$ERR"'
stop_server

finish
