#!/bin/bash
# Output shapes against ioping 1.3 itself: the same argument sets run through both,
# numbers masked, ioprobe's extra percentile lines dropped; the lines and exit codes
# must be equal. For JSON, every key ioping emits must be in ours, at the same
# nesting and in the same order.
. "$(dirname "$0")/lib.sh"

require_cmd python3
[ -x "$IOPING" ] || require_cmd ioping
[ -x "$IOPING" ] || IOPING=$(command -v ioping)

D=$T_TMP/dir
mkdir "$D"

# Devices for the -D and JSON device cases: a 512-byte and a 4096-byte-sector loop
# device, and a tmpfs (no stated direct-I/O alignment). Root only; strict runs need them.
LOOPDEV= LOOP4K= TMPFS=
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && [ -e /dev/loop-control ]; then
	make_loop 64M >"$T_TMP/loopdev" && LOOPDEV=$(cat "$T_TMP/loopdev")
	truncate -s 64M "$T_TMP/disk4k.img" &&
		LOOP4K=$(losetup -f --show --sector-size 4096 "$T_TMP/disk4k.img") &&
		loop_fresh "$LOOP4K" && T_LOOPS+=("$LOOP4K") && echo "$LOOP4K $T_TMP/disk4k.img" >>"$T_TMP/loops"
	mkdir "$T_TMP/tmpfs" && mount -t tmpfs -o size=16m tmpfs "$T_TMP/tmpfs" &&
		register_mount "$T_TMP/tmpfs" && TMPFS=$T_TMP/tmpfs
fi
if [ -z "$LOOPDEV" ] || [ -z "$LOOP4K" ] || [ -z "$TMPFS" ]; then
	if [ "${IOPROBE_TEST_STRICT:-0}" = 1 ]; then
		fail "loop devices and tmpfs are required (IOPROBE_TEST_STRICT=1)"
	else
		echo "# no root, loop devices or tmpfs: the -D device cases and block-device JSON are left out"
	fi
fi

# shape FILE PROG: mask numbers (a number and its unit are one token), name the program
# "ioprobe", and drop ioprobe's percentile lines.
shape() {
	python3 -c '
import re, sys
units = r"(?: (?:ns|us|ms|s|min|hour|B|KiB|MiB|GiB|TiB|PiB|k|M|G|T|P))?"
num = re.compile(r"(?<![\w.])\d+(?:\.\d+)?" + units + r"(?![\w.])")
for line in open(sys.argv[1], errors="replace"):
    line = line.rstrip("\n")
    if re.match(r"^(read |write )?p50/p90/p99/p99\.9 = ", line):
        continue
    # ours alone: the slots a stall of the disk made the schedule lose (README)
    line = re.sub(r"^((?:\d+ too (?:fast|slow), )*)\d+ skipped, (generated )", r"\1\2", line)
    line = line.replace("ioping", "ioprobe")
    print(num.sub("N", line))' "$1"
}

SETS=(
	"-c 3 -i 0.01 $D"
	"-c 3 -i 0 -C $D"
	"-c 5 -p 2 -i 0 $D"
	"-B -c 4 -i 0 $D"
	"-q -c 3 -i 0 $D"
	"-c 3 -i 0 -L $D"
	"-c 4 -i 0 -G $D"
	"-c 3 -i 0 /dev/zero"
	"-c 2 -i 0 -I%T $D"
	"-R -w 0.3 $D"
	"-c 6 -b 3 -i 0 $D"
	"-c 3 -i 0 -W $D"
	"-c 3 -i 0 -D $D"
	"-q -p 2 -c 5 -i 0 $D"
	"-c 4 -i 0 -t 1h $D"
	"-c 4 -i 0 -T 1ns $D"
	"-c 2 -i 0 -s 64k -S 256k $D"
	"-c 2 -i 0 -I $D"
	"-q -c 3 -i 0 -a 0 $D"
	# issue 11: -b with -p (the burst's blank line before the raw line), -I keeping an
	# earlier format, -r 0 / -l 0, -p with -P (the -P timer restarts whenever a period closes)
	"-b 2 -p 2 -a 0 -c 2 -i 0 $D"
	"-b 3 -p 2 -a 0 -c 6 -i 0 $D"
	"-I%T -I -c 2 -i 0 $D"
	"-r 0 -c 5 $D"
	"-l 0 -c 3 $D"
	"-p 5 -P 50ms -c 30 -i 10ms -q $D"
	"-p 3 -P 1h -c 9 -i 0 -q $D"
	"-P 1ns -i 10ms -c 4 -q $D"
)

