import { expect, it } from 'vitest'
import * as wireFormat from './index.js'

it('exports exactly the documented runtime names', () => {
  expect(Object.keys(wireFormat).sort()).toEqual([
    'FRAME_HEADER_SIZE',
    'ID_TYPES',
    'INT64_MAX',
    'INT64_MIN',
    'MAGIC_BYTE',
    'MessageField',
    'SerializationContext',
    'WireFormat',
    'decodeFrame',
    'decodeIdHeader',
    'encodeFrame',
    'encodeIdHeader',
    'idHeaderName',
    'isIdType',
    'parseIdText',
    'toSchemaId',
    'writeFrameHeader',
  ])
  expect(wireFormat.MAGIC_BYTE).toBe(0)
  expect(wireFormat.FRAME_HEADER_SIZE).toBe(5)
  expect([wireFormat.INT64_MIN, wireFormat.INT64_MAX]).toEqual([-(2n ** 63n), 2n ** 63n - 1n])
  expect(wireFormat.ID_TYPES).toEqual(['globalId', 'contentId'])
  expect(['globalId', 'contentId', 'GlobalId', undefined].map(wireFormat.isIdType)).toEqual([
    true,
    true,
    false,
    false,
  ])
})
