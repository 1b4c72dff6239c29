import { describe, expect, it } from 'vitest'
import { mergeRuleSets } from './merge-rule-sets.js'
import type { Rule } from './types.js'

const rule = (name: string, expr = 'true'): Rule => ({
  name,
  kind: 'CONDITION',
  type: 'CEL',
  mode: 'WRITE',
  expr,
})
const names = (rules: Rule[] | undefined) => rules?.map((item) => `${item.name}:${item.expr}`)

describe('mergeRuleSets', () => {
  it('replaces a same-named rule of an earlier level and orders by position within each level', () => {
    const merged = mergeRuleSets(
      undefined,
      { domainRules: [rule('b'), rule('a'), rule('d')] },
      { domainRules: [rule('e'), rule('c'), rule('a', 'false')] },
    )
    expect(names(merged.domainRules)).toEqual(['b:true', 'e:true', 'c:true', 'd:true', 'a:false'])
  })

  it('puts the global level first at equal positions and merges migration rules apart from domain rules', () => {
    const merged = mergeRuleSets(
      { domainRules: [rule('g')], migrationRules: [rule('m')] },
      { domainRules: [rule('a')] },
      { domainRules: [rule('v')], migrationRules: [rule('g', '1 == 1')] },
    )
    expect(names(merged.domainRules)).toEqual(['g:true', 'a:true', 'v:true'])
    expect(names(merged.migrationRules)).toEqual(['m:true', 'g:1 == 1'])
  })

  it('gives empty lists when no level has rules', () => {
    expect(mergeRuleSets()).toEqual({ domainRules: [], migrationRules: [] })
  })
})
