import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { cli, workFolder } from '../test-support/cli-harness.js'

// `x-serde inspect` as a shell runs it with no registry at all (no --registry, no REGISTRY_URL): the frame alone.

const folder = workFolder()
afterAll(() => folder.done())

/** 0x00, globalId 40 in 4 bytes, then 3 bytes of payload (base64 `AAAAACgK/v8=`, URL-safe `AAAAACgK_v8`). */
const FRAME = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x28, 0x0a, 0xfe, 0xff])

describe('inspect without a registry', () => {
  it('prints the magic byte, the id type and value and the payload length of a frame, and says the value is not decoded', async () => {
    expect(await cli(['inspect', FRAME.toString('hex')], { cwd: folder.path })).toEqual({
      code: 0,
      stdout: [
        'framing:  framed (0x00 + 4-byte id)',
        'magic:    0x00',
        'id:       globalId 40',
        'payload:  3 bytes',
        'value:    not decoded: no registry (pass --registry <url> or set REGISTRY_URL to decode it)',
        '',
      ].join('\n'),
      stderr: '',
    })
    const eight = Buffer.from([0x00, 0, 0, 0, 0, 0, 0, 0, 0x07, 0x0a])
    expect(
      await cli(['inspect', eight.toString('base64'), '--id-size', '8', '--use-id', 'contentId', '--json'], {
        cwd: folder.path,
      }),
    ).toEqual({
      code: 0,
      stdout: '{"framing":"framed","magic":0,"idSize":8,"idType":"contentId","id":7,"payloadBytes":1}\n',
      stderr: '',
    })
  })

  it("names a bare payload's id headers, Apicurio's and Confluent 8's, with their ids", async () => {
    const apicurio = await cli(
      ['inspect', '0a0b', '--headers', 'apicurio.value.contentId=7', '--headers', 'traceparent=abc'],
      { cwd: folder.path },
    )
    expect(apicurio).toEqual({
      code: 0,
      stdout: [
        'framing:  headers mode (apicurio.value.contentId)',
        'headers:  apicurio.value.contentId=7',
        'id:       contentId 7',
        'payload:  2 bytes',
        'value:    not decoded: no registry (pass --registry <url> or set REGISTRY_URL to decode it)',
        '',
      ].join('\n'),
      stderr: '',
    })
    const confluent = await cli(['inspect', '0a', '--headers', '__value_schema_id=0x0000000028', '--json'], {
      cwd: folder.path,
    })
    expect(confluent).toEqual({
      code: 0,
      stdout:
        '{"framing":"headers","header":"__value_schema_id","idHeaders":[{"name":"__value_schema_id","value":"40"}],"idType":"globalId","id":40,"payloadBytes":1}\n',
      stderr: '',
    })
  })

  it('refuses a frame it cannot read with the deserializers error (exit 1), registry or not', async () => {
    expect(await cli(['inspect', '7b7d'], { cwd: folder.path })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'x-serde: Cannot decode a frame: expected at least 5 bytes (magic byte 0x00 + 4-byte schema id), got 2\n',
    })
  })
})

describe('inspect reading the message text', () => {
  it.each([
    ['zz', 'the last character has leftover bits (a byte reads zw)'],
    ['z', 'one character is no whole byte'],
    ['00:00:00:00:28:0a', 'colons are in neither alphabet'],
    ['AAAAACgK=', 'padding that does not complete a group of four'],
    ['0x00 0x00 0x00 0x00 0x28', 'text that begins with 0x is meant as hex, and this is not hex'],
  ])('refuses %j with a usage error (exit 2): %s', async (text) => {
    expect(await cli(['inspect', text], { cwd: folder.path })).toEqual({
      code: 2,
      stdout: '',
      stderr: `x-serde: The message is neither hex nor base64, got ${JSON.stringify(text)}: give HEX, BASE64, @FILE (raw bytes) or - (standard input)\n`,
    })
  })

  it('refuses hex with a digit lost (exit 2), on the command line and on standard input, instead of reading it as base64', async () => {
    // 00000000280 is also base64 whose bytes encode back to it: read so, it was 8 other bytes
    const refusal = (count: number) => ({
      code: 2,
      stdout: '',
      stderr: `x-serde: The message has an odd number of hex digits (${count}): a digit is missing (base64 made of hex digits alone needs its = padding)\n`,
    })
    expect(await cli(['inspect', '00000000280'], { cwd: folder.path })).toEqual(refusal(11))
    expect(await cli(['inspect', '0x00 00 00 00 28 A'], { cwd: folder.path })).toEqual(refusal(11))
    expect(await cli(['inspect', '-'], { cwd: folder.path, stdin: Buffer.from('00000000280\n') })).toEqual(
      refusal(11),
    )
  })

  it('reads the same frame from hex with spaces, base64 with or without padding and URL-safe base64', async () => {
    const expected = (await cli(['inspect', FRAME.toString('hex'), '--json'], { cwd: folder.path })).stdout
    expect(expected).toBe(
      '{"framing":"framed","magic":0,"idSize":4,"idType":"globalId","id":40,"payloadBytes":3}\n',
    )
    for (const text of [
      'AAAAACgK/v8=',
      'AAAAACgK/v8',
      'AAAAACgK_v8',
      ' 00 00 00 00 28 0a fe ff ',
      '0x00000000280afeff',
      '0X00000000280AFEFF',
      '0x00 00 00 00 28 0a fe ff',
    ]) {
      expect(await cli(['inspect', text, '--json'], { cwd: folder.path })).toEqual({
        code: 0,
        stdout: expected,
        stderr: '',
      })
    }
    expect(
      await cli(['inspect', '-', '--json'], {
        cwd: folder.path,
        stdin: Buffer.from('0x000000002 80afeff\n'),
      }),
    ).toEqual({ code: 0, stdout: expected, stderr: '' })
  })

  it('reads base64 made of hex digits alone as base64 when that reading is the frame', async () => {
    // 00 00 00 00 01 00 in base64 is AAAAAAEA, which is also 4 bytes of hex (aa aa aa ea)
    expect(await cli(['inspect', 'AAAAAAEA', '--json'], { cwd: folder.path })).toEqual({
      code: 0,
      stdout: '{"framing":"framed","magic":0,"idSize":4,"idType":"globalId","id":1,"payloadBytes":1}\n',
      stderr: '',
    })
  })

  it('reads any frame alike from hex (any case, 0x or not) and base64 (standard or URL-safe, padded or not)', async () => {
    await fc.assert(
      // ids from 1: inspect refuses a frame naming id 0, which no registry assigns
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 40 }),
        fc.integer({ min: 1, max: 0xffff_ffff }),
        async (payload, id) => {
          const frame = Buffer.concat([Buffer.from([0, id >>> 24, id >>> 16, id >>> 8, id]), payload])
          const hex = frame.toString('hex')
          const texts = [hex, `0x${hex.toUpperCase()}`, frame.toString('base64'), frame.toString('base64url')]
          const runs = await Promise.all(
            texts.map((text) => cli(['inspect', text, '--json'], { cwd: folder.path })),
          )
          const expected = `{"framing":"framed","magic":0,"idSize":4,"idType":"globalId","id":${id >>> 0},"payloadBytes":${payload.length}}\n`
          for (const run of runs) expect(run).toEqual({ code: 0, stdout: expected, stderr: '' })
        },
      ),
      { numRuns: 50 },
    )
  })
})
