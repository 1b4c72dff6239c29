#!/usr/bin/env bash
# registry-stage.sh: the packages as users get them, from a real npm registry.
#
# 1. Verdaccio (from the npm registry, installed once into the cache dir, outside the workspace) is started on
#    127.0.0.1 at a free port with a config in a temp dir that lets anyone publish @x/*; it is always stopped.
# 2. `pnpm release` publishes every package of packages/* to it (NPM_CONFIG_REGISTRY, a token in a temp npmrc).
# 3. Applications in temp dirs, outside the workspace, install the packages from it with npm, pnpm and yarn on
#    Node 20, and with npm on 22 and 24, and run: the registry client alone (no format or Kafka library in its tree;
#    size and dependency count printed), the quickstart on @x/serde (with @x/registry-testing as a dev dependency),
#    a production install of @x/serde (no test double, no rules engine, no peer warning with npm, pnpm or yarn;
#    `@x/serde/testing` and rules fail naming what to install), @x/serde with @x/rules running rules (npm, pnpm and
#    yarn), @x/wire-format framing JSON, @x/kafka with KafkaJS; a TypeScript app compiles with moduleResolution
#    node16 and bundler; a CommonJS app require()s them on 20, 22 and 24; an esbuild bundle of the quickstart runs.
#    These run side by side, three at a time. @x/cli alone installs under 10 MB and its command runs as the docs
#    say (`npx @x/cli`). The install-size table (docs/install-size.md) is written from what the npm installs on
#    Node 20 measured (scripts/release/install-size.mjs). Then every program of the README files and the site's
#    pages runs as printed, in clean apps that install it from this registry, on Node 20, 22 and 24
#    (scripts/docs/run-blocks.mjs).
# 4. A second release, in a copy of the workspace: a changeset to one package bumps it and its dependents only;
#    they are published and an install of @x/serde resolves the new version.
# Every check prints `ok` or `FAIL` with its time; the last line is `N passed, N failed`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
apps="${root}/scripts/release/apps"
cache="${X_SERDE_CACHE:-${XDG_CACHE_HOME:-${HOME}/.cache}/x-serde}"
VERDACCIO_VERSION=6.8.0
YARN_VERSION=1.22.22
TYPESCRIPT_VERSION=5.9.3
ESBUILD_VERSION=0.28.2
KAFKAJS_VERSION=2.2.4
# What the registry client's tree must not hold: the format libraries and the Kafka clients.
FORBIDDEN=(avsc ajv ajv-formats protobufjs kafkajs @confluentinc/kafka-javascript @platformatic/kafka node-rdkafka)
# What a production install of @x/serde must not hold: the test double and what it needs, the rules engine and its
# CEL and JSONata engines (optional peers, installed by those who use them).
PRODUCTION_FORBIDDEN=(@x/registry-testing @x/rules @x/compatibility @marcbachmann/cel-js jsonata)

