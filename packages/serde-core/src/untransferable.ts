/** What `markAsUntransferable` resolved to: not looked up yet, missing (`null`), or the function. */
let marker: ((buffer: ArrayBufferLike) => void) | null | undefined

/**
 * Node's `markAsUntransferable` (`node:worker_threads`), which Node applies to its own `Buffer.allocUnsafe` pool: a
 * `postMessage` transfer list naming a marked `ArrayBuffer` copies it (Node 20) or throws a `DataCloneError` (Node
 * 22 and later) instead of detaching it. Reached through `process.getBuiltinModule` so that the package imports no
 * Node module where there is none; `undefined` where the runtime has no such function. Looked up on the first call,
 * not at import, so that a process that never serializes does not load `node:worker_threads`.
 */
export function untransferableMarker(): ((buffer: ArrayBufferLike) => void) | undefined {
  if (marker === undefined) {
    const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    const module = process?.getBuiltinModule?.('node:worker_threads') as
      | { markAsUntransferable?: (object: object) => void }
      | undefined
    const mark = module?.markAsUntransferable
    marker = typeof mark === 'function' ? (buffer: ArrayBufferLike) => mark(buffer) : null
  }
  return marker ?? undefined
}
