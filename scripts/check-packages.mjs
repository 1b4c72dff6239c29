#!/usr/bin/env node
// Packaging checks for every publishable package under packages/*, on what `pnpm pack` would publish:
//
//   1. `publint --strict` on the packed tarball (exports, files, types, module format);
//   2. `attw --profile node16` on the tarball (are the types right for TypeScript users under node16 resolution,
//      both ESM and CJS). The only problem accepted is CJSResolvesToESM: the packages are ESM-only, and
//      Node >= 20.19 lets CommonJS `require()` them;
//   3. a smoke test: the tarballs are unpacked into node_modules of a throwaway project outside the repository
//      (third-party dependencies linked from the workspace, only those each package declares), and every entry
//      point of its `exports` is loaded with plain `node`, once with `import()` and once with `require()`, checking
//      that a known export has the right type. Packages that are still empty shells (`export {}`) pass as long as
//      they load.
//
// Also refused: a `workspace:` protocol left in a packed package.json, test files or tsbuildinfo in a tarball; a
// placeholder in a link of the manifest (repository, homepage, bugs, …: true or absent), a tarball without its
// CHANGELOG.md or with one that keeps changesets' commit hashes or "Updated dependencies" lines, a package with more
// than one command, and a document that says `npx <command>` for a command of
// ours instead of `npx <its package>` (scripts/release/package-metadata.mjs); a README install-size table that is not
// the one the registry stage wrote (scripts/release/install-size.mjs).
// Prints one line per package and exits non-zero if any check failed. Run after `turbo run build` (the root
// script `pnpm check:packages` does both).
import { execFile } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { checkReadme } from './release/install-size.mjs'
import { changelogProblems, metadataProblems, npxProblems } from './release/package-metadata.mjs'

const run = promisify(execFile)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)
const started = performance.now()

/** The export that must be there (with its type) once a package is more than a shell, per entry point. */
const KNOWN_EXPORTS = {
  '@x/errors': { SerdeError: 'function', isSerdeError: 'function' },
  '@x/wire-format': { encodeFrame: 'function', decodeFrame: 'function', MessageField: 'object' },
  '@x/rules': { RulesEngine: 'function', mergeRuleSets: 'function' },
  '@x/registry-client': { RegistryClient: 'function' },
  '@x/registry-client/json': { parseExactJson: 'function', JsonSyntaxError: 'function' },
  '@x/registry-client/cache': { SingleFlightCache: 'function' },
  '@x/compatibility': { checkCompatibility: 'function' },
  '@x/registry-testing': { InMemoryRegistry: 'function' },
  '@x/idp-auth': { IdpAuth: 'function' },
  '@x/serde-core': {
    SchemaSerializer: 'function',
    SchemaDeserializer: 'function',
    TopicIdStrategy: 'function',
  },
  '@x/serde-core/internal': { shortAsciiString: 'function', findNodeProblems: 'function' },
  '@x/avro-serde': { AvroSerializer: 'function', AvroDeserializer: 'function' },
  '@x/avro-serde/union-rule': { unwrapsUnion: 'function' },
  '@x/jsonschema-serde': { JsonSchemaSerializer: 'function', JsonSchemaDeserializer: 'function' },
  '@x/protobuf-serde': { ProtobufSerializer: 'function', ProtobufDeserializer: 'function' },
  '@x/message-contract': {
    AnyDeserializer: 'function',
    AnySerializer: 'function',
    schemaKindOfText: 'function',
  },
  '@x/kafka': { AnyDeserializer: 'function', KafkaJsSerde: 'function' },
  '@x/lambda': { kafkaConsumer: 'function', KafkaEventDecoder: 'function' },
  '@x/serde': { AvroSerializer: 'function', encodeFrame: 'function', SerdeError: 'function' },
  '@x/serde/json-schema': { JsonSchemaSerializer: 'function', JsonSchemaDeserializer: 'function' },
  '@x/serde/protobuf': { ProtobufSerializer: 'function', ProtobufDeserializer: 'function' },
  '@x/serde/kafka': { AnyDeserializer: 'function', AnySerializer: 'function' },
  '@x/cli': { run: 'function', avroToTypeScript: 'function' },
  '@x/serde/testing': { InMemoryRegistry: 'function' },
}

