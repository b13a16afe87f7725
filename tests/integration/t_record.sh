#!/bin/bash
# --record FILE and --replay FILE: a run recorded while it runs and printed again from the
# recording as the live run printed it — the -q summary, -P raw lines, -J records, --iostat
# blocks with their verdicts, --check's line — on the null engine and on the FUSE fault disk
# (a latency step, EIO with -E), with several targets. Damage: a recording cut at a random
# byte (plain and .gz) replays up to the cut with a message and exit 3; a run killed with
# SIGKILL leaves a file that replays to its last period; an existing file is refused; a
# later format version is refused.
. "$(dirname "$0")/lib.sh"

require_cmd python3
D=$T_TMP/dir
mkdir -p "$D" "$D/b"
R=$T_TMP/rec

# fold FILE: the output without what depends on the wall clock (JSON timestamps and local
# times, --iostat's time lines)
fold() {
	sed -E -e 's/"timestamp": ?[0-9.]+/"timestamp": T/' -e 's/"localtime": ?"[^"]*"/"localtime": T/' \
		-e 's|^[0-9]{2}/[0-9]{2}/[0-9]{2} [0-9:]{8}$|TIME|' "$1"
}
# same LIVE: the replay's stdout ($OUT) equals the live run's (LIVE), wall clock folded
same() { diff <(fold "$1") <(fold "$OUT") >"$T_TMP/diff" && [ -s "$OUT" ]; }
# raw_lines FILE: the -P lines (10 or more integer fields)
raw_lines() { grep -E '^[0-9]+( [0-9]+){9}' "$1"; }
# blocks FILE: everything but the raw lines (the --iostat blocks)
blocks() { grep -Ev '^[0-9]+( [0-9]+){9}' "$1"; }
# live NAME ARGS...: a live run recorded to $R.NAME; its stdout kept in $T_TMP/NAME.live
live() {
	local name=$1
	shift
	rm -f "$R.$name"
	probe "$@" --record "$R.$name"
	cp "$OUT" "$T_TMP/$name.live"
	LIVE_RC=$RC
}

# ---- the null engine: summary, periods, JSON, requests ----
live q --engine=null -i 5ms -w 2.5 -q "$D"
check "null: live -q exit 0 and a recording" eval '[ "$LIVE_RC" = 0 ] && [ -s "$R.q" ]'
probe --replay "$R.q"
check "null: --replay prints the live -q summary" same "$T_TMP/q.live"
check "null: --replay exit 0, stderr empty" eval '[ "$RC" = 0 ] && err_empty'
check "null: the header names the format, version and target" python3 -c '
import json, sys
h = json.loads(open(sys.argv[1]).readline())
assert h["type"] == "header" and h["format"] == "ioprobe-record" and h["version"] == 1
assert h["targets"][0]["path"] == sys.argv[2] and h["engine"] == "null" and h["period"] == 10**9
' "$R.q" "$D"
check "null: every line is JSON, periods of 1 s with a histogram" python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
per = [l for l in lines if l["type"] == "period"]
assert len(per) >= 2 and lines[-1]["type"] == "end" and lines[-2]["type"] == "summary"
assert all(abs(p["wall"] - 1e9) < 5e7 for p in per[:-1]), [p["wall"] for p in per]
assert sum(b[2] for b in per[0]["valid"]["hist"]) == per[0]["valid"]["count"]
assert sum(p["requests"] for p in per) == lines[-2]["requests"]
' "$R.q"

live P --engine=null -i 5ms -w 3.5 -P 1 -q "$D"
probe --replay "$R.P" -P 1 -q
check "null: --replay -P 1 -q prints the live raw lines" same "$T_TMP/P.live"
probe --replay "$R.P" -P 2 -q
# the merged line counts the two periods' requests (400 asked; a loaded host may start fewer)
two=$(head -2 "$T_TMP/P.live" | awk '{ n += $9 } END { print n }')
check "null: --replay -P 2 merges two recorded periods a line ($two requests)" eval '[ "$(wc -l <"$OUT")" = 1 ] && [ "$(awk '\''{ print $9 }'\'' "$OUT")" = "$two" ] && [ "$two" -ge 390 ]'
probe --replay "$R.P" -P 1500ms -q
check "null: --replay -P that is no multiple of the periods: exit 1" eval 'rc_is 1 && err_prefixed'

