#!/usr/bin/env bash
# pnpm release [OPTIONS of changeset publish]: builds every package, checks what would be published (publint,
# arethetypeswrong, an import of each packed tarball: check:packages), then runs `changeset publish`, which publishes
# each package whose version is not yet on the registry npm's own configuration names (NPM_CONFIG_REGISTRY, an
# .npmrc) and tags it in git. X_SERDE_RELEASE_CHECKED=1 skips the checks when they just ran (the CI stage).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export TURBO_TELEMETRY_DISABLED=1
if [[ "${X_SERDE_RELEASE_CHECKED:-}" == 1 ]]; then
  pnpm -s build --output-logs=errors-only
else
  pnpm -s check:packages
fi
echo "publishing to $(npm config get registry)"
exec pnpm exec changeset publish "$@"
