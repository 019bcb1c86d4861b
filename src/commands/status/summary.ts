// The report as a person reads it on a terminal: a compact summary, one section a block, that fits 80 columns
// (anything from the service, a delivery URL say, is made terminal-safe and cut to the line), coloured through the
// output stream's theme: reporting and enabled green, stale and disabled yellow, never reported and refused red.
import type { Theme } from '../../io/theme.js';
import { safeText } from '../../shared/terminal-text.js';
import type { StatusReport } from './report.js';
import { serviceText } from '../../bulk/service.js';

const LABEL = 14;
const WIDTH = 80;

/** Text from outside, harmless and at most `max` characters (an ellipsis says it was cut). */
function fit(text: string, max: number): string {
  const safe = safeText(text);
  return safe.length <= max ? safe : `${safe.slice(0, Math.max(0, max - 1))}…`;
}

const pct = (n: number, total: number) => (total === 0 ? '0%' : `${(Math.round((n / total) * 1000) / 10).toFixed(1)}%`);

function duration(seconds: number): string {
  for (const [unit, size] of [['d', 86_400], ['h', 3_600], ['m', 60]] as const) if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}

export function summaryLines(report: StatusReport, theme: Theme, width = WIDTH): string[] {
  const w = Math.min(width, WIDTH);
  const head = (label: string, rest: string) => `${theme.bold(label.padEnd(LABEL))}${rest}`;
  const lines: string[] = [];
  const { devices: d } = report;
  const scope = report.selection.fleet_id ? `fleet ${report.selection.fleet_id}` : report.selection.organization_id ? `org ${report.selection.organization_id}` : 'all devices';
  lines.push(head('Fleet status', `${report.generated_at.replace(/\.\d+Z$/, 'Z')}  ${scope}`));
  const field = d.report_time_field ? `report time ${fit(d.report_time_field, 24)} (${d.report_time_source})` : theme.warning('report time unknown');
  lines.push(head('Devices', `${d.total} · stale after ${duration(report.stale_after_seconds)} · ${field}`));
  if (d.reporting !== null && d.stale !== null && d.never_reported !== null) {
    const row = (label: string, n: number, paint: (s: string) => string) => `  ${paint(label.padEnd(LABEL - 2))}${String(n).padStart(8)}  ${pct(n, d.total).padStart(6)}`;
    lines.push(row('reporting', d.reporting, theme.success), row('stale', d.stale, theme.warning), row('never', d.never_reported, theme.error));
    if (d.unknown > 0) lines.push(row('unreadable', d.unknown, theme.dim));
  } else {
    lines.push(`  ${theme.warning(fit(d.note ?? '', w - 2))}`);
  }
  const caps = report.capabilities;
  if (caps.coverage === null) lines.push(head('Capabilities', theme.dim(fit(caps.note ?? 'not stated', w - LABEL))));
  else {
    lines.push(head('Capabilities', caps.note ? fit(caps.note, w - LABEL) : `stated by all ${caps.stated_by} records`));
    const cells = caps.coverage.map((c) => `${fit(c.capability, 16).padEnd(16)} ${`${c.percent}%`.padStart(7)}`);
    for (let i = 0; i < cells.length; i += 2) lines.push(`  ${cells.slice(i, i + 2).join('    ')}`);
  }
  const runs = report.commands.runs;
  lines.push(head('Commands', `${runs.length} run${runs.length === 1 ? '' : 's'} to this service from this machine since ${report.commands.since.replace(/:\d\d\.\d+Z$/, 'Z')}`));
  for (const run of runs.slice(-5)) {
    const results = Object.entries(run.results).map(([status, n]) => `${n} ${status.replace('_', ' ')}`).join(', ');
    lines.push(`  ${fit(run.run_id, 24).padEnd(24)} ${fit(run.command, 9).padEnd(9)} ${String(run.targets).padStart(6)}  ${fit(results, w - 45)}`);
  }
  if (runs.length > 5) lines.push(theme.dim(`  and ${runs.length - 5} earlier (all of them with -o json)`));
  // runs sent to another service are not this fleet's: counted apart, by service, never listed with these
  for (const group of report.commands.elsewhere) {
    const count = `${group.runs.length} run${group.runs.length === 1 ? '' : 's'}`;
    const where = group.service === null ? `${count}, service not recorded` : `${count} to ${serviceText(group.service)}`;
    lines.push(theme.dim(`  apart: ${fit(where, w - 9)}`));
  }
  if (report.commands.note) lines.push(`  ${theme.warning(fit(report.commands.note, w - 2))}`);
  lines.push(...webhookLines(report, theme, w, head));
  const configured = report.scopes.configured === null ? 'none configured (each call asks for its own)' : fit(report.scopes.configured.join(' '), w - LABEL);
  lines.push(head('Scopes', configured));
  const stateColour = { granted: 'ok', refused: 'refused', 'not asked': 'skipped' } as const;
  lines.push(`  ${report.scopes.sections.map((s) => `${s.scope} ${theme.status(stateColour[s.state], s.state)}`).join(' · ')}`);
  if (report.thresholds.length > 0) {
    lines.push(head('Thresholds', report.thresholds.every((t) => !t.breached) ? theme.success('all within') : theme.error('breached')));
    for (const t of report.thresholds) {
      const verdict = t.breached ? theme.error('breached') : theme.success('ok');
      lines.push(`  ${fit(t.expression, 20).padEnd(20)} ${verdict}${t.reason ? ` ${fit(t.reason, w - 33)}` : ''}`);
    }
  }
  return lines;
}

function webhookLines(report: StatusReport, theme: Theme, w: number, head: (label: string, rest: string) => string): string[] {
  const hooks = report.webhooks;
  const state = { enabled: theme.status('enabled'), disabled: theme.status('disabled'), none: theme.dim('none configured'), unavailable: theme.warning('unavailable') }[hooks.state];
  const lines = [head('Webhooks', hooks.state === 'unavailable' || hooks.state === 'none' ? state : `${state} · ${hooks.topics.length} topic${hooks.topics.length === 1 ? '' : 's'}`)];
  for (const topic of hooks.topics.slice(0, 5)) {
    const on = topic.is_enabled === false ? theme.status('disabled', 'off') : topic.is_enabled ? theme.status('enabled', 'on ') : '   ';
    lines.push(`  ${fit(topic.type, 9).padEnd(9)} ${on} ${fit(topic.url ?? '', w - 16)}`);
  }
  if (hooks.topics.length > 5) lines.push(theme.dim(`  and ${hooks.topics.length - 5} more topics (all of them with -o json)`));
  if (hooks.state === 'unavailable' && hooks.note) lines.push(`  ${theme.warning(fit(hooks.note, w - 2))}`);
  return lines;
}
