// `fleetctl help select`: the selection language that --where and saved selections take, printed, and in the man
// pages as the notes of this topic (fleetctl-help-select.1).
import { Command } from 'commander';
import type { Deps } from '../../factory.js';
import { describeVerb } from '../shared/help.js';

export const SELECT_GRAMMAR = `A selection names devices by condition. Terms are separated by spaces and
all must hold (AND); a term with a leading - must not hold (NOT); values
separated by commas after one qualifier are alternatives (OR). Double quotes
keep spaces, commas and operators inside a value ("North fleet"); write \\"
for a quote inside quotes.

  fleet:NAME|ID      in that fleet (its name, any case, or its uuid)
  org:NAME|ID        in that organization
  has:CAPABILITY     its capabilities name it (has:reboot, has:wake_up)
  seen:>2h           last report longer ago than 2h; seen:<10m within 10m;
                     seen:1h..1d between (units s m h d w)
  never-reported     has never reported (never matched by any seen: term)
  stale              reported, longer ago than --stale-after (default 1h), as
                     fleetctl status counts it
  MEMBER:VALUE       a member of the device records equals VALUE (text without
                     regard to case; nested members dotted: firmware.version)
  MEMBER:>N  >=N  <N  <=N  A..B  (* for an open end: 10..*)
                     numbers as numbers, date-times as instants (any offset, 0
                     to 9 fraction digits; a date is its whole UTC day; text
                     that is no date-time is neither before nor after one),
                     other text in code point order
  MEMBER:~TEXT       contains TEXT, without regard to case
  MEMBER:null        the member is null
  @NAME              a saved selection (fleetctl selection save NAME --where)

A list member matches when one of its elements does; a member a record lacks
matches nothing (so -MEMBER:VALUE selects it). A qualifier or member the
service's document does not declare is refused before any request, with the
names it may have meant. The report time is the one fleetctl status uses
(--report-time-field where a command takes it). A device the selection
cannot decide on (its report time or capabilities unreadable) is left out
and counted on stderr, never acted on.

--where is taken by devices list, status and the bulk verbs (devices
reboot, wake-up, assign --vehicle-id ID, unassign), @NAME also as their
target; a bulk run's journal keeps the expression and the devices it
selected, and --resume goes on with those. On a terminal, a bulk verb with
no devices named can start its picker from a saved selection or a condition
typed there.`;

export function newSelectTopicCommand(deps: Pick<Deps, 'output'>): Command {
  const topic = new Command('select').description('The selection language of --where and saved selections');
  describeVerb(topic, {
    output: 'text',
    notes: SELECT_GRAMMAR,
    examples: [
      { comment: 'the devices that have not reported for two hours', command: 'fleetctl devices list --all --where "seen:>2h"' },
      { comment: 'devices of fleet North that stopped reporting two hours ago', command: 'fleetctl --sandbox devices list --where "fleet:\\"North Delivery 1\\" seen:>2h"' },
      { comment: 'devices that can be woken and have not reported today', command: 'fleetctl --sandbox devices list --all --where "has:wake_up seen:>1d"' },
    ],
  });
  topic.action(() => deps.output().text(SELECT_GRAMMAR));
  return topic;
}
