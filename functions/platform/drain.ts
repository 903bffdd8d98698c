/** The most of an unwanted request body the Worker reads before it cancels the rest. */
export const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * Reads and discards the rest of a request body (`alreadyRead` bytes of it already read),
 * so the client's connection is not broken by an answer given before its upload ended
 * (see functions/worker.ts). Past MAX_DRAIN_BYTES the body is cancelled, so an oversized
 * upload cannot keep the Worker reading.
 */
export async function drainReader(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead = 0): Promise<void> {
  let read = alreadyRead;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > MAX_DRAIN_BYTES) {
        await reader.cancel('request body too large to drain');
        return;
      }
    }
  } catch {
    // The client went away: nothing left to read.
  }
}
