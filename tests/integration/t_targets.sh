#!/bin/bash
# Target kinds and the options that shape the I/O: temp directory (-S, -k), regular
# file (reads, -WWW writes), -L, -G, -C/-Y/-y/-D, -e, -o/-S offsets, /dev/zero, -b,
# -w, -t/-T.
. "$(dirname "$0")/lib.sh"

require_cmd python3

D=$T_TMP/dir
mkdir "$D"
F=$T_TMP/file.dat
head -c $((1024 * 1024)) /dev/urandom >"$F"
RLINE='[0-9.]+ (ns|us|ms|s)'
FST=$(findmnt -no FSTYPE -T "$D" 2>/dev/null || echo ext4) # ext4 on the reference machine

# distinct FILE: number of distinct offsets.
distinct() { offsets "$1" | sort -u | wc -l; }

## temp directory
probe -c 60 -i 0 -J "$D"
check "dir: -J run exits 0" rc_is 0
check "dir: default working set is 1 MiB: offsets are 4k multiples in [0, 1m)" \
	offsets_ok "$OUT" 4096 0 1048576
check "dir: random offsets spread (>= 20 distinct of 60)" test "$(distinct "$OUT")" -ge 20
check "dir: nothing left without -k" test -z "$(ls -A "$D")"

probe -c 40 -i 0 -J -S 64k "$D"
check "dir -S 64k: offsets in [0, 64k)" offsets_ok "$OUT" 4096 0 65536
check "dir -S 64k: nothing left" test -z "$(ls -A "$D")"

probe -c 2 -i 0 "$D"
check "dir: shows the filesystem" out_has "^4 KiB <<< $D \($FST [^ ]+ [0-9.]+ [KMGTP]iB\): request=1 time=$RLINE \(warmup\)$"

probe -k -c 2 -i 0 "$D"
check "dir -k: exit 0" rc_is 0
check "dir -k: leaves ioprobe.tmp" test -f "$D/ioprobe.tmp"
check "dir -k: ioprobe.tmp is the only file" test "$(ls -A "$D")" = ioprobe.tmp
check "dir -k: ioprobe.tmp holds the 1 MiB working set" test "$(stat -c %s "$D/ioprobe.tmp")" = 1048576
ino1=$(stat -c %i "$D/ioprobe.tmp")
sum1=$(sha "$D/ioprobe.tmp")
probe -k -c 2 -i 0 "$D"
check "dir -k again: exit 0" rc_is 0
check "dir -k again: reuses the same file (inode)" test "$(stat -c %i "$D/ioprobe.tmp")" = "$ino1"
check "dir -k again: a full file is not rewritten" test "$(sha "$D/ioprobe.tmp")" = "$sum1"
probe -k -S 4m -o 1m -c 2 -i 0 "$D"
check "dir -k -S 4m -o 1m: file grows to 5 MiB" test "$(stat -c %s "$D/ioprobe.tmp")" = $((5 << 20))
rm -f "$D/ioprobe.tmp"
probe -W -c 3 -i 0 "$D"
check "dir: one -W is enough" rc_is 0
check "dir -W: writes" out_has "^4 KiB >>> $D .*request=3"
check "dir -W: nothing left" test -z "$(ls -A "$D")"

## regular file
sum=$(sha "$F")
probe -c 3 -i 0 "$F"
check "file: reads exit 0" rc_is 0
check "file: read lines" out_has "^4 KiB <<< $F \($FST [^ ]+ [0-9.]+ [KMGTP]iB\): request=3 time=$RLINE$"
check "file: reads leave the file unchanged" test "$(sha "$F")" = "$sum"
probe -W -c 3 -i 0 "$F"
check "file -W: refused rc 2" rc_is 2
check "file -W: think twice" err_has "^ioprobe: think twice, then use -WWW to shred this target$"
check "file -W: file unchanged" test "$(sha "$F")" = "$sum"
probe -WWW -c 3 -i 0 "$F"
check "file -WWW: exit 0" rc_is 0
check "file -WWW: write lines" out_has "^4 KiB >>> $F .*request=3 time=$RLINE$"
check "file -WWW: summary says written" out_has "^2 requests completed in $RLINE, 8 KiB written, "
check "file -WWW: the file changed" test "$(sha "$F")" != "$sum"
check "file -WWW: the size did not change" test "$(stat -c %s "$F")" = 1048576

