#!/bin/bash
# The run's memory budget (issue 34 item 8): in a cgroup v1 memory limit of 64 MB, 64 targets
# either run or are refused with the figure they need — never OOM-killed with no output — and
# the budget's figure is above what such a run really takes (its cgroup's peak, kernel memory
# included) in every mode: plain with one-second periods, --record-requests, -Q 16.
. "$(dirname "$0")/lib.sh"

require_root
require_cmd python3
MCG=/sys/fs/cgroup/memory
[ -e "$MCG/memory.limit_in_bytes" ] || skip "needs the cgroup v1 memory controller"

D=$T_TMP/targets
mkdir -p "$D"
for i in $(seq 64); do head -c 1M /dev/zero >"$D/f$i"; done
targets() { for i in $(seq "$1"); do printf '%s ' "$D/f$i"; done; }

# mem_cg NAME LIMIT: a new memory cgroup of LIMIT at $CG (removed at the end), its peak reset
mem_cg() {
	CG=$MCG/ioprobe-mem.$$.$1
	mkdir -p "$CG" && echo "$2" >"$CG/memory.limit_in_bytes" || return 1
	echo 0 >"$CG/memory.swappiness" 2>/dev/null
	at_exit "rmdir '$CG' 2>/dev/null || { sleep 0.5; rmdir '$CG'; }"
	sync
	echo 0 >"$CG/memory.max_usage_in_bytes"
}
# mem_cg_read: $CG's peak ($PEAK MiB) and its OOM kills ($OOMS, empty when not counted)
mem_cg_read() {
	PEAK=$(($(cat "$CG/memory.max_usage_in_bytes") / 1048576))
	OOMS=$(awk '$1 == "oom_kill" { print $2 }' "$CG/memory.oom_control")
}

# in_cgroup NAME LIMIT ARGS...: the probe inside a new memory cgroup of LIMIT (kept for its
# peak, $PEAK MiB, and its OOM kills, $OOMS), stdout and stderr as probe's
in_cgroup() {
	mem_cg "$1" "$2" || return 1
	shift 2
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec timeout -k 5 60 "$@"' sh "$CG" \
		"$IOPROBE" "$@" >"$OUT" 2>"$ERR"
	RC=$?
	mem_cg_read
	OOMS=${OOMS:-0}
}

# the figure a refusal gives: "... need about 88.2 MiB of memory ..." in MiB
figure() { sed -n 's/.* need[s]\{0,1\} about \([0-9.]*\) MiB of memory .*/\1/p' "$ERR" | head -1; }

modes=("plain:-D -i 100ms -w 6 -P 1 -q"
	"record-requests:-D -i 100ms -w 6 -P 1 -q --record $T_TMP/REC --record-requests"
	"depth:-D -A -Q 16 -i 100ms -w 6 -P 1 -q")
for m in "${modes[@]}"; do
	name=${m%%:*}
	read -ra args <<<"${m#*:}"
	args=("${args[@]//REC/$name.rec}")
	# 64 targets in 64 MB: run, or refused with the figure; never killed
	in_cgroup "$name" 64M "${args[@]}" $(targets 64)
	check "$name, 64 targets in 64 MB: exit 0 or refused (1), not killed (rc $RC, peak $PEAK MiB)" \
		eval '[ "$RC" = 0 ] || [ "$RC" = 1 ]'
	check "$name, 64 targets in 64 MB: no OOM kill in the cgroup ($OOMS)" test "$OOMS" = 0
	if [ "$RC" = 1 ]; then
		check "$name, 64 targets in 64 MB: the refusal says the figure and the cgroup's" \
			err_has "^ioprobe: 64 targets need about [0-9.]+ MiB of memory \(8 MiB for the run and [0-9.]+ MiB a target\), more than the [0-9.]+ MiB free in memory cgroup /ioprobe-mem\.[0-9]+\.$name \(limit 64 MiB, "
		check "$name, 64 targets in 64 MB: refused before anything ran (stdout empty)" out_empty
		need=$(figure)
		# the figure is honest: the same run where it fits peaks below it
		rm -f "$T_TMP/$name.rec"
		in_cgroup "$name-big" 512M "${args[@]}" $(targets 64)
		check "$name, 64 targets in 512 MB: exit 0 (rc $RC)" rc_is 0
		check "$name, 64 targets: the budget ($need MiB) is above the real peak ($PEAK MiB)" \
			python3 -c "import sys; sys.exit(not float(sys.argv[1]) >= float(sys.argv[2]))" \
			"$need" "$PEAK"
	else
		check "$name, 64 targets in 64 MB: ran below the limit ($PEAK MiB)" test "$PEAK" -lt 64
	fi
	rm -f "$T_TMP/$name.rec"
done

