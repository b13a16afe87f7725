#!/bin/bash
# A stop signal always stops: SIGTERM to a run whose request never returns (a FUSE server
# that took the request and never answers: the reader sits in uninterruptible sleep, which
# not even SIGKILL ends) ends every command-line mode within 1 s, with its closing output
# whole, standard output released (a pipe reader sees EOF) and exit 3, because the request
# is issued by a child process that holds nothing of the caller's. The child, left in the
# kernel, ends when its request does. Also: the same after the FUSE server is killed, at
# -Q 1 and -Q 64 with every engine, and beside a healthy second target.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_fuse
require_loop
require_cmd python3

M=$T_TMP/hang
DEV=$(make_fault_disk "$M" 32M) || { fail "mount faultdisk"; finish; }
FILE=$M/disk # the FUSE file itself: its reader waits in request_wait_answer
GOOD=$(make_loop 16M)
PIPE=$T_TMP/stdout.pipe
mkfifo "$PIPE" "$T_TMP/stdin.pipe"
exec 7<>"$T_TMP/stdin.pipe" # --influx reads stdin: one that never ends


# stop_timed PID SIG: send SIG to PID, wait for its end (SIGKILL after 5 s, its kernel stack
# said); DT is the ms from the signal to the end, RC its exit status.
stop_timed() {
	local t0
	t0=$(now_ms)
	kill -"$2" "$1"
	if ! wait_exit "$1" 5; then
		echo "# still running 5 s after SIG$2: $(tr '\n' ' ' <"/proc/$1/stack" 2>/dev/null)"
		kill -KILL "$1"
	fi
	DT=$(($(now_ms) - t0))
	wait "$1"
	RC=$?
}

# ended PID T0 SECONDS: wait up to SECONDS for PID to end by itself (then SIGKILL); DT is the
# ms since T0 (now_ms), RC its exit status.
ended() {
	wait_exit "$1" "$3" || kill -KILL "$1"
	DT=$(($(now_ms) - $2))
	wait "$1"
	RC=$?
}

# hang_case NAME TARGET... -- ARGS...: start ioprobe ARGS TARGET... (stdout through a pipe
# to cat), let it probe, hang the disk, wait until the request is in the FUSE server, then
# SIGTERM. Sets RC, DT (ms from SIGTERM to exit) and CAT_DT (ms until the pipe reader saw
# EOF); stdout in $OUT, stderr in $ERR. The hang stays on (hang_release ends it).
hang_case() {
	local targets=() pid cat_pid t0
	while [ "$1" != -- ]; do targets+=("$1"); shift; done
	shift
	fault_ctl "$M" "hang 0"
	cat "$PIPE" >"$OUT" &
	cat_pid=$!
	"$IOPROBE" "$@" "${targets[@]}" >"$PIPE" 2>"$ERR" <&7 &
	pid=$!
	FLEET_BG+=("$pid")
	wait_caught "$pid" 15 5
	sleep 0.4
	fault_ctl "$M" "hang 1"
	wait_fault "$M" hung_now 1 5
	sleep 0.3
	t0=$(now_ms)
	kill -TERM "$pid"
	wait_exit "$pid" 5 || kill -KILL "$pid"
	DT=$(($(now_ms) - t0))
	wait "$pid"
	RC=$?
	wait_exit "$cat_pid" 5 || kill "$cat_pid"
	CAT_DT=$(($(now_ms) - t0))
	wait "$cat_pid" 2>/dev/null
}

# hang_release PATTERN: end the hang; the given-up probe process must end with its request.
hang_release() {
	fault_ctl "$M" "hang 0"
	check "$2: once the request returns, no ioprobe process is left" wait_ioprobe_gone "$1"
}

# stop_checks NAME: what every mode owes its caller after the stop.
stop_checks() {
	check "$1: SIGTERM ends it within 1 s while the request hangs (${DT} ms)" \
		test "$DT" -le 1000
	check "$1: stdout released: the pipe reader sees EOF within 1 s (${CAT_DT} ms)" \
		test "$CAT_DT" -le 1000
	check "$1: exit 3 (a request did not complete)" rc_is 3
	check "$1: says the request was in flight, hung" \
		err_has '^ioprobe: (.*: )?[0-9]+ requests? in flight \(hung [0-9.]+ s\) at the stop: (it|they) did not complete$'
}

