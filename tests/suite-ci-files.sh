#!/usr/bin/env bash
# suite-ci-files.sh: the CI files that cannot run here still parse and say
# what they must.  The macOS workflow (.github/workflows/macos.yml,
# unverified: no Mac here) and the example workflow (docs/ci/) are YAML
# (python3-yaml); the macOS workflow builds, runs the portable tests, the
# self-test and the sandbox-exec probes; the probe script parses every
# `; decide:` line of tests/sbpl/ok/ (its --list mode runs anywhere).
# Exit 0 pass, 77 skip, 1 fail.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
PY=/usr/bin/python3
"$PY" -c 'import yaml' 2> /dev/null || { echo "SKIP: python3-yaml missing (scripts/deps.sh installs it)"; exit 77; }
npass=0 nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
for f in "$root"/.github/workflows/*.yml "$root"/docs/ci/*.yml; do
	rel=${f#"$root"/}
	if why=$("$PY" -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert isinstance(d.get("jobs"), dict) and d["jobs"], "no jobs"' "$f" 2>&1); then
		pass "$rel parses as YAML and has jobs"
	else
		fail "$rel: ${why:0:300}"
	fi
done
wf=$root/.github/workflows/macos.yml
if why=$("$PY" - "$wf" <<'PY' 2>&1
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
job = d["jobs"]["macos"]
assert job["runs-on"].startswith("macos"), job["runs-on"]
runs = "\n".join(s.get("run", "") for s in job["steps"])
for need in ("gmake -j3 all", "gmake check-portable", "omp-sandboxed\" --self-test",
             "tests/macos/sbpl-probes.sh"):
    assert need in runs, "no step runs " + need
PY
); then
	pass "macos.yml runs on macOS: build, portable tests, --self-test, sandbox-exec probes"
else
	fail "macos.yml: ${why:0:300}"
fi
grep -q UNVERIFIED "$wf" && pass "macos.yml says it is unverified" || fail "macos.yml does not say it is unverified"
bash -n "$root/tests/macos/sbpl-probes.sh" && pass "sbpl-probes.sh is valid bash" || fail "sbpl-probes.sh: bash -n"
want=$(cat "$root"/tests/sbpl/ok/*.sb | grep -c '^; decide:')
got=$(bash "$root/tests/macos/sbpl-probes.sh" --list | grep -c '|')
bad=$(bash "$root/tests/macos/sbpl-probes.sh" --list | awk -F'|' '$2 == "" || $3 !~ /^\// || $5 !~ /^(allow|deny|unknown)$/' | head -3)
[ "$want" -gt 0 ] && [ "$got" = "$want" ] && [ -z "$bad" ] &&
	pass "the probe script reads all $want probes of tests/sbpl/ok (op, absolute path, answer)" ||
	fail "probe script: $got of $want probes; malformed: $bad"
echo "ci-files: $npass passed, $nfail failed"
[ $nfail = 0 ]
