#!/bin/bash
# The full-screen view against hostile conditions (issue 10, items 3, 4, 5, 7, 8, 11), in
# tmux: every signal that ends the process and every pair of stop signals (the second one's
# exit 4 included) leaves the terminal as it was (alternate screen off, cursor on, stty -g
# unchanged); q never waits for a request that is not in flight; a warning repeated at full
# speed is counted, not stored (RSS over 20 s); numbers keep a decimal point under a
# decimal-comma locale; an unknown TERM or no thread for the probe is refused before any
# preparation; control characters in the path are escaped on the screen.
. "$(dirname "$0")/lib.sh"

require_cmd tmux
"$IOPROBE" -h 2>/dev/null | grep -q -- '-tui' || skip "built without the full-screen view"
. "$(dirname "$0")/tui_lib.sh"

D=$T_TMP/d
mkdir "$D"
RUN=(--tui -i 0.05 --engine=null "$D")

# running: the view shows requests and the UI thread handles signal $1; prints the pid.
running() {
	local pid
	wait_for "request=3 " 10 || return 1
	pid=$(ioprobe_pid) || return 1
	wait_caught "$pid" "$1" 10 || return 1
	echo "$pid"
}

## 1. every signal whose default action ends the process: terminal restored, then death by it
# (SIGXFSZ is ignored from the start, so an oversized write fails with EFBIG instead: below)
for sig in QUIT USR1 USR2 ALRM VTALRM PROF XCPU PWR RTMIN RTMAX; do
	num=$(kill -l "$sig")
	start 120 40 -- "${RUN[@]}"
	pid=$(running "$num")
	check "SIG$sig: caught while the view runs" test -n "$pid"
	[ -n "$pid" ] && kill -"$sig" "$pid"
	check "SIG$sig: dies of it" wait_for "^EXIT=$((128 + num))" 10
	check "SIG$sig: terminal restored" terminal_restored
done

