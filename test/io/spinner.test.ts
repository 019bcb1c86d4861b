import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPINNER_DELAY_MS, SpinnerActivity, type ShowSpinner } from '../../src/io/spinner.js';
import { IOStreams } from '../../src/io/streams.js';

/** A spinner that records what a person would see: when it appeared, its texts, when it went. */
function recordingSpinner() {
  const events: string[] = [];
  let visible = 0;
  const show: ShowSpinner = async (text) => {
    visible++;
    events.push(`show ${text}`);
    let stopped = false;
    return {
      setText: (next) => {
        if (!stopped) events.push(`text ${next}`);
      },
      stop: () => {
        if (stopped) return;
        stopped = true;
        visible--;
        events.push('stop');
      },
    };
  };
  return { show, events, visible: () => visible };
}

/** A promise settled by the test. */
function pending<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets the show() promise and the work's continuations run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('spinner activity', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a wait shorter than the delay never shows a spinner', async () => {
    const spinner = recordingSpinner();
    const activity = new SpinnerActivity({ enabled: () => true, show: spinner.show });
    const work = pending<string>();
    const done = activity.during('GET /v1/devices', () => work.promise);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS - 1);
    work.resolve('rows');
    await expect(done).resolves.toBe('rows');
    await vi.advanceTimersByTimeAsync(1000);
    expect(spinner.events).toEqual([]);
  });

  it('a longer wait shows it after the delay, and it is gone before the caller sees the result', async () => {
    const spinner = recordingSpinner();
    const activity = new SpinnerActivity({ enabled: () => true, show: spinner.show });
    const work = pending<string>();
    const done = activity.during('GET /v1/devices', () => work.promise).then((rows) => {
      // the caller writes its table here: the spinner must already be cleared
      expect(spinner.visible()).toBe(0);
      return rows;
    });
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    expect(spinner.events).toEqual(['show GET /v1/devices', 'text GET /v1/devices']);
    expect(spinner.visible()).toBe(1);
    work.resolve('rows');
    await expect(done).resolves.toBe('rows');
    expect(spinner.events.at(-1)).toBe('stop');
  });

  it('stops when the work fails', async () => {
    const spinner = recordingSpinner();
    const activity = new SpinnerActivity({ enabled: () => true, show: spinner.show });
    const work = pending();
    const done = activity.during('PUT /v1/webhook-config', () => work.promise);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    expect(spinner.visible()).toBe(1);
    work.reject(new Error('HTTP 412'));
    await expect(done).rejects.toThrow('HTTP 412');
    expect(spinner.visible()).toBe(0);
  });

  it('stops at once on Ctrl-C (the signal), even while the work is still winding down', async () => {
    const spinner = recordingSpinner();
    const activity = new SpinnerActivity({ enabled: () => true, show: spinner.show });
    const controller = new AbortController();
    const work = pending();
    const done = activity.during('GET /v1/devices', () => work.promise, controller.signal);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    expect(spinner.visible()).toBe(1);
    controller.abort();
    expect(spinner.visible()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(spinner.visible()).toBe(0);
    work.resolve();
    await done;
    expect(spinner.events.filter((e) => e === 'show GET /v1/devices')).toHaveLength(1);
  });

  it('nested waits keep one spinner: the inner text while it runs, then the outer text again; update() changes it', async () => {
    const spinner = recordingSpinner();
    const activity = new SpinnerActivity({ enabled: () => true, show: spinner.show });
    const token = pending<string>();
    const answer = pending<string>();
    const done = activity.during('GET /v1/fleets', async (task) => {
      await activity.during('Requesting an access token', () => token.promise);
      task.update('GET /v1/fleets: retrying in 2 s after HTTP 503');
      return answer.promise;
    });
    await vi.advanceTimersByTimeAsync(100);
    // the delay counts from the outer wait: 100 ms of token + 50 ms more shows it
    await vi.advanceTimersByTimeAsync(50);
    expect(spinner.events).toEqual(['show Requesting an access token', 'text Requesting an access token']);
    token.resolve('t');
    await settle();
    answer.resolve('fleets');
    await expect(done).resolves.toBe('fleets');
    expect(spinner.events).toEqual([
      'show Requesting an access token',
      'text Requesting an access token',
      'text GET /v1/fleets',
      'text GET /v1/fleets: retrying in 2 s after HTTP 503',
      'stop',
    ]);
  });

  it('hold(): whatever owns the line (a prompt, a progress bar) clears the spinner and keeps it away until released', async () => {
    const spinner = recordingSpinner();
    const activity = new SpinnerActivity({ enabled: () => true, show: spinner.show });
    const work = pending();
    const done = activity.during('GET /v1/devices', () => work.promise);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    expect(spinner.visible()).toBe(1);
    const release = activity.hold();
    expect(spinner.visible()).toBe(0);
    await vi.advanceTimersByTimeAsync(5000);
    expect(spinner.visible()).toBe(0);
    release();
    release(); // twice is once
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS - 1);
    expect(spinner.visible()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(spinner.visible()).toBe(1);
    work.resolve();
    await done;
    expect(spinner.visible()).toBe(0);
  });

  it('a wait that starts under a hold shows nothing', async () => {
    const spinner = recordingSpinner();
    const activity = new SpinnerActivity({ enabled: () => true, show: spinner.show });
    const release = activity.hold();
    await activity.during('POST /v1/devices/HW-1/commands/reboot', () => vi.advanceTimersByTimeAsync(2000));
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(spinner.events).toEqual([]);
  });

  it('a spinner still loading when the wait ends is stopped as soon as it arrives', async () => {
    const events: string[] = [];
    const loaded = pending<void>();
    const show: ShowSpinner = async (text) => {
      await loaded.promise;
      events.push(`show ${text}`);
      return { setText: () => undefined, stop: () => events.push('stop') };
    };
    const activity = new SpinnerActivity({ enabled: () => true, show });
    const work = pending();
    const done = activity.during('GET /v1/devices', () => work.promise);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    work.resolve();
    await done;
    loaded.resolve();
    await settle();
    expect(events).toEqual(['show GET /v1/devices', 'stop']);
  });

  it('never two spinners at once: a wait that starts while the last one\'s spinner still loads gets one after it is gone', async () => {
    const events: string[] = [];
    const loads: ReturnType<typeof pending<void>>[] = [];
    let drawn = 0;
    const show: ShowSpinner = async (text) => {
      const loaded = pending<void>();
      loads.push(loaded);
      await loaded.promise;
      drawn++;
      events.push(`show ${text} (${drawn} drawn)`);
      return { setText: () => undefined, stop: () => void (drawn--, events.push(`stop ${text}`)) };
    };
    const activity = new SpinnerActivity({ enabled: () => true, show });
    // the token request outlives the delay, its spinner is loading; then it ends and the list starts
    const token = pending();
    const tokenDone = activity.during('Requesting an access token', () => token.promise);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    token.resolve();
    await tokenDone;
    const list = pending();
    const listDone = activity.during('GET /v1/devices', () => list.promise);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS * 3);
    // the first spinner arrives late: it goes at once, and only then is the list's drawn
    expect(loads).toHaveLength(1);
    loads[0]!.resolve();
    await settle();
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    loads[1]?.resolve();
    await settle();
    list.resolve();
    await listDone;
    expect(events).toEqual(['show Requesting an access token (1 drawn)', 'stop Requesting an access token', 'show GET /v1/devices (1 drawn)', 'stop GET /v1/devices']);
  });

  it('control characters in a text are shown, not obeyed', async () => {
    const spinner = recordingSpinner();
    const activity = new SpinnerActivity({ enabled: () => true, show: spinner.show });
    const done = activity.during('GET /v1/x\u001b[2J', () => vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS + 1));
    await done;
    expect(spinner.events[0]).toBe('show GET /v1/x\\x1b[2J');
  });

  it('disabled: the work runs, nothing is drawn', async () => {
    const spinner = recordingSpinner();
    const activity = new SpinnerActivity({ enabled: () => false, show: spinner.show });
    await expect(activity.during('GET /v1/devices', () => vi.advanceTimersByTimeAsync(2000).then(() => 'ok'))).resolves.toBe('ok');
    expect(spinner.events).toEqual([]);
  });
});