live J --engine=null -i 5ms -w 2.5 -P 1 -J -q "$D"
probe --replay "$R.J" -P 1 -J -q
check "null: --replay -J prints the live JSON (timestamps folded)" same "$T_TMP/J.live"
check "null: --replay -J is valid JSON" json_valid

live req --engine=null -i 20ms -w 1.5 --record-requests "$D"
probe --replay "$R.req"
check "null: --record-requests: --replay prints every request line and the summary" \
	same "$T_TMP/req.live"
check "null: --record-requests: a request line each" \
	[ "$(grep -c '"type":"request"' "$R.req")" = "$(grep -c 'request=' "$OUT")" ]

# -p N: statistics every N requests, among the request lines (the periods are the requests')
live pcount --engine=null:1ms -c 40 -i 10ms -p 10 --record-requests "$D"
probe --replay "$R.pcount" -p 10
check "null: -p 10: --replay -p 10 prints the live request lines, raw lines and summary" \
	eval 'same "$T_TMP/pcount.live" && [ "$(raw_lines "$OUT" | wc -l)" = 3 ]'
probe --replay "$R.pcount" -p 10 -q
check "null: -p 10 -q: --replay prints only the live run's three raw lines (39 valid)" \
	eval '[ -s "$OUT" ] && diff <(raw_lines "$T_TMP/pcount.live") "$OUT" >/dev/null'

live chk --engine=null -w 2 --check 1s,2s "$D"
probe --replay "$R.chk" --check 1s,2s
check "null: --replay --check prints the live plugin line and state" eval 'same "$T_TMP/chk.live" && [ "$RC" = "$LIVE_RC" ]'

# --prometheus: the textfile the live run's exporters wrote last (times folded)
promfold() { grep -Ev '_timestamp_seconds|_start_time_seconds|^#' "$1"; }
rm -f "$T_TMP/live.prom" "$T_TMP/rep.prom"
live prom --engine=null -i 10ms -w 2 -q --record-requests --prometheus "$T_TMP/live.prom" "$D"
probe --replay "$R.prom" -q --prometheus "$T_TMP/rep.prom"
check "null, --record-requests: --replay --prometheus writes the live textfile" \
	diff <(promfold "$T_TMP/live.prom") <(promfold "$T_TMP/rep.prom")
check "null: the textfile has its series" grep -q '^ioprobe_request_duration_seconds_count' \
	"$T_TMP/rep.prom"
probe --replay "$R.prom" --prometheus "$T_TMP/bad-name"
check "--replay --prometheus with a name not ending in .prom: exit 1" eval 'rc_is 1 && err_prefixed'

live multi --engine=null -i 5ms -w 2.5 -P 1 -q "$D" "$D/b" "$T_TMP"
probe --replay "$R.multi" -P 1 -q
check "null, 3 targets: --replay -P prints the live raw lines (each target's in order)" \
	diff <(sort "$T_TMP/multi.live") <(sort "$OUT")
probe --replay "$R.multi"
check "null, 3 targets: --replay prints the three summaries in the order given" \
	[ "$(grep -c 'ioprobe statistics' "$OUT")" = 3 ]

# ---- other modes: -Q, --sweep, the view ----
live depth --engine=null -Q 4 -i 1ms -w 2 -q "$D"
probe --replay "$R.depth" -q
check "null, -Q 4: --replay prints the live summary (response times too)" eval 'same "$T_TMP/depth.live" && out_has '\''^response p50'\'''
live sweep --engine=null --sweep=50,100 -w 1 "$D"
if [ "$LIVE_RC" = 0 ]; then
	probe --replay "$R.sweep" -P 1 -q
	check "--sweep: a period per step, replayed as its raw line (50 then 100 requests)" \
		[ "$(awk '{ print $9 }' "$OUT" | tr '\n' ' ')" = "50 100 " ]
else
	echo "# --sweep part skipped: the temp dir has no block device under it"
