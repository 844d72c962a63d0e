// Runs companion/web/zstd.js under node for tests/test_zstd.py.
//
//   node zstd_driver.mjs ZSTD_JS JOBS_JSON
//
// JOBS_JSON is a list of jobs; it prints one JSON list of results, one per job:
// - {"input": path, "expect": path, "chunks": [sizes...] (stream(), the sizes in turn) or absent
//   (decompress())} -> {"ok": output equals expect, "size": output size, "shared": how many of
//   stream()'s chunks are views of a larger buffer} or {"error": message};
// - {"input": path, "expect": path, "flips": [[offset, xor], ...]} -> for each flip, decompress() of
//   the input with that byte changed: "error: message", "same" (the expected output) or "different";
//   and the slowest flip's time in ms;
// - {"input": path, "early": true}: stream() given the first half of the input: how many bytes came
//   out before the rest was written.
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const [zstdPath, jobsPath] = process.argv.slice(2);
await import(pathToFileURL(zstdPath).href);
const { decompress, stream } = globalThis.companionZstd;

function same(a, b) {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), b) === 0;
}

function concat(parts) {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let n = 0;
  for (const part of parts) {
    all.set(part, n);
    n += part.length;
  }
  return all;
}

// stream() fed data in chunks of the given sizes, in turn; the output chunks are joined at the end
// (so a chunk written again after it was handed out would show)
async function viaStream(data, sizes, stopAt) {
  const ts = stream();
  const reader = ts.readable.getReader();
  const parts = [];
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parts.push(value);
    }
  })();
  const writer = ts.writable.getWriter();
  const writing = (async () => {
    let at = 0;
    for (let k = 0; at < data.length && at < stopAt; k++) {
      const n = sizes[k % sizes.length];
      await writer.write(data.slice(at, at + n));
      at += n;
    }
    if (stopAt < data.length) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return;
    }
    await writer.close();
  })();
  const [w, r] = await Promise.allSettled([writing, stopAt < data.length ? null : reading]);
  if (w.status === "rejected") throw w.reason;
  if (r.status === "rejected") throw r.reason;
  return parts;
}

async function runJob(job) {
  const input = new Uint8Array(fs.readFileSync(job.input));
  if (job.early) {
    const parts = await viaStream(input, [4096], input.length >> 1);
    return { early: parts.reduce((n, p) => n + p.length, 0) };
  }
  const expect = fs.readFileSync(job.expect);
  if (job.flips) {
    const outcomes = [];
    let slowest = 0;
    for (const [offset, xor] of job.flips) {
      const bad = input.slice();
      bad[offset] ^= xor;
      const t = performance.now();
      try {
        outcomes.push(same(decompress(bad), expect) ? "same" : "different");
      } catch (e) {
        outcomes.push("error: " + (e instanceof Error ? e.message : String(e)));
      }
      slowest = Math.max(slowest, performance.now() - t);
    }
    return { outcomes, slowest };
  }
  try {
    const parts = job.chunks ? await viaStream(input, job.chunks, Infinity) : [decompress(input)];
    const out = concat(parts);
    const shared = parts.filter((part) => part.byteLength !== part.buffer.byteLength).length;
    return { ok: same(out, expect), size: out.length, shared };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

const results = [];
for (const job of JSON.parse(fs.readFileSync(jobsPath, "utf8"))) results.push(await runJob(job));
process.stdout.write(JSON.stringify(results));
