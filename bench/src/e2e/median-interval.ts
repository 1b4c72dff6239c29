/** A confidence interval of a median: two of the sorted values, and how often such an interval holds the median. */
export interface MedianInterval {
  low: number
  high: number
  /** The probability that the interval holds the true median, for independent rounds: at least the one asked. */
  coverage: number
}

/** P(X ≤ k) for X binomial with `n` trials of probability ½. */
function binomialHalfAtMost(n: number, k: number): number {
  let term = 0.5 ** n
  let sum = term
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i
    sum += term
  }
  return sum
}

/**
 * The distribution-free confidence interval of the median of `values` (independent draws of one quantity): the
 * k-th smallest and the k-th largest value, with k the largest for which the chance that the median lies outside is
 * at most `1 − confidence`. It assumes nothing about the spread, so it is wide for few values; under 6 values no
 * interval reaches 95 % and `undefined` is returned.
 *
 * @param confidence - The least coverage wanted, between 0 and 1. @default 0.95
 * @throws TypeError for a `confidence` not between 0 and 1.
 */
export function medianInterval(values: readonly number[], confidence = 0.95): MedianInterval | undefined {
  if (!(confidence > 0 && confidence < 1)) {
    throw new TypeError(`confidence must be between 0 and 1, got ${confidence}`)
  }
  const n = values.length
  const tail = (1 - confidence) / 2
  // The true median lies below the k-th smallest value when fewer than k values fall below it: P(X ≤ k − 1), and
  // above the k-th largest as often. P(X ≤ n) is 1, so the loop ends.
  let k = 0
  while (binomialHalfAtMost(n, k) <= tail) k++
  if (k === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  return {
    low: sorted[k - 1]!,
    high: sorted[n - k]!,
    coverage: 1 - 2 * binomialHalfAtMost(n, k - 1),
  }
}
