// completions/ holds the scripts `fleetctl completion SHELL` prints, regenerated at every build.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const COMPLETION_FILES = { bash: 'fleetctl.bash', zsh: '_fleetctl', fish: 'fleetctl.fish' };

export async function writeCompletions(root) {
  mkdirSync(path.join(root, 'completions'), { recursive: true });
  for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
    const script = execFileSync(process.execPath, [path.join(root, 'bin/fleetctl.js'), 'completion', shell], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    writeFileSync(path.join(root, 'completions', file), script);
  }
}

// `npm run completions` (after a build): test/completion checks the committed files match the command tree.
if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  await writeCompletions(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..'));
}
