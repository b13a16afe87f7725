#!/bin/bash
# The saturation verdict in the full-screen view, on the serial slow device t_verdict uses (a
# loop device over the FUSE fault disk serving one request at a time in 7 ms, about 132 writes/s
# of 256 KiB). Each scenario runs once in tmux at 160x45 (the side panel) and is then resized to
# 80x24 (the bottom panel), where every value and the verdict must stay visible: below capacity
# (keeps up, flushes not other I/O, the 't' key's response graph), above capacity (falls short,
# device saturated, "asked 200" shown, the skipped column and graph mark), a blkio throttle (wait
# above the device), background writers (other I/O, queue building), -C and write through (no
# flush expected), max_sectors_kb 128 (pieces expected, no queue building from them), and the
# preparation's progress bar on an ext4 file system on the same disk.
. "$(dirname "$0")/lib.sh"

require_cmd tmux
require_loop
require_fuse
"$IOPROBE" -h 2>/dev/null | grep -q -- '-tui' || skip "built without the full-screen view"

L=$(make_fault_disk "$T_TMP/fd" 256M --latency 7ms -s) || skip "cannot set up the FUSE disk"
N=$(basename "$L")
Q=/sys/block/$N/queue
echo "write back" >"$Q/write_cache" || skip "queue/write_cache is not writable here"
echo 1280 >"$Q/max_sectors_kb" 2>/dev/null || true
. "$(dirname "$0")/tui_lib.sh"

