// --log-format json (FLEETCTL_LOG_FORMAT=json): every message on stderr one JSON object a line, {time, level,
// message, ...fields}, for journald and log shippers; text, with its labels and colour, stays the default.
import { describe, expect, it } from 'vitest';
import { IOStreams } from '../../src/io/streams.js';
import { jsonLogLine, logFormatOf } from '../../src/io/log-lines.js';

const lines = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l));

describe('JSON log lines', () => {
  it('info, warn, error and hint: one object each, the level apart from the message, fields as members', () => {
    const io = IOStreams.forTest({ env: { FLEETCTL_LOG_FORMAT: 'json', FORCE_COLOR: '1' }, tty: true });
    io.info('Watching 2 devices', { devices: { total: 2 } });
    io.warn('polling failed (HTTP 503)', { failures: 1, retry_in_s: 5 });
    io.error('status: stale>0 breached');
    io.hint('run again with --debug');
    io.paintedInfo(`${io.errTheme().warning('painted')} line`);
    const logged = lines(io.stderr());
    expect(logged.map(({ time: _t, ...rest }) => rest)).toEqual([
      { level: 'info', message: 'Watching 2 devices', devices: { total: 2 } },
      { level: 'warn', message: 'polling failed (HTTP 503)', failures: 1, retry_in_s: 5 },
      { level: 'error', message: 'status: stale>0 breached' },
      { level: 'hint', message: 'run again with --debug' },
      // no colour: a log has no terminal
      { level: 'info', message: 'painted line' },
    ]);
    for (const { time } of logged) expect(new Date(time).toISOString()).toBe(time);
    expect(io.progressEnabled()).toBe(false);
  });

  it('a message of many lines, or with control characters, is still one line of JSON', () => {
    const line = jsonLogLine('info', 'first\nsecond \u001b[31mred\u009b\n', undefined, new Date(0));
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(line).not.toMatch(/[\u001b\u009b]/);
    expect(JSON.parse(line)).toEqual({ time: '1970-01-01T00:00:00.000Z', level: 'info', message: 'first\nsecond \u001b[31mred\u009b' });
  });

  it('a field never replaces time, level or message', () => {
    expect(JSON.parse(jsonLogLine('warn', 'm', { level: 'info', message: 'x', time: 0, code: 3 }, new Date(0)))).toEqual({ time: '1970-01-01T00:00:00.000Z', level: 'warn', message: 'm', code: 3 });
  });

  it('text is the default, labels and all; FLEETCTL_LOG_FORMAT other than json is text', () => {
    expect(logFormatOf(undefined)).toBe('text');
    expect(logFormatOf('JSON')).toBe('json');
    expect(logFormatOf('yaml')).toBe('text');
    const io = IOStreams.forTest();
    io.warn('careful', { ignored: true });
    io.info('said');
    expect(io.stderr()).toBe('Warning: careful\nsaid\n');
  });
});
