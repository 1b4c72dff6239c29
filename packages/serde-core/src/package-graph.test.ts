import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The dependency graph of the family: errors ← wire-format ← {registry-client, idp-auth} ← serde-core ← formats ←
// serde. The core must stay format-neutral: no format library and no format package among its dependencies. The
// rules engine is an optional peer, installed by those who turn rules on, and only ever imported dynamically, when a
// serde turns rules on: a serde with rules off installs and loads nothing of it (CEL and JSONata included).

const CORE_DEPENDENCIES = ['@x/errors', '@x/registry-client', '@x/wire-format']
/** The client's entry points the core may import: its root, the cache it keeps its schemas in, and the engine. */
const CORE_IMPORTS = [...CORE_DEPENDENCIES, '@x/registry-client/cache', '@x/rules']

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  devDependencies?: Record<string, string>
}

describe('@x/serde-core', () => {
  it('depends on the errors, the framing and the client only: no format library, no format package, no rules engine', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(CORE_DEPENDENCIES)
  })

  it('takes the rules engine as an optional peer, so that no install brings it or warns of it, and as a dev dependency for its own tests', () => {
    expect(pkg.peerDependencies).toEqual({ '@x/rules': 'workspace:>=0.1.0 <1.0.0' })
    expect(pkg.peerDependenciesMeta).toEqual({ '@x/rules': { optional: true } })
    expect(pkg.devDependencies?.['@x/rules']).toBe('workspace:^')
  })

  it('imports nothing but its own files, those three packages and the rules engine', () => {
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

describe('@x/serde-core/internal', () => {
  it('is imported by the three format packages only: every other package reads the core through its public root', () => {
    const packages = fileURLToPath(new URL('../../', import.meta.url))
    const importers = new Set<string>()
    for (const name of readdirSync(packages)) {
      const src = `${packages}${name}/src`
      let files: string[]
      try {
        files = readdirSync(src, { recursive: true, encoding: 'utf8' })
      } catch {
        continue
      }
      for (const file of files) {
        if (!file.endsWith('.ts') || file.includes('.test.') || file.includes('test-support')) continue
        if (readFileSync(`${src}/${file}`, 'utf8').includes("from '@x/serde-core/internal'"))
          importers.add(name)
      }
    }
    expect([...importers].sort()).toEqual(['avro-serde', 'jsonschema-serde', 'protobuf-serde'])
  })
})
