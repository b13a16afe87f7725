#!/bin/bash
# Every output form, line by line: -q, -p, -P, -B, -I, -J (with escaping), -E
# notices, and the consistency of the numbers between forms.
. "$(dirname "$0")/lib.sh"

require_cmd python3

D=$T_TMP/dir
mkdir "$D"
RLINE='[0-9.]+ (ns|us|ms|s)'
FST=$(findmnt -no FSTYPE -T "$D" 2>/dev/null || echo ext4) # ext4 on the reference machine
DESC="\\($FST [^ ]+ [0-9.]+ [KMGTP]iB\\)"
# line N: line N of the output.
line() { sed -n "${1}p" "$OUT"; }
# raw_ok FILE: every line is exactly 10 unsigned integers.
raw_ok() { [ -s "$1" ] && ! grep -Evq '^[0-9]+( [0-9]+){9}$' "$1"; }
# py CODE: run python3 with the stdout file's JSON as `d` (exit status = the check).
# py CODE [ARGS]: ARGS are sys.argv[2:].
py() {
	local code=$1
	shift
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
$code" "$OUT" "$@"
}

## -q: blank, header, 3 stats lines, percentile line
probe -q -c 3 -i 0 "$D"
check "-q: exit 0" rc_is 0
check "-q: 6 lines" out_lines 6
check "-q: line 1 blank" test -z "$(line 1)"
check "-q: line 2 header" test -n "$(line 2 | grep -E "^--- $D $DESC ioprobe statistics ---$")"
check "-q: line 3 valid" test -n "$(line 3 | grep -E "^2 requests completed in $RLINE, 8 KiB read, [0-9.]+ k? ?iops, [0-9.]+ [KMG]?i?B/s$")"
check "-q: line 4 load" test -n "$(line 4 | grep -E "^generated 3 requests in $RLINE, 12 KiB, [0-9.]+ k? ?iops, [0-9.]+ [KMG]?i?B/s$")"
check "-q: line 5 min/avg/max/mdev" test -n "$(line 5 | grep -E "^min/avg/max/mdev = $RLINE / $RLINE / $RLINE / $RLINE$")"
check "-q: line 6 percentiles" test -n "$(line 6 | grep -E "^p50/p90/p99/p99.9 = $RLINE / $RLINE / $RLINE / $RLINE$")"
check "-q: stderr empty" err_empty

## default (not quiet): request lines, blank, summary
probe -c 3 -i 0 "$D"
check "plain: line 1 warmup" test -n "$(line 1 | grep -E "^4 KiB <<< $D $DESC: request=1 time=$RLINE \(warmup\)$")"
check "plain: line 3 request 3" test -n "$(line 3 | grep -E "^4 KiB <<< $D $DESC: request=3 time=$RLINE$")"
check "plain: line 4 blank" test -z "$(line 4)"
check "plain: line 5 header" test -n "$(line 5 | grep -E '^--- ')"
check "plain: 9 lines" out_lines 9

## -p N: raw lines
probe -p 3 -q -c 10 -i 0 "$D"
check "-p 3 -q: exit 0" rc_is 0
check "-p 3 -q: 3 raw lines, no summary" out_lines 3
check "-p 3 -q: 10 integer fields each" raw_ok "$OUT"
check "-p 3 -q: field 1 is 3 on every line" test "$(cut -d' ' -f1 "$OUT" | tr '\n' ' ')" = "3 3 3 "
check "-p 3 -q: field 9 is 4 (warmup) then 3, 3" test "$(cut -d' ' -f9 "$OUT" | tr '\n' ' ')" = "4 3 3 "
probe -p 4 -q -c 10 -i 0 "$D"
check "-p 4 -q -c 10: the trailing partial period is not printed" out_lines 2
probe -p 2 -c 5 -i 0 "$D"
check "-p 2 (not quiet): raw line after request 3" \
	test -n "$(grep -A1 'request=3 ' "$OUT" | sed -n 2p | grep -E '^2( [0-9]+){9}$')"