/** Runs `tasks` (functions returning promises) with at most `limit` at a time, keeping their order. */
async function pool(tasks, limit) {
  const results = new Array(tasks.length)
  let next = 0
  async function worker() {
    while (next < tasks.length) {
      const index = next++
      results[index] = await tasks[index]()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker))
  return results
}

/** Runs a command; resolves to { ok, stdout, stderr } instead of throwing on a non-zero exit. */
async function exec(file, args, options = {}) {
  try {
    const { stdout, stderr } = await run(file, args, {
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
      ...options,
    })
    return { ok: true, stdout, stderr }
  } catch (error) {
    return { ok: false, stdout: error.stdout ?? '', stderr: error.stderr ?? String(error.message) }
  }
}

const packageDirs = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .sort()
const manifests = packageDirs.map((dir) => ({
  dir,
  manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')),
}))
const work = mkdtempSync(join(tmpdir(), 'x-check-packages-'))
const parallel = Math.max(2, availableParallelism())

try {
  // 1. Pack (what would be published; pnpm rewrites workspace: ranges).
  const packs = await pool(
    manifests.map(({ dir, manifest }) => async () => {
      const failures = []
      if (manifest.private) return { manifest, skipped: true, failures }
      if (!existsSync(join(dir, 'dist'))) failures.push('no dist/: run `pnpm build` first')
      const dest = join(work, 'tarballs', manifest.name.replace('/', '+'))
      mkdirSync(dest, { recursive: true })
      const packed = await exec('pnpm', ['pack', '--pack-destination', dest], { cwd: dir })
      const tarball = readdirSync(dest).find((file) => file.endsWith('.tgz'))
      if (!packed.ok || tarball === undefined) {
        failures.push(`pnpm pack failed: ${packed.stderr.trim() || packed.stdout.trim()}`)
        return { manifest, failures }
      }
      return { manifest, tarball: join(dest, tarball), failures }
    }),
    parallel,
  )

  // 2. Unpack into the throwaway project; lint the tarballs meanwhile.
  const project = join(work, 'project')
  const modules = join(project, 'node_modules')
  mkdirSync(modules, { recursive: true })
  writeProjectManifest(project)
  const checked = await pool(
    packs.map((pack) => async () => {
      if (pack.skipped || pack.tarball === undefined) return pack
      const { manifest, tarball, failures } = pack
      const notes = []
      const target = join(modules, ...manifest.name.split('/'))
      mkdirSync(target, { recursive: true })
      const [untar, listing, publint, attw] = await Promise.all([
        exec('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']),
        exec('tar', ['-tzf', tarball]),
        exec(bin('publint'), ['run', tarball, '--strict']),
        exec(bin('attw'), [tarball, '--profile', 'node16', '--format', 'json']),
      ])
      if (!untar.ok) failures.push(`cannot unpack ${tarball}: ${untar.stderr.trim()}`)
      const files = listing.stdout.split('\n').filter(Boolean)
      const stray = files.filter((file) => /\.test\.|\.test-d\.|tsbuildinfo|\/src\//.test(file))
      if (stray.length > 0) failures.push(`tarball holds files that should not ship: ${stray.join(', ')}`)
      if (!files.includes('package/README.md')) notes.push('no README')
      if (untar.ok) {
        const packed = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8'))
        for (const problem of metadataProblems(packed, files)) failures.push(problem)
        if (existsSync(join(target, 'CHANGELOG.md')))
          for (const problem of changelogProblems(readFileSync(join(target, 'CHANGELOG.md'), 'utf8')))
            failures.push(problem)
      }

      if (!publint.ok || !/All good/.test(publint.stdout)) {
        failures.push(`publint --strict:\n${indent(`${publint.stdout}${publint.stderr}`.trim())}`)
      }
      const attwResult = readAttw(attw)
      if (attwResult.error) failures.push(attwResult.error)
      else if (attwResult.accepted) notes.push('CJSResolvesToESM accepted')
      return { ...pack, target, notes, failures }
    }),
    parallel,
  )

  // 3. Link the third-party dependencies each package declares (from its own workspace node_modules), then load
  //    every entry point with plain node.
  for (const pack of checked) {
    if (pack.skipped || pack.target === undefined) continue
    const packed = JSON.parse(readFileSync(join(pack.target, 'package.json'), 'utf8'))
    const declared = { ...packed.dependencies, ...packed.peerDependencies }
    for (const [name, range] of Object.entries(declared)) {
      if (String(range).startsWith('workspace:'))
        pack.failures.push(`packed package.json keeps ${name}@${range}`)
      if (name.startsWith('@x/')) continue
      const link = join(modules, ...name.split('/'))
      if (existsSync(link)) continue
      const source = join(packageDir(pack.manifest.name), 'node_modules', ...name.split('/'))
      if (!existsSync(source)) {
        pack.failures.push(`dependency ${name} is not installed in the workspace`)
        continue
      }
      mkdirSync(dirname(link), { recursive: true })
      symlinkSync(realpathSync(source), link, 'dir')
    }
  }
  copyFileSync(join(root, 'scripts', 'smoke', 'import-check.mjs'), join(project, 'import-check.mjs'))
  const entries = checked
    .filter((pack) => pack.target !== undefined)
    .flatMap((pack) =>
      entryPoints(pack.manifest).map((spec) => ({
        spec,
        expect: KNOWN_EXPORTS[spec] ?? {},
        name: pack.manifest.name,
      })),
    )
  const smoke = await exec(process.execPath, ['import-check.mjs', JSON.stringify(entries)], { cwd: project })
  let loaded = []
  try {
    loaded = JSON.parse(smoke.stdout.trim().split('\n').at(-1) ?? '[]')
  } catch {
    for (const pack of checked) pack.failures?.push(`smoke test did not run: ${smoke.stderr.trim()}`)
  }

  // 4. Every `bin` runs from the throwaway project as a user runs it (`npx <bin> --help`): linked into
  //    node_modules/.bin as npm links it, exit code 0 and its usage on standard output.
  for (const pack of checked) {
    if (pack.skipped || pack.target === undefined) continue
    const packed = JSON.parse(readFileSync(join(pack.target, 'package.json'), 'utf8'))
    const bins =
      typeof packed.bin === 'string' ? { [packed.name.split('/').pop()]: packed.bin } : (packed.bin ?? {})
    for (const [command, file] of Object.entries(bins)) {
      const link = join(modules, '.bin', command)
      mkdirSync(dirname(link), { recursive: true })
      if (!existsSync(link)) symlinkSync(join('..', ...packed.name.split('/'), file), link)
      chmodSync(join(pack.target, file), 0o755)
      // As the documents say to run it (`npx @x/cli`: npx runs the package's only command), and by its name.
      for (const spec of [packed.name, command]) {
        const help = await exec('npx', ['--no-install', spec, '--help'], { cwd: project })
        if (!help.ok || !help.stdout.includes(`Usage: ${command}`)) {
          pack.failures.push(
            `npx ${spec} --help failed: ${(help.stderr || help.stdout).trim().slice(0, 300)}`,
          )
        } else {
          pack.notes.push(`npx ${spec} --help: ok`)
        }
      }
    }
  }

  // 5. The documents run our commands through their packages (`npx @x/cli`, never `npx x-serde`).
  const commands = new Map()
  for (const pack of checked) {
    if (pack.skipped || pack.target === undefined) continue
    const packed = JSON.parse(readFileSync(join(pack.target, 'package.json'), 'utf8'))
    const names = typeof packed.bin === 'string' ? [packed.name] : Object.keys(packed.bin ?? {})
    for (const command of names) commands.set(command, packed.name)
  }
  const listed = await exec('git', ['ls-files', '-z', '--', '*.md'], { cwd: root })
  const documents = listed.stdout
    .split('\0')
    .filter(Boolean)
    .filter((path) => existsSync(join(root, path)))
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }))
  const wrongNpx = npxProblems(documents, commands)

  // Report: one line per package.
  let failed = 0
  for (const pack of checked) {
    const name = pack.manifest.name
    if (pack.skipped) {
      console.log(`-    ${name.padEnd(20)} private, not published: skipped`)
      continue
    }
    const mine = loaded.filter((result) => entries.find((entry) => entry.spec === result.spec)?.name === name)
    const found = mine.map((result) => {
      for (const error of result.errors) pack.failures.push(error)
      const label = result.spec === name ? '.' : result.spec.slice(name.length + 1)
      if (result.esm !== 'ok') return `${label}: did not load`
      return result.names.length === 0
        ? `${label}: shell (no exports yet)`
        : `${label}: ${result.names.length} exports (${result.names.join(', ')})`
    })
    if (pack.target !== undefined && mine.length === 0 && loaded.length > 0)
      pack.failures.push('smoke test did not report')
    const ok = pack.failures.length === 0
    if (!ok) failed++
    const notes = pack.notes?.length ? ` [${pack.notes.join(', ')}]` : ''
    const checks = ok ? 'publint, attw, import, require: ok' : 'FAILED'
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(20)} ${checks}${notes}; ${found.join('; ')}`)
    for (const failure of pack.failures) console.log(indent(failure))
  }
  if (wrongNpx.length > 0) {
    console.log(`FAIL documents: ${wrongNpx.length} say npx with a command instead of its package`)
    for (const problem of wrongNpx) console.log(indent(problem))
  } else {
    console.log(`ok   documents: ${documents.length} checked, every npx names a package`)
  }
  // 6. The install-size table of the README is the one the registry stage wrote.
  const sizes = checkReadme()
  console.log(`${sizes.ok ? 'ok  ' : 'FAIL'} ${sizes.message}`)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(`check-packages: ${checked.length - failed}/${checked.length} packages passed in ${seconds}s`)
  process.exitCode = failed === 0 && wrongNpx.length === 0 && sizes.ok ? 0 : 1
} finally {
  rmSync(work, { recursive: true, force: true })
}

function packageDir(name) {
  return manifests.find((entry) => entry.manifest.name === name)?.dir
}

/** `@x/pkg` plus `@x/pkg/<sub>` for each subpath export other than ./package.json. */
function entryPoints(manifest) {
  const exportsField = manifest.exports
  if (
    typeof exportsField !== 'object' ||
    exportsField === null ||
    !Object.keys(exportsField)[0]?.startsWith('.')
  ) {
    return [manifest.name]
  }
  return Object.keys(exportsField)
    .filter((subpath) => subpath !== './package.json' && !subpath.includes('*'))
    .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`))
}

