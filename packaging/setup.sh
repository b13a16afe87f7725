#!/bin/sh
# Install what ioprobe needs to build and run, then configure and build it in ./build.
# With --tests, also install everything the test suites, the fuzzers, the benchmark and the
# package build use, so that `meson test -C build` runs every test.
# Re-run safe: an existing build directory is reconfigured (a library installed since, such as
# criterion, is found then), not recreated.
# Usage: ./packaging/setup.sh [--tests] [extra meson setup options...]
# IOPROBE_SKIP_DEPS=1 installs nothing (configure and build only).
set -eu

cd "$(dirname "$0")/.."

tests=0
if [ "${1:-}" = --tests ]; then
	tests=1
	shift
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
fi

# Build and run: compiler, meson, ninja, pkg-config, ncursesw (the view), libaio and liburing
# (engines), protobuf-c and its protoc-c generator (the protobuf exposition with native
# histograms), zlib (--record FILE.gz and --replay), libbpf, bpftool and clang (--layers: the
# eBPF programs are compiled with clang, their skeleton made by bpftool at build time), libyaml,
# OpenSSL and libcrypt (--web-config: its YAML file, TLS, basic auth's bcrypt hashes).
DEB_PKGS="gcc pkg-config meson ninja-build libncurses-dev libaio-dev liburing-dev
	libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libbpf-dev bpftool clang libyaml-dev
	libssl-dev libcrypt-dev"
RPM_PKGS="gcc pkgconf-pkg-config meson ninja-build ncurses-devel libaio-devel liburing-devel
	protobuf-c-devel protobuf-c-compiler zlib-devel libbpf-devel bpftool clang libyaml-devel
	openssl-devel libxcrypt-devel"
PAC_PKGS="gcc pkgconf meson ninja ncurses libaio liburing protobuf-c zlib libbpf bpf clang
	libyaml openssl libxcrypt"
# Tests (--tests): criterion (unit suites), ioping (reference), sysstat (iostat reference), tmux
# (view tests), chromium (the --report file rendered headless), python3 and python3-yaml (JSON
# and rule files), util-linux and mount (losetup, mount), e2fsprogs (mkfs), fuse3 (the
# fault-injecting test disk), man-db and groff (man page lint), clang (fuzzers), valgrind, time
# (benchmark RSS), locales (de_DE for the decimal-comma test), fio (loads and the fio-job check),
# prometheus, prometheus-node-exporter, python3-prometheus-client, curl and openssl (fleet
# outputs; certificates for --web-config), systemd (systemd-analyze verify of the unit), strace
# (the io_uring engine's system calls), procps; packaging: dpkg-dev, debhelper, lintian,
# fakeroot, bash-completion.
DEB_TEST_PKGS="locales libcriterion-dev libfuse3-dev fuse3 ioping sysstat tmux python3 util-linux
	mount e2fsprogs man-db groff-base clang libclang-rt-14-dev valgrind procps time dpkg-dev
	debhelper lintian fakeroot bash-completion fio prometheus prometheus-node-exporter
	python3-prometheus-client curl openssl systemd strace python3-yaml chromium"
RPM_TEST_PKGS="criterion-devel fuse3-devel fuse3 ioping sysstat tmux python3 util-linux e2fsprogs
	man-db clang glibc-locale-source strace"
PAC_TEST_PKGS="criterion fuse3 ioping sysstat tmux python util-linux e2fsprogs man-db clang strace"
if [ "$tests" = 1 ]; then
	DEB_PKGS="$DEB_PKGS $DEB_TEST_PKGS"
	RPM_PKGS="$RPM_PKGS $RPM_TEST_PKGS"
	PAC_PKGS="$PAC_PKGS $PAC_TEST_PKGS"
fi

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
