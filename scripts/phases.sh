# Timed phases, sourced by scripts/test.sh and scripts/all.sh.
#   phases_start FILE     start a run's phase file (one line a phase:
#                         name, start, end, exit code; epoch seconds)
#   phase NAME CMD...     run CMD as phase NAME, append its line
#   phases_profile        print the time profile (scripts/test_times.py)
#                         and write $BUILD/<run>-times.json
phases_start() {
  phases_file=$1
  mkdir -p "$(dirname "$phases_file")"
  : >"$phases_file"
}
phase() {
  local name=$1 start rc
  shift
  start=$(date +%s.%N)
  "$@"
  rc=$?
  printf '%s\t%s\t%s\t%s\n' "$name" "$start" "$(date +%s.%N)" "$rc" >>"$phases_file"
  return $rc
}
# phases_profile JSON [test_times.py options...]
phases_profile() {
  local json=$1
  shift
  python3 scripts/test_times.py --phases "$phases_file" --json "$json" "$@" ||
    echo "no time profile (scripts/test_times.py failed)"
}
