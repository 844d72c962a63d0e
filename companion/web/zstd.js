// A Zstandard decoder in plain JavaScript, written from the format's specification, RFC 8878
// ("Zstandard Compression and the 'application/zstd' Media Type"), for the phone-alone web build:
// its big files travel compressed with Zstandard and browsers cannot unpack that themselves.
//
// It works as a classic script (importScripts, <script>), as a module (import "./zstd.js") and in
// node: it only sets
//   globalThis.companionZstd = { decompress, stream, unpacked, fetching }
//   decompress(bytes: Uint8Array) -> Uint8Array   all frames, one after the other
//   stream() -> TransformStream<Uint8Array, Uint8Array>   each block's output as soon as it is whole
//   unpacked(response, name), fetching(fetch, names, base): the app's packed files (at the end)
//
// What of RFC 8878 it implements:
//   3.1.1    Zstandard frames: magic number, frame header (3.1.1.1: descriptor, window descriptor,
//            Dictionary_ID (only 0: dictionaries throw), Frame_Content_Size in all four sizes,
//            the single-segment flag), the content checksum (3.1.1: its 4 bytes are checked
//            against XXH64 of the frame's output, low 32 bits);
//   3.1.2    skippable frames (skipped);
//   3.1.1.2  blocks: raw, RLE, compressed; Block_Maximum_Size;
//   3.1.1.3.1 literals section: raw, RLE, compressed and treeless, 1 or 4 Huffman streams;
//   3.1.1.3.2 sequences section: predefined, RLE, FSE-compressed and repeat modes (3.1.1.3.2.1),
//            the codes and their extra bits (3.1.1.3.2.1.1), predefined distributions (3.1.1.3.2.2);
//   3.1.1.4  sequence execution; 3.1.1.5 repeat offsets (with the literal-length-0 shift);
//   4.1      FSE: table description (4.1.1), decoding tables and states (4.1);
//   4.2      Huffman: tree description (4.2.1: the header, weights 4 bits each or FSE-compressed
//            (4.2.1.2), their prefix codes (4.2.1.3)), the streams (4.2.2).
// (Section numbers as in RFC 8878; the field names are the RFC's own, e.g. Block_Maximum_Size.)
// Not implemented: dictionaries (5): a frame that names one throws an Error.
//
// Corrupt or truncated input throws an Error with a short message; every loop is bounded by the
// input or by the output size that the format allows.
"use strict";
(function () {
  const MAGIC = 0xfd2fb528;
  const BLOCK_MAX = 1 << 17; // 128 KiB, the largest Block_Maximum_Size (3.1.1.2)
  const BIG_FRAME = 1 << 25; // a frame said to be larger starts with this buffer and grows it

  function fail(message) {
    throw new Error("zstd: " + message);
  }

  // ---- bit readers -------------------------------------------------------------------------------
  // 4.1 / 4.2.2: FSE and Huffman bitstreams are read backward: the last byte holds a 1-bit end mark
  // above the first bits read; a read of n bits takes the n highest bits still unread. Positions are
  // absolute bit indexes into the input array: the unread bits of a stream are [lo, pos).

  // The n (0..25) bits starting at bit p (little-endian), bits past the array read as 0.
  function bitsAt(src, p, n) {
    const b = p >> 3;
    return ((src[b] | (src[b + 1] << 8) | (src[b + 2] << 16) | (src[b + 3] << 24)) >>> (p & 7)) &
      ((1 << n) - 1);
  }

  // The n bits below pos, as bitsAt, but the bits below lo read as 0 (the end of a stream).
  function bitsBelow(src, pos, n, lo) {
    const p = pos - n;
    if (p >= lo) return bitsAt(src, p, n);
    if (pos <= lo) return 0;
    return bitsAt(src, lo, pos - lo) << (lo - p);
  }

  // The starting position of a backward stream in src[start, end): below its end mark.
  function streamStart(src, start, end) {
    if (end <= start) fail("empty bitstream");
    const last = src[end - 1];
    if (last === 0) fail("bitstream without its end mark");
    return end * 8 - (Math.clz32(last) - 24) - 1;
  }

  // ---- FSE (4.1) ---------------------------------------------------------------------------------
  // A decoding table entry: baseline << 16 | nbBits << 8 | symbol.

  // 4.1.1: reads a table description at src[p...end); fills norm; returns [accuracyLog,
  // number of symbols, the position after it].
  function readFseDescription(src, p, end, maxLog, maxSymbol, norm) {
    if (p >= end) fail("truncated FSE table");
    const log = (src[p] & 15) + 5;
    if (log > maxLog) fail("FSE accuracy log too large");
    const limit = end * 8;
    let bit = p * 8 + 4;
    let remaining = (1 << log) + 1;
    let threshold = 1 << log;
    let nbBits = log + 1;
    let sym = 0;
    while (remaining > 1) {
      if (sym > maxSymbol) fail("FSE table has too many symbols");
      const v = bitsAt(src, bit, nbBits);
      const max = 2 * threshold - 1 - remaining;
      let value;
      if ((v & (threshold - 1)) < max) {
        value = v & (threshold - 1);
        bit += nbBits - 1;
      } else {
        value = v & (2 * threshold - 1);
        if (value >= threshold) value -= max;
        bit += nbBits;
      }
      const count = value - 1;
      norm[sym++] = count;
      remaining -= count < 0 ? -count : count;
      if (count === 0) {
        // 2-bit repeat flags: 0..3 more zero-probability symbols, 3 means another flag follows
        for (;;) {
          const flag = bitsAt(src, bit, 2);
          bit += 2;
          if (bit > limit) fail("truncated FSE table");
          for (let k = 0; k < flag; k++) {
            if (sym > maxSymbol) fail("FSE table has too many symbols");
            norm[sym++] = 0;
          }
          if (flag !== 3) break;
        }
      }
      if (remaining < 1) fail("bad FSE table");
      while (remaining < threshold) {
        nbBits--;
        threshold >>= 1;
      }
      if (bit > limit) fail("truncated FSE table");
    }
    if (remaining !== 1) fail("bad FSE table");
    return [log, sym, (bit + 7) >> 3];
  }

  const spread = new Uint8Array(512);
  const nextState = new Uint16Array(256);

  // 4.1.1: the decoding table of a distribution, into table (Int32Array of 1 << log).
  function buildFseTable(norm, nsym, log, table) {
    const size = 1 << log;
    let high = size - 1;
    for (let s = 0; s < nsym; s++) {
      if (norm[s] === -1) {
        spread[high--] = s;
        nextState[s] = 1;
      } else {
        nextState[s] = norm[s];
      }
    }
    const step = (size >> 1) + (size >> 3) + 3;
    const mask = size - 1;
    let pos = 0;
    for (let s = 0; s < nsym; s++) {
      for (let i = 0; i < norm[s]; i++) {
        spread[pos] = s;
        do pos = (pos + step) & mask; while (pos > high);
      }
    }
    if (pos !== 0) fail("bad FSE table");
    for (let u = 0; u < size; u++) {
      const s = spread[u];
      const next = nextState[s]++;
      const nb = log - (31 - Math.clz32(next));
      table[u] = (((next << nb) - size) << 16) | (nb << 8) | s;
    }
  }

  // ---- Huffman (4.2) -----------------------------------------------------------------------------
  const weights = new Uint8Array(256 + 2);
  const weightNorm = new Int16Array(256);
  const weightTable = new Int32Array(64);
  const rankStart = new Uint32Array(13);

  // 4.2.1.2: Huffman weights compressed with FSE, two interleaved states; returns their number.
  function fseWeights(src, p, end) {
    const [log, nsym, q] = readFseDescription(src, p, end, 6, 255, weightNorm);
    buildFseTable(weightNorm, nsym, log, weightTable);
    const lo = q * 8;
    let pos = streamStart(src, q, end);
    pos -= log;
    let s1 = bitsBelow(src, pos + log, log, lo);
    pos -= log;
    let s2 = bitsBelow(src, pos + log, log, lo);
    if (pos < lo) fail("truncated Huffman weights");
    let n = 0;
    for (;;) {
      if (n > 253) fail("too many Huffman weights");
      let e = weightTable[s1];
      weights[n++] = e & 255;
      let nb = (e >> 8) & 255;
      s1 = (e >>> 16) + bitsBelow(src, pos, nb, lo);
      pos -= nb;
      if (pos < lo) {
        weights[n++] = weightTable[s2] & 255;
        break;
      }
      e = weightTable[s2];
      weights[n++] = e & 255;
      nb = (e >> 8) & 255;
      s2 = (e >>> 16) + bitsBelow(src, pos, nb, lo);
      pos -= nb;
      if (pos < lo) {
        weights[n++] = weightTable[s1] & 255;
        break;
      }
    }
    return n;
  }

  // 4.2.1: the tree description at src[p...end): fills table (entries symbol << 4 | nbBits, indexed
  // by the next maxBits bits); returns [maxBits, the position after it].
  function readHuffmanTree(src, p, end, table) {
    if (p >= end) fail("truncated Huffman tree");
    const head = src[p++];
    let n;
    if (head < 128) {
      if (p + head > end || head === 0) fail("truncated Huffman tree");
      n = fseWeights(src, p, p + head);
      p += head;
    } else {
      n = head - 127; // 4.2.1.1: direct, 4 bits each, the first in the high half
      if (p + ((n + 1) >> 1) > end) fail("truncated Huffman tree");
      for (let i = 0; i < n; i++) {
        const b = src[p + (i >> 1)];
        weights[i] = i & 1 ? b & 15 : b >> 4;
      }
      p += (n + 1) >> 1;
    }
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const w = weights[i];
      if (w > 11) fail("bad Huffman weight");
      if (w) sum += 1 << (w - 1);
    }
    if (sum === 0) fail("bad Huffman tree");
    const maxBits = 32 - Math.clz32(sum);
    if (maxBits > 11) fail("Huffman codes too long");
    const rest = (1 << maxBits) - sum;
    if (rest & (rest - 1)) fail("bad Huffman tree");
    weights[n++] = 32 - Math.clz32(rest); // the last weight is implied (4.2.1)
    // 4.2.1.3: codes by increasing weight, then by symbol; a symbol of weight w fills 2^(w-1) slots
    rankStart.fill(0);
    for (let i = 0; i < n; i++) if (weights[i]) rankStart[weights[i]] += 1 << (weights[i] - 1);
    let at = 0;
    for (let w = 1; w <= 12; w++) {
      const c = rankStart[w];
      rankStart[w] = at;
      at += c;
    }
    for (let s = 0; s < n; s++) {
      const w = weights[s];
      if (!w) continue;
      const entry = (s << 4) | (maxBits + 1 - w);
      const from = rankStart[w];
      const to = from + (1 << (w - 1));
      for (let i = from; i < to; i++) table[i] = entry;
      rankStart[w] = to;
    }
    return [maxBits, p];
  }

  // 4.2.2: one Huffman stream src[start, end) decoded into out[op, opEnd).
  function huffmanStream(src, start, end, out, op, opEnd, table, maxBits) {
    const lo = start * 8;
    let pos = streamStart(src, start, end);
    const mask = (1 << maxBits) - 1;
    const fastLo = lo + maxBits;
    // two symbols from one 4-byte read while at least 2 * maxBits bits are left
    const twoLo = lo + 2 * maxBits;
    const opTwo = opEnd - 1;
    while (pos >= twoLo && op < opTwo) {
      const p = pos - 2 * maxBits;
      const b = p >> 3;
      const v = (src[b] | (src[b + 1] << 8) | (src[b + 2] << 16) | (src[b + 3] << 24)) >>> (p & 7);
      const e1 = table[(v >>> maxBits) & mask];
      const n1 = e1 & 15;
      const e2 = table[(v >>> (maxBits - n1)) & mask];
      out[op] = e1 >> 4;
      out[op + 1] = e2 >> 4;
      op += 2;
      pos -= n1 + (e2 & 15);
    }
    while (op < opEnd) {
      const idx = pos >= fastLo ? bitsAt(src, pos - maxBits, maxBits) : bitsBelow(src, pos, maxBits, lo);
      const e = table[idx];
      out[op++] = e >> 4;
      pos -= e & 15;
    }
    if (pos !== lo) fail("corrupt Huffman stream");
  }

  // ---- sequences: codes (3.1.1.3.2.1.1) and predefined distributions (3.1.1.3.2.2) ------------
  const LL_BASE = new Uint32Array(36);
  const LL_BITS = new Uint8Array(36);
  const ML_BASE = new Uint32Array(53);
  const ML_BITS = new Uint8Array(53);
  (function codes() {
    const llBits = [1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
    for (let c = 0; c < 16; c++) LL_BASE[c] = c;
    for (let c = 16, base = 16; c < 36; c++) {
      LL_BASE[c] = base;
      LL_BITS[c] = llBits[c - 16];
      base = c === 24 ? 64 : base + (1 << LL_BITS[c]);
    }
    const mlBits = [1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
    for (let c = 0; c < 32; c++) ML_BASE[c] = c + 3;
    for (let c = 32, base = 35; c < 53; c++) {
      ML_BASE[c] = base;
      ML_BITS[c] = mlBits[c - 32];
      base += 1 << ML_BITS[c];
    }
  })();

  const LL_DEFAULT = [4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3,
    2, 1, 1, 1, 1, 1, -1, -1, -1, -1];
  const ML_DEFAULT = [1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1];
  const OF_DEFAULT = [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1,
    -1, -1, -1, -1];

  // per kind (literal lengths, offsets, match lengths): max accuracy log, max symbol, default
  const KINDS = [
    { maxLog: 9, maxSymbol: 35, defLog: 6, def: LL_DEFAULT },
    { maxLog: 8, maxSymbol: 31, defLog: 5, def: OF_DEFAULT },
    { maxLog: 9, maxSymbol: 52, defLog: 6, def: ML_DEFAULT },
  ];
  for (const k of KINDS) {
    k.table = new Int32Array(1 << k.defLog);
    buildFseTable(Int16Array.from(k.def), k.def.length, k.defLog, k.table);
  }
  const seqNorm = new Int16Array(64);

  // ---- XXH64 (the content checksum, 3.1.1) -------------------------------------------------------
  // 64-bit words as [high, low] 32-bit halves; XXH64 with seed 0, the whole input at once.
  const P1H = 0x9e3779b1, P1L = 0x85ebca87;
  const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
  const P3H = 0x165667b1, P3L = 0x9e3779f9;
  const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
  const P5H = 0x27d4eb2f, P5L = 0x165667c5;
  const x = new Uint32Array(2); // scratch result [high, low]

  // x = a * b mod 2^64: the low halves' full product from 16-bit pieces, the cross terms mod 2^32
  function mul64(ah, al, bh, bl) {
    const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
    const m1 = a1 * b0, m2 = a0 * b1;
    const carry = ((a0 * b0) >>> 16) + (m1 & 0xffff) + (m2 & 0xffff);
    x[1] = Math.imul(al, bl);
    x[0] = a1 * b1 + (m1 >>> 16) + (m2 >>> 16) + (carry >>> 16) + Math.imul(ah, bl) + Math.imul(al, bh);
  }

  // x = a + b mod 2^64
  function add64(ah, al, bh, bl) {
    const low = al + bl;
    x[1] = low;
    x[0] = ah + bh + (low > 0xffffffff ? 1 : 0);
  }

  // x = rotl(a, n), 0 < n < 32
  function rotl64(ah, al, n) {
    x[0] = (ah << n) | (al >>> (32 - n));
    x[1] = (al << n) | (ah >>> (32 - n));
  }

  // x = rotl(acc + input * P2, 31) * P1
  function round64(ah, al, ih, il) {
    mul64(ih, il, P2H, P2L);
    add64(ah, al, x[0], x[1]);
    rotl64(x[0], x[1], 31);
    mul64(x[0], x[1], P1H, P1L);
  }

  function le32(b, i) {
    return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
  }

  // The low 32 bits of XXH64(data[start, end), seed 0).
  function xxh64Low(data, start, end) {
    const len = end - start;
    let i = start;
    let hh, hl;
    if (len >= 32) {
      const v = new Uint32Array(8); // v1..v4 as [high, low]
      add64(P1H, P1L, P2H, P2L);
      v[0] = x[0];
      v[1] = x[1];
      v[2] = P2H;
      v[3] = P2L;
      add64(~P1H, ~P1L, 0, 1); // -P1
      v[6] = x[0];
      v[7] = x[1];
      for (; i + 32 <= end; i += 32) {
        for (let k = 0; k < 8; k += 2) {
          round64(v[k], v[k + 1], le32(data, i + 4 * k + 4), le32(data, i + 4 * k));
          v[k] = x[0];
          v[k + 1] = x[1];
        }
      }
      hh = 0;
      hl = 0;
      const rot = [1, 7, 12, 18];
      for (let k = 0; k < 4; k++) {
        rotl64(v[2 * k], v[2 * k + 1], rot[k]);
        add64(hh, hl, x[0], x[1]);
        hh = x[0];
        hl = x[1];
      }
      for (let k = 0; k < 8; k += 2) {
        round64(0, 0, v[k], v[k + 1]);
        mul64(hh ^ x[0], hl ^ x[1], P1H, P1L);
        add64(x[0], x[1], P4H, P4L);
        hh = x[0];
        hl = x[1];
      }
    } else {
      hh = P5H;
      hl = P5L;
    }
    add64(hh, hl, Math.floor(len / 4294967296), len >>> 0);
    hh = x[0];
    hl = x[1];
    for (; i + 8 <= end; i += 8) {
      round64(0, 0, le32(data, i + 4), le32(data, i));
      rotl64(hh ^ x[0], hl ^ x[1], 27);
      mul64(x[0], x[1], P1H, P1L);
      add64(x[0], x[1], P4H, P4L);
      hh = x[0];
      hl = x[1];
    }
    if (i + 4 <= end) {
      mul64(0, le32(data, i), P1H, P1L);
      rotl64(hh ^ x[0], hl ^ x[1], 23);
      mul64(x[0], x[1], P2H, P2L);
      add64(x[0], x[1], P3H, P3L);
      hh = x[0];
      hl = x[1];
      i += 4;
    }
    for (; i < end; i++) {
      mul64(0, data[i], P5H, P5L);
      rotl64(hh ^ x[0], hl ^ x[1], 11);
      mul64(x[0], x[1], P1H, P1L);
      hh = x[0];
      hl = x[1];
    }
    // avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
    mul64(hh, hl ^ (hh >>> 1), P2H, P2L);
    hh = x[0];
    hl = x[1];
    mul64(hh ^ (hh >>> 29), hl ^ ((hl >>> 29) | (hh << 3)), P3H, P3L);
    return (x[1] ^ x[0]) >>> 0;
  }

  // ---- the decoder ---------------------------------------------------------------------------
  const S_MAGIC = 0, S_SKIP = 1, S_BLOCK = 2, S_CHECKSUM = 3;

  class Decoder {
    // perBlock: hand out each block's output as it is made (stream), else each frame's at its end
    constructor(perBlock) {
      this.perBlock = perBlock;
      this.buf = new Uint8Array(0); // input not yet used: buf[at, end)
      this.at = 0;
      this.end = 0;
      this.state = S_MAGIC;
      this.skip = 0;
      this.frames = 0;
      this.lit = new Uint8Array(BLOCK_MAX);
      this.huf = new Uint16Array(1 << 11);
      this.hufBits = 0; // 0: no Huffman table yet in this frame
      // per kind (LL, OF, ML): its own table, and the one in use (own or predefined)
      this.own = [new Int32Array(512), new Int32Array(256), new Int32Array(512)];
      this.tables = [null, null, null];
      this.logs = [0, 0, 0];
      this.out = null;
    }

    push(chunk) {
      const n = chunk.length;
      if (this.end + n > this.buf.length) {
        const pending = this.end - this.at;
        if (pending + n <= this.buf.length >> 1) {
          this.buf.copyWithin(0, this.at, this.end);
        } else {
          const bigger = new Uint8Array(Math.max(2 * (pending + n), 1 << 18));
          bigger.set(this.buf.subarray(this.at, this.end));
          this.buf = bigger;
        }
        this.at = 0;
        this.end = pending;
      }
      this.buf.set(chunk, this.end);
      this.end += n;
    }

    // Decodes what the input holds so far; calls emit(bytes) with output never written again.
    run(emit) {
      for (;;) {
        const src = this.buf, at = this.at, avail = this.end - at;
        if (this.state === S_MAGIC) {
          if (avail < 4) return;
          const magic = le32(src, at);
          if (magic === MAGIC) {
            if (avail < 5) return;
            const size = headerSize(src[at + 4]);
            if (avail < size) return;
            this.frameHeader(src, at + 4);
            this.at = at + size;
            this.state = S_BLOCK;
          } else if ((magic & 0xfffffff0) === 0x184d2a50) { // 3.1.2 skippable frame
            if (avail < 8) return;
            this.skip = le32(src, at + 4);
            this.at = at + 8;
            this.frames++;
            this.state = S_SKIP;
          } else {
            fail(this.frames ? "bad magic number after a frame" : "not Zstandard data (bad magic number)");
          }
        } else if (this.state === S_SKIP) {
          const n = Math.min(avail, this.skip);
          this.at = at + n;
          this.skip -= n;
          if (this.skip > 0) return;
          this.state = S_MAGIC;
        } else if (this.state === S_BLOCK) {
          if (avail < 3) return;
          const h = src[at] | (src[at + 1] << 8) | (src[at + 2] << 16); // 3.1.1.2 block header
          const last = h & 1, type = (h >> 1) & 3, size = h >>> 3;
          if (type === 3) fail("reserved block type");
          if (size > this.blockMax) fail("block size over the maximum");
          const need = 3 + (type === 1 ? 1 : size);
          if (avail < need) return;
          const from = this.outPos;
          this.block(src, at + 3, type, size);
          this.at = at + need;
          if (this.perBlock && this.outPos > from) emit(this.out.subarray(from, this.outPos));
          if (last) {
            if (this.checksum) this.state = S_CHECKSUM;
            else this.endFrame(emit);
          }
        } else {
          if (avail < 4) return;
          if (le32(src, at) !== xxh64Low(this.out, 0, this.outPos)) fail("checksum mismatch");
          this.at = at + 4;
          this.endFrame(emit);
        }
      }
    }

    // The input is over: it must end between frames.
    finish() {
      if (this.state !== S_MAGIC || this.end > this.at) fail("truncated input");
      if (this.frames === 0) fail("no Zstandard frame");
    }

    // 3.1.1.1 frame header, after the magic number
    frameHeader(src, p) {
      const fhd = src[p++];
      const fcsFlag = fhd >> 6, single = (fhd >> 5) & 1, didFlag = fhd & 3;
      if (fhd & 8) fail("reserved bit set in the frame header");
      this.checksum = (fhd >> 2) & 1;
      let window = 0;
      if (!single) {
        const wd = src[p++];
        const log = 10 + (wd >> 3);
        window = 2 ** log + (2 ** log / 8) * (wd & 7);
      }
      if (didFlag) {
        const n = didFlag === 3 ? 4 : didFlag;
        let id = 0;
        for (let i = n - 1; i >= 0; i--) id = id * 256 + src[p + i];
        p += n;
        if (id !== 0) fail("dictionaries are not supported");
      }
      let fcs = -1;
      if (fcsFlag === 0 && single) fcs = src[p];
      else if (fcsFlag === 1) fcs = (src[p] | (src[p + 1] << 8)) + 256;
      else if (fcsFlag === 2) fcs = le32(src, p);
      else if (fcsFlag === 3) fcs = le32(src, p + 4) * 4294967296 + le32(src, p);
      if (single) window = fcs;
      this.window = window;
      this.blockMax = Math.min(window, BLOCK_MAX);
      this.fcs = fcs;
      if (fcs > 0x7fffffff) fail("frame too large for this decoder");
      this.out = new Uint8Array(fcs >= 0 ? Math.min(fcs, BIG_FRAME) : 1 << 17);
      this.outPos = 0;
      this.hufBits = 0;
      this.tables[0] = this.tables[1] = this.tables[2] = null;
      this.r1 = 1; // 3.1.1.5: the repeat offsets start as 1, 4, 8
      this.r2 = 4;
      this.r3 = 8;
    }

    endFrame(emit) {
      if (this.fcs >= 0 && this.outPos !== this.fcs) fail("frame size differs from Frame_Content_Size");
      if (!this.perBlock) emit(this.out.subarray(0, this.outPos));
      this.out = null;
      this.frames++;
      this.state = S_MAGIC;
    }

    // room for a block's output; returns how far it may write
    room() {
      let limit = this.outPos + this.blockMax;
      if (this.fcs >= 0 && limit > this.fcs) limit = this.fcs;
      if (limit > this.out.length) {
        let size = Math.max(limit, 2 * this.out.length);
        if (this.fcs >= 0 && size > this.fcs) size = this.fcs;
        const bigger = new Uint8Array(size);
        bigger.set(this.out.subarray(0, this.outPos));
        this.out = bigger; // what was handed out stays in the old buffer, never written again
      }
      return limit;
    }

    // 3.1.1.2 a block's content at src[p...]
    block(src, p, type, size) {
      const limit = this.room();
      if (type === 0) {
        if (this.outPos + size > limit) fail("block output over the maximum");
        this.out.set(src.subarray(p, p + size), this.outPos);
        this.outPos += size;
      } else if (type === 1) {
        if (this.outPos + size > limit) fail("block output over the maximum");
        this.out.fill(src[p], this.outPos, this.outPos + size);
        this.outPos += size;
      } else {
        this.compressedBlock(src, p, p + size, limit);
      }
    }

    // 3.1.1.3 compressed block: literals section, then sequences section
    compressedBlock(src, p, end, limit) {
      if (p >= end) fail("empty compressed block");
      const b0 = src[p];
      const type = b0 & 3, format = (b0 >> 2) & 3;
      let litSrc = this.lit, litAt = 0, litEnd;
      if (type < 2) { // 3.1.1.3.1 Literals_Section_Header: raw or RLE literals
        let size;
        if ((format & 1) === 0) {
          size = b0 >> 3;
          p += 1;
        } else if (format === 1) {
          size = (b0 >> 4) + (src[p + 1] << 4);
          p += 2;
        } else {
          size = (b0 >> 4) + (src[p + 1] << 4) + (src[p + 2] << 12);
          p += 3;
        }
        if (size > this.blockMax) fail("too many literals");
        if (type === 0) {
          if (p + size > end) fail("truncated literals");
          litSrc = src;
          litAt = p;
          litEnd = p + size;
          p += size;
        } else {
          if (p >= end) fail("truncated literals");
          this.lit.fill(src[p], 0, size);
          litEnd = size;
          p += 1;
        }
      } else { // compressed or treeless
        let regen, csize;
        if (format < 2) {
          const h = b0 | (src[p + 1] << 8) | (src[p + 2] << 16);
          regen = (h >> 4) & 0x3ff;
          csize = (h >> 14) & 0x3ff;
          p += 3;
        } else if (format === 2) {
          const h = le32(src, p);
          regen = (h >>> 4) & 0x3fff;
          csize = h >>> 18;
          p += 4;
        } else {
          regen = (le32(src, p) >>> 4) & 0x3ffff;
          csize = (src[p + 2] >> 6) | (src[p + 3] << 2) | (src[p + 4] << 10);
          p += 5;
        }
        if (regen > this.blockMax) fail("too many literals");
        if (p + csize > end) fail("truncated literals");
        const cEnd = p + csize;
        if (type === 2) {
          const [bits, q] = readHuffmanTree(src, p, cEnd, this.huf);
          this.hufBits = bits;
          p = q;
        } else if (!this.hufBits) {
          fail("treeless literals without a previous Huffman table");
        }
        this.huffmanLiterals(src, p, cEnd, regen, format !== 0);
        litEnd = regen;
        p = cEnd;
      }
      this.sequences(src, p, end, litSrc, litAt, litEnd, limit);
    }

    // 3.1.1.3.1: 1 Huffman stream, or 4 after a 6-byte Jump_Table
    huffmanLiterals(src, p, end, regen, four) {
      const out = this.lit, table = this.huf, bits = this.hufBits;
      if (!four) {
        huffmanStream(src, p, end, out, 0, regen, table, bits);
        return;
      }
      if (p + 6 > end) fail("truncated jump table");
      const s1 = src[p] | (src[p + 1] << 8);
      const s2 = src[p + 2] | (src[p + 3] << 8);
      const s3 = src[p + 4] | (src[p + 5] << 8);
      const seg = (regen + 3) >> 2;
      if (regen < 3 * seg) fail("too few literals for 4 streams");
      let a = p + 6;
      const ends = [a + s1, a + s1 + s2, a + s1 + s2 + s3, end];
      if (ends[2] > end) fail("bad jump table");
      for (let i = 0; i < 4; i++) {
        const o = i * seg;
        huffmanStream(src, a, ends[i], out, o, i < 3 ? o + seg : regen, table, bits);
        a = ends[i];
      }
    }

    // 3.1.1.3.2.1: the table of one kind (0 LL, 1 OF, 2 ML) for the mode; returns the position after
    // its description
    seqTable(kind, mode, src, p, end) {
      const k = KINDS[kind];
      if (mode === 0) {
        this.tables[kind] = k.table;
        this.logs[kind] = k.defLog;
      } else if (mode === 1) {
        if (p >= end) fail("truncated sequences header");
        const sym = src[p++];
        if (sym > k.maxSymbol) fail("bad RLE symbol");
        this.own[kind][0] = sym;
        this.tables[kind] = this.own[kind];
        this.logs[kind] = 0;
      } else if (mode === 2) {
        const [log, nsym, q] = readFseDescription(src, p, end, k.maxLog, k.maxSymbol, seqNorm);
        if (q > end) fail("truncated FSE table");
        buildFseTable(seqNorm, nsym, log, this.own[kind]);
        this.tables[kind] = this.own[kind];
        this.logs[kind] = log;
        p = q;
      } else if (!this.tables[kind]) {
        fail("repeat mode without a previous table");
      }
      return p;
    }

    // 3.1.1.3.2 sequences section at src[p, end), and 3.1.1.4 their execution
    sequences(src, p, end, litSrc, litAt, litEnd, limit) {
      if (p >= end) fail("truncated sequences section");
      let nbSeq = src[p++];
      if (nbSeq >= 128) {
        if (nbSeq < 255) nbSeq = ((nbSeq - 128) << 8) + src[p++];
        else {
          nbSeq = src[p] + (src[p + 1] << 8) + 0x7f00;
          p += 2;
        }
      }
      const out = this.out;
      let op = this.outPos;
      if (nbSeq === 0) {
        if (p !== end) fail("bad sequences section");
      } else {
        if (p >= end) fail("truncated sequences section");
        const modes = src[p++];
        if (modes & 3) fail("reserved bits set in the sequences header");
        p = this.seqTable(0, modes >> 6, src, p, end);
        p = this.seqTable(1, (modes >> 4) & 3, src, p, end);
        p = this.seqTable(2, (modes >> 2) & 3, src, p, end);
        const r = executeSequences(this, src, p, end, nbSeq, litSrc, litAt, litEnd, limit);
        op = r[0];
        litAt = r[1];
      }
      const rest = litEnd - litAt;
      if (op + rest > limit) fail("block output over the maximum");
      copyBytes(litSrc, litAt, out, op, rest);
      this.outPos = op + rest;
    }
  }

  function copyBytes(from, at, to, op, n) {
    if (n > 32) to.set(from.subarray(at, at + n), op);
    else for (let i = 0; i < n; i++) to[op + i] = from[at + i];
  }

  // 3.1.1.1: the frame header's size (without the magic number) from its descriptor byte
  function headerSize(fhd) {
    const fcsFlag = fhd >> 6, single = (fhd >> 5) & 1, did = fhd & 3;
    return 4 + 1 + (single ? 0 : 1) + [0, 1, 2, 4][did] + [single, 2, 4, 8][fcsFlag];
  }

  // Decodes and executes nbSeq sequences from the bitstream src[p, end); returns [output position,
  // literals position].
  function executeSequences(d, src, p, end, nbSeq, lit, litAt, litEnd, limit) {
    const out = d.out, window = d.window;
    const llT = d.tables[0], ofT = d.tables[1], mlT = d.tables[2];
    const lo = p * 8;
    let pos = streamStart(src, p, end);
    let op = d.outPos;
    let r1 = d.r1, r2 = d.r2, r3 = d.r3;
    // 3.1.1.3.2.1: initial states, LL then OF then ML
    let n = d.logs[0];
    pos -= n;
    let llS = bitsAt(src, pos, n);
    n = d.logs[1];
    pos -= n;
    let ofS = bitsAt(src, pos, n);
    n = d.logs[2];
    pos -= n;
    let mlS = bitsAt(src, pos, n);
    for (let i = 0; i < nbSeq; i++) {
      const llE = llT[llS], ofE = ofT[ofS], mlE = mlT[mlS];
      // extra bits: offset, then match length, then literals length
      const ofCode = ofE & 255;
      let ofv;
      if (ofCode <= 25) {
        pos -= ofCode;
        ofv = (1 << ofCode) + bitsAt(src, pos, ofCode);
      } else {
        if (ofCode > 30) fail("offset too large");
        pos -= ofCode - 16;
        const high = bitsAt(src, pos, ofCode - 16);
        pos -= 16;
        ofv = 2 ** ofCode + high * 65536 + bitsAt(src, pos, 16);
      }
      // match length and literals length extra bits, with one read when they fit in 25 bits
      const mlCode = mlE & 255, llCode = llE & 255;
      const nM = ML_BITS[mlCode], nL = LL_BITS[llCode];
      let ml, ll;
      if (nM + nL <= 25) {
        pos -= nM + nL;
        const v = bitsAt(src, pos, nM + nL);
        ml = ML_BASE[mlCode] + (v >>> nL);
        ll = LL_BASE[llCode] + (v & ((1 << nL) - 1));
      } else {
        pos -= nM;
        ml = ML_BASE[mlCode] + bitsAt(src, pos, nM);
        pos -= nL;
        ll = LL_BASE[llCode] + bitsAt(src, pos, nL);
      }
      // 3.1.1.5 repeat offsets
      let off;
      if (ofv > 3) {
        off = ofv - 3;
        r3 = r2;
        r2 = r1;
        r1 = off;
      } else {
        const rep = ll === 0 ? ofv + 1 : ofv;
        if (rep === 1) off = r1;
        else if (rep === 2) {
          off = r2;
          r2 = r1;
          r1 = off;
        } else {
          off = rep === 3 ? r3 : r1 - 1;
          r3 = r2;
          r2 = r1;
          r1 = off;
        }
      }
      if (i + 1 < nbSeq) { // state updates: LL, ML, OF, with one read when they fit in 25 bits
        const uL = (llE >> 8) & 255, uM = (mlE >> 8) & 255, uO = (ofE >> 8) & 255;
        if (uL + uM + uO <= 25) {
          pos -= uL + uM + uO;
          const v = bitsAt(src, pos, uL + uM + uO);
          llS = (llE >>> 16) + (v >>> (uM + uO));
          mlS = (mlE >>> 16) + ((v >>> uO) & ((1 << uM) - 1));
          ofS = (ofE >>> 16) + (v & ((1 << uO) - 1));
        } else {
          pos -= uL;
          llS = (llE >>> 16) + bitsAt(src, pos, uL);
          pos -= uM;
          mlS = (mlE >>> 16) + bitsAt(src, pos, uM);
          pos -= uO;
          ofS = (ofE >>> 16) + bitsAt(src, pos, uO);
        }
      }
      if (pos < lo) fail("corrupt sequences bitstream");
      // 3.1.1.4 execution: ll literals, then ml bytes from off back
      if (litAt + ll > litEnd) fail("sequences use more literals than there are");
      if (op + ll + ml > limit) fail("block output over the maximum");
      if (ll > 48) out.set(lit.subarray(litAt, litAt + ll), op);
      else for (let k = 0; k < ll; k++) out[op + k] = lit[litAt + k];
      op += ll;
      litAt += ll;
      if (off > op || off > window || off === 0) fail("offset beyond the window");
      const s = op - off;
      if (ml <= 48) {
        for (let k = 0; k < ml; k++) out[op + k] = out[s + k];
      } else if (off >= ml) {
        out.copyWithin(op, s, s + ml);
      } else { // overlapping: the period doubles with each copy
        let done = 0;
        while (done < ml) {
          const c = Math.min(off + done, ml - done);
          out.copyWithin(op + done, s, s + c);
          done += c;
        }
      }
      op += ml;
    }
    if (pos !== lo) fail("corrupt sequences bitstream");
    d.r1 = r1;
    d.r2 = r2;
    d.r3 = r3;
    return [op, litAt];
  }

  function concat(parts) {
    if (parts.length === 1) return parts[0];
    let n = 0;
    for (const part of parts) n += part.length;
    const all = new Uint8Array(n);
    n = 0;
    for (const part of parts) {
      all.set(part, n);
      n += part.length;
    }
    return all;
  }

  function decompress(bytes) {
    if (!(bytes instanceof Uint8Array)) fail("decompress wants a Uint8Array");
    const d = new Decoder(false);
    d.buf = bytes;
    d.end = bytes.length;
    const parts = [];
    d.run((part) => parts.push(part));
    d.finish();
    return parts.length ? concat(parts) : new Uint8Array(0);
  }

  function stream() {
    const d = new Decoder(true);
    return new TransformStream({
      transform(chunk, controller) {
        d.push(chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk));
        // A copy of each block's output, not a view of the frame's buffer: a response's clone (a
        // service worker keeping what it hands on) copies each chunk with its whole buffer.
        d.run((part) => controller.enqueue(part.slice()));
      },
      flush() {
        d.finish();
      },
    });
  }

  // ---- the app's packed files -----------------------------------------------------------------------
  // The folder holds its big files packed (build.py: <name>.zst). The service worker unpacks them on
  // their way to the page (sw.js); without one, the page and its Python worker do (page.js, worker.js).

  const TYPES = { wasm: "application/wasm", zip: "application/zip", tar: "application/x-tar" };

  // The host's response for <name>.zst as the response for `name`: unpacked as it streams in.
  function unpacked(response, name) {
    if (!response.ok) return response;
    const type = TYPES[name.slice(name.lastIndexOf(".") + 1)] || "application/octet-stream";
    return new Response(response.body.pipeThrough(stream()), { headers: { "Content-Type": type } });
  }

  // `fetch`, but each of `names` (relative to `base`) is asked for packed and handed on unpacked.
  function fetching(fetch, names, base) {
    return async (input, options) => {
      const url = new URL(input instanceof Request ? input.url : input, base).href;
      const name = url.startsWith(base) ? url.slice(base.length) : null;
      if (!names.includes(name)) return fetch(input, options);
      const { integrity, ...rest } = options || {};  // (a digest of the file unpacked)
      return unpacked(await fetch(`${url}.zst`, rest), name);
    };
  }

  globalThis.companionZstd = { decompress, stream, unpacked, fetching };
})();
