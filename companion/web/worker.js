// companion's Python worker, in place of Flet's python-worker.js: Pyodide, the app's archive unpacked
// and the browser entry (companion/web/browser.py) run, talking to Flutter through the page (page.js)
// as Flet's worker does. `companion build-web` writes Pyodide's lock file (no packages: the app loads
// none, so nothing is asked for) and the key of this build's Python.
//
// A memory snapshot: Python's start (the interpreter, then the imports of the app and of Flet) costs
// more than a second on a phone. The first start of a build takes a snapshot of Python's memory
// once the app's modules are imported and before anything of the page is touched, and keeps it in
// IndexedDB; every later start restores it instead (Pyodide's `_loadSnapshot`), unpacks the archive
// (the files the app reads later) and runs the app. The snapshot belongs to this build's Python, its
// app and the phone's time zone (Python reads the zone when it starts); any other is dropped.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const LOCK_FILE = "%LOCK_FILE%";
const KEY = "%SNAPSHOT_KEY%";
const HOME = "/home/pyodide";
const DATABASE = "companion-python";
const STORE = "snapshot";
// Imported before the snapshot: the browser entry's own (browser.prepare); nothing touches the page.
const PREPARE = `
import sys
sys.path[:0] = ["${HOME}", "${HOME}/__pypackages__"]
from companion.web.browser import prepare
prepare()
`;

// Flet's Python side (flet/messaging/pyodide_connection.py) sets start_connection and send here and
// reads documentUrl.
const fletJs = {};

function mark(name) {
  self.postMessage({ companionMark: name, t: performance.timeOrigin + performance.now() });
}

function database() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// This build's snapshot, or null (none yet, another build's, or no IndexedDB).
async function readSnapshot(key) {
  try {
    const db = await database();
    return await new Promise((resolve) => {
      const request = db.transaction(STORE).objectStore(STORE).get(key);
      request.onsuccess = () => resolve(request.result || null);
      request.onerror = () => resolve(null);
    });
  } catch (error) {
    return null;
  }
}

// Keep `snapshot` as the only one (null: none; the next start starts afresh).
async function writeSnapshot(key, snapshot) {
  const db = await database();
  const transaction = db.transaction(STORE, "readwrite");
  const store = transaction.objectStore(STORE);
  store.clear();  // another build's
  if (snapshot) {
    store.put(snapshot, key);
  }
  await new Promise((resolve, reject) => {
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
  });
}

// The archive (a tar of the USTAR kind; the service worker, or this worker, unpacked it from its .zst).
async function download(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

function unpack(pyodide, tar, root) {
  const FS = pyodide.FS;
  const decoder = new TextDecoder();
  const text = (at, length) => decoder.decode(tar.subarray(at, at + length)).replace(/\0[^]*$/, "");
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0;) {
    const name = [text(at + 345, 155), text(at, 100)].filter(Boolean).join("/");
    const size = parseInt(text(at + 124, 12).trim() || "0", 8);
    const type = tar[at + 156];
    at += 512;
    if (type === 48 || type === 0) {  // "0": a file
      const path = `${root}/${name}`;
      FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      FS.writeFile(path, tar.subarray(at, at + size));
    }
    at += Math.ceil(size / 512) * 512;
  }
}

// Python with the app's modules imported, whether it came from this build's snapshot, and, when it
// started afresh, the snapshot it took for the next start (kept once the app runs).
async function python(files, key) {
  const options = { lockFileContents: LOCK_FILE, stdout: (line) => console.log(line), stderr: (line) => console.error(line) };
  const snapshot = await readSnapshot(key);
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      mark("python restored");
      unpack(pyodide, await files, HOME);
      pyodide.runPython("import random; random.seed()");  // not the same numbers at every start
      return [pyodide, true, null];
    } catch (error) {
      console.warn("companion: Python's snapshot could not be restored; starting afresh:", error);
    }
  }
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  mark("python started");
  unpack(pyodide, await files, HOME);
  pyodide.runPython(PREPARE);
  mark("python imported");
  let made = null;
  try {
    made = pyodide.makeMemorySnapshot();
  } catch (error) {
    console.warn("companion: no snapshot of Python:", error);
  }
  // Taking a snapshot made `js` a proxy of the worker's globals (it records the paths to the objects
  // Python holds); the app gets the globals themselves.
  pyodide.registerJsModule("js", globalThis);
  pyodide.runPython("import sys; sys.modules.pop('js', None)");
  return [pyodide, false, made];
}

async function start(settings) {
  mark("worker");
  if (settings.unpack) {  // no service worker unpacks the big files on their way (page.js): this worker does
    await import("./zstd.js");
    self.fetch = companionZstd.fetching(self.fetch.bind(self), settings.unpack, new URL(".", self.location).href);
  }
  const files = download(settings.archive);
  files.catch(() => null);  // awaited below
  const key = `${KEY} ${Intl.DateTimeFormat().resolvedOptions().timeZone}`;
  const [pyodide, restored, made] = await python(files, key);
  fletJs.documentUrl = settings.documentUrl;
  pyodide.registerJsModule("flet_js", fletJs);
  try {
    await pyodide.runPythonAsync("from companion.web.browser import run\nrun()");
  } catch (error) {
    if (restored) {  // whatever it was, the next start does not take this snapshot again
      await writeSnapshot(null, null).catch(() => null);
    }
    throw error;
  }
  await fletJs.start_connection((message) => {
    const bytes = message.toJs();  // Python's bytes: a fresh copy, handed over without another
    self.postMessage(bytes, [bytes.buffer]);
  });
  self.postMessage("initialized");
  if (made) {  // kept after the app's start (copying 31 MB into IndexedDB takes a moment)
    setTimeout(() => writeSnapshot(key, made).catch((error) => console.warn("companion: Python's snapshot not kept:", error)), 1000);
  }
}

let started = false;
self.onmessage = (event) => {
  if (!started) {
    started = true;
    start(event.data).catch((error) => self.postMessage(String(error)));
  } else if (typeof fletJs.send === "function") {
    fletJs.send(event.data);
  } else {
    console.error("companion: a message for a Python app that has not started");
  }
};