work="$(mktemp -d "${TMPDIR:-/tmp}/x-serde-registry.XXXXXX")"
# The measurements of the install-size table, one tree.mjs --json file per row.
sizes="${work}/sizes"
mkdir -p "${sizes}"
verdaccio_pid=""
cleanup() {
  if [[ -n "${verdaccio_pid}" ]]; then
    kill "${verdaccio_pid}" 2>/dev/null || true
    wait "${verdaccio_pid}" 2>/dev/null || true
  fi
  rm -rf "${work}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
# report NAME STATUS SECONDS LOG: prints one check's result with the end of its output; counts it.
report() {
  local name=$1 status=$2 took=$3 log=$4
  if [[ "${status}" -eq 0 ]]; then
    passed=$((passed + 1))
    sed 's/^/    /' "${log}" | grep -v '^    $' | tail -n 3
    echo "ok   ${name} (${took}s)"
  else
    failed=$((failed + 1))
    sed 's/^/    /' "${log}" | tail -n 25
    echo "FAIL ${name} (${took}s)"
  fi
}

# check NAME COMMAND...: runs one check with its output indented; counts it.
check() {
  local name=$1
  shift
  local started=$SECONDS status=0
  "$@" > "${work}/check.log" 2>&1 || status=$?
  report "${name}" "${status}" "$((SECONDS - started))" "${work}/check.log"
}

# Checks that install into apps of their own wait mostly on the registries, so they run side by side:
# check_in_batch NAME COMMAND... starts one (at most BATCH_LIMIT at a time), each with a log of its own, and
# end_batch waits for all of them and reports them in the order they were started.
BATCH_LIMIT=3
batch_names=()
batch_pids=()
running_in_batch() {
  local pid count=0
  for pid in "${batch_pids[@]}"; do
    if kill -0 "${pid}" 2>/dev/null; then count=$((count + 1)); fi
  done
  echo "${count}"
}
check_in_batch() {
  local name=$1
  shift
  while [[ "$(running_in_batch)" -ge "${BATCH_LIMIT}" ]]; do
    sleep 0.2
  done
  local n=${#batch_names[@]}
  (
    started=$SECONDS
    status=0
    "$@" > "${work}/batch-${n}.log" 2>&1 || status=$?
    echo "${status} $((SECONDS - started))" > "${work}/batch-${n}.result"
  ) &
  batch_pids+=("$!")
  batch_names+=("${name}")
}
end_batch() {
  local n status took
  for n in "${!batch_pids[@]}"; do
    wait "${batch_pids[${n}]}" || true
    read -r status took < "${work}/batch-${n}.result" || { status=1 took=0; }
    report "${batch_names[${n}]}" "${status}" "${took}" "${work}/batch-${n}.log"
    rm -f "${work}/batch-${n}.log" "${work}/batch-${n}.result"
  done
  batch_names=()
  batch_pids=()
}

# --- Verdaccio ------------------------------------------------------------------------------------------------
verdaccio_dir="${cache}/verdaccio-${VERDACCIO_VERSION}"
if [[ ! -x "${verdaccio_dir}/node_modules/.bin/verdaccio" ]]; then
  echo "installing Verdaccio ${VERDACCIO_VERSION} into ${verdaccio_dir}" >&2
  rm -rf "${verdaccio_dir}.partial"
  mkdir -p "${verdaccio_dir}.partial"
  # 6.8.0 runs on Node 20 once node-fetch is held at 2.7.0 (newer Verdaccio lines want Node 22).
  cat > "${verdaccio_dir}.partial/package.json" <<EOF
{ "private": true, "dependencies": { "verdaccio": "${VERDACCIO_VERSION}" }, "overrides": { "node-fetch": "2.7.0" } }
EOF
  (cd "${verdaccio_dir}.partial" && npm install --no-audit --no-fund --loglevel=error >&2)
  rm -rf "${verdaccio_dir}"
  mv "${verdaccio_dir}.partial" "${verdaccio_dir}"
fi

port="$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
registry="http://127.0.0.1:${port}/"
mkdir -p "${work}/verdaccio"
cat > "${work}/verdaccio/config.yaml" <<EOF
storage: ${work}/verdaccio/storage
auth:
  htpasswd:
    file: ${work}/verdaccio/htpasswd
    max_users: 10
uplinks: {}
packages:
  '@x/*':
    access: \$all
    publish: \$all
    unpublish: \$all
log: { type: stdout, format: pretty, level: error }
EOF
node "${verdaccio_dir}/node_modules/verdaccio/bin/verdaccio" --config "${work}/verdaccio/config.yaml" \
  --listen "127.0.0.1:${port}" > "${work}/verdaccio/log" 2>&1 &
verdaccio_pid=$!
for _ in $(seq 1 150); do
  curl -fs "${registry}-/ping" > /dev/null 2>&1 && break
  kill -0 "${verdaccio_pid}" 2>/dev/null || { cat "${work}/verdaccio/log" >&2; exit 1; }
  sleep 0.2
done
curl -fs "${registry}-/ping" > /dev/null || { echo "Verdaccio did not answer on ${registry}" >&2; exit 1; }
echo "Verdaccio ${VERDACCIO_VERSION} on ${registry} (Node $(node --version))"

# A user of its own, whose token goes into a temp npmrc only (never printed).
token="$(curl -fs -X PUT -H 'content-type: application/json' \
  -d '{"name":"ci","password":"ci-publish-only"}' "${registry}-/user/org.couchdb.user:ci" |
  node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.stdout.write(JSON.parse(s).token))")"
printf 'registry=%s\n//127.0.0.1:%s/:_authToken=%s\n' "${registry}" "${port}" "${token}" > "${work}/npmrc"
unset token

# The packages of packages/*, published or not, as `name version private dir` lines.
node -e "
const fs = require('node:fs'), path = require('node:path')
for (const dir of fs.readdirSync('${root}/packages').sort()) {
  const file = path.join('${root}/packages', dir, 'package.json')
  if (!fs.existsSync(file)) continue
  const m = JSON.parse(fs.readFileSync(file, 'utf8'))
  console.log(m.name, m.version, m.private ? 'private' : 'public', dir)
}" > "${work}/packages.txt"

# --- the first release --------------------------------------------------------------------------------------
publish_all() {
  # The package checks ran as a stage of their own (check:packages): here the release builds and publishes only.
  (cd "${root}" && X_SERDE_RELEASE_CHECKED=1 NPM_CONFIG_USERCONFIG="${work}/npmrc" NPM_CONFIG_REGISTRY="${registry}" \
    pnpm -s release --no-git-tag)
  local missing=0 name version visibility
  while read -r name version visibility _; do
    [[ "${visibility}" == public ]] || continue
    local got
    got="$(npm view "${name}@${version}" version --registry "${registry}" 2>/dev/null || true)"
    if [[ "${got}" != "${version}" ]]; then
      echo "${name}@${version} is not on the registry"
      missing=$((missing + 1))
    fi
  done < "${work}/packages.txt"
  echo "$(grep -c ' public ' "${work}/packages.txt") packages on ${registry}"
  return "${missing}"
}
check "pnpm release publishes every package of packages/*" publish_all

version_of() { awk -v n="$1" '$1 == n { print $2 }' "${work}/packages.txt"; }

# --- applications outside the workspace ---------------------------------------------------------------------
# app DIR DEPENDENCIES_JSON [DEV_DEPENDENCIES_JSON]: a fresh application that takes @x/* from Verdaccio and the rest
# from npm's registry.
app() {
  local dir="${work}/apps/$1" dev='{}'
  [[ $# -ge 3 ]] && dev=$3
  rm -rf "${dir}"
  mkdir -p "${dir}"
  printf '{ "name": "app-%s", "private": true, "type": "module", "dependencies": %s, "devDependencies": %s }\n' \
    "$1" "$2" "${dev}" > "${dir}/package.json"
  printf '@x:registry=%s\n' "${registry}" > "${dir}/.npmrc"
  printf '"@x:registry" "%s"\n' "${registry}" > "${dir}/.yarnrc"
  echo "${dir}"
}

yarn_bin="${cache}/yarn-${YARN_VERSION}/node_modules/.bin/yarn"
if [[ ! -x "${yarn_bin}" ]]; then
  npm install --prefix "${cache}/yarn-${YARN_VERSION}" --no-save --no-audit --no-fund --loglevel=error \
    "yarn@${YARN_VERSION}" >&2
fi

# install CLIENT NODE_LINE DIR: installs DIR's dependencies with npm, pnpm or yarn on that Node line.
install() {
  local client=$1 line=$2 dir=$3
  local quiet=(env -u NPM_CONFIG_REGISTRY -u npm_config_registry)
  case "${client}" in
    npm) (cd "${dir}" && "${quiet[@]}" "${root}/scripts/with-node.sh" "${line}" npm install --no-audit --no-fund \
      --loglevel=error --cache "${cache}/registry-stage/npm") ;;
    pnpm) (cd "${dir}" && "${quiet[@]}" "${root}/scripts/with-node.sh" "${line}" pnpm install --reporter=silent \
      --store-dir "${work}/pnpm-store" --config.strict-peer-dependencies=false) ;;
    yarn) (cd "${dir}" && "${quiet[@]}" "${root}/scripts/with-node.sh" "${line}" "${yarn_bin}" install --silent \
      --non-interactive --no-progress --cache-folder "${work}/yarn-cache") ;;
  esac
}

