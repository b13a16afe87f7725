#!/bin/bash
# --layers: where each of the probe's own requests spent its time in the kernel, measured
# with eBPF on real loop devices (root): a 512 KiB direct read on a loop device whose
# max_sectors_kb is 128 is 4 pieces, as many as the device's diskstats count; a cgroup v1
# blkio throttle (40 reads/s) makes the throttle most of the time, on the device and on a
# file of an ext4 on it; a 7 ms FUSE disk under a loop device makes the device most of it and
# the layers add up to the latency; cached re-reads of a file on ext4 reach no device; without
# privilege --layers is refused (exit 2, the reason on one line) and the plain run is
# unchanged, with CAP_BPF and CAP_PERFMON alone it runs; --layers with -Q N is refused. The
# split reads' layers in Prometheus' textfile (promtool) and in the line protocol.
. "$(dirname "$0")/lib.sh"

require_loop
require_cmd python3
require_cmd setpriv
require_cmd promtool

# jfield EXPR: a number from the last record of the JSON array in $OUT (d = its "stat").
jfield() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))[-1]["stat"]; print(eval(sys.argv[2]))' \
		"$OUT" "$1"
}
# every EXPR: a Python condition holds for each request record's "io" (i) in $OUT.
every() {
	python3 - "$OUT" "$1" <<'PY'
import json, sys
r = [x["io"] for x in json.load(open(sys.argv[1])) if "io" in x]
bad = []
for i in r:  # i global: the condition's generator expressions see it
    if not eval(sys.argv[2]):
        bad.append(i)
for i in bad[:3]:
    print("#   not so:", json.dumps(i))
sys.exit(not r or bool(bad))
PY
}
# holds EXPR: a Python condition over the last record's "stat" (d) holds.
holds() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))[-1]["stat"]; sys.exit(not eval(sys.argv[2]))' \
		"$OUT" "$1"
}

## the build and the kernel: skip where --layers cannot run at all
probe -c 1 -i 0 --layers /dev/null
if err_has "not available in this build"; then
	skip "this build has no eBPF (libbpf, bpftool, clang or BTF missing)"
fi
if err_has "the kernel has no|lockdown"; then
	skip "$(head -1 "$ERR")"
fi

## unprivileged: refused with the reason, exit 2; the plain run unchanged
NOB=$(mktemp -d /tmp/ioprobe-nobody.XXXXXX)
at_exit 'rm -rf "$NOB"'
chmod 1777 "$NOB"
probe_as nobody -c 3 -i 0 --layers "$NOB"
check "nobody --layers: exit 2" rc_is 2
check "nobody --layers: the reason on one line" \
	eval '[ "$(wc -l <"$ERR")" = 1 ] && err_has "^ioprobe: --layers: needs CAP_BPF and CAP_PERFMON \(or root\): .+"'
check "nobody --layers: nothing measured" out_empty
probe_as nobody -c 3 -i 0 "$NOB"
check "nobody plain run: exit 0" rc_is 0
check "nobody plain run: its summary, no layers" \
	eval 'out_has "^min/avg/max/mdev = " && out_lacks "^layers" && err_empty'
# probe_caps CAPS ARGS...: probe as nobody with CAPS (setpriv's list: +bpf,+perfmon) kept
probe_caps() {
	timeout -k 5 60 setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps="$1" \
		--ambient-caps="$1" "$IOPROBE" "${@:2}" >"$OUT" 2>"$ERR"
	RC=$?
}
probe_caps +bpf,+perfmon -c 3 -i 0 --layers "$NOB"
check "nobody with CAP_BPF and CAP_PERFMON: --layers runs" \
	eval 'rc_is 0 && out_has "^layers avg: .* 0 without a device request$" && err_empty'
probe_caps +bpf -c 3 -i 0 --layers "$NOB"
check "nobody with CAP_BPF alone: refused (exit 2)" \
	eval 'rc_is 2 && err_has "^ioprobe: --layers: needs CAP_BPF and CAP_PERFMON"'
probe -c 3 -i 0 -Q 4 --layers "$NOB"
check "--layers -Q 4: refused (exit 1)" eval 'rc_is 1 && err_has "^ioprobe: --layers .*-Q$"'

