// The floor bench/latency.mjs compares fleetctl with: what a script does for the same request with Node alone
// (global fetch, the same bearer token, the same output), and nothing else. It imports no module.
//   node bench/bare-client.mjs get BASE_URL ID            GET /v1/devices/ID, printed as indented JSON
//   node bench/bare-client.mjs list BASE_URL LIMIT        one page, its items printed as an indented JSON array
//   node bench/bare-client.mjs reboot BASE_URL HW KEY     POST a reboot with that Idempotency-Key, the answer printed
//   node bench/bare-client.mjs pager BASE_URL LIMIT       every page, each item on a line (ndjson), honouring
//                                                         back-pressure on stdout
// The token comes from BENCH_TOKEN.
const [mode, baseUrl, arg, key] = process.argv.slice(2);
const headers = { authorization: `Bearer ${process.env.BENCH_TOKEN}`, accept: 'application/json, application/problem+json' };

async function json(url, init = {}) {
  const response = await fetch(url, { ...init, headers: { ...headers, ...init.headers } });
  const body = await response.json();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

function write(text) {
  return process.stdout.write(text) ? undefined : new Promise((resolve) => process.stdout.once('drain', resolve));
}

if (mode === 'get') {
  await write(`${JSON.stringify(await json(`${baseUrl}/v1/devices/${encodeURIComponent(arg)}`), null, 2)}\n`);
} else if (mode === 'list') {
  await write(`${JSON.stringify((await json(`${baseUrl}/v1/devices?limit=${arg}`)).data, null, 2)}\n`);
} else if (mode === 'reboot') {
  const url = `${baseUrl}/v1/devices/${encodeURIComponent(arg)}/commands/reboot`;
  await write(`${JSON.stringify(await json(url, { method: 'POST', headers: { 'idempotency-key': key } }), null, 2)}\n`);
} else if (mode === 'pager') {
  let cursor;
  do {
    const page = await json(`${baseUrl}/v1/devices?limit=${arg}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const item of page.data) await write(`${JSON.stringify(item)}\n`);
    cursor = page.has_more ? page.next_cursor : undefined;
  } while (cursor);
} else {
  throw new Error(`unknown mode ${mode}`);
}
