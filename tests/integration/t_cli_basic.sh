#!/bin/bash
# The basics on a temp directory: request lines, summary, exit codes, help, version.
. "$(dirname "$0")/lib.sh"

D=$T_TMP/dir
mkdir "$D"

probe -c 3 -i 0.01 "$D"
check "3 requests exit 0" rc_is 0
check "request line shape" out_has "^4 KiB <<< $D \([^ ]+ [^ ]+ [0-9.]+ [KMGTP]?i?B\): request=1 time=[0-9.]+ (ns|us|ms|s) \(warmup\)$"
check "request 3 has no notice" out_has "request=3 time=[0-9.]+ (ns|us|ms)$"
check "summary header" out_has "^--- $D \(.*\) ioprobe statistics ---$"
check "valid line" out_has "^2 requests completed in [0-9.]+ (ns|us|ms), 8 KiB read, [0-9.]+ k? ?iops, [0-9.]+ [KMG]iB/s$"
check "load line" out_has "^generated 3 requests in [0-9.]+ ms, 12 KiB, [0-9]+ iops, [0-9.]+ [KM]iB/s$"
check "min/avg/max/mdev line" out_has "^min/avg/max/mdev = [0-9.]+ [nu]?s / .* / .* / .*$"
check "percentile line" out_has "^p50/p90/p99/p99.9 = .* / .* / .* / .*$"
check "8 stdout lines plus blank" out_lines 9
check "stderr empty" err_empty
check "no temp file left" test -z "$(ls -A "$D")"

probe -h
check "-h exit 0" rc_is 0
check "-h usage on stdout" out_has "^ Usage: ioprobe"
probe -v
check "-v prints version" out_has "^ioprobe [0-9]+\.[0-9]+\.[0-9]+$"
probe
check "no args exit 1" rc_is 1
check "no args usage on stdout" out_has "^ Usage: ioprobe"

finish
