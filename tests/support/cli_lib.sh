# tests/support/cli_lib.sh: a tiny TAP helper for the shell-driven CLI tests.
# Usage: source it, then: ok <cond-exit-status> "description"; finish.
GPUSIM=${1:?usage: $0 path/to/gpusim}
T_N=0
T_FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ok() { # ok <status> <description>
  T_N=$((T_N + 1))
  if [ "$1" -eq 0 ]; then echo "ok $T_N - $2"; else echo "not ok $T_N - $2"; T_FAIL=$((T_FAIL + 1)); fi
}
# expect_exit <code> <description> -- command...
expect_exit() {
  local want=$1 desc=$2; shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [ "$got" -eq "$want" ]; ok $? "$desc (exit $got, want $want)"
  if [ "$got" -ne "$want" ]; then sed 's/^/# /' "$TMP/err" | head -20; fi
}
# contains <file> <fixed-string> <description>
contains() {
  grep -qF -- "$2" "$1"; local s=$?
  ok $s "$3"
  if [ $s -ne 0 ]; then echo "# '$2' not found in:"; sed 's/^/#   /' "$1" | head -20; fi
}
# strip the host object (always last) for byte comparisons
nohost() { sed '/"host": {/,$d' "$1"; }
finish() { echo "1..$T_N"; [ "$T_FAIL" -eq 0 ]; }
