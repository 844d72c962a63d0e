// Compile Python to bytecode with the Python that runs it in the browser: Pyodide's own, under
// node.js (Python loads only bytecode of its own version).
//
//   node compile.mjs PYODIDE_DIR FOLDER STDLIB_OUT
//
// - every .py under FOLDER gets its bytecode beside it, as <name>.pyc (what Python imports when there
//   is no source);
// - STDLIB_OUT is PYODIDE_DIR/python_stdlib.zip with each module replaced by its bytecode: Pyodide's
//   own start-up imports dozens of them, and compiling those at every start is most of its time.
// All bytecode is "unchecked hash": nothing depends on a file's time, and the same source gives the
// same bytes.
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, folder, stdlibOut] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide();
for (const [where, root] of [["/src", folder], ["/pyodide", pyodideDir], ["/out", path.dirname(stdlibOut)]]) {
  pyodide.FS.mkdirTree(where);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root }, where);
}
pyodide.globals.set("stdlib_out", `/out/${path.basename(stdlibOut)}`);
pyodide.runPython(`
import importlib.util, marshal, pathlib, py_compile, sys, zipfile

for source in sorted(pathlib.Path("/src").rglob("*.py")):
    py_compile.compile(str(source), cfile=str(source.with_suffix(".pyc")), dfile=str(source.relative_to("/src")),
                       doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)

UNCHECKED_HASH = (0b01).to_bytes(4, "little")
with zipfile.ZipFile("/pyodide/python_stdlib.zip") as stdlib, \\
        zipfile.ZipFile(stdlib_out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as compiled:
    for info in stdlib.infolist():
        data = stdlib.read(info)
        if info.filename.endswith(".py"):
            where = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip/{info.filename}"
            code = compile(data, where, "exec", dont_inherit=True)
            data = importlib.util.MAGIC_NUMBER + UNCHECKED_HASH + importlib.util.source_hash(data) + marshal.dumps(code)
            info = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
            info.compress_type = zipfile.ZIP_DEFLATED
        compiled.writestr(info, data)
`);
