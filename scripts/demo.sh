#!/usr/bin/env bash
# make demo: show prf working on a real program with what exists so far.
set -u
cd "$(dirname "$0")/.."
PRF=./prf
echo "== prf list sw"
$PRF list sw
echo
echo "== prf stat -- xz -9 (compressing 8 MB of generated text)"
head -c 8000000 /dev/urandom | base64 > /tmp/prf-demo.txt
$PRF stat -- xz -9 -k -f -T1 /tmp/prf-demo.txt
rm -f /tmp/prf-demo.txt /tmp/prf-demo.txt.xz
