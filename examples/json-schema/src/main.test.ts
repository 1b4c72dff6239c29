import { describe, expect, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

describe('the json-schema example', () => {
  it('writes the contentId frame and compact JSON, reads the long back exact, and names every failing path', async () => {
    const run = await runExample('json-schema')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      [
        'frame: 0000000001 + {"id":9007199254740993,"iban":"DE89370400440532013000","cents":1250}',
        "value: { id: 9007199254740993n, iban: 'DE89370400440532013000', cents: 1250 }",
        'refused: INVALID_DATA memo, iban, cents',
        '',
      ].join('\n'),
    )
  })
})
