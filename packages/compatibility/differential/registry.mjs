/**
 * Asks a real Apicurio Registry 3 for the verdict of one case: registers the referenced schemas and the existing
 * versions as artifacts of `group` (no rule set while they go in), sets the artifact's COMPATIBILITY rule to the
 * case's level, and submits the proposed version with `dryRun=true`. Only artifact-level rules are set.
 */

const CONTENT_TYPES = {
  AVRO: 'application/json',
  JSON: 'application/json',
  PROTOBUF: 'application/x-protobuf',
}

async function call(url, method, path, body) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let json
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, text, json }
}

async function must(url, method, path, body, what) {
  const answer = await call(url, method, path, body)
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`)
  return answer
}

/**
 * The registry's verdict on `testCase` (`{ id, format, level, existing, proposed, references? }`, schema texts):
 * `{ compatible, status, causes }`, `causes` being the `causes` of a 400 (sorted) or, for another refusal, the
 * answer's `name` and `detail`.
 */
export async function askRegistry(url, group, testCase, artifactId = testCase.id) {
  const contentType = CONTENT_TYPES[testCase.format]
  const references = []
  let index = 0
  for (const [name, content] of Object.entries(testCase.references ?? {})) {
    const refId = `${artifactId}-ref${index++}`
    await must(
      url,
      'POST',
      `/groups/${group}/artifacts`,
      {
        artifactId: refId,
        artifactType: testCase.format,
        firstVersion: { content: { content, contentType } },
      },
      `reference ${name}`,
    )
    references.push({ groupId: group, artifactId: refId, version: '1', name })
  }
  const content = (text) => ({ content: text, contentType, references })
  const [first, ...rest] = testCase.existing
  await must(
    url,
    'POST',
    `/groups/${group}/artifacts`,
    { artifactId, artifactType: testCase.format, firstVersion: { content: content(first) } },
    'first version',
  )
  for (const text of rest) {
    await must(
      url,
      'POST',
      `/groups/${group}/artifacts/${artifactId}/versions`,
      { content: content(text) },
      'version',
    )
  }
  await must(
    url,
    'POST',
    `/groups/${group}/artifacts/${artifactId}/rules`,
    { ruleType: 'COMPATIBILITY', config: testCase.level },
    'rule',
  )
  const answer = await call(url, 'POST', `/groups/${group}/artifacts/${artifactId}/versions?dryRun=true`, {
    content: content(testCase.proposed),
  })
  if (answer.status === 200) return { compatible: true, status: 200, causes: [] }
  const causes =
    answer.status === 400 && Array.isArray(answer.json?.causes)
      ? answer.json.causes
          .map((cause) => ({ description: cause.description, context: cause.context }))
          .sort((a, b) => `${a.context} ${a.description}`.localeCompare(`${b.context} ${b.description}`))
      : [
          {
            description: `${answer.json?.name ?? 'error'}: ${answer.json?.detail ?? answer.text.slice(0, 300)}`,
            context: '',
          },
        ]
  return { compatible: false, status: answer.status, causes }
}
