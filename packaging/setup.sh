#!/bin/sh
# Install every build and test dependency of ioprobe, then configure and build it in ./build.
# Re-run safe: an existing build directory is reconfigured, not recreated.
# Usage: ./packaging/setup.sh [extra meson setup options...]
set -eu

cd "$(dirname "$0")/.."

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
fi

# Build: compiler, meson, libraries (protobuf-c and its protoc-c generator: the protobuf
# exposition with native histograms; zlib: --record FILE.gz and --replay). Test: criterion,
# ioping (reference), sysstat (iostat reference), tmux (TUI tests), python3 (JSON parsing),
# util-linux and mount (losetup, mount), e2fsprogs (mkfs for the mounted-device tests), fuse3 (the fault-injecting test disk), man-db
# and groff (man page lint), clang (fuzzers), time (benchmark RSS), locales (localedef and
# de_DE for the decimal-comma test), prometheus, prometheus-node-exporter,
# python3-prometheus-client and curl (the fleet-output tests), systemd (systemd-analyze
# verify of the unit), strace (counts the io_uring engine's system calls). Packaging: dpkg-dev, debhelper, lintian, fakeroot, bash-completion.
DEB_PKGS="gcc pkg-config locales meson ninja-build libncurses-dev libaio-dev liburing-dev
	libprotobuf-c-dev protobuf-c-compiler zlib1g-dev
	libcriterion-dev libfuse3-dev fuse3 ioping sysstat tmux python3 util-linux mount e2fsprogs
	man-db groff-base clang libclang-rt-14-dev valgrind procps time dpkg-dev debhelper lintian
	fakeroot bash-completion fio prometheus prometheus-node-exporter python3-prometheus-client
	curl systemd strace python3-yaml"
RPM_PKGS="gcc pkgconf-pkg-config meson ninja-build ncurses-devel libaio-devel liburing-devel
	protobuf-c-devel protobuf-c-compiler zlib-devel
	criterion-devel fuse3-devel fuse3 ioping sysstat tmux python3 util-linux e2fsprogs man-db clang
	glibc-locale-source strace"
PAC_PKGS="gcc pkgconf meson ninja ncurses libaio liburing protobuf-c zlib criterion fuse3 ioping sysstat tmux
	python util-linux e2fsprogs man-db clang strace"

if [ "${IOPROBE_SKIP_DEPS:-0}" != 1 ]; then
	if command -v apt-get >/dev/null 2>&1; then
		missing=
		for p in $DEB_PKGS; do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
				missing="$missing $p"
		done
		if [ -n "$missing" ]; then
			export DEBIAN_FRONTEND=noninteractive
			$SUDO apt-get update -q
			# shellcheck disable=SC2086
			$SUDO apt-get install -y -q --no-install-recommends $missing
		fi
	elif command -v dnf >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		$SUDO dnf install -y $RPM_PKGS
	elif command -v pacman >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		$SUDO pacman -S --needed --noconfirm $PAC_PKGS
	else
		echo "setup.sh: no apt-get, dnf or pacman: install the packages by hand:" >&2
		echo "  $DEB_PKGS" >&2
	fi
fi

if [ -f build/build.ninja ]; then
	meson setup --reconfigure build "$@"
else
	meson setup build "$@"
fi
meson compile -C build