check "-p 2 (not quiet): raw line after request 5" \
	test -n "$(grep -A1 'request=5 ' "$OUT" | sed -n 2p | grep -E '^2( [0-9]+){9}$')"
check "-p 2 (not quiet): the human summary follows" out_has "^--- $D .* ioprobe statistics ---$"
check "-p 2 (not quiet): 5 request lines" test "$(grep -c 'request=' "$OUT")" = 5

## -P: raw lines per time period (null engine: no disk noise)
probe --engine=null -P 0.2 -i 0.05 -w 1 -q "$D"
check "-P 0.2 -w 1: exit 0" rc_is 0
check "-P 0.2 -w 1: 10 integer fields each" raw_ok "$OUT"
check "-P 0.2 -w 1: 5 periods" out_lines 5
check "-P 0.2 -w 1: first period counts the warmup (field 9 = field 1 + 1)" \
	test "$(awk 'NR == 1 { print $9 - $1 }' "$OUT")" = 1
check "-P 0.2 -w 1: 20 requests in all" test "$(awk '{ n += $9 } END { print n }' "$OUT")" = 20
check "-P 0.2 -w 1: field 10 is about 200 ms" \
	test -z "$(awk '$10 < 150000000 || $10 > 300000000' "$OUT")"

## -B
probe -B -c 5 -i 0 "$D"
check "-B: exit 0" rc_is 0
check "-B: one line" out_lines 1
check "-B: 10 integer fields" raw_ok "$OUT"
check "-B: field 1 = 4 valid requests" test "$(cut -d' ' -f1 "$OUT")" = 4
check "-B: field 9 = 5 requests" test "$(cut -d' ' -f9 "$OUT")" = 5
check "-B: no request lines (-B sets -q)" out_lacks "request="
probe -B -p 5 -c 12 -i 0 "$D"
check "-B -p 5 -c 12: two periods and the total" out_lines 3
check "-B -p 5 -c 12: fields 1" test "$(cut -d' ' -f1 "$OUT" | tr '\n' ' ')" = "5 5 11 "
check "-B -p 5 -c 12: fields 9" test "$(cut -d' ' -f9 "$OUT" | tr '\n' ' ')" = "6 5 12 "
probe --engine=null:1ms -B -c 6 -i 0 "$D"
check "-B numbers: consistent (null:1ms)" python3 -c '
import sys
f = [int(x) for x in open(sys.argv[1]).read().split()]
cnt, tsum, iops, bps, mn, avg, mx, mdev, total, wall = f
assert cnt == 5 and total == 6, f
assert tsum >= 5 * 1000000, f                     # each request took >= 1 ms
assert mn >= 1000000 and mn <= avg <= mx, f
assert abs(avg - tsum / cnt) <= 1, f
assert abs(iops - cnt * 1e9 / tsum) <= 1, f
assert abs(bps - cnt * 1e9 / tsum * 4096) <= 4096, f
assert wall >= tsum, f
assert mdev <= mx - mn, f
' "$OUT"

## -I
probe -I -c 2 -i 0 "$D"
check "-I: default format 'Mon DD HH:MM:SS'" \
	test "$(grep -Ec "^[A-Z][a-z]{2} [ 0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-6][0-9] 4 KiB <<< $D $DESC: request=[12] " "$OUT")" = 2
check "-I: the summary has no time" out_has "^--- $D "
probe -I%T -c 2 -i 0 "$D"
check "-I%T: HH:MM:SS" test "$(grep -Ec "^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] 4 KiB <<< $D " "$OUT")" = 2
probe -time=%H:%M -c 2 -i 0 "$D"
check "-time=%H:%M" test "$(grep -Ec "^[0-2][0-9]:[0-5][0-9] 4 KiB <<< $D " "$OUT")" = 2

