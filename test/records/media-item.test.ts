// A media item's download link, file name and size, whatever the service calls them.
import { describe, expect, it } from 'vitest';
import { mediaDownloadOf } from '../../src/records/media-item.js';

describe('mediaDownloadOf', () => {
  it('the bundled document\'s members', () => {
    const record = { id: 'm1', download_url: 'https://media.example/a.mp4?sig=1', thumbnail_url: 'https://media.example/a.jpg', file_name: 'front.mp4', size_bytes: 10 };
    expect(mediaDownloadOf(record)).toEqual({ id: 'm1', url: 'https://media.example/a.mp4?sig=1', fileName: 'front.mp4', sizeBytes: 10 });
  });

  it('a nested signed link, read before a thumbnail; the file name from the link\'s path, decoded', () => {
    const record = { media_ref: 'md-00', preview: 'https://media.example/p.jpg', signed_url: { href: 'https://media.example/cab%201.mp4?sig=a', valid_until: 'x' }, bytes: 5 };
    expect(mediaDownloadOf(record)).toEqual({ id: 'md-00', url: 'https://media.example/cab%201.mp4?sig=a', fileName: 'cab 1.mp4', sizeBytes: 5 });
  });

  it('nothing to download: no link, no id, no name', () => {
    expect(mediaDownloadOf({ note: 'ftp://x/y', size: 0 })).toEqual({ id: undefined, url: undefined, fileName: undefined, sizeBytes: undefined });
  });
});