## 1. every output mode, sync engine, on the FUSE file
plain_case() {
	hang_case "$FILE" -- -i 0.05
	stop_checks "plain"
	check "plain: the summary is whole" \
		eval 'out_has "^--- .* ioprobe statistics ---$" && out_has "^min/avg/max/mdev = " && out_has "^p50/p90/p99/p99.9 = "'
	check "plain: its wall time is the run's (not 0 ns)" out_has '^generated [0-9]+ requests in [0-9.]+ (ms|s),'
}
attempts 2 plain_case
hang_release "$FILE" "plain"

json_case() {
	hang_case "$FILE" -- -J -i 0.05
	stop_checks "-J"
	check "-J: the output is one valid JSON array, the totals last" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d and "stat" in d[-1] and d[-1]["stat"]["count"] >= 1' "$OUT"
}
attempts 2 json_case
hang_release "$FILE" "-J"

lines_case() {
	hang_case "$FILE" -- --json-lines -i 0.05
	stop_checks "--json-lines"
	check "--json-lines: every line is a JSON object, the last the totals" python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines and "stat" in lines[-1]' "$OUT"
}
attempts 2 lines_case
hang_release "$FILE" "--json-lines"

batch_case() {
	hang_case "$FILE" -- -B -i 0.05
	stop_checks "-B"
	check "-B: the raw line is there (at least ten numbers)" \
		out_has '^[0-9]+( [0-9.]+){9}'
}
attempts 2 batch_case
hang_release "$FILE" "-B"

check_case() {
	hang_case "$FILE" -- --check 1s,2s -c 1000 -i 0.01
	RC_CHECK=$RC
	DT_OK=$DT
	check "--check: SIGTERM ends it within 1 s (${DT} ms)" test "$DT" -le 1000
	check "--check: stdout released within 1 s (${CAT_DT} ms)" test "$CAT_DT" -le 1000
	check "--check: one plugin line, UNKNOWN with the hung request" \
		eval 'out_lines 1 && out_has "^IOPROBE UNKNOWN - [0-9]+ requests? in flight \\(hung [0-9.]+ s\\) at the stop"'
	check "--check: exit 3 (UNKNOWN)" rc_is 3
}
attempts 2 check_case
hang_release "$FILE" "--check"

# --check-timeout (issue 26): on a disk that hangs, --check answers by itself within its
# timeout, CRITICAL with the hung request and what did complete, with no signal from outside
check_timeout_case() {
	local pid t0
	fault_ctl "$M" "hang 0"
	t0=$(now_ms)
	"$IOPROBE" --check 1s,2s --check-timeout 1.5 -c 1000 -i 0.01 "$FILE" >"$OUT" 2>"$ERR" <&7 &
	pid=$!
	FLEET_BG+=("$pid")
	sleep 0.4
	fault_ctl "$M" "hang 1"
	ended "$pid" "$t0" 6
	check "--check-timeout 1.5: answers by itself within 1.5 + 1 s (${DT} ms)" \
		test "$DT" -le 2500
	check "--check-timeout: CRITICAL (exit 2)" rc_is 2
	check "--check-timeout: one plugin line with the hung request, the figures and perfdata" \
		eval 'out_lines 1 && out_has "^IOPROBE CRITICAL - 1 request in flight \\(hung [0-9.]+ s\\) at the stop: it did not complete \\(--check-timeout 1\\.5 s\\); p99 [0-9.]+ ms, .* requests, 0 failed \\| .p99.="'
}
attempts 2 check_timeout_case
hang_release "$FILE" "--check-timeout 1.5 -c 1000 -i 0.01"

prom_case() {
	rm -f "$T_TMP/q.prom"
	hang_case "$FILE" -- --prometheus "$T_TMP/q.prom" --prometheus-period 0.1 -i 0.05
	stop_checks "--prometheus"
	check "--prometheus: the last textfile write has the hung request in flight" \
		eval 'grep -Eq "^ioprobe_requests_in_flight\{.*\} 1$" "$T_TMP/q.prom" && grep -Eq "^ioprobe_oldest_in_flight_seconds\{.*\} (0\.[3-9]|[1-9])" "$T_TMP/q.prom"'
	check "--prometheus: no temp file left" test -z "$(ls "$T_TMP" | grep 'q.prom.tmp')"
}
attempts 2 prom_case
hang_release "$FILE" "--prometheus"

