import { describe, expect, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

describe('the headers-mode example', () => {
  it('puts bare Avro in the payload, the contentId as 8 bytes in apicurio.value.contentId and BINARY in apicurio.value.encoding', async () => {
    const run = await runExample('headers-mode')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    // "t-7" then 21.5 as a little-endian double; no magic byte, no id in the payload.
    expect(run.stdout).toBe(
      [
        'payload: 06742d370000000000803540',
        'header:  apicurio.value.contentId = 0000000000000001',
        // "BINARY" in ASCII, as Java's serializer writes it beside the id.
        'header:  apicurio.value.encoding = 42494e415259',
        "value: Reading { sensor: 't-7', celsius: 21.5 }",
        '',
      ].join('\n'),
    )
  })
})
