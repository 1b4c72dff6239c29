/**
 * A small seeded generator (xorshift128+ in 32-bit halves), so that a failing input can be found again:
 * `RELIABILITY_SEED=<n>` repeats a run. Not for anything but test data.
 */
export class Random {
  #a: number
  #b: number
  readonly seed: number

  constructor(seed = Number(process.env.RELIABILITY_SEED ?? 20_261_124)) {
    this.seed = seed
    this.#a = seed | 0 || 1
    this.#b = (seed * 2_654_435_761) | 0 || 2
  }

  /** A 32-bit unsigned integer. */
  next(): number {
    let a = this.#a
    const b = this.#b
    this.#a = b
    a ^= a << 23
    a ^= a >>> 17
    a ^= b ^ (b >>> 26)
    this.#b = a
    return (a + b) >>> 0
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return this.next() % n
  }

  bytes(length: number): Buffer {
    const out = Buffer.allocUnsafe(length)
    for (let i = 0; i < length; i++) out[i] = this.next() & 0xff
    return out
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T
  }
}

/** A mutation of `frame`: bit flips, byte changes, truncation, insertion, duplication, or a random tail. */
export function mutate(random: Random, frame: Buffer, keepHeader: boolean): Buffer {
  const start = keepHeader ? 5 : 0
  const copy = Buffer.from(frame)
  switch (random.below(6)) {
    case 0: {
      for (let n = 1 + random.below(4); n > 0; n--) {
        const at = start + random.below(Math.max(1, copy.length - start))
        if (at < copy.length) copy[at] = (copy[at] as number) ^ (1 << random.below(8))
      }
      return copy
    }
    case 1: {
      for (let n = 1 + random.below(4); n > 0; n--) {
        const at = start + random.below(Math.max(1, copy.length - start))
        if (at < copy.length) copy[at] = random.pick([0x00, 0x01, 0x7f, 0x80, 0xff, random.below(256)])
      }
      return copy
    }
    case 2:
      return copy.subarray(0, start + random.below(Math.max(1, copy.length - start)))
    case 3: {
      const at = start + random.below(Math.max(1, copy.length - start))
      return Buffer.concat([copy.subarray(0, at), random.bytes(1 + random.below(8)), copy.subarray(at)])
    }
    case 4:
      return Buffer.concat([copy, copy.subarray(start)])
    default:
      return Buffer.concat([
        copy.subarray(0, start + random.below(Math.max(1, copy.length - start))),
        random.bytes(random.below(64)),
      ])
  }
}
