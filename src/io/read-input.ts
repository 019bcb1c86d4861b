// Reading what the user hands us: stdin, or a file (where `-` means stdin).
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}

export async function readFileOrStdin(file: string, stdin: NodeJS.ReadableStream, flag: string): Promise<string> {
  if (file === '-') return readAll(stdin);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${flag} ${file}: ${describeFileError(error as NodeJS.ErrnoException)}`);
  }
}

/** A JSON document from a file or stdin, with the file named in the error when it is not JSON. */
export async function readJsonInput(file: string, stdin: NodeJS.ReadableStream, flag: string): Promise<unknown> {
  const text = await readFileOrStdin(file, stdin, flag);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${flag} ${file === '-' ? '(stdin)' : file} is not valid JSON: ${(error as Error).message}`);
  }
}

function describeFileError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return error.code ?? error.message;
  }
}
