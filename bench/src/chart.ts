import type { Row } from './report.js'

/** The bars of the chart: ours and the two peers per job, by case name. */
const JOBS: { title: string; cases: [string, string][] }[] = [
  {
    title: 'Avro encode (await)',
    cases: [
      ['ours', 'ours.serialize'],
      ['kafkajs-SR', 'kafkajs.serialize'],
      ['Confluent', 'confluent.serialize'],
    ],
  },
  {
    title: 'Avro decode (await)',
    cases: [
      ['ours', 'ours.deserialize'],
      ['kafkajs-SR', 'kafkajs.deserialize'],
      ['Confluent', 'confluent.deserialize'],
    ],
  },
  {
    title: 'JSON Schema encode (await)',
    cases: [
      ['ours', 'ours.json.serialize'],
      ['kafkajs-SR', 'kafkajs.json.serialize'],
      ['Confluent', 'confluent.json.serialize'],
    ],
  },
  {
    title: 'JSON Schema decode (await)',
    cases: [
      ['ours', 'ours.json.deserialize'],
      ['kafkajs-SR', 'kafkajs.json.deserialize'],
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
]

const COLORS: Record<string, string> = { ours: '#2f6fdb', 'kafkajs-SR': '#8a8a8a', Confluent: '#c9a227' }

/** A horizontal bar chart (log scale, ops/s) of ours against the peers per job, as SVG text. */
export function renderChart(rows: readonly Row[], subtitle: string): string {
  const byName = new Map(rows.map((row) => [row.def.name, row.opsPerSec]))
  const width = 760
  const left = 190
  const barHeight = 16
  const gap = 4
  const groupGap = 18
  const top = 58
  const max = Math.max(...rows.map((row) => row.opsPerSec), 10)
  const min = 1_000
  const x = (ops: number) =>
    left +
    ((Math.log10(Math.max(ops, min)) - Math.log10(min)) / (Math.log10(max * 1.5) - Math.log10(min))) *
      (width - left - 90)
  const parts: string[] = []
  let y = top
  for (const job of JOBS) {
    parts.push(`<text x="10" y="${y + barHeight + 4}" font-weight="bold">${job.title}</text>`)
    for (const [library, name] of job.cases) {
      const ops = byName.get(name)
      if (ops === undefined) continue
      const end = x(ops)
      parts.push(
        `<text x="${left - 8}" y="${y + 12}" text-anchor="end">${library}</text>`,
        `<rect x="${left}" y="${y}" width="${Math.max(1, end - left).toFixed(1)}" height="${barHeight}" fill="${COLORS[library]}"/>`,
        `<text x="${(end + 6).toFixed(1)}" y="${y + 12}">${Math.round(ops).toLocaleString('en-US')}/s</text>`,
      )
      y += barHeight + gap
    }
    y += groupGap
  }
  const height = y + 10
  const ticks = [1e3, 1e4, 1e5, 1e6].filter((t) => t <= max * 1.5)
  const axis = ticks
    .map(
      (t) =>
        `<line x1="${x(t).toFixed(1)}" y1="${top - 6}" x2="${x(t).toFixed(1)}" y2="${height - 10}" stroke="#ddd"/><text x="${x(t).toFixed(1)}" y="${top - 10}" text-anchor="middle" fill="#666">${t.toLocaleString('en-US')}</text>`,
    )
    .join('')
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12" role="img">`,
    '<title>@x/serde against @kafkajs/confluent-schema-registry and @confluentinc/schemaregistry, ops/s</title>',
    '<rect width="100%" height="100%" fill="white"/>',
    `<text x="10" y="20" font-size="15" font-weight="bold">@x/serde against the serdes users pick instead (ops/s, log scale, warm)</text>`,
    `<text x="10" y="36" fill="#666">${subtitle}</text>`,
    axis,
    ...parts,
    '</svg>',
    '',
  ].join('\n')
}
