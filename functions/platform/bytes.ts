/**
 * Chunks read from a stream as one array of `size` bytes (their summed length): how the
 * Worker keeps a body it read with its own limit (the API's 64 KB one, an admin's image upload, a trade-in's photos).
 */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
