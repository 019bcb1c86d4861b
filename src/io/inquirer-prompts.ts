// The prompts fleetctl asks with, named statically from @inquirer/prompts so the build keeps only these: the
// package is side-effect free, and a dynamic import of the whole set would bundle its editor prompt's encoding
// tables (iconv-lite, chardet: about 670 kB). Loaded on demand by prompter.ts, so commands that never ask pay nothing.
export { confirm, input, password, search, select, Separator } from '@inquirer/prompts';