# install_production CLIENT DIR: installs DIR's dependencies without its dev dependencies (npm --omit=dev, pnpm
# --prod, yarn --production) on Node 20, with the client's warnings shown; fails when any of them is about a peer.
install_production() {
  local client=$1 dir=$2 log
  local quiet=(env -u NPM_CONFIG_REGISTRY -u npm_config_registry)
  log="${dir}/install.log"
  case "${client}" in
    npm) (cd "${dir}" && "${quiet[@]}" "${root}/scripts/with-node.sh" 20 npm install --omit=dev --no-audit --no-fund \
      --loglevel=warn --cache "${cache}/registry-stage/npm") ;;
    pnpm) (cd "${dir}" && "${quiet[@]}" "${root}/scripts/with-node.sh" 20 pnpm install --prod --reporter=append-only \
      --store-dir "${work}/pnpm-store") ;;
    yarn) (cd "${dir}" && "${quiet[@]}" "${root}/scripts/with-node.sh" 20 "${yarn_bin}" install --production \
      --non-interactive --no-progress --cache-folder "${work}/yarn-cache") ;;
  esac > "${log}" 2>&1 || { cat "${log}"; return 1; }
  if grep -i 'peer' "${log}"; then
    echo "${client} warned about a peer dependency (above)"
    return 1
  fi
  echo "${client}: no peer warning"
}

