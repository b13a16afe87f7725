#!/bin/bash
# --record and --report onto a file system that hangs (ext4, mounted -o sync, on a loop
# device over the FUSE fault disk: every write of the recording goes to the disk at once)
# or is full (a tiny tmpfs). The file is created, written and closed by a process of its
# own, so a stop signal ends the run within 1 s although that process sits in the hung
# request (the process that owns stdout and the exit code holds nothing on that disk),
# saying the recording could not be finished, exit 3; a full file system is said and
# exits 3 too. Once the disk answers again the file's process ends.
. "$(dirname "$0")/lib.sh"

require_fuse
require_loop
require_cmd mkfs.ext4

M=$T_TMP/hang
DEV=$(make_fault_disk "$M" 64M) || { fail "mount faultdisk"; finish; }
mkfs.ext4 -q -F "$DEV" >/dev/null 2>&1 || { fail "mkfs.ext4 on the fault disk"; finish; }
MNT=$T_TMP/mnt
mkdir -p "$MNT" "$T_TMP/probe"
mount -o sync "$DEV" "$MNT" || { fail "mount ext4 -o sync"; finish; }
at_exit 'fault_ctl "$M" "hang 0"; sleep 0.2; umount "$MNT" 2>/dev/null || umount -l "$MNT"'
P=$T_TMP/probe # the probe's own target: healthy (the null engine), only the file hangs

# hang_run SIG ARGS...: run ioprobe ARGS on $P, let it record, hang the disk, wait until a
# request sits in the FUSE server, send SIG. Sets RC and DT (ms from the signal to the
# exit); stderr in $ERR. A run that does not end within 5 s is released (hang 0) first.
hang_run() {
	local sig=$1 pid t0
	shift
	fault_ctl "$M" "hang 0"
	"$IOPROBE" "$@" "$P" >"$OUT" 2>"$ERR" &
	pid=$!
	BG+=("$pid")
	wait_caught "$pid" 15 5
	sleep 0.5
	fault_ctl "$M" "hang 1"
	wait_fault "$M" hung_now 1 5
	sleep 0.3
	t0=$(now_ms)
	kill "-$sig" "$pid"
	wait_exit "$pid" 5 || fault_ctl "$M" "hang 0"
	DT=$(($(now_ms) - t0))
	wait "$pid"
	RC=$?
}

# hang_released PATTERN NAME: hang 0; the file's process must end then.
hang_released() {
	fault_ctl "$M" "hang 0"
	check "$2: once the disk answers, no ioprobe process is left" wait_ioprobe_gone "$1"
}

## 1. --record --record-requests, SIGINT while the recording's write hangs
hang_run INT --engine=null -i 10ms -q --record "$MNT/a.jsonl" --record-requests
check "--record on a hung disk: SIGINT ends the run within 1 s (${DT} ms)" test "$DT" -le 1000
check "--record on a hung disk: exit 3" rc_is 3
check "--record on a hung disk: says the recording could not be finished" \
	err_has '^ioprobe: --record: ".*a.jsonl": a request did not complete within 0.5 s of the stop \(the disk hangs\); given up; the recording could not be finished$'
check "--record on a hung disk: nothing but ioprobe: lines on stderr" err_prefixed
hang_released "$P" "--record (SIGINT)"

## 2. the same with --report and a .gz name, SIGTERM: the report is not written
hang_run TERM --engine=null -i 10ms -q --record "$MNT/b.jsonl.gz" --record-requests \
	--report "$MNT/b.html"
check "--record --report on a hung disk: SIGTERM ends the run within 1 s (${DT} ms)" \
	test "$DT" -le 1000
check "--record --report on a hung disk: exit 3" rc_is 3
check "--record --report on a hung disk: the recording could not be finished" \
	err_has 'b.jsonl.gz": a request did not complete .*; the recording could not be finished$'
check "--record --report on a hung disk: the report is said not written" \
	err_has '^ioprobe: --report: ".*b.html" is not written: the recording it is drawn from could not be finished$'
