#!/bin/bash
# --influx (line protocol for Telegraf's execd, checked by a strict parser, paths with
# spaces, commas, quotes and equals signs; exit 0 at stdin's EOF) and --check (the
# monitoring-plugin line and exit codes OK/WARNING/CRITICAL/UNKNOWN on a disk with
# chosen latency and EIO).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd python3
LP=$SRCDIR/tests/integration/fleet_lp.py

# ---- --influx on a directory with an awkward name ----
D=$T_TMP/'my disk, "quoted" a=b'
mkdir -p "$D"
timeout -k 5 30 "$IOPROBE" --influx -P 300ms -C -i 50ms -w 2 "$D" >"$OUT" 2>"$ERR" < <(sleep 10)
RC=$?
check "--influx -w 2: exit 0" rc_is 0
check "--influx: nothing on stderr" err_empty
tap python3 "$LP" "$OUT" "$D" 5
check "--influx: only read lines for a read probe" out_lacks "operation=write"
check "--influx: the target tag escaped" out_has '^ioprobe,target=[^ ]*my\\ disk\\,\\ "quoted"\\ a\\=b,operation=read,device='

# line-flushed: the first line arrives while the run goes on; stdin's EOF ends it with 0
exec 3> >(exec cat >/dev/null)
FIFO=$T_TMP/in
mkfifo "$FIFO"
"$IOPROBE" --influx -P 200ms -C -i 20ms "$D" <"$FIFO" >"$OUT" 2>"$ERR" &
PID=$!
FLEET_BG+=("$PID")
exec 4>"$FIFO"
check "--influx: a line within 2 s while running" wait_lines "$OUT" '^ioprobe,' 1 2
check "--influx: still running" kill -0 "$PID"
t0=$(now_ms)
exec 4>&-
wait_exit "$PID" 5
wait "$PID"
RC=$?
t1=$(now_ms)
check "--influx: stdin EOF ends the run with exit 0 ($RC)" rc_is 0
check "--influx: ... within 1 s ($((t1 - t0)) ms)" [ $((t1 - t0)) -lt 1000 ]
tap python3 "$LP" "$OUT" "$D" 1
probe --influx -J -c 1 "$D"
check "--influx with -J: usage error" rc_is 1
probe --influx -B -c 1 "$D"
check "--influx with -B: usage error" rc_is 1

# ---- -G: read and write lines; the default period ----
F=$T_TMP/rw.img
truncate -s 4M "$F"
timeout -k 5 30 "$IOPROBE" --influx -G -WWW -P 250ms -i 20ms -w 1 -S 1M "$F" >"$OUT" 2>"$ERR" < <(sleep 10)
RC=$?
check "--influx -G: exit 0" rc_is 0
check "--influx -G: read and write lines" \
	eval '[ "$(grep -c '\''operation=read'\'' "$OUT")" -ge 3 ] && \
	[ "$(grep -c '\''operation=write'\'' "$OUT")" -ge 3 ]'
tap python3 "$LP" "$OUT" "$F" 6

# ---- stdin at /dev/null (cron, a plain unit) is no stop signal: the run goes on to its count
probe --influx -c 30 -i 10ms -P 100ms "$D" </dev/null
check "--influx with stdin at /dev/null: runs to its count, exit 0" rc_is 0
check "--influx with stdin at /dev/null: its lines (not an empty run)" \
	test "$(grep -c '^ioprobe,' "$OUT")" -ge 2

# ---- a target with a backslash before a space, a comma and an equals sign: each line
# still reads back to the path under the line protocol's rules (two backslashes read as one)
BS=$T_TMP/'a\ b\,c\=d'
mkdir -p "$BS"
timeout -k 5 30 "$IOPROBE" --influx -P 250ms -i 20ms -w 0.8 "$BS" >"$OUT" 2>"$ERR" < <(sleep 10)
RC=$?
check "--influx on a path with backslashes: exit 0" rc_is 0
tap python3 "$LP" "$OUT" "$BS" 2

# ---- --check on /tmp-like storage: usage and UNKNOWN ----
probe --check 10ms "$D"
check "--check without CRIT: exit 3 (UNKNOWN)" rc_is 3
check "--check without CRIT: UNKNOWN line" out_has '^IOPROBE UNKNOWN - --check takes WARN,CRIT: "10ms"$'
probe --check 10ms,50ms "$T_TMP/missing"
check "--check on a missing target: exit 3" rc_is 3
check "--check on a missing target: one UNKNOWN line" out_has '^IOPROBE UNKNOWN - .*missing'
check "--check on a missing target: the message on stderr too" err_prefixed
probe --check-iops 10,5 -c 1 "$D"
check "--check-iops alone: usage error" rc_is 1
probe --check 10,50 -c 1 "$D"
check "--check 10,50 (no unit): UNKNOWN, says a unit is needed" \
	eval 'rc_is 3 && out_has "^IOPROBE UNKNOWN - --check takes times with a unit"'
probe --check @0ms:1h,~:2h -C -c 3 -i 10ms "$D"
check "--check @0ms:1h,~:2h (a range, alert inside): WARNING, the range in the perfdata" \
	eval 'rc_is 1 && out_has ".p99.=[0-9.]+ms;@0\\.000000:3600000\\.000000;~:7200000\\.000000;0"'
