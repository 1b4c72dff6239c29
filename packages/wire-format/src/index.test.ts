import { expect, it } from 'vitest'
import * as wireFormat from './index.js'

it('exports exactly the documented runtime names', () => {
  expect(Object.keys(wireFormat).sort()).toEqual([
    'FRAME_HEADER_SIZE',
    'MAGIC_BYTE',
    'MessageField',
    'SerializationContext',
    'WireFormat',
    'decodeFrame',
    'decodeIdHeader',
    'encodeFrame',
    'encodeIdHeader',
    'idHeaderName',
    'parseIdText',
    'toSchemaId',
    'writeFrameHeader',
  ])
  expect(wireFormat.MAGIC_BYTE).toBe(0)
  expect(wireFormat.FRAME_HEADER_SIZE).toBe(5)
})
