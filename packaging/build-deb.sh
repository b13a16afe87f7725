#!/bin/bash
# Build the Debian package of ioprobe from a clean copy of the source tree, then lint it.
#
# Usage: packaging/build-deb.sh [--committed] [--keep]
#   (default)     build the working tree as it is on disk: every tracked file plus every
#                 untracked file that .gitignore does not exclude (uncommitted work included)
#   --committed   build the committed tree (git archive HEAD) instead
#   --keep        keep the temporary build directory and print its path
#
# Steps: copy the source into a temporary directory, make ioprobe_<upstream>.orig.tar.xz from
# it, copy packaging/debian to debian/ (a copy, never a symlink: debhelper writes into
# debian/), build the source package (dpkg-source -b) and the binary packages
# (dpkg-buildpackage -us -uc -b, running the test suite unless DEB_BUILD_OPTIONS has nocheck),
# then run lintian -I --pedantic on both. Fails on any lintian E: or W: tag except
# initial-upload-closes-no-bugs (a first upload without an ITP bug).
#
# Missing build tools and Build-Depends are installed with apt-get (sudo when not root;
# IOPROBE_SKIP_DEPS=1 turns that off). DEB_BUILD_OPTIONS and DEB_BUILD_PROFILES are honoured.
# Output: build-deb/ in the source tree (*.deb, .changes, .buildinfo, build.log,
# lintian.txt); nothing else is written into the source tree.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

mode=worktree
keep=0
for arg in "$@"; do
	case $arg in
	--committed) mode=committed ;;
	--keep) keep=1 ;;
	-h | --help)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	*)
		echo "build-deb.sh: unknown argument '$arg' (try --help)" >&2
		exit 1
		;;
	esac
done

log() { echo "build-deb.sh: $*" >&2; }
die() { log "$*"; exit 1; }

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

# nocheck in DEB_BUILD_OPTIONS also selects the nocheck build profile (test-only Build-Depends)
case " ${DEB_BUILD_OPTIONS:-} " in
*" nocheck "*)
	case " ${DEB_BUILD_PROFILES:-} " in
	*" nocheck "*) ;;
	*) export DEB_BUILD_PROFILES="${DEB_BUILD_PROFILES:+$DEB_BUILD_PROFILES }nocheck" ;;
	esac
	;;
esac

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

TOOLS="dpkg-dev debhelper lintian fakeroot"
if [ "${IOPROBE_SKIP_DEPS:-0}" != 1 ]; then
	missing=
	for p in $TOOLS; do
		installed "$p" || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		log "installing$missing"
		export DEBIAN_FRONTEND=noninteractive
		$SUDO apt-get update -q
		# shellcheck disable=SC2086
		$SUDO apt-get install -y -q --no-install-recommends $missing
	fi
fi
for c in dpkg-parsechangelog dpkg-source dpkg-buildpackage lintian dh; do
	command -v "$c" >/dev/null 2>&1 || die "needs $c (apt-get install $TOOLS)"
done

VERSION=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
UPSTREAM=${VERSION%-*}
EPOCH_TS=$(dpkg-parsechangelog -l packaging/debian/changelog -S Timestamp)
MESON_VERSION=$(sed -n "s/^ *version: *'\([^']*\)'.*/\1/p" meson.build | head -1)
[ "$MESON_VERSION" = "$UPSTREAM" ] ||
	die "packaging/debian/changelog says $UPSTREAM, meson.build says $MESON_VERSION"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ioprobe-deb.XXXXXX")
