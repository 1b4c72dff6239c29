import { readFileSync } from 'node:fs'
import { formatWithOptions } from 'node:util'
import { expect, it } from 'vitest'
import * as wireFormat from './index.js'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

it('runs the README example and prints exactly what its comments say', async () => {
  const block = /## Example[^\n]*\n[\s\S]*?```js[^\n]*\n([\s\S]*?)```/.exec(readme)?.[1]
  expect(block).toBeDefined()
  const source = block as string
  const importLine = /^import \{([^}]+)\} from '@x\/wire-format'\n/.exec(source)
  expect(importLine).not.toBeNull()
  const names = importLine![1]!
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  expect(names.length).toBe(6)
  for (const name of names) expect(wireFormat).toHaveProperty(name)

  const expected = [...source.matchAll(/\/\/ → (.*)$/gm)].map((match) => match[1])
  expect(expected.length).toBe(7)
  const printed: string[] = []
  const fakeConsole = {
    log: (...args: unknown[]) => printed.push(formatWithOptions({ colors: false }, ...args)),
  }
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>
  const body = source.slice(importLine![0].length)
  const run = new AsyncFunction(...names, 'console', body)
  await run(...names.map((name) => (wireFormat as Record<string, unknown>)[name]), fakeConsole)
  expect(printed).toEqual(expected)
})