## -L sequential
probe -L -c 6 -i 0 -J "$D"
check "-L: JSON size 256 KiB" test "$(offsets "$OUT" | tr '\n' ' ')" = "0 262144 524288 786432 0 262144 "
probe -L -c 3 -i 0 "$D"
check "-L: default size 256 KiB shown" out_has "^256 KiB <<< $D .*request=3 "
check "-L: summary bytes" out_has "^2 requests completed in $RLINE, 512 KiB read, "
probe -L -s 300k -c 4 -i 0 -J "$F"
check "-L -s 300k on a 1 MiB file: 0, 300k, 600k, 0" \
	test "$(offsets "$OUT" | tr '\n' ' ')" = "0 307200 614400 0 "
probe -L -s 0 -c 2 -i 0 "$D"
check "-L -s 0: still 256 KiB" out_has "^256 KiB <<< "
probe -L -s 8k -c 2 -i 0 "$D"
check "-L -s 8k: explicit size wins" out_has "^8 KiB <<< "

## -G alternating
probe -G -c 5 -i 0 "$D"
check "-G: exit 0" rc_is 0
check "-G: odd requests write" test "$(grep -Ec '^4 KiB >>> .*request=[135] ' "$OUT")" = 3
check "-G: even requests read" test "$(grep -Ec '^4 KiB <<< .*request=[24] ' "$OUT")" = 2
check "-G: summary has no read/written word" \
	out_has "^4 requests completed in $RLINE, 16 KiB, [0-9.]+ k? ?iops, [0-9.]+ [KMG]?i?B/s$"
probe -GWW -c 4 -i 0 "$F"
check "file -GWW: exit 0" rc_is 0
probe -G -c 4 -i 0 "$F"
check "file -G alone: refused rc 2" rc_is 2

## cache and sync flags
for flag in -C -Y -y -D "-D -Y" "-C -L"; do
	# shellcheck disable=SC2086
	probe $flag -c 3 -i 0 "$D"
	check "dir $flag: exit 0" rc_is 0
	check "dir $flag: 3 request lines" test "$(grep -Ec "^[0-9]+ KiB <<< $D .*request=[0-9]+ time=" "$OUT")" = 3
	check "dir $flag: stderr empty" err_empty
	check "dir $flag: nothing left" test -z "$(ls -A "$D")"
done
probe -D -W -c 3 -i 0 "$D"
check "dir -D -W: exit 0 (ext4 has O_DIRECT)" rc_is 0
probe -C -WWW -c 2 -i 0 "$F"
check "file -C -WWW: exit 0" rc_is 0

## -e seed
probe -e 42 -c 30 -i 0 -J "$D"
s42a=$(offsets "$OUT" | tr '\n' ' ')
probe -e 42 -c 30 -i 0 -J "$D"
s42b=$(offsets "$OUT" | tr '\n' ' ')
probe -e 43 -c 30 -i 0 -J "$D"
s43=$(offsets "$OUT" | tr '\n' ' ')
check "-e 42: two runs give the same offsets" test -n "$s42a" -a "$s42a" = "$s42b"
check "-e 43: other offsets" test "$s42a" != "$s43"
probe -e 0x2a -c 30 -i 0 -J "$D"
check "-e 0x2a is 42 (strtoull base 0)" test "$(offsets "$OUT" | tr '\n' ' ')" = "$s42a"
probe -c 30 -i 0 -J "$D"
s0a=$(offsets "$OUT" | tr '\n' ' ')
probe -c 30 -i 0 -J "$D"
check "no -e: runs differ" test "$s0a" != "$(offsets "$OUT" | tr '\n' ' ')"

## offsets relative to -o, inside [o, o+S)
probe -s 8k -o 1000 -S 512k -c 60 -i 0 -J "$F"
check "file -s 8k -o 1000 -S 512k: exit 0" rc_is 0
check "file: offsets = 1000 + k*8k, inside [1000, 1000+512k)" offsets_ok "$OUT" 8192 1000 524288
check "file: offsets spread" test "$(distinct "$OUT")" -ge 15
probe -s 4k -o 1000 -c 60 -i 0 -J "$F"
check "file -o 1000 (no -S): inside [1000, size)" offsets_ok "$OUT" 4096 1000 $((1048576 - 1000))
probe -s 4k -o 64k -S 64k -c 40 -i 0 -J "$D"
check "dir -o 64k -S 64k: inside [64k, 128k)" offsets_ok "$OUT" 4096 65536 65536
probe -L -s 4k -o 12k -S 16k -c 5 -i 0 -J "$F"
check "file -L -o 12k -S 16k: 12k 16k 20k 24k 12k" \
	test "$(offsets "$OUT" | tr '\n' ' ')" = "12288 16384 20480 24576 12288 "

