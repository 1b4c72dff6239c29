import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The committed API report (pnpm api:update writes it, pnpm api:check holds the build to it).
const report = readFileSync(fileURLToPath(new URL('../etc/avro-serde.api.md', import.meta.url)), 'utf8')

describe('the public surface of @x/avro-serde', () => {
  it('imports nothing from avsc: its typings are no part of this API', () => {
    expect(report).not.toMatch(/from ['"]avsc['"]/)
  })

  it('types typeHook and logical types with its own types', () => {
    expect(report).toContain('export type AvroTypeHook = (schema: unknown, opts: unknown) => unknown;')
    expect(report).toContain('export type LogicalTypeConstructor = new (...args: any[]) => unknown;')
  })
})
