import { describe, expect, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

describe('the json-framing example', () => {
  it('frames a JSON document behind 0x00 and the 4-byte id 42, and reads it back', async () => {
    const run = await runExample('json-framing')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const json = '{"id":"o-1","total":12.5,"lines":["book","pen"]}'
    expect(run.stdout).toBe(
      [
        `frame    000000002a${Buffer.from(json).toString('hex')}`,
        'schemaId 42',
        `value    ${json}`,
        'header   apicurio.value.contentId = 000000000000002a',
        '',
      ].join('\n'),
    )
  })
})