## -J
probe -J -c 3 -i 0 "$D"
check "-J: exit 0" rc_is 0
check "-J: valid JSON" json_valid
check "-J: starts with [" test "$(head -c 1 "$OUT")" = "["
check "-J: ends with ] and a newline" cmp -s <(tail -c 2 "$OUT") <(printf ']\n')
check "-J: 3 request objects and the total" py 'assert len(d) == 4 and all("io" in o for o in d[:3]) and "stat" in d[3]'
check "-J: request object keys" py '
for o in d[:3]:
    assert list(o)[:4] == ["timestamp", "localtime", "target", "io"], list(o)
    assert list(o["target"]) == ["path", "fstype", "device", "device_size"], list(o["target"])
    io = o["io"]
    for k in ["request", "operation", "offset", "size", "time", "ignored", "notice", "start", "lateness"]:
        assert k in io, k
    assert io["operation"] == "read" and io["size"] == 4096
assert [o["io"]["request"] for o in d[:3]] == [1, 2, 3]
assert [o["io"]["ignored"] for o in d[:3]] == [True, False, False]
assert d[0]["io"]["notice"] == "warmup" and d[1]["io"]["notice"] == ""'
check "-J: stat object keys" py '
o = d[-1]
assert list(o)[:3] == ["timestamp", "localtime", "target"], list(o)
for k in ["count", "size", "time", "iops", "bps", "min", "avg", "max", "mdev"]:
    assert k in o["stat"], k
for k in ["count", "size", "time", "iops", "bps"]:
    assert k in o["load"], k
assert list(o["stat"])[:9] == ["count", "size", "time", "iops", "bps", "min", "avg", "max", "mdev"]'
check "-J: target path, fstype" py '
import sys
assert all(o["target"]["path"] == sys.argv[2] and o["target"]["fstype"] == sys.argv[3] for o in d)' "$D" "$FST"
check "-J: timestamps have 6 decimals" test "$(grep -Ec '^  "timestamp": [0-9]+\.[0-9]{6},$' "$OUT")" = 4
check "-J: localtime is %FT%T%z" py '
import re
assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}", o["localtime"]) for o in d)'
check "-J: stat.count = valid request objects, load.count = all" py '
reqs = [o for o in d if "io" in o]
t = d[-1]
assert t["stat"]["count"] == sum(not o["io"]["ignored"] for o in reqs) == 2
assert t["load"]["count"] == len(reqs) == 3
assert t["stat"]["size"] == 2 * 4096 and t["load"]["size"] == 3 * 4096
valid = [o["io"]["time"] for o in reqs if not o["io"]["ignored"]]
assert t["stat"]["time"] == sum(valid) and t["stat"]["min"] == min(valid) and t["stat"]["max"] == max(valid)'
check "-J: two-space pretty print, objects joined by },{" \
	test "$(grep -c '^},{$' "$OUT"):$(grep -c '^  "target": {$' "$OUT")" = "3:4"
probe -J -I%T -c 2 -i 0 "$D"
check "-J -I%T: a later -I sets localtime" py '
import re
assert all(re.fullmatch(r"\d\d:\d\d:\d\d", o["localtime"]) for o in d)'
probe -I%T -J -c 2 -i 0 "$D"
check "-I%T -J: -J's format wins when later" py '
import re
assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}", o["localtime"]) for o in d)'

probe -J -q -c 3 -i 0 "$D"
check "-J -q: valid" json_valid
check "-J -q: just the total object" py 'assert len(d) == 1 and "stat" in d[0] and "load" in d[0] and d[0]["load"]["count"] == 3'

probe -J -p 2 -c 5 -i 0 "$D"
check "-J -p 2: valid" json_valid
check "-J -p 2: 5 requests, 2 periods, the total" py '
kinds = ["io" if "io" in o else "stat" for o in d]
assert kinds == ["io", "io", "io", "stat", "io", "io", "stat", "stat"], kinds
assert [d[3]["stat"]["count"], d[3]["load"]["count"]] == [2, 3]
assert [d[6]["stat"]["count"], d[6]["load"]["count"]] == [2, 2]
assert [d[7]["stat"]["count"], d[7]["load"]["count"]] == [4, 5]'
probe -J -q -p 2 -c 5 -i 0 "$D"
check "-J -q -p 2: periods and the total only" py 'assert len(d) == 3 and all("stat" in o for o in d)'

