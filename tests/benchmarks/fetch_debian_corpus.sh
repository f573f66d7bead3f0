#!/bin/sh
# The `x` corpus of bench_lint.py and bench_file_size.py: the shell scripts of
# Debian packages that are mostly shell (initramfs hooks, installers, build
# helpers, completions), unpacked without installing anything.
#
#     sh tests/benchmarks/fetch_debian_corpus.sh [FOLDER]     (default corpus/x)
#
# Needs apt-get and dpkg-deb and a Debian mirror; the benchmarks run without it
# (the corpus is then this repository's scripts and the machine's own).
# 2026-11-27, bookworm: 1,402 scripts, 5.4 MB, 201,177 lines.
set -eu
folder=${1:-corpus/x}
packages="autoconf automake bash-completion bats console-setup cryptsetup-initramfs debootstrap
devscripts dkms dracut-core git-man grub-common ifupdown initramfs-tools initramfs-tools-core
libtool-bin live-build ltsp lvm2 lxc mdadm open-iscsi os-prober shunit2 ucf xdg-utils zsh-common"
downloads=$(mktemp -d)
trap 'rm -rf "$downloads"' EXIT
# shellcheck disable=SC2086 # one word per package
(cd "$downloads" && apt-get download $packages)
mkdir -p "$folder"
for deb in "$downloads"/*.deb; do
    name=$(basename "$deb")
    dpkg-deb -x "$deb" "$folder/${name%%_*}"
done
echo "$folder: $(find "$folder" -type f | wc -l) files"
