import { type E2eRun, figuresOf } from './e2e/report.js'
import { FORMAT_TITLES, FORMATS, ROWS } from './e2e/types.js'

/** The bars of the chart: ours and the two peers per job, by case name. */
const JOBS: { title: string; cases: [string, string][] }[] = [
  {
    title: 'Avro encode (await)',
    cases: [
      ['ours', 'ours.serialize'],
      ['kafkajs-SR', 'kafkajs.serialize'],
      ['kafkajs-SR 4.x', 'kafkajs4.serialize'],
      ['Confluent', 'confluent.serialize'],
    ],
  },
  {
    title: 'Avro decode (await)',
    cases: [
      ['ours', 'ours.deserialize'],
      ['kafkajs-SR', 'kafkajs.deserialize'],
      ['kafkajs-SR 4.x', 'kafkajs4.deserialize'],
      ['Confluent', 'confluent.deserialize'],
    ],
  },
  {
    title: 'JSON Schema encode (await)',
    cases: [
      ['ours', 'ours.json.serialize'],
      ['kafkajs-SR', 'kafkajs.json.serialize'],
      ['kafkajs-SR 4.x', 'kafkajs4.json.serialize'],
      ['Confluent', 'confluent.json.serialize'],
    ],
  },
  {
    title: 'JSON Schema decode (await)',
    cases: [
      ['ours', 'ours.json.deserialize'],
      ['kafkajs-SR', 'kafkajs.json.deserialize'],
      ['kafkajs-SR 4.x', 'kafkajs4.json.deserialize'],
      ['Confluent', 'confluent.json.deserialize'],
    ],
  },
  {
    title: 'Protobuf encode (await)',
    cases: [
      ['ours', 'ours.proto.serialize'],
      ['Confluent', 'confluent.proto.serialize'],
    ],
  },
  {
    title: 'Protobuf decode (await)',
    cases: [
      ['ours', 'ours.proto.deserialize'],
      ['Confluent', 'confluent.proto.deserialize'],
    ],
  },
  {
    title: 'Avro encode in Platformatic (sync)',
    cases: [
      ['ours', 'ours.platformatic.serialize'],
      ['Platformatic', 'platformatic.serialize'],
    ],
  },
  {
    title: 'Avro decode in Platformatic (sync)',
    cases: [
      ['ours', 'ours.platformatic.deserialize'],
      ['Platformatic', 'platformatic.deserialize'],
    ],
  },
  {
    title: 'JSON encode in Platformatic (sync)',
    cases: [
      ['ours', 'ours.platformatic.json.serialize'],
      ['Platformatic', 'platformatic.json.serialize'],
    ],
  },
  {
    title: 'JSON decode in Platformatic (sync)',
    cases: [
      ['ours', 'ours.platformatic.json.deserialize'],
      ['Platformatic', 'platformatic.json.deserialize'],
    ],
  },
]

/** The end-to-end bars: per format, client and direction, ours against the client's own registry support. */
function e2eJobs(run: E2eRun): { title: string; bars: { library: string; ops: number }[] }[] {
  const jobs: { title: string; bars: { library: string; ops: number }[] }[] = []
  for (const format of FORMATS) {
    for (const client of ['platformatic', 'kafkajs'] as const) {
      const [ours, theirs] = ROWS.filter((row) => row.client === client).map((row) =>
        figuresOf(run.results, row.name, format),
      )
      if (
        ours === undefined ||
        theirs === undefined ||
        typeof ours === 'string' ||
        typeof theirs === 'string'
      )
        continue
      const name = client === 'platformatic' ? 'Platformatic' : 'KafkaJS'
      const peer = client === 'platformatic' ? 'Platformatic' : 'kafkajs-SR'
      for (const direction of ['produce', 'consume'] as const) {
        jobs.push({
          title: `E2E ${FORMAT_TITLES[format]} ${direction}, ${name}`,
          bars: [
            { library: 'ours', ops: direction === 'produce' ? ours.produceRate : ours.consumeRate },
            { library: peer, ops: direction === 'produce' ? theirs.produceRate : theirs.consumeRate },
          ],
        })
      }
    }
  }
  return jobs
}

const COLORS: Record<string, string> = {
  ours: '#2f6fdb',
  'kafkajs-SR': '#8a8a8a',
  'kafkajs-SR 4.x': '#b4b4b4',
  Confluent: '#c9a227',
  Platformatic: '#3aa675',
}

/**
 * A horizontal bar chart of ours against the peers per job, as SVG text. Each job has its own linear scale (its
 * fastest library fills the width), so a bar twice as long is twice as fast; each peer's bar says how many times
 * faster ours is.
 */
export function renderChart(
  rows: readonly { name: string; opsPerSec: number }[],
  subtitle: string,
  e2e?: E2eRun,
): string {
  const byName = new Map(rows.map((row) => [row.name, row.opsPerSec]))
  const width = 880
  const left = 310
  const barHeight = 16
  const gap = 4
  const groupGap = 18
  const top = 58
  const span = width - left - 190
  const parts: string[] = []
  let y = top
  const jobs = JOBS.map((job) => ({
    title: job.title,
    bars: job.cases.flatMap(([library, name]) => {
      const ops = byName.get(name)
      return ops === undefined ? [] : [{ library, ops }]
    }),
  }))
  const endToEnd = e2e === undefined ? [] : e2eJobs(e2e)
  for (const [index, job] of [...jobs, ...endToEnd].entries()) {
    const present = job.bars
    if (present.length === 0) continue
    if (index === jobs.length && e2e !== undefined) {
      parts.push(
        `<text x="10" y="${y + 12}" font-weight="bold">End to end through a real broker, messages/s (${e2e.node}, ${e2e.when}, ${e2e.messages.toLocaleString('en-US')} messages)</text>`,
      )
      y += barHeight + gap + 6
    }
    const fastest = Math.max(...present.map((bar) => bar.ops))
    const ours = present.find((bar) => bar.library === 'ours')?.ops
    parts.push(`<text x="10" y="${y + barHeight + 4}" font-weight="bold">${job.title}</text>`)
    for (const { library, ops } of present) {
      const end = left + (ops / fastest) * span
      const ratio =
        library === 'ours' || ours === undefined
          ? ''
          : ours >= ops
            ? ` (ours ${(ours / ops).toFixed(2)}× faster)`
            : ` (ours ${(ours / ops).toFixed(2)}×: slower)`
      parts.push(
        `<text x="${left - 8}" y="${y + 12}" text-anchor="end">${library}</text>`,
        `<rect x="${left}" y="${y}" width="${Math.max(1, end - left).toFixed(1)}" height="${barHeight}" fill="${COLORS[library]}"/>`,
        `<text x="${(end + 6).toFixed(1)}" y="${y + 12}">${Math.round(ops).toLocaleString('en-US')}/s${ratio}</text>`,
      )
      y += barHeight + gap
    }
    y += groupGap
  }
  const height = y + 10
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12" role="img">`,
    '<title>@x/serde against @kafkajs/confluent-schema-registry, @confluentinc/schemaregistry and @platformatic/kafka, ops/s</title>',
    '<rect width="100%" height="100%" fill="white"/>',
    `<text x="10" y="20" font-size="15" font-weight="bold">@x/serde against the serdes users pick instead (ops/s, warm; linear, one scale per job)</text>`,
    `<text x="10" y="36" fill="#666">${subtitle}</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n')
}