## a fast loop device on tmpfs
mkdir "$T_TMP/fast"
mount -t tmpfs -o size=160m tmpfs "$T_TMP/fast" || skip "cannot mount tmpfs"
register_mount "$T_TMP/fast"
make_loop 64M "$T_TMP/fast/disk.img" >"$T_TMP/loopdev" || skip "cannot create a loop device"
L=$(cat "$T_TMP/loopdev")
N=${L#/dev/}

# reads completed on the loop device (diskstats' field 1, as iostat's r/s counts them)
reads() { awk '{ print $1 }' "/sys/block/$N/stat"; }

## 512 KiB direct reads with max_sectors_kb 128: 4 pieces each, as diskstats counts
echo 128 >"/sys/block/$N/queue/max_sectors_kb"
before=$(reads)
probe -c 21 -i 0 -D -s 512k -J --layers "$L"
after=$(reads)
check "split: exit 0" rc_is 0
check "split: 4.00 pieces per request" holds 'd["layers"]["pieces"] == 4'
check "split: each request's own record says 4 pieces" every 'i["layers"]["pieces"] == 4'
# 21 requests (the warmup too) of 4 pieces each reached the device
check "split: diskstats counted 84 reads ($((after - before)))" test $((after - before)) = 84
check "split: no request without the device" holds 'd["layers"]["no_device"] == 0'
probe -c 3 -i 0 -D -s 512k --layers "$L"
check "split: the summary line" \
	out_has "^layers avg: submit [0-9.]+ [mun]?s, throttle [0-9.]+ [mun]?s, queue [0-9.]+ [mun]?s, device [0-9.]+ [mun]?s; 4.00 pieces per request; 0 without a device request$"
# in a PID namespace of its own (a container's probe: getpid() is not the kernel's number),
# its bios are still its own: the submit layer measured, nothing counted as throttle, and the
# 4 pieces, as on the host
probe -c 6 -i 0 -D -s 512k -J --layers "$L"
HOST_SUBMIT=$(python3 -c 'import json, sys; print(int(json.load(open(sys.argv[1]))[-1]["stat"]["layers"]["submit"]["avg"]))' "$OUT")
timeout -k 5 60 unshare --pid --fork --mount-proc "$IOPROBE" -c 6 -i 0 -D -s 512k -J --layers \
	"$L" >"$OUT" 2>"$ERR"
RC=$?
check "PID namespace of its own: exit 0" rc_is 0
check "PID namespace of its own: submit measured (host $HOST_SUBMIT ns), throttle 0, 4 pieces" \
	holds 'd["layers"]["submit"]["avg"] > 0 and d["layers"]["throttle"]["avg"] == 0 and d["layers"]["pieces"] == 4'
# the fleet outputs: Prometheus' textfile (ioprobe_layer_seconds per layer, the counters;
# promtool clean) and the line protocol's layer fields, of the same 20 valid requests
probe -c 21 -i 0 -D -s 512k --layers --prometheus "$T_TMP/layers.prom" "$L"
PROM=$T_TMP/layers.prom
check "split --prometheus: exit 0, the textfile passes promtool" \
	eval 'rc_is 0 && promtool check metrics <"$PROM"'
check "split --prometheus: 20 measured requests, 80 pieces, none without a device" \
	eval 'grep -qx "ioprobe_layer_requests_total{target=\"$L\"} 20" "$PROM" &&
	      grep -qx "ioprobe_layer_pieces_total{target=\"$L\"} 80" "$PROM" &&
	      grep -qx "ioprobe_layer_no_device_requests_total{target=\"$L\"} 0" "$PROM"'
check "split --prometheus: a histogram per layer, 20 requests each" \
	eval 'for l in submit throttle queue device; do
		grep -qx "ioprobe_layer_seconds_count{target=\"$L\",layer=\"$l\"} 20" "$PROM" || exit 1
	      done'
probe -c 21 -i 0 -D -s 512k --prometheus "$T_TMP/plain.prom" "$L"
check "plain --prometheus: no layer family (nothing measured)" \
	eval 'rc_is 0 && grep -q "^ioprobe_request_duration_seconds_count" "$T_TMP/plain.prom" &&
	      ! grep -q "ioprobe_layer" "$T_TMP/plain.prom"'
probe -c 41 -i 10ms -D -s 512k --layers --influx -P 100ms "$L"
check "split --influx: each period's line has its requests' layers, 4 pieces each" \
	eval 'rc_is 0 && [ "$(grep -Ec ",layer_requests=[0-9]+i,layer_no_device=0i,layer_pieces=4\.000,layer_submit_avg_ms=[0-9.]+,layer_submit_p99_ms=[0-9.]+,layer_throttle_avg_ms=.*,layer_device_p99_ms=[0-9.]+(,verdict=\"[a-z_]+\",reason=\"[a-z_]*\")? [0-9]+$" "$OUT")" -ge 3 ]'
echo 1280 >"/sys/block/$N/queue/max_sectors_kb"

## other I/O on the same device: four dd writers (1 MiB direct) on a queue of 4 requests
## (nr_requests: a shallow device queue) — the probe's own requests wait for a place in
## it, so the queue layer grows, measured (here 2-19 us alone, 53-454 us beside them, as
## often as the writers fill the 4 places), and the
## verdict's queue building says what the probe's requests waited in it
probe -c 31 -i 20ms -D -J --layers "$L"
Q0=$(jfield 'int(d["layers"]["queue"]["avg"])')
NR=$(cat "/sys/block/$N/queue/nr_requests")
echo 4 >"/sys/block/$N/queue/nr_requests"
WRITERS=()
for i in 1 2 3 4; do
	(while :; do dd if=/dev/zero of="$L" bs=1M count=8 oflag=direct seek=$((i * 12)) status=none
	 done) &
	WRITERS+=("$!")
	BG+=("$!")
done
sleep 0.5
probe -c 31 -i 20ms -D -J --layers "$L"
Q1=$(jfield 'int(d["layers"]["queue"]["avg"])')
check "other I/O: the queue layer grows ($Q0 ns alone, $Q1 ns beside 4 writers: 10 x and 20 us at least)" \
	eval '[ "$Q1" -ge $((10 * Q0)) ] && [ "$Q1" -ge 20000 ]'
probe -i 20ms -w 3.5 -D -q --iostat --layers "$L"
check "other I/O --iostat: the verdict says other I/O and the probe's requests' measured queue" \
	out_has "^other I/O: dev [0-9.]+/s, the probe's own [0-9.]+/s; queue building: .*; the probe's requests queued [0-9.]+ [mun]?s of [0-9.]+ [mun]?s before the device \(measured\)"
check "other I/O --iostat: no verdict contradicts its numbers" \
	python3 "$SRCDIR/tests/integration/verdict_check.py" "$OUT"
kill "${WRITERS[@]}" 2>/dev/null
wait "${WRITERS[@]}" 2>/dev/null
sleep 0.2 # the last dd of each loop ends by itself
echo "$NR" >"/sys/block/$N/queue/nr_requests"

## a file on ext4 on a loop device
require_cmd mkfs.ext4
make_loop 64M "$T_TMP/fast/ext.img" >"$T_TMP/extdev" || skip "cannot create a loop device"
E=$(cat "$T_TMP/extdev")
mkfs.ext4 -q "$E" && mkdir "$T_TMP/ext" && mount "$E" "$T_TMP/ext" || skip "cannot mount ext4"
register_mount "$T_TMP/ext"
# conv=fsync, not sync(1): a global sync waits on every other file system of the machine
dd if=/dev/urandom of="$T_TMP/ext/file" bs=64k count=16 conv=fsync status=none

## a cgroup v1 blkio throttle at 40 reads/s: the throttle is the latency, on the device and
## on a file on it (its sectors found through FIEMAP)
throttled_one() {
	timeout -k 5 60 bash -c 'echo $$ >"$1/cgroup.procs" && exec "${@:2}"' _ "$CG" \
		"$IOPROBE" -c 30 -i 0 -D -J --layers "$1" >"$OUT" 2>"$ERR"
	RC=$?
	check "throttle $2: exit 0" rc_is 0
	check "throttle $2: >= 70 % of the latency ($(jfield 'd["layers"]["throttle"]["avg"]') of $(jfield 'd["avg"]') ns)" \
		holds 'd["layers"]["throttle"]["avg"] >= 0.7 * d["avg"]'
	check "throttle $2: the device < 10 %" holds 'd["layers"]["device"]["avg"] < 0.1 * d["avg"]'
	check "throttle $2: every request reached the device" holds 'd["layers"]["no_device"] == 0'
}
throttled() {
	throttled_one "$L" device
	throttled_one "$T_TMP/ext/file" "file on ext4"
}
CG=
if [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]; then
	CG=/sys/fs/cgroup/blkio/ioprobe-layers.$$
	if mkdir "$CG" 2>/dev/null; then
		at_exit 'rmdir "$CG" 2>/dev/null || { sleep 0.5; rmdir "$CG"; }'
		{ echo "$(cat "/sys/block/$N/dev") 40" >"$CG/blkio.throttle.read_iops_device" &&
			echo "$(cat "/sys/block/${E#/dev/}/dev") 40" \
				>"$CG/blkio.throttle.read_iops_device"; } || CG=
	else
		CG=
	fi
fi
if [ -n "$CG" ]; then
	attempts 3 throttled
else
	echo "# no cgroup v1 blkio throttle here: the throttle case is not run"
	[ "${IOPROBE_TEST_STRICT:-0}" = 1 ] && fail "throttle: no cgroup v1 blkio here"
fi

## a 7 ms FUSE disk under a loop device: the device is the latency, the layers add up
slow() {
	probe -c 11 -i 0 -D -J --layers "$F"
	check "slow disk: exit 0" rc_is 0
	check "slow disk: the device >= 85 % ($(jfield 'd["layers"]["device"]["avg"]') of $(jfield 'd["avg"]') ns)" \
		holds 'd["layers"]["device"]["avg"] >= 0.85 * d["avg"]'
	check "slow disk: the layers add up to the latency within 10 %" \
		holds 'abs(sum(d["layers"][k]["avg"] for k in ("submit", "throttle", "queue", "device")) - d["avg"]) <= 0.1 * d["avg"]'
	check "slow disk: and so for each request, within its own time" \
		every '0.9 * i["time"] <= sum(i["layers"][k] for k in ("submit", "throttle", "queue", "device")) <= i["time"]'
}
if [ -n "${IOPROBE_FAULTDISK:-}" ] && [ -x "$IOPROBE_FAULTDISK" ]; then
	F=$(make_fault_disk "$T_TMP/fault" 16M --latency 7ms) || skip "faultdisk did not come up"
	losetup --direct-io=on "$F" 2>/dev/null # no page cache under the loop: every read waits
	attempts 3 slow
else
	skip "needs the faultdisk fixture (fuse3)"
fi

## cached re-reads of a file on ext4: no request reaches the device
cat "$T_TMP/ext/file" >/dev/null
probe -c 11 -i 0 -C -J --layers "$T_TMP/ext/file"
check "cached: exit 0" rc_is 0
check "cached: every request without a device request" \
	holds 'd["layers"]["no_device"] == d["count"] == 10 and d["layers"]["pieces"] == 0'
check "cached: each request's own record says so" \
	every 'i["layers"]["no_device"] and i["layers"]["pieces"] == 0'
# ... and --iostat's verdict says so as measured (it asked "page cache? a stacked device?")
cat "$T_TMP/ext/file" >/dev/null
probe -C -i 10ms -w 3.5 -q --iostat --layers "$T_TMP/ext/file"
check "cached --iostat: no verdict: page cache, measured, in a block" \
	eval 'rc_is 0 && out_has "^no verdict: page cache: none of the probe.s [0-9]+ measured requests reached the device \(measured\), dev 0/s$"'
check "cached --iostat: never the inferred question" out_lacks "page cache\? a stacked device\?"
# the same file read past the cache (the default drops each range first): the device
probe -c 11 -i 0 -D -J --layers "$T_TMP/ext/file"
check "file -D: every request reached the device" \
	holds 'd["layers"]["no_device"] == 0 and d["layers"]["pieces"] >= 1'

finish
