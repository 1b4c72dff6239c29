import { describe, expect, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

// The message, encoded by hand from the Protobuf rules: id 2^53 + 1 (field 1, varint 81 80 80 80 80 80 80 10);
// amount (field 2, 8 bytes) { currency "EUR", units 1250 (e2 09) }; at (field 3, 6 bytes) { seconds 1767225600
// (80 f2 d6 ca 06) }; method TRANSFER = 1 (field 4).
const BODY = '088180808080808010' + '12080a0345555210e209' + '1a060880f2d6ca06' + '2001'

describe('the protobuf example', () => {
  it('writes a Ref frame and a message-index frame of the same message, and reads both back exactly', async () => {
    const run = await runExample('protobuf')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const value = [
      'value: {',
      '  id: 9007199254740993n,',
      "  amount: { currency: 'EUR', units: 1250 },",
      '  at: { seconds: 1767225600, nanos: 0 },',
      "  method: 'TRANSFER'",
      '}',
    ].join('\n')
    // globalId 3: the money.proto artifact is 1, google/protobuf/timestamp.proto (registered for Java's readers) is 2.
    expect(run.stdout).toBe(
      [
        `apicurio: 0000000003090a075061796d656e74${BODY}`,
        value,
        `confluent: 000000000300${BODY}`,
        value,
        '',
      ].join('\n'),
    )
  })
})
