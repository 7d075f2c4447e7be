#!/bin/sh
# The system tools the tests drive, from Debian/Ubuntu packages: Graphviz (DOT exports rendered),
# Chromium (the explorer's browser tests, with a CJK font for the screenshots), Virtuoso (the remote
# SPARQL engine backend), wrk (the benchmark's smoke test), Node.js and npm (the explorer's libraries
# and the Comunica client), rasqal-utils (roqet, an outside SPARQL protocol client). Installs only what
# is missing; uses sudo when not run as root.
set -eu
missing=""
need() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need dot graphviz
need chromium chromium
need virtuoso-t virtuoso-opensource
need wrk wrk
need node nodejs
need npm npm
need roqet rasqal-utils
[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing="$missing fonts-wqy-microhei"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086 # the package list is meant to split
$sudo apt-get install -y -q --no-install-recommends $missing
