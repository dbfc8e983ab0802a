// SHA-256 (FIPS 180-4) of short texts in plain JavaScript: a hook process digests one small record and
// exits, and loading node:crypto for it would cost more than the rest of its records' work together.
const roundConstants = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const schedule = new Uint32Array(64);

/** The hex SHA-256 of `text` as UTF-8. */
export function sha256Hex(text: string): string {
  const message = Buffer.from(text, "utf8");
  const blocks = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(message.length / 0x20000000));
  view.setUint32(padded.length - 4, (message.length * 8) >>> 0);
  const hash = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  for (let offset = 0; offset < padded.length; offset += 64) compress(hash, view, offset);
  let hex = "";
  for (const word of hash) hex += word.toString(16).padStart(8, "0");
  return hex;
}

function compress(hash: Uint32Array, view: DataView, offset: number): void {
  for (let index = 0; index < 16; index++) schedule[index] = view.getUint32(offset + index * 4);
  for (let index = 16; index < 64; index++) {
    const early = schedule[index - 15]!;
    const late = schedule[index - 2]!;
    const sigma0 = rotate(early, 7) ^ rotate(early, 18) ^ (early >>> 3);
    const sigma1 = rotate(late, 17) ^ rotate(late, 19) ^ (late >>> 10);
    schedule[index] = (schedule[index - 16]! + sigma0 + schedule[index - 7]! + sigma1) >>> 0;
  }
  let [a, b, c, d, e, f, g, h] = hash as unknown as [number, number, number, number, number, number, number, number];
  for (let index = 0; index < 64; index++) {
    const choose = (e & f) ^ (~e & g);
    const temp1 = (h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + choose + roundConstants[index]! + schedule[index]!) >>> 0;
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const temp2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + majority) >>> 0;
    h = g;
    g = f;
    f = e;
    e = (d + temp1) >>> 0;
    d = c;
    c = b;
    b = a;
    a = (temp1 + temp2) >>> 0;
  }
  hash[0] = (hash[0]! + a) >>> 0;
  hash[1] = (hash[1]! + b) >>> 0;
  hash[2] = (hash[2]! + c) >>> 0;
  hash[3] = (hash[3]! + d) >>> 0;
  hash[4] = (hash[4]! + e) >>> 0;
  hash[5] = (hash[5]! + f) >>> 0;
  hash[6] = (hash[6]! + g) >>> 0;
  hash[7] = (hash[7]! + h) >>> 0;
}

function rotate(word: number, by: number): number {
  return (word >>> by) | (word << (32 - by));
}
