/** A seeded pseudo-random generator (mulberry32): the same seed gives the same cases on every machine. */
export function seeded(seed) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    /** An integer in [0, n). */
    below: (n) => Math.floor(next() * n),
    /** One item of `items`. */
    pick: (items) => items[Math.floor(next() * items.length)],
  }
}

/** A deep copy of plain JSON data. */
export const clone = (value) => structuredClone(value)

/** `text` as an artifact id: lower case, words joined with `-`. */
export const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/**
 * Cases from mutations of `bases`: each mutation applied once to each base it fits (one version to the next, both
 * ways round, under BACKWARD, FORWARD and FULL), then `chains` chains of 3 to 5 versions, each the previous one
 * mutated at random, under the six levels other than NONE, and NONE once per format.
 */
export function casesFrom({ format, bases, mutations, chains, seed, render }) {
  const out = []
  const random = seeded(seed)
  for (const base of bases) {
    for (const mutation of mutations) {
      let mutated
      try {
        mutated = mutation.apply(clone(base.schema))
      } catch {
        continue
      }
      const before = render(base.schema)
      const after = render(mutated)
      if (before === after) continue
      for (const [direction, existing, proposed] of [
        ['forth', before, after],
        ['back', after, before],
      ]) {
        for (const level of ['BACKWARD', 'FORWARD', 'FULL']) {
          out.push({
            id: slug(`${format}-${base.name}-${mutation.name}-${direction}-${level}`),
            format,
            level,
            mutation: direction === 'forth' ? mutation.name : `undo ${mutation.name}`,
            existing: [existing],
            proposed,
            ...(base.references === undefined ? {} : { references: base.references }),
          })
        }
      }
    }
  }
  for (let chain = 0; chain < chains; chain++) {
    const base = random.pick(bases)
    const length = 3 + random.below(3)
    const versions = [clone(base.schema)]
    const steps = []
    let attempts = 0
    while (versions.length < length && attempts++ < 100) {
      const mutation = random.pick(mutations)
      try {
        const next = mutation.apply(clone(versions.at(-1)))
        if (render(next) === render(versions.at(-1))) continue
        versions.push(next)
        steps.push(mutation.name)
      } catch {}
    }
    if (versions.length < 3) continue
    const texts = versions.map(render)
    for (const level of [
      'BACKWARD',
      'BACKWARD_TRANSITIVE',
      'FORWARD',
      'FORWARD_TRANSITIVE',
      'FULL',
      'FULL_TRANSITIVE',
    ]) {
      out.push({
        id: `${format.toLowerCase()}-chain${chain}-${level.toLowerCase()}`,
        format,
        level,
        mutation: `chain of ${texts.length}: ${steps.join(', ')}`,
        existing: texts.slice(0, -1),
        proposed: texts.at(-1),
        ...(base.references === undefined ? {} : { references: base.references }),
      })
    }
  }
  const first = out[0]
  out.push({
    ...first,
    id: `${format.toLowerCase()}-none`,
    level: 'NONE',
    mutation: `${first.mutation}, level NONE`,
  })
  return out
}
