import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

// What scripts/bundle-dist.mjs leaves in each published package's dist/ after `pnpm build`: one file per entry
// point, with source maps back to src/, reached through `exports`.

const root = fileURLToPath(new URL('..', import.meta.url))
const run = promisify(execFile)

interface Manifest {
  name: string
  private?: boolean
  exports: Record<string, string | { types: string; default: string }>
}

const published = readdirSync(join(root, 'packages'))
  .map((dir) => ({ dir: join(root, 'packages', dir), file: join(root, 'packages', dir, 'package.json') }))
  .filter(({ file }) => existsSync(file))
  .map(({ dir, file }) => ({ dir, manifest: JSON.parse(readFileSync(file, 'utf8')) as Manifest }))
  .filter(({ manifest }) => manifest.private !== true)

describe('the bundled dist of every published package', () => {
  it('points every entry point at a bundle whose source map leads to src/*.ts without a copy of the sources', () => {
    expect(published.length).toBeGreaterThan(10)
    for (const { dir, manifest } of published) {
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        if (subpath === './package.json') continue
        const file = typeof target === 'string' ? target : target.default
        expect([manifest.name, subpath, file]).toEqual([
          manifest.name,
          subpath,
          expect.stringMatching(/^\.\/dist\/[\w-]+\.bundle\.js$/),
        ])
        const bundle = readFileSync(join(dir, file), 'utf8')
        const mapName = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(bundle)?.[1]
        // An entry that only re-exports a chunk has no code of its own to map.
        if (mapName === undefined) continue
        const map = JSON.parse(readFileSync(join(dir, 'dist', mapName), 'utf8')) as {
          sources: string[]
          sourcesContent?: (string | null)[]
        }
        expect(map.sources.length).toBeGreaterThan(0)
        for (const source of map.sources)
          expect([file, source]).toEqual([file, expect.stringMatching(/^\.\.\/src\/.+\.ts$/)])
        // mappings only: the sources would double what an install weighs
        expect(
          map.sourcesContent?.filter((content) => content !== null && content !== undefined) ?? [],
        ).toEqual([])
      }
    }
  })

  it('names the source file and line in a stack trace under --enable-source-maps', async () => {
    const script = `import { RegistryClient } from '@x/registry-client'
const client = new RegistryClient({ url: 'http://127.0.0.1:1/apis/registry/v3', groupId: 'g', maxRetries: 0 })
const stack = await client.getSchemaByGlobalId(1).then(() => '', (error) => error.stack)
await client.close()
process.stdout.write(stack)`
    const { stdout } = await run(
      process.execPath,
      ['--enable-source-maps', '--input-type=module', '-e', script],
      {
        cwd: join(root, 'packages', 'serde'),
      },
    )
    expect(stdout).toMatch(/^RegistryConnectionError: Unable to reach the registry/)
    expect(stdout).toMatch(/\(\S*packages\/registry-client\/src\/registry-http\.ts:\d+:\d+\)/)
    expect(stdout).not.toContain('.bundle.js')
  })

  it('gives one identity to what two entry points of a package share', async () => {
    const script = `const a = await import('@x/serde-core')
const b = await import('@x/serde-core/internal')
process.stdout.write(JSON.stringify(a.normalizeRulesOptions === b.normalizeRulesOptions))`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(root, 'packages', 'avro-serde'),
    })
    expect(stdout).toBe('true')
  })
})