fi
if command -v tmux >/dev/null 2>&1; then
	rm -f "$R.view"
	S=ioprobe-record-$$
	tmux new-session -d -s "$S" -x 100 -y 30 \
		"$IOPROBE -X --engine=null -i 10ms -w 2 --record $R.view $D 2>$T_TMP/view.err; sleep 30"
	at_exit "tmux kill-session -t $S 2>/dev/null"
	sleep 3.5
	tmux send-keys -t "$S" q
	sleep 1
	tmux capture-pane -p -t "$S" | grep -v '^$' >"$T_TMP/view.live"
	tmux kill-session -t "$S" 2>/dev/null
	probe --replay "$R.view"
	check "the view (-X): its recording replays the summary printed after it" \
		diff <(grep -v '^$' "$T_TMP/view.live") <(grep -v '^$' "$OUT")
	check "the view: a period a second, a summary, the end" python3 -c '
import json, sys
t = [json.loads(l)["type"] for l in open(sys.argv[1])]
assert t[0] == "header" and t[-2:] == ["summary", "end"] and t.count("period") >= 2, t
' "$R.view"
else
	echo "# the view part skipped: no tmux"
fi

# ---- refusals ----
: >"$T_TMP/exists"
probe --engine=null -c 2 -i 0 --record "$T_TMP/exists" "$D"
check "an existing file is refused: exit 1, nothing probed, the file untouched" eval 'rc_is 1 && err_has '\''exists'\'' && out_empty && [ ! -s "$T_TMP/exists" ]'
ln -s "$T_TMP/nowhere" "$T_TMP/link"
probe --engine=null -c 2 -i 0 --record "$T_TMP/link" "$D"
check "a symbolic link is refused, nothing created through it" eval 'rc_is 1 && [ ! -e "$T_TMP/nowhere" ]'
probe --engine=null -c 2 -i 0 --record "$T_TMP/unprepared" "$T_TMP/no/such/dir"
check "a run that prepared nothing leaves no file" eval '[ "$RC" = 2 ] && [ ! -e "$T_TMP/unprepared" ]'
sed '1s/"version":1,/"version":99,/' "$R.q" >"$T_TMP/v99"
probe --engine=null -c 2 -i 0 --record-requests "$D"
check "--record-requests without --record: exit 1" eval 'rc_is 1 && err_has '\''needs --record'\'''
probe --fio-job=1 --record "$T_TMP/fio.rec" "$D"
check "--record with --fio-job: exit 1, no file" eval 'rc_is 1 && [ ! -e "$T_TMP/fio.rec" ]'
probe --replay "$T_TMP/v99"
check "a later format version is refused: exit 2" eval 'rc_is 2 && err_has '\''newer'\'' && out_empty'
probe --replay /etc/hostname
check "a file that is no recording: exit 2" eval 'rc_is 2 && err_has '\''not an ioprobe recording'\'''
probe --replay "$R.q" "$D"
check "--replay takes no destination: exit 1" eval 'rc_is 1 && err_prefixed'
probe --replay "$T_TMP/missing"
check "--replay of a missing file: exit 2" eval 'rc_is 2 && err_prefixed'

# ---- damage: a cut at a random byte, plain and compressed ----
live long --engine=null -i 5ms -w 6 -P 1 -q "$D"
rm -f "$R.long.gz"
probe --engine=null -i 5ms -w 6 -P 1 -q --record "$R.long.gz" "$D"
cp "$OUT" "$T_TMP/longgz.live"
probe --replay "$R.long.gz" -P 1 -q
check ".gz: --replay prints the live raw lines" same "$T_TMP/longgz.live"
check ".gz: the file is compressed" gzip -t "$R.long.gz"
for f in long long.gz; do
	ref=$T_TMP/long.live
	[ "$f" = long.gz ] && ref=$T_TMP/longgz.live
	size=$(stat -c %s "$R.$f")
	head1=$(head -c 4096 "$R.$f" | head -1 | wc -c)
	# past the header line: in the plain file its newline; in the compressed one (lines are
	# flushed one by one, the header is the first of a few dozen) the second half
	[ "$f" = long.gz ] && head1=$((size / 2))
	cut=$(( (RANDOM * 32768 + RANDOM) % (size - head1 - 10) + head1 + 5 ))
	head -c "$cut" "$R.$f" >"$T_TMP/cut.$f"
	probe --replay "$T_TMP/cut.$f" -P 1 -q
	check "$f cut at byte $cut of $size: exit 3, the damage said" eval 'rc_is 3 && err_has '\''cut short|damaged|stops before'\'' && err_prefixed'
	n=$(raw_lines "$OUT" | wc -l)
	check "$f cut at byte $cut: its $n raw lines are the live run's first ones" \
		diff <(raw_lines "$OUT") <(raw_lines "$ref" | head -n "$n")
