// A module a dependency requires as it loads, but which fleetctl never uses, is loaded on first use instead: the
// stand-in the build puts in its place (src/build/first-use.mjs).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// a build script: plain JavaScript, typed here
const { firstUseStandIn } = (await import(pathToFileURL(path.join(root, 'src/build/first-use.mjs')).href)) as { firstUseStandIn: (load: string) => string };

/** Evaluates the stand-in as the bundle would, with `require` counting the loads of what it stands for. */
function standIn(exported: unknown): { module: { exports: any }; loads: () => number } {
  let loads = 0;
  const module = { exports: {} as any };
  const require = () => {
    loads++;
    return exported;
  };
  new Function('module', 'require', firstUseStandIn('require("./real.js")'))(module, require);
  return { module, loads: () => loads };
}

describe('a module loaded on first use', () => {
  it('is not loaded until used', () => {
    const { loads } = standIn({ spawn: () => 'spawned' });
    expect(loads()).toBe(0);
  });

  it("reads a member of the module (commander's child_process.spawn), loading it once", () => {
    const { module, loads } = standIn({ spawn: (command: string) => `spawned ${command}`, constants: { a: 1 } });
    expect(module.exports.spawn('ls')).toBe('spawned ls');
    expect(module.exports.constants).toEqual({ a: 1 });
    expect(loads()).toBe(1);
  });

  it("calls a module that is a function (undici's connectH2), with its arguments and this", () => {
    const connect = function (this: unknown, client: string, socket: string) {
      return { self: this, client, socket };
    };
    const { module, loads } = standIn(connect);
    const connectH2 = module.exports;
    expect(connectH2('client', 'socket')).toEqual({ self: undefined, client: 'client', socket: 'socket' });
    const owner = { connect: module.exports };
    expect(owner.connect('c', 's').self).toBe(owner);
    expect(loads()).toBe(1);
  });
});
