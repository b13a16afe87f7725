#!/bin/bash
# Safety against hostile input: nothing is written through a file planted as
# the -k temp file, no stat/open race lets -WWW write to a mounted device,
# requests Linux cannot move whole are refused, engine arguments are checked,
# long paths keep their reason, control characters never reach the terminal
# raw, resource limits give clear errors, and -J stays valid after a failed
# request.
. "$(dirname "$0")/lib.sh"
require_root
require_cmd python3

D=$T_TMP/d
mkdir -p "$D"

## 1. -k never follows what is planted as DIR/ioprobe.tmp
V=$T_TMP/victim
printf 'precious\n' >"$V"
VSUM=$(sha "$V")
ln -s "$V" "$D/ioprobe.tmp"
probe -k -c 1 "$D"
check "-k over a planted symlink: exit 2" rc_is 2
check "-k over a planted symlink: says why" \
	err_has '^ioprobe: refusing to use ".*/ioprobe.tmp" kept by -k: it is a symbolic link; nothing was written$'
check "-k over a planted symlink: the victim is untouched" test "$(sha "$V")" = "$VSUM"
check "-k over a planted symlink: the link is left as it was" test -L "$D/ioprobe.tmp"
rm -f "$D/ioprobe.tmp"

ln "$V" "$D/ioprobe.tmp"
probe -k -c 1 "$D"
check "-k over a planted hard link: exit 2, says it has 2 links" \
	eval 'rc_is 2 && err_has "kept by -k: it has 2 hard links; nothing was written$"'
check "-k over a planted hard link: the victim is untouched" test "$(sha "$V")" = "$VSUM"
rm -f "$D/ioprobe.tmp"

mkfifo "$D/ioprobe.tmp"
probe -k -c 1 "$D"
check "-k over a planted FIFO: exit 2 at once (no hang), not a regular file" \
	eval 'rc_is 2 && err_has "kept by -k: it is not a regular file"'
rm -f "$D/ioprobe.tmp"

if [ -e /dev/loop-control ] && command -v losetup >/dev/null; then
	IMG=$T_TMP/node.img
	head -c 4194304 /dev/urandom >"$IMG"
	L=$(make_loop 4M "$IMG")
	LSUM=$(sha "$L")
	mknod "$D/ioprobe.tmp" b "$(stat -c '%t' "$L" | xargs printf '%d')" \
		"$(stat -c '%T' "$L" | xargs printf '%d')"
	probe -k -c 2 -i 0 "$D"
	check "-k over a planted block-device node: exit 2, not a regular file" \
		eval 'rc_is 2 && err_has "kept by -k: it is not a regular file"'
	check "-k over a planted block-device node: the device is untouched" \
		test "$(sha "$L")" = "$LSUM"
	rm -f "$D/ioprobe.tmp"
else
	skip "needs loop devices for the planted device node"
fi

# an attacker (nobody) in a mode-1777 directory
if id nobody >/dev/null 2>&1; then
	chmod 711 "$T_TMP" # nobody may pass through to the sticky directory
	S=$T_TMP/sticky
	mkdir -m 1777 "$S"
	R=$T_TMP/rootfile
	printf 'root only\n' >"$R"
	chmod 600 "$R"
	RSUM=$(sha "$R")
	setpriv --reuid=nobody --regid=nogroup --clear-groups ln -s "$R" "$S/ioprobe.tmp"
	check "nobody planted a symlink in the 1777 directory" test -L "$S/ioprobe.tmp"
	probe -k -c 1 "$S"
	check "-k, nobody's symlink in a 1777 dir to a root 0600 file: refused" \
		eval 'rc_is 2 && err_has "it is a symbolic link"'
	check "-k, nobody's symlink: the root file is untouched" test "$(sha "$R")" = "$RSUM"
	rm -f "$S/ioprobe.tmp"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		sh -c "head -c 1048576 /dev/zero >'$S/ioprobe.tmp'"
	check "nobody planted a regular file in the 1777 directory" \
		eval '[ "$(stat -c %U "$S/ioprobe.tmp")" = nobody ]'
	probe -k -c 1 "$S"
	check "-k, a regular file planted by nobody: refused (owner)" \
		eval "rc_is 2 && err_has 'it is owned by uid [0-9]+, not by uid 0'"
	rm -f "$S/ioprobe.tmp"