function readAttw(result) {
  let report
  try {
    report = JSON.parse(result.stdout)
  } catch {
    return { error: `attw did not run: ${(result.stderr || result.stdout).trim()}` }
  }
  const problems = Object.values(report.problems ?? {})
    .flat()
    // The node16 profile ignores node10 resolution (attw names it resolutionKind or, for internal errors, resolutionOption).
    .filter((problem) => problem.resolutionKind !== 'node10' && problem.resolutionOption !== 'node10')
  const rejected = problems.filter((problem) => problem.kind !== 'CJSResolvesToESM')
  if (rejected.length > 0) {
    const lines = new Map()
    for (const p of rejected) {
      const where =
        p.kind === 'InternalResolutionError'
          ? `${p.kind}: '${p.moduleSpecifier}' from ${p.fileName}`
          : `${p.kind} at entry point ${p.entrypoint ?? '?'}`
      const how = p.resolutionKind ?? p.resolutionOption ?? 'all resolutions'
      lines.set(where, [...(lines.get(where) ?? []), how])
    }
    const text = [...lines].map(([where, how]) => `${where} (${[...new Set(how)].join(', ')})`).join('\n')
    return { error: `attw --profile node16:\n${indent(text)}` }
  }
  return { accepted: problems.length > 0 }
}

function writeProjectManifest(project) {
  const manifest = { name: 'x-check-packages-smoke', private: true, type: 'module' }
  copyText(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
}

function copyText(path, text) {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `       ${line}`)
    .join('\n')
}
