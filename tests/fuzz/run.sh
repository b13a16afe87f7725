#!/bin/bash
# Build and run ioprobe's libFuzzer harnesses (tests/fuzz/fuzz_*.c) with ASan,
# LeakSanitizer and UBSan.
#
#   bash tests/fuzz/run.sh [SECONDS [HARNESS...]]
#
# Each harness is compiled with clang against the src/*.c files it needs
# (no meson build directory needed; config.h is generated in a temp dir),
# then run for SECONDS (default 60) on a temp copy of its seed corpus
# tests/fuzz/corpus/<harness>/ (the committed corpus never grows). A crash,
# leak, timeout, out-of-memory, sanitizer report or build failure fails the
# harness; the failing input is printed (hex) and left in $FUZZ_ARTIFACTS
# when that is set. Prints one line per harness with the number of
# executions, then "N passed, N failed".
#
# SECONDS=0 only replays the seed corpus (quick regression check, no fuzzing).
# A file named crash-* in a corpus directory is a reproducer of a known bug in src/:
# the harness fails on it until the bug is fixed (then keep it as a regression seed).
#
# Exit: 0 all passed, 1 a harness failed, 77 clang or libFuzzer is missing.
# CLANG=... picks the compiler (default clang, then clang-14); FUZZ_SRC=DIR builds
# against another copy of src/ (to check a fix); FUZZ_ARTIFACTS=DIR keeps crash inputs.
set -u

