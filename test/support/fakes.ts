// Fakes that cannot be ignored: every scripted fake (transport answers, MockAgent stubs, prompt answers)
// registers here when it is made, and the setup file (verify-fakes.setup.ts) verifies them all when the test
// ends, so a test passes only if everything it scripted was used, unless it says why not (allowUnanswered,
// allowPending).

/** A fake that can tell, at the end of a test, what it was given and nobody asked for. */
export interface CheckedFake {
  /** Throws (an assertion error) when something scripted was left unused; may release resources too. */
  verify(): void | Promise<void>;
}

const duringTest = new Set<CheckedFake>();
const duringFile = new Set<CheckedFake>();
let inTest = false;

/** Made inside a test (or its beforeEach): verified when the test ends; else when the file ends. */
export function registerFake<F extends CheckedFake>(fake: F): F {
  (inTest ? duringTest : duringFile).add(fake);
  return fake;
}

export function testStarted(): void {
  inTest = true;
}

/** Verifies the test's fakes, all of them even when one fails; the first failure is thrown. */
export async function verifyTestFakes(): Promise<void> {
  inTest = false;
  await verifyAll(duringTest);
}

export async function verifyFileFakes(): Promise<void> {
  await verifyAll(duringFile);
}

async function verifyAll(fakes: Set<CheckedFake>): Promise<void> {
  const all = [...fakes];
  fakes.clear();
  const failures: unknown[] = [];
  for (const fake of all) {
    try {
      await fake.verify();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/** An opt-out must say why: an empty reason is a test bug of its own. */
export function checkReason(why: string): void {
  if (why.trim().length === 0) throw new Error('an opt-out needs a reason: say why what was scripted may stay unused');
}
