/** The one part of Node's `Buffer` this package uses, so that it needs no Node types and no `Buffer` import. */
interface BufferConstructorLike {
  allocUnsafe(size: number): Uint8Array
}

/**
 * @internal New, uninitialised output bytes: a `Buffer` whenever `globalThis.Buffer` exists (kafkajs writes any
 * other value as text), a plain `Uint8Array` elsewhere (browsers, Deno without Node compatibility). The caller
 * overwrites every byte. `Buffer` is looked up per call, so a polyfill installed after loading is honoured.
 */
export function allocBytes(size: number): Uint8Array {
  const NodeBuffer = (globalThis as { Buffer?: BufferConstructorLike }).Buffer
  return NodeBuffer === undefined ? new Uint8Array(size) : NodeBuffer.allocUnsafe(size)
}
