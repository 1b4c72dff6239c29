import { describe, expect, it } from 'vitest'
import { RulesEngine } from './rules-engine.js'
import type { Rule } from './types.js'

const engine = new RulesEngine()
const condition = (expr: string): Rule => ({
  name: 'r',
  kind: 'CONDITION',
  type: 'CEL',
  mode: 'WRITE',
  expr,
  onFailure: 'ERROR',
})
const verdict = (expr: string, record: Record<string, unknown>) =>
  engine.execute(engine.compile({ domainRules: [condition(expr)] }), { mode: 'WRITE', record })
const message = (expr: string, record: Record<string, unknown>) =>
  verdict(expr, record).violations[0]?.message

describe("CEL's matches", () => {
  it('answers a pattern that backtracks exponentially in linear time', () => {
    verdict('x.matches("a")', { x: 'a' }) // loads the regular-expression engine
    const started = performance.now()
    const result = verdict('x.matches("(a+)+$")', { x: `${'a'.repeat(30)}!` })
    const elapsed = performance.now() - started
    expect(result.violations).toEqual([{ ruleName: 'r', message: 'Condition failed: r', action: 'ERROR' }])
    expect(elapsed).toBeLessThan(50)
  })

  it('answers the function form matches(text, pattern) in linear time too', () => {
    const started = performance.now()
    expect(verdict('matches(x, "(a+)+$")', { x: `${'a'.repeat(30)}!` }).passed).toBe(false)
    expect(verdict('matches(x, "(a+)+$")', { x: 'a'.repeat(30) }).passed).toBe(true)
    expect(performance.now() - started).toBeLessThan(50)
  })

  it('searches anywhere in the text unless anchored, as RE2 does', () => {
    expect(verdict('x.matches("b+")', { x: 'abbc' }).passed).toBe(true)
    expect(verdict('x.matches("^b+")', { x: 'abbc' }).passed).toBe(false)
  })

  it('takes RE2 inline flags and classes: (?i), (?s), [[:alpha:]], \\pL', () => {
    expect(verdict('x.matches("(?i)^abc$")', { x: 'ABC' }).passed).toBe(true)
    expect(verdict('x.matches("^a.b$")', { x: 'a\nb' }).passed).toBe(false)
    expect(verdict('x.matches("(?s)^a.b$")', { x: 'a\nb' }).passed).toBe(true)
    expect(verdict('x.matches("^[[:alpha:]]+$")', { x: 'abc' }).passed).toBe(true)
    expect(verdict('x.matches("^\\\\pL+$")', { x: 'ÆØÅ' }).passed).toBe(true)
  })

  it('refuses a constant backreference before evaluation, naming RE2', () => {
    expect(message('x.matches("(a)\\\\1")', { x: 'aa' })).toBe(
      'CEL evaluation error: CEL compilation failed: check failed: ERROR: <input>:1:11: invalid regular expression ' +
        '"(a)\\\\1": error parsing regexp: invalid escape sequence: `\\1` (RE2 syntax: no backreferences or ' +
        'lookarounds)\n | x.matches("(a)\\\\1")\n | ..........^',
    )
  })

  it('refuses a constant lookahead and lookbehind before evaluation', () => {
    expect(message('x.matches("a(?=b)")', { x: 'ab' })).toContain(
      'check failed: ERROR: <input>:1:11: invalid regular expression "a(?=b)": error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    )
    expect(message('matches(x, "(?<=a)b")', { x: 'ab' })).toContain(
      'check failed: ERROR: <input>:1:12: invalid regular expression "(?<=a)b"',
    )
  })

  it('fails a pattern from the record that is not RE2 syntax when evaluated', () => {
    expect(message('x.matches(p)', { x: 'ab', p: '(?!a)' })).toBe(
      'CEL evaluation error: CEL evaluation failed: invalid regular expression "(?!a)": error parsing regexp: ' +
        'invalid or unsupported Perl syntax: `(?!` (RE2 syntax: no backreferences or lookarounds)',
    )
  })

  it('names matches, not its RE2 implementation, when the receiver is not a string', () => {
    expect(message('x.matches("a")', { x: 1 })).toBe(
      "CEL evaluation error: CEL evaluation failed: found no matching overload for 'int.matches(string)'",
    )
  })
})

describe('an empty CEL expression', () => {
  it('passes every record, as the registry passes it', () => {
    for (const expr of ['', '   ', '\n\t']) {
      expect(verdict(expr, { x: 1 })).toEqual({
        passed: true,
        violations: [],
        executedRules: 1,
        failedRules: 0,
      })
    }
    const compiled = engine.compile({
      domainRules: [{ name: 'none', kind: 'CONDITION', type: 'CEL', mode: 'WRITE' }],
    })
    expect(engine.execute(compiled, { mode: 'WRITE', record: {} }).passed).toBe(true)
  })
})

describe('the evaluation budget of a CEL rule', () => {
  it('stops comprehensions nested over a list of the record within timeoutMs', () => {
    const items = Array.from({ length: 3_000 }, (_, index) => index)
    const started = performance.now()
    const result = verdict('items.all(x, items.all(y, x >= 0))', { items })
    expect(performance.now() - started).toBeLessThan(300)
    expect(result.violations).toEqual([
      {
        ruleName: 'r',
        message:
          'CEL evaluation error: CEL evaluation failed: The expression ran out of its evaluation budget: it ran longer than 50 ms',
        action: 'ERROR',
      },
    ])
  })

  it('runs nested comprehensions that finish within the budget', () => {
    const items = [1, 2, 3]
    expect(verdict('items.all(x, items.exists(y, y == x))', { items }).passed).toBe(true)
    expect(verdict('items.map(x, items.map(y, x * y)).size() == 3', { items }).passed).toBe(true)
  })
})

describe('the size of a regular expression', () => {
  it('refuses a pattern compiling to more than MAX_PROGRAM_SIZE instructions, which would match slowly', () => {
    expect(message('x.matches(".{1000}.{1000}")', { x: 'a' })).toContain(
      'check failed: ERROR: <input>:1:11: The regular expression ".{1000}.{1000}" compiles to 2002 instructions, more than the 1000 a rule may use (a bounded repetition counts each repeat)',
    )
    const started = performance.now()
    expect(message('x.matches(p)', { x: 'a'.repeat(65_000), p: '.{1000}'.repeat(5) })).toBe(
      'CEL evaluation error: CEL evaluation failed: The regular expression ".{1000}.{1000}.{1000}.{1000}.{1000}" compiles to 5002 instructions, more than the 1000 a rule may use (a bounded repetition counts each repeat)',
    )
    expect(performance.now() - started).toBeLessThan(100)
  })

  it('refuses a pattern longer than MAX_PATTERN_LENGTH before compiling it', () => {
    const pattern = Array.from({ length: 10_000 }, (_, index) => `a${index}`).join('|')
    const started = performance.now()
    expect(message('x.matches(p)', { x: 'a1', p: pattern })).toBe(
      `CEL evaluation error: CEL evaluation failed: The regular expression is ${pattern.length} characters long, longer than the 1000 a rule may use`,
    )
    expect(performance.now() - started).toBeLessThan(50)
  })

  it('matches a 64 KiB text with the largest program allowed quickly', () => {
    const started = performance.now()
    expect(verdict('x.matches("[a-z]{990}$")', { x: 'a'.repeat(65_000) }).passed).toBe(true)
    expect(performance.now() - started).toBeLessThan(150)
  })
})