# a directory name that needs escaping
Q=$T_TMP/$'a"b\\c\td'
mkdir "$Q"
probe -J -c 2 -i 0 "$Q"
check "-J on a\"b\\c<TAB>d: exit 0" rc_is 0
check "-J on a\"b\\c<TAB>d: valid JSON" json_valid
check "-J on a\"b\\c<TAB>d: path round-trips" py '
import sys
assert all(o["target"]["path"] == sys.argv[2] for o in d)' "$Q"
check "-J on a\"b\\c<TAB>d: nothing left" test -z "$(ls -A "$Q")"
probe -c 1 -q "$Q"
check "human output shows the tab escaped (ls -b style), the rest as given" \
	out_has "^--- $T_TMP/a\"b\\\\c\\\\td \($FST "

## -E: failed requests are shown and counted (writes to /dev/null: fdatasync fails)
probe -E -WWW -c 3 -i 0 /dev/null
check "-E: exit 3 (some requests failed)" rc_is 3
check "-E: 3 request lines with the errno name" \
	test "$(grep -Ec '^0 B >>> /dev/null \(character device 0 B\): request=[123] time=[0-9.]+ (ns|us|ms) \(EINVAL\)$' "$OUT")" = 3
check "-E: failed counter in the summary" out_has "^3 failed, generated 3 requests in "
check "-E: no valid requests" out_has "^0 requests completed in 0 ns, 0 B written, 0 iops, 0 B/s$"
probe -E -J -WWW -c 2 -i 0 /dev/null
check "-E -J: valid" json_valid
check "-E -J: notice EINVAL, ignored, load.failed" py '
assert [o["io"]["notice"] for o in d[:2]] == ["EINVAL", "EINVAL"]
assert all(o["io"]["ignored"] and o["io"]["size"] == 0 for o in d[:2])
assert d[-1]["load"]["failed"] == 2 and d[-1]["stat"]["count"] == 0'
probe -E -B -WWW -c 2 -i 0 /dev/null
check "-E -B: one raw line" raw_ok "$OUT"

## consistency between raw and JSON: one run seen two ways is impossible, so use
## the null engine's fixed latency for both and compare counts
probe --engine=null:1ms -J -c 4 -i 0 "$D"
check "null:1ms -J: times are >= 1 ms" py '
assert all(o["io"]["time"] >= 1000000 for o in d if "io" in o)
assert d[-1]["stat"]["min"] >= 1000000 and d[-1]["stat"]["count"] == 3'

## --percentiles (issue 25 item 6): the summary, raw lines, JSON and --influx carry the list
probe --engine=null:1ms -c 5 -i 0 --percentiles 50,95,99 "$D"
check "--percentiles 50,95,99: the summary line" grep -Eq '^p50/p95/p99 = [0-9.]+ ms / [0-9.]+ ms / [0-9.]+ ms$' "$OUT"
probe --engine=null:1ms -c 5 -i 0 -B --raw-percentiles --percentiles 95,99.99 "$D"
check "--percentiles 95,99.99 --raw-percentiles: 12 fields" [ "$(awk '{ print NF }' "$OUT")" = 12 ]
probe --engine=null:1ms -J -c 3 -i 0 --percentiles 95 "$D"
check "--percentiles 95 -J: the key 95 only" py '
assert list(d[-1]["stat"]["percentiles"]) == ["95"], d[-1]["stat"]["percentiles"]'
sleep 2.5 | "$IOPROBE" --engine=null:1ms -i 0.1 -P 1 -q --influx --percentiles 95,99.9 "$D" >"$OUT" 2>"$ERR"
check "--percentiles 95,99.9 --influx: p95_ms and p999_ms fields, no p50_ms" \
	eval 'grep -q ",p95_ms=[0-9.]*,p999_ms=[0-9.]*,max_ms=" "$OUT" && ! grep -q "p50_ms" "$OUT"'
probe -c 1 --percentiles 50,0 "$D"
check "--percentiles 50,0: refused, exit 1" \
	eval 'rc_is 1 && err_has "^ioprobe: --percentiles takes numbers above 0 and up to 100"'

check "nothing left in the directory" test -z "$(ls -A "$D")"
finish
