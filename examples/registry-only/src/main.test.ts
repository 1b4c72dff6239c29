import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

describe('the registry-only example', () => {
  it('registers, lists and fetches a schema by both ids against its own in-memory registry', async () => {
    const run = await runExample('registry-only')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const schema =
      '{"type":"record","name":"Ping","namespace":"com.example","fields":[{"name":"at","type":"long"}]}'
    expect(run.stdout).toBe(
      [
        'registered Ping: globalId 1, contentId 1',
        'artifacts in group example-registry-only: Ping',
        `by globalId:  ${schema}`,
        `by contentId: ${schema}`,
        '',
      ].join('\n'),
    )
  })

  it('needs nothing Avro: its package depends on @x/registry-client and, for its test registry, @x/registry-testing', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(pkg.dependencies).toEqual({
      '@x/registry-client': 'workspace:*',
      '@x/registry-testing': 'workspace:*',
    })
    expect(pkg.devDependencies).toBeUndefined()
    // pnpm links only declared dependencies: from the example and from the client package, plain node finds the
    // client but not avsc.
    const resolve = (from: string, name: string): string =>
      execFileSync(
        process.execPath,
        ['-e', `try { console.log(require.resolve('${name}')) } catch { console.log('missing') }`],
        {
          cwd: fileURLToPath(new URL(from, import.meta.url)),
          env: { PATH: process.env.PATH ?? '' },
          encoding: 'utf8',
        },
      ).trim()
    expect(resolve('..', 'avsc')).toBe('missing')
    expect(resolve('..', '@x/registry-client/package.json')).toMatch(/registry-client[\\/]package\.json$/)
    expect(resolve('../../../packages/registry-client', 'avsc')).toBe('missing')
    expect(resolve('../../../packages/registry-client', 'lru-cache')).toContain('lru-cache')
    expect(resolve('../../../packages/registry-testing', 'avsc')).toBe('missing')
  })
})