else
	skip "needs the user nobody"
fi

# the kept file itself is reused; a second run never deletes or truncates it
probe -k -c 2 -i 0 "$D"
check "-k creates ioprobe.tmp (mode 600, 1 MiB)" \
	eval '[ "$(stat -c "%a %s" "$D/ioprobe.tmp")" = "600 1048576" ]'
INO=$(stat -c %i "$D/ioprobe.tmp")
KSUM=$(sha "$D/ioprobe.tmp")
probe -k -D -s 1000 -c 1 "$D" # fails after opening the kept file (alignment)
check "-k run failing its preparation on a kept file: exit 1" rc_is 1
check "-k run failing: the kept file is still there, same inode" \
	test "$(stat -c %i "$D/ioprobe.tmp" 2>/dev/null)" = "$INO"
"$IOPROBE" -k -c 40 -i 0.05 "$D" >"$T_TMP/first.out" 2>&1 &
FIRST=$!
wait_lines "$T_TMP/first.out" request= 2
probe -k -c 3 -i 0 "$D"
check "second -k run beside the first: refused (exit 2), in use by another ioprobe" \
	eval 'rc_is 2 && err_has "^ioprobe: refusing to use \".*/ioprobe.tmp\" kept by -k: it is in use by another ioprobe; nothing was written$"'
kill -INT "$FIRST"
wait "$FIRST"
check "first -k run, SIGINT after the second was refused: exit 0" test $? = 0
check "after both runs: same inode, same size, same content (reused, never rewritten)" \
	eval '[ "$(stat -c %i "$D/ioprobe.tmp")" = "$INO" ] && [ "$(sha "$D/ioprobe.tmp")" = "$KSUM" ]'
# back to back: a run that just ended has released the kept file (its closes are made by a
# process apart, waited for a moment; the next run's lock waits 0.5 s for it)
BACK=0
for _ in $(seq 20); do
	"$IOPROBE" -k -c 1 -q "$D" >/dev/null 2>"$ERR" && BACK=$((BACK + 1))
done
check "20 -k runs back to back on one kept file: all ran (${BACK})" test "$BACK" = 20
rm -f "$D/ioprobe.tmp"
# the audit's case: two runs filling a new kept file, then SIGINT to the first
for victim in first second; do
	"$IOPROBE" -k -S 1g -c 1000 -i 0.05 "$D" >"$T_TMP/k1.out" 2>&1 &
	K1=$!
	wait_caught "$K1" 2
	for _ in $(seq 100); do [ -e "$D/ioprobe.tmp" ] && break; sleep 0.05; done
	"$IOPROBE" -k -S 1g -c 1000 -i 0.05 "$D" >"$T_TMP/k2.out" 2>&1 &
	K2=$!
	if [ $victim = first ]; then
		wait "$K2"; RC2=$?
		kill -INT "$K1"; wait "$K1"; RC1=$?
		check "two -k runs filling one new kept file, SIGINT to the first: the second refused" \
			eval '[ "$RC2" = 2 ] && grep -q "in use by another ioprobe" "$T_TMP/k2.out"'
		check "two -k runs, SIGINT to the first (filling): nothing half-written is left" \
			eval '{ [ "$RC1" = 0 ] || [ "$RC1" = 2 ]; } && { [ ! -e "$D/ioprobe.tmp" ] || [ "$(stat -c %s "$D/ioprobe.tmp")" = 1073741824 ]; }'
	else
		sleep 0.2
		kill -INT "$K2" 2>/dev/null
		wait "$K2"
		wait_lines "$T_TMP/k1.out" request= 2 30
		kill -INT "$K1"; wait "$K1"; RC1=$?
		check "two -k runs, SIGINT to the second: it never probed" \
			eval '! grep -q request= "$T_TMP/k2.out"'
		check "two -k runs, SIGINT to the second: the first went on; the kept file is whole" \
			eval '[ "$RC1" = 0 ] && [ "$(stat -c %s "$D/ioprobe.tmp")" = 1073741824 ]'
	fi
	rm -f "$D/ioprobe.tmp"
