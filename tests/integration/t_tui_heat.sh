#!/bin/bash
# The view's latency heatmap ('m') and histogram panel ('b') in tmux, on a loop device over the
# FUSE fault disk whose latency steps from 1 ms to 10 ms midway: the key switches the graph
# (title, shading characters or colour blocks, back to the scatter), the step shows as two
# bands — cells in the ~1 ms rows in the early columns and in the ~10 ms rows in the later
# ones, read back from the pane through the y-axis labels — at 80x24 and 160x45 (a resize
# keeps the history), with NO_COLOR (the character ramp), --ascii (the ramp, ASCII axes) and
# colour (blocks, colour codes); the histogram panel shows the window's bars with p50/p99
# marked; the help and the wide footer list both keys.
. "$(dirname "$0")/lib.sh"

require_cmd tmux
require_cmd python3
require_loop
require_fuse
"$IOPROBE" -h 2>/dev/null | grep -q -- '-tui' || skip "built without the full-screen view"

M=$T_TMP/fault
FD=$(make_fault_disk "$M" 32M --latency 1ms) || skip "cannot set up the FUSE disk"
. "$(dirname "$0")/tui_lib.sh"

# bands: read the heatmap off the pane: the plot rows between the graph's title and its time
# axis, their y labels giving the log scale; prints "EARLY LATE MIXED": the median latency
# (ms) of the cells in the first third and the last third of the columns holding cells, and
# how many early cells lie at 5 ms or above.
cat >"$T_TMP/bands.py" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding='utf-8', errors='replace').read().split('\n')
top = next(i for i, l in enumerate(lines) if 'latency heatmap' in l)
axis = next(i for i in range(top + 1, len(lines)) if re.search(r'now([|│]|\s*$)', lines[i]))
pw = lines[axis].index('now') + 3 - 8  # the plot's width: up to the axis' "now"
rows = lines[top + 1:axis - 1]  # without the marks row
unit = {'ns': 1e-6, 'us': 1e-3, 'µs': 1e-3, 'ms': 1, 's': 1e3}
lab = {}
for r, l in enumerate(rows):
    m = re.match(r'\s*([0-9.]+) (ns|us|µs|ms|s)\s*[┤+]', l)
    if m:
        lab[r] = float(m.group(1)) * unit[m.group(2)]
hi, lo, n = lab[0], lab[len(rows) - 1], len(rows)
def ms(r):  # the middle of row r on the log scale
    return lo * (hi / lo) ** ((n - 1 - r + 0.5) / n)
ramp = ' .:-=+*#%@'
cells = []
for r, l in enumerate(rows):
    for x, ch in enumerate(l[8:8 + pw]):
        if ch != ' ':
            cells.append((x, ms(r), ramp.index(ch) if ch in ramp else 1))
xs = sorted({x for x, _, _ in cells})
if len(xs) < 6:
    print('0 0'); sys.exit()
out = []
for cols in (xs[:3], xs[-3:]):  # the first columns: the 1 ms phase; the last: 10 ms
    weight = {}
    for x, v, w in cells:
        if x in cols:
            weight[v] = weight.get(v, 0) + w
    out.append(max(weight, key=weight.get))  # the row that holds most, by its shades
print('%.2f %.2f' % tuple(out))
PY
# two_bands: the pane's heatmap shows ~1 ms early and ~10 ms late.
two_bands() {
	local tries=40 b
	while [ "$tries" -gt 0 ]; do
		cap
		b=$(python3 "$T_TMP/bands.py" "$PANE" 2>/dev/null) && set -- $b &&
			python3 -c "import sys; e, l = map(float, sys.argv[1:3]); \
sys.exit(not (0.5 <= e <= 3 and 5 <= l <= 25))" "$@" && return 0
		tries=$((tries - 1))
		sleep 0.05
	done
	echo "# bands: $b" >&2
	cp "$PANE" "$T_TMP/pane.bands"
	cat "$PANE" >&2
	return 1
}
# step S: (1 ms since the start) S seconds more, then 10 ms for S seconds (the view keeps
# probing).
step() {
	sleep "$1"
	fault_ctl "$M" "latency 10ms"
	sleep "$1"
}
small() { TM resize-window -t t -x 80 -y 24; }
big() { TM resize-window -t t -x 160 -y 45; }
quit_ok() { TM send-keys -t t q; wait_for "^EXIT=0" 10; }

