/**
 * The bench's 10-field `bench.Event` record, in a module of its own that loads nothing: a fresh process of
 * `bench:e2e` that only writes it loads no engine for it.
 */
export const EVENT_RECORD = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  seq: 42,
  ts: 1767225600123,
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: the bench record's value, kept as first written
  score: 3.14159,
  active: true,
  kind: 'UPDATED',
  tags: ['alpha', 'beta', 'gamma'],
  note: 'hello world',
  attrs: { region: 'eu-west-1', tier: 'gold' },
  origin: { host: 'svc-a.internal', port: 8080 },
}
