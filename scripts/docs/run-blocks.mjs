// run-blocks.mjs ROOT WORK REGISTRY LINE NPM_CACHE: runs the documentation as a reader would, on Node LINE (20, 22 or 24).
//
// Every file of blocks.mjs that has a block marked `run` (or, for a site page, a `<<<` include of a tested snippet
// of docs/site/snippets) becomes a clean app in WORK: a package.json as `npm init` leaves it and an .npmrc that
// takes @x/* from REGISTRY (the release stage's Verdaccio), nothing installed. Its steps then run in page order:
// `sh` blocks as the commands they are (the install lines), programs as the page says to run them: a `js` block as
// an .mjs file under `node`; a `ts` block type-checked strictly and compiled with the app's own `tsc`, then run; an
// included snippet copied as it is (an .mjs run with node; an .mts compiled with the tsconfig.json the page includes
// before it, then run). Each program runs twice: with no REGISTRY_URL (the programs then start an in-memory
// registry) and with REGISTRY_URL set to a registry that this script serves on 127.0.0.1, as a reader's own.
// A badly marked block fails the run before anything else.
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { collect, includesOf } from './blocks.mjs'

const [root, work, registry, line, cache] = process.argv.slice(2)
if (!root || !work || !registry || !['20', '22', '24'].includes(line ?? '') || !cache) {
  console.error('usage: node scripts/docs/run-blocks.mjs ROOT WORK REGISTRY 20|22|24 NPM_CACHE')
  process.exit(2)
}
const withNode = join(root, 'scripts', 'with-node.sh')
const siteRoot = join(root, 'docs', 'site')

const { files, problems } = collect(root)
if (problems.length > 0) {
  console.log(problems.join('\n'))
  console.log(`${problems.length} badly marked blocks`)
  process.exit(1)
}

// The reader's own registry, for the runs with REGISTRY_URL: an InMemoryRegistry in a process of its own (the steps
// below run synchronously, so this process could not answer them).
const theirs = spawn(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `const { InMemoryRegistry } = await import(${JSON.stringify(pathToFileURL(join(root, 'packages', 'registry-testing', 'dist', 'index.js')).href)})
     const registry = await InMemoryRegistry.start()
     console.log(registry.url)`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
)
const theirUrl = await new Promise((resolve, reject) => {
  theirs.stdout.once('data', (data) => resolve(String(data).trim()))
  theirs.once('exit', (code) =>
    reject(new Error(`the registry for REGISTRY_URL exited (${code}) before it answered`)),
  )
})

const env = {
  ...process.env,
  npm_config_cache: cache,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_loglevel: 'error',
}
for (const name of ['NPM_CONFIG_REGISTRY', 'npm_config_registry', 'REGISTRY_URL', 'NODE_OPTIONS'])
  delete env[name]

let passed = 0
let failed = 0
// step NAME CWD COMMAND: runs one command on Node LINE in the app; prints its result and the end of its output.
function step(name, cwd, command, extraEnv = {}) {
  const started = Date.now()
  const result = spawnSync(withNode, [line, 'bash', '-euo', 'pipefail', '-c', command], {
    cwd,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'], // no stdin: nothing waits on a prompt
    timeout: 180_000,
  })
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('with-node.sh:'))
  const took = ((Date.now() - started) / 1000).toFixed(1)
  if (result.status === 0) {
    passed++
    for (const l of output.slice(-2)) console.log(`      ${l}`)
    console.log(`  ok   ${name} (${took}s)`)
    return true
  }
  failed++
  for (const l of output.slice(-25)) console.log(`      ${l}`)
  console.log(`  FAIL ${name} (${took}s, ${result.error ? result.error.message : `exit ${result.status}`})`)
  return false
}

const shellQuote = (s) => `'${s.replaceAll("'", "'\\''")}'`
// A program runs without REGISTRY_URL, then with it.
function program(name, dir, command) {
  return (
    step(`${name}, no REGISTRY_URL`, dir, command) &&
    step(`${name}, REGISTRY_URL=<a registry>`, dir, command, { REGISTRY_URL: theirUrl })
  )
}

for (const { file, blocks } of files) {
  const text = readFileSync(join(root, file), 'utf8')
  const page = file.startsWith(join('docs', 'site'))
  // Snippet includes in page order, merged with the run blocks by their line.
  const includes = page
    ? text.split('\n').flatMap((l, i) => {
        const [path] = includesOf(l)
        return path?.startsWith('snippets/') ? [{ line: i + 1, include: path }] : []
      })
    : []
  const steps = [...blocks.filter((b) => b.kind), ...includes].sort((a, b) => a.line - b.line)
  if (steps.length === 0) continue
  const dir = join(work, 'docs', `${line}-${file.replaceAll('/', '-').replace(/\.md$/, '')}`)
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'reader-app', version: '1.0.0', private: true }, null, 2)}\n`,
  )
  writeFileSync(join(dir, '.npmrc'), `@x:registry=${registry}\n`)
  console.log(`${file} on Node ${line} (${steps.length} steps, in ${dir})`)
  for (const s of steps) {
    const where = `${file}:${s.line}`
    let ok = true
    if (s.include) {
      const source = join(siteRoot, s.include)
      const target = join(dir, basename(source))
      copyFileSync(source, target)
      if (source.endsWith('.mjs'))
        ok = program(`${where} ${s.include}`, dir, `node ${shellQuote(basename(source))}`)
      else if (source.endsWith('.mts')) {
        const out = basename(source).replace(/\.mts$/, '.mjs')
        ok = program(`${where} ${s.include}`, dir, `npx tsc -p tsconfig.json && node ${shellQuote(out)}`)
      }
    } else if (s.kind === 'sh') {
      ok = step(`${where} (sh)`, dir, s.code)
    } else if (s.kind === 'js') {
      const name = `block-${s.line}.mjs`
      writeFileSync(join(dir, name), s.code)
      ok = program(`${where} (js)`, dir, `node ${name}`)
    } else if (s.kind === 'ts') {
      const name = `block-${s.line}.mts`
      writeFileSync(join(dir, name), s.code)
      ok = program(
        `${where} (ts)`,
        dir,
        `npx tsc --strict --target es2022 --module nodenext --moduleResolution nodenext --types node ${name} && node block-${s.line}.mjs`,
      )
    }
    if (!ok) break // later steps of the same page build on this one
  }
}
theirs.kill()
console.log(`docs on Node ${line}: ${passed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
