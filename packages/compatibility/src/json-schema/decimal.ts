/** A decimal number held exactly: `digits × 10^-scale`. */
interface Decimal {
  readonly digits: bigint
  readonly scale: number
}

function parse(text: string): Decimal {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text)
  if (match === null) throw new TypeError(`not a decimal number: ${text}`)
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match
  let scale = fraction.length - Number(exponent)
  let digits = BigInt(`${sign}${whole}${fraction}` === sign ? '0' : `${sign}${whole || '0'}${fraction}`)
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale)
    scale = 0
  }
  return { digits, scale }
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint] {
  const scale = Math.max(a.scale, b.scale)
  return [a.digits * 10n ** BigInt(scale - a.scale), b.digits * 10n ** BigInt(scale - b.scale)]
}

/** `-1`, `0` or `1` as `a` is less than, equal to or greater than `b`, compared exactly. */
export function compareDecimal(a: string, b: string): number {
  const [x, y] = aligned(parse(a), parse(b))
  return x < y ? -1 : x > y ? 1 : 0
}

/** Whether `a` is a whole multiple of `b` (the remainder of `a / b` is zero). */
export function isMultipleOf(a: string, b: string): boolean {
  const [x, y] = aligned(parse(a), parse(b))
  if (y === 0n) return false
  return x % y === 0n
}