serde_version="$(version_of @x/serde)"
testing_version="$(version_of @x/registry-testing)"
rules_version="$(version_of @x/rules)"
registry_client_version="$(version_of @x/registry-client)"
wire_version="$(version_of @x/wire-format)"
kafka_version="$(version_of @x/kafka)"

# (a) the registry client alone: no format library, no Kafka client; its footprint.
registry_client_alone() {
  local dir measure=()
  [[ "$1" == npm ]] && measure=(--json "${sizes}/registry-client.json")
  dir="$(app "registry-client-$1" "{ \"@x/registry-client\": \"${registry_client_version}\" }")"
  install "$1" 20 "${dir}" &&
    cp "${apps}/registry-only.mjs" "${apps}/tree.mjs" "${dir}/" &&
    (cd "${dir}" && printf 'footprint with %s: ' "$1" && node tree.mjs "${measure[@]}" "${FORBIDDEN[@]}" &&
      node registry-only.mjs)
}
for client in npm pnpm yarn; do
  check_in_batch "${client} on Node 20: @x/registry-client alone, no avsc/ajv/protobufjs/Kafka client in its tree" \
    registry_client_alone "${client}"
done

# (b) @x/serde whole, with @x/registry-testing as a dev dependency (as the README installs it for the testing
#     subpath): the quickstart against InMemoryRegistry. yarn 1 installs no peer dependency, so there the dev
#     dependencies also name @x/registry-testing's peer @x/rules, as the README says.
quickstart() {
  local dir dev="\"@x/registry-testing\": \"${testing_version}\"" measure=()
  [[ "$1" == yarn ]] && dev+=", \"@x/rules\": \"${rules_version}\""
  [[ "$1" == npm && "$2" == 20 ]] && measure=(--json "${sizes}/serde-testing.json")
  dir="$(app "serde-$1-$2" "{ \"@x/serde\": \"${serde_version}\" }" "{ ${dev} }")"
  install "$1" "$2" "${dir}" &&
    cp "${apps}/quickstart.mjs" "${apps}/tree.mjs" "${dir}/" &&
    (cd "${dir}" && printf 'footprint with dev dependencies: ' && node tree.mjs "${measure[@]}" &&
      "${root}/scripts/with-node.sh" "$2" node quickstart.mjs)
}
for client in npm pnpm yarn; do
  check_in_batch "${client} on Node 20: @x/serde, the quickstart against InMemoryRegistry" quickstart "${client}" 20
done
for line in 22 24; do
  check_in_batch "npm on Node ${line}: @x/serde, the quickstart against InMemoryRegistry" quickstart npm "${line}"
done