n=0
for args in "${SETS[@]}"; do
	n=$((n + 1))
	read -ra argv <<<"$args"
	probe "${argv[@]}"
	ioping_run "${argv[@]}"
	rm -f "$D"/ioping.tmp*
	check "#$n '$args': same exit code (ioping $IRC, ioprobe $RC)" test "$IRC" = "$RC"
	shape "$IOUT" >"$T_TMP/shape.ioping"
	shape "$OUT" >"$T_TMP/shape.ioprobe"
	[ -n "${SHOW_SHAPES:-}" ] && cat "$T_TMP/shape.ioprobe"
	if diff -u "$T_TMP/shape.ioping" "$T_TMP/shape.ioprobe" >"$T_TMP/shape.diff"; then
		pass "#$n '$args': same stdout shape ($(wc -l <"$OUT") lines)"
	else
		fail "#$n '$args': stdout shapes differ (--- ioping, +++ ioprobe):"
		sed 's/^/  # /' "$T_TMP/shape.diff"
	fi
	check "#$n '$args': ioping's stderr is empty, so is ours" test -s "$IERR" -o ! -s "$ERR"
	# the same request numbers, directions and notices, in the same order
	if [[ $args != -R* ]]; then
		check "#$n '$args': same request sequence" test \
			"$(grep -oE '(<<<|>>>).*request=[0-9]+|\((warmup|too fast|too slow)\)$' "$IOUT" | sed 's/ .*request=/ /' | tr '\n' ' ')" = \
			"$(grep -oE '(<<<|>>>).*request=[0-9]+|\((warmup|too fast|too slow)\)$' "$OUT" | sed 's/ .*request=/ /' | tr '\n' ' ')"
		check "#$n '$args': same counts in the summary" test \
			"$(grep -oE '^([0-9]+ too (fast|slow), )*generated [0-9]+ requests' "$IOUT")" = \
			"$(sed -E 's/^(([0-9]+ too (fast|slow), )*)[0-9]+ skipped, generated /\1generated /' "$OUT" |
				grep -oE '^([0-9]+ too (fast|slow), )*generated [0-9]+ requests')"
	fi
done
check "no temp file left" test -z "$(ls -A "$D")"

# JSON: ioping's keys, in order and nesting, are a subsequence of ours.
json_keys_ok() {
	python3 -c '
import json, re, sys
a = json.load(open(sys.argv[1]))   # ioping
b = json.load(open(sys.argv[2]))   # ioprobe
def cmp(x, y, path):
    if isinstance(x, dict):
        if not isinstance(y, dict):
            sys.exit("%s: ioprobe has %r, not an object" % (path, type(y).__name__))
        ky = list(y)
        pos = 0
        for k in x:
            if k not in y:
                sys.exit("%s: key %r missing" % (path, k))
            i = ky.index(k)
            if i < pos:
                sys.exit("%s: key %r out of order (ioping %s, ioprobe %s)" % (path, k, list(x), ky))
            pos = i + 1
            cmp(x[k], y[k], path + "." + k)
    elif isinstance(x, list):
        if not isinstance(y, list) or len(x) != len(y):
            sys.exit("%s: ioping has %d items, ioprobe %s" % (path, len(x), len(y) if isinstance(y, list) else "none"))
        for i, (p, q) in enumerate(zip(x, y)):
            cmp(p, q, "%s[%d]" % (path, i))
    elif path.endswith((".target.path", ".target.fstype", ".target.device", ".target.device_size")) and x != y:
        sys.exit("%s: ioping %r, ioprobe %r (compared by value)" % (path, x, y))
    elif path.endswith(".localtime") and re.sub(r"\d", "N", x) != re.sub(r"\d", "N", y):
        sys.exit("%s: ioping %r, ioprobe %r (format differs)" % (path, x, y))
    elif type(x) is not type(y) and not (isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool) and not isinstance(y, bool)):
        sys.exit("%s: ioping %r, ioprobe %r" % (path, x, y))
