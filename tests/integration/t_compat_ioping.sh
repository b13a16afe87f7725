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
			"$(grep -oE '^([0-9]+ too (fast|slow), )*generated [0-9]+ requests' "$OUT")"
	fi
done
check "no temp file left" test -z "$(ls -A "$D")"

# JSON: ioping's keys, in order and nesting, are a subsequence of ours.
json_keys_ok() {
	python3 -c '
import json, sys
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
    elif type(x) is not type(y) and not (isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool) and not isinstance(y, bool)):
        sys.exit("%s: ioping %r, ioprobe %r" % (path, x, y))
cmp(a, b, "$")' "$IOUT" "$OUT"
}
for args in "-J -c 3 -i 0 $D" "-J -q -c 3 -i 0 $D" "-J -p 2 -c 5 -i 0 $D" "-J -c 3 -i 0 -G $D" "-J -c 2 -i 0 -C -WWW /dev/zero"; do
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

finish
