#!/bin/bash
# Filesystem-level failures on real (loop-backed) filesystems: ENOSPC while filling the
# working set, a read-only filesystem, permission denied, and signals during a long
# preparation. Each must give its message and exit code and leave nothing behind.
. "$(dirname "$0")/lib.sh"

require_loop
require_cmd mkfs.ext4

# a small ext4 filesystem: 8 MiB
L=$(make_loop 8M)
mkfs.ext4 -q -F "$L" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
M=$T_TMP/mnt
mkdir "$M"
mount "$L" "$M" || skip "cannot mount ext4 on a loop device"
register_mount "$M"

# ENOSPC: a 64 MiB working set in an 8 MiB filesystem.
probe -S 64m -c 1 "$M"
check "ENOSPC: exit 2" rc_is 2
check "ENOSPC: message" err_has '^ioprobe: preparation write failed: No space left on device$'
check "ENOSPC: stdout empty" out_empty
check "ENOSPC: no temp file left" test -z "$(ls -A "$M" | grep -v lost+found)"
check "ENOSPC: space given back" test "$(df --output=used -k "$M" | tail -1)" -lt 2048
probe -k -S 64m -c 1 "$M"
check "ENOSPC with -k: exit 2" rc_is 2
check "ENOSPC with -k: the half-written ioprobe.tmp is removed" test ! -e "$M/ioprobe.tmp"

# Permission denied: a directory that nobody may write, probed as nobody.
mkdir "$M/locked" && chmod 755 "$M/locked"
chmod 711 "$T_TMP" # nobody may pass through, not list or write
if command -v setpriv >/dev/null; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$IOPROBE" -c 1 "$M/locked" >"$OUT" 2>"$ERR"
	RC=$?
	check "permission denied: exit 2" rc_is 2
	check "permission denied: message" \
		err_has "^ioprobe: failed to create temporary file at \"$M/locked\": Permission denied$"
	head -c 1M /dev/urandom >"$M/secret" && chmod 600 "$M/secret"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$IOPROBE" -c 1 "$M/secret" >"$OUT" 2>"$ERR"
	RC=$?
	check "unreadable file: exit 2" rc_is 2
	check "unreadable file: message" err_has "^ioprobe: failed to open \"$M/secret\": Permission denied$"
fi

# Read-only filesystem: -W in a directory needs its temp file; a file target cannot be
# opened for writing; reading still works.
head -c 1M /dev/urandom >"$M/data"
sum_before=$(sha256sum "$M/data")
mount -o remount,ro "$M" || skip "cannot remount read-only"
probe -W -c 1 "$M"
check "read-only fs, -W in a directory: exit 2" rc_is 2
check "read-only fs: says read-only" err_has 'Read-only file system$'
probe -WWW -c 1 "$M/data"
check "read-only fs, -WWW on a file: exit 2" rc_is 2
check "read-only fs, file: message" err_has "^ioprobe: failed to open \"$M/data\": Read-only file system$"
probe -c 2 -i 0 "$M/data"
check "read-only fs: reading a file works" rc_is 0
check "read-only fs: data unchanged" test "$(sha256sum "$M/data")" = "$sum_before"
# The mounted device itself (still read-only, so the fs writes nothing by itself):
# -WWW refused (O_EXCL), data unchanged.
dev_before=$(sha256sum <"$L")
probe -WWW -c 1 "$L"
check "mounted device, -WWW: exit 2" rc_is 2
check "mounted device: device is busy" err_has 'device is busy'
sync
check "mounted device: data unchanged" test "$(sha256sum <"$L")" = "$dev_before"

mount -o remount,rw "$M"

# Signals during a long preparation (a 1 GiB fill on the big disk): clean end, exit 2,
# message, nothing left behind — for INT, TERM and HUP, with and without -k.
D=$T_TMP/prep
mkdir "$D"
for sig in INT TERM HUP; do
	for keep in "" -k; do
		"$IOPROBE" $keep -S 1g -c 1 "$D" >"$OUT" 2>"$ERR" &
		pid=$!
		sleep 0.3
		kill -"$sig" "$pid"
		wait "$pid"
		RC=$?
		check "SIG$sig ${keep:-(no -k)} during preparation: exit 2" rc_is 2
		check "SIG$sig ${keep:-(no -k)}: message" \
			err_has '^ioprobe: interrupted while preparing the working set; nothing was measured$'
		check "SIG$sig ${keep:-(no -k)}: nothing left in the directory" test -z "$(ls -A "$D")"
	done
done

finish
