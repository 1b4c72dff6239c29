// Imports every given package entry point with plain Node, both as ESM (`import()`) and as CommonJS
// (`require()`, which works for ES modules on Node >= 20.19), and prints what it found as one JSON line.
//
// scripts/check-packages.mjs copies this file into a throwaway project whose node_modules hold the unpacked
// tarballs, so resolution goes through each package's `exports` exactly as it would for a user.
//
// Usage: node import-check.mjs '<json: [{ "spec": "@x/wire-format", "expect": { "encodeFrame": "function" } }]>'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const entries = JSON.parse(process.argv[2] ?? '[]')
const results = []

const kindOf = (value) => (value === undefined ? 'missing' : typeof value)
const problem = (error) =>
  `${error?.code ?? error?.name ?? 'Error'}: ${String(error?.message ?? error).split('\n')[0]}`

for (const { spec, expect } of entries) {
  const result = { spec, esm: null, cjs: null, names: [], errors: [] }
  let esm
  let cjs
  try {
    esm = await import(spec)
    result.esm = 'ok'
  } catch (error) {
    result.esm = 'failed'
    result.errors.push(`import('${spec}') threw ${problem(error)}`)
  }
  try {
    cjs = require(spec)
    result.cjs = 'ok'
  } catch (error) {
    result.cjs = 'failed'
    result.errors.push(`require('${spec}') threw ${problem(error)}`)
  }
  if (esm !== undefined) {
    result.names = Object.keys(esm)
      .filter((name) => name !== 'default' && name !== '__esModule' && name !== 'module.exports')
      .sort()
    if (cjs !== undefined) {
      const cjsNames = Object.keys(cjs)
        .filter((name) => name !== 'default' && name !== '__esModule' && name !== 'module.exports')
        .sort()
      if (cjsNames.join() !== result.names.join()) {
        result.errors.push(`require() gave other names than import(): ${cjsNames.join(', ')}`)
      }
      for (const name of result.names) {
        if (cjs[name] !== esm[name])
          result.errors.push(`require().${name} is not the same object as import().${name}`)
      }
    }
    // A shell (`export {}`) passes: there is nothing to check yet. Otherwise the known export must be there.
    if (result.names.length > 0) {
      for (const [name, kind] of Object.entries(expect ?? {})) {
        if (kindOf(esm[name]) !== kind)
          result.errors.push(`${name} should be a ${kind}, is ${kindOf(esm[name])}`)
      }
    }
  }
  results.push(result)
}

process.stdout.write(`${JSON.stringify(results)}\n`)
