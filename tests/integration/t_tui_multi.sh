#!/bin/bash
# The view with several targets (issue 16) and --sweep in the view (issue 15), through tmux:
# three loop devices, one over the FUSE fault disk with 7 ms per request: the overview shows
# three rows with the slow one marked and named, Enter / a number drills into the usual
# screen and Esc comes back, up/down move the selection, p acts on the selected target and,
# after a, on all; q prints a summary per target. 24 file targets at 80x24 scroll, and
# resizes keep the overview. A sweep in the view draws achieved against asked per step and
# the knee; q and SIGINT mid-sweep restore the terminal and print the table so far.
. "$(dirname "$0")/lib.sh"

require_cmd tmux
require_fuse
require_loop
"$IOPROBE" -h 2>/dev/null | grep -q -- '-tui' || skip "built without the full-screen view"
. "$(dirname "$0")/tui_lib.sh"

L1=$(make_loop 16M) || skip "cannot create a loop device"
L2=$(make_loop 16M) || skip "cannot create a loop device"
L3=$(make_fault_disk "$T_TMP/fd" 16M --latency 7ms -s) || skip "cannot mount the fault disk"

# row N: the overview line of target N ("> 2 /dev/loop5 ...", marks in the first two cells).
row() { cap; grep -E "^[ >][ !] +$1 [/<]" "$PANE"; }
row_has() { local tries=250; while [ $tries -gt 0 ]; do row "$1" | grep -Eq -- "$2" && return 0; tries=$((tries - 1)); sleep 0.02; done; return 1; }
row_lacks() { local tries=250; while [ $tries -gt 0 ]; do row "$1" | grep -Eq -- "$2" || return 0; tries=$((tries - 1)); sleep 0.02; done; return 1; }

## three loop devices, the third slow (200/s asked: it falls short)
start 120 40 -- --tui -D -i 5ms "$L1" "$L2" "$L3"
check "overview: title and column heads" eval 'has "^ioprobe: 3 targets" && in_pane "target .*got/asked .*p50 .*p99"'
check "overview: one row per target, in the order given" \
	eval 'row_has 1 "$L1" && row_has 2 "$L2" && row_has 3 "$L3"'
check "overview: rates, latencies and the device's busy shown" \
	eval 'row_has 1 "[0-9.]+/200 .* (µs|ms) .*%" && row_has 3 "/200 .*ms"'
check "overview: the slow target is marked (!) and named" \
	eval 'wait_for "^ ! +3 ${L3//\//\\/}" 15 && has "^! slowest: #3 ${L3//\//\\/}"'
check "overview: its verdict's words follow (falls short, the reason)" \
	has "slowest: #3 .*  \\(falls short: (device saturated|probe limited)\\)$"
cap_e
check "overview: the slow row is drawn highlighted (reverse)" \
	eval 'grep -E " 3 ${L3//\//\\/}" "$PANE" | grep -Eq $'"'"'\x1b\\[[0-9;]*7[;m]'"'"''
check "overview: the other rows are not marked" eval 'row_lacks 2 "^ !" && row_lacks 1 "^.!"'
check "overview: the footer says where probe keys act" has "r reset -> the selected target"

TM send-keys -t t Down
check "down: selects target 2" eval 'row_has 2 "^>" && row_lacks 1 "^>"'
TM send-keys -t t Down
check "down: selects target 3" row_has 3 "^>!"
TM send-keys -t t Up
check "up: back to target 2" eval 'row_has 2 "^>" && row_lacks 3 "^>"'
TM send-keys -t t Down Enter
check "Enter: target 3's own screen" \
	eval 'has "^ ioprobe ${L3//\//\\/} \\(block device" && has "target 3 of 3: Esc back to the overview"'
check "drilled in: its graph and statistics" has "latency: log scale"
TM send-keys -t t '?'
check "drilled in: ? shows the help" has "any key closes this help"
TM send-keys -t t Escape
check "Esc closes the help first, the target's screen stays" \
	eval 'lacks "any key closes this help" && has "target 3 of 3: Esc back"'
TM send-keys -t t Escape
check "Esc: back to the overview" eval 'has "^ioprobe: 3 targets" && lacks "latency: log scale"'
TM send-keys -t t 2
check "number 2: target 2's screen" has "^ ioprobe ${L2//\//\\/} \\(block device"
TM send-keys -t t Escape
check "Esc again: the overview, target 2 selected" eval 'has "^ioprobe: 3 targets" && row_has 2 "^>"'

TM send-keys -t t p
check "p: pauses the selected target only" \
	eval 'row_has 2 "paused" && row_lacks 1 "paused" && row_lacks 3 "paused" && has "p. on #2 .* only"'
