// figures.mjs: figures in the documentation are generated (BENCHMARKS.md, RELIABILITY.md, the site's generated/
// pages, docs/install-size.md), never copied by hand into a README or a page, where they would go stale. A
// measurement here is a number with a unit of time (ns, µs, ms) or a ratio (1.2×); a line that states a setting or a
// contract (a default, a timeout, a budget, a bound) may name a duration.

const MEASUREMENT = /\b\d[\d ,.]*\s?(?:ns|µs|ms)\b|\b\d+(?:\.\d+)?×/
const SETTING =
  /\b(?:default|timeout|timeoutMs|budget|at most|no more than|within|bound|limit|after|waits?|every)\b/i

/** The lines of `text` that hold a hand-copied measurement: `{ line, text }`, fenced blocks left out. */
export function copiedFigures(text) {
  const found = []
  let fenced = false
  text.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    else if (!fenced && MEASUREMENT.test(line) && !SETTING.test(line))
      found.push({ line: index + 1, text: line.trim() })
  })
  return found
}