describe('when IOStreams allows a spinner', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each([
    { name: 'a terminal', opts: { tty: true }, shown: true },
    { name: 'piped', opts: { tty: false }, shown: false },
    { name: 'NO_COLOR', opts: { tty: true, env: { NO_COLOR: '1' } }, shown: false },
    { name: 'TERM=dumb', opts: { tty: true, env: { TERM: 'dumb' } }, shown: false },
    { name: 'CI=true', opts: { tty: true, env: { CI: 'true' } }, shown: false },
  ])('$name: shown $shown', async ({ opts, shown }) => {
    const spinner = recordingSpinner();
    const io = IOStreams.forTest({ ...opts, showSpinner: spinner.show });
    await io.activity.during('GET /v1/devices', () => vi.advanceTimersByTimeAsync(1000));
    expect(spinner.events.length > 0).toBe(shown);
    expect(io.stdout()).toBe('');
  });

  it('--no-color turns it off; so does stdout going to another program (a pager would share the screen)', async () => {
    const spinner = recordingSpinner();
    const io = IOStreams.forTest({ tty: true, showSpinner: spinner.show });
    io.noColor = true;
    await io.activity.during('GET /v1/devices', () => vi.advanceTimersByTimeAsync(1000));
    const piped = new IOStreams({ out: io.out, err: io.err, in: io.in, stdoutIsTTY: false, stderrIsTTY: true, stdinIsTTY: true, env: {}, showSpinner: spinner.show });
    await piped.activity.during('GET /v1/devices', () => vi.advanceTimersByTimeAsync(1000));
    expect(spinner.events).toEqual([]);
  });
});
