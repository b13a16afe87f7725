#!/bin/bash
# A 64 MiB loop device: reads with and without -D, O_DIRECT alignment checks before
# any I/O, -WWW safety, -G/-L/-S/-o, the three engines; then ext4 on it, mounted:
# writing to the busy device is refused, and a directory on it shows the loop device.
. "$(dirname "$0")/lib.sh"

require_loop
require_cmd python3
require_cmd blockdev

# not L=$(make_loop ...): in a subshell, make_loop's T_LOOPS+=() would be lost and the
# device never detached
make_loop 64M >"$T_TMP/loopdev" || skip "cannot create a loop device"
L=$(cat "$T_TMP/loopdev")
N=${L#/dev/}
BS=$(blockdev --getss "$L")
RLINE='[0-9.]+ (ns|us|ms|s)'
DESC="\(block device 64 MiB\)"

# io_count: reads+writes completed on the loop device so far (from /sys/block/N/stat).
io_count() { awk '{ print $1 + $5 }' "/sys/block/$N/stat"; }
# offsets_line FILE: the request offsets of a JSON output on one line (lib.sh's offsets).
offsets_line() { offsets "$1" | tr '\n' ' '; }

## reads
probe -c 3 -i 0 "$L"
check "read: exit 0" rc_is 0
check "read: block device 64 MiB" out_has "^4 KiB <<< $L $DESC: request=1 time=$RLINE \(warmup\)$"
check "read: request 3" out_has "^4 KiB <<< $L $DESC: request=3 time=$RLINE$"
check "read: summary header" out_has "^--- $L $DESC ioprobe statistics ---$"
check "read: stderr empty" err_empty
probe -D -c 3 -i 0 "$L"
check "read -D: exit 0" rc_is 0
check "read -D: block device 64 MiB" out_has "^4 KiB <<< $L $DESC: request=3 time=$RLINE$"
probe -D -s 4k -c 3 -i 0 "$L"
check "read -D -s 4k: exit 0" rc_is 0
probe -D -s "$BS" -c 3 -i 0 "$L"
check "read -D -s $BS (the logical block size): exit 0" rc_is 0

## O_DIRECT alignment: refused before any I/O (what the kernel would refuse)
before=$(io_count)
probe -D -s 1000 -c 3 -i 0 "$L"
after=$(io_count)
check "-D -s 1000: rc 1" rc_is 1
check "-D -s 1000: names the block size" \
	err_has "^ioprobe: .*request size 1000 is not a multiple of $BS\b.*\"$L\""
check "-D -s 1000: one stderr line" test "$(wc -l <"$ERR")" = 1
check "-D -s 1000: stdout empty" out_empty
check "-D -s 1000: no I/O reached the device ($before -> $after)" test "$before" = "$after"
before=$(io_count)
probe -D -o 100 -c 3 -i 0 "$L"
after=$(io_count)
check "-D -o 100: rc 1" rc_is 1
check "-D -o 100: names the offset and the block size" \
	err_has "^ioprobe: .*offset 100 is not a multiple of $BS\b"
check "-D -o 100: stdout empty" out_empty
check "-D -o 100: no I/O reached the device" test "$before" = "$after"
# every offset is a multiple of the request size: an unaligned working set is fine (ioping too)
probe -D -S 1000000 -c 3 -i 0 -J "$L"
check "-D -S 1000000: runs (rc 0)" rc_is 0
check "-D -S 1000000: offsets are multiples of 4 KiB inside the working set" \
	offsets_ok "$OUT" 4096 0 1000000
probe -s 1000 -o 100 -c 3 -i 0 "$L"
check "without -D, -s 1000 -o 100 is fine" rc_is 0

## writes
sum0=$(sha "$L")
for w in -W -WW -G "-G -W"; do
	# shellcheck disable=SC2086
	probe $w -c 2 -i 0 "$L"
	check "$w: refused rc 2" rc_is 2
	check "$w: think twice" err_has "^ioprobe: think twice, then use -WWW to shred this target$"
	check "$w: stdout empty" out_empty
	check "$w: device unchanged" test "$(sha "$L")" = "$sum0"
done
probe -WWW -c 3 -i 0 "$L"
check "-WWW: exit 0" rc_is 0
check "-WWW: write lines" out_has "^4 KiB >>> $L $DESC: request=3 time=$RLINE$"
check "-WWW: written" out_has "^2 requests completed in $RLINE, 8 KiB written, "
sum1=$(sha "$L")
check "-WWW: data changed" test "$sum1" != "$sum0"
probe -D -WWW -c 3 -i 0 "$L"
check "-D -WWW: exit 0" rc_is 0
check "-D -WWW: data changed" test "$(sha "$L")" != "$sum1"

## -G
probe -GWW -c 4 -i 0 "$L"
check "-GWW (3 counts): exit 0" rc_is 0
check "-GWW: request 1 writes" out_has "^4 KiB >>> $L $DESC: request=1 "
check "-GWW: request 2 reads" out_has "^4 KiB <<< $L $DESC: request=2 "
check "-GWW: request 3 writes" out_has "^4 KiB >>> $L $DESC: request=3 "
check "-GWW: request 4 reads" out_has "^4 KiB <<< $L $DESC: request=4 "
check "-GWW: summary without read/written" out_has "^3 requests completed in $RLINE, 12 KiB, "
probe -G -G -G -c 2 -i 0 "$L"
check "-G -G -G (3 counts): exit 0" rc_is 0

## -L, -S, -o
probe -L -c 3 -i 0 "$L"
check "-L: 256 KiB requests" out_has "^256 KiB <<< $L $DESC: request=3 "
probe -L -c 3 -i 0 -J "$L"
check "-L: offsets 0 256k 512k" test "$(offsets_line "$OUT")" = "0 262144 524288 "
probe -S 1m -c 40 -i 0 -J "$L"
check "-S 1m: offsets in [0, 1m)" offsets_ok "$OUT" 4096 0 1048576
probe -S 1m -o 8m -c 40 -i 0 -J "$L"
check "-S 1m -o 8m: offsets in [8m, 9m)" offsets_ok "$OUT" 4096 8388608 1048576
probe -o 60m -c 40 -i 0 -J "$L"
check "-o 60m: offsets in [60m, 64m)" offsets_ok "$OUT" 4096 62914560 4194304
probe -D -S 1m -o 1m -c 20 -i 0 "$L"
check "-D -S 1m -o 1m: exit 0" rc_is 0
probe -S 65m -c 1 "$L"
check "-S 65m: target is too small (rc 2)" test "$RC:$(head -1 "$ERR")" = "2:ioprobe: target is too small for this"
probe -o 64m -c 1 "$L"
check "-o 64m: request size is too big (rc 2)" \
	test "$RC:$(head -1 "$ERR")" = "2:ioprobe: request size is too big for this target"

## engines
probe --engine=sync -D -c 4 -i 0 "$L"
check "--engine=sync -D: exit 0" rc_is 0
fold_shape "$OUT" >"$T_TMP/shape.sync"
check "--engine=sync -D: 4 request lines" test "$(grep -c "^4 KiB <<< $L" "$OUT")" = 4
for e in -A -U --engine=libaio --engine=io_uring; do
	probe "$e" -D -c 4 -i 0 "$L"
	if [ "$RC" = 2 ] && err_has "not available in this build|setup"; then
		check "$e: unavailable here, says so" err_has "^ioprobe: "
		continue
	fi
	check "$e -D: exit 0" rc_is 0
	check "$e -D: stderr empty" err_empty
	check "$e -D: same line shapes as sync" diff -u "$T_TMP/shape.sync" <(fold_shape "$OUT")
done

## ext4 on the device, mounted
require_cmd mkfs.ext4
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$L" >/dev/null 2>&1 ||
	{ fail "mkfs.ext4 $L"; finish; }
M=$T_TMP/mnt
mkdir "$M"
mount "$L" "$M" || { fail "mount $L"; finish; }
register_mount "$M"
# read-only while the checksums are taken: a rw ext4 writes its journal and superblock
# by itself, which would look like a change; O_EXCL refuses a ro mount just the same
mount -o remount,ro "$M"
sync
sum2=$(sha "$L")
probe -WWW -c 3 -i 0 "$L"
check "mounted -WWW: refused rc 2" rc_is 2
check "mounted -WWW: device is busy" err_has "^ioprobe: .*device is busy"
check "mounted -WWW: stdout empty" out_empty
sync
check "mounted -WWW: device unchanged" test "$(sha "$L")" = "$sum2"
mount -o remount,rw "$M"
probe -c 2 -i 0 "$L"
check "mounted: reading the device is fine" rc_is 0
mkdir "$M/d"
probe -c 3 -i 0 "$M/d"
check "dir on the loop fs: exit 0" rc_is 0
check "dir on the loop fs: (ext4 $L ...)" \
	out_has "^4 KiB <<< $M/d \(ext4 $L [0-9.]+ MiB\): request=3 time=$RLINE$"
check "dir on the loop fs: summary header" out_has "^--- $M/d \(ext4 $L [0-9.]+ MiB\) ioprobe statistics ---$"
check "dir on the loop fs: fs size, not device size" out_lacks "\(ext4 $L 64 MiB\)"
check "dir on the loop fs: nothing left" test -z "$(ls -A "$M/d")"
probe -D -c 3 -i 0 "$M/d"
check "dir on the loop fs -D: exit 0" rc_is 0

finish
