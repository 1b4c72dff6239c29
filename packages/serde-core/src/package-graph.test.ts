import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The dependency graph of the family: errors ← wire-format ← {registry-client, idp-auth} ← serde-core ← formats ←
// serde. The core must stay format-neutral: no format library and no format package among its dependencies. The
// rules engine is a dependency that is only ever imported dynamically, when a serde turns rules on.

const CORE_DEPENDENCIES = ['@x/errors', '@x/registry-client', '@x/rules', '@x/wire-format']
/** The client's entry points the core may import: its root, and the cache it keeps its schemas in. */
const CORE_IMPORTS = [...CORE_DEPENDENCIES, '@x/registry-client/cache']

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>
  peerDependencies?: Record<string, string>
}

describe('@x/serde-core', () => {
  it('depends on the errors, the framing, the client and the rules engine only: no format library, no format package', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(CORE_DEPENDENCIES)
    expect(pkg.peerDependencies).toBeUndefined()
  })

  it('imports nothing but its own files and those three packages', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url))
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.includes('.test.') && !file.includes('test-support'),
    )
    expect(files).toContain('schema-serializer.ts')
    const imported = new Set<string>()
    for (const file of files) {
      const source = readFileSync(`${dir}/${file}`, 'utf8')
      for (const match of source.matchAll(/from '([^']+)'/g)) imported.add(match[1]!)
    }
    const foreign = [...imported].filter((name) => !name.startsWith('./') && !CORE_IMPORTS.includes(name))
    expect(foreign).toEqual([])
  })

  it('loads the rules engine only by a dynamic import: a static import of it is a type import', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url))
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.includes('.test.') && !file.includes('test-support'),
    )
    const staticImports: string[] = []
    let dynamic = 0
    for (const file of files) {
      const source = readFileSync(`${dir}/${file}`, 'utf8')
      for (const match of source.matchAll(/^import (type )?\{[^}]*\}\s*from '@x\/rules'/gm)) {
        if (match[1] === undefined) staticImports.push(file)
      }
      dynamic += source.match(/import\('@x\/rules'\)/g)?.length ?? 0
    }
    expect(staticImports).toEqual([])
    expect(dynamic).toBeGreaterThan(0)
  })
})
