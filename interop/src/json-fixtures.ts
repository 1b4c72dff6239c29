import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { interopDir } from './paths.js'

/** interop/fixtures/order.json, the JSON Schema the Java program registers (and our serializer registers too). */
export function orderSchema(): object {
  return JSON.parse(readFileSync(join(interopDir, 'fixtures', 'order.json'), 'utf8')) as object
}

/** Order `i`, by the same rule as `JsonMain.order(i)` in interop/java: `id` is a long beyond 2^53. */
export function expectedOrder(i: number): Record<string, unknown> {
  return {
    id: 9007199254740993n + BigInt(i),
    sku: `SKU-${i}`,
    qty: i + 1,
    price: 12.5 + i,
    tags: [`t${i}`, 'x'],
    gift: i % 2 === 0,
    note: `é "quoted" ${i}`,
  }
}

/** The JSON text Jackson writes for order `i` (compact, keys in insertion order, the long as its digits). */
export function expectedOrderText(i: number): string {
  return (
    `{"id":${9007199254740993n + BigInt(i)},"sku":"SKU-${i}","qty":${i + 1},"price":${12.5 + i},` +
    `"tags":["t${i}","x"],"gift":${i % 2 === 0},"note":"é \\"quoted\\" ${i}"}`
  )
}