TM send-keys -t t a
check "a: the footer says keys act on all" has "r reset -> ALL targets"
TM send-keys -t t p
check "p with a: toggles every target (2 resumes, 1 and 3 pause)" \
	eval 'row_has 1 "paused" && row_has 3 "paused" && row_lacks 2 "paused" && has "p. on all 3 targets"'
TM send-keys -t t p
TM send-keys -t t q
check "q: exits 0" wait_for "^EXIT=0" 10
check "q: a summary per target, in order" \
	eval 'in_pane "^--- ${L1//\//\\/} .*statistics" && in_pane "^--- ${L3//\//\\/} .*statistics" &&
	      [ "$(grep -c "statistics ---" "$PANE")" = 3 ]'
check "q: terminal restored" terminal_restored
check "q: nothing on stderr" eval '! [ -s "$ERR" ]'

## 24 file targets at 80x24: scrolling; resizes
mkdir -p "$T_TMP/f"
for i in $(seq -w 1 24); do head -c 64K /dev/zero >"$T_TMP/f/t$i"; done
start 80 24 -- --tui -i 200ms "$T_TMP"/f/t*
check "24 targets at 80x24: rows 1-20 shown, the rest scrolled" \
	eval 'has "rows 1-20 of 24" && row_has 1 "t01" && row_has 20 "t20" && ! row 21 >/dev/null'
check "80x24: p50, p99 and the sparkline columns fit" has "p50 +p99 .*latency"
check "80x24: the short footer says where probe keys act" has "p \\+/- r reset -> selected  "
TM send-keys -t t End
check "End: the last row selected and scrolled into view" \
	eval 'has "rows 5-24 of 24" && row_has 24 "^>" && ! row 4 >/dev/null'
TM send-keys -t t 2 3
check "number 23 (two digits): its screen" has "target 23 of 24"
TM send-keys -t t Escape
check "Esc: the overview" has "rows [0-9]+-[0-9]+ of 24"
TM resize-window -t t -x 150 -y 40
check "resize to 150x40: every row, no scrolling, every column" \
	eval 'lacks "rows [0-9]+-" && row_has 1 "t01" && row_has 24 "t24" && has "dev .*last .*max"'
TM resize-window -t t -x 50 -y 10
check "resize to 50x10: still the overview (rows of 6)" eval 'has "rows [0-9]+-[0-9]+ of 24" && has "p99"'
TM resize-window -t t -x 30 -y 5
check "resize to 30x5: too small, says so" has "terminal too small"
TM resize-window -t t -x 80 -y 24
TM send-keys -t t q
check "24 targets: q exits 0 after the summaries" \
	eval 'wait_for "^EXIT=0" 10 && in_pane "^p50/p90/p99/p99.9 = " && terminal_restored'

## --sweep in the view, on the slow disk (about 140/s)
start 120 40 -- --tui --sweep=20,400 -w 1 -D "$L3"
check "sweep view: steps drawn as achieved against asked" \
	eval 'wait_for "^ +20\\.0 +[0-9.]+ .*keeps up" 10 && in_pane "asked/s +got/s +achieved"'
check "sweep view: 400/s falls short" wait_for "^ +400 +[0-9.]+ .*falls short" 10
check "sweep view: the knee line at the end" has "^keeps up to ~20/s .* at 4 KiB"
check "sweep view: the operators' table below" in_pane "^size +asked/s"
TM send-keys -t t q
check "sweep view: q prints the table and the knee, exit 0" \
	eval 'wait_for "^EXIT=0" 10 && in_pane "^4 KiB +400 " && in_pane "^keeps up to ~20/s"'
check "sweep view: terminal restored" terminal_restored

start 120 40 -- --tui --sweep=20,40,80 -w 1.5 -D "$L3"
wait_for "2 steps? done|step 2:" 10
TM send-keys -t t q
check "q mid-sweep: exit 0, the table so far (20/s), not the steps after" \
	eval 'wait_for "^EXIT=0" 10 && in_pane "^4 KiB +20 " && ! in_pane "^4 KiB +80 "'
check "q mid-sweep: terminal restored" terminal_restored

start 120 40 -- --tui --sweep=20,40,80 -w 1.5 -D "$L3"
wait_for "step 2:" 10
kill -INT "$(ioprobe_pid)"
check "SIGINT mid-sweep: the table so far, terminal restored" \
	eval 'wait_for "^EXIT=0" 10 && in_pane "^4 KiB +20 " && ! in_pane "^4 KiB +80 " && terminal_restored'

finish
