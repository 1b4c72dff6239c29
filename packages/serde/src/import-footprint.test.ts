import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// What a process pays for `import '@x/serde'`: only what an Avro message needs. The built umbrella is imported in a
// fresh `node` with a load hook that writes down every ES module it loads; CommonJS modules come from the require
// cache, and Node's own modules from `process.moduleLoadList` in a second process without the hook.

const entry = fileURLToPath(new URL('../dist/index.bundle.js', import.meta.url))

/** Appends the URL of every ES module loaded to the file named by X_SERDE_LOADED_FILE. */
const HOOK = `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) {
  appendFileSync(process.env.X_SERDE_LOADED_FILE, url + '\\n')
  return next(url, context)
}`

const SCRIPT = `import { createRequire, register } from 'node:module'
import { pathToFileURL } from 'node:url'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}))
const entry = ${JSON.stringify(entry)}
await import(pathToFileURL(entry).href)
process.stdout.write(JSON.stringify(Object.keys(createRequire(entry).cache)))`

/** Without the hook, whose thread would load \`node:worker_threads\` itself. */
const BUILTINS_SCRIPT = `await import(${JSON.stringify(new URL('../dist/index.bundle.js', import.meta.url).href)})
process.stdout.write(JSON.stringify(process.moduleLoadList))`

/** A module of a package the root import must not load, by where it lives: in the workspace or installed. */
const UNWANTED =
  /[/\\](?:node_modules[/\\](?:protobufjs|ajv|kafkajs|@bufbuild)|(?:packages|@x)[/\\](?:rules|compatibility|kafka|protobuf-serde|jsonschema-serde))[/\\]/

let dir: string
let loaded: { esm: string[]; cjs: string[]; builtins: string[] }

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'x-serde-footprint-'))
  const file = join(dir, 'loaded.txt')
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    encoding: 'utf8',
    env: { ...process.env, X_SERDE_LOADED_FILE: file },
  })
  const cjs = JSON.parse(out) as string[]
  const builtins = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', BUILTINS_SCRIPT], { encoding: 'utf8' }),
  ) as string[]
  const esm = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((url) => url.replace(/^file:\/\//, ''))
  loaded = { esm, cjs, builtins }
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("import('@x/serde')", () => {
  it('loads the Avro serde and avsc, the modules an Avro message needs', () => {
    expect(loaded.esm.some((path) => /[/\\]avro-serde[/\\]dist[/\\]index\.bundle\.js$/.test(path))).toBe(true)
    expect(loaded.cjs.some((path) => /[/\\]node_modules[/\\]avsc[/\\]lib[/\\]types\.js$/.test(path))).toBe(
      true,
    )
  })

  it('loads no protobufjs, ajv, Kafka client, rules engine, compatibility checker or other format package', () => {
    expect([...loaded.esm, ...loaded.cjs].filter((path) => UNWANTED.test(path))).toEqual([])
  })

  it("loads avsc's types but not its file containers, streams or RPC services", () => {
    const avsc = loaded.cjs.filter((path) => /[/\\]node_modules[/\\]avsc[/\\]/.test(path))
    expect(avsc.some((path) => /[/\\]avsc[/\\]lib[/\\]types\.js$/.test(path))).toBe(true)
    expect(
      avsc.filter((path) => /[/\\]avsc[/\\]lib[/\\](?:index|containers|services)\.js$/.test(path)),
    ).toEqual([])
  })

  it('loads each @x package as its bundle, not file by file', () => {
    const ours = loaded.esm.filter((path) => /[/\\]packages[/\\][\w-]+[/\\]dist[/\\]/.test(path))
    expect(ours.length).toBeGreaterThan(5)
    expect(ours.filter((path) => !path.endsWith('.bundle.js'))).toEqual([])
  })

  it("does not load Node's worker_threads, which only the serializer's slab uses", () => {
    expect(loaded.builtins).not.toContain('NativeModule worker_threads')
  })
})
