// Reading the body of an answer to a delivery (the receiver's, or the user's app behind `webhook listen
// --forward-to`). spec Delivery rule 1: "Any 2xx response acknowledges a delivery": once the status line has
// arrived the outcome is decided, so the body can neither turn an acknowledgement into a failure (and a
// duplicate delivery) nor hold the queue: it is read up to a size limit, until the attempt's deadline or its
// first error, and what came is kept.

/** A response body as undici gives it: an async iterable of chunks that can be destroyed. */
export interface AnswerBody extends AsyncIterable<Uint8Array> {
  destroy(err?: Error): unknown;
}

export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024;

export async function readAnswerBody(body: AnswerBody, maxBytes: number = DEFAULT_MAX_ANSWER_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const piece = Buffer.from(chunk).subarray(0, maxBytes - size);
      chunks.push(piece);
      size += piece.length;
      if (size >= maxBytes) break;
    }
  } catch {
    // cut off, reset or past the deadline: the status already said how the delivery went
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks);
}
