#!/bin/sh
# Bounded fuzz run of every parser: builds the libFuzzer targets with clang
# (ASan+UBSan) and runs each for FUZZ_SECONDS (default 20) on a scratch copy
# of its seed corpus.  A crash, leak or sanitizer report fails the run.
set -e
cd "$(dirname "$0")/.."
SECS=${FUZZ_SECONDS:-20}
B=build-fuzz
CC=clang cmake -S . -B $B -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUEST_FUZZ=ON -DGPUEST_SANITIZE=ON >/dev/null
list=$B/fuzz_targets.txt
targets=$(cut -d'|' -f1 "$list" | grep -v '^$' || true)
[ -n "$targets" ] || { echo "no fuzz targets" >&2; exit 1; }
cmake --build $B -j"$(nproc)" --target $targets >/dev/null
while IFS='|' read -r name corpus; do
    [ -n "$name" ] || continue
    work=$B/fuzz-work/$name
    rm -rf "$work" && mkdir -p "$work"
    [ -n "$corpus" ] && [ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
    echo "fuzz: $name (${SECS}s)"
    ASAN_OPTIONS=detect_leaks=1 "$B/bin/$name" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=0 "$work" >"$B/fuzz-work/$name.log" 2>&1 || {
        tail -40 "$B/fuzz-work/$name.log"; echo "fuzz: $name FAILED" >&2; exit 1; }
done < "$list"
echo "fuzz: all targets ran ${SECS}s without findings"