cmp(a, b, "$")' "$IOUT" "$OUT"
}
JSETS=(
	"-J -c 3 -i 0 $D" "-J -q -c 3 -i 0 $D" "-J -p 2 -c 5 -i 0 $D" "-J -c 3 -i 0 -G $D"
	"-J -c 2 -i 0 -C -WWW /dev/zero"
	# issue 11: device fields by value, -J -I keeps the ISO localtime, -p with -P
	"-J -c 2 -i 0 /dev/zero" "-J -I -c 2 -i 0 $D" "-I%T -J -c 2 -i 0 $D" "-J -I%H -c 2 -i 0 $D"
	"-J -p 5 -P 50ms -c 30 -i 10ms -q $D"
)
[ -n "${LOOPDEV:-}" ] && JSETS+=("-J -c 2 -i 0 $LOOPDEV")
for args in "${JSETS[@]}"; do
	read -ra argv <<<"$args"
	probe "${argv[@]}"
	ioping_run "${argv[@]}"
	rm -f "$D"/ioping.tmp*
	check "'$args': same exit code (ioping $IRC, ioprobe $RC)" test "$IRC" = "$RC"
	check "'$args': ioping's output is valid JSON here" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$IOUT"
	check "'$args': ours is valid JSON" json_valid
	if msg=$(json_keys_ok 2>&1); then
		pass "'$args': ioping's keys present, same nesting and order"
	else
		fail "'$args': $msg"
	fi
	check "'$args': same pretty-print layout of ioping's keys" python3 -c '
import re, sys
def keys(f):
    return [m.group(1) + m.group(2) for m in re.finditer(r"^( *)(\"[^\"]*\"):", open(f).read(), re.M)]
a, b = keys(sys.argv[1]), keys(sys.argv[2])
it = iter(b)
sys.exit(0 if all(k in it for k in a) else 1)' "$IOUT" "$OUT"
done

# same_run ARGS...: ioping and ioprobe with ARGS: the same exit code and the same first
# stderr line (after the program name), or both silent.
same_run() {
	local args="$*" im om
	probe "$@"
	ioping_run "$@"
	rm -f "$D"/ioping.tmp* "${TMPFS:-$D}"/ioping.tmp*
	im=$(head -1 "$IERR" | sed 's/^ioping: //')
	om=$(head -1 "$ERR" | sed 's/^ioprobe: //')
	check "'$args': same exit code (ioping $IRC, ioprobe $RC)" test "$IRC" = "$RC"
	check "'$args': same message ('$im' / '$om')" test "$im" = "$om"
	[ -z "$im" ] || check "'$args': ours starts with ioprobe:" err_prefixed_or_usage
}

## issue 11 item 7: ioping's messages for sizes it wraps negative
same_run -s 9223372036854775807 -c 1 "$D"
same_run -s 8eb -c 1 "$D"
same_run -s nan -c 1 "$D"
same_run -s 9eb -c 1 "$D"
# deliberate (README): -c nan is refused; ioping turns it into garbage (one request)
probe -c nan -i 0 "$D"
check "-c nan: refused, rc 1" rc_is 1
check "-c nan: says why" err_has "^ioprobe: integer overflow at parsing argument: nan$"

## issue 11 item 8: prefixes ioping reads as a short option with its argument, or rejects
for w in "-ig" "-asc" "-tu" "-io 1" "-u" "-eng" "-ra" "--ra" "-raw" "-ur" "-no" "-as" "-js" \
	"-ascii" "-tui" "-iostat" "-ignore-error" "-raw-percentiles" "-json-" "-no-c" "-no-l" \
	"-lay"; do
	read -ra wv <<<"$w"
	case $w in
	-as | -no | -js) same_run "${wv[@]}" -c 1 -i 0 -q -B "$D" ;; # ioping options: both run
	-ascii | -tui | -iostat | -ignore-error | -raw-percentiles | -json- | -no-c | -no-l | -lay | \
		-ur)
		# ioprobe's own options at full length (or their shortest prefix): ioping
		# rejects them; check that it does, with a message, so the list stays honest
		ioping_run "${wv[@]}" -c 1 -i 0 -q "$D"
		check "'$w': ioping 1.3 rejects it (rc $IRC)" test "$IRC" = 1
		;;
	*) same_run "${wv[@]}" -c 1 -i 0 -q -B "$D" ;;
	esac
done