## 1. NO_COLOR at 80x24: the key, the character ramp, two bands; then 160x45
start 80 24 NO_COLOR=1 -- --tui -D -i 0.02 "$FD"
check "nocolor: scatter first" has "latency: log scale, 1 min window"
TM send-keys -t t m
check "nocolor: m switches to the heatmap" has "latency heatmap: log scale, 1 min window"
check "nocolor: the note says so" has "graph: latency heatmap"
step 4
check "nocolor 80x24: cells of the character ramp" has "^ *([0-9.]+ [mµ]?s)? *[┤│] *[ .:=+*#%@~-]*[.:=+*#%@~-]"
check "nocolor 80x24: no colour blocks" lacks "█"
check "nocolor 80x24: 1 ms early, 10 ms late: two bands" two_bands
check "nocolor 80x24: y labels" has "^ *[0-9.]+ m?s ┤"
check "nocolor 80x24: time axis" has "└-1 min .* now"
TM send-keys -t t b
check "nocolor 80x24: b shows the histogram" has "latency histogram: 1 min window, [0-9]+ requests"
check "nocolor 80x24: its bars with p50 marked" has "│█+ +[0-9]+ +[0-9.]+ %  ◀ p50"
check "nocolor 80x24: ... and p99" has "◀( p50)? p99"
check "nocolor 80x24: in place of the periods" lacks "── periods"
big
check "nocolor 160x45: two bands after the resize" two_bands
check "nocolor 160x45: histogram bars" has "│█+ +[0-9]+ +[0-9.]+ %  ◀ p50"
check "nocolor 160x45: p99 on a ~10 ms bar" \
	has "^ +([6-9]\.[0-9]+|[1-4][0-9.]+) ms│█+ +[0-9]+ +[0-9.]+ %  ◀( p50)? p99"
check "nocolor 160x45: a ~1 ms bar" has "^ +(0\.[5-9][0-9]*|1\.[0-9]+|2\.[0-9]+) ms│█+ +[0-9]+ "
check "nocolor 160x45: p50/p99/p99.9 in its title" has "p50 [0-9.]+ [mµ]?s  p99 [0-9.]+ m?s  p99.9"
check "nocolor 160x45: the footer has m and b" has " d device  m map  b hist  \? help"
TM send-keys -t t b
check "nocolor 160x45: b again: the periods are back" has "── periods"
TM send-keys -t t m
check "nocolor 160x45: m again: the scatter is back" has "latency: log scale, 1 min window"
TM send-keys -t t '?'
check "help: m" has "m +graph: scatter / latency heatmap"
check "help: b" has "b +latency histogram of the window"
TM send-keys -t t x
check "nocolor: q quits" quit_ok

## 2. --ascii at 160x45, then 80x24
fault_ctl "$M" "latency 1ms"
start 160 45 -- --tui --ascii -D -i 0.02 "$FD"
check "ascii: started" has "latency: log scale"
TM send-keys -t t m
check "ascii: the heatmap" has "latency heatmap: log scale"
step 4
check "ascii 160x45: ASCII axis and ramp cells" has "^ *([0-9.]+ [mu]?s)? *[+|] *[ .:=+*#%@~-]*[.:=+*#%@~-]"
check "ascii 160x45: two bands" two_bands
TM send-keys -t t b
check "ascii 160x45: histogram, ASCII bars and marks" has "\|#+ +[0-9]+ +[0-9.]+ %  < p50"
small
check "ascii 80x24: two bands after the resize" two_bands
check "ascii 80x24: histogram" has "latency histogram: 1 min window"
check "ascii: nothing but ASCII" bash -c "! LC_ALL=C grep -q '[^ -~]' '$PANE'"
check "ascii: q quits" quit_ok

## 3. colour: blocks of colours, the p99 line
fault_ctl "$M" "latency 1ms"
start 160 45 -- --tui -D -i 0.02 "$FD"
TM send-keys -t t m
check "colour: blocks" wait_for "[┤│] *[ █─]*█" 10
check "colour: the legend" has "few blue..red many  ─ p99"
cap_e
check "colour: colour codes in the plot" grep -Eq $'\e\\[([0-9]+;)*3[1-6]m█' "$PANE"
check "colour: q quits" quit_ok

finish
