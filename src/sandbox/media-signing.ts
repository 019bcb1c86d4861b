// Signed, expiring download URLs for media items: /_sandbox/media/{id}?expires=<unix s>&signature=<hmac>.
// The signature is HMAC-SHA256(secret, "<id>\n<expires>"), base64url. No bearer token is needed or used.
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../shared/constant-time.js';

export const DOWNLOAD_URL_TTL_SECONDS = 900;

export class MediaSigner {
  constructor(
    private readonly secret: Buffer,
    private readonly now: () => Date,
  ) {}

  /** The signed URL for a media item and when it expires. */
  sign(baseUrl: string, mediaId: string): { url: string; expiresAt: string } {
    const expires = Math.floor(this.now().getTime() / 1000) + DOWNLOAD_URL_TTL_SECONDS;
    const signature = this.signature(mediaId, String(expires));
    return {
      url: `${baseUrl}/_sandbox/media/${mediaId}?expires=${expires}&signature=${signature}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** Why a download link is refused, or null when it is valid now. */
  check(mediaId: string, expires: string | null, signature: string | null): string | null {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'The download link is missing its expiry or signature.';
    if (!constantTimeEqual(signature, this.signature(mediaId, expires))) return 'The download link signature is not valid.';
    if (Number(expires) * 1000 <= this.now().getTime()) return 'The download link has expired; list the media again for a fresh one.';
    return null;
  }

  private signature(mediaId: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`${mediaId}\n${expires}`).digest('base64url');
  }
}
