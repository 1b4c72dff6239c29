import type { ExactJson } from '@x/registry-client/json'

// The records of interop/fixtures/account.avsc that Java writes (interop/java/.../RefsMain.java): record `i` is made
// by the same rule there and here.

const DAY_MS = 86_400_000
const SINCE = Date.UTC(2024, 0, 1)

/** The nested record `Owner` (an artifact of its own once Java registers it), in Java's canonical JSON form. */
function owner(i: number, n: number): Record<string, unknown> {
  return {
    name: `owner-${i}-${n}`,
    since: String(SINCE + i * DAY_MS + n),
    birthday: i === 2 ? -365 - n : 19_723 + i + n,
    seenMicros: String(1_704_067_200_000_123n + BigInt(i + n)),
    avatar: Buffer.from([0x80, i, 0xff, n]).toString('hex'),
    tier: (i + n) % 2 === 0 ? 'FREE' : 'PRO',
    badge: badge(i, n, (bytes) => bytes.toString('hex')),
    note: note(
      i,
      n,
      (bytes) => bytes.toString('hex'),
      (text) => text,
    ),
  }
}

/** `badge`, of `["null", "int", "bytes"]`: null, an int or bytes by turns, the bytes as `written` gives them. */
function badge<T>(i: number, n: number, written: (bytes: Buffer) => T): null | number | T {
  const turn = (i + n) % 3
  return turn === 0 ? null : turn === 1 ? i * 10 + n : written(Buffer.from([i, 0xfe, n]))
}

/** `note`, of `["null", "string", "bytes"]`: bytes, a string or null by turns, as `bytes` and `text` give them. */
function note<T>(i: number, n: number, bytes: (value: Buffer) => T, text: (value: string) => T): T | null {
  const turn = (i + n) % 3
  return turn === 0 ? bytes(Buffer.from([n, i])) : turn === 1 ? text(`note-${i}-${n}`) : null
}

/**
 * Record `i` as the Java program prints what it read (`CanonicalJson`: longs and timestamps as decimal strings, a
 * date as its day number, bytes as lowercase hex, a union as the bare value).
 */
export function expectedAccountCanonical(i: number): Record<string, unknown> {
  return {
    id: `acct-${i}-\u00fc\u20ac`,
    balance: String(9_007_199_254_740_993n + BigInt(i)),
    created: String(1_700_000_000_000 + i * 1_001),
    token: Buffer.from([i, 0x00, 0xff, 0xfb, 0xef, 0xbe]).toString('hex'),
    owner: owner(i, 0),
    backup: i % 2 === 0 ? null : owner(i, 1),
    when: i % 3 === 0 ? String(1_690_000_000_000 + i) : i % 3 === 1 ? null : owner(i, 2),
    memo: i % 2 === 0 ? String(1_600_000_000_000 + i) : `memo-${i}`,
  }
}

/** `Owner` as `x-serde consume --json` prints it, read back exactly. */
function ownerJson(i: number, n: number): ExactJson {
  const birthday = i === 2 ? -365 - n : 19_723 + i + n
  return {
    name: `owner-${i}-${n}`,
    since: new Date(SINCE + i * DAY_MS + n).toISOString(),
    birthday: new Date(birthday * DAY_MS).toISOString(),
    seenMicros: 1_704_067_200_000_123 + i + n,
    avatar: Buffer.from([0x80, i, 0xff, n]).toString('base64'),
    tier: (i + n) % 2 === 0 ? 'FREE' : 'PRO',
    badge: badge(i, n, (bytes) => bytes.toString('base64')),
    // A string beside bytes: each value printed wrapped by its branch.
    note: note<ExactJson>(
      i,
      n,
      (bytes) => ({ bytes: bytes.toString('base64') }),
      (text) => ({ string: text }),
    ),
  }
}

/**
 * Record `i` as `x-serde consume --json` prints it (read with `parseExactJson`): a long beyond 2^53 exact (a
 * bigint), timestamps and dates as ISO text, a timestamp-micros (no JavaScript type holds it) as its number, bytes as
 * base64, a union as the bare value (in `badge` and `when` a string stands for bytes or a timestamp), or wrapped
 * by its branch where the bare values of two branches would print alike (`note`, `memo`).
 */
export function expectedAccountJson(i: number): ExactJson {
  return {
    id: `acct-${i}-\u00fc\u20ac`,
    balance: 9_007_199_254_740_993n + BigInt(i),
    created: new Date(1_700_000_000_000 + i * 1_001).toISOString(),
    token: Buffer.from([i, 0x00, 0xff, 0xfb, 0xef, 0xbe]).toString('base64'),
    owner: ownerJson(i, 0),
    backup: i % 2 === 0 ? null : ownerJson(i, 1),
    when: i % 3 === 0 ? new Date(1_690_000_000_000 + i).toISOString() : i % 3 === 1 ? null : ownerJson(i, 2),
    // A string beside a timestamp: each value printed wrapped by its branch (`long` for the timestamp).
    memo: i % 2 === 0 ? { long: new Date(1_600_000_000_000 + i).toISOString() } : { string: `memo-${i}` },
  }
}
