import type { ArtifactReference, RegisteredSchema } from '@x/registry-client'
import { describe, expect, it } from 'vitest'
import { collectReferences } from './index.js'
import { ToyFormat } from './test-support/toy-format.js'

// `order` → `line` → `money`, each in its own artifact; `line` parses on its own as a toy schema although the
// registry lists a reference for it (a reference it does not need).
const SCHEMAS: Record<string, { globalId: number; schema: string; references: ArtifactReference[] }> = {
  line: {
    globalId: 2,
    schema: JSON.stringify({ title: 'Line', fields: ['sku'] }),
    references: [{ name: 'money.toy', artifactId: 'money', version: '1' }],
  },
  money: { globalId: 3, schema: JSON.stringify({ title: 'Money', fields: ['units'] }), references: [] },
}

/** A registry of those artifacts (all in the `default` group), recording every lookup. */
function registry() {
  const calls: string[] = []
  const client = {
    async getSchemaVersion(artifactId: string, version: string, options?: { groupId?: string }) {
      calls.push(`version ${options?.groupId}/${artifactId}@${version}`)
      const found = SCHEMAS[artifactId]!
      return {
        schema: found.schema,
        globalId: found.globalId,
        artifactId,
        version,
        references: [],
      } satisfies RegisteredSchema
    },
    async getReferencesByGlobalId(id: number | bigint) {
      calls.push(`references ${id}`)
      return Object.values(SCHEMAS).find((entry) => entry.globalId === Number(id))!.references
    },
  }
  return { client, calls }
}

const ORDER_REFERENCES: ArtifactReference[] = [{ name: 'line.toy', artifactId: 'line', version: '1' }]

describe('collectReferences', () => {
  it('without a format fetches the references of every referenced version, dependencies first', async () => {
    const { client, calls } = registry()
    const resolved = await collectReferences(client, undefined, ORDER_REFERENCES)
    expect(resolved.map((reference) => [reference.name, reference.artifactId, reference.version])).toEqual([
      ['money.toy', 'money', '1'],
      ['line.toy', 'line', '1'],
    ])
    expect(calls).toEqual([
      'version default/line@1',
      'references 2',
      'version default/money@1',
      'references 3',
    ])
  })

  it('with a format fetches the references only of a referenced schema that does not parse on its own', async () => {
    const { client, calls } = registry()
    const resolved = await collectReferences(client, new ToyFormat(), ORDER_REFERENCES)
    expect(resolved.map((reference) => reference.name)).toEqual(['line.toy'])
    expect(calls).toEqual(['version default/line@1'])
  })
})
