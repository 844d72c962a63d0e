// Compile Python to bytecode with the Python that runs it in the browser: Pyodide's own, under
// node.js (Python loads only bytecode of its own version).
//
//   node compile.mjs PYODIDE_DIR FOLDER STDLIB_OUT
//
// - every .py under FOLDER gets its bytecode beside it, as <name>.pyc (what Python imports when there
//   is no source), without its docstrings (a class keeps a one-character one: a dataclass without one
//   would work out its signature for a docstring at every import);
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
//   Docstrings are left out of the standard library's bytecode (as `python -OO` does; asserts too),
//   and of the encodings only those the app and its packages name are kept (ENCODINGS). Its entries
//   are stored, not compressed: the build packs the whole zip with Zstandard (build.py), which finds
//   what the modules have in common, and Python then imports them without inflating each one.
// All bytecode is "unchecked hash": nothing depends on a file's time, and the same source gives the
// same bytes. Its line table gives every instruction of a function the line the function starts at
// (a fifth of the bytes once compressed): a traceback names each file, function and that line.
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
import ast, importlib.util, marshal, pathlib, sys, zipfile

UNCHECKED_HASH = (0b01).to_bytes(4, "little")


#: A line table entry "no columns, the same line" (code 13, a line delta of 0) for 8 code units.
SAME_LINE = 0x80 | 13 << 3


def first_line(code):
    """\`code\` with every instruction at its first line (and so every function inside it)."""
    units = len(code.co_code) // 2
    table = bytearray()
    while units > 0:
        table += bytes((SAME_LINE | min(units, 8) - 1, 0))
        units -= 8
    consts = tuple(first_line(const) if isinstance(const, type(code)) else const for const in code.co_consts)
    return code.replace(co_linetable=bytes(table), co_consts=consts)


def pyc(source, code):
    header = importlib.util.MAGIC_NUMBER + UNCHECKED_HASH + importlib.util.source_hash(source)
    return header + marshal.dumps(first_line(code))


class Docstrings(ast.NodeTransformer):
    """Left out: a function's and a module's docstring; a class's becomes a full stop."""

    def strip(self, node, keep):
        self.generic_visit(node)
        body = node.body
        first = body[0].value if body and isinstance(body[0], ast.Expr) else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            if keep:
                first.value = "."
            else:
                node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
        return node

    def visit_Module(self, node):
        return self.strip(node, False)

    def visit_FunctionDef(self, node):
        return self.strip(node, False)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        return self.strip(node, True)


for source in sorted(pathlib.Path("/src").rglob("*.py")):
    data = source.read_bytes()
    tree = Docstrings().visit(ast.parse(data, str(source)))
    code = compile(tree, str(source.relative_to("/src")), "exec", dont_inherit=True)
    source.with_suffix(".pyc").write_bytes(pyc(data, code))
# What Python itself and a Flet worker (companion's worker.js or Flet's python-worker.js) import without an
# import statement we can see.
BOOTSTRAP = {"flet_js", "os", "runpy", "sys", "traceback", "pyodide", "_pyodide", "urllib", "shutil", "tarfile",
             "gzip", "zipfile", "encodings", "importlib", "codecs", "io", "abc", "site", "warnings",
             "_py_warnings", "linecache", "copyreg", "_compat_pickle", "_strptime", "_pydatetime", "_pydecimal",
             "sysconfig", "locale", "_weakrefset", "zipimport", "json", "asyncio"}


LEFT_OUT = {"email", "http", "xml", "xmlrpc", "unittest", "multiprocessing", "_pyrepl", "pdb", "pydoc",
            "pydoc_data", "doctest", "ftplib", "smtplib", "imaplib", "poplib", "mailbox", "socketserver",
            "webbrowser", "ctypes", "bdb", "cmd", "code", "rlcompleter", "tty", "netrc", "plistlib", "wsgiref",
            "argparse", "optparse", "getopt", "configparser"}
NOT_IN_BROWSER = {"webbrowser"}
#: The encodings kept: Python's own, those the app and its packages name, UTF-16 and -32 (json reads
#: them), and cp437 (zipfile's for names that are not marked UTF-8).
ENCODINGS = {"__init__", "aliases", "ascii", "latin_1", "utf_8", "utf_8_sig", "utf_16", "utf_16_le", "utf_16_be",
             "utf_32", "utf_32_le", "utf_32_be", "cp437", "unicode_escape", "raw_unicode_escape"}


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
    with zipfile.ZipFile(stdlib_out, "w", zipfile.ZIP_STORED) as compiled:
        for info in stdlib.infolist():
            if info.filename.split("/")[0].removesuffix(".py") not in seen:
                continue
            if info.filename.startswith("encodings/") and info.filename[10:].removesuffix(".py") not in ENCODINGS:
                continue
            data = stdlib.read(info)
            if info.filename.endswith(".py"):
                where = f"/lib/python{sys.version_info.major}{sys.version_info.minor}.zip/{info.filename}"
                code = compile(data, where, "exec", dont_inherit=True, optimize=2)
                data = pyc(data, code)
                info = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
            info.compress_type = zipfile.ZIP_STORED
            compiled.writestr(info, data)
`);
} catch (error) {
  console.error(error.message);  // Python's traceback, without node's own stack
  process.exit(1);
}