# SIGXFSZ is ignored: the view keeps running, q ends it normally, terminal as it was
start 120 40 -- "${RUN[@]}"
wait_for "request=3 " 10
pid=$(ioprobe_pid)
check "SIGXFSZ: ignored (SigIgn) while the view runs" eval '[ -n "$pid" ] &&
	(( (16#$(awk "/^SigIgn:/ { print \$2 }" /proc/$pid/status) >> ($(kill -l XFSZ) - 1)) & 1 ))'
[ -n "$pid" ] && kill -XFSZ "$pid"
sleep 0.3
check "SIGXFSZ: the view is still running" kill -0 "$pid"
TM send-keys -t t q
check "SIGXFSZ: q then ends it with status 0" wait_for "^EXIT=0" 10
check "SIGXFSZ: terminal restored" terminal_restored

## 2. two stop signals back to back: exit 0 or 4, the terminal restored either way
for pair in "TERM HUP" "HUP TERM" "INT TERM" "TERM TERM" "TERM QUIT"; do
	set -- $pair
	for round in 1 2; do
		start 120 40 -- "${RUN[@]}"
		pid=$(running "$(kill -l "$1")")
		[ -n "$pid" ] && kill -"$1" "$pid" && kill -"$2" "$pid"
		check "SIG$1+SIG$2 ($round): exits" wait_for "^EXIT=(0|4|131)" 10
		check "SIG$1+SIG$2 ($round): terminal restored" terminal_restored
	done
done
# both pending when the process resumes: the second one's _exit(4) runs at once
for pair in "TERM HUP" "INT TERM"; do
	set -- $pair
	start 120 40 -- "${RUN[@]}"
	pid=$(running "$(kill -l "$1")")
	if [ -n "$pid" ]; then
		kill -STOP "$pid"; kill -"$1" "$pid"; kill -"$2" "$pid"; kill -CONT "$pid"
	fi
	check "stopped, SIG$1+SIG$2, resumed: exit 4" wait_for "^EXIT=4" 10
	check "stopped, SIG$1+SIG$2, resumed: terminal restored" terminal_restored
done

## 3. q with nothing in flight (a probe thread busy folding -P 1ns periods) never says
##    it waits for a request in flight
start 120 40 -- --tui -P 1ns -i 5s --engine=null "$D"
check "-P 1ns: first request shown" wait_for "request=1 " 10
sleep 0.3
TM send-keys -t t q
check "-P 1ns: q exits" wait_for "^EXIT=0" 30
check "-P 1ns: no false 'waiting for the request in flight'" \
	eval "! grep -q 'waiting for the request in flight' '$ERR'"

## 4. a warning on every request at full speed: counted, memory flat, one line at the end
start 120 40 -- -X -i 0 /dev/null
check "-X -i 0 /dev/null: runs" wait_for "request=[0-9]{4,} " 10
pid=$(ioprobe_pid)
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null; }
sleep 5
r0=$(rss)
sleep 15
r1=$(rss)
check "-X -i 0 /dev/null: RSS flat over 15 s (${r0:-?} -> ${r1:-?} KiB)" \
	test -n "$r0" -a -n "$r1" -a "$((r1 - ${r0:-0}))" -lt 4096
TM send-keys -t t q
check "-X -i 0 /dev/null: q exits" wait_for "^EXIT=0" 20
check "-X -i 0 /dev/null: one counted warning line" \
	grep -Eq '^ioprobe: request returned less than expected: 0 \(×[0-9]{1,3}(,[0-9]{3})+\)$' "$ERR"
check "-X -i 0 /dev/null: stderr stays short ($(wc -c <"$ERR") bytes)" \
	test "$(wc -c <"$ERR")" -lt 1000

## 5. a decimal-comma locale: the view and the summary print decimal points
if ! locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8'; then
	localedef -i de_DE -f UTF-8 de_DE.UTF-8 2>/dev/null
fi
if locale -a 2>/dev/null | grep -qix 'de_DE.utf-\?8'; then
	start 120 40 LC_ALL=de_DE.UTF-8 -- --tui -i 0.05 --engine=null:1500us "$D"
	check "de_DE: runs" wait_for "request=5 " 10
	check "de_DE: the view's latencies have a decimal point" has "time=1\.[0-9]+ ms"
	check "de_DE: no decimal comma in the view" lacks "[0-9],[0-9]+ (µs|ms|s)"
	TM send-keys -t t q
	check "de_DE: exits" wait_for "^EXIT=0" 10
	check "de_DE: summary min/avg/max with points" has "^min/avg/max/mdev = 1\.[0-9]+ ms"
	check "de_DE: no decimal comma in the summary" \
		lacks "^(min|p50|[0-9]+ requests).*[0-9],[0-9]"
elif [ "${IOPROBE_TEST_STRICT:-0}" = 1 ]; then
	fail "de_DE.UTF-8: cannot generate the locale (IOPROBE_TEST_STRICT=1)"
else
	echo "SKIP - de_DE.UTF-8: cannot generate the locale (localedef)"
fi

## 6. refused before any preparation (a 256 MiB working set would take a while to write)
start 120 40 TERM=no-such-terminal -- --tui -S 256m "$D"
check "unknown TERM: exit 1" wait_for "^EXIT=1" 10
check "unknown TERM: says so" grep -q '^ioprobe: --tui: unknown terminal type "no-such-terminal"' "$ERR"
check "unknown TERM: nothing prepared" test -z "$(ls -A "$D")"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v prlimit >/dev/null &&
	! pgrep -u nobody >/dev/null; then
	T_WRAP="setpriv --reuid=nobody --regid=$(id -gn nobody) --clear-groups prlimit --nproc=1"
	# (under ASan, LeakSanitizer's exit check needs a thread of its own, which nproc=1 denies)
	start 120 40 ASAN_OPTIONS=detect_leaks=0 -- --tui -i 0.05 /dev/null
	T_WRAP=
	check "no thread: exit 2 (not 3)" wait_for "^EXIT=2" 10
	check "no thread: says so" grep -q '^ioprobe: --tui cannot start a thread for the probe' "$ERR"
	check "no thread: terminal untouched" terminal_restored
elif [ "${IOPROBE_TEST_STRICT:-0}" = 1 ]; then
	fail "no thread: needs root, setpriv, prlimit and no process of nobody"
else
	echo "SKIP - no thread: needs root, setpriv, prlimit and no process of nobody"
fi

## 7. control characters in the path are escaped on the screen
E=$T_TMP/$'new\nline\e[31mred'
mkdir "$E"
start 160 40 -- --tui -i 0.05 --engine=null "'$E'"
check "escaped path: header" wait_for 'new\\nline\\(e|x1b)\[31mred \(' 10
check "escaped path: request lines" has '<<< .*new\\nline\\(e|x1b)\[31mred \(.*request=[0-9]'
check "escaped path: no raw line break" lacks '^line'
TM send-keys -t t q
check "escaped path: exits" wait_for "^EXIT=0" 10

finish