## issue 11 item 2: -r 0 and -l 0 mean "no pacing" (5 requests well under a second)
for a in "-r 0" "-l 0" "-rate-limit=0" "-r 0 -l 0"; do
	read -ra av <<<"$a"
	probe "${av[@]}" -c 5 -B "$D"
	ioping_run "${av[@]}" -c 5 -B "$D"
	check "'$a -c 5 -B': ioping ran unpaced ($(cut -d' ' -f10 "$IOUT") ns)" \
		test "$(cut -d' ' -f10 "$IOUT")" -lt 1000000000
	check "'$a -c 5 -B': so did ioprobe ($(cut -d' ' -f10 "$OUT") ns)" \
		test "$(cut -d' ' -f10 "$OUT")" -lt 1000000000
done

## issue 11 item 3: -p with -P; periods in the same sizes (field 9) as ioping
for a in "-p 5 -P 50ms -c 30 -i 10ms" "-p 3 -P 35ms -c 21 -i 10ms" "-P 1ns -i 5ms -c 6"; do
	read -ra av <<<"$a"
	probe "${av[@]}" -q "$D"
	ioping_run "${av[@]}" -q "$D"
	# -p 5 with -P 50ms at 10 ms: the count and the timer close a period at the same
	# instant, so which one wins (and the first period's size) depends on a few µs of
	# jitter in either tool: there, the number of periods must agree; elsewhere the sizes
	if [ "$a" = "-p 5 -P 50ms -c 30 -i 10ms" ]; then
		check "'$a -q': same number of periods ($(wc -l <"$IOUT") / $(wc -l <"$OUT"))" \
			test "$(wc -l <"$IOUT")" = "$(wc -l <"$OUT")"
	else
		check "'$a -q': same period sizes (ioping $(cut -d' ' -f9 "$IOUT" | tr '\n' ' ')/ ioprobe $(cut -d' ' -f9 "$OUT" | tr '\n' ' '))" \
			test "$(cut -d' ' -f9 "$IOUT")" = "$(cut -d' ' -f9 "$OUT")"
	fi
	check "'$a -q': no all-zero periods" eval '! grep -q "^0 0 0 0 0 0 0 0 0 " "$OUT"'
done

## issue 11 item 6: -D refuses only what the kernel refuses
if [ -n "$LOOPDEV" ]; then
	for a in "-S 1000000" "-S 1000000 -s 512" "-o 1024 -S 4000000" "-s 1000" "-o 100" ""; do
		read -ra av <<<"$a"
		probe -D "${av[@]}" -c 2 -i 0 -q "$LOOPDEV"
		ioping_run -D "${av[@]}" -c 2 -i 0 -q "$LOOPDEV"
		if [ "$IRC" = 0 ]; then
			check "-D $a on a 512-byte-sector loop device: runs as in ioping (rc $RC)" rc_is 0
		else # deliberate: refused before any I/O, rc 1, where ioping fails at the first request
			check "-D $a on a 512-byte-sector loop device: refused up front (ioping rc $IRC, ioprobe rc $RC)" \
				eval 'rc_is 1 && err_has "^ioprobe: -D: .* is not a multiple of 512, "'
		fi
	done
	for a in "-S 1000000" "-s 512" "-o 512" "-S 1000000 -s 8k"; do
		read -ra av <<<"$a"
		probe -D "${av[@]}" -c 2 -i 0 -q "$LOOP4K"
		ioping_run -D "${av[@]}" -c 2 -i 0 -q "$LOOP4K"
		if [ "$IRC" = 0 ]; then
			check "-D $a on a 4096-byte-sector loop device: runs as in ioping (rc $RC)" rc_is 0
		else
			check "-D $a on a 4096-byte-sector loop device: refused up front (ioping rc $IRC, ioprobe rc $RC)" \
				eval 'rc_is 1 && err_has "^ioprobe: -D: .* is not a multiple of 4096, "'
		fi
	done
fi
if [ -n "$TMPFS" ]; then
	head -c 4M /dev/zero >"$TMPFS/file"
	for t in "$TMPFS" "$TMPFS/file"; do
		same_run -D -s 1000 -c 2 -i 0 -q "$t"
		same_run -D -o 100 -S 1000000 -c 2 -i 0 -q "$t"
	done
fi
same_run -D -c 1 -i 0 /dev/zero
# deliberate (README): a directory's unaligned -S runs (the temp file is filled through
# the page cache); ioping fails while filling where the filesystem needs alignment
probe -D -S 1000000 -c 2 -i 0 -q "$D"
check "-D -S 1000000 on a directory: runs (rc $RC)" rc_is 0

finish