SECONDS_EACH=${1:-60}
shift $(($# > 0 ? 1 : 0))
case $SECONDS_EACH in
'' | *[!0-9]*) echo "usage: $0 [SECONDS [HARNESS...]]" >&2; exit 2 ;;
esac

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# FUZZ_SRC=DIR fuzzes another copy of src/ (e.g. a patched one) with these harnesses and corpora.
SRC=$(cd "${FUZZ_SRC:-$HERE/../../src}" && pwd)

# The sources each harness links: the module under test and what it includes.
declare -A SOURCES=(
	[fuzz_opts]="cli/opts.c lib/suffix.c lib/msg.c lib/fmt.c probe/account.c probe/stats.c"
	[fuzz_suffix]="lib/suffix.c"
	[fuzz_diskstats]="disk/diskstats.c disk/iostat.c lib/sbuf.c lib/json.c lib/esc.c disk/verdict.c probe/stats.c lib/fmt.c"
	[fuzz_mountinfo]="lib/mountinfo.c"
	[fuzz_recread]="out/recread.c out/recfmt.c lib/jsonr.c lib/msg.c lib/json.c lib/sbuf.c lib/esc.c lib/fmt.c probe/stats.c probe/account.c probe/layerstat.c disk/verdict.c disk/iostat.c disk/diskstats.c"
	[fuzz_webcfg]="out/webcfg.c out/webauth.c lib/suffix.c"
)
# Libraries a harness links besides libm.
declare -A LIBS=(
	[fuzz_webcfg]="-lyaml -lcrypto -lcrypt"
)
ALL=(fuzz_opts fuzz_suffix fuzz_diskstats fuzz_mountinfo fuzz_recread fuzz_webcfg)
if [ $# -gt 0 ]; then
	HARNESSES=("$@")
else
	HARNESSES=("${ALL[@]}")
fi
for h in "${HARNESSES[@]}"; do
	[ -n "${SOURCES[$h]:-}" ] || { echo "unknown harness: $h (have: ${ALL[*]})" >&2; exit 2; }
done

CLANG=${CLANG:-}
if [ -z "$CLANG" ]; then
	for c in clang clang-14; do
		command -v "$c" >/dev/null 2>&1 && { CLANG=$c; break; }
	done
fi
if [ -z "$CLANG" ] || ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "SKIP - clang not found (set CLANG=...)"
	exit 77
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ioprobe-fuzz.XXXXXX")
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# libFuzzer present? (its runtime ships separately from clang on some distributions)
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
	>"$WORK/probe.c"
if ! "$CLANG" -fsanitize=fuzzer,address,undefined "$WORK/probe.c" -o "$WORK/probe" \
	>"$WORK/probe.log" 2>&1; then
	echo "SKIP - $CLANG cannot build a libFuzzer binary (-fsanitize=fuzzer,address,undefined):"
	sed 's/^/  | /' "$WORK/probe.log" | head -5
	exit 77
fi

# The pure modules include "config.h" (meson writes it); these are the values of a
# minimal build, none of them is used by the modules fuzzed here.
mkdir -p "$WORK/inc"
cat >"$WORK/inc/config.h" <<'EOF'
#define PACKAGE_VERSION "0.1.0"
#define HAVE_LIBURING 0
#define HAVE_LIBAIO 0
#define HAVE_TUI 0
EOF

# Coverage feedback comes from the code under test only (src/*/*.c, -fsanitize=fuzzer-no-link);
# the harness and its checks are built with the sanitizers but without coverage, which keeps
# the checks cheap and the corpus about src/. The link adds libFuzzer's main.
CFLAGS=(-std=gnu11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer
	-fsanitize=address,undefined -fno-sanitize-recover=all
	-Wall -Wextra -Wno-unused-parameter
	-I"$WORK/inc" -I"$SRC/lib" -I"$SRC/engines" -I"$SRC/bpf" -I"$SRC/probe" -I"$SRC/disk" -I"$SRC/out"
	-I"$SRC/cli" -I"$HERE")

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=0:symbolize=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:symbolize=1
export LSAN_OPTIONS=${LSAN_OPTIONS:-}

now() { date +%s; }

# Build every harness first (in parallel), then run them one after another.
declare -A BUILD_PID
for h in "${HARNESSES[@]}"; do
	(
		set -e
		mkdir -p "$WORK/obj/$h"
		objs=()
		for s in ${SOURCES[$h]}; do
			o="$WORK/obj/$h/$(basename "${s%.c}").o"
			"$CLANG" "${CFLAGS[@]}" -fsanitize=fuzzer-no-link -c "$SRC/$s" -o "$o"
			objs+=("$o")
		done
		"$CLANG" "${CFLAGS[@]}" -c "$HERE/$h.c" -o "$WORK/obj/$h/$h.o"
		"$CLANG" "${CFLAGS[@]}" -fsanitize=fuzzer "$WORK/obj/$h/$h.o" "${objs[@]}" -lm ${LIBS[$h]:-} \
			-o "$WORK/$h"
	) >"$WORK/$h.build.log" 2>&1 &
	BUILD_PID[$h]=$!
done

passed=0
failed=0
start_all=$(now)
for h in "${HARNESSES[@]}"; do
	if ! wait "${BUILD_PID[$h]}"; then
		echo "FAIL - $h: build failed"
		sed 's/^/  | /' "$WORK/$h.build.log" | head -30
		failed=$((failed + 1))
		continue
	fi
	if [ -s "$WORK/$h.build.log" ]; then
		echo "# $h: compiler warnings:"
		sed 's/^/  | /' "$WORK/$h.build.log" | head -20
	fi
	corpus=$WORK/corpus/$h
	mkdir -p "$corpus" "$WORK/artifacts/$h"
	if [ -d "$HERE/corpus/$h" ]; then
		cp -R "$HERE/corpus/$h/." "$corpus/"
	fi
	seeds=$(find "$corpus" -type f | wc -l)
	log=$WORK/$h.log
	dict=()
	[ -f "$HERE/$h.dict" ] && dict=(-dict="$HERE/$h.dict")
	t0=$(now)
	# libFuzzer's own -max_total_time ends the run; timeout(1) is a backstop for a hang
	if [ "$SECONDS_EACH" = 0 ]; then
		limit=(-runs=0) # replay the seed corpus only
	else
		limit=(-max_total_time="$SECONDS_EACH")
	fi
	timeout -k 10 $((SECONDS_EACH + 120)) "$WORK/$h" \
		"${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$WORK/artifacts/$h/" "${dict[@]}" \
		"$corpus" >"$log" 2>&1
	rc=$?
	t1=$(now)
	execs=$(awk '/^stat::number_of_executed_units:/ { n = $2 } END { print n }' "$log")
	units=$(find "$corpus" -type f | wc -l)
	report=$(grep -E -m1 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|invariant violated|==[0-9]+==WARNING: (AddressSanitizer|MemorySanitizer)|SUMMARY: (AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer|libFuzzer)' "$log")
	artifacts=$(find "$WORK/artifacts/$h" -type f | sort)
	if [ "$rc" = 0 ] && [ -z "$report" ] && [ -z "$artifacts" ]; then
		echo "ok - $h: ${execs:-?} executions in $((t1 - t0)) s, corpus $seeds seeds -> $units units"
		passed=$((passed + 1))
		continue
	fi
	failed=$((failed + 1))
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "FAIL - $h: hung (killed after $((t1 - t0)) s), ${execs:-?} executions"
	else
		echo "FAIL - $h: exit $rc after $((t1 - t0)) s, ${execs:-?} executions: ${report:-no report}"
	fi
	echo "  --- fuzzer log (last 60 lines):"
	grep -v -E '^#[0-9]+' "$log" | tail -60 | sed 's/^/  | /'
	for a in $artifacts; do
		echo "  --- input $(basename "$a") ($(stat -c %s "$a") bytes):"
		od -A d -c "$a" | head -40 | sed 's/^/  | /'
		if [ -n "${FUZZ_ARTIFACTS:-}" ]; then
			mkdir -p "$FUZZ_ARTIFACTS/$h"
			cp "$a" "$FUZZ_ARTIFACTS/$h/"
			echo "  (saved as $FUZZ_ARTIFACTS/$h/$(basename "$a"))"
		fi
	done
done

echo "# total $(($(now) - start_all)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