hang_released "$P" "--record --report (SIGTERM)"
sleep 0.3
check "--record --report on a hung disk: the empty report removed once the disk answers" \
	test ! -e "$MNT/b.html"

## 2b. the probe's own target on that disk too (a directory): its request and the recording
## hang together; both are given up 0.5 s after the signal, not one after the other
hang_run_on() { P=$1; shift; hang_run "$@"; P=$T_TMP/probe; }
hang_run_on "$MNT" TERM -i 10ms -S 4m --record "$MNT/d.jsonl" --record-requests
check "probe and recording on the hung disk: SIGTERM ends the run within 1 s (${DT} ms)" \
	test "$DT" -le 1000
check "probe and recording on the hung disk: exit 3, both said" \
	eval 'rc_is 3 && err_has "d.jsonl\": a request did not complete .*; the recording could not be finished$" && err_has "in flight \(hung [0-9.]+ s\) at the stop"'
hang_released "$MNT" "probe and recording on the hung disk"

## 3. the disk hangs before the run: the recording's creation hangs; SIGINT gives it up
fault_ctl "$M" "hang 1"
"$IOPROBE" --engine=null -i 10ms -q --record "$MNT/c.jsonl" "$P" >"$OUT" 2>"$ERR" &
pid=$!
BG+=("$pid")
wait_caught "$pid" 15 5
wait_fault "$M" hung_now 1 5
sleep 0.3
t0=$(now_ms)
kill -INT "$pid"
wait_exit "$pid" 5 || fault_ctl "$M" "hang 0"
DT=$(($(now_ms) - t0))
wait "$pid"
RC=$?
check "--record created on a hung disk: SIGINT ends it within 1 s (${DT} ms)" test "$DT" -le 1000
check "--record created on a hung disk: exit 2 (the preparation)" rc_is 2
check "--record created on a hung disk: says so" \
	err_has '^ioprobe: --record: ".*c.jsonl": a request did not complete within 0.5 s of the stop'
hang_released "$P" "--record created on a hung disk"

## 4. a full file system: said, exit 3 (the run goes on and ends as asked)
F=$T_TMP/full
mkdir -p "$F"
mount -t tmpfs -o size=64k tmpfs "$F" || { fail "mount tmpfs"; finish; }
register_mount "$F"
probe --engine=null -i 1ms -c 1500 -q --record "$F/full.jsonl" --record-requests "$P"
check "--record on a full file system: stderr is not empty" test -s "$ERR"
check "--record on a full file system: the failure said as it happens" \
	err_has '^ioprobe: --record: cannot write ".*full.jsonl": No space left on device; the run goes on without it$'
check "--record on a full file system: the unfinished recording said at the end" \
	err_has 'full.jsonl": No space left on device; the recording could not be finished$'
check "--record on a full file system: exit 3" rc_is 3
rm -f "$F/full.jsonl"
probe --engine=null -i 1ms -c 1500 -q --record "$F/full2.jsonl" --record-requests \
	--report "$F/full2.html" "$P"
check "--record --report on a full file system: exit 3, the report not written" \
	eval 'rc_is 3 && err_has "full2.html\" is not written" && [ ! -e "$F/full2.html" ]'

## 5. a healthy recording on that same ext4 still replays as the run printed it
fold() { sed -E -e 's/"timestamp": ?[0-9.]+/"timestamp": T/' "$1"; }
probe --engine=null -i 5ms -w 2.5 -q --record "$MNT/ok.jsonl" "$P"
cp "$OUT" "$T_TMP/ok.live"
check "a recording on the ext4: exit 0, nothing on stderr, a summary" \
	eval 'rc_is 0 && err_empty && out_has "requests completed"'
probe --replay "$MNT/ok.jsonl"
check "a recording on the ext4: --replay prints the live summary (exit 0)" \
	eval 'rc_is 0 && [ -s "$OUT" ] && diff <(fold "$T_TMP/ok.live") <(fold "$OUT")'

finish
