// What each verb declared through describeVerb, and the program's own after-text, kept in a typed registry beside
// commander's objects instead of being written onto them: help, the manual, completion's checks and main.ts read
// it with verbRecordOf and epilogueOf, no cast and no property commander does not declare.
//
// A module-level WeakMap rather than a subclass of commander's Command: verbs are made with `new Command()` and
// with `.command()` (which builds through commander's own factory) across every group and in tests, and
// describeVerb is handed whatever they made; a registry keyed by the object asks none of them to change, and an
// entry goes when its command does.
import type { Command } from 'commander';
import type { OperationId } from '../../openapi/operations.js';
import type { ResourceView } from '../../output/columns.js';

export interface Example {
  /** What the example does, shown as a comment line. */
  comment: string;
  /** The command line, without the leading `$ `. */
  command: string;
  /** A server or watcher that runs until Ctrl-C (the examples test stops it once it has printed). */
  runsUntilInterrupted?: boolean;
  /** Asks for confirmation on a terminal (the examples test runs it in a pseudo-terminal and answers yes). */
  asks?: boolean;
  /**
   * The state the example presumes (a webhook configuration exists, ...): a shell command the examples test runs
   * first, against the same API. Not shown in the help.
   */
  given?: string;
}

/**
 * What a verb writes on stdout: records (tables, JSON, CSV: -o, --json and --columns apply), a document (-o and
 * --json apply, not --columns), plain text (a token, a script), or nothing.
 */
export type VerbOutput = 'records' | 'document' | 'text' | 'nothing';

/** What a verb draws on besides its own arguments; each decides global options it honours. */
export type VerbUse = 'profile' | 'endpoints' | 'sandbox' | 'timeout' | 'retries' | 'debug' | 'insecure';

/** What decides which global options a verb honours, and whether a profile it is given must be stored. */
export interface VerbTraits {
  output: VerbOutput;
  uses: ReadonlySet<VerbUse>;
  prompts: boolean;
  makesProfile: boolean;
}

/** One verb as it declared itself, with what follows from it (the scopes of its operations). */
export interface VerbRecord {
  /** The API operations it calls (a test checks every operation has a verb). */
  operationIds: OperationId[];
  /** The scopes those operations need, each once, in the order of the operations. */
  scopes: string[];
  traits: VerbTraits;
  /** As declared, the first the simplest: the test suite runs every one against a sandbox. */
  examples: Example[];
  notes?: string;
  /** The records it prints, for output 'records'. */
  shows?: ResourceView;
}

const verbs = new WeakMap<Command, VerbRecord>();
const epilogues = new WeakMap<Command, string>();

/** Registers `command` as a verb (describeVerb does): declared again, the later record stands. */
export function recordVerb(command: Command, record: VerbRecord): void {
  verbs.set(command, record);
}

/** The verb's record; undefined for a group, the program, or a command not declared through describeVerb. */
export function verbRecordOf(command: Command): VerbRecord | undefined {
  return verbs.get(command);
}

/** The text the program's help prints after its options (its examples and exit codes), fitted as the rest. */
export function setEpilogue(command: Command, text: string): void {
  epilogues.set(command, text);
}

export function epilogueOf(command: Command): string | undefined {
  return epilogues.get(command);
}