# a reader that stalls (stdout a pipe nobody reads for 10 s, 64 targets at 1 ms, a tally a
# request): the probes wait on their rings, which shrink as targets grow, so the run keeps to
# its budget (with rings of one target's size, 64 held 1.5 MiB each: a 123 MiB peak here)
stall=(-D -i 1ms -P 1 $(targets 64))
in_cgroup stall-small 64M "${stall[@]}"
need=$(figure)
check "stalled reader, 64 targets in 64 MB: refused with the figure (${need:-none})" \
	test -n "$need"
mem_cg stall 512M
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec timeout -s INT -k 5 8 "$@"' sh "$CG" \
	"$IOPROBE" "${stall[@]}" 2>"$ERR" | { sleep 10; wc -c >"$T_TMP/stall.bytes"; }
RC=${PIPESTATUS[0]}
mem_cg_read
check "stalled reader, 64 targets: stopped by the INT (rc $RC: timeout's 124)" rc_is 124
check "stalled reader, 64 targets: no OOM kill in the cgroup (${OOMS:-?})" test "${OOMS:-1}" = 0
# (how much more comes once read depends on when the stop met the full pipe: a run stopped
# while its stdout blocks gives the rest up within the second every stop has)
check "stalled reader, 64 targets: the reader really stalled it: the pipe filled ($(cat "$T_TMP/stall.bytes") B)" \
	test "$(cat "$T_TMP/stall.bytes")" -ge 60000
check "stalled reader, 64 targets: the budget (${need:-0} MiB) is above the real peak ($PEAK MiB)" \
	python3 -c "import sys; sys.exit(not float(sys.argv[1]) >= float(sys.argv[2]))" \
	"${need:-0}" "$PEAK"

# the view (-X, in tmux): its screens' share is budgeted too
if command -v tmux >/dev/null 2>&1; then
	# in_view NAME LIMIT SECONDS ARGS...: as in_cgroup, the view on a tmux terminal for at
	# most SECONDS (then TERM, a normal end); its stderr is $ERR
	in_view() {
		local secs=$3 s=ioprobe-mem-$$ i
		mem_cg "$1" "$2" || return 1
		shift 3
		rm -f "$T_TMP/view.rc"
		tmux new-session -d -s "$s" -x 200 -y 50 \
			"sh -c 'echo \$\$ >$CG/cgroup.procs && exec timeout --foreground $secs $IOPROBE $*' \
			 2>$ERR; echo \$? >$T_TMP/view.rc"
		: >"$T_TMP/view.screen"
		for i in $(seq $((secs * 10 + 50))); do
			[ -s "$T_TMP/view.rc" ] && break
			[ "$i" = $((secs * 5)) ] && tmux capture-pane -p -t "$s" >"$T_TMP/view.screen"
			sleep 0.1
		done
		tmux kill-session -t "$s" 2>/dev/null
		RC=$(cat "$T_TMP/view.rc" 2>/dev/null)
		mem_cg_read
	}
	in_view view 64M 8 -X -D -i 10ms $(targets 64)
	check "view, 64 targets in 64 MB: refused (exit 1), not killed (rc $RC)" rc_is 1
	check "view, 64 targets in 64 MB: no OOM kill in the cgroup (${OOMS:-?})" test "${OOMS:-1}" = 0
	check "view, 64 targets in 64 MB: the refusal says the figure (4.75 MiB a target)" \
		err_has "^ioprobe: 64 targets need about [0-9.]+ MiB of memory \(8 MiB for the run and 4\.75 MiB a target\)"
	need=$(figure)
	in_view view-big 512M 8 -X -D -i 10ms $(targets 64)
	check "view, 64 targets in 512 MB: ran until timeout's TERM (rc $RC: timeout's 124)" rc_is 124
	check "view, 64 targets in 512 MB: the overview was drawn (its targets' rows)" \
		test "$(grep -c "$D/f[0-9]" "$T_TMP/view.screen")" -ge 10
	check "view, 64 targets: the budget ($need MiB) is above the real peak ($PEAK MiB)" \
		python3 -c "import sys; sys.exit(not float(sys.argv[1]) >= float(sys.argv[2]))" \
		"${need:-0}" "$PEAK"
else
	echo "# no tmux here: the view's budget is not measured"
	[ "${IOPROBE_TEST_STRICT:-0}" = 1 ] && fail "view: no tmux here"
fi

# a run that fits is not refused: 16 targets in 64 MB
in_cgroup fits 64M -D -i 100ms -w 3 -P 1 -q $(targets 16)
check "16 targets in 64 MB: exit 0 (peak $PEAK MiB)" rc_is 0
check "16 targets in 64 MB: no refusal" err_empty
check "16 targets in 64 MB: every target's periods" \
	test "$(awk '{ print $NF }' "$OUT" | sort -u | grep -c "^$D/f")" = 16
# one target in 4 MB: refused, the figure for one
in_cgroup tiny 4M -D -c 1 -q "$D/f1"
check "one target in 4 MB: refused (exit 1)" rc_is 1
check "one target in 4 MB: says it needs about 9.3 MiB" \
	err_has "^ioprobe: 1 target needs about 9\.[0-9]+ MiB of memory "
finish