probe --check 50ms,10ms -c 1 "$D"
check "--check WARN above CRIT: UNKNOWN" eval 'rc_is 3 && out_has "WARN above CRIT"'
probe --check-timeout 5 -c 1 "$D"
check "--check-timeout alone: usage error" eval 'rc_is 1 && err_has "^ioprobe: --check-timeout needs --check$"'
probe --check 1s,2s --check-timeout 0 -c 1 "$D"
check "--check-timeout 0: refused" eval 'rc_is 3 && err_has "--check-timeout must be above 0"'
probe --check 1s,2s -C -c 3 -i 10ms "$D"
check "--check OK on a fast target: exit 0" rc_is 0
check "--check OK: the plugin line" \
	out_has "^IOPROBE OK - p99 [0-9.]+ ms, avg [0-9.]+ ms, [0-9.]+ iops, 3 requests, 0 failed \| 'p99'=[0-9.]+ms;1000\.000000;2000\.000000;0 'avg'=[0-9.]+ms;;;0 'iops'=[0-9.]+;;;0 'requests'=3;;;0 'failed'=0;;0;0$"
check "--check OK: one line only" out_lines 1

# ---- --check on a disk with chosen latency and EIO ----
require_loop
require_fuse
M=$T_TMP/lat
DEV=$(make_fault_disk "$M" 32M --latency 5ms) || { fail "mount faultdisk"; finish; }
probe --check 20ms,50ms -D -c 5 -i 10ms "$DEV"
check "5 ms disk, --check 20ms,50ms: OK (exit $RC)" rc_is 0
check "... IOPROBE OK line" out_has '^IOPROBE OK - p99 [5-9]\.[0-9]+ ms'
probe --check 2ms,50ms -D -c 5 -i 10ms "$DEV"
check "5 ms disk, --check 2ms,50ms: WARNING (exit $RC)" rc_is 1
check "... IOPROBE WARNING line" out_has '^IOPROBE WARNING - '
probe --check 1ms,2ms -D -c 5 -i 10ms "$DEV"
check "5 ms disk, --check 1ms,2ms: CRITICAL (exit $RC)" rc_is 2
probe --check 1s,2s --check-iops 500,100 -D -c 5 -i 10ms "$DEV"
check "5 ms disk (~190 iops), --check-iops 500,100: WARNING (exit $RC)" rc_is 1
check "... iops perfdata with ranges" out_has "'iops'=[0-9.]+;500\.000:;100\.000:;0"
fault_ctl "$M" "eio 0-16M"
probe --check 1s,2s -D -c 20 -i 10ms "$DEV"
check "half EIO, --check 1s,2s: CRITICAL (exit $RC)" rc_is 2
check "... failed requests counted, and the verdict gives them as its reason" \
	out_has '^IOPROBE CRITICAL - .*, [1-9][0-9]* failed, falls short: requests failed \| '
fault_ctl "$M" "eio 0+32M"
probe --check 1s,2s -D -c 5 -i 10ms "$DEV"
check "all EIO: CRITICAL (exit $RC)" rc_is 2
fault_ctl "$M" "eio none"

# --influx counts errors too (with -E the run goes on)
fault_ctl "$M" "eio 0-16M"
timeout -k 5 30 "$IOPROBE" --influx -E -D -P 500ms -i 10ms -w 1.5 "$DEV" >"$OUT" 2>"$ERR" < <(sleep 10)
RC=$?
check "--influx -E on half EIO: exit 3 (failed requests)" rc_is 3
check "--influx: errors counted in the errors field" grep -Eq ' requests=[0-9]+i,errors=[1-9][0-9]*i,' "$OUT"
tap python3 "$LP" "$OUT" "$DEV" 2

# ---- the fleet modes count failed requests without -E (issue 26): a failing disk is what
# they must show; the exit status still says some failed
timeout -k 5 30 "$IOPROBE" --influx -D -P 500ms -i 10ms -w 1.5 "$DEV" >"$OUT" 2>"$ERR" < <(sleep 10)
RC=$?
check "--influx without -E on half EIO: runs on, exit 3 at the end" rc_is 3
check "--influx without -E: errors counted in the errors field" \
	grep -Eq ' requests=[0-9]+i,errors=[1-9][0-9]*i,' "$OUT"
check "--influx without -E: several periods written (not ended at the first EIO)" \
	test "$(grep -c '^ioprobe,' "$OUT")" -ge 2
PF=$T_TMP/eio.prom
probe --prometheus "$PF" -D -i 10ms -w 1.5 "$DEV"
check "--prometheus without -E on half EIO: runs on, exit 3 at the end" rc_is 3
check "--prometheus without -E: the textfile counts EIO" \
	grep -Eq '^ioprobe_request_errors_total\{.*errno="EIO".*\} [1-9][0-9]*$' "$PF"
check "--prometheus without -E: and the successful requests" \
	grep -Eq '^ioprobe_request_duration_seconds_count\{.*\} [1-9][0-9]*$' "$PF"
fault_ctl "$M" "eio none"

finish
