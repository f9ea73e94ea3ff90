#!/usr/bin/env bash
# The checks that docs/evidence_notes.csv quotes run (issue 39), and the grid-bias check can fail: every
# backticked `sparsesvm ...` or `scripts/...` command of an explanation exits 0 (scripts/evidence.py
# --run-commands), and scripts/grid_bias.py calls [PSI] Table 2's old 7-value C grid too coarse.
# Usage: evidence_commands_test.sh PATH/TO/sparsesvm REPO_ROOT
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
/usr/bin/python3 scripts/evidence.py --run-commands "$bin" >"$tmp/commands.log" 2>&1 ||
  fail "a command quoted in docs/evidence_notes.csv failed: $(grep -A3 FAILED "$tmp/commands.log" | head -8)"
grep -q "commands quoted in evidence_notes.csv ran" "$tmp/commands.log" || fail "no command ran: $(tail -3 "$tmp/commands.log")"
SPARSESVM=$bin /usr/bin/python3 scripts/grid_bias.py configs/liu2006/simulation.yaml C 'methods=[OneNormSVM-C, SVM-C]' \
  protocol.outer.repetitions=100 'grid.C=[0.001, 0.01, 0.1, 1, 10, 100, 1000]' >"$tmp/coarse.log" 2>&1
status=$?
((status == 1)) || fail "grid_bias.py exited $status on the 7-value grid, not 1 (too coarse): $(tail -4 "$tmp/coarse.log")"
grep -q "too coarse" "$tmp/coarse.log" || fail "grid_bias.py names no cell too coarse on the 7-value grid"
((failures == 0)) && echo "evidence_commands_test: the notes' commands run; the 7-value grid is too coarse"
exit $((failures > 0))
