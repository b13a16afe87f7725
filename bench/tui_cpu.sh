#!/bin/bash
# The view's own CPU with several targets (issue 16: 16 targets at -i 1s, goal <= 2 % of a
# core). Runs `ioprobe --tui -i 1s` on 16 files in a detached 80x24 tmux pane and reads the
# UI thread's utime+stime (/proc/PID/task/PID/stat: the view runs in the main thread; the
# probe threads are counted apart) over the measuring window, after a warm-up.
# Usage: bench/tui_cpu.sh [IOPROBE] [SECONDS] [TARGETS]   (run it under the shared lock)
set -e
IOPROBE=$(readlink -f "${1:-build/ioprobe}")
SECS=${2:-60}
N=${3:-16}
DIR=$(mktemp -d)
SOCK=ioprobe-bench-$$
TM() { tmux -L "$SOCK" "$@"; }
cleanup() { TM kill-server 2>/dev/null || true; rm -rf "$DIR"; }
trap cleanup EXIT

for i in $(seq -w 1 "$N"); do
	head -c 1M /dev/zero >"$DIR/t$i"
done
LANG=C.UTF-8 TM -u new-session -d -s b -x 80 -y 24 "exec $IOPROBE --tui -i 1s $DIR/t* 2>/dev/null"
sleep 0.5
PID=$(TM display -p -t b '#{pane_pid}')
ticks() { awk '{ print $14 + $15 }' "/proc/$PID/task/$PID/stat"; }
all() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
HZ=$(getconf CLK_TCK)
sleep 5 # warm-up: every target running, the first iostat samples taken
T0=$(ticks); A0=$(all); S0=$(date +%s.%N)
sleep "$SECS"
T1=$(ticks); A1=$(all); S1=$(date +%s.%N)
TM send-keys -t b q
awk -v t=$((T1 - T0)) -v a=$((A1 - A0)) -v hz="$HZ" -v s0="$S0" -v s1="$S1" -v n="$N" 'BEGIN {
	wall = s1 - s0
	printf "targets %d, -i 1s, %.0f s: view thread %.2f %% of a core, whole process %.2f %%\n",
		n, wall, t / hz / wall * 100, a / hz / wall * 100
}'