influx_case() {
	hang_case "$FILE" -- --influx -P 0.2 -i 0.05
	stop_checks "--influx"
	check "--influx: whole lines only (each ends in a newline, a timestamp last)" \
		eval '[ -s "$OUT" ] && [ -z "$(tail -c1 "$OUT")" ] && ! grep -Evq " [0-9]{19}$" "$OUT"'
}
attempts 2 influx_case
hang_release "$FILE" "--influx"

# --influx while the disk hangs (issue 26): the hung target still gets a line every period,
# nothing counted, with the request in flight and its growing age; Telegraf sees the hang
# while it lasts, not only after it
influx_hang() {
	fault_ctl "$M" "hang 0"
	"$IOPROBE" --influx -P 0.2 -i 0.05 "$FILE" >"$OUT" 2>"$ERR" <&7 &
	local pid=$!
	FLEET_BG+=("$pid")
	sleep 0.8
	fault_ctl "$M" "hang 1"
	wait_fault "$M" hung_now 1 5
	sleep 1.5
	kill -TERM "$pid"
	wait_exit "$pid" 5 || kill -KILL "$pid"
	wait "$pid"
	RC=$?
	check "--influx hang: lines with the request in flight while it hangs (several periods)" \
		test "$(grep -c ' requests=0i,errors=0i,bytes=0i,in_flight=1i,' "$OUT")" -ge 4
	check "--influx hang: the oldest in flight grows from line to line, past 1 s" \
		eval 'grep -o "oldest_in_flight_ms=[0-9.]*" "$OUT" | cut -d= -f2 |
		      awk "\$1 > 0 { if (\$1 < last) bad = 1; last = \$1 } END { exit bad || last < 1000 }"'
	tap python3 "$SRCDIR/tests/integration/fleet_lp.py" "$OUT" "$FILE" 4
}
attempts 2 influx_hang

hang_release "$FILE" "--influx -P 0.2 -i 0.05"

