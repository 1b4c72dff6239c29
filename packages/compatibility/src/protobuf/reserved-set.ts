/**
 * A message's reserved names and numbers, or the names and numbers its fields use: the set Apicurio builds of
 * both (`Set<Object>` of names and tags), with number ranges kept as ranges so that `reserved 1000 to max` stays
 * small.
 */
export class NameNumberSet {
  readonly names = new Set<string>()
  readonly ranges: [number, number][] = []

  /** Adds a name. */
  addName(name: string): void {
    this.names.add(name)
  }

  /** Adds the numbers `from` to `to`, both included. */
  addRange(from: number, to: number): void {
    this.ranges.push([from, to])
  }

  /** Whether the name or number is in the set. */
  has(value: string | number): boolean {
    if (typeof value === 'string') return this.names.has(value)
    return this.ranges.some(([from, to]) => value >= from && value <= to)
  }

  /** How many names and distinct numbers the set holds. */
  get size(): number {
    return this.names.size + countNumbers(this.ranges)
  }

  /** How many names and numbers this set shares with `other`. */
  sharedWith(other: NameNumberSet): number {
    let shared = 0
    for (const name of this.names) if (other.names.has(name)) shared++
    const overlaps: [number, number][] = []
    for (const [a, b] of merge(this.ranges)) {
      for (const [c, d] of merge(other.ranges)) {
        const from = Math.max(a, c)
        const to = Math.min(b, d)
        if (from <= to) overlaps.push([from, to])
      }
    }
    return shared + countNumbers(overlaps)
  }
}

function merge(ranges: readonly [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0])
  const out: [number, number][] = []
  for (const [from, to] of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to)
    else out.push([from, to])
  }
  return out
}

function countNumbers(ranges: readonly [number, number][]): number {
  return merge(ranges).reduce((total, [from, to]) => total + (to - from + 1), 0)
}
