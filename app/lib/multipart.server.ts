/**
 * Reads one multipart part keeping at most `limit` bytes: the rest is read
 * (the parser needs the whole part) and dropped, so a huge upload is never
 * held in memory. Callers pass one byte more than their size limit so the
 * size check still sees a bigger file as too big.
 */
export async function collectPart(data: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of data) {
    if (size >= limit) continue;
    const room = limit - size;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(kept);
    size += kept.length;
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
