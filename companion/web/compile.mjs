// Compile Python to bytecode with the Python that runs it in the browser: Pyodide's own, under
// node.js (Python loads only bytecode of its own version).
//
//   node compile.mjs PYODIDE_DIR FOLDER STDLIB_OUT
//
// - every .py under FOLDER gets its bytecode beside it, as <name>.pyc (what Python imports when there
//   is no source);
// - STDLIB_OUT is PYODIDE_DIR/python_stdlib.zip with each module replaced by its bytecode: Pyodide's
//   own start-up imports dozens of them, and compiling those at every start is most of its time.
//   It holds only what the app may import: the standard library's top-level modules and packages
//   that Python has loaded once Pyodide is up, that Flet's worker imports, that any module under
//   FOLDER imports anywhere (in a function too), and, again and again, those that these import (a
//   package is kept whole). Left out whatever they import: the parts of the standard library no
//   code of the app reaches (LEFT_OUT: mail, HTTP servers and clients, XML, tests, debuggers,
//   processes, the REPL, command-line parsers), so a first visit and each start carry fewer bytes.
//   A module under FOLDER that imports one of them fails the build (but webbrowser, which Flet
//   imports only to open a desktop browser).
//   Docstrings are left out of the standard library's bytecode (as `python -OO` does; asserts too).
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
try {
  pyodide.runPython(`
import ast, importlib.util, marshal, pathlib, py_compile, sys, zipfile

for source in sorted(pathlib.Path("/src").rglob("*.py")):
    py_compile.compile(str(source), cfile=str(source.with_suffix(".pyc")), dfile=str(source.relative_to("/src")),
                       doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)

UNCHECKED_HASH = (0b01).to_bytes(4, "little")
# What Flet's worker (python-worker.js) and Python itself import without an import statement we can see.
BOOTSTRAP = {"flet_js", "os", "runpy", "sys", "traceback", "pyodide", "_pyodide", "urllib", "shutil", "tarfile",
             "gzip", "zipfile", "encodings", "importlib", "codecs", "io", "abc", "site", "warnings",
             "_py_warnings", "linecache", "copyreg", "_compat_pickle", "_strptime", "_pydatetime", "_pydecimal",
             "sysconfig", "locale", "_weakrefset", "zipimport", "json", "asyncio"}


LEFT_OUT = {"email", "http", "xml", "xmlrpc", "unittest", "multiprocessing", "_pyrepl", "pdb", "pydoc",
            "pydoc_data", "doctest", "ftplib", "smtplib", "imaplib", "poplib", "mailbox", "socketserver",
            "webbrowser", "ctypes", "bdb", "cmd", "code", "rlcompleter", "tty", "netrc", "plistlib", "wsgiref",
            "argparse", "optparse", "getopt", "configparser"}
NOT_IN_BROWSER = {"webbrowser"}


def imported(source, package):
    """The top-level names of every module source imports, at any depth of its code."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module.split(".")[0] if node.level == 0 and node.module else package)
    return names


with zipfile.ZipFile("/pyodide/python_stdlib.zip") as stdlib:
    by_top = {}
    for info in stdlib.infolist():
        top = info.filename.split("/")[0].removesuffix(".py")
        by_top.setdefault(top, []).append(info)
    wanted = {name.split(".")[0] for name in sys.modules} | BOOTSTRAP
    for source in sorted(pathlib.Path("/src").rglob("*.py")):
        missing = imported(source.read_bytes(), "") & LEFT_OUT - NOT_IN_BROWSER
        if missing:
            raise SystemExit(f"{source.relative_to('/src')} imports {', '.join(sorted(missing))}, which the "
                             "build leaves out of the standard library (compile.mjs LEFT_OUT)")
        wanted |= imported(source.read_bytes(), "")
    seen = set()
    while todo := (wanted & by_top.keys()) - seen - LEFT_OUT:
        for top in sorted(todo):
            seen.add(top)
            for info in by_top[top]:
                if info.filename.endswith(".py"):
                    wanted |= imported(stdlib.read(info), top)
    with zipfile.ZipFile(stdlib_out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as compiled:
        for info in stdlib.infolist():
            if info.filename.split("/")[0].removesuffix(".py") not in seen:
                continue
            data = stdlib.read(info)
            if info.filename.endswith(".py"):
                where = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip/{info.filename}"
                code = compile(data, where, "exec", dont_inherit=True, optimize=2)
                data = importlib.util.MAGIC_NUMBER + UNCHECKED_HASH + importlib.util.source_hash(data) + marshal.dumps(code)
                info = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
                info.compress_type = zipfile.ZIP_DEFLATED
            compiled.writestr(info, data)
`);
} catch (error) {
  console.error(error.message);  // Python's traceback, without node's own stack
  process.exit(1);
}
