#!/bin/bash
# Bad command lines and bad targets: exit code, first stderr line, empty stdout,
# nothing left behind, target unchanged; and where ioping 1.3 fails the same way,
# the same exit code and (after ioping: -> ioprobe:) the same first stderr line.
. "$(dirname "$0")/lib.sh"

require_cmd python3

# Fixtures: everything a case may touch lives under $FIX.
chmod 755 "$T_TMP" # the "nobody" case needs to reach $FIX
FIX=$T_TMP/fix
D=$FIX/dir           # an empty directory
F=$FIX/file          # 64 KiB of random data
EMPTY=$FIX/empty     # an empty file
FIFO=$FIX/fifo
SOCK=$FIX/sock
RO=$FIX/ro           # a directory nobody may write into
NX=$FIX/nonexistent
mkdir -p "$D" "$RO"
head -c 65536 /dev/urandom >"$F"
: >"$EMPTY"
mkfifo "$FIFO"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$SOCK"
chmod 555 "$RO"
chmod 755 "$FIX"

# ERE-quote a literal string (paths may hold '.', '+', ...).
q() { printf '%s' "$1" | sed 's/[][\.*^$?+(){}|]/\\&/g'; }

# "rc|stderr regex (after '^ioprobe: ')|flags|args..."
# flags: "ioping" = ioping 1.3 gives the same error; "nobody" = run as user nobody; "-" = none.
# Args are split on blanks (no fixture path contains one).
CASES=(
	# unknown options
	"1|unrecognized option '-x'\$|ioping|-x $D"
	"1|unrecognized option '--xyz'\$|ioping|--xyz $D"
	"1|unrecognized option '-xyz'\$|ioping|-xyz -c 1 $D"
	"1|invalid option -- 'Z'\$|ioping|-qZ $D"
	"1|invalid option -- 'Z'\$|ioping|-kqZ -c 1 $D"
	# missing arguments: short, long, prefix of a long option
	"1|option requires an argument -- 'c'\$|ioping|$D -c"
	"1|option requires an argument -- 'l'\$|ioping|$D -l"
	"1|option requires an argument -- 'e'\$|ioping|-e"
	"1|option '--count' requires an argument\$|ioping|$D --count"
	"1|option '-count' requires an argument\$|ioping|$D -cou"
	"1|option '--engine' requires an argument\$|-|$D --engine"
	# ambiguous prefixes
	"1|option '-wo' is ambiguous; possibilities: '-work-size' '-work-offset' '-work-time'\$|ioping|-wo 1 $D"
	"1|option '--c' is ambiguous; possibilities: '--cached' '--count'\$|ioping|--c 1 $D"
	# argument to an option that takes none
	"1|option '-quiet' doesn't allow an argument\$|ioping|-q=1 $D"
	"1|option '--quiet' doesn't allow an argument\$|ioping|--quiet=1 $D"
	"1|option '-cached' doesn't allow an argument\$|ioping|-cach=1 $D"
	# bad suffixes
	"1|invalid suffix: \"x\"\$|ioping|-c 5x $D"
	"1|invalid suffix: \"abc\"\$|ioping|-c abc $D"
	"1|invalid suffix: \"q\"\$|ioping|-s 1q $D"
	"1|invalid suffix: \"x\"\$|ioping|-i 1x $D"
	"1|invalid suffix: \"d\"\$|ioping|-w 1d $D"
	"1|invalid suffix: \"x\"\$|ioping|-S 1x $D"
	"1|invalid suffix: \"x\"\$|ioping|-P 0x $D"
	# overflows
	"1|integer overflow at parsing argument: 3g\$|ioping|-c 3g $D"
	"1|integer overflow at parsing argument: -1\$|ioping|-c -1 $D"
	"1|integer overflow at parsing argument: -4k\$|ioping|-c -4k $D"
	"1|integer overflow at parsing argument: 100000000000000000000\$|ioping|-s 100000000000000000000 $D"
	"1|integer overflow at parsing argument: 9e18t\$|ioping|-S 9e18t $D"
	"1|integer overflow at parsing argument: -1\$|ioping|-w -1 $D"
	"1|integer overflow at parsing argument: -1\$|ioping|-b -1 $D"
	"1|integer overflow at parsing argument: 2e9\$|ioping|-r 2e9 $D"
	# division by zero
	"1|division by zero in parsing argument: 1/0\$|ioping|-i 1/0 $D"
	"1|division by zero in parsing argument: 1/0k\$|ioping|-s 1/0k $D"
	# destinations
	"1|no destination specified\$|ioping|-c 1"
	"1|no destination specified\$|ioping|-I"
	# several destinations are several targets (issue 16): each once, at most 256; when
	# none can be prepared, the first failure's message and exit 2
	"1|duplicate target \"$(q "$D")\"\$|-|$D $D"
	"1|too many targets: 257 \\(at most 256\\)\$|-|$(printf 'x%d ' $(seq 257))"
	"1|no file, directory or device \"3\" \\(right after \"-ca\", which takes no value\\); nothing was run\$|-|-ca 3 $NX"
	"1|no file, directory or device \"3\" \\(right after \"-ca\", which takes no value\\); nothing was run\$|-|-ca 3 $D"
	# the request buffers of a run are bounded (1 GiB): depth x size x targets
	"1|-Q 4096 x -s 1 MiB x 1 target needs 4 GiB of request buffers, more than the 1 GiB a run may take: lower -Q or -s\$|-|-Q 4096 -U -D -s 1m $D"
	"1|-Q 1025 x -s 1 MiB x 1 target needs 1\\.00 GiB of request buffers|-|-Q 1025 -A -s 1m $D"
	"1|-Q 512 x -s 1 MiB x 3 targets needs 1\\.50 GiB of request buffers|-|-Q 512 -U -s 1m $D $F $EMPTY"
	# a fractional depth is refused, not cut to 1 (-Q 1.5 ran at depth 1)
	"1|-Q: the queue depth is a whole number of requests: \"1\\.5\"\$|-|-Q 1.5 -c 1 $D"
	"1|-Q: the queue depth is a whole number of requests: \"2\\.5\"\$|-|-Q 4,2.5 -c 1 $D"
	# a format after a bare -I is meant as its value (ioping: "more than one destination
	# specified", exit 1), not a second target that runs DIR then fails
	"1|no file, directory or device \"%T\" \\(right after \"-I\", which takes no value\\); nothing was run\$|-|-I %T $NX"
	"1|no file, directory or device \"%T\" \\(right after \"-I\", which takes no value\\); nothing was run\$|-|-I %T -c 1 $D"
	"2|stat \"$(q "$NX")\" failed: No such file or directory\$|-|-c 1 $NX -- -c"
	"2|stat \"$(q "$NX")\" failed: No such file or directory\$|ioping|-c 1 $NX"
	"2|stat \"$(q "$NX")\" failed: No such file or directory\$|ioping|-WWW -c 1 $NX"
	"2|stat \"$(q "$NX")\" failed: No such file or directory\$|ioping|-W -c 1 $NX"
	"2|unsupported destination: \"$(q "$FIFO")\"\$|ioping|-c 1 $FIFO"
	"2|unsupported destination: \"$(q "$FIFO")\"\$|ioping|-WWW -c 1 $FIFO"
	"2|unsupported destination: \"$(q "$SOCK")\"\$|ioping|-c 1 $SOCK"
	# writes without -WWW
	"2|think twice, then use -WWW to shred this target\$|ioping|-W -c 1 $F"
	"2|think twice, then use -WWW to shred this target\$|ioping|-WW -c 1 $F"
	"2|think twice, then use -WWW to shred this target\$|ioping|-G -c 1 $F"
	"2|think twice, then use -WWW to shred this target\$|ioping|-W -c 1 /dev/null"
	# -WWW on /dev/null: the write "succeeds", the fdatasync after it fails (EINVAL)
	"3|fdatasync failed, please retry with option -C: Invalid argument\$|ioping|-WWW -c 1 -i 0 /dev/null"
	# sizes
	"2|request size is too big for this target\$|ioping|-c 1 $EMPTY"
	"2|request size is too big for this target\$|ioping|-o 64k -c 1 $F"
	"2|request size is too big for this target\$|ioping|-S 2 -c 1 $D"
	"2|target is too small for this\$|ioping|-S 1m -c 1 $F"
	"2|target is too small for this\$|ioping|-o 1m -c 1 $F"
	"2|target is too small for this\$|ioping|-S 32k -o 48k -c 1 $F"
	"2|this platform supports requests 2147479552 bytes at most\$|ioping|-s 9e18 -c 1 $D"
	# O_DIRECT with an unaligned size is refused before any I/O (ioping fails while filling)
	"1|-D: request size 1000 is not a multiple of [0-9]+, the direct-I/O block size of \"$(q "$D")\"\$|-|-D -s 1000 -c 1 $D"
	"1|-D: request size 1000 is not a multiple of [0-9]+, the direct-I/O block size of \"$(q "$D")\"\$|-|-k -D -s 1000 -c 1 $D"
	# permissions
	"2|failed to create temporary file at \"$(q "$RO")\": Permission denied\$|ioping,nobody|-c 1 $RO"
	"2|failed to create temporary file at \"$(q "$RO")\": Permission denied\$|nobody|-k -c 1 $RO"
	# engines
	"1|unknown engine \"foo\"|-|--engine=foo -c 1 $D"
	"1|unknown engine \"foo\"|-|-engine foo -c 1 $D"
)