cleanup() {
	if [ "$keep" = 1 ]; then
		log "kept $TMP"
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT
SRC=$TMP/ioprobe-$UPSTREAM
mkdir "$SRC"

# 1. a clean copy of the source
if [ "$mode" = committed ]; then
	git rev-parse --verify -q HEAD >/dev/null || die "--committed needs a git checkout"
	git cat-file -e HEAD:packaging/debian/control 2>/dev/null ||
		die "packaging/debian is not committed yet: commit it or build the working tree"
	log "copying the committed tree (HEAD $(git rev-parse --short HEAD))"
	git archive --format=tar HEAD | tar -x -C "$SRC"
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	log "copying the working tree (tracked and untracked, not ignored)"
	# files deleted on disk but still tracked are left out: this builds what is on disk
	git ls-files -z -c -o --exclude-standard |
		while IFS= read -r -d '' f; do
			if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi
		done |
		tar -c --null -T - -f - | tar -x -C "$SRC"
else
	log "not a git checkout: copying the directory without build output"
	tar -c --exclude=./.git --exclude='./build*' --exclude=./debian --exclude=./meson-dist \
		-f - . | tar -x -C "$SRC"
fi
rm -rf "$SRC/debian"

# 2. the upstream tarball that 3.0 (quilt) pairs with debian/
tar -C "$TMP" -c --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$EPOCH_TS" \
	-f - "ioprobe-$UPSTREAM" | xz -6 >"$TMP/ioprobe_$UPSTREAM.orig.tar.xz"

# 3. debian/ as a copy
cp -r packaging/debian "$SRC/debian"

# 4. build dependencies
cd "$SRC"
if ! dpkg-checkbuilddeps >/dev/null 2>&1; then
	if [ "${IOPROBE_SKIP_DEPS:-0}" = 1 ]; then
		dpkg-checkbuilddeps || die "unmet build dependencies (IOPROBE_SKIP_DEPS=1)"
	fi
	log "installing the missing Build-Depends"
	export DEBIAN_FRONTEND=noninteractive
	profiles=()
	[ -n "${DEB_BUILD_PROFILES:-}" ] && profiles=(-P "${DEB_BUILD_PROFILES// /,}")
	$SUDO apt-get update -q
	$SUDO apt-get build-dep -y -q --no-install-recommends "${profiles[@]}" "$SRC"
	dpkg-checkbuilddeps
fi

# 5. source package, then binary packages
OUTDIR=$ROOT/build-deb
mkdir -p "$OUTDIR"
rm -f "$OUTDIR"/*.deb "$OUTDIR"/*.changes "$OUTDIR"/*.buildinfo "$OUTDIR"/build.log \
	"$OUTDIR"/lintian.txt
start=$(date +%s)
log "building (DEB_BUILD_OPTIONS='${DEB_BUILD_OPTIONS:-}' DEB_BUILD_PROFILES='${DEB_BUILD_PROFILES:-}'); log: $OUTDIR/build.log"
set +e
(
	set -e
	cd "$TMP"
	dpkg-source -b "ioprobe-$UPSTREAM"
	cd "$SRC"
	dpkg-buildpackage -us -uc -b
) 2>&1 | tee "$OUTDIR/build.log"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 0 ] || die "build failed (exit $rc); see $OUTDIR/build.log"
log "built in $(($(date +%s) - start)) s"

cd "$TMP"
shopt -s nullglob
debs=(./*.deb)
[ "${#debs[@]}" -gt 0 ] || die "no .deb was produced"
cp ./*.deb ./*.changes ./*.buildinfo "$OUTDIR"/

# 6. lintian on the binary build and the source package
set +e
lintian -I --pedantic ./*.changes ./*.dsc >"$OUTDIR/lintian.txt" 2>&1
lrc=$?
set -e
cat "$OUTDIR/lintian.txt"
# exit 1: lintian itself failed; 2: it found tags of --fail-on's level (judged below)
[ "$lrc" != 1 ] || die "lintian failed to run (exit 1)"
bad=$(grep -E '^[EW]: ' "$OUTDIR/lintian.txt" | grep -v ' initial-upload-closes-no-bugs' || true)
if [ -n "$bad" ]; then
	log "lintian errors or warnings:"
	echo "$bad" >&2
	exit 1
fi

log "packages:"
for d in "${debs[@]}"; do
	echo "$OUTDIR/${d#./}"
done
