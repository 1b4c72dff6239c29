// check-blocks.mjs: fails when a code block of a README or a site page is not marked (run, fragment, command or
// output) or a page includes a file that is not tested; prints what each file holds. Runs without installing anything;
// the blocks marked `run` are run by run-blocks.mjs in the release stage.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { collect } from './blocks.mjs'

const root = join(fileURLToPath(import.meta.url), '..', '..', '..')
const { files, problems } = collect(root)
const count = (mark) => files.reduce((n, f) => n + f.blocks.filter((b) => b.marks.includes(mark)).length, 0)
console.log(
  `${files.length} files, ${files.reduce((n, f) => n + f.blocks.length, 0)} blocks: ${count('run')} run, ` +
    `${count('fragment')} fragments, ${count('command')} commands, ${count('output')} outputs`,
)
for (const problem of problems) console.log(problem)
if (problems.length > 0) {
  console.log(`${problems.length} problems`)
  process.exitCode = 1
}
