import { findNodeProblems, NODE_INTERNALS } from '@x/serde-core/internal'
import protobuf from 'protobufjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  checkProtobufjs,
  findProtobufjsProblems,
  installedProtobufjsVersion,
  PROTOBUFJS_INTERNALS,
  PROTOBUFJS_VERSION,
} from './protobufjs-surface.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the protobufjs internals this package relies on', () => {
  it('all hold in the installed protobufjs, which is the pinned version, as do the Node internals', () => {
    expect(installedProtobufjsVersion()).toBe(PROTOBUFJS_VERSION)
    expect(findProtobufjsProblems()).toEqual([])
    expect(findNodeProblems()).toEqual([])
    expect(PROTOBUFJS_INTERNALS.map((internal) => internal.name)).toEqual([
      'BufferReader',
      'Reader#string',
      'Reader#stringVerify',
      'the generated decode (strings)',
      'the generated decode (a reader, discardUnknown, $unknowns)',
      'the generated encode ($unknowns)',
      'Type#toObject (Long objects)',
      'Writer#finishInto, Writer#len, Writer#reset',
      'code generation from strings (new Function)',
    ])
    expect(NODE_INTERNALS.map((internal) => internal.name)).toEqual(['Buffer#utf8Slice'])
  })

  it('names the entry that no longer holds: a reader whose stringVerify the decoders stopped calling', () => {
    const original = protobuf.BufferReader.prototype.stringVerify
    vi.spyOn(protobuf.BufferReader.prototype, 'stringVerify').mockImplementation(function (
      this: protobuf.Reader,
    ) {
      return original.call(this)
    })
    Object.defineProperty(protobuf.BufferReader.prototype.stringVerify, 'length', { value: 1 })
    expect(findProtobufjsProblems()).toEqual([
      'Reader#stringVerify: takes 1 arguments, not 0 (used for: overridden by FastReader to read short ASCII strings without the UTF-8 decoder)',
    ])
  })

  it('names a Long no longer left by toObject, and a Writer whose finishInto writes elsewhere', () => {
    vi.spyOn(protobuf.Type.prototype, 'toObject').mockReturnValue({ n: 1099511627776 })
    vi.spyOn(protobuf.Writer.prototype, 'finishInto').mockImplementation(function (
      this: protobuf.Writer,
      buf,
    ) {
      return buf
    })
    expect(findProtobufjsProblems().map((line) => line.slice(0, line.indexOf(' (used for')))).toEqual([
      'Type#toObject (Long objects): gives n = 1099511627776, not a Long of 2^40',
      'Writer#finishInto, Writer#len, Writer#reset: finishInto at offset 2 wrote 0000000000, not 0000960101',
    ])
  })

  it('passes the pinned version at once, checks any other, and refuses one that differs naming what and why', () => {
    expect(() => checkProtobufjs(PROTOBUFJS_VERSION)).not.toThrow()
    expect(() => checkProtobufjs('8.9.0')).not.toThrow()
    expect(() => checkProtobufjs(undefined)).not.toThrow()
    vi.spyOn(protobuf.Type.prototype, 'toObject').mockReturnValue({ n: 5 })
    expect(() => checkProtobufjs(PROTOBUFJS_VERSION)).not.toThrow()
    expect(() => checkProtobufjs('9.0.0')).toThrow(
      /^@x\/protobuf-serde was checked against protobufjs 8\.8\.1 but found protobufjs 9\.0\.0, which differs: Type#toObject \(Long objects\): gives n = 5, not a Long of 2\^40 \(used for: .*\)\. Let @x\/protobuf-serde have its own protobufjs 8\.8\.1/,
    )
  })
})

describe('the undocumented Node APIs on hot paths', () => {
  it('names Buffer#utf8Slice when it is missing or gives other text', () => {
    const proto = Buffer.prototype as unknown as { utf8Slice?: unknown }
    const original = proto.utf8Slice
    try {
      proto.utf8Slice = undefined
      expect(findNodeProblems()).toEqual([expect.stringMatching(/^Buffer#utf8Slice: missing \(used for: /)])
      proto.utf8Slice = () => 'other'
      expect(findNodeProblems()).toEqual([
        expect.stringMatching(/^Buffer#utf8Slice: gives "other" for the UTF-8 bytes of "aé€😀"/),
      ])
    } finally {
      proto.utf8Slice = original
    }
    expect(findNodeProblems()).toEqual([])
  })
})
