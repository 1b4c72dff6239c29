// figures.mjs: figures in the documentation are generated (BENCHMARKS.md, RELIABILITY.md, the site's generated/
// pages, docs/install-size.md), never copied by hand into a README or a page, where they would go stale. A
// measurement here is a number with a unit of time (ns, µs or μs, ms) or a ratio (1.2×, 2x; not the hex prefix 0x);
// a figure that states a setting or a contract (a default, a timeout, a budget, a bound) may name a duration: one
// with such a word shortly before it in the same clause.

const MEASUREMENT = /\b\d[\d ,.]*\s?(?:ns|[µμ]s|ms)\b|\b\d+(?:\.\d+)?×|\b(?:[1-9]\d*|\d+\.\d+)x\b/g
const SETTING =
  /\b(?:default|timeout|timeoutMs|budget|at most|no more than|within|bound|limit|after|waits?|every)\b[^.;]{0,40}$/i

/** Whether `line` holds a measurement that no setting word shortly before it in its clause introduces. */
function holdsMeasurement(line) {
  for (const found of line.matchAll(MEASUREMENT)) {
    if (!SETTING.test(line.slice(0, found.index))) return true
  }
  return false
}

/** The lines of `text` that hold a hand-copied measurement: `{ line, text }`, fenced blocks left out. */
export function copiedFigures(text) {
  const found = []
  let fenced = false
  text.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    else if (!fenced && holdsMeasurement(line)) found.push({ line: index + 1, text: line.trim() })
  })
  return found
}