# the first line of a hang comes half a period after the line that did not (issue 35: it
# came a whole period after, a 4 s gap at -P 2s), then one every period: -P 1s, from the
# lines' own timestamps (a probe line's is its period's end)
influx_hang_timing() {
	fault_ctl "$M" "hang 0"
	"$IOPROBE" --influx -P 1s -i 0.05 "$FILE" >"$OUT" 2>"$ERR" <&7 &
	local pid=$!
	FLEET_BG+=("$pid")
	sleep 2.3
	fault_ctl "$M" "hang 1"
	wait_fault "$M" hung_now 1 5
	sleep 4.2
	kill -TERM "$pid"
	wait_exit "$pid" 5 || kill -KILL "$pid"
	wait "$pid"
	# "FIRST GAP GAP...": the ms from the last probe line to the first hung line, then
	# between the hung lines
	GAPS=$(awk '{ t = $NF / 1e6; hung = /[ ,]in_flight=1i,/ && / requests=0i,/ }
		    hung && prev { printf "%s%d", sep, t - prev; sep = " " }
		    { if (hung || !seen) prev = t; if (hung) seen = 1 }' "$OUT")
	echo "# ms to the first hung line, then between them: ${GAPS:-none}"
	check "--influx -P 1s hang: the first hung line 1.5 s after the last probe line (1450-1700 ms)" \
		eval 'g=$(echo $GAPS | cut -d" " -f1) && [ -n "$g" ] && [ "$g" -ge 1450 ] && [ "$g" -le 1700 ]'
	check "--influx -P 1s hang: then one a second (900-1150 ms apart, 2 at least)" \
		eval '[ $(echo $GAPS | wc -w) -ge 3 ] && for g in $(echo $GAPS | cut -d" " -f2-); do [ "$g" -ge 900 ] && [ "$g" -le 1150 ] || exit 1; done'
}
attempts 2 influx_hang_timing
hang_release "$FILE" "--influx -P 1s"

listen_case() {
	PORT=$(free_port)
	hang_case "$FILE" -- --listen "127.0.0.1:$PORT" -i 0.05
	stop_checks "--listen"
	check "--listen: the port is free at once (the probe's process holds no socket)" \
		python3 -c 'import socket, sys; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1])))' "$PORT"
}
attempts 2 listen_case
hang_release "$FILE" "--listen"

quiet_case() {
	hang_case "$FILE" -- -q -i 0.05
	stop_checks "-q"
	check "-q: the summary is whole" out_has '^p50/p90/p99/p99.9 = '
}
attempts 2 quiet_case
hang_release "$FILE" "-q"

sweep_case() {
	hang_case "$DEV" -- -D --sweep=20,40 -w 2
	stop_checks "--sweep"
	check "--sweep: the table's header came before the hung step" out_has '^size +asked/s'
}
attempts 2 sweep_case
hang_release "$DEV" "--sweep"

## 2. every engine, at depth 1 and 64 (direct I/O on the loop device over the FUSE file)
for spec in "sync|-D|$DEV" "libaio|-A|$FILE" "io_uring|-U|$FILE" "libaio|-A -D -Q 64 -i 0.01|$DEV" \
	"io_uring|-U -D -Q 64 -i 0.01|$DEV"; do
	IFS='|' read -r name eargs target <<<"$spec"
	engine_case() {
		# shellcheck disable=SC2086
		hang_case "$target" -- $eargs -i 0.05
		stop_checks "$name $eargs"
		check "$name $eargs: the summary is whole" out_has '^p50/p90/p99/p99.9 = '
	}
	attempts 2 engine_case
	hang_release "$target" "$name $eargs"
done

## 3. beside a healthy target: both summaries, the hung one named
multi_case() {
	hang_case "$GOOD" "$DEV" -- -D -i 0.05
	stop_checks "two targets"
	check "two targets: the hung one is named" err_has "^ioprobe: $DEV: 1 request in flight"
	check "two targets: both summaries, in the order given" \
		eval '[ "$(grep -c "ioprobe statistics ---$" "$OUT")" = 2 ]'
}
attempts 2 multi_case
hang_release "$DEV" "two targets"

## 3b. a stop while the target is prepared on a disk that hangs (issue 22): ext4 on a loop
## device over the FUSE disk; the working set's fsync hangs. The preparation runs in a child
## process: SIGTERM ends ioprobe within 1 s with its message, and once the disk answers again
## the child removes its temp file and ends.
if command -v mkfs.ext4 >/dev/null 2>&1; then
	M3=$T_TMP/prep
	DEV3=$(make_fault_disk "$M3" 64M) || { fail "mount faultdisk 3"; finish; }
	FS=$T_TMP/prepfs
	mkdir -p "$FS"
	if mkfs.ext4 -q -F "$DEV3" >/dev/null 2>&1 && mount "$DEV3" "$FS"; then
		register_mount "$FS"
		# fs_left: what is in $FS besides lost+found once it empties, or 5 s passed
		fs_left() {
			local tries=500
			while [ -n "$(ls -A "$FS" | grep -v lost+found)" ] && [ "$tries" -gt 0 ]; do
				sleep 0.01
				tries=$((tries - 1))
			done
			ls -A "$FS" | grep -v lost+found
		}
		prep_hang() {
			local pid
			fault_ctl "$M3" "hang 1"
			"$IOPROBE" -S 16m -c 3 -i 0.05 "$FS" >"$OUT" 2>"$ERR" &
			pid=$!
			FLEET_BG+=("$pid")
			wait_fault "$M3" hung_now 1 10
			sleep 0.3
			stop_timed "$pid" TERM
			check "stop while preparing on a hung disk: ends within 1 s (${DT} ms)" \
				test "$DT" -le 1000
			check "stop while preparing on a hung disk: exit 2, says the preparation was given up" \
				eval 'rc_is 2 && err_has "^ioprobe: preparing $FS: a request did not complete within 0\\.5 s of the stop \\(the disk hangs\\); given up$"'
			check "stop while preparing on a hung disk: nothing on stdout" out_empty
			fault_ctl "$M3" "hang 0"
			check "once the disk answers, the preparation's child removes its temp file" \
				test -z "$(fs_left)"
			hang_release "-S 16m -c 3 -i 0.05 $FS" "prep"
		}
		attempts 2 prep_hang

		## 3c. a directory target whose disk hangs mid-run (issue 34): buffered reads of the
		## unnamed temp file go on from the page cache; after the stop the parent must not be
		## the one that drops the file's last reference (its eviction truncates on the hung
		## disk: D state, stdout held, even after SIGKILL). A process apart closes it.
		dir_hang() {
			local sig=$1 how=$2 pid t0 cat_pid
			fault_ctl "$M3" "hang 0"
			cat "$PIPE" >"$OUT" &
			cat_pid=$!
			"$IOPROBE" -i 0.1 -S 4m "$FS" >"$PIPE" 2>"$ERR" &
			pid=$!
			FLEET_BG+=("$pid")
			wait_caught "$pid" 15 5
			sleep 0.5
			fault_ctl "$M3" "hang 1"
			sleep 0.5
			t0=$(now_ms)
			stop_timed "$pid" "$sig"
			wait_exit "$cat_pid" 5 || kill "$cat_pid"
			CAT_DT=$(($(now_ms) - t0))
			wait "$cat_pid" 2>/dev/null
			check "directory on a hung disk ($how), SIG$sig: ends within 1 s (${DT} ms)" \
				test "$DT" -le 1000
			check "directory on a hung disk ($how), SIG$sig: stdout released within 1 s (${CAT_DT} ms)" \
				test "$CAT_DT" -le 1000
			# a read that missed the page cache hangs with the disk: then exit 3, said
			check "directory on a hung disk ($how), SIG$sig: the summary whole, exit 0 or 3" \
				eval '{ rc_is 0 || rc_is 3; } && out_has "^p50/p90/p99/p99.9 = "'
			local left
			left=$(ioprobe_left "-i 0.1 -S 4m $FS")
			echo "# left: $(for p in $left; do echo "$p $(awk '/^State/ { print $2 }' /proc/$p/status) $(head -3 /proc/$p/stack | tr '\n' ' ')"; done)"
			# the request's child (if its read hangs) and the process that drops the file
			check "directory on a hung disk ($how), SIG$sig: only processes in the kernel on the hung disk are left" \
				eval '[ "$(echo "$left" | grep -c .)" -le 2 ] && for p in $left; do grep -q "^State:.*D" /proc/$p/status || exit 1; done'
			fault_ctl "$M3" "hang 0" # (hang_release answers $M's requests, this is $M3)
			hang_release "-i 0.1 -S 4m $FS" "directory on a hung disk ($how), SIG$sig"
		}
		# (not with -o sync: there the kernel deadlocked the evicting close against the
		# journal's commit for good, the disk answering or not — measured on 6.18 — leaving
		# an unkillable process and a busy device behind on the test machine; ioprobe's own
		# process ended within 1 s there too)
		for sig in INT TERM HUP; do
			attempts 2 dir_hang "$sig" defaults
		done

		## 3d. --qualify on a directory whose disk hangs mid-step: the stop ends it (NOT RUN,
		## exit 2) within 1 s; the working set's removal runs apart and is given up, said; once
		## the disk answers, the file goes
		printf 'qualify long\nstep long -w 20s -i 0\nrequire IOPS > 1\n' >"$T_TMP/long.prof"
		qual_hang() {
			local pid
			fault_ctl "$M3" "hang 0"
			"$IOPROBE" --qualify "$T_TMP/long.prof" -WWW -S 8m "$FS" >"$OUT" 2>"$ERR" &
			pid=$!
			FLEET_BG+=("$pid")
			wait_caught "$pid" 15 5
			sleep 1
			fault_ctl "$M3" "hang 1"
			sleep 0.5
			stop_timed "$pid" INT
			check "--qualify on a hung directory, SIGINT: ends within 1 s (${DT} ms)" \
				test "$DT" -le 1000
			check "--qualify on a hung directory, SIGINT: exit 2, NOT RUN" \
				eval 'rc_is 2 && out_has "^QUALIFY long: NOT RUN"'
			fault_ctl "$M3" "hang 0"
			local tries=500
			while [ -e "$FS/ioprobe.tmp" ] && [ "$tries" -gt 0 ]; do
				sleep 0.01
				tries=$((tries - 1))
			done
			check "--qualify on a hung directory: once the disk answers, the working set is removed" \
				test ! -e "$FS/ioprobe.tmp"
			hang_release "$FS" "--qualify on a hung directory"
		}
		attempts 2 qual_hang

		## 3e. --check on a directory whose disk hangs before the start (issue 35): the
		## timeout bounds the whole plugin run, the preparation included; the answer is
		## CRITICAL (a request did not complete), with "U" perfdata, never a 0 latency
		check_prep_hang() {
			local pid t0
			fault_ctl "$M3" "hang 1"
			t0=$(now_ms)
			"$IOPROBE" --check 50ms,100ms --check-timeout 3s -c 200 -i 20ms -S 16m "$FS" \
				>"$OUT" 2>"$ERR" &
			pid=$!
			FLEET_BG+=("$pid")
			ended "$pid" "$t0" 10
			check "--check on a disk hung before the start: answers within 3 + 1 s (${DT} ms)" \
				test "$DT" -le 4000
			check "--check on a disk hung before the start: CRITICAL (exit 2, rc $RC)" rc_is 2
			check "--check on a disk hung before the start: one line, the preparation given up, U perfdata" \
				eval 'out_lines 1 && out_has "^IOPROBE CRITICAL - preparing $FS: a request did not complete .*given up \\(--check-timeout 3\\.0 s\\); no latency measured, 0 requests, 0 failed \\| .p99.=U;50\\.000000;100\\.000000;0 .avg.=U;;;0 .iops.=U;;;0 .requests.=0;;;0 .failed.=0;;0;0$"'
			check "--check on a disk hung before the start: no zero latency in the perfdata" \
				eval '[ -s "$OUT" ] && ! grep -q "=0\\.000000ms" "$OUT"'
			fault_ctl "$M3" "hang 0"
			check "--check on a disk hung before the start: once it answers, nothing is left" \
				test -z "$(fs_left)"
			hang_release "--check 50ms,100ms --check-timeout 3s -c 200 -i 20ms -S 16m $FS" \
				"--check hung before the start"
		}
		attempts 2 check_prep_hang
	else
		fail "mkfs.ext4 and mount on the FUSE-backed loop device"
	fi
fi

## 4. the FUSE server killed while requests hang
M2=$T_TMP/dead
DEV2=$(make_fault_disk "$M2" 32M) || { fail "mount faultdisk 2"; finish; }
for spec in "sync|-D -i 0.05" "io_uring|-U -D -Q 64 -i 0.01" "libaio|-A -D -Q 64 -i 0.01"; do
	IFS='|' read -r name eargs <<<"$spec"
	fault_ctl "$M2" "hang 0"
	# shellcheck disable=SC2086
	"$IOPROBE" $eargs -E "$DEV2" >"$OUT" 2>"$ERR" &
	pid=$!
	FLEET_BG+=("$pid")
	sleep 0.4
	fault_ctl "$M2" "hang 1"
	wait_fault "$M2" hung_now 1 5
	kill -KILL "$(fault_pid "$M2")"
	sleep 0.5
	t0=$(now_ms)
	kill -TERM "$pid" 2>/dev/null
	wait_exit "$pid" 5 || kill -KILL "$pid"
	DT=$(($(now_ms) - t0))
	wait "$pid"
	RC=$?
	echo "# server killed, $name $eargs: exit $RC after ${DT} ms; $(grep -c 'ENOTCONN\|ECONNABORTED\|EIO' "$OUT") failed requests seen"
	check "server killed, $name $eargs: SIGTERM ends it within 1 s (${DT} ms)" test "$DT" -le 1000
	check "server killed, $name $eargs: the summary is whole" out_has '^p50/p90/p99/p99.9 = '
	# the next engine needs a live disk again
	DEV2=$(make_fault_disk "$T_TMP/dead.$name" 32M) || { fail "mount faultdisk again"; break; }
	M2=$T_TMP/dead.$name
done

finish