## character device
probe -c 3 -i 0 /dev/zero
check "/dev/zero: exit 0" rc_is 0
check "/dev/zero: character device 0 B" \
	out_has "^4 KiB <<< /dev/zero \(character device 0 B\): request=2 time=$RLINE$"
check "/dev/zero: summary header" out_has "^--- /dev/zero \(character device 0 B\) ioprobe statistics ---$"
probe -c 20 -i 0 -J /dev/zero
check "/dev/zero: working set 1 MiB" offsets_ok "$OUT" 4096 0 1048576
probe -s 2m -c 2 -i 0 -q /dev/zero
check "/dev/zero -s 2m: a request larger than 1 MiB runs (as in ioping 1.3)" rc_is 0
if [ -x "$IOPING" ]; then
	ioping_run -s 2m -c 2 -i 0 -q /dev/zero
	check "/dev/zero -s 2m: ioping 1.3 runs it too (rc $IRC)" test "$IRC" = 0
fi

## -b bursts
probe -b 3 -c 6 -i 0 "$D"
check "-b 3: exit 0" rc_is 0
check "-b 3: blank line after request 3" \
	test "$(grep -A1 'request=3 ' "$OUT" | sed -n 2p)" = ""
check "-b 3: request 4 right after that blank" \
	test "$(grep -A2 'request=3 ' "$OUT" | sed -n 3p | grep -c 'request=4 ')" = 1
check "-b 3: blank after request 6, then the blank before ---" \
	test "$(grep -A3 'request=6 ' "$OUT" | sed -n '2,4p' | tr '\n' '|')" = "||--- $D ($(sed -n 's/.*<<< [^(]*(\([^)]*\)).*/\1/p' "$OUT" | head -1)) ioprobe statistics ---|"
check "-b 3: 6 request lines and 3 blank lines" \
	test "$(grep -c 'request=' "$OUT"):$(grep -c '^$' "$OUT")" = "6:3"
start=$(now_ms)
probe -b 2 -c 4 -i 0.3 "$D"
took=$(($(now_ms) - start))
check "-b 2 -c 4 -i 0.3: one interval between the two bursts (0.3..1.5 s, took ${took} ms)" \
	test "$took" -ge 300 -a "$took" -lt 1500

## -w deadline
start=$(now_ms)
probe -w 1 -i 0.3 "$D"
took=$(($(now_ms) - start))
check "-w 1 -i 0.3: exit 0" rc_is 0
check "-w 1 -i 0.3: 4 requests" out_has "^generated 4 requests in "
check "-w 1 -i 0.3: 4 request lines" test "$(grep -c 'request=' "$OUT")" = 4
check "-w 1 -i 0.3: about 0.9 s (took ${took} ms)" test "$took" -ge 850 -a "$took" -lt 2500

## -t / -T
probe -t 1h -c 4 -i 0 "$D"
check "-t 1h: exit 0" rc_is 0
check "-t 1h: too fast notices" test "$(grep -c '(too fast)$' "$OUT")" = 3
check "-t 1h: summary counts them" out_has "^0 requests completed in 0 ns, 0 B read, 0 iops, 0 B/s$"
check "-t 1h: too fast counter" out_has "^3 too fast, generated 4 requests in "
probe -T 1ns -c 4 -i 0 "$D"
check "-T 1ns: too slow notices" test "$(grep -c '(too slow)$' "$OUT")" = 3
check "-T 1ns: too slow counter" out_has "^3 too slow, generated 4 requests in "
check "-T 1ns: min/avg/max all zero" out_has "^min/avg/max/mdev = 0 ns / 0 ns / 0 ns / 0 ns$"
probe --engine=null:2ms -t 1ms -T 1s -c 4 -i 0 "$D"
check "null:2ms -t 1ms -T 1s: all valid" out_has "^3 requests completed in [0-9.]+ ms, 12 KiB read, "
check "null:2ms -t 1ms -T 1s: no counters" out_has "^generated 4 requests in "
probe --engine=null:2ms -t 50ms -c 3 -i 0 "$D"
check "null:2ms -t 50ms: 2 too fast" out_has "^2 too fast, generated 3 requests in "
probe --engine=null:2ms -T 1ms -c 3 -i 0 "$D"
check "null:2ms -T 1ms: 2 too slow" out_has "^2 too slow, generated 3 requests in "
probe -a 0 -t 1h -T 1ns -c 2 -i 0 "$D"
check "-a 0: no warmup, both counted as too fast" out_has "^2 too fast, generated 2 requests in "

check "dir: nothing left at the end" test -z "$(ls -A "$D")"
finish
