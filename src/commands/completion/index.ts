import { Argument, Command } from 'commander';
import type { Deps } from '../../factory.js';
import { SHELLS, completionScript, type Shell } from '../../completion/scripts.js';
import { describeVerb } from '../shared/help.js';

export function newCompletionCommand(deps: Pick<Deps, 'output'>, root: () => Command): Command {
  const command = new Command('completion')
    .description('Print a shell completion script')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS));
  describeVerb(command, {
    output: 'text',
    examples: [
      { comment: 'print the bash script (to source, or to save where bash loads completions from)', command: 'fleetctl completion bash' },
      { comment: 'bash: load completions in this shell', command: 'source <(fleetctl completion bash)' },
      { comment: 'zsh: install completions (add ~/.zfunc to fpath in ~/.zshrc)', command: 'mkdir -p ~/.zfunc && fleetctl completion zsh > ~/.zfunc/_fleetctl' },
      { comment: 'fish: install completions', command: 'mkdir -p ~/.config/fish/completions && fleetctl completion fish > ~/.config/fish/completions/fleetctl.fish' },
    ],
  });
  command.action((shell: Shell) => deps.output().text(completionScript(root(), shell)));
  return command;
}
