#!/usr/bin/env bash
# Builds a Debian 12 (bookworm) base image from Debian's own packages, like
# debian:bookworm-slim, for machines that reach Debian's mirror but no image registry.
# The Dockerfile then builds on it: docker build --build-arg BASE=<the tag printed> .
#
#   deploy/docker/debian-base.sh [TAG]     (default sitelens/debian:bookworm-slim; root, debootstrap)
#
# Idempotent: an existing TAG is kept. DEBIAN_MIRROR overrides the mirror.
set -euo pipefail
tag="${1:-sitelens/debian:bookworm-slim}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "$tag"
  exit 0
fi
rootfs="$(mktemp -d)"
trap 'rm -rf "$rootfs"' EXIT
debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >&2

# As the slim images do: no manuals, docs (copyright files stay) or translations from later packages.
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
CFG
cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'CFG'
APT::Install-Recommends "false";
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
CFG
# Services never start inside an image build.
printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
chmod +x "$rootfs/usr/sbin/policy-rc.d"
# Security updates too (Chromium ships through them).
rm -f "$rootfs/etc/apt/sources.list"
cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<SRC
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
  "$rootfs"/usr/share/lintian/* "$rootfs"/var/log/*.log "$rootfs"/var/cache/debconf/*-old
find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
find "$rootfs/usr/share/doc" -type f ! -name copyright -delete
tar -C "$rootfs" -c . | docker import --change 'CMD ["bash"]' - "$tag" >/dev/null
echo "$tag"
