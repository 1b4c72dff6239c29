import { createRequire } from 'node:module'
import { isSerdeError } from '@x/errors'
import { Command, CommanderError, Option } from 'commander'
import { check } from './commands/check.js'
import { checkOffline } from './commands/check-offline.js'
import { codegen } from './commands/codegen.js'
import { consume } from './commands/consume.js'
import { inspect } from './commands/inspect.js'
import { produce } from './commands/produce.js'
import { pull } from './commands/pull.js'
import { register } from './commands/register.js'
import { rulesGet, rulesSet, rulesTest } from './commands/rules.js'
import { loadConfig } from './config.js'
import { EXIT, type ExitCode } from './exit-codes.js'
import { inCliWords } from './flag-hints.js'
import type { Io } from './io.js'
import { BrokerUnreachable } from './kafka-connection.js'
import { CheckFailed, UsageError } from './usage-error.js'

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version

const EXIT_HELP = `
Registry and auth come from flags or the environment: REGISTRY_URL (the v3 API root, …/apis/registry/v3; a
password in it is HTTP Basic), REGISTRY_GROUP (default: default), and for OAuth2 REGISTRY_TOKEN_URL,
REGISTRY_CLIENT_ID, REGISTRY_CLIENT_SECRET (environment only), REGISTRY_SCOPE; TLS with --ca, --cert, --key
(files; a key passphrase from REGISTRY_TLS_KEY_PASSWORD only). No secret is ever printed.

Brokers (consume, produce): --brokers or KAFKA_BROKERS; SASL with --sasl-mechanism (plain, scram-sha-256,
scram-sha-512) or KAFKA_SASL_MECHANISM, --sasl-username or KAFKA_SASL_USERNAME, and KAFKA_SASL_PASSWORD (environment
only); TLS with --tls (or KAFKA_TLS=1), --tls-ca, --tls-cert, --tls-key (files; a key passphrase from
KAFKA_TLS_KEY_PASSWORD only).

Exit codes: 0 ok, 1 a check failed (or a message/schema was refused, or a consumed message did not decode),
2 usage, 3 registry or brokers unreachable.`

/**
 * The registry and auth options. `keyFlag`: the flag of the client certificate's key file, `--key` except where
 * `--key` already means something else (`produce`: the message key), which takes `--cert-key`.
 */
function connectionOptions(command: Command, registryGroup = true, keyFlag = '--key'): Command {
  command.option('--registry <url>', 'registry v3 API root (default: $REGISTRY_URL)')
  if (registryGroup)
    command.option('--group <id>', 'group of the artifacts (default: $REGISTRY_GROUP or "default")')
  return command
    .option('--token-url <url>', 'OAuth2 token endpoint (default: $REGISTRY_TOKEN_URL)')
    .option(
      '--client-id <id>',
      'OAuth2 client id (default: $REGISTRY_CLIENT_ID; the secret: $REGISTRY_CLIENT_SECRET)',
    )
    .option('--scope <scope>', 'OAuth2 scope (default: $REGISTRY_SCOPE)')
    .option('--ca <file>', 'CA certificate (PEM) of an https: registry behind a private CA')
    .option('--cert <file>', 'client certificate (PEM) for a registry behind mutual TLS')
    .option(`${keyFlag} <file>`, 'its key (PEM; a passphrase from $REGISTRY_TLS_KEY_PASSWORD)')
    .option('--config <file>', 'config file (default: x-serde.config.json when present)')
    .option('--verbose', 'print stack traces of errors')
}

function kafkaOptions(command: Command): Command {
  return command
    .option('--brokers <list>', 'bootstrap brokers, host:port[,host:port] (default: $KAFKA_BROKERS)')
    .addOption(
      new Option('--sasl-mechanism <mechanism>', 'SASL (default: $KAFKA_SASL_MECHANISM)').choices([
        'plain',
        'scram-sha-256',
        'scram-sha-512',
      ]),
    )
    .option(
      '--sasl-username <name>',
      'SASL user (default: $KAFKA_SASL_USERNAME; the password: $KAFKA_SASL_PASSWORD)',
    )
    .option('--tls', 'connect with TLS (default: $KAFKA_TLS=1)')
    .option('--tls-ca <file>', 'CA certificates (PEM) to trust')
    .option('--tls-cert <file>', 'client certificate (PEM)')
    .option('--tls-key <file>', 'its key (PEM; a passphrase from $KAFKA_TLS_KEY_PASSWORD)')
}

