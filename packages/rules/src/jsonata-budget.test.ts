import { describe, expect, it } from 'vitest'
import { MAX_JSONATA_DEPTH, MAX_JSONATA_NESTING, MAX_JSONATA_RANGE } from './jsonata-guard.js'
import { RulesEngine } from './rules-engine.js'
import type { Rule } from './types.js'

const transform = (expr: string): Rule => ({
  name: 't',
  kind: 'TRANSFORM',
  type: 'JSONATA',
  mode: 'WRITE',
  expr,
  onFailure: 'ERROR',
})

/**
 * The verdict of `expr` on `record`, and how long compiling and executing took. The time bounds below leave room for
 * a loaded machine: unbounded, each of these expressions takes from half a second to minutes.
 */
function timed(expr: string, record: Record<string, unknown> = { x: 1 }, engine = new RulesEngine()) {
  const started = performance.now()
  const result = engine.execute(engine.compile({ domainRules: [transform(expr)] }), { mode: 'WRITE', record })
  return { result, elapsed: performance.now() - started, message: result.violations[0]?.message }
}

const PREFIX =
  'JSONata evaluation error: JSONata evaluation failed: The expression ran out of its evaluation budget: '

describe('the evaluation budget of a JSONata rule', () => {
  it('stops an infinite recursion as a violation within its time budget', () => {
    const { result, elapsed, message } = timed('(function($f) { $f($f) })(function($f) { $f($f) })')
    expect(result.passed).toBe(false)
    expect(message).toBe(`${PREFIX}it ran longer than 50 ms`)
    expect(elapsed).toBeLessThan(200)
  })

  it('takes the time budget from the engine option timeoutMs', () => {
    const engine = new RulesEngine({ timeoutMs: 5 })
    const { message, elapsed } = timed('(function($f) { $f($f) })(function($f) { $f($f) })', {}, engine)
    expect(message).toBe(`${PREFIX}it ran longer than 5 ms`)
    expect(elapsed).toBeLessThan(100)
  })

  it('refuses a timeoutMs that is not a positive number as misuse', () => {
    for (const [timeoutMs, shown] of [
      [0, '0'],
      [-1, '-1'],
      [Number.NaN, 'NaN'],
      ['5', 'string'],
    ] as const) {
      expect(() => new RulesEngine({ timeoutMs: timeoutMs as number })).toThrow(
        expect.objectContaining({
          name: 'TypeError',
          code: 'INVALID_CONFIG',
          message: `timeoutMs must be a positive number of milliseconds, not ${shown}`,
        }),
      )
    }
    expect(new RulesEngine({ timeoutMs: Number.POSITIVE_INFINITY })).toBeInstanceOf(RulesEngine)
  })

  it('refuses a range of ten million items before building it', () => {
    const { result, elapsed } = timed('[1..10000000]')
    expect(result.violations).toEqual([
      {
        ruleName: 't',
        message: `${PREFIX}the range [1..10000000] holds more than 100000 items`,
        action: 'ERROR',
      },
    ])
    expect(elapsed).toBeLessThan(100)
  })

  it('refuses a huge range built from the record, and inside $eval', () => {
    expect(timed('[1..x]', { x: 5_000_000 }).message).toBe(
      `${PREFIX}the range [1..5000000] holds more than 100000 items`,
    )
    const inEval = timed('$eval("[0..9999999]")')
    expect(inEval.message).toBe(`${PREFIX}the range [0..9999999] holds more than 100000 items`)
    expect(inEval.elapsed).toBeLessThan(100)
  })

  it('builds a range of the most items allowed', () => {
    const { result } = timed(`{"n": $count([1..${MAX_JSONATA_RANGE}])}`)
    expect(result.transformedRecord).toEqual({ n: MAX_JSONATA_RANGE })
  })

  it('stops a recursion deeper than MAX_JSONATA_DEPTH before the stack overflows', () => {
    // with time enough to reach the depth limit
    const engine = new RulesEngine({ timeoutMs: 60_000 })
    const recursion = '($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(100000))'
    expect(timed(recursion, {}, engine).message).toBe(
      `${PREFIX}its evaluation nests deeper than ${MAX_JSONATA_DEPTH} levels`,
    )
    expect(
      timed('{"n": ($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(20))}').result.transformedRecord,
    ).toEqual({ n: 20 })
  })

  it('refuses brackets nested deeper than MAX_JSONATA_NESTING when compiled', () => {
    const depth = 2_000
    const { message, elapsed } = timed(`${'$not('.repeat(depth)}true${')'.repeat(depth)}`)
    expect(message).toBe(
      `JSONata evaluation error: JSONata compilation failed: The expression nests brackets deeper than ${MAX_JSONATA_NESTING} levels (at offset 504), more than a rule may`,
    )
    expect(elapsed).toBeLessThan(100)
    // the object's brace and as many calls as may nest within it
    const ok = MAX_JSONATA_NESTING - 1
    expect(timed(`{"b": ${'$not('.repeat(ok)}true${')'.repeat(ok)}}`).result.transformedRecord).toEqual({
      b: false,
    })
  })

  it('does not count brackets inside strings', () => {
    const text = '('.repeat(300)
    expect(timed(`{"s": "${text}" & '${text}'}`).result.transformedRecord).toEqual({ s: text + text })
  })
})

