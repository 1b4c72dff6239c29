/**
 * A signal that aborts when either of two signals does, with the reason of the first to abort, and that leaves
 * nothing behind on them once released.
 *
 * Not `AbortSignal.any([a, b])`: on Node 20 it records the new signal as a dependent of `a` and `b` for as long as
 * they live (a `WeakRef` in a set that is only cleaned when they abort), so a client's long-lived close signal grew
 * by about 85 bytes per registry request; on Node 22 and 24 it registers every source in a `FinalizationRegistry`
 * (`sourceSignalsCleanupRegistry`) whose records outlive the request until V8 runs the registry's cleanup, which a
 * busy consumer can put off indefinitely (1.6–11 MB after 30 000–180 000 requests, measured on 24.21.0 with a heap
 * snapshot diff). Here the links are two listeners, removed by `release()`; the request itself goes to `fetch`
 * directly for the same reason (see registry-http.ts).
 */
export interface LinkedSignal {
  readonly signal: AbortSignal
  /** Removes the listeners from both sources; call it when the work using `signal` has ended. */
  release(): void
}

export function linkSignals(a: AbortSignal, b: AbortSignal): LinkedSignal {
  const controller = new AbortController()
  if (a.aborted) {
    controller.abort(a.reason)
    return { signal: controller.signal, release: noop }
  }
  if (b.aborted) {
    controller.abort(b.reason)
    return { signal: controller.signal, release: noop }
  }
  const onA = (): void => controller.abort(a.reason)
  const onB = (): void => controller.abort(b.reason)
  a.addEventListener('abort', onA, { once: true })
  b.addEventListener('abort', onB, { once: true })
  return {
    signal: controller.signal,
    release(): void {
      a.removeEventListener('abort', onA)
      b.removeEventListener('abort', onB)
    },
  }
}

function noop(): void {}