/**
 * Runs `x-serde` with `argv` (without the node and script paths) and returns its exit code. Everything it prints
 * goes through `io`, so it runs the same in a test as in a shell.
 */
export async function run(argv: readonly string[], io: Io): Promise<ExitCode> {
  const verbose = argv.includes('--verbose')
  const program = new Command('x-serde')
    .description(
      'Apicurio Registry 3 tooling for @x/serde: consume and produce topics, inspect messages, pull, register and check schemas, generate types.',
    )
    .version(VERSION, '-V, --version')
    // `x-serde --version` is the program's; after a command, `--version` is that command's (pull, codegen).
    .enablePositionalOptions()
    .addHelpText('after', EXIT_HELP)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text) })
    .showHelpAfterError()

  connectionOptions(
    program
      .command('inspect')
      .description(
        "show one message's frame (magic byte, id, payload length, id headers; framed, or bare with --headers); with a registry, decode it and name the artifact its id belongs to",
      )
      .argument('[message]', 'the message: HEX (0x allowed), BASE64, @FILE (raw bytes) or - (standard input)')
      .option(
        '--headers <name=value...>',
        "id headers, Apicurio's (apicurio.value.contentId=42) or Confluent 8's (__value_schema_id=42): the payload is bare; a name given twice is a repeated header",
      )
      .addOption(useIdOption())
      .addOption(idSizeOption())
      .addOption(encodingOption())
      .addOption(
        new Option('--framing <framing>', 'Protobuf framing')
          .choices(['apicurio', 'confluent'])
          .default('apicurio'),
      )
      .option('--topic <topic>', 'the topic, for artifact resolution', 'inspect')
      .option('--json', 'one line of JSON for machines'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  x-serde inspect 0000000001020a\n  x-serde inspect 0000000001020a --registry http://localhost:8080/apis/registry/v3',
    )
    .action(async (message: string | undefined, flags) => inspect(message, flags, io))

  connectionOptions(
    program
      .command('pull')
      .description('download artifacts (and what they reference) into a folder and write a lockfile')
      .option('--artifact <id>', "one artifact instead of the config's list")
      .option('--version <version>', 'its version (default: the latest)')
      .option('--out-dir <dir>', 'where to write them (default: "outDir" of the config, or schemas)')
      .option('--lockfile <file>', 'the lockfile (default: x-serde.lock.json)')
      .option('--check', 'write nothing; fail (exit 1) when the registry has moved from the lockfile')
      .option(
        '--snapshot <file>',
        "write them (ids, types, texts, references) into one schema snapshot for a client's snapshot option, and nothing else",
      ),
  )
    .addHelpText(
      'after',
      '\nExample:\n  x-serde pull --artifact orders-value && x-serde pull --check\n  x-serde pull --artifact orders-value --snapshot schemas.snapshot.json',
    )
    .action(async (flags) => pull(flags, await loadConfig(io, flags.config), io))

  connectionOptions(
    program
      .command('register')
      .description(
        'register local schema files (type from .avsc, .json, .proto or --type) and print their ids',
      )
      .argument('<files...>', 'schema files')
      .option(
        '--artifact <id>',
        "the artifact id (one file; default: the config's files entry, or the file name)",
      )
      .addOption(schemaTypeOption())
      .addOption(
        new Option('--if-exists <mode>', 'when the artifact exists')
          .choices(['FAIL', 'CREATE_VERSION', 'FIND_OR_CREATE_VERSION'])
          .default('FIND_OR_CREATE_VERSION'),
      ),
  )
    .addHelpText('after', '\nExample:\n  x-serde register schemas/order.avsc --artifact orders-value')
    .action(async (files: string[], flags) => register(files, flags, await loadConfig(io, flags.config), io))

  const rules = program
    .command('rules')
    .description('data-contract rulesets (Apicurio Registry 3.3): read, store, and try a record against them')
  const levelOptions = (command: Command): Command =>
    command
      .option('--global', 'the global ruleset (every artifact)')
      .option('--artifact <id>', "an artifact's ruleset")
      .option('--version <version>', "with --artifact: that version's ruleset")
  connectionOptions(
    levelOptions(rules.command('get').description('print a ruleset as JSON'))
      .option(
        '--merged',
        'with --artifact and --version: the ruleset in force (global, artifact, version merged)',
      )
      .option('--out <file>', 'write it here instead of standard output'),
  )
    .addHelpText('after', '\nExample:\n  x-serde rules get --artifact orders-value --version 2 --merged')
    .action(async (flags) => rulesGet(flags, await loadConfig(io, flags.config), io))
  connectionOptions(
    levelOptions(
      rules.command('set').description('store a ruleset file').argument('<file>', 'the ruleset (JSON)'),
    ),
  )
    .addHelpText('after', '\nExample:\n  x-serde rules set rules/orders.json --artifact orders-value')
    .action(async (file: string, flags) => rulesSet(file, flags, await loadConfig(io, flags.config), io))
  connectionOptions(
    rules
      .command('test')
      .description("run a record through the local rules engine (and the registry's) and print the verdicts")
      .argument('<record>', 'the record: JSON text, @FILE, or - (standard input)')
      .option('--artifact <id>', 'the artifact')
      .option('--version <version>', 'its version (default: the latest)')
      .addOption(new Option('--mode <mode>', 'the rules to run').choices(['WRITE', 'READ']).default('WRITE'))
      .option('--ruleset <file>', "test this ruleset file instead of the version's merged ruleset")
      .option('--against-registry', "also ask the registry's execute endpoint, and say where they disagree"),
  )
    .addHelpText(
      'after',
      '\nExample:\n  x-serde rules test \'{"total": -5.0}\' --artifact orders-value --against-registry',
    )
    .action(async (record: string, flags) => rulesTest(record, flags, await loadConfig(io, flags.config), io))

  connectionOptions(
    program
      .command('check')
      .description(
        "ask the registry (dry run) whether each file would be accepted under its artifact's rules",
      )
      .argument('<files...>', 'schema files')
      .option(
        '--artifact <id>',
        "the artifact id (one file; default: the config's files entry, or the file name)",
      )
      .addOption(schemaTypeOption())
      .option('--offline', 'decide with no registry, as Apicurio 3.3.3 would, against --against versions')
      .option(
        '--level <level>',
        'offline: the compatibility level, in any case: BACKWARD, BACKWARD_TRANSITIVE, FORWARD, FORWARD_TRANSITIVE, FULL, FULL_TRANSITIVE or NONE',
      )
      .option(
        '--against <source>',
        'offline: an earlier version, oldest first (repeat): a FILE (one schema only), git:REF (each file at that ref) or lockfile',
        collect,
      )
      .option(
        '--reference <name=file>',
        'offline: a referenced schema by the name the schemas use for it (repeat)',
        collect,
      )
      .option(
        '--reference-dir <dir>',
        'offline: every file under DIR as a reference named by its path relative to DIR (repeat)',
        collect,
      )
      .option('--lockfile <file>', 'offline: the lockfile of --against lockfile (default: x-serde.lock.json)')
      .option('--json', 'offline: print each verdict as one JSON document per line')
      .option(
        '--strict',
        'offline, beyond the registry: also compare the referenced schemas of each earlier version (at git:REF, or locked) with the ones given',
      ),
  )
    .addHelpText(
      'after',
      `
Offline (--offline, no registry): each FILE is compared with its earlier versions (--against, oldest first) under
--level as Apicurio Registry 3.3.3's COMPATIBILITY rule compares them: BACKWARD, FORWARD and FULL with the latest
only, their _TRANSITIVE forms with every one. With --against lockfile the level defaults to the artifact's rule that
x-serde pull recorded. A schema's references are given by the name it uses for them (a Protobuf import path, a JSON
Schema $ref, an Avro full name): --reference NAME=FILE, or --reference-dir DIR, where every file under DIR is named
by its path relative to DIR (an Avro file also by the full name of the type it defines). One line per FILE, then
one per issue; with --json one JSON document per line. The registry reads every version with the proposed
version's references, so it never sees a referenced type change; --strict compares them too (an issue in a
referenced schema names it).
Offline exit codes: 0 every FILE compatible, 1 one is not, 2 bad usage, or a schema or reference that cannot be
read (the file is named) or a reference that no --reference or --reference-dir gives.

Example (a CI gate):
  x-serde check schemas/order.avsc --artifact orders-value || exit 1
  x-serde check --offline schemas/*.avsc --level backward_transitive --against git:origin/main --reference-dir schemas`,
    )
    .action(async (files: string[], flags) => {
      const config = await loadConfig(io, flags.config)
      if (flags.offline) return checkOffline(files, flags, config, io)
      for (const offlineOnly of [
        'level',
        'against',
        'reference',
        'reference-dir',
        'lockfile',
        'json',
        'strict',
      ]) {
        const key = offlineOnly.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())
        if (flags[key] !== undefined) throw new UsageError(`--${offlineOnly} goes with --offline`)
      }
      return check(files, flags, config, io)
    })

  connectionOptions(
    program
      .command('codegen')
      .description("TypeScript types matching what this library's deserializers return")
      .argument('[files...]', 'schema files (.avsc, .json, .proto)')
      .option('--artifact <id>', 'generate from a registry artifact instead')
      .option('--version <version>', 'its version (default: the latest)')
      .addOption(schemaTypeOption())
      .option('--out <file>', 'write here instead of standard output')
      .option(
        '--proto-path <dir...>',
        ".proto imports: also look in these folders, after the files given and the importing file's folder",
      )
      .addOption(
        new Option('--longs <mode>', 'Avro/Protobuf long mapping')
          .choices(['auto', 'number', 'bigint'])
          .default('auto'),
      )
      .addOption(
        new Option('--unions <mode>', 'Avro union mapping').choices(['auto', 'wrapped']).default('auto'),
      )
      .addOption(
        new Option('--enums <mode>', 'Protobuf enum mapping').choices(['name', 'number']).default('name'),
      )
      .option(
        '--no-defaults',
        'Protobuf: proto3 fields not on the wire are left out (deserializer defaults: false)',
      ),
  )
    .addHelpText('after', '\nExample:\n  x-serde codegen schemas/user-event.avsc --out src/user-event.ts')
    .action(async (files: string[], flags) => codegen(files, flags, await loadConfig(io, flags.config), io))

  kafkaOptions(
    connectionOptions(
      program
        .command('consume')
        .description(
          'read a topic and print each message decoded (Avro, JSON Schema, Protobuf; framed or headers mode)',
        )
        .argument('<topic>', 'the topic')
        .option('--offset <n>', 'start at this offset in each partition (default: the beginning)')
        .option(
          '--from-timestamp <time>',
          'start at the first message at or after this time (ISO or epoch ms)',
        )
        .option('--follow', 'start at the end (unless told where) and keep reading until Ctrl-C or --max')
        .option('--max <n>', 'stop after this many messages')
        .option('--partition <n...>', 'read only these partitions (default: all)')
        .option(
          '--group <id>',
          'consumer group: start where it stopped and commit what is printed (default: none, nothing committed)',
        )
        .addOption(useIdOption())
        .addOption(idSizeOption())
        .addOption(
          new Option(
            '--key-type <type>',
            "how keys are read, byte for byte as Java's serializers of that type (bytes: UTF-8 text, else base64; schema: keys written with a schema)",
          ).choices(['string', 'bytes', 'long', 'int', 'short', 'double', 'float', 'uuid', 'schema']),
        )
        .addOption(encodingOption())
        .option('--json', 'one line of JSON per message, for machines'),
      false,
    ),
  )
    .addHelpText(
      'after',
      `
Without --follow it stops at the end offsets the partitions had when it started. A message that does not decode is
printed as an error line with its raw bytes and the run goes on; the run then exits 1. A summary goes to stderr.

Example:
  x-serde consume orders --brokers localhost:9092 --registry http://localhost:8080/apis/registry/v3 --json`,
    )
    .action(async (topic: string, flags) => consume(topic, flags, await loadConfig(io, flags.config), io))

  kafkaOptions(
    connectionOptions(
      program
        .command('produce')
        .description(
          "send JSON lines, each encoded with the topic's artifact (format from its type), framed or in headers mode",
        )
        .argument('<topic>', 'the topic')
        .argument('[input]', 'the JSON lines: @FILE or - (standard input, the default)')
        .option('--artifact <id>', 'the artifact (default: <topic>-value, the topic strategy)')
        .option('--headers', 'headers mode: the id in an apicurio.value.* header, the payload bare')
        .option('--key <key>', 'the key of every message')
        .addOption(
          new Option(
            '--key-type <type>',
            "how keys are written, byte for byte as Java's serializers of that type (bytes: the key is base64; schema: the key is JSON, written with --key-artifact)",
          )
            .choices(['string', 'bytes', 'long', 'int', 'short', 'double', 'float', 'uuid', 'schema'])
            .default('string'),
        )
        .option(
          '--key-artifact <id>',
          'with --key-type schema: the artifact keys are written with (default: <topic>-key, the topic strategy)',
        )
        .option(
          '--key-field <field>',
          "each message's key: this field of its line (which stays in the value)",
        )
        .addOption(
          new Option('--use-id <type>', 'the id written')
            .choices(['globalId', 'contentId'])
            .default('globalId'),
        )
        .option('--message-type <name>', "Protobuf: the message written (default: the file's first)"),
      true,
      '--cert-key',
    ),
  )
    .addHelpText(
      'after',
      `
Every line is encoded before anything is sent: a line that is not JSON or does not match the schema is reported
with its number and nothing is sent (exit 1). Integers beyond 2^53 are kept exact; bytes are base64 text, Avro dates
ISO text, as consume --json prints them. A line null is a tombstone.

Example:
  x-serde produce orders @orders.jsonl --key-field id --brokers localhost:9092`,
    )
    .action(async (topic: string, input: string | undefined, flags) =>
      produce(topic, input, flags, await loadConfig(io, flags.config), io),
    )

  try {
    await program.parseAsync([...argv], { from: 'user' })
    return EXIT.ok
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.exitCode === 0
        ? EXIT.ok
        : EXIT.usage
    }
    return report(error, io, verbose)
  }
}