done

## 1b. --prometheus never writes through what sits at a temp name
# The temp name was FILE.tmp.<pid>: an exec'd shell plants at exactly that name.
P=$T_TMP/prom
mkdir -m 1777 "$P"
V2=$T_TMP/victim2
printf 'precious\n' >"$V2"
V2SUM=$(sha "$V2")
for kind in hardlink symlink fifo file; do
	rm -f "$P"/*
	OUT_KIND=$T_TMP/prom.$kind.out
	timeout -k 5 30 bash -c '
		n=$1/q.prom.tmp.$$
		case $2 in
		hardlink) ln "$3" "$n" ;;
		symlink) ln -s "$3" "$n" ;;
		fifo) mkfifo "$n" ;;
		file) printf "planted\n" >"$n" ;;
		esac
		exec "$4" --prometheus "$1/q.prom" -c 2 -i 0 -q "$5"' _ "$P" "$kind" "$V2" "$IOPROBE" \
		"$D" >"$OUT_KIND" 2>&1
	RC=$?
	check "--prometheus, a $kind planted at the old temp name: exit 0 (no hang)" rc_is 0
	check "--prometheus, a $kind planted: the victim is untouched" \
		test "$(sha "$V2")" = "$V2SUM"
	check "--prometheus, a $kind planted: the textfile has the metrics" \
		grep -q '^ioprobe_request_duration_seconds_count{' "$P/q.prom"
	check "--prometheus, a $kind planted: the planted name is left as it was, no temp left" \
		eval '[ "$(ls -A "$P" | grep -c "^q.prom.tmp.")" = 1 ]'
done
if id nobody >/dev/null 2>&1; then
	rm -f "$P"/*
	chmod 711 "$T_TMP"
	R2=$T_TMP/rootfile2
	printf 'root only\n' >"$R2"
	chmod 600 "$R2"
	R2SUM=$(sha "$R2")
	# nobody plants a symlink at every name a pid could give, then root writes the textfile
	setpriv --reuid=nobody --regid=nogroup --clear-groups python3 -c '
import os, sys
for pid in range(2, 40001):
    os.symlink(sys.argv[2], "%s/q.prom.tmp.%d" % (sys.argv[1], pid))' "$P" "$R2"
	probe --prometheus "$P/q.prom" -c 2 -i 0 -q "$D"
	check "--prometheus, nobody's symlinks at 40,000 pid names in a 1777 dir: exit 0" rc_is 0
	check "--prometheus, nobody's symlinks: the root file is untouched" \
		test "$(sha "$R2")" = "$R2SUM"
	check "--prometheus, nobody's symlinks: the textfile is root's, a regular file" \
		eval '[ "$(stat -c "%U %F" "$P/q.prom")" = "root regular file" ]'
	rm -f "$P"/*
fi

## 2. a path swapped between lookups never gets a write onto a mounted device
if [ -e /dev/loop-control ] && command -v mkfs.ext4 >/dev/null; then
	ML=$(make_loop 32M)
	mkfs.ext4 -q -F "$ML" >/dev/null 2>&1
	MNT=$T_TMP/mnt
	mkdir -p "$MNT"
	mount -o ro "$ML" "$MNT" && register_mount "$MNT"
	MSUM=$(sha "$ML")
	SCRATCH=$T_TMP/scratch
	head -c 1048576 /dev/zero >"$SCRATCH"
	P=$T_TMP/swap
	ln -s "$SCRATCH" "$P"
	# swap $P between the scratch file and the mounted device as fast as rename goes
	python3 - "$P" "$SCRATCH" "$ML" "$T_TMP/swap.stop" <<'PY' &
import os, sys
p, a, b, stop = sys.argv[1:]
tmp = p + ".new"
i = 0
while not os.path.exists(stop):
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    os.symlink(a if i % 2 else b, tmp)
    os.replace(tmp, p)
    i += 1
PY
	SWAPPER=$!
	runs=0 busy=0 ran=0 other=0
	while [ "$runs" -lt 500 ]; do
		timeout 20 "$IOPROBE" -WWW -c 1 -i 0 -q "$P" >/dev/null 2>"$T_TMP/race.err"
		case $? in
		0) ran=$((ran + 1)) ;;
		2) grep -q 'device is busy' "$T_TMP/race.err" && busy=$((busy + 1)) ||
			other=$((other + 1)) ;;
		*) other=$((other + 1)) ;;
		esac
		runs=$((runs + 1))
	done
	touch "$T_TMP/swap.stop"
	wait "$SWAPPER"
	echo "# race: $runs runs, $ran wrote the scratch file, $busy refused (busy), $other other"
	check "race: both sides were hit (the race really ran)" test "$ran" -gt 0 -a "$busy" -gt 0
	check "race: zero writes reached the mounted device in $runs runs" \
		test "$(sha "$ML")" = "$MSUM"
else
	skip "needs loop devices and mkfs.ext4 for the race test"
fi

## 6. requests larger than one transfer are refused, for every engine
# (ioping warns and goes on: io_uring moved 4 MiB and reported 4 GiB, the others moved 2 GiB)
BIG=$T_TMP/big.sparse
truncate -s 5g "$BIG"
for e in sync libaio io_uring; do
	probe --engine=$e -s 4100m -c 1 "$BIG"
	check "-s 4100m ($e) on a 5 GiB file: exit 2 before any I/O, ioping's limit text" \
		eval 'rc_is 2 && err_has "^ioprobe: this platform supports requests 2147479552 bytes at most$" && out_empty'
done
probe -s 4100m -c 1 "$D"
check "-s 4100m on a directory: exit 2, nothing left in it" \
	eval 'rc_is 2 && test -z "$(ls -A "$D")"'
rm -f "$BIG"

## 9. engines without arguments refuse one
for e in sync libaio io_uring; do
	probe --engine=$e:junk -c 1 "$D"
	check "--engine=$e:junk: exit 1, says it takes no argument" \
		eval "rc_is 1 && err_has '^ioprobe: the $e engine takes no argument: \"$e:junk\"$'"
done
probe --engine=null:1ms -c 2 -i 0 "$D"
check "--engine=null:1ms still works" rc_is 0

## 10. a long path never loses the reason at the end of its message
LONG=$T_TMP/$(head -c 3000 /dev/zero | tr '\0' a)/x
probe -c 1 "$LONG"
check "3,000-character path: exit 2, reason complete" \
	eval 'rc_is 2 && err_has "failed: File name too long$"'
HUGE=$T_TMP/$(head -c 100000 /dev/zero | tr '\0' b)
probe -c 1 "$HUGE"
check "100,000-character path: one line, reason complete" \
	eval 'rc_is 2 && [ "$(wc -l <"$ERR")" = 1 ] && err_has "failed: File name too long$"'

## 11. control characters in a path are escaped in human output and messages
EVIL=$T_TMP/$'ev\nil\e[31m'
mkdir -p "$EVIL"
probe -c 2 -i 0 "$EVIL"
check "newline/ESC in the path: exit 0, no ESC byte on stdout" \
	eval 'rc_is 0 && ! grep -q $'"'"'\e'"'"' "$OUT"'
check "newline/ESC in the path: shown as \\n and \\e" \
	out_has '^4 KiB <<< .*/ev\\nil\\e\[31m \('
check "newline/ESC in the path: exactly 2 request lines and one summary header" \
	eval '[ "$(grep -c "request=" "$OUT")" = 2 ] && [ "$(grep -c "^--- " "$OUT")" = 1 ]'
probe -c 1 "$EVIL/missing"
check "newline/ESC in a message: one line, escaped" \
	eval 'rc_is 2 && [ "$(wc -l <"$ERR")" = 1 ] && err_has "ev\\\\nil\\\\e\\[31m/missing\" failed"'
probe -J -c 1 "$EVIL"
check "newline/ESC with -J: JSON keeps the exact path" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert all(o["target"]["path"] == sys.argv[2] for o in d)' "$OUT" "$EVIL"
# a --qualify profile's name and step name with terminal escapes: shown escaped (\e), like a
# path (they drove the terminal: a title set, the screen cleared)
QE=$T_TMP/qesc
mkdir -p "$QE"
printf 'qualify \033]0;pwn\a\033[2Jx\nstep s\033[31m -c 3 -i 0 --engine=null\nrequire IOPS > 1\n' \
	>"$T_TMP/esc.prof"
probe --qualify "$T_TMP/esc.prof" "$QE"
check "escapes in a profile's names: the report printed (exit 0)" \
	eval 'rc_is 0 && out_has "^QUALIFY "'
check "escapes in a profile's names: no ESC or BEL byte on stdout" \
	eval '[ -s "$OUT" ] && ! grep -q $'"'"'[\e\a]'"'"' "$OUT"'
check "escapes in a profile's names: shown as \\e and \\a" \
	eval 'out_has "^qualify \\\\e\\]0;pwn\\\\a\\\\e\\[2Jx: " && out_has "^step 1/1 s\\\\e\\[31m: " && out_has "^QUALIFY \\\\e\\]0;pwn"'

## 12. resource limits give clear errors
if [ -e /dev/loop-control ]; then
	IL=$(make_loop 16M)
	# only fds 0-2 open (close what the test runner passed down), then 4 fds at most:
	# the device takes fd 3, /proc/diskstats would need fd 4
	( for fd in /proc/$BASHPID/fd/*; do
		fd=${fd##*/}
		[ "$fd" -gt 2 ] && eval "exec $fd>&-"
	  done
	  ulimit -n 4; exec "$IOPROBE" --iostat -c 2 -i 0.1 "$IL" ) >"$OUT" 2>"$ERR"
	RC=$?
	# the preparation's child needs a socket pair: the first descriptors to run out
	check "ulimit -n 4 with --iostat: exit 2 with a clear message" \
		eval 'rc_is 2 && err_has "^ioprobe: cannot prepare $IL: socketpair: Too many open files$"'
fi
# out of descriptors at the second target's probe (its eventfd; the first runs for 1 s, holding
# its own): a preparation failure, exit
# 2 (it was 3, as if a request had failed)
G1=$T_TMP/fd1 G2=$T_TMP/fd2
head -c 1048576 /dev/zero >"$G1"
head -c 1048576 /dev/zero >"$G2"
( for fd in /proc/$BASHPID/fd/*; do
	fd=${fd##*/}
	[ "$fd" -gt 2 ] && eval "exec $fd>&-"
  done
  ulimit -n 6; exec "$IOPROBE" -c 5 -i 0.2 -q "$G1" "$G2" ) >"$OUT" 2>"$ERR"
