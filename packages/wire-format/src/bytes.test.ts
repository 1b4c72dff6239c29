import { Buffer } from 'node:buffer'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { allocBytes } from './bytes.js'
import { encodeFrame } from './frame.js'
import { encodeIdHeader } from './id-header.js'

describe('byte output', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('is a Buffer while globalThis.Buffer exists', () => {
    const bytes = allocBytes(3)
    expect(Buffer.isBuffer(bytes)).toBe(true)
    expect(bytes.length).toBe(3)
  })

  it('is a plain Uint8Array where there is no Buffer (browsers), with the same bytes', () => {
    vi.stubGlobal('Buffer', undefined)
    const frame = encodeFrame(1, Uint8Array.of(2, 4))
    const header = encodeIdHeader(42)
    vi.unstubAllGlobals()
    expect(frame.constructor).toBe(Uint8Array)
    expect(Buffer.isBuffer(frame)).toBe(false)
    expect([...frame]).toEqual([0, 0, 0, 0, 1, 2, 4])
    expect(header.constructor).toBe(Uint8Array)
    expect([...header]).toEqual([0, 0, 0, 0, 0, 0, 0, 42])
  })

  it('uses a Buffer installed after loading (a polyfill), looked up on each call', () => {
    const calls: number[] = []
    vi.stubGlobal('Buffer', {
      allocUnsafe(size: number) {
        calls.push(size)
        return Buffer.allocUnsafe(size)
      },
    })
    encodeFrame(7, Uint8Array.of(1, 2, 3))
    encodeIdHeader(7n)
    expect(calls).toEqual([8, 8])
  })
})