/** One line of what went wrong (the library's own message), and the exit code it means. */
function report(error: unknown, io: Io, verbose: boolean): ExitCode {
  const message = inCliWords(error instanceof Error ? error.message : String(error))
  io.stderr(`x-serde: ${message}\n`)
  if (verbose && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`)
  if (error instanceof CheckFailed) return EXIT.checkFailed
  if (error instanceof UsageError) return EXIT.usage
  if (
    error instanceof BrokerUnreachable ||
    isSerdeError(error, 'REGISTRY_CONNECTION') ||
    isSerdeError(error, 'AUTHENTICATION')
  )
    return EXIT.unreachable
  if ((error as { code?: unknown })?.code === 'INVALID_CONFIG') return EXIT.usage
  return EXIT.checkFailed
}

/**
 * `--type`: the schema type in any case (`avro`, `Json`). The command reads it (one line naming what it takes when it
 * is another word), rather than the option parser, which would print the whole help after it.
 */
function schemaTypeOption(): Option {
  return new Option('--type <type>', 'the schema type, in any case: AVRO, JSON or PROTOBUF')
}

/** Collects a repeatable option's values in the order given. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value]
}

/** `--use-id`: how the commands that read frames (`inspect`, `consume`) read a frame's id. */
function useIdOption(): Option {
  return new Option('--use-id <type>', 'how to read the id of a frame')
    .choices(['globalId', 'contentId'])
    .default('globalId')
}

/** `--id-size`: the width of a frame's id for the commands that read frames (`inspect`, `consume`). */
function idSizeOption(): Option {
  return new Option(
    '--id-size <size>',
    "bytes of a frame's id: 4, 8 (Apicurio 2.x, Legacy8ByteIdHandler) or auto (4, unless they are zero and 4 more follow)",
  )
    .choices(['4', '8', 'auto'])
    .default('4')
}

/** `--encoding`: how the commands that read messages (`inspect`, `consume`) read an Avro payload. */
function encodingOption(): Option {
  return new Option(
    '--encoding <encoding>',
    "Avro payloads without an apicurio.*.encoding header: binary, json (Avro's JSON encoding) or auto (binary, else JSON text)",
  )
    .choices(['binary', 'json', 'auto'])
    .default('binary')
}
