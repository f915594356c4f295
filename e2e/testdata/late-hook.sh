#!/bin/sh
# A deliberately broken hook for checking the suite itself: it hides the
# payload's tool_use_id, so context-budget reads the transcript at once
# instead of waiting for the call's record, and fires one call late when
# the record lags (design §3). Run:
#   CONTEXT_BUDGET_E2E_HOOK_WRAP=e2e/testdata/late-hook.sh go test -count=1 ./e2e
# and TestNoticeNotLate must fail with LATE notices.
bin=$1
shift
sed 's/"tool_use_id":"[^"]*"/"hidden_tool_use_id":""/' | "$bin" "$@"