# (b') @x/serde as a production install gets it, in a clean application (`npm install --omit=dev @x/serde`): no
#      test double, no rules engine, no peer warning; @x/serde/testing and a deserializer with rules enabled fail
#      naming what to install.
production() {
  local dir measure=()
  [[ "$1" == npm ]] && measure=(--json "${sizes}/serde-production.json")
  dir="$(app "serde-production-$1" "{ \"@x/serde\": \"${serde_version}\" }")"
  install_production "$1" "${dir}" &&
    cp "${apps}/without-optional.mjs" "${apps}/tree.mjs" "${dir}/" &&
    (cd "${dir}" && printf 'footprint: ' && node tree.mjs "${measure[@]}" "${PRODUCTION_FORBIDDEN[@]}" &&
      node without-optional.mjs)
}
for client in npm pnpm yarn; do
  check_in_batch "${client} on Node 20: a production install of @x/serde holds no test double or rules engine, warns of no peer; testing and rules fail naming their install" \
    production "${client}"
done

# (b'') @x/serde with `npm install @x/rules` beside it (and @x/registry-testing as a dev dependency), as the README
#       says to turn rules on: serdes with rules enabled find the engine from @x/serde-core, with npm's hoisted,
#       pnpm's isolated and yarn's layouts, and run a CEL and a JSONata rule.
with_rules() {
  local dir
  dir="$(app "serde-rules-$1" "{ \"@x/serde\": \"${serde_version}\", \"@x/rules\": \"${rules_version}\" }" \
    "{ \"@x/registry-testing\": \"${testing_version}\" }")"
  install "$1" 20 "${dir}" &&
    cp "${apps}/with-rules.mjs" "${dir}/" &&
    (cd "${dir}" && node with-rules.mjs)
}
for client in npm pnpm yarn; do
  check_in_batch "${client} on Node 20: @x/serde with @x/rules installed runs data-contract rules (CEL, JSONata)" \
    with_rules "${client}"
done

# (c) @x/wire-format alone, framing JSON.
wire_format_alone() {
  local dir
  dir="$(app wire-format "{ \"@x/wire-format\": \"${wire_version}\" }")"
  install npm 20 "${dir}" &&
    cp "${apps}/frame-json.mjs" "${apps}/tree.mjs" "${dir}/" &&
    (cd "${dir}" && printf 'footprint: ' && node tree.mjs --json "${sizes}/wire-format.json" "${FORBIDDEN[@]}" &&
      node frame-json.mjs)
}
check_in_batch "npm on Node 20: @x/wire-format alone frames a JSON payload" wire_format_alone

# (c') @x/cli alone, as a dev dependency: under 10 MB installed (json-schema-to-typescript, with the formatter it
#      carries, is an optional peer); `npx @x/cli` runs its command, `inspect` shows a frame with no registry, and a
#      JSON Schema codegen without that peer exits 2 naming its install.
cli_alone() {
  local dir
  dir="$(app cli "{}" "{ \"@x/cli\": \"$(version_of @x/cli)\" }")"
  install npm 20 "${dir}" &&
    cp "${apps}/tree.mjs" "${apps}/cli.sh" "${dir}/" &&
    (cd "${dir}" && printf 'footprint: ' && node tree.mjs --json "${sizes}/cli.json" --max-bytes 10000000 &&
      "${root}/scripts/with-node.sh" 20 sh cli.sh)
}
check_in_batch "npm on Node 20: @x/cli alone installs under 10 MB; npx @x/cli runs, inspect needs no registry" cli_alone

# (d) @x/kafka with KafkaJS (and the members it is used with), plus the typed, CommonJS and bundled apps, which
#     use the same application once it is installed.
typed_dir="${work}/apps/kafka"
kafka_app() {
  local dir
  dir="$(app kafka "{ \"@x/kafka\": \"${kafka_version}\", \"@x/serde\": \"${serde_version}\",
    \"@x/avro-serde\": \"$(version_of @x/avro-serde)\", \"@x/registry-client\": \"${registry_client_version}\",
    \"@x/registry-testing\": \"$(version_of @x/registry-testing)\", \"@x/wire-format\": \"${wire_version}\",
    \"kafkajs\": \"${KAFKAJS_VERSION}\", \"typescript\": \"${TYPESCRIPT_VERSION}\", \"esbuild\": \"${ESBUILD_VERSION}\",
    \"@types/node\": \"^20.19.0\" }")"
  install npm 20 "${dir}" &&
    cp "${apps}/kafka.mjs" "${apps}/quickstart.mjs" "${apps}/require-all.cjs" "${apps}/typed.mts" "${dir}/" &&
    touch "${dir}/.installed" &&
    (cd "${dir}" && node kafka.mjs)
}
check_in_batch "npm on Node 20: @x/kafka with KafkaJS encodes and decodes a message" kafka_app

