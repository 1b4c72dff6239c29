import type { Config } from '../config.js'
import { type ConnectionFlags, connect, problemOf } from '../connection.js'
import type { Io } from '../io.js'
import { CheckFailed } from '../usage-error.js'
import { schemaFiles } from './register.js'

export interface CheckFlags extends ConnectionFlags {
  artifact?: string
  type?: string
}

interface Problem {
  title?: string
  name?: string
  causes?: { description: string; context: string }[]
}

/**
 * `x-serde check FILE…`: asks the registry whether each file would be accepted as a new version of its artifact
 * under the artifact's rules (Apicurio 3's dry run: nothing is stored), or as a new artifact when there is none.
 * Prints one line per file, and each rule violation; exits 1 when any file would be refused.
 */
export async function check(
  paths: readonly string[],
  flags: CheckFlags,
  config: Config,
  io: Io,
): Promise<void> {
  await using connection = connect(flags, config, io)
  let refused = 0
  for (const file of await schemaFiles(paths, flags, config, connection.groupId, io)) {
    const content = {
      content: file.text,
      contentType: file.artifactType === 'PROTOBUF' ? 'application/x-protobuf' : 'application/json',
      references: file.references,
    }
    const base = `/groups/${encodeURIComponent(file.groupId)}/artifacts`
    let answer = await connection.rest(
      'POST',
      `${base}/${encodeURIComponent(file.artifactId)}/versions?dryRun=true`,
      { content },
      { problems: true },
    )
    let created = false
    if (answer.status === 404) {
      created = true
      answer = await connection.rest(
        'POST',
        `${base}?dryRun=true`,
        {
          artifactId: file.artifactId,
          artifactType: file.artifactType,
          firstVersion: { content },
        },
        { problems: true },
      )
    }
    const target = `${file.groupId}/${file.artifactId}`
    if (answer.status === 200) {
      const version = created
        ? (JSON.parse(answer.text) as { version?: { version?: string } }).version?.version
        : (JSON.parse(answer.text) as { version?: string }).version
      io.stdout(
        `ok       ${file.path} → ${target} ${created ? 'as a new artifact' : `as version ${version}`}\n`,
      )
      continue
    }
    refused += 1
    let problem: Problem = {}
    try {
      problem = JSON.parse(answer.text) as Problem
    } catch {
      problem = { title: answer.text.slice(0, 200) }
    }
    // A rule the registry could not evaluate (a 500 with its problem report) is a refusal too, its detail quoted.
    const said = answer.status === 500 ? problemOf(answer.text) : problem.title
    io.stdout(`refused  ${file.path} → ${target}: ${said ?? `HTTP ${answer.status}`}\n`)
    for (const cause of problem.causes ?? []) {
      io.stdout(`         - ${cause.description}${cause.context ? ` at ${cause.context}` : ''}\n`)
    }
  }
  if (refused > 0) throw new CheckFailed(`${refused} of ${paths.length} schemas would be refused`)
}