done

# ---- kill -9 mid-run ----
rm -f "$R.kill.gz"
"$IOPROBE" --engine=null -i 5ms -w 20 -P 1 -q --record "$R.kill.gz" "$D" >"$T_TMP/kill.live" 2>&1 &
pid=$!
sleep 3.5
kill -9 "$pid"
wait "$pid" 2>/dev/null
probe --replay "$R.kill.gz" -P 1 -q
check "kill -9: the recording replays (exit 3, the cut stream or the missing end said)" \
	eval 'rc_is 3 && err_has '\''stops before the run.s end|compressed stream is damaged or cut short'\'''
check "kill -9 after 3.5 s: its 3 periods replay, as the live run printed them" \
	eval '[ "$(raw_lines "$OUT" | wc -l)" -ge 3 ] && \
	diff <(raw_lines "$OUT") <(head -n "$(raw_lines "$OUT" | wc -l)" "$T_TMP/kill.live")'

# ---- 40,000 error names in each period: replayed in linear time (10,000 took 3.1 s, each
# name looked up against 4,095 errno names) ----
python3 - "$R.q" "$T_TMP/names.jsonl" <<'EOF'
import sys
names = "{" + ",".join('"X%d":1' % i for i in range(40000)) + "}"
text = open(sys.argv[1]).read()
assert '"errors":{}' in text
open(sys.argv[2], "w").write(text.replace('"errors":{}', '"errors":' + names))
EOF
t0=$(now_ms)
probe --replay "$T_TMP/names.jsonl" -q
dt=$(($(now_ms) - t0))
check "40,000 error names a period: replayed in under 2 s (${dt} ms), exit 0" \
	eval 'rc_is 0 && [ -s "$OUT" ] && [ "$dt" -lt 2000 ]'

# ---- a valid gzip recording with a line over the 256 MiB limit: said as too long ----
python3 - "$R.q" "$T_TMP/long.jsonl.gz" <<'EOF'
import gzip, sys
lines = open(sys.argv[1]).read().splitlines()
with gzip.open(sys.argv[2], "wb", compresslevel=1) as f:
    f.write((lines[0] + "\n" + lines[1] + "\n").encode())
    f.write(b'{"type":"warning","text":"')
    chunk = b"x" * (1 << 24)
    for _ in range(17):  # 272 MiB
        f.write(chunk)
    f.write(b'"}\n')
    f.write(("\n".join(lines[2:]) + "\n").encode())
EOF
probe --replay "$T_TMP/long.jsonl.gz" -q
check "a 272 MiB line in a valid gzip stream: said too long with the limit, exit 3" \
	eval 'rc_is 3 && err_has "^ioprobe: --replay: .*long.jsonl.gz: line 3 is too long \(more than 256 MiB, the longest a recording.s line may be\); replayed up to the line before it$"'
check "a 272 MiB line: not called a damaged compressed stream" \
	eval '[ -s "$ERR" ] && ! err_has "compressed stream"'

