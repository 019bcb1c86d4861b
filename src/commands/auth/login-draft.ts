// What a failed `auth login` was given (never the secret), kept beside the config so the next login offers it as
// the defaults: after a wrong secret, the operator types the secret again, not the URLs and the client id.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from '../../io/atomic-file.js';

export interface LoginDraft {
  base_url?: string;
  auth_url?: string;
  client_id?: string;
}

const FILE = 'login-draft.json';
const KEYS = ['base_url', 'auth_url', 'client_id'] as const;

type Drafts = Record<string, LoginDraft>;

async function readAll(configDir: string): Promise<Drafts> {
  try {
    const parsed: unknown = JSON.parse(await fs.promises.readFile(path.join(configDir, FILE), 'utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Drafts) : {};
  } catch {
    // no draft, or one that cannot be read: a login simply asks without defaults
    return {};
  }
}

/** The draft of the profile, its values strings only (the file may have been edited by hand). */
export async function readDraft(configDir: string, profile: string): Promise<LoginDraft | undefined> {
  const draft = (await readAll(configDir))[profile];
  if (!draft || typeof draft !== 'object') return undefined;
  const clean = Object.fromEntries(KEYS.flatMap((key) => (typeof draft[key] === 'string' && draft[key] !== '' ? [[key, draft[key]]] : [])));
  return Object.keys(clean).length > 0 ? (clean as LoginDraft) : undefined;
}

export async function saveDraft(configDir: string, profile: string, draft: LoginDraft): Promise<void> {
  const drafts = await readAll(configDir);
  drafts[profile] = Object.fromEntries(KEYS.flatMap((key) => (draft[key] ? [[key, draft[key]]] : [])));
  await writeFileAtomically(path.join(configDir, FILE), `${JSON.stringify(drafts, null, 2)}\n`);
}

/** After a login that worked, its draft is of no more use. */
export async function forgetDraft(configDir: string, profile: string): Promise<void> {
  const drafts = await readAll(configDir);
  if (!(profile in drafts)) return;
  delete drafts[profile];
  const file = path.join(configDir, FILE);
  if (Object.keys(drafts).length === 0) await fs.promises.unlink(file).catch(() => undefined);
  else await writeFileAtomically(file, `${JSON.stringify(drafts, null, 2)}\n`).catch(() => undefined);
}