describe('a JSONata regular expression', () => {
  it('answers a pattern that backtracks exponentially in linear time', () => {
    timed('$match(x, /a/)', { x: 'a' }) // loads the regular-expression engine
    const { result, elapsed } = timed('{"m": $match(x, /(a+)+$/)}', { x: `${'a'.repeat(30)}!` })
    expect(result.transformedRecord).toEqual({})
    expect(elapsed).toBeLessThan(50)
  })

  it('matches as JSONata does with a JavaScript RegExp', () => {
    const jsonata = require('jsonata') as (expr: string) => { evaluate(input: unknown): unknown }
    const exprs = [
      '$match(x, /(b)(x)?/i)',
      '$replace(x, /a|(c)/, "[$1]")',
      '$split(x, /\\s/)',
      '$match(x, /^\\w+$/m)',
    ]
    for (const expr of exprs) {
      const record = { x: 'aBcb\nab c\nxyz' }
      const native = JSON.parse(JSON.stringify({ v: jsonata(expr).evaluate(record) ?? null }))
      expect(
        JSON.parse(JSON.stringify(timed(`{"v": ${expr}}`, record).result.transformedRecord)),
        expr,
      ).toEqual(native)
    }
  })

  it('matches as JSONata documents: every match, its index and groups, and the i flag', () => {
    const { result } = timed('{"m": $match(x, /(b)(x)?/i)}', { x: 'aBcb' })
    expect(result.transformedRecord).toEqual({
      m: [
        { match: 'B', index: 1, groups: ['B', undefined] },
        { match: 'b', index: 3, groups: ['b', undefined] },
      ],
    })
    expect(
      timed(
        '{"r": $replace(x, /(\\w+) (\\w+)/, "$2 $1"), "s": $split(x, /\\s+/), "c": $contains(x, /^A/m)}',
        {
          x: 'one two\nAb',
        },
      ).result.transformedRecord,
    ).toEqual({ r: 'two one\nAb', s: ['one', 'two', 'Ab'], c: true })
  })

  it('refuses a backreference or a lookaround when compiled, naming RE2', () => {
    expect(timed('$match(x, /(a)\\1/)').message).toBe(
      'JSONata evaluation error: JSONata compilation failed: invalid regular expression "(a)\\\\1": error parsing ' +
        'regexp: invalid escape sequence: `\\1` (RE2 syntax: no backreferences or lookarounds)',
    )
    expect(timed('$match(x, /a(?=b)/)').message).toContain('invalid or unsupported Perl syntax: `(?=`')
  })

  it('refuses a pattern compiling to more than 1000 instructions when compiled', () => {
    expect(timed('$match(x, /.{1000}.{1000}/)').message).toBe(
      'JSONata evaluation error: JSONata compilation failed: The regular expression ".{1000}.{1000}" compiles to 2002 instructions, more than the 1000 a rule may use (a bounded repetition counts each repeat)',
    )
  })

  it('leaves the jsonata module as it found it for its other users', () => {
    const jsonata = require('jsonata') as { (expr: string): unknown; RegexEngine: unknown }
    jsonata('1')
    expect(jsonata.RegexEngine).toBe(RegExp)
    timed('$match(x, /a/)', { x: 'a' })
    expect(jsonata.RegexEngine).toBe(RegExp)
  })
})