[ "${#CASES[@]}" -ge 30 ] || fail "only ${#CASES[@]} cases"
have_ioping=false
[ -x "$IOPING" ] && have_ioping=true

state0=$(tree_state "$FIX")
n=0
for c in "${CASES[@]}"; do
	IFS='|' read -r want_rc want_err flags args <<<"$c"
	read -ra argv <<<"$args"
	n=$((n + 1))
	name="#$n ioprobe $args"
	start=$(now_ms)
	if [[ ,$flags, == *,nobody,* ]]; then
		probe_as nobody "${argv[@]}"
	else
		probe "${argv[@]}"
	fi
	took=$(($(now_ms) - start))
	first=$(head -1 "$ERR")
	ok=true
	why=
	[ "$RC" = "$want_rc" ] || { ok=false; why+=" rc=$RC (want $want_rc);"; }
	if ! grep -Eq -- "^ioprobe: $want_err" <<<"$first"; then
		ok=false
		why+=" stderr line 1 does not match '^ioprobe: $want_err';"
	fi
	[ -s "$OUT" ] && { ok=false; why+=" stdout not empty;"; }
	[ "$took" -lt 10000 ] || { ok=false; why+=" took ${took} ms;"; }
	[ "$(tree_state "$FIX")" = "$state0" ] || {
		ok=false
		why+=" fixtures changed or a file was left behind: $(diff <(echo "$state0") <(tree_state "$FIX") | grep '^[<>]' | tr '\n' ' ');"
	}
	if $ok; then pass "$name"; else fail "$name:$why"; fi

	if $have_ioping && [[ ,$flags, == *,ioping,* ]]; then
		if [[ ,$flags, == *,nobody,* ]]; then
			timeout -k 5 60 setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups \
				bash -c 'exec -a ioping "$0" "$@"' "$IOPING" "${argv[@]}" >"$IOUT" 2>"$IERR"
			IRC=$?
		else
			ioping_run "${argv[@]}"
		fi
		ifirst=$(head -1 "$IERR" | sed 's/^ioping: /ioprobe: /')
		if [ "$IRC" = "$RC" ] && [ "$ifirst" = "$first" ]; then
			pass "$name: same as ioping"
		else
			fail "$name: differs from ioping 1.3: ioping rc=$IRC, '$ifirst'; ioprobe rc=$RC, '$first'"
		fi
		# ioping may leave ioping.tmp behind (-k); restore the fixtures for the next case
		rm -f "$D"/ioping.tmp* "$RO"/ioping.tmp* 2>/dev/null
	fi
