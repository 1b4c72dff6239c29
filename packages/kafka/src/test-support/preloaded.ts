import { setImmediate as nextTurn } from 'node:timers/promises'
import { AnyDeserializer } from '@x/message-contract'
import { expect, type MockInstance } from 'vitest'

/** Which format readers an `AnyDeserializer` has loaded. */
export function formatsLoaded(reader: AnyDeserializer): { AVRO: boolean; JSON: boolean; PROTOBUF: boolean } {
  return {
    AVRO: reader.isLoaded('AVRO'),
    JSON: reader.isLoaded('JSON'),
    PROTOBUF: reader.isLoaded('PROTOBUF'),
  }
}

/**
 * Waits two turns of the event loop after adapters were made, expects `preload` (a spy on
 * `AnyDeserializer.prototype.preload`) to have been called once — by the one adapter made with the default — and
 * that call to load all three format readers; gives back that adapter's `AnyDeserializer`.
 */
export async function preloadedInBackground(
  preload: MockInstance<AnyDeserializer['preload']>,
): Promise<AnyDeserializer> {
  await nextTurn()
  await nextTurn()
  expect(preload).toHaveBeenCalledTimes(1)
  await preload.mock.results[0]!.value
  const reader = preload.mock.contexts[0] as AnyDeserializer
  expect(reader).toBeInstanceOf(AnyDeserializer)
  expect(formatsLoaded(reader)).toEqual({ AVRO: true, JSON: true, PROTOBUF: true })
  return reader
}
