// Cost per evaluation of the same CEL expressions in @bufbuild/cel and @marcbachmann/cel-js, each parsed once:
//   node packages/rules/bench/cel-engines.mjs   (after `pnpm build`)
import { celEnv, parse, plan } from '@bufbuild/cel'
import { Environment } from '@marcbachmann/cel-js'
import { RulesEngine } from '../dist/index.js'

const CASES = [
  ['total > 0.0', { total: 19.99 }],
  ['qty > 0 && name.startsWith("W") && size(tags) == 2', { qty: 3n, name: 'Widget', tags: ['a', 'b'] }],
  ['items.all(i, i.price > 0.0)', { items: [{ price: 2.5 }, { price: 10.5 }, { price: 1.25 }] }],
]

function measure(label, fn) {
  for (let i = 0; i < 200_000; i++) fn()
  let best = Number.POSITIVE_INFINITY
  for (let round = 0; round < 5; round++) {
    const n = 500_000
    const start = process.hrtime.bigint()
    for (let i = 0; i < n; i++) fn()
    best = Math.min(best, Number(process.hrtime.bigint() - start) / n)
  }
  console.log(`${label.padEnd(70)} ${best.toFixed(0).padStart(6)} ns`)
}

const env = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false })
const bufEnv = celEnv()
for (const [expr, vars] of CASES) {
  const cjs = env.parse(expr)
  measure(`@marcbachmann/cel-js  ${expr}`, () => cjs(vars))
  const planned = plan(bufEnv, parse(expr))
  measure(`@bufbuild/cel         ${expr}`, () => planned(vars))
}
const engine = new RulesEngine()
const compiled = engine.compile({
  domainRules: [{ name: 'positive', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr: 'total > 0.0' }],
})
const record = { id: 42, total: 19.99, name: 'Widget' }
measure('RulesEngine#execute, one CEL condition (total > 0.0)', () =>
  engine.execute(compiled, { mode: 'WRITE', record }),
)
const masked = engine.compile({
  domainRules: [
    { name: 'mask', kind: 'TRANSFORM', type: 'JSONATA', mode: 'READ', expr: '$merge([$, {"name": "***"}])' },
  ],
})
measure('RulesEngine#execute, one JSONata transform ($merge)', () =>
  engine.execute(masked, { mode: 'READ', record }),
)
