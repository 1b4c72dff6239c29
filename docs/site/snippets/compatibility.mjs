// Run with `node example.mjs`: would Apicurio Registry 3 accept version 2 under BACKWARD compatibility?
import { checkCompatibility } from '@x/compatibility'

const v1 = JSON.stringify({ type: 'record', name: 'Order', fields: [{ name: 'id', type: 'string' }] })
const v2 = JSON.stringify({
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'country', type: 'string' }, // no default: v2 cannot read what v1 wrote
  ],
})

const result = checkCompatibility({ format: 'AVRO', level: 'BACKWARD', existing: [v1], proposed: v2 })
console.log(result.compatible) // false
for (const issue of result.issues) console.log(`${issue.path || '(schema)'}: ${issue.message}`)
