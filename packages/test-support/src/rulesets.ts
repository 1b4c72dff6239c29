import type { ContractRule, ContractRuleAction, ContractRuleMode, ContractRuleSet } from '@x/registry-client'

function rule(
  kind: ContractRule['kind'],
  type: string,
  name: string,
  mode: ContractRuleMode,
  expr: string,
  onFailure: ContractRuleAction | undefined,
): ContractRule {
  return { name, kind, type, mode, expr, ...(onFailure === undefined ? {} : { onFailure }) }
}

/** A CEL condition: fails the record when `expr` is false; `onFailure` left out when not given. */
export function celCondition(
  name: string,
  mode: ContractRuleMode,
  expr: string,
  onFailure?: ContractRuleAction,
): ContractRule {
  return rule('CONDITION', 'CEL', name, mode, expr, onFailure)
}

/** A JSONata transform: rewrites the record to what `expr` gives; `onFailure` left out when not given. */
export function jsonataTransform(
  name: string,
  mode: ContractRuleMode,
  expr: string,
  onFailure?: ContractRuleAction,
): ContractRule {
  return rule('TRANSFORM', 'JSONATA', name, mode, expr, onFailure)
}

/** A ruleset of domain rules only. */
export function domainRules(...rules: ContractRule[]): ContractRuleSet {
  return { domainRules: rules, migrationRules: [] }
}

/** A ruleset of migration rules only. */
export function migrationRules(...rules: ContractRule[]): ContractRuleSet {
  return { domainRules: [], migrationRules: rules }
}

/**
 * The rules of a key `{ id }` written with a schema: `prefixed` (WRITE, the id starts with `prefix`, ERROR) and
 * `short` (READ, an id of under 6 characters, DLQ).
 */
export function keyRules(prefix: string): ContractRuleSet {
  return domainRules(
    celCondition('prefixed', 'WRITE', `id.startsWith("${prefix}")`, 'ERROR'),
    celCondition('short', 'READ', 'size(id) < 6', 'DLQ'),
  )
}

/** Version 1 of a ledger record (`id`, `amount`) and version 2 (plus `currency`, default `EUR`), named `name`. */
export function ledgerSchemas(name: string): { v1: object; v2: object } {
  const fields = [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'double' },
  ]
  return {
    v1: { type: 'record', name, fields },
    v2: { type: 'record', name, fields: [...fields, { name: 'currency', type: 'string', default: 'EUR' }] },
  }
}

/**
 * The migration rules between the two ledger versions, as the registry runs them (each hop's target version's):
 * version 2's going up — `add-currency` (a transform setting `currency`, `addCurrency` by default `"EUR"`) then
 * `small` (`amount < 1000.0`, DLQ) — and version 1's going down — `euro-only` (`currency == "EUR"`, DLQ) then
 * `drop-currency` (a transform removing `currency`).
 */
export function ledgerMigrations(
  options: { addCurrency?: string; addCurrencyOnFailure?: ContractRuleAction } = {},
): { '1': ContractRuleSet; '2': ContractRuleSet } {
  return {
    '2': migrationRules(
      jsonataTransform(
        'add-currency',
        'UPGRADE',
        `$merge([$, {"currency": ${options.addCurrency ?? '"EUR"'}}])`,
        options.addCurrencyOnFailure,
      ),
      celCondition('small', 'UPGRADE', 'amount < 1000.0', 'DLQ'),
    ),
    '1': migrationRules(
      celCondition('euro-only', 'DOWNGRADE', 'currency == "EUR"', 'DLQ'),
      jsonataTransform('drop-currency', 'DOWNGRADE', '$sift($, function($v, $k) {$k != "currency"})'),
    ),
  }
}
