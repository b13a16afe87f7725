# Shared helpers for ioprobe's integration tests (sourced by each t_*.sh).
#
# Each test script is run by meson as:  t_name.sh /path/to/build/ioprobe /path/to/source
# It prints one line per check ("ok - ..." / "FAIL - ...") and exits 0 when
# every check passed, 1 when any failed, 77 when it cannot run here (no root,
# no loop devices, ...). With IOPROBE_TEST_STRICT=1 (set by .ci/run) a skip is
# a failure, so nothing silently stops being tested.
#
# Everything a test creates (temp dirs, loop devices, mounts) is undone by an
# EXIT trap, also when the test fails or is interrupted.

set -u

IOPROBE=${1:?usage: $0 /path/to/ioprobe [source-dir]}
IOPROBE=$(readlink -f "$IOPROBE")
# the source tree (meson passes it; default: two levels above this file)
SRCDIR=$(readlink -f "${2:-$(dirname "${BASH_SOURCE[0]}")/../..}")
export LC_ALL=C.UTF-8 TZ=UTC

T_PASS=0
T_FAIL=0
T_LOOPS=()
T_MOUNTS=()
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ioprobe-test.XXXXXX")
OUT=$T_TMP/out
ERR=$T_TMP/err
RC=0

t_cleanup() {
	local m l
	# the loop devices first, while their backing files are still where they were made:
	# a loop over a file on a tmpfs of the test, unmounted first (lazily, the loop holding
	# it), is then bound to "/NAME" and was never detached (the /d1 ... /d8 and /fast.img
	# loops left after every CI run). A loop still mounted is detached when unmounted below.
	for l in "${T_LOOPS[@]}"; do
		losetup -d "$l" 2>/dev/null
	done
	# devices made inside $(...) subshells are only in this file; detach each one
	# only while it is still bound to our backing file (never someone else's)
	if [ -f "$T_TMP/loops" ]; then
		local f
		while read -r l f; do
			[ "$(losetup -n -O BACK-FILE "$l" 2>/dev/null)" = "$f" ] &&
				losetup -d "$l" 2>/dev/null
		done <"$T_TMP/loops"
	fi
	for m in "${T_MOUNTS[@]}"; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	rm -rf "$T_TMP"
}

