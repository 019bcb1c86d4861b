// What a download needs of a media item. spec: an item is shown only as "carrying a time-limited signed download
// URL": its link, file name and size are read from the record, whatever the service calls them.
import { recordId } from './members.js';

export interface MediaDownload {
  /** Undefined when the record carries none (the caller refuses it: a download is named by its id). */
  id: string | undefined;
  /** Undefined when no member holds an http(s) URL. */
  url: string | undefined;
  /** The name the service gives the file, else the last segment of the URL's path; undefined when neither says. */
  fileName: string | undefined;
  /** The size the record states, if it states one (for progress when the download host sends no length). */
  sizeBytes: number | undefined;
}

/** Names of a file name and a size, the bundled document's first. */
const FILE_NAME_MEMBERS = ['file_name', 'fileName', 'filename', 'name'];
const SIZE_MEMBERS = ['size_bytes', 'sizeBytes', 'size', 'bytes'];

/**
 * The link: the http(s) URL among the record's members (nested ones too, three levels down), chosen by how its
 * name reads: a download link reads as one, a signed one is likely it, a thumbnail or a page about the item comes
 * after. The file name: a member named for it, else the last segment of the link's path.
 */
export function mediaDownloadOf(record: unknown): MediaDownload {
  const urls: { name: string; url: string }[] = [];
  const walk = (value: unknown, name: string, depth: number): void => {
    if (typeof value === 'string') {
      if (/^https?:$/.test(URL.parse(value)?.protocol ?? '')) urls.push({ name, url: value });
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < 3) {
      for (const [key, member] of Object.entries(value)) walk(member, name ? `${name}.${key}` : key, depth + 1);
    }
  };
  walk(record, '', 0);
  const score = (name: string) => (/download/i.test(name) ? 4 : 0) + (/sign/i.test(name) ? 2 : 0) + (/thumb|preview|page|self/i.test(name) ? -8 : 0);
  const best = urls.sort((a, b) => score(b.name) - score(a.name))[0];
  const members = (record !== null && typeof record === 'object' ? record : {}) as Record<string, unknown>;
  const named = FILE_NAME_MEMBERS.map((key) => members[key]).find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const fromUrl = best ? decodeURIComponentSafely(URL.parse(best.url)?.pathname.split('/').pop() ?? '') : '';
  const size = SIZE_MEMBERS.map((key) => members[key]).find((value): value is number => typeof value === 'number' && value > 0);
  return { id: recordId(record, 'media'), url: best?.url, fileName: named ?? (fromUrl || undefined), sizeBytes: size };
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
