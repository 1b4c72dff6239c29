import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { blocksOf, collect, includeProblems, includesOf, problemOf } from './blocks.mjs'

const root = join(import.meta.dirname, '..', '..')
const fence = '```'

describe('blocksOf', () => {
  it('reads each fenced block with its language, its marks, its line and its code', () => {
    const text = `# t\n\n${fence}js run\nconsole.log(1)\n${fence}\n\n${fence}sh command\nnpm test\n${fence}\n`
    expect(blocksOf(text)).toEqual([
      { line: 3, lang: 'js', marks: ['run'], kind: 'js', code: 'console.log(1)\n' },
      { line: 7, lang: 'sh', marks: ['command'], kind: undefined, code: 'npm test\n' },
    ])
  })

  it('removes the indentation of a fence inside a list item from its code', () => {
    const text = `- step:\n\n  ${fence}sh run\n  npm install @x/serde\n    --save\n  ${fence}\n`
    expect(blocksOf(text)[0]?.code).toBe('npm install @x/serde\n  --save\n')
  })

  it('reads a fence without a language as a block with no language and no mark', () => {
    expect(blocksOf(`${fence}\n00 01\n${fence}\n`)).toEqual([
      { line: 1, lang: '', marks: [], kind: undefined, code: '00 01\n' },
    ])
  })
})

describe('problemOf', () => {
  it('refuses a block with no mark, naming the marks to choose from', () => {
    const [block] = blocksOf(`${fence}ts\nconst a = 1\n${fence}\n`)
    expect(problemOf(block!)).toBe(
      'unmarked block (```ts): mark it run, fragment, command, output in its info string',
    )
  })

  it('refuses run on a language the runner cannot run, and two marks on one block', () => {
    const [yaml, both] = blocksOf(`${fence}yaml run\na: 1\n${fence}\n${fence}ts run fragment\nx\n${fence}\n`)
    expect(problemOf(yaml!)).toBe('block marked run in a language the runner cannot run (yaml): js, ts or sh')
    expect(problemOf(both!)).toBe('block marked run and fragment: one mark only')
  })

  it('accepts every mark on a block the runner can run or skip', () => {
    const text = ['js run', 'ts run', 'sh run', 'ts fragment', 'sh command', 'text output']
      .map((info) => `${fence}${info}\nx\n${fence}\n`)
      .join('')
    expect(blocksOf(text).map(problemOf)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })
})

describe('includes of site pages', () => {
  it('reads the path of each <<< include, without its language or line marks', () => {
    expect(includesOf('<<< @/snippets/a.mjs{js}\ntext\n<<< @/../../examples/kafka/src/main.ts\n')).toEqual([
      'snippets/a.mjs',
      '../../examples/kafka/src/main.ts',
    ])
  })

  it('refuses an include of a missing file and of a file that no test runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-blocks-'))
    mkdirSync(join(dir, 'docs', 'site', 'snippets'), { recursive: true })
    writeFileSync(join(dir, 'docs', 'site', 'snippets', 'ok.mjs'), '')
    writeFileSync(join(dir, 'docs', 'site', 'loose.mjs'), '')
    const page = '<<< @/snippets/ok.mjs\n<<< @/snippets/gone.mjs\n<<< @/loose.mjs\n'
    expect(includeProblems(dir, join('docs', 'site', 'page.md'), page)).toEqual([
      'docs/site/page.md: <<< @/snippets/gone.mjs: no such file',
      'docs/site/page.md: <<< @/loose.mjs: not a tested file (docs/site/snippets or examples/*/src)',
    ])
  })
})

describe('the documentation of this repository', () => {
  it('marks every block of every README and site page, and includes only tested files', () => {
    const { files, problems } = collect(root)
    expect(problems).toEqual([])
    expect(files.map((f) => f.file)).toEqual(
      expect.arrayContaining(['README.md', 'packages/serde/README.md']),
    )
  })

  it('prints in the root README and in @x/serde README the quickstart snippet that the site shows', () => {
    const snippet = readFileSync(join(root, 'docs', 'site', 'snippets', 'quickstart.mjs'), 'utf8')
    for (const readme of ['README.md', join('packages', 'serde', 'README.md')]) {
      const programs = blocksOf(readFileSync(join(root, readme), 'utf8')).filter((b) => b.kind === 'js')
      expect(programs.map((b) => b.code)).toEqual([snippet])
    }
  })
})
