// blocks.mjs: the code blocks of the documentation (every README.md of the repository and every page of the site),
// each with what its info string says it is. A block is marked in its info string, after the language:
//   ```js run        a program: run as printed, in a clean app installed from the release registry, on Node 20, 22
//                    and 24 (js: as an .mjs file; ts: type-checked strictly and run; sh: the commands, in the app)
//   ```ts fragment   part of a program, or a configuration: shown, not run
//   ```sh command    command lines to read or adapt (contributor commands, a broker of your own): not run
//   ```text output   what a command prints, or any other text that is not code
// A block with none of these is an error: nothing is silently skipped. Site pages show programs through `<<<`
// includes of tested files (docs/site/snippets, examples/*/src) instead of fenced copies.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, normalize, relative } from 'node:path'

export const MARKS = ['run', 'fragment', 'command', 'output']
const RUNNABLE = {
  js: 'js',
  mjs: 'js',
  javascript: 'js',
  ts: 'ts',
  mts: 'ts',
  typescript: 'ts',
  sh: 'sh',
  bash: 'sh',
}
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  '.vitepress',
  '.git',
  '.turbo',
  'api',
  'generated',
  'public',
])

/** Every README.md under the root (outside node_modules and build output) and every page under docs/site. */
export function documentationFiles(root) {
  const found = []
  const walk = (dir, pages) => {
    for (const name of readdirSync(dir).sort()) {
      if (SKIPPED_DIRS.has(name) || name.startsWith('.')) continue
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path, pages || relative(root, path) === join('docs', 'site'))
      else if (name === 'README.md' || (pages && name.endsWith('.md'))) found.push(relative(root, path))
    }
  }
  walk(root, false)
  return found
}

/**
 * The fenced blocks of one markdown text: `{ line, lang, marks, kind, code }`, `kind` being 'js', 'ts' or 'sh' for a
 * block marked `run`. A fence may be indented (inside a list item); its indentation is removed from the code.
 */
export function blocksOf(text) {
  const lines = text.split('\n')
  const blocks = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})(.*)$/.exec(lines[i])
    if (!open) continue
    const [, indent, fence, info] = open
    const [lang = '', ...marks] = info.trim().split(/\s+/).filter(Boolean)
    const body = []
    let j = i + 1
    while (j < lines.length && !new RegExp(`^ *${fence[0]}{${fence.length},}\\s*$`).test(lines[j])) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart())
      j++
    }
    blocks.push({
      line: i + 1,
      lang,
      marks,
      kind: marks.includes('run') ? RUNNABLE[lang] : undefined,
      code: `${body.join('\n')}\n`,
    })
    i = j
  }
  return blocks
}

/** What is wrong with one block's marks, or undefined. */
export function problemOf(block) {
  const known = block.marks.filter((mark) => MARKS.includes(mark))
  if (known.length === 0) {
    return `unmarked block (\`\`\`${block.lang}): mark it ${MARKS.join(', ')} in its info string`
  }
  if (known.length > 1) return `block marked ${known.join(' and ')}: one mark only`
  if (known[0] === 'run' && !block.kind) {
    return `block marked run in a language the runner cannot run (${block.lang || 'none'}): js, ts or sh`
  }
  return undefined
}

/** The `<<< @/path` includes of a site page (paths relative to the site's source directory). */
export function includesOf(text) {
  return [...text.matchAll(/^<<< @\/([^\s{#]+)/gm)].map((m) => m[1])
}

/**
 * What is wrong with the `<<<` includes of a site page: each must name a file that exists and that CI runs, a
 * snippet of docs/site/snippets (run by run-blocks.mjs) or a source of examples/*\/src (run by the tests).
 */
export function includeProblems(root, file, text) {
  if (!file.startsWith(join('docs', 'site'))) return []
  return includesOf(text).flatMap((include) => {
    const path = normalize(join(root, 'docs', 'site', include))
    const where = relative(root, path)
    if (!existsSync(path)) return [`${file}: <<< @/${include}: no such file`]
    if (!where.startsWith(join('docs', 'site', 'snippets')) && !/^examples\/[^/]+\/src\//.test(where)) {
      return [`${file}: <<< @/${include}: not a tested file (docs/site/snippets or examples/*/src)`]
    }
    return []
  })
}

/** Every block of every documentation file, with its file; `problems` lists the badly marked ones and bad includes. */
export function collect(root) {
  const texts = documentationFiles(root).map((file) => ({
    file,
    text: readFileSync(join(root, file), 'utf8'),
  }))
  const files = texts.map(({ file, text }) => ({ file, blocks: blocksOf(text) }))
  const problems = [
    ...files.flatMap(({ file, blocks }) =>
      blocks.flatMap((block) => {
        const problem = problemOf(block)
        return problem ? [`${file}:${block.line}: ${problem}`] : []
      }),
    ),
    ...texts.flatMap(({ file, text }) => includeProblems(root, file, text)),
  ]
  return { files, problems }
}