# (d') @x/lambda: an MSK event decoded by kafkaConsumer from a schema snapshot, offline, with no registry request.
lambda_app() {
  local dir
  dir="$(app lambda "{ \"@x/lambda\": \"$(version_of @x/lambda)\", \"@x/avro-serde\": \"$(version_of @x/avro-serde)\",
    \"@x/registry-client\": \"${registry_client_version}\",
    \"@x/registry-testing\": \"$(version_of @x/registry-testing)\" }")"
  install npm 20 "${dir}" &&
    cp "${apps}/lambda.mjs" "${dir}/" &&
    (cd "${dir}" && node lambda.mjs)
}
check_in_batch "npm on Node 20: @x/lambda decodes an MSK event from a schema snapshot with no request" lambda_app
end_batch

# The install-size table, from what the npm installs above measured.
install_size_table() {
  node "${root}/scripts/release/install-size.mjs" write "${sizes}"
}
check "the install-size table (docs/install-size.md, README.md) written from the installs measured" install_size_table

typescript() {
  [[ -f "${typed_dir}/.installed" ]] || return 1
  local options=(--noEmit --strict --skipLibCheck false --target es2022 --types node)
  case "$1" in
    node16) options+=(--module node16 --moduleResolution node16) ;;
    bundler) options+=(--module esnext --moduleResolution bundler) ;;
  esac
  (cd "${typed_dir}" && node node_modules/typescript/bin/tsc "${options[@]}" typed.mts && echo "tsc $1: no errors")
}
check_in_batch "TypeScript (moduleResolution node16) compiles against every package" typescript node16
check_in_batch "TypeScript (moduleResolution bundler) compiles against every package" typescript bundler

require_all() {
  [[ -f "${typed_dir}/.installed" ]] || return 1
  (cd "${typed_dir}" && "${root}/scripts/with-node.sh" "$1" node --disable-warning=ExperimentalWarning require-all.cjs)
}
for line in 20 22 24; do
  check_in_batch "a CommonJS app require()s them on Node ${line}" require_all "${line}"
done

bundle() {
  [[ -f "${typed_dir}/.installed" ]] || return 1
  # avsc and kafkajs are CommonJS and require() Node's modules: an ESM bundle needs a require of its own.
  (cd "${typed_dir}" && node_modules/.bin/esbuild quickstart.mjs --bundle --platform=node \
    --format=esm --outfile=bundle.mjs --log-level=warning \
    --banner:js="import { createRequire as bannerRequire } from 'node:module'; const require = bannerRequire(import.meta.url);" &&
    echo "bundle: $(wc -c < bundle.mjs) bytes" && mkdir -p alone && mv bundle.mjs alone/ && node alone/bundle.mjs)
}
check_in_batch "an esbuild bundle of the quickstart runs without node_modules beside it" bundle
end_batch

# (e) the documentation as a reader runs it: every block marked `run` of every README and site page, and every
#     tested snippet a page includes, in a clean app of its own per page (its install lines run as printed, @x/*
#     from this registry), on Node 20, 22 and 24; each program without REGISTRY_URL and with it
#     (scripts/docs/run-blocks.mjs).
docs_as_printed() {
  node "${root}/scripts/docs/run-blocks.mjs" "${root}" "${work}/docs-$1" "${registry}" "$1" \
    "${cache}/registry-stage/npm"
}
for line in 20 22 24; do
  check_in_batch "the documentation's programs run as printed on Node ${line}, installed from the registry" \
    docs_as_printed "${line}"
done
end_batch

# --- the second release ---------------------------------------------------------------------------------------
second_release() {
  node "${root}/scripts/release/second-release.mjs" "${root}" "${work}/second" "${registry}" "${work}/npmrc"
}
check "a second release bumps one package and its dependents only, published and resolved" second_release

echo "${passed} passed, ${failed} failed"
[[ "${failed}" -eq 0 ]]
