#!/bin/bash
# Run the real ioprobe binary under valgrind memcheck for a handful of ordinary and error
# runs on a temp directory and file; fail on any valgrind error (invalid access, use of
# uninitialised memory, definite leak) and on any file descriptor that ioprobe opened and
# did not close (valgrind's --track-fds list minus what was inherited from this shell).
#
#   bash tests/valgrind.sh BUILD_DIR        (BUILD_DIR holds the ioprobe binary)
#
# Prints "ok - ..." / "FAIL - ..." / "SKIP - ..." per run, then "N passed, N failed".
# Exit: 0 all passed, 1 a run failed, 2 usage error, 77 valgrind is missing.
# VALGRIND_TIMEOUT (seconds per run, default 300) bounds a hung run.
set -u

BUILD=${1:-}
if [ -z "$BUILD" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP - valgrind not found"
	exit 77
fi
IOPROBE=$(readlink -f "$BUILD/ioprobe" 2>/dev/null)
if [ -z "$IOPROBE" ] || [ ! -x "$IOPROBE" ]; then
	echo "usage: $0 BUILD_DIR: no ioprobe binary in '$BUILD' (build it first)" >&2
	exit 2
fi

export LC_ALL=C.UTF-8 TZ=UTC
unset NO_COLOR

T=$(mktemp -d "${TMPDIR:-/tmp}/ioprobe-valgrind.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP
D=$T/dir
F=$T/file
mkdir "$D"
# a 4 MiB file with real data (not sparse), for -L -S 1m and the file runs
head -c $((4 << 20)) /dev/zero | tr '\0' 'x' >"$F"

VALGRIND=(valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
	--track-fds=yes --num-callers=30
	--suppressions="$(dirname "$0")/valgrind-libbpf.supp")
TIMEOUT=${VALGRIND_TIMEOUT:-300}

PASS=0
FAIL=0
SKIP=0
START=$(date +%s)

# leaked_fds LOG: the --track-fds entries not "<inherited from parent>", one per line.
leaked_fds() {
	sed 's/^==[0-9]*== //' "$1" | awk '
		pending != "" {
			if ($0 !~ /<inherited from parent>/)
				print pending " opened at: " $0
			pending = ""
		}
		/^Open (file descriptor|AF_[A-Za-z0-9]+ socket) / { pending = $0 }'
}

show_failure() {
	local name=$1
	echo "  --- valgrind log:"
	grep -v -E '^==[0-9]+== *$' "$T/$name.vg" | sed 's/^/  | /' | head -80
	echo "  --- stdout (head):"
	head -10 "$T/$name.out" | sed 's/^/  | /'
	echo "  --- stderr (head):"
	head -10 "$T/$name.err" | sed 's/^/  | /'
}

# vg NAME EXPECTED_STATUS ARGS...: run ioprobe ARGS under valgrind and judge it.
vg() {
	local name=$1 want=$2 rc errors leaks unhandled t0
	shift 2
	t0=$(date +%s)
	timeout -k 10 "$TIMEOUT" "${VALGRIND[@]}" --log-file="$T/$name.vg" "$IOPROBE" "$@" \
		</dev/null >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
	errors=$(sed -n 's/^==[0-9]*== ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$T/$name.vg" | tail -1)
	leaks=$(leaked_fds "$T/$name.vg")
	unhandled=$(grep -E -m3 'unhandled (amd64|x86|arm64|[a-z0-9]+)-linux syscall|unhandled ioctl' "$T/$name.vg")
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "FAIL - $name: timed out after ${TIMEOUT} s (ioprobe $*)"
		show_failure "$name"
		FAIL=$((FAIL + 1))
	elif [ "$rc" = 99 ] || [ "${errors:-x}" != 0 ]; then
		echo "FAIL - $name: valgrind reported ${errors:-?} errors (status $rc; ioprobe $*)"
		show_failure "$name"
		FAIL=$((FAIL + 1))
	elif [ -n "$leaks" ]; then
		echo "FAIL - $name: file descriptors left open by ioprobe (ioprobe $*):"
		echo "$leaks" | sed 's/^/  | /'
		show_failure "$name"
		FAIL=$((FAIL + 1))
	elif [ "$rc" != "$want" ]; then
		echo "FAIL - $name: exit status $rc, expected $want (ioprobe $*)"
		show_failure "$name"
		FAIL=$((FAIL + 1))
	elif [ -n "$EXPECT_OUT" ] && ! grep -Eq -- "$EXPECT_OUT" "$T/$name.out"; then
		echo "FAIL - $name: stdout lacks /$EXPECT_OUT/, the path meant to be checked did not run (ioprobe $*)"
		show_failure "$name"
		FAIL=$((FAIL + 1))
	elif [ -n "$EXPECT_ERR" ] && ! grep -Eq -- "$EXPECT_ERR" "$T/$name.err"; then
		echo "FAIL - $name: stderr lacks /$EXPECT_ERR/, the path meant to be checked did not run (ioprobe $*)"
		show_failure "$name"
		FAIL=$((FAIL + 1))
	else
		echo "ok - $name: 0 errors, no fd leaked, status $rc in $(($(date +%s) - t0)) s (ioprobe $*)"
		PASS=$((PASS + 1))
	fi
	if [ -n "$unhandled" ]; then
		echo "  note: valgrind did not handle everything this run used:"
		echo "$unhandled" | sed 's/^/  | /'
	fi
	EXPECT_OUT=
	EXPECT_ERR=
}
# EXPECT_OUT=REGEX (EXPECT_ERR=REGEX) before vg: the run's stdout (stderr) must also match it.
EXPECT_OUT=
EXPECT_ERR=

# vg_engine NAME FLAG: like vg for -U / -A, skipped when the binary has no such engine,
# or when valgrind does not implement its syscalls (io_uring needs valgrind >= 3.16).
vg_engine() {
	local name=$1 flag=$2
	if ! timeout -k 5 30 "$IOPROBE" "$flag" -c 1 -i 0 -q "$D" >"$T/$name.native" 2>&1; then
		echo "SKIP - $name: ioprobe $flag does not run here even without valgrind: $(head -1 "$T/$name.native")"
		SKIP=$((SKIP + 1))
		return
	fi
	timeout -k 10 "$TIMEOUT" "${VALGRIND[@]}" --log-file="$T/$name.probe.vg" "$IOPROBE" "$flag" \
		-c 1 -i 0 -q "$D" </dev/null >/dev/null 2>&1
	# pidfd_open (434 on x86-64) is optional: without it (ENOSYS, valgrind 3.19) the probe's
	# reader looks for its child's end every 20 ms instead, the engine runs as usual
	if grep -E 'unhandled [a-z0-9]+-linux syscall' "$T/$name.probe.vg" |
		grep -qvE 'amd64-linux syscall: 434$'; then
		echo "SKIP - $name: valgrind $(valgrind --version | sed 's/^valgrind-//') does not implement" \
			"the syscalls of ioprobe $flag: $(grep -oE 'unhandled [a-z0-9]+-linux syscall: [0-9]+' "$T/$name.probe.vg" | grep -vm1 'amd64-linux syscall: 434$')"
		SKIP=$((SKIP + 1))
		return
	fi
	vg "$name" 0 "$flag" -c 5 -i 0 "$D"
}

vg read-dir 0 -c 5 -i 0 "$D"
vg read-file 0 -c 5 -i 0 "$F"
EXPECT_OUT='"io"'
vg json 0 -J -c 3 -i 0 "$D"
vg json-lines 0 --json-lines --raw-percentiles -c 3 -i 0 "$D"
vg periodic-quiet 0 -p 2 -c 5 -q -i 0 "$D"
vg batch 0 -B -c 3 -i 0 "$D"
vg write-dir 0 -W -c 3 -i 0 "$D"
vg read-write-dir 0 -G -c 4 -i 0 "$D"
vg linear-worksize 0 -L -S 1m -c 5 -i 0 "$F"
vg error-missing-path 2 -E -c 2 -i 0 "$D/missing"
vg error-bad-option 1 --bogus-option "$D"
vg error-bad-number 1 -c 0x "$D"
vg help 0 -h
# --qualify: a two-step profile (each step one run through cli_run, the kept file shared and
# removed), and a refusal (writes without -WWW)
printf 'qualify q\nstep w -W -c 20 -i 0\nrequire IOPS > 1\nstep rw -G -c 20 -i 0\nrequire read p99 < 10s\n' >"$T/q.prof"
EXPECT_OUT='^QUALIFY q: PASS$'
vg qualify 0 --qualify "$T/q.prof" -WWW -S 1m "$D"
vg qualify-refused 2 --qualify db "$D"
# --record (a writer thread, zlib) and --replay (the reader, zlib)
vg record 0 --record "$T/rec.jsonl.gz" -c 5 -i 0.3 -q "$D"
EXPECT_OUT='ioprobe statistics'
vg replay 0 --replay "$T/rec.jsonl.gz"
head -c 700 "$T/rec.jsonl.gz" >"$T/cut.gz"
vg replay-cut 3 --replay "$T/cut.gz" -q
# --report: drawn from a replay (whole and cut) and at the end of a live run
vg replay-report 0 --replay "$T/rec.jsonl.gz" --report "$T/rep.html" -q
vg replay-report-cut 3 --replay "$T/cut.gz" --report "$T/cut.html" -q
vg record-report 0 --record "$T/rec2.jsonl" --report "$T/rep2.html" -c 5 -i 0.3 -q "$D"

# --web-config: a refused file (the parser's error path), then TLS with basic auth serving
# right, wrong and plain-HTTP requests (OpenSSL's handshakes, the bcrypt cache) while it runs
printf 'tls_server_config:\n  cert_file: x.crt\n  cert_fil: y\n' >"$T/bad.yml"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
EXPECT_ERR='bad.yml:3: tls_server_config: unknown key'
vg web-config-refused 1 --listen "127.0.0.1:$(free_port)" --web-config "$T/bad.yml" -c 1 "$D"
if command -v openssl >/dev/null && command -v curl >/dev/null && command -v python3 >/dev/null &&
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/s.key" -out "$T/s.crt" \
		-subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 -days 2 2>/dev/null; then
	hash=$(python3 -W ignore -c 'import crypt
print(crypt.crypt("pw", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))')
	printf 'tls_server_config:\n  cert_file: s.crt\n  key_file: s.key\nbasic_auth_users:\n  u: %s\n' \
		"$hash" >"$T/web.yml"
	port=$(free_port)
	( for _ in $(seq 60); do # until it answers (valgrind starts slowly), then a few more
		curl -fs --cacert "$T/s.crt" -u u:pw -o /dev/null "https://127.0.0.1:$port/metrics" &&
			break
		sleep 0.5
	done
	curl -s --cacert "$T/s.crt" -u u:no -o /dev/null "https://127.0.0.1:$port/metrics"
	curl -s -o /dev/null "http://127.0.0.1:$port/metrics"
	curl -fs --cacert "$T/s.crt" -u u:pw -o "$T/scraped" "https://127.0.0.1:$port/metrics"
	) &
	scraper=$!
	vg web-config-tls 0 --listen "127.0.0.1:$port" --web-config "$T/web.yml" -c 60 -i 0.25 -q "$D"
	wait "$scraper"
	if grep -q '^ioprobe_probe_info' "$T/scraped" 2>/dev/null; then
		echo "ok - web-config-tls: scraped over TLS with basic auth under valgrind"
		PASS=$((PASS + 1))
	else
		echo "FAIL - web-config-tls: no scrape over TLS got the metrics"
		FAIL=$((FAIL + 1))
	fi
else
	echo "SKIP - web-config-tls: needs openssl, curl and python3"
	SKIP=$((SKIP + 1))
fi

# --iostat needs a block device behind the temp dir (not tmpfs, overlay, ...)
devno=$(stat -c '%Hd:%Ld' "$D" 2>/dev/null)
if [ -n "$devno" ] && [ -e "/sys/dev/block/$devno" ] && [ -r /proc/diskstats ]; then
	vg iostat 0 --iostat -c 3 -i 0.3 "$D"
	# the same with rows printed (every 0.5 s), text and JSON
	EXPECT_OUT='^Device +r/s'
	vg iostat-rows 0 --iostat -c 5 -i 0.3 -P 0.5 "$D"
	EXPECT_OUT='"disk_device"'
	vg iostat-json 0 --iostat -J -c 5 -i 0.3 -P 0.5 "$D"
else
	echo "SKIP - iostat: the temp dir $D is not on a block device (${devno:-unknown})"
	SKIP=$((SKIP + 1))
fi

vg_engine io_uring -U
vg_engine libaio -A

echo "# $SKIP skipped, $(($(date +%s) - START)) s in all"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