# ---- the fault disk: a latency step, EIO with -E, --iostat with its verdicts ----
if require_fuse_soft() { [ "$(id -u)" = 0 ] && [ -c /dev/fuse ] && [ -x "${IOPROBE_FAULTDISK:-}" ] &&
	command -v losetup >/dev/null; }; require_fuse_soft; then
	M=$T_TMP/fd
	DEV=$(make_fault_disk "$M" 32M --latency 1ms --eio 0+2M) || { fail "mount faultdisk"; finish; }
	rm -f "$R.fault"
	"$IOPROBE" -D -E -i 10ms -w 5 -P 1 --iostat -q --record "$R.fault" \
		--prometheus "$T_TMP/fault.prom" "fd=$DEV" "dir=$D" \
		>"$T_TMP/fault.live" 2>"$T_TMP/fault.err" &
	pid=$!
	sleep 1.5
	fault_ctl "$M" "hang 1" # a request held 0.8 s: the verdict's stall
	sleep 0.8
	fault_ctl "$M" "hang 0"
	sleep 0.7
	fault_ctl "$M" "latency 4ms"
	wait "$pid"
	LIVE_RC=$?
	probe --replay "$R.fault" -P 1 --iostat -q
	check "fault disk: live and replay exit 3 (EIO counted with -E)" eval '[ "$LIVE_RC" = 3 ] && rc_is 3'
	check "fault disk: --replay prints the live raw lines (2 targets)" \
		diff <(raw_lines "$T_TMP/fault.live" | sort) <(raw_lines "$OUT" | sort)
	check "fault disk: --replay prints the live --iostat blocks and verdicts" \
		diff <(blocks "$T_TMP/fault.live" | fold /dev/stdin) <(blocks "$OUT" | fold /dev/stdin)
	check "fault disk: the verdicts are there, under the target's name" grep -q "^fd: " "$OUT"
	check "fault disk: as many verdicts replayed as live" eval \
		'[ "$(grep -c "^fd: probe:" "$OUT")" = "$(grep -c "^fd: probe:" "$T_TMP/fault.live")" ]'
	check "fault disk: the held request reads as a stall, live and replayed" \
		grep -q "^fd: falls short: stalled" "$OUT"
	# an older ioprobe wrote a block's rows and its verdicts apart: a period line of another
	# thread could come between them, and the replay lost that second's verdicts
	python3 -c '
import sys
l = open(sys.argv[1]).read().splitlines(True)
out, i = [], 0
while i < len(l):
	out.append(l[i])
	if "\"type\":\"iostat\"" in l[i]:
		j = next((k for k in range(i + 1, len(l)) if "\"type\":\"period\"" in l[k]), None)
		if j is not None:
			out.append(l[j])
			del l[j]
	i += 1
open(sys.argv[2], "w").writelines(out)
' "$R.fault" "$R.fault.old"
	probe --replay "$R.fault.old" --iostat -q
	check "a recording with a period between a block's rows and its verdicts: every verdict" \
		eval '[ "$(grep -c "^fd: probe:" "$OUT")" = "$(grep -c "^fd: probe:" "$T_TMP/fault.live")" ]'
	if command -v tmux >/dev/null 2>&1; then
		# the view's recording: its iostat panel's blocks and verdicts, names and settings
		rm -f "$R.fview"
		S=ioprobe-record-fv-$$
		tmux new-session -d -s "$S" -x 120 -y 40 \
			"$IOPROBE -X -D -E -i 20ms -w 4 --record $R.fview fd=$DEV 2>$T_TMP/fview.err; sleep 30"
		at_exit "tmux kill-session -t $S 2>/dev/null"
		sleep 6
		tmux send-keys -t "$S" q
		sleep 1
		tmux kill-session -t "$S" 2>/dev/null
		check "the view's recording: blocks with a verdict each, the name, direct" python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
h, b, v = r[0], [l for l in r if l["type"] == "iostat"], [l for l in r if l["type"] == "verdict"]
assert h["iostat"] and h["direct"] and h["targets"][0]["name"] == "fd", h
assert len(b) >= 2 and len(v) == len(b), (len(b), len(v))
assert [l["seq"] for l in v] == [l["seq"] for l in b]
assert r[-2]["type"] == "summary" and r[-1]["type"] == "end"
' "$R.fview"
		probe --replay "$R.fview" --iostat
		check "the view's recording: --replay --iostat prints its verdicts" \
			eval '[ "$(grep -c "^probe: asked 50/s" "$OUT")" -ge 2 ]'
		check "the view's recording: the summary under the name" out_has "^--- fd: $DEV "
	fi
	check "fault disk: the latency step shows (p50 1 ms, then 4 ms)" python3 -c '
