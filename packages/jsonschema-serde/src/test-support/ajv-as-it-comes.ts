import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { AJV_OPTIONS } from '../validator.js'

/** ajv as it comes (its own keywords, its meta-schemas compiled at run time), with the options of every instance. */
export function ajvAsItComes(): Ajv {
  const ajv = new Ajv(AJV_OPTIONS)
  ;(addFormats as unknown as (ajv: Ajv) => void)(ajv)
  return ajv
}