RC=$?
check "ulimit -n 6, two targets: the probe's eventfd fails, exit 2 with a clear message" \
	eval 'rc_is 2 && err_has "cannot start the probe: eventfd: Too many open files$"'
F=$T_TMP/f2m
head -c 2097152 /dev/zero >"$F"
( ulimit -f 1; exec "$IOPROBE" -WWW -c 3 -i 0 -S 2m -s 1m -L "$F" ) >"$OUT" 2>"$ERR"
RC=$?
check "ulimit -f on a -WWW file: exit 3 with EFBIG (not killed by SIGXFSZ)" \
	eval 'rc_is 3 && err_has "^ioprobe: request failed: EFBIG: File too large$"'
( ulimit -f 1; exec "$IOPROBE" -c 1 -S 2m "$D" ) >"$OUT" 2>"$ERR"
RC=$?
check "ulimit -f while filling a directory's temp file: exit 2, File too large" \
	eval 'rc_is 2 && err_has "^ioprobe: preparation write failed: File too large$"'
check "ulimit -f: nothing left in the directory" test -z "$(ls -A "$D")"

## 13. -J stays valid JSON after a failed request (no -E)
probe -J -WWW -c 3 -i 0 /dev/null
check "-J, failed request without -E: exit 3, fdatasync message" \
	eval 'rc_is 3 && err_has "^ioprobe: fdatasync failed"'
check "-J, failed request without -E: the output is one valid JSON array" json_valid
probe --json-lines -WWW -c 3 -i 0 /dev/null
check "--json-lines, failed request: every line is a JSON object" python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines and all(isinstance(json.loads(l), dict) for l in lines)' "$OUT"

finish