# ---- what runs at exit ----
# at_exit CMD: run CMD (eval'd then, so its variables are read then) when the test exits,
# also when it fails or is interrupted. The commands run last registered first, then the
# FUSE disks are released (t_cleanup_fuse) and the loop devices, mounts and temp dir go
# (t_cleanup). Every test file registers here instead of setting its own EXIT trap.
T_AT_EXIT=()
at_exit() { T_AT_EXIT+=("$1"); }
t_exit() {
	local i
	for ((i = ${#T_AT_EXIT[@]} - 1; i >= 0; i--)); do
		eval "${T_AT_EXIT[i]}"
	done
	t_cleanup_fuse
	t_cleanup
}
trap t_exit EXIT
trap 'exit 130' INT TERM HUP

# BG: the pids of background ioprobe runs a test starts (BG+=("$!"), or BG=$! for one);
# bg_cleanup kills what is left of them at exit, stop_bg at once (and forgets them).
BG=()
bg_cleanup() {
	local p
	for p in "${BG[@]}"; do
		[ -n "$p" ] && kill -KILL "$p" 2>/dev/null
	done
}
stop_bg() { bg_cleanup; BG=(); }
at_exit bg_cleanup

# skip REASON: this script cannot run here.
skip() {
	if [ "${IOPROBE_TEST_STRICT:-0}" = 1 ]; then
		echo "FAIL - required but unavailable (IOPROBE_TEST_STRICT=1): $*"
		exit 1
	fi
	echo "SKIP - $*"
	exit 77
}

require_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
require_cmd() { command -v "$1" >/dev/null 2>&1 || skip "needs $1"; }
require_loop() {
	require_root
	require_cmd losetup
	[ -e /dev/loop-control ] || skip "needs loop devices (/dev/loop-control)"
}

# loop_fresh DEV: a fresh loop device's queue settings on DEV (write back, max_sectors_kb
# 1280 or the hardware's, nr_requests its tags). The kernel keeps a loop number's settings across detach and
# attach, so a test that left its device write-through or with small requests changed the
# next test's device (a write-through loop has no flushes: t_verdict's throttle then never
# throttled).
loop_fresh() {
	local q=/sys/block/${1#/dev/}/queue hw tags

	echo "write back" >"$q/write_cache" 2>/dev/null
	hw=$(cat "$q/max_hw_sectors_kb" 2>/dev/null) &&
		echo $((hw < 1280 ? hw : 1280)) >"$q/max_sectors_kb" 2>/dev/null
	# a queue a test made shallow (nr_requests 4) stays so on the device it leaves behind:
	# the next test's depth 8 then measured aqu-sz 4
	tags=$(cat "/sys/block/${1#/dev/}/mq/0/nr_tags" 2>/dev/null) &&
		echo "$tags" >"$q/nr_requests" 2>/dev/null
	return 0
}

# make_loop SIZE [FILE]: a loop device over a new sparse file, with fresh settings
# (loop_fresh); prints its path. Safe inside $(...): the device is also recorded in
# $T_TMP/loops for cleanup.
make_loop() {
	local size=$1 file=${2:-$T_TMP/disk.$RANDOM.img} dev
	truncate -s "$size" "$file" || return 1
	dev=$(losetup -f --show "$file") || return 1
	loop_fresh "$dev"
	T_LOOPS+=("$dev")
	echo "$dev $(readlink -f "$file")" >>"$T_TMP/loops"
	echo "$dev"
}

# start_writers DEV SECONDS COUNT: "other I/O" on DEV — four dd writers of COUNT
# 256 KiB direct writes each (from 64 MiB on, 32 MiB apart), each stopped after
# SECONDS at the latest, in the background; their pids in WRITERS.
start_writers() {
	local i
	WRITERS=()
	for i in 0 1 2 3; do
		timeout "$2" dd if=/dev/zero of="$1" bs=256k oflag=direct seek=$((256 + i * 128)) \
			count="$3" status=none 2>/dev/null &
		WRITERS+=($!)
	done
}

# register_mount DIR: unmount DIR at exit.
register_mount() { T_MOUNTS=("$1" "${T_MOUNTS[@]}"); }

# probe ARGS...: run ioprobe, stdout in $OUT, stderr in $ERR, status in $RC.
probe() {
	timeout -k 5 60 "$IOPROBE" "$@" >"$OUT" 2>"$ERR"
	RC=$?
}

# voluntary_switches CMD...: run CMD (output discarded); prints how many
# times it gave up the CPU to wait (getrusage's ru_nvcsw).
voluntary_switches() {
	python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_nvcsw)' "$@"
}

pass() { T_PASS=$((T_PASS + 1)); echo "ok - $*"; }
T_FAILED=()
fail() {
	T_FAIL=$((T_FAIL + 1))
	T_FAILED+=("$*")
	echo "FAIL - $*"
	echo "  --- stdout:"; sed 's/^/  | /' "$OUT" 2>/dev/null | head -40
	echo "  --- stderr:"; sed 's/^/  | /' "$ERR" 2>/dev/null | head -20
	echo "  --- status: $RC"
}

# check DESC CMD...: pass when CMD succeeds. Inside an attempt of `attempts`, the
# result is held until the attempt ends.
check() {
	local desc=$1
	shift
	if "$@"; then
		if [ "$T_TRYING" = 1 ]; then T_TRY_PASSED+=("$desc"); else pass "$desc"; fi
	elif [ "$T_TRYING" = 1 ]; then
		T_TRY_FAILS=$((T_TRY_FAILS + 1))
		echo "# missed - $desc"
		sed 's/^/#  | /' "$OUT" 2>/dev/null | head -20
	else
		fail "$desc"
	fi
}

# attempts N FN [ARGS...]: FN measures something on this machine (a rate, a
# latency, a queue) and checks it. A busy or slow moment of the machine can push
# one measurement out of its window, so when any of FN's checks misses, FN runs
# again, N runs at most; only the last run's checks count. Each miss is shown
# ("# missed - ..."), so a check that needs retries is visible in the log. FN
# must set up whatever it changes, so that each run starts alike.
T_TRYING=0
attempts() {
	local n=$1 i d
	shift
	for ((i = 1; i < n; i++)); do
		T_TRY_FAILS=0
		T_TRY_PASSED=()
		T_TRYING=1
		"$@"
		T_TRYING=0
		if [ "$T_TRY_FAILS" = 0 ]; then
			for d in "${T_TRY_PASSED[@]}"; do pass "$d"; done
			return 0
		fi
		echo "# attempt $i of $n: $T_TRY_FAILS check(s) missed; measuring again"
	done
	"$@"
}

# Assertions on the last probe run.
rc_is() { [ "$RC" = "$1" ]; }
out_has() { grep -Eq -- "$1" "$OUT"; }
err_has() { grep -Eq -- "$1" "$ERR"; }
out_lacks() { ! grep -Eq -- "$1" "$OUT"; }
err_empty() { [ ! -s "$ERR" ]; }
out_empty() { [ ! -s "$OUT" ]; }
out_lines() { [ "$(wc -l <"$OUT")" = "$1" ]; }
# Every stderr line starts with "ioprobe: ".
err_prefixed() { ! grep -qv '^ioprobe: ' "$ERR" && [ -s "$ERR" ]; }
# Only lines that are ioprobe messages, a blank line, or the usage text.
err_prefixed_or_usage() { head -1 "$ERR" | grep -q '^ioprobe: '; }
json_valid() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT" 2>/dev/null; }

# finish: print the closing count and exit with the script's status.
# The failed checks are named again last: a log cut to its tail still says which failed.
finish() {
	local d
	for d in "${T_FAILED[@]}"; do echo "# failed: $d"; done
	echo "$T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" = 0 ]
	exit $?
}

# ---- helpers shared by the t_* scripts (appended) ----

# ioping_run ARGS...: run ioping 1.3 like probe: stdout in $IOUT, stderr in $IERR, status in $IRC.
# argv[0] is "ioping", so glibc's getopt messages say "ioping: " as from $PATH.
IOPING=${IOPING:-/usr/bin/ioping}
IOUT=$T_TMP/ioping.out
IERR=$T_TMP/ioping.err
IRC=0
ioping_run() {
	timeout -k 5 60 bash -c 'exec -a ioping "$0" "$@"' "$IOPING" "$@" >"$IOUT" 2>"$IERR"
	IRC=$?
}

# probe_as USER ARGS...: probe, run as USER (its own group, no supplementary groups).
probe_as() {
	local user=$1 group
	shift
	group=$(id -gn "$user")
	timeout -k 5 60 setpriv --reuid="$user" --regid="$group" --clear-groups \
		"$IOPROBE" "$@" >"$OUT" 2>"$ERR"
	RC=$?
}

# sha FILE: sha256 of a file's (or a device's) content.
sha() { sha256sum <"$1" | cut -d' ' -f1; }

# now_ms: wall-clock time in milliseconds (bash's EPOCHREALTIME), for measuring durations.
now_ms() { local us=${EPOCHREALTIME/[.,]/}; echo $((us / 1000)); }

# wait_lines FILE REGEX N [SECONDS]: poll (10 ms) until FILE has N lines matching
# REGEX; fails after SECONDS (default 10).
wait_lines() {
	local file=$1 re=$2 n=$3 tries=$(( ${4:-10} * 100 ))
	while [ "$tries" -gt 0 ]; do
		[ "$(grep -Ec -- "$re" "$file" 2>/dev/null)" -ge "$n" ] && return 0
		tries=$((tries - 1))
		sleep 0.01
	done
	return 1
}

# wait_caught PID SIGNUM [SECONDS]: poll until PID has installed a handler for SIGNUM
# (SigCgt in /proc/PID/status); fails when PID is gone or after SECONDS (default 10).
wait_caught() {
	local pid=$1 sig=$2 tries=$(( ${3:-10} * 100 )) mask
	while [ "$tries" -gt 0 ]; do
		mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
		[ -n "$mask" ] || return 1
		(( (16#$mask >> (sig - 1)) & 1 )) && return 0
		tries=$((tries - 1))
		sleep 0.01
	done
	return 1
}

# wait_exit PID [SECONDS]: poll until PID (a child of this shell) has exited.
wait_exit() {
	local pid=$1 tries=$(( ${2:-10} * 100 ))
	while [ "$tries" -gt 0 ]; do
		kill -0 "$pid" 2>/dev/null || return 0
		tries=$((tries - 1))
		sleep 0.01
	done
	return 1
}

# ioprobe_left PATTERN: pids of ioprobe processes whose command line ends with PATTERN.
ioprobe_left() { pgrep -f -- "^$IOPROBE .*$1\$" || true; }

# wait_ioprobe_gone PATTERN: poll (10 ms, at most 5 s) until no such process is left; its
# status says whether none is.
wait_ioprobe_gone() {
	local tries=500
	while [ -n "$(ioprobe_left "$1")" ] && [ "$tries" -gt 0 ]; do
		sleep 0.01
		tries=$((tries - 1))
	done
	[ -z "$(ioprobe_left "$1")" ]
}

# tree_state DIR: names, types, modes and file contents under DIR (to spot leftovers and changes).
tree_state() {
	(cd "$1" && find . -printf '%y %m %s %p\n' | sort && find . -type f -exec sha256sum {} + | sort)
}

# ---- the fault-injecting FUSE disk (tests/fixtures/faultdisk.c) ----
#
# make_fault_disk mounts faultdisk (meson passes its path in IOPROBE_FAULTDISK)
# and attaches a loop device over DIR/disk. Each mount is recorded in T_FUSE and,
# for calls made inside $(...), in $T_FUSE_LIST ("PID DIR" lines), each loop
# device in T_LOOPS and $T_FUSE_LOOPS ("DEV DIR"). At exit
# t_cleanup_fuse releases hung requests, detaches the loop devices over the
# disks, unmounts (lazily if needed) and stops the faultdisk processes; it
# runs before t_cleanup and may also be called earlier (it is idempotent).

IOPROBE_FAULTDISK=${IOPROBE_FAULTDISK:-}
T_FUSE=()
T_FUSE_LIST=$T_TMP/faultdisk.list
T_FUSE_LOOPS=$T_TMP/faultdisk.loops

# require_fuse: skip unless faultdisk can be mounted here.
require_fuse() {
	require_root
	[ -c /dev/fuse ] || skip "needs /dev/fuse"
	command -v fusermount3 >/dev/null 2>&1 || command -v umount >/dev/null 2>&1 ||
		skip "needs fusermount3 or umount"
	if [ -z "$IOPROBE_FAULTDISK" ] || [ ! -x "$IOPROBE_FAULTDISK" ]; then
		skip "needs the faultdisk fixture (IOPROBE_FAULTDISK=build/tests/faultdisk)"
	fi
}

# make_fault_disk DIR SIZE [faultdisk options...]: mount faultdisk at DIR (created
# if missing), attach a loop device over DIR/disk and print the device's path.
make_fault_disk() {
	local dir=$1 size=$2 pid dev tries=500
	shift 2
	mkdir -p "$dir" && dir=$(readlink -f "$dir") || return 1
	"$IOPROBE_FAULTDISK" "$dir" --size "$size" "$@" -f \
		</dev/null >>"$T_TMP/faultdisk.log" 2>&1 &
	pid=$!
	T_FUSE+=("$dir")
	echo "$pid $dir" >>"$T_FUSE_LIST"
	while [ ! -e "$dir/disk" ]; do
		if [ "$tries" -le 0 ] || ! kill -0 "$pid" 2>/dev/null; then
			echo "make_fault_disk: faultdisk did not come up at $dir:" >&2
			tail -5 "$T_TMP/faultdisk.log" >&2
			return 1
		fi
		tries=$((tries - 1))
		sleep 0.01
	done
	dev=$(losetup -f --show "$dir/disk") || return 1
	loop_fresh "$dev"
	T_LOOPS+=("$dev")
	echo "$dev $dir" >>"$T_FUSE_LOOPS"
	echo "$dev"
}

# fault_ctl DIR COMMAND: send a command to the faultdisk mounted at DIR.
fault_ctl() { echo "$2" >"$1/ctl"; }

# fault_get DIR NAME: a setting or counter of the faultdisk at DIR (from DIR/ctl).
fault_get() { awk -v k="$2" '$1 == k { print $2 }' "$1/ctl"; }

# wait_fault DIR NAME MIN [SECONDS]: poll (10 ms) until counter NAME is >= MIN;
# fails after SECONDS (default 5).
wait_fault() {
	local v tries=$(( ${4:-5} * 100 ))
	while [ "$tries" -gt 0 ]; do
		v=$(fault_get "$1" "$2" 2>/dev/null)
		[ -n "$v" ] && [ "$v" -ge "$3" ] && return 0
		tries=$((tries - 1))
		sleep 0.01
	done
	return 1
}

# fault_pid DIR: the pid of the faultdisk process mounted at DIR.
fault_pid() {
	local dir pid d
	dir=$(readlink -f "$1")
	[ -f "$T_FUSE_LIST" ] || return 1
	while read -r pid d; do
		[ "$d" = "$dir" ] && echo "$pid" && return 0
	done <"$T_FUSE_LIST"
	return 1
}

# t_fuse_loops DIR...: the loop devices over DIR/disk, also those made by
# make_fault_disk once the mount is gone (the kernel then names the file "/disk").
t_fuse_loops() {
	local name back d
	while read -r name back; do
		for d in "$@"; do
			if [ "$back" = "$d/disk" ] || { [ "$back" = /disk ] && [ -f "$T_FUSE_LOOPS" ] &&
				grep -qxF "$name $d" "$T_FUSE_LOOPS"; }; then
				echo "$name"
				break
			fi
		done
	done < <(losetup -nl -O NAME,BACK-FILE 2>/dev/null)
}

t_cleanup_fuse() {
	local dirs=() pids=() pid d l tries rest=() exe gone
	[ -f "$T_FUSE_LIST" ] && while read -r pid d; do
		pids+=("$pid")
		dirs+=("$d")
	done <"$T_FUSE_LIST"
	dirs+=("${T_FUSE[@]}")
	[ "${#dirs[@]}" -gt 0 ] || return 0
	# release hung requests (a dead mount answers ENOTCONN at once)
	for d in "${dirs[@]}"; do
		timeout -k 1 2 bash -c 'echo "hang 0" >"$1/ctl"' _ "$d" 2>/dev/null
	done
	# loop devices first: the kernel drops the backing file on the last close
	gone=$(t_fuse_loops "${dirs[@]}")
	for l in $gone; do
		losetup -d "$l" 2>/dev/null
	done
	tries=300
	while [ -n "$(t_fuse_loops "${dirs[@]}")" ] && [ "$tries" -gt 0 ]; do
		tries=$((tries - 1))
		sleep 0.01
	done
	# t_cleanup must not detach them again (the name may have a new owner by then)
	for l in "${T_LOOPS[@]}"; do
		case " ${gone//$'\n'/ } " in *" $l "*) continue ;; esac
		losetup "$l" >/dev/null 2>&1 && rest+=("$l")
	done
	T_LOOPS=("${rest[@]}")
	# then the mounts; lazily when still busy or dead
	for d in "${dirs[@]}"; do
		grep -qF " ${d// /\\040} fuse" /proc/mounts || continue
		fusermount3 -u "$d" 2>/dev/null || umount "$d" 2>/dev/null || umount -l "$d" 2>/dev/null
	done
	# then the daemons: they end after the unmount; TERM, then KILL, the rest
	exe=$(readlink -f "$IOPROBE_FAULTDISK" 2>/dev/null)
	for pid in "${pids[@]}"; do
		tries=200
		while [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$exe" ]; do
			case $tries in
			100) kill -TERM "$pid" 2>/dev/null ;;
			0) kill -KILL "$pid" 2>/dev/null; break ;;
			esac
			tries=$((tries - 1))
			sleep 0.01
		done
	done
	T_FUSE=()
	: >"$T_FUSE_LIST"
	: >"$T_FUSE_LOOPS"
}

# offsets FILE: the io.offset of every request object in a JSON output, one per line.
offsets() {
	python3 -c '
import json, sys
for o in json.load(open(sys.argv[1])):
    if "io" in o:
        print(o["io"]["offset"])' "$1"
}

# offsets_ok FILE SIZE OFF WSIZE: every JSON io.offset in FILE is OFF + k*SIZE and the request
# fits in [OFF, OFF+WSIZE).
offsets_ok() {
	python3 -c '
import json, sys
size, off, ws = map(int, sys.argv[2:5])
offs = [o["io"]["offset"] for o in json.load(open(sys.argv[1])) if "io" in o]
bad = [x for x in offs if (x - off) % size or x < off or x + size > off + ws]
sys.exit(1 if bad or not offs else 0)' "$@"
}

# fold_shape FILE: the output with every number and its unit folded to N, so runs that differ
# only in timings compare equal.
fold_shape() {
	sed -E 's/[0-9]+(\.[0-9]+)?( (ns|us|ms|s|min|hour|k|M|G|T|B|KiB|MiB|GiB|TiB)\b)?/N/g' "$1"
}