done

## --qualify profiles whose steps carry what a step may not: each refused with its line and
## reason, nothing run (this suite runs under ASan+UBSan too: the "--" case crashed with SIGSEGV)
QD=$T_TMP/qdir
mkdir "$QD"
# a step with "--" (its words after it would be targets) crashed with SIGSEGV; each is refused
i=0
for words in "-c 5 -i 0 --" "-c 5 -- -i 0" "-c 5 -- FILE" "-c 5 -i 0 -- $QD"; do
	i=$((i + 1))
	printf 'qualify dd\nstep s %s\nrequire IOPS > 1\n' "$words" >"$T_TMP/dd$i.prof"
	probe --qualify "$T_TMP/dd$i.prof" "$QD"
	check "a step \"$words\": exit 2, line 2, \"--\" refused (no crash)" \
		eval 'rc_is 2 && err_has "^ioprobe: --qualify $T_TMP/dd$i.prof: line 2: step \"s\": \"--\" has no place in a step" && out_empty'
done
# options that make a run of their own are refused in a step, with the line and the reason
# (--record, --report, --qualify and --listen were listed and silently ignored)
for words in "--record $T_TMP/r.jsonl" "--record-requests" "--report $T_TMP/r.html" \
	"--replay $T_TMP/r.jsonl" "--qualify db" "--listen 127.0.0.1:0" "--name a" \
	"-s 4k,8k" "-Q auto -A" "--check 1ms,2ms"; do
	printf 'qualify x\nstep s -c 5 %s\nrequire IOPS > 1\n' "$words" >"$T_TMP/x.prof"
	probe --qualify "$T_TMP/x.prof" "$QD"
	check "a step with $words: exit 2, line 2, the reason" \
		eval 'rc_is 2 && err_has "^ioprobe: --qualify $T_TMP/x.prof: line 2: step \"s\": [a-z-]" && out_empty'
done
# a threshold's number is decimal: "0x10ms" was read as 16 ms, "p0x10" as p16, IOPS "0x10" as 16
i=0
for req in "p99 < 0x10ms|a latency threshold is a decimal number and a unit" \
	"p99 < 1e1ms|a latency threshold is a decimal number and a unit" \
	"p0x10 < 10ms|unknown metric .p0x10." "IOPS > 0x10|IOPS takes a plain number: .0x10."; do
	i=$((i + 1))
	printf 'qualify h\nstep s -c 5\nrequire %s\n' "${req%%|*}" >"$T_TMP/hex$i.prof"
	probe --qualify "$T_TMP/hex$i.prof" "$QD"
	check "a threshold \"${req%%|*}\": exit 2, line 3, refused" \
		eval 'rc_is 2 && err_has "^ioprobe: --qualify $T_TMP/hex$i.prof: line 3: ${req#*|}" && out_empty'
done
check "no recording or report was written by a refused step" \
	eval '[ ! -e "$T_TMP/r.jsonl" ] && [ ! -e "$T_TMP/r.html" ]'
check "refused steps left nothing in the target directory" [ -z "$(ls -A "$QD")" ]

finish
