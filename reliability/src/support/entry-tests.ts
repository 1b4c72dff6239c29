import { expect, it } from 'vitest'
import type { EntryPoint, PropertyName } from './probe.js'
import { TIME_LIMIT_MS } from './probe.js'

const TITLES: Record<PropertyName, string> = {
  error: 'ends every input in a value or one of the library errors, never a foreign error',
  poison: 'classifies every data fault as poison, never as an outage',
  time: `holds the event loop at most ${TIME_LIMIT_MS} ms for any input up to 64 KiB`,
  roundTrip: 'reads back exactly what it wrote',
  prototype: 'leaves Object.prototype unchanged',
}

/**
 * One test per property of `entry` (after the test that ran its inputs). A property in `known` fails today because of
 * a defect being fixed elsewhere: it is marked `it.fails` with the defect in words, so the mark goes once the fix is in.
 */
export function propertyTests(
  entry: () => EntryPoint,
  properties: readonly PropertyName[],
  known: Partial<Record<PropertyName, string>> = {},
): void {
  for (const property of properties) {
    const defect = known[property]
    const title = defect === undefined ? TITLES[property] : `${TITLES[property]} (known defect: ${defect})`
    const test = defect === undefined ? it : it.fails
    test(title, () => {
      const found = entry()
      expect(found.inputs, 'the inputs ran').toBeGreaterThan(0)
      expect(found.findings[property], `${found.name}:\n${found.report(property)}`).toEqual([])
    })
  }
}

/** Every property; a read path also the poison one. */
export const WRITE_PROPERTIES: readonly PropertyName[] = ['error', 'time', 'roundTrip', 'prototype']
export const READ_PROPERTIES: readonly PropertyName[] = ['error', 'poison', 'time', 'roundTrip', 'prototype']
