import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { interopDir } from './paths.js'
import { lines, runProcess } from './run-process.js'

const javaDir = join(interopDir, 'java')
const targetDir = join(javaDir, 'target')
const jar = join(targetDir, 'java-interop-0.0.0.jar')
const libDir = join(targetDir, 'lib')

/**
 * The serde configurations of the Java program (see interop/java/.../Main.java): the 3.x defaults, use-id=globalId,
 * headers mode, the 8-byte `Legacy8ByteIdHandler` with contentId (`id8`) or globalId (`id8-globalId`), and the
 * `OptimisticFallbackIdHandler` that reads both widths (`id-auto`).
 */
export type JavaMode = 'default' | 'globalId' | 'headers' | 'id8' | 'id8-globalId' | 'id-auto'

/** One record as the Java consumer prints it. */
export interface JavaRecord {
  offset: number
  /** Header name → value as lowercase hex. */
  headers: Record<string, string>
  /** The record in canonical JSON form (see `canonicalEvent`). */
  value: Record<string, unknown>
}

function newestMtime(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

/** True when the jar and its libraries exist and are newer than the pom, the sources and the fixture schema. */
export function javaHarnessIsBuilt(): boolean {
  if (!existsSync(jar) || !existsSync(libDir)) return false
  const sources = Math.max(
    newestMtime(join(javaDir, 'pom.xml')),
    newestMtime(join(javaDir, 'src')),
    newestMtime(join(interopDir, 'fixtures')),
  )
  return statSync(jar).mtimeMs > sources
}

/**
 * Builds the Java program with Maven unless it is up to date: compiles it and copies its runtime dependencies
 * (Apicurio's serde, kafka-clients) into target/lib. Maven caches the downloads in ~/.m2.
 */
export async function buildJavaHarness(): Promise<void> {
  if (javaHarnessIsBuilt()) return
  await runProcess(
    'mvn',
    [
      '-q',
      '-B',
      '-Dstyle.color=never',
      '-f',
      join(javaDir, 'pom.xml'),
      'package',
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${libDir}`,
    ],
    { timeoutMs: 600_000 },
  )
  // Maven leaves an up-to-date jar untouched; mark it as built now so that the next run skips Maven.
  const now = new Date()
  utimesSync(jar, now, now)
}

function java(args: string[], timeoutMs: number) {
  return runProcess(
    'java',
    [
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '-Xmx256m',
      '-cp',
      `${join(targetDir, 'classes')}:${libDir}/*`,
      'x.serde.interop.Main',
      ...args,
    ],
    { timeoutMs },
  )
}

/** Java writes records 0 .. count-1 to `topic` with Apicurio's AvroKafkaSerializer in `mode` (auto-registering). */
export async function javaProduce(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: JavaMode,
  count: number,
): Promise<void> {
  await java(['produce', brokers, registryUrl, topic, mode, String(count)], 90_000)
}

/** Java writes `count` Avro records as {@link javaProduce} does, their keys by Kafka's LongSerializer (42L + i). */
export async function javaProduceLongKeys(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: JavaMode,
  count: number,
): Promise<void> {
  await java(['produce-long-keys', brokers, registryUrl, topic, mode, String(count)], 90_000)
}

/**
 * Java writes interop/fixtures/account.avsc records 0 .. count-1 (keyed by their `id`) with Apicurio's
 * AvroKafkaSerializer in `mode`, auto-registering the nested record and enum as artifacts of their own.
 */
export async function javaRefsProduce(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: JavaMode,
  count: number,
): Promise<void> {
  await java(['refs-produce', brokers, registryUrl, topic, mode, String(count)], 90_000)
}

/** Java reads `count` records of `topic` from the start with Apicurio's AvroKafkaDeserializer in `mode`. */
export async function javaConsume(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: JavaMode,
  count: number,
): Promise<JavaRecord[]> {
  const { stdout } = await java(['consume', brokers, registryUrl, topic, mode, String(count)], 90_000)
  return lines(stdout).map((line) => JSON.parse(line) as JavaRecord)
}

/** Java writes JSON Schema orders 0 .. count-1 with Apicurio's JsonSchemaKafkaSerializer in `mode`. */
export async function javaJsonProduce(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: JavaMode,
  count: number,
): Promise<void> {
  await java(['json-produce', brokers, registryUrl, topic, mode, String(count)], 90_000)
}

/** One JSON Schema record as the Java consumer prints it: the JSON it decoded, as Jackson writes it. */
export interface JavaJsonRecord {
  offset: number
  headers: Record<string, string>
  text: string
}

/** Java reads `count` records with Apicurio's JsonSchemaKafkaDeserializer (validating, as its default is). */
export async function javaJsonConsume(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: JavaMode,
  count: number,
): Promise<JavaJsonRecord[]> {
  const { stdout } = await java(['json-consume', brokers, registryUrl, topic, mode, String(count)], 90_000)
  return lines(stdout).map((line) => JSON.parse(line) as JavaJsonRecord)
}

/** The Protobuf set-ups of the Java program (see interop/java/.../ProtoMain.java). */
export type JavaProtoMode =
  | 'default'
  | 'indexes'
  | 'headers'
  | 'globalId'
  | 'id8'
  | 'id8-globalId'
  | 'id-auto'

/** Java writes Protobuf orders 0 .. count-1 with Apicurio's ProtobufKafkaSerializer in `mode`. */
export async function javaProtoProduce(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: JavaProtoMode,
  count: number,
): Promise<void> {
  await java(['proto-produce', brokers, registryUrl, topic, mode, String(count)], 90_000)
}

/** One Protobuf record as the Java consumer prints it: the message type and the message in proto3 JSON. */
export interface JavaProtoRecord {
  offset: number
  headers: Record<string, string>
  type: string
  json: string
}

/** Java reads `count` records with Apicurio's ProtobufKafkaDeserializer (into the generated class) in `mode`. */
export async function javaProtoConsume(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: JavaProtoMode,
  count: number,
): Promise<JavaProtoRecord[]> {
  const { stdout } = await java(['proto-consume', brokers, registryUrl, topic, mode, String(count)], 90_000)
  return lines(stdout).map((line) => JSON.parse(line) as JavaProtoRecord)
}

/** The Avro JSON encoding set-ups of the Java program (see interop/java/.../AvroJsonMain.java). */
export type JavaAvroJsonMode = 'json' | 'json-headers' | 'binary'

/** Java writes json-event records 0 .. count-1 with `apicurio.registry.avro.encoding=JSON` in `mode`. */
export async function javaAvroJsonProduce(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: Exclude<JavaAvroJsonMode, 'binary'>,
  count: number,
): Promise<void> {
  await java(['avro-json-produce', brokers, registryUrl, topic, mode, String(count)], 90_000)
}

/** One record as the Java consumer prints it: the record it decoded, written again with Avro's JsonEncoder. */
export interface JavaAvroJsonRecord {
  offset: number
  headers: Record<string, string>
  json: string
}

/** Java reads `count` json-event records with Apicurio's AvroKafkaDeserializer in `mode`. */
export async function javaAvroJsonConsume(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: JavaAvroJsonMode,
  count: number,
): Promise<JavaAvroJsonRecord[]> {
  const { stdout } = await java(
    ['avro-json-consume', brokers, registryUrl, topic, mode, String(count)],
    90_000,
  )
  return lines(stdout).map((line) => JSON.parse(line) as JavaAvroJsonRecord)
}
