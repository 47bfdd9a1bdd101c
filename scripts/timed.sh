#!/usr/bin/env bash
# Runs a command and prints how long it took, wall and CPU (user + system of every process it waited for),
# whatever its exit status: `scripts/timed.sh LABEL COMMAND [ARGS...]`. npm test and .ci/run end with this line.
label=$1; shift
start=$(date +%s.%N)
"$@"; rc=$?
wall=$(echo "$(date +%s.%N) - $start" | bc)
# `times` prints two lines: this shell's user/system time, then its children's (the command's whole process tree).
tf=$(mktemp); times >"$tf"  # not in a pipe: a subshell would report its own (empty) children
cpu=$(tail -1 "$tf" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1]*60 + u[2] + s[1]*60 + s[2] }')
rm -f "$tf"
printf '%s: %d min %02d s wall, %d min %02d s CPU (exit %d)\n' "$label" "$(( ${wall%.*} / 60 ))" "$(( ${wall%.*} % 60 ))" "$(( cpu / 60 ))" "$(( cpu % 60 ))" "$rc" >&2
exit "$rc"
