/**
 * Node's `markAsUntransferable` (`node:worker_threads`), which Node applies to its own `Buffer.allocUnsafe` pool: a
 * `postMessage` transfer list naming a marked `ArrayBuffer` copies it (Node 20) or throws a `DataCloneError` (Node
 * 22 and later) instead of detaching it. Reached through `process.getBuiltinModule` so that the package imports no
 * Node module where there is none; `undefined` where the runtime has no such function.
 */
export const markAsUntransferable: ((buffer: ArrayBufferLike) => void) | undefined = (() => {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  const module = process?.getBuiltinModule?.('node:worker_threads') as
    | { markAsUntransferable?: (object: object) => void }
    | undefined
  const mark = module?.markAsUntransferable
  return typeof mark === 'function' ? (buffer: ArrayBufferLike) => mark(buffer) : undefined
})()