import json, sys
p = [json.loads(l) for l in open(sys.argv[1])]
p = [l for l in p if l["type"] == "period" and l["target"] == 0]
lo, hi = p[1]["percentiles"]["50"], max(l["percentiles"]["50"] for l in p)
assert 1e6 <= lo < 2.5e6 and hi >= 4e6, (lo, hi)
assert sum(l["errors"].get("EIO", 0) for l in p) == sum(l["failed"] for l in p) > 0
s = [json.loads(l) for l in open(sys.argv[1])]
s = [l for l in s if l["type"] == "summary" and l["target"] == 0][0]
assert s["errors"]["EIO"] == s["failed"] >= sum(l["failed"] for l in p), s["errors"]
' "$R.fault"
	probe --replay "$R.fault" -q --prometheus "$T_TMP/faultrep.prom"
	# from the totals (no request lines): counts, sums, bytes, errors by errno exact; the
	# fleet buckets from the log-linear ones (a bucket straddling a bound may move)
	check "fault disk: --replay --prometheus from the totals: counts, sums, EIO as live" \
		diff <(promfold "$T_TMP/fault.prom" | grep -v _bucket) \
		<(promfold "$T_TMP/faultrep.prom" | grep -v _bucket)
	check "fault disk: the textfile counts the EIO" grep -q 'errno="EIO"} [1-9]' "$T_TMP/faultrep.prom"
	probe --replay "$R.fault"
	check "fault disk: --replay prints the two summaries (failed requests counted)" eval '[ "$(grep -c '\''ioprobe statistics'\'' "$OUT")" = 2 ] && out_has '\'' failed, '\'''
	check "fault disk: the names are recorded (summaries, the header)" eval \
		'out_has "^--- fd: $DEV " && python3 -c "
import json, sys
h = json.loads(open(sys.argv[1]).readline())
assert [t[\"name\"] for t in h[\"targets\"]] == [\"fd\", \"dir\"] and h[\"direct\"], h
" "$R.fault"'
	rm -f "$R.faultj"
	probe -D -E -i 10ms -w 3 --iostat -J -q --record "$R.faultj" "$DEV"
	cp "$OUT" "$T_TMP/faultj.live"
	probe --replay "$R.faultj" --iostat -J -q
	check "fault disk: --replay --iostat -J prints the live JSON (times folded)" eval 'same "$T_TMP/faultj.live" && json_valid'
	# a request held 6.5 s: the hang warning the watchdog says is recorded and said again
	fault_ctl "$M" "latency 1ms"
	rm -f "$R.hang"
	"$IOPROBE" -D -E -i 100ms -w 9 -q --record "$R.hang" "$DEV" >/dev/null 2>"$T_TMP/hang.err" &
	pid=$!
	sleep 1
	fault_ctl "$M" "hang 1"
	sleep 6.5
	fault_ctl "$M" "hang 0"
	wait "$pid"
	HANG_RC=$? # 3 when a request met the EIO region, else 0
	check "a hung request: the live run warns (request in flight for 5.x s)" \
		grep -qE '^ioprobe: request in flight for 5\.[0-9] s$' "$T_TMP/hang.err"
	check "a hung request: the recording holds the warning, once, for the target" python3 -c '
import json, re, sys
w = [json.loads(l) for l in open(sys.argv[1])]
w = [l for l in w if l["type"] == "warning"]
assert len(w) == 1 and w[0]["target"] == 0, w
assert re.fullmatch(r"request in flight for 5\.[0-9] s", w[0]["text"]), w
' "$R.hang"
	probe --replay "$R.hang" -q
	check "a hung request: --replay says the warning again (the live run's exit code)" \
		eval 'rc_is "$HANG_RC" && err_has "^ioprobe: request in flight for 5\.[0-9] s$"'
else
	echo "# skipped the fault-disk part (needs root, /dev/fuse, the faultdisk fixture)"
	[ "${IOPROBE_TEST_STRICT:-0}" = 1 ] && fail "fault-disk part skipped under IOPROBE_TEST_STRICT"
fi

finish
