import { execFile } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { workFolder } from './test-support/cli-harness.js'

// json-schema-to-typescript (and prettier, lodash and the rest it carries) and the rules engine @x/rules (with its CEL,
// JSONata and RE2 engines) are optional peers of @x/cli: an install of the CLI alone stays small, and only JSON
// Schema codegen and `rules test` need them. Each case runs the built `x-serde` command in a fresh `node`, as a shell
// runs it; where the peers are to be missing, a resolve hook sends their imports to a directory with no
// node_modules, so Node answers as it does for a package that is not installed.

const run = promisify(execFile)
const bin = fileURLToPath(new URL('../bin/x-serde.js', import.meta.url))
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
}
const folder = workFolder()
afterAll(() => folder.done())

const HIDE = `
export async function resolve(specifier, context, next) {
  if (specifier === 'json-schema-to-typescript' || specifier === '@x/rules') {
    return next(specifier, { ...context, parentURL: 'file:///nonexistent-x-serde-app/app.js' })
  }
  return next(specifier, context)
}`

/** Runs `x-serde ARGS` in the work folder, the peer hidden when `hidden`; answers its exit code and output. */
async function xSerde(
  args: string[],
  hidden: boolean,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const register = `data:text/javascript,${encodeURIComponent(
    `import { register } from 'node:module'\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HIDE)}`)})`,
  )}`
  const node = hidden ? ['--import', register, bin, ...args] : [bin, ...args]
  try {
    const { stdout, stderr } = await run(process.execPath, node, { cwd: folder.path, encoding: 'utf8' })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

writeFileSync(
  join(folder.path, 'order.json'),
  JSON.stringify({
    title: 'Order',
    type: 'object',
    properties: { id: { type: 'integer' } },
    required: ['id'],
  }),
)
writeFileSync(
  join(folder.path, 'rules.json'),
  JSON.stringify({
    domainRules: [{ name: 'positive', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr: 'total > 0.0' }],
  }),
)
writeFileSync(
  join(folder.path, 'order.avsc'),
  JSON.stringify({ type: 'record', name: 'Order', fields: [{ name: 'id', type: 'int' }] }),
)

describe('x-serde without its optional peers installed', () => {
  it('has json-schema-to-typescript and @x/rules as optional peer dependencies, not dependencies', () => {
    for (const name of ['json-schema-to-typescript', '@x/rules']) {
      expect(manifest.dependencies[name]).toBeUndefined()
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true })
    }
    expect(manifest.peerDependencies).toEqual({
      '@x/rules': 'workspace:>=0.1.0 <1.0.0',
      'json-schema-to-typescript': '^16.0.0',
    })
  })

  it('refuses a JSON Schema with exit 2, naming the package to install', async () => {
    expect(await xSerde(['codegen', 'order.json'], true)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'x-serde: Generating types from a JSON Schema needs json-schema-to-typescript, which is not installed (an optional peer dependency of @x/cli): npm install --save-dev json-schema-to-typescript\n',
    })
  })

  it('refuses rules test with exit 2, naming @x/rules to install', async () => {
    expect(
      await xSerde(
        [
          'rules',
          'test',
          '{"total":5.0}',
          '--artifact',
          'orders-value',
          '--ruleset',
          'rules.json',
          '--registry',
          'http://127.0.0.1:9/apis/registry/v3',
        ],
        true,
      ),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'x-serde: x-serde rules test needs @x/rules, which is not installed (an optional peer dependency of @x/cli): npm install --save-dev @x/rules\n',
    })
  })

  it('runs rules test once @x/rules is installed', async () => {
    const run = await xSerde(
      [
        'rules',
        'test',
        '{"total":5.0}',
        '--artifact',
        'orders-value',
        '--ruleset',
        'rules.json',
        '--registry',
        'http://127.0.0.1:9/apis/registry/v3',
      ],
      false,
    )
    expect([run.code, run.stderr]).toEqual([0, ''])
    expect(run.stdout).toBe('local    passed (WRITE: 1 rules run, 0 failed)\n')
  })

  it('still generates Avro types and inspects frames, which need neither', async () => {
    const avro = await xSerde(['codegen', 'order.avsc'], true)
    expect([avro.code, avro.stderr]).toEqual([0, ''])
    expect(avro.stdout).toContain('export interface Order {\n  id: number\n}')
    const inspected = await xSerde(['inspect', '00000000010a'], true)
    expect([inspected.code, inspected.stdout.split('\n')[2]]).toEqual([0, 'id:       globalId 1'])
  })

  it('generates the JSON Schema types once it is installed', async () => {
    const generated = await xSerde(['codegen', 'order.json'], false)
    expect([generated.code, generated.stderr]).toEqual([0, ''])
    expect(generated.stdout).toContain('export interface Order {\nid: number | bigint\n}')
  })
})