# view RATE [ARGS...]: the view writing 256 KiB at RATE/s with fdatasync, at 160x45.
view() {
	local rate=$1
	shift
	start 160 45 -- --tui -D -WWW -S 64m -s 256k -r "$rate" "$@" "$L"
}
small() { TM resize-window -t t -x 80 -y 24; }
# fits80: no pane line is wider than the pane (80 columns after small).
fits80() {
	local line max=0
	while IFS= read -r line; do
		[ "${#line}" -gt "$max" ] && max=${#line}
	done <"$PANE"
	[ "$max" -le 80 ]
}
quit_ok() { TM send-keys -t t q; wait_for "^EXIT=0" 10; }
# keep_pane NAME: the screen as it is now, kept for the contradiction check at the end.
keep_pane() { cap; cp "$PANE" "$T_TMP/pane-$1.txt"; }

# shows REGEX [SECONDS]: wait_for, and the pane on stdout when it never shows (check prints it).
shows() { wait_for "$1" "${2:-5}" || { cat "$PANE"; false; }; }
SKIPMARK='^       │ *s+ *(│|$)'
# shows_joined REGEX [SECONDS]: like shows, on the pane's rows joined (a wrapped verdict).
shows_joined() {
	local tries=$(( ${2:-5} * 50 ))
	while [ "$tries" -gt 0 ]; do
		cap
		tr -d '\n' <"$PANE" | grep -Eq -- "$1" && return 0
		tries=$((tries - 1))
		sleep 0.02
	done
	cat "$PANE"
	false
}

# ---- below capacity: 70/s keeps up; the fdatasync flushes are counted, not other I/O
view 70
check "70/s 160x45: rates line with the asked rate" shows "asked 70/s  got (69|7[01])(\.[0-9])?/s \((-1|0|\+1) %\)  dev" 10
check "70/s 160x45: keeps up" shows "keeps up: dev 1[34][0-9]/s \(expected 140:" 5
check "70/s 160x45: f/s and f_await" shows "│ f/s +(69|7[01])\.[0-9]+  f_await +[0-9.]+"
check "70/s 160x45: rareq-sz and wareq-sz (kB)" shows "rareq-sz +0\.00  wareq-sz +128\.00"
check "70/s 160x45: probe p50 beside the device's await" shows "await +[0-9.]+  probe p50 +[0-9.]+"
check "70/s 160x45: unit note" shows "\(ms; req-sz kB; f = flush\)"
check "70/s 160x45: not other I/O" lacks "other I/O|queue building|falls short"
check "70/s 160x45: no L=λW line" lacks "L=λW|parallel device"
check "70/s 160x45: both distributions" shows "^ response p50 [0-9.]+ ms  p90 "
TM send-keys -t t t
check "t: the graph shows response times" shows "── response time: log scale"
TM send-keys -t t t
check "t again: back to service time" shows "── latency: log scale"
small
check "70/s 80x24: the verdict stays" shows "^ keeps up: dev 1[34][0-9]/s \(expected 140" 5
check "70/s 80x24: the rates line" shows "^ asked 70/s  got (69|7[01])(\.[0-9])?/s \((-1|0|\+1) %\)  dev 1[34][0-9]/s \(expected 140\)"
check "70/s 80x24: busy, w/s, f/s and aqu-sz" shows "busy [0-9.]+%  r/s 0\.00  w/s 1[34][0-9]\.[0-9]+  f/s (69|7[01])\.[0-9]+  aqu-sz [0-9.]+"
check "70/s 80x24: awaits, wareq-sz and probe p50" shows "w_await [0-9.]+  f_await [0-9.]+  wareq-sz 128\.00  probe p50 [0-9.]+"
check "70/s 80x24: percentiles, failed and skipped" shows "^ service p50 [0-9.]+ ms .*p99 [0-9.]+ ms.*failed 0  skipped 0"
check "70/s 80x24: nothing wider than the screen" fits80
keep_pane 70-80x24
TM send-keys -t t t
check "t at 80x24: the response percentiles" shows "^ response p50 [0-9.]+ ms"
check "70/s: q quits with 0" quit_ok

# ---- above capacity: 200/s asked of a disk that does about 130 (the machine's load moves
# it: the rates below only need a shortfall of 10 % or more); the probe skips slots
view 200
check "200/s 160x45: asked 200 shown, with the shortfall" shows "asked 200/s  got [0-9]{2,3}(\.[0-9])?/s \(-[1-9][0-9] %\)  dev" 10
check "200/s 160x45: falls short, device saturated" shows "falls short: device saturated" 8
check "200/s 160x45: skipped column" shows "^ +end .* skipped +│"
check "200/s 160x45: skipped in the total row" shows "^ +total .* [1-9][0-9]* +│"
check "200/s 160x45: skipped slots marked on the graph" shows "$SKIPMARK"
check "200/s 160x45: the mark's legend" shows "x failed  s skipped  ! slow"
small
check "200/s 80x24: asked 200 and expected 400" shows "^ asked 200/s  got [0-9]{2,3}(\.[0-9])?/s \(-[1-9][0-9] %\)  dev [0-9]+/s \(expected 400\)" 5
check "200/s 80x24: falls short" shows "^ falls short: (device saturated|depth limited|probe limited): (busy|one request)" 5
check "200/s 80x24: the verdict's last clause too" shows_joined "at most [0-9]+/s at this depth" 5
check "200/s 80x24: the skipped column" shows "^ +end .* skipped$"
check "200/s 80x24: skipped in the total row" shows "^ +total .* [1-9][0-9]*$"
check "200/s 80x24: the graph mark" shows "$SKIPMARK"
check "200/s 80x24: skipped on the percentile line" shows "failed 0  skipped [1-9][0-9]*"
check "200/s 80x24: nothing wider than the screen" fits80
keep_pane 200-80x24
check "200/s: q quits with 0" quit_ok

# ---- background writers on the same device: other I/O
view 70
wait_for "keeps up" 10
start_writers "$L" 20 4000
check "writers 160x45: other I/O" shows "other I/O: dev [0-9]+/s" 6
small
check "writers 80x24: other I/O" shows "^ other I/O: dev [0-9]+/s, the probe's own" 5
# issue 24: the compound verdict (other I/O; queue building; falls short: ...) stays whole at
# 80x24 — its last clause ends right above the footer (the view leaves out what its rates line
# says, and the panel keeps the rows the verdict needs)
check "writers 80x24: the compound verdict whole, to its last clause" \
	shows_joined " other I/O: dev [0-9]+/s, the probe's own [0-9.]+/s(; queue building: [^;]*(; the probe's requests queued [^;]*)?)?; falls short: [a-z ]+: [^;│]*(at this depth|held it\)|or network) *q quit" 10
check "writers 80x24: queue building" shows_joined "queue building: (aqu-sz [0-9.]+ \(the probe's own up to 1\)|await [0-9.]+ ms, above 2 x the first intervals' [0-9.]+ ms \+ 1 ms)" 6
keep_pane writers-80x24
check "writers 80x24: nothing wider than the screen" fits80
kill "${WRITERS[@]}" 2>/dev/null
wait "${WRITERS[@]}" 2>/dev/null
check "writers: q quits with 0" quit_ok

# ---- -C (no fdatasync): 70 writes, no flushes expected
view 70 -C
check "-C 160x45: keeps up, expected 70" shows "keeps up: dev [67][0-9](\.[0-9])?/s \(expected 70:" 10
small
check "-C 80x24: keeps up, expected 70 = 1 piece" shows_joined "keeps up: dev [67][0-9](\.[0-9])?/s \(expected 70: 1 piece per request\)" 5
check "-C: q quits with 0" quit_ok

# ---- write cache "write through": the kernel drops the PREFLUSH, no flush expected
echo "write through" >"$Q/write_cache"
view 70
check "write through 160x45: keeps up, expected 70" shows "keeps up: dev [67][0-9](\.[0-9])?/s \(expected 70:" 10
small
check "write through 80x24: f/s 0" shows "f/s 0\.00"
check "write through 80x24: expected 70 = 1 piece" shows_joined "\(expected 70: 1 piece per request\)" 5
check "write through: q quits with 0" quit_ok
echo "write back" >"$Q/write_cache"

# ---- max_sectors_kb 128 and 512 KiB requests at 20/s: 4 pieces + 1 flush each, no queue
# building from the pieces alone
if echo 128 >"$Q/max_sectors_kb"; then
	start 160 45 -- --tui -D -WWW -S 64m -s 512k -r 20 "$L"
	check "max 128 160x45: keeps up, expected 100 = 20 x (4 + 1)" \
		shows "keeps up: dev (9[0-9](\.[0-9])?|10[0-9])/s \(expected 100:" 10
	small
	check "max 128 80x24: expected 100" shows_joined "\(expected 100: 4 pieces \+ 1 flush per request\)" 5
	check "max 128: no queue building" lacks "queue building"
	check "max 128: q quits with 0" quit_ok
	echo 1280 >"$Q/max_sectors_kb" 2>/dev/null || true
else
	fail "queue/max_sectors_kb is not writable here"
fi

# ---- a throttle above the device: cgroup v2 io.max where the io controller is there, else v1 blkio
MAJMIN=$(cat "/sys/block/$N/dev")
CG=
if grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	CG=/sys/fs/cgroup/ioprobe-tui-verdict.$$
	echo +io >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
	mkdir "$CG" && echo "$MAJMIN wiops=30" >"$CG/io.max" || CG=
elif [ -e /sys/fs/cgroup/blkio/blkio.throttle.write_iops_device ]; then
	CG=/sys/fs/cgroup/blkio/ioprobe-tui-verdict.$$
	mkdir "$CG" && echo "$MAJMIN 30" >"$CG/blkio.throttle.write_iops_device" || CG=
fi
if [ -n "$CG" ]; then
	at_exit 'stop_server; rmdir "$CG" 2>/dev/null'
	# the tmux server (and so ioprobe) starts in the cgroup
	(echo "$BASHPID" >"$CG/cgroup.procs" && view 70)
	check "throttle 160x45: falls short, wait above the device" \
		shows "falls short: wait above the" 10
	small
	check "throttle 80x24: wait above the device" \
		shows "^ falls short: wait above the device: probe mean [0-9.]+ ms against" 5
	check "throttle 80x24: the probe's p50 far above the device's await" \
		shows "probe p50 [0-9]{2,}\.[0-9]+"
	keep_pane throttle-80x24
	check "throttle: q quits with 0" quit_ok
	stop_server
	rmdir "$CG" 2>/dev/null
else
	fail "no cgroup I/O throttle here (neither io.max nor blkio.throttle)"
fi

# ---- preparation: an ext4 file system on the slow disk, -S 160m filled before the run
if command -v mkfs.ext4 >/dev/null 2>&1; then
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=1,lazy_journal_init=1 "$L" >/dev/null 2>&1
	mkdir -p "$T_TMP/mnt"
	if mount "$L" "$T_TMP/mnt"; then
		T_MOUNTS+=("$T_TMP/mnt")
		at_exit 'stop_server; umount "$T_TMP/mnt" 2>/dev/null'
		start 80 24 -- --tui -S 160m -s 1m -r 20 "$T_TMP/mnt"
		check "prep: the view is up while the working set is filled" \
			shows "preparing the working set" 5
		check "prep: a bar with MiB done, the total and the rate" \
			shows "[0-9.]+ MiB of 160 MiB \([0-9.]+ [KMG]?i?B/s\)" 5
		check "prep: the bar" shows "^ +\[█+ *\] +[0-9]+%"
		check "prep: then the run" shows "── periods" 20
		check "prep: q quits with 0" quit_ok
		start 80 24 -- --tui -S 160m -s 1m -r 20 "$T_TMP/mnt"
		wait_for "preparing the working set" 5
		TM send-keys -t t q
		check "prep: q while preparing ends it (exit 2)" shows "^EXIT=2" 10
		check "prep: the terminal is restored" terminal_restored
		check "prep: the message reaches stderr" grep -q "^ioprobe: interrupted while preparing" "$ERR"
		stop_server
		umount "$T_TMP/mnt"
	else
		fail "cannot mount ext4 on $L"
	fi
else
	skip "needs mkfs.ext4"
fi
# every pane kept above: no verdict contradicts the numbers of the rates line above it
check "the view: no verdict contradicts the rates beside it (every kept pane)" \
	python3 "$SRCDIR/tests/integration/verdict_check.py" "$T_TMP"/pane-*.txt

finish
