/**
 * The undocumented Node APIs the serdes call on hot paths, in one list, each with what it is used for and how to tell
 * that the running Node still has it in the shape relied on. Every user has a documented fallback for when one is
 * missing; the format packages' surface checks include {@link findNodeProblems}, and a test runs each fallback.
 */

/**
 * One undocumented Node API the serdes use.
 *
 * Not public API: exported only from the `./internal` entry point, for the format packages.
 */
export interface NodeInternal {
  /** As Node names it: `Buffer#utf8Slice`. */
  readonly name: string
  /** What the serdes do with it, and the documented call used instead when it is missing. */
  readonly use: string
  /** What is wrong with it in the running Node, or `undefined` when it has the shape relied on. */
  problem(): string | undefined
}

type Utf8Sliced = Buffer & { utf8Slice?(start: number, end: number): string }

function utf8SliceProblem(): string | undefined {
  const slice = (Buffer.prototype as Utf8Sliced).utf8Slice
  if (typeof slice !== 'function') return 'missing'
  const bytes = Buffer.from('xaé€😀x', 'utf8')
  let text: unknown
  try {
    text = slice.call(bytes, 1, bytes.length - 1)
  } catch (error) {
    return `throws: ${(error as Error).message}`
  }
  return text === 'aé€😀' ? undefined : `gives ${JSON.stringify(text)} for the UTF-8 bytes of "aé€😀"`
}

/**
 * Every undocumented Node API used, checked by {@link findNodeProblems}.
 *
 * Not public API: exported only from the `./internal` entry point, for the format packages.
 */
export const NODE_INTERNALS: readonly NodeInternal[] = [
  {
    name: 'Buffer#utf8Slice',
    use:
      'JSON Schema payloads decoded as text (what Buffer#toString("utf8", start, end) calls after checking its ' +
      'arguments, about 50 ns less per message); `toString("utf8", start, end)` when missing',
    problem: utf8SliceProblem,
  },
]

/**
 * The entries that do not hold in the running Node, as `name: problem` lines (empty when every one holds).
 *
 * Not public API: exported only from the `./internal` entry point, for the format packages.
 */
export function findNodeProblems(): string[] {
  const problems: string[] = []
  for (const internal of NODE_INTERNALS) {
    const problem = internal.problem()
    if (problem !== undefined) problems.push(`${internal.name}: ${problem} (used for: ${internal.use})`)
  }
  return problems
}

/**
 * Whether `Buffer#utf8Slice` can be called, decided once at load: the documented `toString` is used when not.
 *
 * Not public API: exported only from the `./internal` entry point, for the format packages.
 */
export const HAS_UTF8_SLICE: boolean = utf8SliceProblem() === undefined
